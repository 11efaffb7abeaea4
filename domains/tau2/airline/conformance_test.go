package airline

import (
	"fmt"
	"testing"

	"github.com/parthack/parthack/domains"
	"github.com/parthack/parthack/domains/tau2"
	"github.com/parthack/parthack/model"
)

func checker(t testing.TB) *tau2.Checker {
	db, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	c, err := tau2.NewChecker(NewWorld(db))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func shippedRuns(t testing.TB) []*tau2.Results {
	var out []*tau2.Results
	for _, name := range tau2.RunFiles("airline") {
		src, err := tau2.RunFile(name)
		if err != nil {
			t.Fatal(err)
		}
		r, err := tau2.Decode(name, src)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	if len(out) != 5 {
		t.Fatalf("%d airline run files shipped, want 5", len(out))
	}
	return out
}

// knownDifferences are the calls the port answers otherwise than the
// file records: file, simulation index, call number → cause, where the
// two texts part and why. (Paired by id, not by position as tau2 pairs
// them, five more calls of the file differed.)
var knownDifferences = map[string]map[[2]int]string{
	"runs/airline-gpt-oss-120b.json.gz": {
		{7, 5}:  `character 97: port "…, input_value={'id': 'certificat…", file "…, input_value={'type': 'certific…"; ` + keyOrder,
		{19, 4}: `character 96: port "…, input_value={'amount': 250, 'i…", file "…, input_value={'id': 'certificat…"; ` + keyOrder,
	},
}

// TestConformance replays every call of the five shipped airline run
// files on the port and holds every result string, reward, db_match,
// action check and communicate check to what tau2 recorded; the calls
// that differ are exactly the known ones, each with its cause. db_match
// is decided both ways: by the end states' net changes and by tau2's DB
// hashes of the run's and gold's end states.
func TestConformance(t *testing.T) {
	for _, hashes := range []bool{false, true} {
		c := checker(t)
		c.Hashes = hashes
		conform(t, c)
	}
}

func conform(t *testing.T, c *tau2.Checker) {
	wantCalls := map[string]int{"runs/airline-claude-sonnet-4-5.json.gz": 371, "runs/airline-gpt-4.1-mini.json.gz": 581,
		"runs/airline-gpt-4.1.json.gz": 148, "runs/airline-gpt-4o.json.gz": 277, "runs/airline-gpt-oss-120b.json.gz": 847}
	// ade3949's task_ids are wrong: 49 of its 50 runs are scored against
	// another task (tau2.Remap).
	wantRemapped := map[string]int{"runs/airline-gpt-4.1-mini.json.gz": 49}
	for _, r := range shippedRuns(t) {
		rep, err := c.Conform(r)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("hashes %t: %s: runs %d, calls %d/%d equal, rewards %d/%d equal, db %d/%d, actions %d/%d, communicate %d/%d, remapped %d",
			c.Hashes, r.File, rep.Runs, rep.CallsEqual, rep.Calls, rep.RewardsEqual, rep.Runs, rep.DBEqual, rep.DBChecks, rep.ActionEqual, rep.ActionChecks,
			rep.CommunicateEqual, rep.CommunicateChecks, rep.Remapped)
		known := knownDifferences[r.File]
		if rep.Calls != wantCalls[r.File] || rep.CallsEqual != rep.Calls-len(known) || rep.RewardsEqual != rep.Runs ||
			rep.DBEqual != rep.DBChecks || rep.ActionEqual != rep.ActionChecks || rep.CommunicateEqual != rep.CommunicateChecks ||
			rep.Remapped != wantRemapped[r.File] {
			t.Errorf("%s: %d calls (want %d), %d equal (want %d), rewards %d/%d, db %d/%d, actions %d/%d, communicate %d/%d, remapped %d (want %d)",
				r.File, rep.Calls, wantCalls[r.File], rep.CallsEqual, rep.Calls-len(known), rep.RewardsEqual, rep.Runs, rep.DBEqual, rep.DBChecks,
				rep.ActionEqual, rep.ActionChecks, rep.CommunicateEqual, rep.CommunicateChecks, rep.Remapped, wantRemapped[r.File])
		}
		for _, d := range rep.Disagreements {
			if cause, ok := known[[2]int{d.Index, d.Call}]; !ok {
				t.Errorf("%s: simulation %d, call %d (%s): got %.300q, tau2 recorded %.300q", r.File, d.Index, d.Call, d.What, d.Got, d.Want)
			} else if d.Cause != cause {
				t.Errorf("%s: simulation %d, call %d: cause %q, want %q", r.File, d.Index, d.Call, d.Cause, cause)
			}
		}
	}
}

// TestThreeCertificates: in airline-gpt-oss-120b's run 6 the agent sends
// three certificates, all three calls under one id; paired by position,
// as tau2 pairs them, each gets its own result and the port gives the
// same three (looked up by id, all three got the last).
func TestThreeCertificates(t *testing.T) {
	c := checker(t)
	for _, r := range shippedRuns(t) {
		if r.File != "runs/airline-gpt-oss-120b.json.gz" {
			continue
		}
		sim := r.Simulations[6]
		rp, err := c.Replay(r, sim)
		if err != nil {
			t.Fatal(err)
		}
		for i, n := range []int{7, 8, 9} {
			want := fmt.Sprintf("Certificate certificate_322132%d added to user mei_brown_7075 with amount 200.", 2+i)
			if tool := rp.Traj.Steps[n-1].Tool; tool != "send_certificate" || rp.Recorded[n-1] != want || rp.Outputs[n-1] != want {
				t.Errorf("call %d (%s): recorded %q, port %q; want %q", n, tool, rp.Recorded[n-1], rp.Outputs[n-1], want)
			}
		}
		return
	}
	t.Fatal("airline-gpt-oss-120b is not shipped")
}

// TestTasksDerivedOncePerText: the shipped airline files embed the same
// tasks in the same words, and each is derived once for all of them (its
// gold calls replayed once): every run of a task, from whichever file,
// is scored against one derived task.
func TestTasksDerivedOncePerText(t *testing.T) {
	d, err := domains.Lookup(DomainName)
	if err != nil {
		t.Fatal(err)
	}
	runs, err := d.Runs()
	if err != nil {
		t.Fatal(err)
	}
	byTask := map[string]*model.Task{}
	files := map[string]map[string]bool{} // task → the files whose runs score on it
	for _, r := range runs {
		if files[r.Task] == nil {
			files[r.Task] = map[string]bool{}
		}
		files[r.Task][r.Model] = true
		if m, ok := byTask[r.Task]; !ok {
			byTask[r.Task] = r.Embedded.Model
		} else if m != r.Embedded.Model {
			t.Errorf("%s: its runs are scored against %p and %p, two derivations of one text", r.Name, m, r.Embedded.Model)
		}
	}
	if len(files["T2A-0"]) < 2 {
		t.Fatalf("task T2A-0 is run in %d files; the test needs a task two files embed", len(files["T2A-0"]))
	}
}
