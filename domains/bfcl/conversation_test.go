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

// TestLimit refuses a witness whose calls in one turn pass BFCL's 20
// steps where H's did not, and takes one that stays within.
func TestLimit(t *testing.T) {
	turn := func(calls int) []model.Step {
		out := []model.Step{UserStep(0)}
		for i := 0; i < calls; i++ {
			out = append(out, call("ls"))
		}
		return out
	}
	h := &model.Trajectory{Steps: turn(18)}
	w := &World{}
	if why := w.Limit(h, turn(20), nil); why != "" {
		t.Errorf("20 calls refused: %s", why)
	}
	if why := w.Limit(h, turn(21), nil); !strings.Contains(why, "past 20 steps") {
		t.Errorf("21 calls: %q, want a refusal past 20 steps", why)
	}
}

// TestLimitWithheld refuses a witness that adds a call of a function
// miss_func withholds before the turn that offers it, and keeps H's own.
func TestLimitWithheld(t *testing.T) {
	w := &World{offered: map[string]int{"sort": 1}}
	h := &model.Trajectory{Steps: []model.Step{UserStep(0), call("ls"), UserStep(1), call("sort")}}
	for _, c := range []struct {
		name  string
		steps []model.Step
		kept  []int
		want  string
	}{
		{"sort added in turn 1", []model.Step{UserStep(0), call("ls"), UserStep(1), call("sort"), call("sort")}, []int{0, 1, 2, 3, -1}, ""},
		{"sort added in turn 0", []model.Step{UserStep(0), call("sort"), call("ls"), UserStep(1), call("sort")}, []int{0, -1, 1, 2, 3}, "miss_func offers it only from turn 1"},
		{"H's own sort kept in place", []model.Step{UserStep(0), call("ls"), UserStep(1), call("sort")}, []int{0, 1, 2, 3}, ""},
	} {
		if got := w.Limit(h, c.steps, c.kept); !strings.Contains(got, c.want) || (c.want == "") != (got == "") {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// TestEnded says how BFCL scores each run it ended itself.
func TestEnded(t *testing.T) {
	w := &World{}
	if got := w.Ended(ForceTerminated); !strings.Contains(got, "more than 20 steps") {
		t.Errorf("force_terminated: %q", got)
	}
	if got := w.Ended("inference_error"); !strings.Contains(got, "multi_turn:inference_error") || strings.Contains(got, "20 steps") {
		t.Errorf("inference_error: %q", got)
	}
}
