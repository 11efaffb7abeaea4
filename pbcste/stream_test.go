package pbcste_test

import (
	"reflect"
	"testing"

	"github.com/parthack/parthack/domains/tauair"
	"github.com/parthack/parthack/internal/fixture"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
)

// TestStreamEqualsReplay holds a streamed run, which keeps no history, to
// a full replay: the same events step by step (seq, outcome, hash,
// vectors), the same latest causes, final state and log hash; and a run
// that keeps neither hashes nor vectors (StreamEvents) to the streamed
// run, those aside.
func TestStreamEqualsReplay(t *testing.T) {
	type tc struct {
		name  string
		env   *pbcste.Env
		steps []model.Step
	}
	ex := fixture.ExampleEnv(t)
	cases := []tc{
		{"example honest", ex, fixture.Trajectory(t, "honest.json").Steps},
		{"example witness", ex, fixture.Trajectory(t, "witness.json").Steps},
		{"churn", ex, fixture.Churn(20_000)},
		// A state large enough that Replay looks ahead, with creations
		// and deletions among the updates (slots the lookahead cannot
		// know, records that move).
		{"large state", fixture.BigEnv(t, 5_000), interleave(fixture.Churn(10_000), fixture.Spread(10_000, 5_000))},
	}
	runs, err := tauair.AgentRuns()
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{0, 57, 199} {
		task, err := tauair.ByID(tauair.TaskID(runs[i].TaskID))
		if err != nil {
			t.Fatal(err)
		}
		env, err := task.Env()
		if err != nil {
			t.Fatal(err)
		}
		tr, err := runs[i].Trajectory()
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, tc{runs[i].Name(), env, tr.Steps})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			full := c.env.Replay(c.steps)
			r := c.env.Stream()
			// shown keeps no hash and no vector: its events are the same
			// but for those.
			shown := c.env.StreamEvents()
			seen := 0
			check := func() {
				if len(shown.Events()) != len(r.Events()) {
					t.Fatalf("after event %d: StreamEvents recorded %d events, Stream %d", seen, len(shown.Events()), len(r.Events()))
				}
				for i, ev := range r.Events() {
					want := &full.Events[seen]
					if ev.Seq != want.Seq || ev.Step != want.Step || ev.OK != want.OK || r.Reason(&ev) != full.Reason(want) ||
						ev.Hash != want.Hash || ev.CState != want.CState || ev.CAgent != want.CAgent || ev.DiffLen() != want.DiffLen() {
						t.Fatalf("event %d: streamed %+v, replayed %+v", seen, ev, *want)
					}
					sh := &shown.Events()[i]
					if sh.Seq != ev.Seq || sh.Step != ev.Step || sh.OK != ev.OK || shown.Reason(sh) != r.Reason(&ev) ||
						sh.Goal != ev.Goal || !reflect.DeepEqual(shown.TypedDiff(sh), r.TypedDiff(&ev)) {
						t.Fatalf("event %d: StreamEvents %+v, Stream %+v", seen, *sh, ev)
					}
					seen++
				}
			}
			for i := range c.steps {
				r.Step(&c.steps[i])
				shown.Step(&c.steps[i])
				check()
			}
			log, shownLog := r.Finish(), shown.Finish()
			check()
			if !reflect.DeepEqual(shownLog.Final().Entities(), full.Final().Entities()) {
				t.Errorf("StreamEvents' final state differs from the replay's")
			}
			if seen != len(full.Events) {
				t.Fatalf("streamed %d events, replay has %d", seen, len(full.Events))
			}
			if got, want := log.LogHash(), full.LogHash(); got != want {
				t.Errorf("log hash %s, replay's %s", got, want)
			}
			if log.FinalHash() != full.FinalHash() || log.Goal() != full.Goal() || log.Steps != full.Steps {
				t.Errorf("final state differs")
			}
			for _, p := range full.Goal().Preds {
				if got, want := log.Cause(p), full.Cause(p); got != want {
					t.Errorf("cause of %s: %+v, replay's %+v", p.ID, got, want)
				}
			}
		})
	}
}

// interleave alternates the steps of a and b, renumbered.
func interleave(a, b []model.Step) []model.Step {
	var out []model.Step
	for i := range max(len(a), len(b)) {
		for _, s := range [][]model.Step{a, b} {
			if i < len(s) {
				st := s[i]
				st.Index = len(out)
				out = append(out, st)
			}
		}
	}
	return out
}

// TestExpectChangesNothing: a run told its next steps (Run.Expect), then
// stepped off them and told again, records exactly the events of a run
// told nothing, on a state large enough to look ahead.
func TestExpectChangesNothing(t *testing.T) {
	env := fixture.BigEnv(t, 5_000)
	steps := interleave(fixture.Churn(6_000), fixture.Spread(6_000, 5_000))
	plain, told := env.Begin(len(steps)), env.Begin(len(steps))
	told.Expect(steps)
	for i := range steps {
		plain.Step(&steps[i])
		switch i {
		case len(steps) / 3: // an equal step, not the announced one
			st := steps[i]
			told.Step(&st)
		case len(steps) / 2:
			told.Expect(steps[i:])
			fallthrough
		default:
			told.Step(&steps[i])
		}
	}
	a, b := plain.Finish(), told.Finish()
	if len(a.Events) != len(b.Events) {
		t.Fatalf("%d events, told %d", len(a.Events), len(b.Events))
	}
	for i := range a.Events {
		x, y := &a.Events[i], &b.Events[i]
		if x.OK != y.OK || x.Hash != y.Hash || x.CState != y.CState || x.CAgent != y.CAgent || x.DiffLen() != y.DiffLen() {
			t.Fatalf("event %d: %+v, told %+v", i, *x, *y)
		}
	}
	if a.LogHash() != b.LogHash() {
		t.Errorf("log hash %s, told %s", a.LogHash(), b.LogHash())
	}
}
