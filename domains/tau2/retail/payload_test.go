package retail

import (
	"slices"
	"testing"

	"github.com/parthack/parthack/domains/tau2"
	"github.com/parthack/parthack/evaluators"
	"github.com/parthack/parthack/internal/payload"
	"github.com/parthack/parthack/internal/payload/builder"
)

// TestEvaluatorsReproduceTau2 builds the public payload of every shipped
// retail run that ended normally and holds the tau2 evaluators, which
// read only the payload, to tau2's reward and components recomputed from
// the run (themselves held to the recorded ones by TestConformance). The
// domain's reward evaluators (tau2.Rewards, one set for every run, which
// share a payload's computation) give the same components, for each run
// and again for the run before it.
func TestEvaluatorsReproduceTau2(t *testing.T) {
	c := checker(t)
	n, skipped := 0, 0
	rws := tau2.Rewards()
	type scored struct {
		p *payload.Payload
		s evaluators.Tau2Score
	}
	var prev scored
	for _, name := range tau2.RunFiles("retail") {
		src, _ := tau2.RunFile(name)
		r, err := tau2.Decode(name, src)
		if err != nil {
			t.Fatal(err)
		}
		for _, sim := range r.Simulations {
			rp, err := c.Replay(r, sim)
			if err != nil {
				t.Fatal(err)
			}
			if rp.Score.Premature || rp.Task.M() == 0 {
				skipped++ // no payload: a task with no goal predicate has none
				continue
			}
			env, err := rp.Task.Env()
			if err != nil {
				t.Fatal(err)
			}
			p, err := builder.Build(rp.Task.Task, env.Replay(rp.Traj.Steps), builder.TurnsOf(rp.Traj))
			if err != nil {
				t.Fatal(err)
			}
			q, err := payload.Decode(p.Bytes())
			if err != nil {
				t.Fatalf("%s %s: the payload does not decode: %v", name, sim.ID, err)
			}
			got, ok := evaluators.Tau2(q)
			s := rp.Score
			if !ok || got.Reward != s.Reward || got.DB != s.DB || got.Action != s.Action || got.Communicate != s.CommunicateOK ||
				(s.Partial >= 0 && got.PartialAction != s.Partial) {
				t.Errorf("%s %s: evaluators %+v, tau2 %+v", name, sim.ID, got, *s)
			}
			for _, x := range []scored{{q, got}, prev} {
				for _, rw := range rws {
					if x.p == nil || !slices.Contains(evaluators.Tau2Names(), rw.Name) {
						continue
					}
					if v, ok := rw.Score(x.p); !ok || v != x.s.Get(rw.Name) {
						t.Errorf("%s %s: reward evaluator %s scores %v (%v), evaluators.Tau2 %v", name, sim.ID, rw.Name, v, ok, x.s.Get(rw.Name))
					}
				}
			}
			prev = scored{q, got}
			n++
		}
	}
	t.Logf("%d runs scored from their payloads; %d ended early or have a task that changes nothing", n, skipped)
	if n < 100 {
		t.Errorf("only %d runs scored", n)
	}
}
