package bfcl

import (
	"strings"
	"testing"

	"github.com/parthack/parthack/model"
)

// call is an agent's step calling tool with no argument.
func call(tool string) model.Step {
	return model.Step{Action: model.Action{Op: model.OpCall, Tool: tool, Args: model.MustJSON(`{}`)}}
}

// TestTurns holds a witness to BFCL's turns: the model acts after a turn's
// user message, in a turn where it made a call, never before the first
// message or in a turn it answered without a call.
func TestTurns(t *testing.T) {
	h := &model.Trajectory{Steps: []model.Step{UserStep(0), call("ls"), call("cd"), UserStep(1), UserStep(2), call("pwd")}}
	got := (&World{}).Turns(h)
	open := []bool{false, true, true, true, false, true, true}
	if len(got) != len(open) {
		t.Fatalf("%d places, want %d", len(got), len(open))
	}
	for k, want := range open {
		if (got[k] == "") != want {
			t.Errorf("place %d: %q, want open %v", k, got[k], want)
		}
	}
}

// TestStepLimit refuses a witness whose calls in one turn pass BFCL's 20
// steps where H's did not, and takes one that stays within.
func TestStepLimit(t *testing.T) {
	turn := func(calls int) []model.Step {
		out := []model.Step{UserStep(0)}
		for i := 0; i < calls; i++ {
			out = append(out, call("ls"))
		}
		return out
	}
	h := &model.Trajectory{Steps: turn(18)}
	w := &World{}
	if why := w.StepLimit(h, turn(20), nil); why != "" {
		t.Errorf("20 calls refused: %s", why)
	}
	if why := w.StepLimit(h, turn(21), nil); !strings.Contains(why, "past 20 steps") {
		t.Errorf("21 calls: %q, want a refusal past 20 steps", why)
	}
}
