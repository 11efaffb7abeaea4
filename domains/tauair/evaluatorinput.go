package tauair

import (
	"encoding/json"
	"fmt"

	"github.com/parthack/parthack/model"
)

// EvaluatorInput is what a tau-bench evaluator reads of a witness a of
// the run: {"task": …, "traj": …} in the shapes of tau-bench's run
// format — the task as tau-bench defines it (user_id, actions as
// {name, kwargs}, instruction, outputs) and the witness's conversation
// (Traj).
func (r *Run) EvaluatorInput(a *model.Trajectory) ([]byte, error) {
	ts, err := Tasks()
	if err != nil {
		return nil, err
	}
	t := ts[r.TaskID]
	traj, err := r.Traj(t, a)
	if err != nil {
		return nil, fmt.Errorf("run %s: %w", r.Name(), err)
	}
	type action struct {
		Name   string          `json:"name"`
		Kwargs json.RawMessage `json:"kwargs"`
	}
	task := struct {
		UserID      string   `json:"user_id"`
		Actions     []action `json:"actions"`
		Instruction string   `json:"instruction"`
		Outputs     []string `json:"outputs"`
	}{t.Gold.UserID, []action{}, t.Gold.Instruction, t.Gold.Outputs}
	for _, c := range t.Gold.Steps {
		task.Actions = append(task.Actions, action{c.Name, c.Kwargs})
	}
	return json.Marshal(map[string]any{"task": task, "traj": traj})
}

// Traj is a trajectory a of the run's task as tau-bench would have kept
// the conversation: the run's messages less the calls a skips (an
// assistant message left with no call and no text goes, with its tool
// messages), each call a inserts as an assistant message of its own
// followed by its tool message (the port's result), placed at the first
// turn of the agent's after the kept call before it: after a tool's
// result or a user's message, never after the run's last message (the
// user ended it there).
func (r *Run) Traj(t *Task, a *model.Trajectory) ([]Message, error) {
	type call struct{ msg, k int }
	var calls []call
	type block struct{ first, end int }
	var blocks []block
	var blockOf []int // call → block
	for j := 0; j < len(r.Messages); {
		b := block{first: j, end: j + 1}
		for k := range r.Messages[j].ToolCalls {
			blockOf = append(blockOf, len(blocks))
			calls = append(calls, call{j, k})
		}
		for b.end < len(r.Messages) && r.Messages[b.end].Role == "tool" && len(r.Messages[j].ToolCalls) > 0 {
			b.end++
		}
		blocks = append(blocks, b)
		j = b.end
	}
	h := make([]model.Step, len(calls))
	for i, c := range calls {
		tc := r.Messages[c.msg].ToolCalls[c.k]
		h[i] = model.Step{Action: model.Action{Op: model.OpCall, Tool: tc.Function.Name}}
		if v, err := model.FromJSON([]byte(tc.Function.Arguments)); err == nil {
			h[i].Args = v
		} else {
			h[i].Op = "" // arguments no step can have: kept by none
		}
	}
	kept := model.Kept(h, a.Steps)
	agentTurnAfter := func(bi int) bool {
		if bi >= len(blocks)-1 {
			return false
		}
		m := r.Messages[blocks[bi].first]
		return len(m.ToolCalls) > 0 || m.Role == "user"
	}
	at, bad := model.PlaceInserted(kept, blockOf, len(blocks), agentTurnAfter)
	if bad != nil {
		return nil, fmt.Errorf("call %d (%s) is inserted where tau-bench's agent has no turn", bad.Step+1, a.Steps[bad.Step].Tool)
	}
	keptCall := map[[2]int]bool{}
	for _, h := range kept {
		if h >= 0 {
			keptCall[[2]int{calls[h].msg, calls[h].k}] = true
		}
	}
	env, err := t.Env()
	if err != nil {
		return nil, err
	}
	replay := env.Replay(a.Steps)
	out := []Message{}
	inserted := 0
	for bi, b := range blocks {
		m := r.Messages[b.first]
		if len(m.ToolCalls) == 0 {
			out = append(out, m)
		} else {
			ids := map[string]bool{}
			m.ToolCalls = nil
			for k, tc := range r.Messages[b.first].ToolCalls {
				if keptCall[[2]int{b.first, k}] {
					m.ToolCalls = append(m.ToolCalls, tc)
					ids[tc.ID] = true
				}
			}
			if len(m.ToolCalls) > 0 || m.Content != nil && m.Content.Len() > 0 {
				out = append(out, m)
				for _, res := range r.Messages[b.first+1 : b.end] {
					if ids[res.ToolCallID] {
						out = append(out, res)
					}
				}
			}
		}
		for _, s := range at[bi] {
			st := &a.Steps[s]
			inserted++
			id := fmt.Sprintf("parthack_inserted_%d", inserted)
			tc := ToolCall{ID: id, Type: "function"}
			tc.Function.Name, tc.Function.Arguments = st.Tool, string(st.Args.AppendJSON(nil))
			text := ""
			for i := range replay.Events {
				if ev := &replay.Events[i]; ev.Step == s {
					if text = replay.Output(ev); text == "" {
						text = replay.Reason(ev)
					}
				}
			}
			content := model.TextOf(text)
			out = append(out, Message{Role: "assistant", ToolCalls: []ToolCall{tc}},
				Message{Role: "tool", ToolCallID: id, Name: st.Tool, Content: &content})
		}
	}
	return out, nil
}
