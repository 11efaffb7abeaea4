package retail

import (
	"reflect"
	"testing"

	"github.com/parthack/parthack/domains"
	"github.com/parthack/parthack/domains/tau2"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
)

func checker(t testing.TB) *tau2.Checker {
	db, err := Shipped()
	if err != nil {
		t.Fatal(err)
	}
	c, err := tau2.NewChecker(NewDomain(db))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestConformance replays every call of both shipped retail run files
// and holds every result string, reward, db_match, action check and
// communicate check to what tau2 recorded.
func TestConformance(t *testing.T) {
	c := checker(t)
	c.Hashes = true // db_match by tau2's hashes; TestDBMatchByChanges holds the cheaper verdict to it
	// The mini file was made at ade3949, whose task_ids are wrong: all but
	// one of its runs are scored against another task (tau2.Remap).
	wantCalls := map[string]int{"runs/retail-gpt-4.1-mini.json.gz": 873, "runs/retail-gpt-4.1.json.gz": 299}
	wantRemapped := map[string]int{"runs/retail-gpt-4.1-mini.json.gz": 113, "runs/retail-gpt-4.1.json.gz": 0}
	for _, name := range tau2.RunFiles("retail") {
		src, err := tau2.RunFile(name)
		if err != nil {
			t.Fatal(err)
		}
		r, err := tau2.Decode(name, src)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := c.Conform(r)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: runs %d, calls %d/%d equal, rewards %d equal, db %d/%d, actions %d/%d, communicate %d/%d, remapped %d",
			name, rep.Runs, rep.CallsEqual, rep.Calls, rep.RewardsEqual, rep.DBEqual, rep.DBChecks, rep.ActionEqual, rep.ActionChecks,
			rep.CommunicateEqual, rep.CommunicateChecks, rep.Remapped)
		if rep.CallsEqual != rep.Calls || rep.RewardsEqual != rep.Runs || rep.DBEqual != rep.DBChecks || rep.ActionEqual != rep.ActionChecks ||
			rep.CommunicateEqual != rep.CommunicateChecks || rep.Calls != wantCalls[name] || rep.Remapped != wantRemapped[name] {
			t.Errorf("%s: %+v (want %d calls, %d runs re-mapped)", name, *rep, wantCalls[name], wantRemapped[name])
		}
		for i, d := range rep.Disagreements {
			if i < 15 {
				t.Errorf("%s: sim %d %s call %d %s: got %.300q want %.300q", name, d.Index, d.Sim, d.Call, d.What, d.Got, d.Want)
			}
		}
	}
}

// TestDBMatchByChanges: deciding db_match by the end states' net changes
// gives tau2's verdict by hashes on every shipped retail run.
func TestDBMatchByChanges(t *testing.T) {
	byHash, byChanges := checker(t), checker(t)
	byHash.Hashes = true
	for _, name := range tau2.RunFiles("retail") {
		src, _ := tau2.RunFile(name)
		r, err := tau2.Decode(name, src)
		if err != nil {
			t.Fatal(err)
		}
		for _, sim := range r.Simulations {
			a, err := byHash.Replay(r, sim)
			if err != nil {
				t.Fatal(err)
			}
			b, err := byChanges.Replay(r, sim)
			if err != nil {
				t.Fatal(err)
			}
			if a.Score.DBMatch != b.Score.DBMatch || a.Score.Hash == "" || b.Score.Hash != "" {
				t.Errorf("%s %s: db_match %t by hashes, %t by changes", name, sim.ID, a.Score.DBMatch, b.Score.DBMatch)
			}
		}
	}
}

// TestConformReadsTheCertifiedReplay: a file held to what tau2 recorded
// (the Reader's Conformer) reads each run from the trajectory and replay
// its certification handed back (domains.Run.Certified), not from a
// replay of its own: the same report as replaying each run again, and a
// replay handed back that lacks a run's last call is the one read.
func TestConformReadsTheCertifiedReplay(t *testing.T) {
	d, err := domains.Lookup(DomainName)
	if err != nil {
		t.Fatal(err)
	}
	reader := d.(tau2.Reader)
	name := tau2.RunFiles("retail")[1]
	conform := func(hand func(rn *domains.Run) (*model.Trajectory, *pbcste.Log)) *domains.Conformance {
		t.Helper()
		src, _ := tau2.RunFile(name)
		res, err := tau2.Decode(name, src)
		if err != nil {
			t.Fatal(err)
		}
		run, _, err := reader.Runner(res)
		if err != nil {
			t.Fatal(err)
		}
		check, report, err := reader.Conformer(res)
		if err != nil {
			t.Fatal(err)
		}
		for _, sim := range res.Simulations {
			rn, err := run(sim)
			if err != nil {
				t.Fatal(err)
			}
			if hand != nil {
				rn.Certified(hand(rn))
			}
			if err := check(sim); err != nil {
				t.Fatal(err)
			}
		}
		return report()
	}
	replay := func(rn *domains.Run, drop int) (*model.Trajectory, *pbcste.Log) {
		h, err := rn.Trajectory()
		if err != nil {
			t.Fatal(err)
		}
		env, err := rn.Embedded.Env()
		if err != nil {
			t.Fatal(err)
		}
		h.Steps = h.Steps[:max(len(h.Steps)-drop, 0)]
		return h, env.Replay(h.Steps)
	}
	alone := conform(nil)
	handed := conform(func(rn *domains.Run) (*model.Trajectory, *pbcste.Log) { return replay(rn, 0) })
	if !reflect.DeepEqual(alone, handed) {
		t.Errorf("held to tau2's record from the certified replays:\n%+v\nreplaying each run:\n%+v", handed, alone)
	}
	short := conform(func(rn *domains.Run) (*model.Trajectory, *pbcste.Log) { return replay(rn, 1) })
	if short.Calls >= alone.Calls {
		t.Errorf("replays handed back without each run's last call: %d calls read, %d replaying each run", short.Calls, alone.Calls)
	}
}
