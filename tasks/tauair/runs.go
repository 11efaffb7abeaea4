package tauair

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
)

// Trajectory turns a recorded run into a trajectory of its task: every
// tool call an agent step, the conversation kept beside the log with each
// call and its output tied to its step.
func (r *Run) Trajectory() (*model.Trajectory, error) {
	tr := &model.Trajectory{Task: TaskID(r.TaskID), Name: r.Name(),
		Note: fmt.Sprintf("GPT-4o run of tau-bench airline task %d, trial %d; tau-bench's reward %g", r.TaskID, r.Trial, r.Reward)}
	outputs := map[string]string{} // tool call id → the tool's output
	for _, m := range r.Messages {
		if m.Role == "tool" && m.Content != nil {
			outputs[m.ToolCallID] = *m.Content
		}
	}
	for turn, m := range r.Messages {
		content := ""
		if m.Content != nil {
			content = *m.Content
		}
		switch {
		case m.Role == "tool":
			// folded into the call's turn below
		case len(m.ToolCalls) > 0:
			// A message that calls tools is no reply to the user (tau-bench
			// counts only replies for its outputs check), so each call and
			// its output is one tool turn, with any text the agent wrote
			// beside the calls before the first.
			for k, tc := range m.ToolCalls {
				c := Call{Name: tc.Function.Name, Kwargs: json.RawMessage(tc.Function.Arguments), Turn: turn}
				st, err := StepOf(&c, len(tr.Steps))
				if err != nil {
					return nil, fmt.Errorf("%s: message %d: %w", r.Name(), turn, err)
				}
				tr.Steps = append(tr.Steps, st)
				text := fmt.Sprintf("%s(%s) → %s", tc.Function.Name, tc.Function.Arguments, outputs[tc.ID])
				if k == 0 && strings.TrimSpace(content) != "" {
					text = "(the agent, with this call) " + content + "\n" + text
				}
				tr.Transcript = append(tr.Transcript, model.Turn{Role: "tool", Content: text, Step: len(tr.Steps)})
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

// DataHash is tau-bench's data hash of the database a replayed run ends
// with ("" for a task of another domain).
func (t *Task) DataHash(log *pbcste.Log) string {
	d, ok := t.Task.Domain.(*Domain)
	if !ok {
		return ""
	}
	var changed []model.CellDiff
	for i := range log.Events {
		changed = append(changed, log.TypedDiff(&log.Events[i])...)
	}
	return d.DataHash(log.View(), changed)
}

// Reward is tau-bench's reward of a replayed trajectory, as tau-bench
// computes it: the data hash of the final database equals the gold run's,
// and every required output appears in a reply of the agent.
func (t *Task) Reward(log *pbcste.Log, tr *model.Trajectory) float64 {
	if t.DataHash(log) != t.Gold.DataHash {
		return 0
	}
	var replies []string
	for _, turn := range tr.Transcript {
		if turn.Role == "assistant" {
			replies = append(replies, turn.Content)
		}
	}
	if !model.SaidAll(replies, t.Gold.Outputs) {
		return 0
	}
	return 1
}

// DecodeRuns reads tau-bench's run format: the JSON list of
// {"task_id", "reward", "info", "traj", "trial"} that tau-bench's run
// script writes and historical_trajectories/*.json hold. traj is the
// conversation; the calls are read from it. Errors name the file, the
// run and what was expected.
func DecodeRuns(file string, src []byte) ([]Run, error) {
	var raw []map[string]json.RawMessage
	if err := json.Unmarshal(src, &raw); err != nil {
		return nil, fmt.Errorf("%s: not tau-bench's run format (a JSON list of runs): %w", file, err)
	}
	ts, err := Tasks()
	if err != nil {
		return nil, err
	}
	out := make([]Run, 0, len(raw))
	for i, r := range raw {
		where := fmt.Sprintf("%s: run %d", file, i)
		for _, k := range []string{"task_id", "reward", "traj", "trial"} {
			if _, ok := r[k]; !ok {
				return nil, fmt.Errorf("%s: missing %q (a run has task_id, reward, info, traj, trial)", where, k)
			}
		}
		for k := range r {
			if k != "task_id" && k != "reward" && k != "info" && k != "traj" && k != "trial" {
				return nil, fmt.Errorf("%s: unknown field %q (a run has task_id, reward, info, traj, trial)", where, k)
			}
		}
		var run Run
		for _, f := range []struct {
			key string
			dst any
		}{{"task_id", &run.TaskID}, {"reward", &run.Reward}, {"trial", &run.Trial}, {"traj", &run.Messages}} {
			dec := json.NewDecoder(strings.NewReader(string(r[f.key])))
			if f.key == "traj" {
				dec.DisallowUnknownFields()
			}
			if err := dec.Decode(f.dst); err != nil {
				return nil, fmt.Errorf("%s: %s: %w", where, f.key, err)
			}
		}
		if run.TaskID < 0 || run.TaskID >= len(ts) {
			return nil, fmt.Errorf("%s: task_id %d: the airline test tasks are 0 … %d", where, run.TaskID, len(ts)-1)
		}
		if _, err := run.Trajectory(); err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		out = append(out, run)
	}
	return out, nil
}

// EncodeRuns writes runs in tau-bench's run format, as its run script
// does: a JSON list of {"task_id", "reward", "info", "traj", "trial"}.
func EncodeRuns(runs []Run) ([]byte, error) {
	type run struct {
		TaskID int       `json:"task_id"`
		Reward float64   `json:"reward"`
		Info   struct{}  `json:"info"`
		Traj   []Message `json:"traj"`
		Trial  int       `json:"trial"`
	}
	out := make([]run, len(runs))
	for i, r := range runs {
		out[i] = run{TaskID: r.TaskID, Reward: r.Reward, Traj: r.Messages, Trial: r.Trial}
	}
	return json.Marshal(out)
}
