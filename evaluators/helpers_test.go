package evaluators_test

import (
	"math/bits"
	"testing"

	"github.com/parthack/parthack/evaluators"
	"github.com/parthack/parthack/internal/payload"
	"github.com/parthack/parthack/internal/payload/builder"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
)

// Indices of the evaluators in Deterministic order.
const (
	hm = iota
	pm
	capeMax
	csps
	lwCape
	terminal
)

// scored is one trajectory as the tests see it: the trusted replay, the
// payload an evaluator decodes from bytes, and its scores.
type scored struct {
	log    *pbcste.Log
	p      *payload.Payload
	scores []float64
}

// score plays the trusted parent: replay on the trusted task, build the
// payload, hand over bytes only, and score what decodes from them.
func score(t *testing.T, pub *model.Task, env *pbcste.Env, steps []model.Step) scored {
	t.Helper()
	log := env.Replay(steps)
	built, err := builder.Build(pub, log, nil)
	if err != nil {
		t.Fatal(err)
	}
	p, err := payload.Decode(built.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	s, err := evaluators.ScoreAll(p)
	if err != nil {
		t.Fatal(err)
	}
	out := scored{log: log, p: p}
	for i, ev := range evaluators.Deterministic() {
		if s[i].Name != ev.Name {
			t.Fatalf("score %d is %s, want %s", i, s[i].Name, ev.Name)
		}
		out.scores = append(out.scores, s[i].Value)
	}
	return out
}

// vectors are the trusted replay's certified vectors at termination (the
// same rule the certifier applies), from the environment's own tracking.
func (s scored) vectors() (goal int, cstate, cagent uint64) {
	if n := len(s.log.Events); n > 0 {
		ev := &s.log.Events[n-1]
		return int(ev.Goal), ev.CState, ev.CAgent
	}
	return 0, 0, 0
}

// progress is P_state and P_agent at termination.
func (s scored) progress() (state, agent float64) {
	g, cs, ca := s.vectors()
	m := float64(len(s.log.Env.Goals()[g].Preds))
	return float64(bits.OnesCount64(cs)) / m, float64(bits.OnesCount64(ca)) / m
}

// eligible is pair eligibility by component-wise equal vectors under the
// same goal version.
func eligible(h, a scored) bool {
	hg, hs, ha := h.vectors()
	ag, as, aa := a.vectors()
	return hg == ag && hs == as && ha == aa
}
