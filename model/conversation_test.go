package model_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/parthack/parthack/model"
)

// talk is a domain that holds conversations: the agent has a turn
// wherever turns says "", and a run ends at 2 failed calls.
type talk struct{ turns []string }

func (talk) Name() string { return "talk" }
func (talk) Call(model.StateView, string, model.Value) ([]model.Action, string, string) {
	return nil, "", ""
}
func (talk) EndsEpisode(string) bool            { return false }
func (talk) Ended(reason string) string         { return "ended by " + reason + ": scores 0" }
func (d talk) Turns(*model.Trajectory) []string { return d.turns }
func (talk) MaxErrors(*model.Trajectory) int    { return 2 }

func call(actor model.Actor, tool string) model.Step {
	return model.Step{Action: model.Action{Op: model.OpCall, Tool: tool, Args: model.MustJSON(`{}`)}, Actor: actor}
}

// TestKept: a witness's steps align with H's as their longest common
// subsequence, inserted steps -1.
func TestKept(t *testing.T) {
	a, b, c, x := call("", "a"), call(model.ActorAgent, "b"), call(model.ActorUser, "c"), call("", "x")
	for _, tc := range []struct {
		name string
		h, w []model.Step
		want []int
	}{
		{"H itself", []model.Step{a, b, c}, []model.Step{a, b, c}, []int{0, 1, 2}},
		{"one inserted", []model.Step{a, b, c}, []model.Step{a, x, b, c}, []int{0, -1, 1, 2}},
		{"one dropped", []model.Step{a, b, c}, []model.Step{a, c}, []int{0, 2}},
		{"dropped and inserted", []model.Step{a, b, c}, []model.Step{x, b, x, c, x}, []int{-1, 1, -1, 2, -1}},
		{"the agent's actor written or not", []model.Step{a}, []model.Step{call(model.ActorAgent, "a")}, []int{0}},
		{"another actor's call is another step", []model.Step{c}, []model.Step{call("", "c")}, []int{-1}},
		// An agent's call moved across a user's step (BFCL's mv done a turn
		// early): both alignments keep two steps, and Kept keeps the user's.
		{"a call moved across another actor's step", []model.Step{a, c, b, x}, []model.Step{a, b, c, x}, []int{0, -1, 1, 3}},
		{"the user's step kept over two agent calls", []model.Step{a, b, c}, []model.Step{c, a, b}, []int{2, -1, -1}},
	} {
		if got := model.Kept(tc.h, tc.w); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestCheckWitness: a witness is refused where the benchmark could not
// hold its conversation, at the step that breaks the rule.
func TestCheckWitness(t *testing.T) {
	u1, u2, a1, x := call(model.ActorUser, "toggle"), call(model.ActorUser, "check"), call("", "get"), call("", "give")
	// H: the user's two calls of one message, then the agent's call, then
	// the user stops: no agent turn before H's step 1, between H's
	// steps 1 and 2, or after the last.
	h := &model.Trajectory{Steps: []model.Step{u1, u2, a1}}
	turns := []string{"before any turn", "one message", "", ""}
	task := &model.Task{Domain: talk{turns}}
	ok := func(text string) model.Outcome { return model.Outcome{OK: true, Text: text} }
	failed := model.Outcome{Text: "Error: no"}
	hOut := []model.Outcome{ok("on"), ok("fine"), ok("v1")}
	for _, tc := range []struct {
		name   string
		w      []model.Step
		out    []model.Outcome
		reason model.Reason
		step   int
		says   string
	}{
		{"H itself", []model.Step{u1, u2, a1}, hOut, "", 0, ""},
		{"a call at the agent's turn", []model.Step{u1, u2, x, a1}, []model.Outcome{ok("on"), ok("fine"), ok("y"), ok("v1")}, "", 0, ""},
		{"a call between one message's calls", []model.Step{u1, x, u2, a1}, []model.Outcome{ok("on"), ok("y"), ok("fine"), ok("v1")}, model.IllegalAction, 2, "where it has no turn: one message"},
		{"a call before any turn", []model.Step{x, u1, u2, a1}, []model.Outcome{ok("y"), ok("on"), ok("fine"), ok("v1")}, model.IllegalAction, 1, "before any turn"},
		{"a user's call added", []model.Step{u1, u2, u2, a1}, []model.Outcome{ok("on"), ok("fine"), ok("fine"), ok("v1")}, model.IllegalAction, 3, "adds only the agent's calls"},
		{"a user's call dropped", []model.Step{u1, a1}, []model.Outcome{ok("on"), ok("v1")}, model.IllegalAction, 2, "H's step 2, a call of check by the user, is left out"},
		{"the agent's call dropped", []model.Step{u1, u2}, []model.Outcome{ok("on"), ok("fine")}, "", 0, ""},
		{"a kept call answers otherwise", []model.Step{u1, u2, x, a1}, []model.Outcome{ok("on"), ok("fine"), ok("y"), ok("v2")}, model.ReplayMismatch, 4, "H's step 3, which returns otherwise"},
		{"a kept call fails where it did not", []model.Step{u1, u2, a1}, []model.Outcome{ok("on"), ok("fine"), failed}, model.ReplayMismatch, 3, "returns otherwise"},
		{"the error limit reached", []model.Step{u1, u2, x, x, a1}, []model.Outcome{ok("on"), ok("fine"), failed, failed, ok("v1")}, model.IllegalAction, 4, "failed call 2, and the run ends at 2 (too_many_errors)"},
	} {
		rej := model.CheckWitness(task, h, tc.w, model.Kept(h.Steps, tc.w), hOut, tc.out)
		switch {
		case tc.reason == "" && rej != nil:
			t.Errorf("%s: refused: %v", tc.name, rej)
		case tc.reason == "":
		case rej == nil:
			t.Errorf("%s: accepted", tc.name)
		case rej.Reason != tc.reason || rej.Evidence.Step != tc.step || !strings.Contains(rej.Evidence.Detail, tc.says):
			t.Errorf("%s: %s at step %d: %s; want %s at step %d saying %q", tc.name, rej.Reason, rej.Evidence.Step, rej.Evidence.Detail, tc.reason, tc.step, tc.says)
		}
	}
	if rej := model.CheckWitness(task, &model.Trajectory{Steps: h.Steps, Termination: "max_steps"}, h.Steps, []int{0, 1, 2}, hOut, hOut); rej == nil || !strings.Contains(rej.Evidence.Detail, "ended by max_steps: scores 0") {
		t.Errorf("a witness of a run the benchmark ended itself: %v", rej)
	}
	// A domain with no such rule (tau-bench's) refuses nothing here.
	if rej := model.CheckWitness(&model.Task{}, h, []model.Step{x, u1, u2, a1}, []int{-1, 0, 1, 2}, hOut, hOut); rej != nil {
		t.Errorf("no conversation to hold to, yet refused: %v", rej)
	}
}

// limited is a talk that also limits the agent's calls in a run.
type limited struct {
	talk
	max int
}

func (d limited) Limit(_ *model.Trajectory, a []model.Step, _ []int) string {
	if len(a) > d.max {
		return "too many steps"
	}
	return ""
}

// TestCheckWitnessLimit: a Limited conversation's limit refuses a
// witness as illegal_action, and one within it passes.
func TestCheckWitnessLimit(t *testing.T) {
	a := call("", "a")
	h := &model.Trajectory{Steps: []model.Step{a}}
	ok := []model.Outcome{{OK: true}}
	task := &model.Task{Domain: limited{talk{[]string{"", ""}}, 2}}
	w := []model.Step{a, a}
	if rej := model.CheckWitness(task, h, w, model.Kept(h.Steps, w), ok, append(ok, ok...)); rej != nil {
		t.Errorf("a witness within the limit: %v", rej)
	}
	w = []model.Step{a, a, a}
	rej := model.CheckWitness(task, h, w, model.Kept(h.Steps, w), ok, append(ok, ok[0], ok[0]))
	if rej == nil || rej.Reason != model.IllegalAction || rej.Evidence.Detail != "too many steps" {
		t.Errorf("a witness past the limit: %+v, want illegal_action: too many steps", rej)
	}
}
