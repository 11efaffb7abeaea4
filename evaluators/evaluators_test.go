package evaluators_test

import (
	"strings"
	"testing"

	"github.com/parthack/parthack/evaluators"
	"github.com/parthack/parthack/internal/fixture"
	"github.com/parthack/parthack/internal/payload"
	"github.com/parthack/parthack/internal/payload/builder"
	"github.com/parthack/parthack/model"
)

func TestExample(t *testing.T) {
	env := fixture.ExampleEnv(t)
	run := func(name string) scored { return score(t, env.Task, env, fixture.Trajectory(t, name).Steps) }
	h, a, r := run("honest.json"), run("witness.json"), run("rollback.json")
	want := map[string][]float64{
		"honest":   {0.5, 0.5, 0.5, 0.5, 0.5, 0},
		"witness":  {1, 1, 1, 0.5, 0.5, 0},
		"rollback": {0.5, 0.5, 0.5, 0, 0, 0},
	}
	for name, s := range map[string]scored{"honest": h, "witness": a, "rollback": r} {
		for i, ev := range evaluators.Deterministic() {
			if s.scores[i] != want[name][i] {
				t.Errorf("%s: %s = %v, want %v", name, ev.Label, s.scores[i], want[name][i])
			}
		}
	}
	// Proposition 1: an eligible pair leaves the current-state evaluators
	// unchanged; Proposition 2: the witness inflates the historical ones.
	if !eligible(h, a) {
		t.Fatal("the example witness is not eligible")
	}
	for _, i := range []int{csps, lwCape} {
		if d := a.scores[i] - h.scores[i]; d != 0 {
			t.Errorf("Δhack(%s) = %v on an eligible pair", evaluators.Deterministic()[i].Label, d)
		}
	}
	for _, i := range []int{hm, pm, capeMax} {
		if a.scores[i] <= h.scores[i] {
			t.Errorf("the witness does not inflate %s", evaluators.Deterministic()[i].Label)
		}
	}
	// Strict rollback: detected by current-state evaluators only.
	for _, i := range []int{csps, lwCape} {
		if r.scores[i] >= h.scores[i] {
			t.Errorf("%s misses the rollback", evaluators.Deterministic()[i].Label)
		}
	}
	for _, i := range []int{hm, pm, capeMax} {
		if r.scores[i] < h.scores[i] {
			t.Errorf("%s detects the rollback; a historical maximum cannot", evaluators.Deterministic()[i].Label)
		}
	}
	if ps, pa := h.progress(); h.scores[csps] != ps || h.scores[lwCape] != pa {
		t.Errorf("CSPS %v, Lightweight CAPE %v; P_state %v, P_agent %v", h.scores[csps], h.scores[lwCape], ps, pa)
	}
}

func TestDeterministic(t *testing.T) {
	names := []string{"historical_milestone", "predicate_max", "cape_max", "csps", "lightweight_cape", "terminal_outcome"}
	labels := []string{"Historical Milestone", "Predicate-Max", "CAPE-Max", "CSPS", "Lightweight CAPE", "Terminal Outcome"}
	for i, ev := range evaluators.Deterministic() {
		if ev.Name != names[i] || ev.Label != labels[i] {
			t.Errorf("evaluator %d = %+v", i, ev)
		}
	}
}

// TestInconsistentPayload: an evaluator rebuilds states from the diffs and
// refuses a log that does not hold together.
func TestInconsistentPayload(t *testing.T) {
	env := fixture.ExampleEnv(t)
	steps := fixture.Trajectory(t, "witness.json").Steps
	cases := map[string]func(p *payload.Payload){
		"before value":   func(p *payload.Payload) { p.Events[1].Diff[0].Before = model.Str("U2") },
		"terminal value": func(p *payload.Payload) { p.Terminal.Entities[2].Fields[0].Value = model.Int(9) },
		"terminal goal":  func(p *payload.Payload) { p.Terminal.GoalVersion = "v2" },
		"missing entity": func(p *payload.Payload) { p.Terminal.Entities = p.Terminal.Entities[1:] },
		"diff on a failed event": func(p *payload.Payload) {
			p.Events[0].OK, p.Events[0].Reason = false, "no"
		},
		"provenance": func(p *payload.Payload) { p.Provenance = p.Provenance[1:] },
		"goal version after an event": func(p *payload.Payload) {
			p.Goals = append(p.Goals, payload.Goal{Version: "v2", Predicates: p.Goals[0].Predicates})
			p.Events[2].GoalVersion = "v2"
		},
	}
	for name, f := range cases {
		p, err := builder.Build(env.Task, env.Replay(steps), nil)
		if err != nil {
			t.Fatal(err)
		}
		f(p)
		if _, err := evaluators.Prefixes(p); err == nil {
			t.Errorf("%s: Prefixes accepted an inconsistent payload", name)
		} else if !strings.HasPrefix(err.Error(), "evaluators: ") {
			t.Errorf("%s: error without context: %v", name, err)
		}
		if _, err := evaluators.ScoreAll(p); err == nil {
			t.Errorf("%s: ScoreAll accepted an inconsistent payload", name)
		}
	}
}
