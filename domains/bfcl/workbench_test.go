package bfcl_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/parthack/parthack/domains"
	"github.com/parthack/parthack/domains/bfcl"
	"github.com/parthack/parthack/model"
)

// registered is BFCL's domain as the workbench finds it: by the registry.
func registered(t *testing.T) domains.Domain {
	t.Helper()
	d, err := domains.Lookup(bfcl.DomainName)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestMessageIsTheTurnsQuestion: the user's step of turn N carries the
// entry's question for turn N; a miss_func turn that gives the held-out
// functions back carries BFCL's fixed message; no other step carries one.
func TestMessageIsTheTurnsQuestion(t *testing.T) {
	m, ok := registered(t).(domains.Messenger)
	if !ok {
		t.Fatal("BFCL's domain is no domains.Messenger")
	}
	// A miss_func entry whose held-out turn has no question of its own.
	holdout, turn := "", -1
	for i := 0; i < 200 && holdout == ""; i++ {
		e, err := bfcl.EntryByID(fmt.Sprintf("multi_turn_miss_func_%d", i))
		if err != nil {
			t.Fatal(err)
		}
		for k := range e.MissedFunction {
			if len(e.Question[k]) == 0 {
				holdout, turn = e.ID, k
			}
		}
	}
	if holdout == "" {
		t.Fatal("no miss_func entry has a held-out turn without a question")
	}
	call := model.Action{Op: model.OpCall, Tool: "cd", Args: model.MustJSON(`{"folder":"workspace"}`)}
	user1 := bfcl.UserStep(1)
	for _, c := range []struct {
		name, task string
		actor      model.Actor
		a          model.Action
		ok         bool
		want       string
	}{
		{"turn 1 of base_1", "multi_turn_base_1", model.ActorUser, user1.Action, true, "turn 1: Go to workspace directory and move one of the 'log.txt' files into a new directory 'archive'."},
		{"the held-out turn", holdout, model.ActorUser, bfcl.UserStep(turn).Action, true, fmt.Sprintf("turn %d: %s", turn, bfcl.AddedFunctionsMessage)},
		{"an agent's call", "multi_turn_base_1", model.ActorAgent, call, false, ""},
		{"the agent calling user_turn", "multi_turn_base_1", model.ActorAgent, user1.Action, false, ""},
		{"a turn the entry has not", "multi_turn_base_1", model.ActorUser, bfcl.UserStep(9).Action, false, ""},
	} {
		name, text, ok := m.Message(c.task, c.actor, &c.a)
		if ok != c.ok || ok && name+": "+text != c.want {
			t.Errorf("%s: got %q %q %v, want %q %v", c.name, name, text, ok, c.want, c.ok)
		}
	}
}

// TestExplainSaysEachTurnsChecks: a run of multi_turn_base_5 that skips
// turn 1's sort (a read: every state still equals gold's) fails BFCL's
// response check at turn 1 alone, and the explanation says so turn by
// turn, in agreement with the verdict BFCL's evaluators score.
func TestExplainSaysEachTurnsChecks(t *testing.T) {
	x, ok := registered(t).(domains.Explainer)
	if !ok {
		t.Fatal("BFCL's domain is no domains.Explainer")
	}
	task, ok := bfcl.TaskByID("multi_turn_base_5")
	if !ok {
		t.Fatal("no task multi_turn_base_5")
	}
	steps := slices.DeleteFunc(slices.Clone(task.Gold.Steps), func(s model.Step) bool { return s.Tool == "sort" })
	if len(steps) != len(task.Gold.Steps)-1 {
		t.Fatalf("gold of multi_turn_base_5 has no single sort: %d steps of %d left", len(steps), len(task.Gold.Steps))
	}
	env, err := task.Env()
	if err != nil {
		t.Fatal(err)
	}
	tr := &model.Trajectory{Task: task.Entry.ID, Steps: steps}
	p, err := task.Payload(env.Replay(steps), tr)
	if err != nil {
		t.Fatal(err)
	}
	got, ok := x.Explain(p)
	if !ok {
		t.Fatal("no explanation of a BFCL payload")
	}
	v, _ := bfcl.PayloadVerdict(p)
	if got.Pass || got.Verdict != "multi_turn:execution_response_mismatch at turn 1" || got.Verdict != v.String() || got.Says != v.ErrorMessage {
		t.Errorf("verdict %q (pass %v, says %q), want BFCL's %q, %q", got.Verdict, got.Pass, got.Says, v, v.ErrorMessage)
	}
	var failed, names []string
	for _, f := range got.Checks {
		names = append(names, f.Name)
		if f.Checked && !f.Pass {
			failed = append(failed, f.Name+": "+strings.Join(f.Detail, " / "))
		}
	}
	wantNames := []string{"turn 0 · state", "turn 0 · response", "turn 1 · state", "turn 1 · response", "turn 2 · state", "turn 2 · response", "turn 3 · state", "turn 3 · response"}
	if !slices.Equal(names, wantNames) {
		t.Errorf("checks %q, want %q", names, wantNames)
	}
	if len(failed) != 1 || !strings.HasPrefix(failed[0], "turn 1 · response: 1 of 2 gold results found") || !strings.Contains(failed[0], "missing: ") {
		t.Errorf("failed checks %q, want turn 1's response alone, 1 of 2 found, the missing result named", failed)
	}
	// A run the user never let past turn 0 (BFCL force-terminated it).
	short := &model.Trajectory{Task: task.Entry.ID, Steps: steps[:3]}
	p, err = task.Payload(env.Replay(short.Steps), short)
	if err != nil {
		t.Fatal(err)
	}
	got, _ = x.Explain(p)
	if got.Pass || !strings.HasPrefix(got.Verdict, bfcl.ErrForceTerminated) || !strings.Contains(strings.Join(got.Checks[len(got.Checks)-1].Detail, ""), "never reached this turn (BFCL fails a run short of gold's turns") {
		t.Errorf("a run of turn 0 alone: %q, last check %+v", got.Verdict, got.Checks[len(got.Checks)-1])
	}
}

// TestShowCellIsBFCLsStateInfo: a cell shows as BFCL's inference log
// shows the attribute (state_info): a directory as its str(), a string
// as JSON text; a cell that is no Python value is refused.
func TestShowCellIsBFCLsStateInfo(t *testing.T) {
	s, ok := registered(t).(domains.CellShower)
	if !ok {
		t.Fatal("BFCL's domain is no domains.CellShower")
	}
	task, _ := bfcl.TaskByID("multi_turn_base_1")
	cells := map[string]model.Value{}
	for _, e := range task.Task.Initial {
		for _, f := range e.Fields {
			cells[e.Type+"."+f.Field] = f.Value
		}
	}
	for _, c := range []struct {
		name string
		v    model.Value
		ok   bool
		want string
	}{
		{"the root directory", cells["GorillaFileSystem.root"], true, `"<Directory: alex, Parent: None, Contents: {'workspace': <Directory: workspace, Parent: alex, `},
		{"a flag", cells["GorillaFileSystem.long_context"], true, "false"},
		{"no Python value", model.Str("{not json"), false, ""},
	} {
		got, ok := s.ShowCell(c.v)
		if ok != c.ok || !strings.HasPrefix(got, c.want) {
			t.Errorf("%s: got %q %v, want %q… %v", c.name, got, ok, c.want, c.ok)
		}
	}
}
