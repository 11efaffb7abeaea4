package tauair

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/parthack/parthack/model"
)

// Trajectory turns a recorded run into a trajectory of its task: every
// tool call an agent step, the conversation kept beside the log with each
// call and its output tied to its step.
func (r *Run) Trajectory() (*model.Trajectory, error) {
	tr := &model.Trajectory{Task: TaskID(r.TaskID), Name: r.Name(),
		Note: fmt.Sprintf("GPT-4o run of tau-bench airline task %d, trial %d; tau-bench's reward %g", r.TaskID, r.Trial, r.Reward)}
	for turn, m := range r.Messages {
		content := ""
		if m.Content != nil {
			content = *m.Content
		}
		switch {
		case m.Role == "tool":
			tr.Transcript = append(tr.Transcript, model.Turn{Role: "tool", Content: content, Step: toolStep(tr, m.ToolCallID)})
		case len(m.ToolCalls) > 0:
			for k, tc := range m.ToolCalls {
				c := Call{Name: tc.Function.Name, Kwargs: json.RawMessage(tc.Function.Arguments), Turn: turn}
				st, err := StepOf(&c, len(tr.Steps))
				if err != nil {
					return nil, fmt.Errorf("%s: message %d: %w", r.Name(), turn, err)
				}
				st.Comment = "call " + tc.ID
				tr.Steps = append(tr.Steps, st)
				text := fmt.Sprintf("%s(%s)", tc.Function.Name, tc.Function.Arguments)
				if k == 0 && strings.TrimSpace(content) != "" {
					text = content + "\n" + text
				}
				tr.Transcript = append(tr.Transcript, model.Turn{Role: "assistant", Content: text, Step: len(tr.Steps)})
			}
		default:
			role := m.Role
			if role != "system" && role != "user" && role != "assistant" {
				return nil, fmt.Errorf("%s: message %d: unknown role %q", r.Name(), turn, m.Role)
			}
			tr.Transcript = append(tr.Transcript, model.Turn{Role: role, Content: content})
		}
	}
	return tr, nil
}

// toolStep finds the step whose call a tool message answers.
func toolStep(tr *model.Trajectory, callID string) int {
	for i := len(tr.Steps) - 1; i >= 0; i-- {
		if tr.Steps[i].Comment == "call "+callID {
			return i + 1
		}
	}
	return 0
}

// RunByName finds a GPT-4o run of the corpus by its name
// ("gpt-4o-t07-trial2") or, given its task, by "trial2".
func RunByName(task *Task, name string) (*Run, error) {
	runs, err := AgentRuns()
	if err != nil {
		return nil, err
	}
	for i := range runs {
		r := &runs[i]
		if r.Name() == name || (task != nil && r.TaskID == task.Index && name == fmt.Sprintf("trial%d", r.Trial)) {
			return r, nil
		}
	}
	return nil, fmt.Errorf("no GPT-4o run %q in the tau-airline corpus (names like gpt-4o-t07-trial2, or trial0 … trial3 with a task)", name)
}
