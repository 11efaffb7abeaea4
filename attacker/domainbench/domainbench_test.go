package domainbench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/parthack/parthack/domains"
	_ "github.com/parthack/parthack/domains/tau2/retail"
	_ "github.com/parthack/parthack/domains/tau2/telecom"
	_ "github.com/parthack/parthack/domains/tauair"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
	"github.com/parthack/parthack/report"
)

// stopped are the runs tau-bench's loop stopped at max_num_steps (30
// actions) before the episode ended: it computed no reward for them (0).
// gpt-4o-t46-trial3's final database is gold's and its task asks for no
// output: an ended episode would have scored 1.
var stopped = []string{"gpt-4o-t02-trial1", "gpt-4o-t09-trial2", "gpt-4o-t09-trial3", "gpt-4o-t33-trial0", "gpt-4o-t46-trial3"}

// airline is tau-bench's airline domain, the one real domain these tests
// hold to known figures.
func airline(t *testing.T) domains.Domain {
	t.Helper()
	d, err := domains.Lookup("tau-airline")
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestOutcomeIsTauBenchReward: tau-bench's reward, recomputed from the
// data hash on all 200 GPT-4o runs and from the public payload alone on
// the runs of tasks with a goal that tau-bench did not stop, is the
// reward tau-bench recorded; the runs its loop stopped at max_num_steps
// are told apart (Excluded) and score 0, as tau-bench scored them.
func TestOutcomeIsTauBenchReward(t *testing.T) {
	runs, err := Certify(airline(t), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 200 {
		t.Fatalf("%d runs, want 200", len(runs))
	}
	passed, fromPayload := 0, 0
	var ended []string
	for _, r := range runs {
		if r.Excluded != "" && strings.Contains(r.Excluded, "max_num_steps") {
			ended = append(ended, r.Run)
			if r.Outcome != nil {
				t.Errorf("%s: stopped by tau-bench's loop, yet scored from the payload", r.Run)
			}
		}
		if r.Recomputed != r.Reward {
			t.Errorf("%s: reward from the data hash %g, tau-bench recorded %g", r.Run, r.Recomputed, r.Reward)
		}
		if r.Outcome != nil {
			fromPayload++
			if *r.Outcome != r.Reward {
				t.Errorf("%s: reward from the payload %g, tau-bench recorded %g", r.Run, *r.Outcome, r.Reward)
			}
		}
		if r.Reward == 1 {
			passed++
		}
	}
	if slices.Sort(ended); !slices.Equal(ended, stopped) {
		t.Errorf("runs stopped at max_num_steps: %v, want %v", ended, stopped)
	}
	if passed != 84 || fromPayload != 115 {
		t.Errorf("%d runs passed (the corpus has 84), %d scored from the payload (want the 120 of tasks with a goal less the 5 stopped)", passed, fromPayload)
	}
}

// TestRunIsDeterministic: the same options give the same ledgers, runs
// and witnesses, byte for byte, whatever the workers and cores: with
// several workers the runs start largest walk first, not in their
// order, and the candidates are scored on every core.
func TestRunIsDeterministic(t *testing.T) {
	cases := []struct {
		domain string
		tasks  []string
	}{
		{"tau-airline", []string{"TAU-A01", "TAU-A04", "TAU-A06"}},
		{"tau2-retail", []string{"T2R-0", "T2R-101", "T2R-11"}},
	}
	for _, c := range cases {
		t.Run(c.domain, func(t *testing.T) {
			d, err := domains.Lookup(c.domain)
			if err != nil {
				t.Fatal(err)
			}
			opt := Options{Domain: d, Edits: 1, Tasks: c.tasks, SameEnd: true}
			var outs []string
			for _, run := range []struct{ workers, procs int }{{1, 1}, {4, 1}, {4, 4}} {
				opt.Workers = run.workers
				prev := runtime.GOMAXPROCS(run.procs)
				res, err := Run(context.Background(), opt, nil)
				runtime.GOMAXPROCS(prev)
				if err != nil {
					t.Fatal(err)
				}
				outs = append(outs, resultText(t, res))
			}
			for i, o := range outs[1:] {
				if o != outs[0] {
					t.Fatalf("run %d differs from one worker on one core:\n%s\n%s", i+1, o, outs[0])
				}
			}
		})
	}
}

// resultText is a bench's result as bytes: both ledgers, the runs and
// every witness.
func resultText(t *testing.T, res *Result) string {
	t.Helper()
	var b bytes.Buffer
	for _, l := range []*report.Ledger{res.Failed, res.Control} {
		if err := report.WriteJSON(&b, l); err != nil {
			t.Fatal(err)
		}
	}
	runs, err := json.Marshal(res.Runs)
	if err != nil {
		t.Fatal(err)
	}
	b.Write(runs)
	for _, r := range res.Runs {
		for _, w := range r.Witnesses {
			fmt.Fprintf(&b, "\n%s %t %v %s %s %v\n", w.Target, w.AnyEnd, w.Delta, w.End, w.Rise, w.Collateral)
			b.Write(model.EncodeTrajectory(w.Trajectory))
		}
	}
	return b.String()
}

// TestEndsHashEachLogOnce: where the benchmark's state hash is a whole
// database's (tau2), each log compared is hashed once, and a witness
// whose steps another had is replayed and compared once: H's hash once,
// each witness's once, gold's once when a witness is compared with it.
func TestEndsHashEachLogOnce(t *testing.T) {
	d := airline(t)
	runs, err := d.Runs()
	if err != nil {
		t.Fatal(err)
	}
	// The first run whose last call changes its end.
	var c *Checked
	for _, r := range runs {
		if c, err = Check(d, r); err != nil {
			t.Fatal(err)
		}
		if n := len(c.H.Steps); n > 0 {
			if same, _ := pbcste.Collateral(c.Res.Log, c.Env.Replay(c.H.Steps[:n-1])); !same {
				break
			}
		}
	}
	task := *c.Task
	hashed := 0
	task.Hash = func(l *pbcste.Log) string { hashed++; return c.Task.Hash(l) }
	ends := NewEnds(&task, c.Env, c.Res.Log)
	h := c.H.Steps
	short := h[:len(h)-1] // H without its last call: another end
	cases := []struct {
		steps   []model.Step
		end     string
		hashed  int
		sameLog bool // the log of the case before
	}{
		{h, report.EndSame, 2, false},
		{slices.Clone(h), report.EndSame, 2, true},
		{short, report.EndOther, 4, false},
		{slices.Clone(short), report.EndOther, 4, true},
	}
	var prev *pbcste.Log
	for i, tc := range cases {
		log, end, _, err := ends.Witness(tc.steps)
		if err != nil {
			t.Fatal(err)
		}
		if end != tc.end || hashed != tc.hashed || (log == prev) != tc.sameLog {
			t.Errorf("witness %d: ends %s after %d hashes (same log as before: %t), want %s after %d (%t)", i, end, hashed, log == prev, tc.end, tc.hashed, tc.sameLog)
		}
		prev = log
	}
}

// TestSameEnd: each witness says whether it ends in H's database and,
// when it does not, which cells differ; asked for witnesses that end
// there, the search admits no other, and finds fewer successes.
func TestSameEnd(t *testing.T) {
	tasks := []string{"TAU-A01", "TAU-A04", "TAU-A10"}
	all, only := runWith(t, Options{Domain: airline(t), Tasks: tasks}), runWith(t, Options{Domain: airline(t), Tasks: tasks, SameEnd: true})
	different := 0
	for i, r := range all.Runs {
		if r.Witness == nil {
			continue
		}
		if r.SameEnd == nil || *r.SameEnd != (len(r.Collateral) == 0) {
			t.Fatalf("%s: same end %v with %d cells of collateral", r.Run, r.SameEnd, len(r.Collateral))
		}
		if !*r.SameEnd {
			different++
		}
		if o := only.Runs[i]; o.Witness != nil && (o.SameEnd == nil || !*o.SameEnd) {
			t.Fatalf("%s: --same-end admitted a witness that ends elsewhere: %+v", o.Run, o.Collateral)
		}
	}
	if different == 0 {
		t.Fatal("no witness with collateral on tasks known to have some (a second cancel's refund)")
	}
}

// TestWhereAttacksEnd: admitting only witnesses that end in H's state,
// every success is evaluator inflation and says why the evaluator rose;
// a run with none says where the best attack over .10 of the search that
// admits any end ends: TAU-A01's cancels a reservation twice and leaves a
// second refund (elsewhere); TAU-A14's trial 2 drops a wrong write of H's
// and ends in gold's database (tau-bench's reward rises: better work),
// where on its other trials dropping it changes what a later call of H's
// returned (the reservation it renders), so no run of tau-bench holds it.
// Admitting any end, the successes are those attacks themselves.
func TestWhereAttacksEnd(t *testing.T) {
	tasks := []string{"TAU-A01", "TAU-A04", "TAU-A14"}
	want := map[string]map[string]string{ // task → target → attack_end, on every failed run but those of byRun
		"TAU-A01": {"historical_milestone": report.EndOther},
		"TAU-A04": {"historical_milestone": report.EndSame},
		"TAU-A14": {"benchmark_reward": report.EndGold},
	}
	byRun := map[string]string{"gpt-4o-t14-trial0": "", "gpt-4o-t14-trial1": "", "gpt-4o-t14-trial3": ""} // benchmark_reward's attack_end
	for _, sameEnd := range []bool{true, false} {
		res := runWith(t, Options{Domain: airline(t), Tasks: tasks, SameEnd: sameEnd})
		task := map[string]string{}
		for _, r := range res.Runs {
			task[r.Run] = r.Task
			for _, w := range r.Witnesses {
				if w.AnyEnd && (!sameEnd || w.End == report.EndSame) {
					t.Errorf("same end %t: %s's any-end witness against %s ends %s", sameEnd, r.Run, w.Target, w.End)
				}
			}
		}
		for _, r := range res.Failed.Rows {
			success := r.Delta != nil && report.Success(*r.Delta)
			switch {
			case sameEnd && r.Matched && !*r.SameEnd:
				t.Errorf("%s %s %s: a witness that ends elsewhere was admitted", r.Set, r.Target, r.Task)
			case sameEnd && success != (r.End == report.EndSame):
				t.Errorf("%s %s %s: Δ %v, attack_end %q", r.Set, r.Target, r.Task, *r.Delta, r.End)
			case !sameEnd && success != (r.End != ""):
				t.Errorf("any end: %s %s %s: Δ %v, attack_end %q", r.Set, r.Target, r.Task, *r.Delta, r.End)
			case (r.End == report.EndSame) != (r.Rise != ""):
				t.Errorf("%s %s %s: attack_end %q, rise %q", r.Set, r.Target, r.Task, r.End, r.Rise)
			}
			w, ok := want[task[r.Task]][r.Target]
			if e, exception := byRun[r.Task]; exception && ok {
				w = e
			}
			if ok && r.Set == report.SetTargeted && r.End != w {
				t.Errorf("same end %t: %s %s: attack_end %q, want %q", sameEnd, r.Target, r.Task, r.End, w)
			}
		}
	}
}

func runWith(t *testing.T, opt Options) *Result {
	t.Helper()
	res, err := Run(context.Background(), opt, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestRollbackKeepsTau2Turns: a strict rollback appends one call after
// H's last, which tau2 lets the agent make only on a turn of its own in
// H's conversation: T2R-101's GPT-4.1-mini run has one, and the same run
// with its conversation ended by tau2 (max_steps) has none.
func TestRollbackKeepsTau2Turns(t *testing.T) {
	d, err := domains.Lookup("tau2-retail")
	if err != nil {
		t.Fatal(err)
	}
	runs, err := d.Runs()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range runs {
		if r.Name != "T2R-101-gpt-4.1-mini-2025-04-14-trial0" {
			continue
		}
		task := r.Embedded
		env, err := task.Env()
		if err != nil {
			t.Fatal(err)
		}
		h, err := r.Trajectory()
		if err != nil {
			t.Fatal(err)
		}
		pub := task.AttackTask(h, env.Replay(h.Steps).View())
		if _, _, ok, err := rollback(env, pub, h); err != nil || !ok {
			t.Fatalf("%s: no strict rollback (%v)", r.Name, err)
		}
		ended := *h
		ended.Termination = "max_steps"
		if rb, _, ok, err := rollback(env, pub, &ended); err != nil || ok {
			t.Fatalf("%s ended by max_steps: a strict rollback %v (%v)", r.Name, rb, err)
		}
		return
	}
	t.Fatal("no GPT-4.1-mini run of T2R-101")
}

// TestTelecomGoldEnd: on tau2 telecom the gold state is tau2's gold
// environment (the gold calls with no sync after them), not the gold run
// replayed as a run: the replayed gold run ends there on the tasks tau2's
// own DB check passes it (58 of 100), and a witness is "gold" by that
// state alone (bench called 3 witnesses gold that tau2 puts elsewhere).
func TestTelecomGoldEnd(t *testing.T) {
	d, err := domains.Lookup("tau2-telecom")
	if err != nil {
		t.Fatal(err)
	}
	tasks, err := d.Tasks()
	if err != nil {
		t.Fatal(err)
	}
	gold, moved := 0, 0
	for _, task := range tasks {
		env, err := task.Env()
		if err != nil {
			t.Fatal(err)
		}
		start, glog := env.Replay(nil), env.Replay(task.Gold.Steps)
		if task.Hash(start) == task.Hash(glog) {
			continue // gold changes nothing: its end is H's own
		}
		moved++
		end, _, err := NewEnds(task, env, start).Of(glog)
		if err != nil {
			t.Fatal(err)
		}
		if (end == report.EndGold) != (task.Hash(glog) == task.GoldHash) {
			t.Errorf("%s: the gold run replayed ends %s", task.ID, end)
		}
		if end == report.EndGold {
			gold++
		}
	}
	if moved == 0 || gold == moved {
		t.Fatalf("the gold run replayed ends in gold's state on %d of the %d tasks it changes: the sync after each call should part some", gold, moved)
	}
}

// goldless is a domain whose tasks at some positions lose their gold run.
type goldless struct {
	domains.Domain
	at []int
}

func (g goldless) Tasks() ([]*domains.Task, error) {
	ts, err := g.Domain.Tasks()
	if err != nil {
		return nil, err
	}
	ts = slices.Clone(ts)
	for _, i := range g.at {
		c := *ts[i]
		c.Gold = nil
		ts[i] = &c
	}
	return ts, nil
}

// TestValidateSaysFirstBroken: the tasks are validated side by side, and
// the error is the first broken task's in the domain's order, whichever
// finishes first.
func TestValidateSaysFirstBroken(t *testing.T) {
	d := goldless{airline(t), []int{40, 10, 30}}
	_, _, err := Validate(d)
	if err == nil || err.Error() != "TAU-A10: no gold run" {
		t.Fatalf("error %v, want TAU-A10's", err)
	}
	n, goal, err := Validate(airline(t))
	if err != nil || n != 50 || goal != 30 {
		t.Fatalf("%d tasks, %d with a goal, error %v; want 50, 30, none", n, goal, err)
	}
}
