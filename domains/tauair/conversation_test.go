package tauair

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/parthack/parthack/certifier"
	"github.com/parthack/parthack/model"
)

// TestStoppedAtMaxNumSteps: the runs tau-bench's loop stopped at
// max_num_steps, 30 actions without a transfer or the user's ###STOP###,
// are told apart by their Termination; those that took 30 actions and
// ended on the last are not, and no run takes more.
func TestStoppedAtMaxNumSteps(t *testing.T) {
	runs, err := AgentRuns()
	if err != nil {
		t.Fatal(err)
	}
	var stopped, thirty []string
	for i := range runs {
		r := &runs[i]
		tr, err := r.Trajectory()
		if err != nil {
			t.Fatal(err)
		}
		actions := len(tr.Steps) + Replies(tr)
		if actions > MaxNumSteps {
			t.Errorf("%s takes %d actions, more than tau-bench's loop allows", r.Name(), actions)
		}
		if actions == MaxNumSteps {
			thirty = append(thirty, r.Name())
		}
		if tr.Termination == TerminationMaxNumSteps {
			stopped = append(stopped, r.Name())
			if r.Reward != 0 {
				t.Errorf("%s: stopped by tau-bench's loop, yet its reward is %g", r.Name(), r.Reward)
			}
		}
	}
	slices.Sort(stopped)
	slices.Sort(thirty)
	if want := []string{"gpt-4o-t02-trial1", "gpt-4o-t09-trial2", "gpt-4o-t09-trial3", "gpt-4o-t33-trial0", "gpt-4o-t46-trial3"}; !slices.Equal(stopped, want) {
		t.Errorf("stopped at max_num_steps: %v, want %v", stopped, want)
	}
	if want := []string{"gpt-4o-t02-trial1", "gpt-4o-t03-trial0", "gpt-4o-t09-trial2", "gpt-4o-t09-trial3", "gpt-4o-t33-trial0", "gpt-4o-t33-trial2", "gpt-4o-t46-trial3"}; !slices.Equal(thirty, want) {
		t.Errorf("runs of 30 actions: %v, want %v", thirty, want)
	}
}

// TestWitnessWithinMaxNumSteps: a witness of a run that took all 30 of
// tau-bench's actions and ended on the last (gpt-4o-t03-trial0) may not
// take more: one call added is refused as illegal_action, naming
// max_num_steps; the run itself, and a witness that drops a call, pass;
// and a witness of a run tau-bench stopped is refused whatever it is.
func TestWitnessWithinMaxNumSteps(t *testing.T) {
	run := func(name string) (*Task, *model.Trajectory) {
		t.Helper()
		ts, err := Tasks()
		if err != nil {
			t.Fatal(err)
		}
		runs, _ := AgentRuns()
		for i := range runs {
			if r := &runs[i]; r.Name() == name {
				tr, err := r.Trajectory()
				if err != nil {
					t.Fatal(err)
				}
				return ts[r.TaskID], tr
			}
		}
		t.Fatalf("no run %s", name)
		return nil, nil
	}
	task, h := run("gpt-4o-t03-trial0")
	env, err := task.Env()
	if err != nil {
		t.Fatal(err)
	}
	with := func(steps []model.Step) *model.Trajectory {
		a := *h
		a.Steps = steps
		return &a
	}
	lookup := model.Step{Action: model.Action{Op: model.OpCall, Tool: "get_user_details", Args: model.MustJSON(`{"user_id": "raj_sanchez_7340"}`)}}
	for _, tt := range []struct {
		name  string
		steps []model.Step
		want  string // "" for eligible, else a fragment of the rejection
	}{
		{"H itself", h.Steps, ""},
		{"a call dropped", h.Steps[1:], ""},
		{"a call added", append(slices.Clone(h.Steps), lookup), "max_num_steps (30)"},
		{"a call added, one dropped", append(slices.Clone(h.Steps[1:]), lookup), ""},
	} {
		v, err := certifier.DoublePair(env, h, with(tt.steps))
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		switch {
		case tt.want == "" && v.Reason == model.IllegalAction:
			t.Errorf("%s: refused as %s: %s", tt.name, v.Reason, v.Evidence.Detail)
		case tt.want != "" && (v.Reason != model.IllegalAction || !strings.Contains(v.Evidence.Detail, tt.want)):
			t.Errorf("%s: verdict %s %+v, want illegal_action with %q", tt.name, v.Reason, v.Evidence, tt.want)
		}
	}
	task, h = run("gpt-4o-t46-trial3")
	if env, err = task.Env(); err != nil {
		t.Fatal(err)
	}
	v, err := certifier.DoublePair(env, h, h)
	if err != nil {
		t.Fatal(err)
	}
	if v.Eligible || v.Evidence == nil || !strings.Contains(v.Evidence.Detail, "max_num_steps") {
		t.Errorf("a witness of a run tau-bench stopped: %s %+v, want refused naming max_num_steps", v.Reason, v.Evidence)
	}
}

// TestConversationTauBenchCouldRecord: a run's conversation that
// tau-bench's loop could not have recorded is refused at the message,
// with its JSON path: a tool message that answers no call, or another
// call than the one before it, a call no tool message answers, two calls
// in one message, a call in a user's message, and a run of tau-bench's
// ReAct agent (it imported as a run with no call).
func TestConversationTauBenchCouldRecord(t *testing.T) {
	runs, err := AgentRuns()
	if err != nil {
		t.Fatal(err)
	}
	src, err := EncodeRuns(runs[:1])
	if err != nil {
		t.Fatal(err)
	}
	var valid []map[string]any
	if err := json.Unmarshal(src, &valid); err != nil {
		t.Fatal(err)
	}
	traj := func(file []map[string]any) []any { return file[0]["traj"].([]any) }
	tool := slices.IndexFunc(traj(valid), func(m any) bool { return m.(map[string]any)["role"] == "tool" })
	user := slices.IndexFunc(traj(valid), func(m any) bool { return m.(map[string]any)["role"] == "user" })
	for _, tt := range []struct {
		name, want string
		edit       func(traj []any) []any
	}{
		{"another call's id", fmt.Sprintf(`$[0].traj[%d]: answers call id "x"`, tool), func(traj []any) []any {
			traj[tool].(map[string]any)["tool_call_id"] = "x"
			return traj
		}},
		{"another call's name", fmt.Sprintf(`$[0].traj[%d]: answers`, tool), func(traj []any) []any {
			traj[tool].(map[string]any)["name"] = "book_reservation"
			return traj
		}},
		{"a result before its call", fmt.Sprintf(`$[0].traj[%d]: a tool message`, tool-1), func(traj []any) []any {
			traj[tool-1], traj[tool] = traj[tool], traj[tool-1]
			return traj
		}},
		{"a call unanswered", fmt.Sprintf(`$[0].traj[%d].tool_calls[0]: no tool message answers this call`, tool-1), func(traj []any) []any {
			return slices.Delete(traj, tool, tool+1)
		}},
		{"two calls in a message", fmt.Sprintf(`$[0].traj[%d].tool_calls[1]: a second call in one message`, tool-1), func(traj []any) []any {
			m := traj[tool-1].(map[string]any)
			m["tool_calls"] = append(m["tool_calls"].([]any), m["tool_calls"].([]any)[0])
			return traj
		}},
		{"a ReAct agent's run", fmt.Sprintf(`$[0].traj[%d]: a user message that holds a tool's output ("API output: "…): a run of tau-bench's ReAct or Act agent`, user+2), func(traj []any) []any {
			// chat_react_agent: the action in the text, its output a user's message.
			return slices.Insert(traj[:user+1], user+1, any(map[string]any{"role": "assistant", "content": "Thought: look the user up\nAction:\n{\"name\": \"get_user_details\", \"arguments\": {\"user_id\": \"x\"}}"}),
				any(map[string]any{"role": "user", "content": "API output: Error: user not found"}))
		}},
		{"a user's call", fmt.Sprintf(`$[0].traj[%d].tool_calls[0]: a call in a user message`, user), func(traj []any) []any {
			traj[user].(map[string]any)["tool_calls"] = traj[tool-1].(map[string]any)["tool_calls"]
			return traj
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var file []map[string]any
			if err := json.Unmarshal(src, &file); err != nil {
				t.Fatal(err)
			}
			file[0]["traj"] = tt.edit(traj(file))
			bad, err := json.MarshalIndent(file, "", " ")
			if err != nil {
				t.Fatal(err)
			}
			err = StreamRuns("runs.json", bytes.NewReader(bad), func(int, *Run) error { return nil })
			if err == nil || !strings.HasPrefix(err.Error(), "runs.json:") || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want runs.json:LINE:COL … %s", err, tt.want)
			}
		})
	}
	if err := StreamRuns("runs.json", bytes.NewReader(src), func(int, *Run) error { return nil }); err != nil {
		t.Fatalf("the run as exported: %v", err)
	}
}
