package tau2

import (
	"encoding/json"
	"fmt"

	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
)

// WitnessFormat names the record Witness writes.
const WitnessFormat = "parthack.tau2-witness/1"

// WitnessRecord is a trajectory of a recorded run as tau2 would have
// recorded it: the run's simulation with its messages replaced by the
// trajectory's. tau2's own Python can load the run file, put these
// messages in the simulation and score it (scripts/tau2_witness_differential.py).
type WitnessRecord struct {
	Format            string    `json:"format"`
	RunFile           string    `json:"run_file"`
	Simulation        string    `json:"simulation"`       // H's simulation id
	SimulationIndex   int       `json:"simulation_index"` // its position in the run file
	TaskID            string    `json:"task_id"`          // tau2's id of the task it was scored against
	TerminationReason string    `json:"termination_reason"`
	Messages          []Message `json:"messages"`
}

// MarshalJSON writes a message in tau2's shape (message.py): a tool
// message's id, requestor and error; a participant's tool_calls.
func (m Message) MarshalJSON() ([]byte, error) {
	type call struct {
		ID        string          `json:"id"`
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
		Requestor string          `json:"requestor"`
	}
	var content *string
	if m.Content != nil {
		s := m.Content.String()
		content = &s
	}
	if m.Role == "tool" {
		return json.Marshal(struct {
			ID        string  `json:"id"`
			Role      string  `json:"role"`
			Content   *string `json:"content"`
			Requestor string  `json:"requestor"`
			Error     bool    `json:"error"`
		}{m.ID, m.Role, content, m.Requestor, m.Error})
	}
	var calls []call
	for _, tc := range m.ToolCalls {
		calls = append(calls, call{tc.ID, tc.Name, tc.Arguments, tc.Requestor})
	}
	return json.Marshal(struct {
		Role      string  `json:"role"`
		Content   *string `json:"content"`
		ToolCalls []call  `json:"tool_calls"`
	}{m.Role, content, calls})
}

// Witness is the record of a trajectory a of a run's task, made from the
// run's simulation: H's messages, less the calls a skips, with each call
// a inserts as an assistant message of its own followed by its tool
// message (the port's result), placed at the first turn of the agent's
// after the kept call before it. A kept call keeps H's recorded result:
// tau2's strict replay then tells whether a leaves it true.
func Witness(res *Results, sim *Simulation, task *Task, env *pbcste.Env, a *model.Trajectory) (*WitnessRecord, error) {
	var log *pbcste.Log
	output := func(step int) Message {
		if log == nil {
			log = env.Replay(a.Steps)
		}
		for i := range log.Events {
			if ev := &log.Events[i]; ev.Step == step {
				text := log.Output(ev)
				if text == "" && !ev.OK {
					text = log.Reason(ev) // as ConformRun reads a failed call
				}
				content := model.TextOf(text)
				return Message{Role: "tool", Content: &content, Error: !ev.OK}
			}
		}
		return Message{Role: "tool", Content: new(model.Text)}
	}
	msgs, err := witnessMessages(sim, a, output)
	if err != nil {
		return nil, fmt.Errorf("%s: simulation %d (%s): %w", res.File, sim.Index, sim.ID, err)
	}
	return &WitnessRecord{Format: WitnessFormat, RunFile: res.File, Simulation: sim.ID, SimulationIndex: sim.Index,
		TaskID: task.ID, TerminationReason: sim.TerminationReason, Messages: msgs}, nil
}

// witnessIn is Witness in the environment env compiles.
func witnessIn(res *Results, sim *Simulation, t *Task, env func() (*pbcste.Env, error), a *model.Trajectory) (*WitnessRecord, error) {
	e, err := env()
	if err != nil {
		return nil, err
	}
	return Witness(res, sim, t, e, a)
}

// hCall is one call of H's simulation: the message that makes it, its
// place among that message's calls, and its recorded result.
type hCall struct {
	msg, k int
	call   ToolCall
	result Message
}

// block is a message of H and the tool messages answering its calls.
type block struct {
	first, end int // H's messages [first, end)
	calls      []int
}

// witnessMessages places a's steps among H's messages; output is an
// inserted step's tool message (its content and error flag).
func witnessMessages(sim *Simulation, a *model.Trajectory, output func(step int) Message) ([]Message, error) {
	var calls []hCall
	var blocks []block
	for j := 0; j < len(sim.Messages); {
		m := sim.Messages[j]
		b := block{first: j, end: j + 1}
		for k, tc := range m.ToolCalls {
			at := j + 1 + k
			if at >= len(sim.Messages) || sim.Messages[at].Role != "tool" {
				return nil, fmt.Errorf("messages[%d].tool_calls[%d]: no tool message follows it", j, k)
			}
			b.calls = append(b.calls, len(calls))
			calls = append(calls, hCall{msg: j, k: k, call: tc, result: sim.Messages[at]})
			b.end = at + 1
		}
		blocks = append(blocks, b)
		j = b.end
	}
	kept, err := align(calls, a.Steps)
	if err != nil {
		return nil, err
	}
	blockOf := make([]int, len(calls)) // H's call → its block
	for bi, b := range blocks {
		for _, h := range b.calls {
			blockOf[h] = bi
		}
	}
	// The agent has the turn after its own calls are answered, and after
	// a user's words; never after the run's last message (it ended there).
	agentTurnAfter := func(bi int) bool {
		if bi >= len(blocks)-1 {
			return false
		}
		m := sim.Messages[blocks[bi].first]
		return m.Role == "assistant" && len(m.ToolCalls) > 0 || m.Role == "user" && len(m.ToolCalls) == 0
	}
	for s, k := range kept {
		if st := &a.Steps[s]; k < 0 && st.Actor != "" && st.Actor != model.ActorAgent {
			return nil, fmt.Errorf("call %d (%s) is the %s's and not H's: a witness inserts the agent's calls only", s+1, st.Tool, st.Actor)
		}
	}
	at, bad := model.PlaceInserted(kept, blockOf, len(blocks), agentTurnAfter)
	if bad != nil {
		st := &a.Steps[bad.Step]
		switch {
		case bad.Inside >= 0:
			return nil, fmt.Errorf("call %d (%s) is inserted between the calls of messages[%d]: tau2's agent cannot act inside one message", bad.Step+1, st.Tool, blocks[bad.Inside].first)
		case bad.Before >= 0:
			return nil, fmt.Errorf("call %d (%s) is inserted before messages[%d] with no turn of the agent's in between: tau2's agent cannot act there", bad.Step+1, st.Tool, blocks[bad.Before].first)
		}
		return nil, fmt.Errorf("call %d (%s) is inserted after the run's last turn of the agent's: tau2's agent cannot act there", bad.Step+1, st.Tool)
	}
	keptAt := make([]bool, len(calls))
	for _, h := range kept {
		if h >= 0 {
			keptAt[h] = true
		}
	}
	var out []Message
	inserted := 0
	for bi, b := range blocks {
		m := sim.Messages[b.first]
		if len(b.calls) == 0 {
			out = append(out, m)
		} else {
			m.ToolCalls = nil
			var results []Message
			for _, h := range b.calls {
				if keptAt[h] {
					m.ToolCalls = append(m.ToolCalls, calls[h].call)
					results = append(results, calls[h].result)
				}
			}
			// A bare call message whose calls are all skipped goes.
			if len(m.ToolCalls) > 0 || m.Content != nil && m.Content.Len() > 0 {
				out = append(out, m)
				out = append(out, results...)
			}
		}
		for _, s := range at[bi] {
			st := &a.Steps[s]
			inserted++
			id := fmt.Sprintf("parthack_inserted_%d", inserted)
			out = append(out, Message{Role: "assistant", ToolCalls: []ToolCall{{ID: id, Name: st.Tool, Arguments: st.Args.AppendJSON(nil), Requestor: "assistant"}}})
			r := output(s)
			r.ID, r.Requestor = id, "assistant"
			out = append(out, r)
		}
	}
	return out, nil
}

// align pairs each step of a with the call of H it keeps (-1: inserted),
// as model.Kept aligns a witness with H; every call of the user's in H
// must be kept, as a witness authors the agent's calls only.
func align(calls []hCall, steps []model.Step) ([]int, error) {
	h := make([]model.Step, len(calls))
	for i, c := range calls {
		h[i] = model.Step{Action: model.Action{Op: model.OpCall, Tool: c.call.Name}}
		if v, err := model.FromJSON(c.call.Arguments); err == nil {
			h[i].Args = v
		} else {
			h[i].Op = "" // arguments no step can have: kept by none
		}
		if c.call.Requestor == "user" {
			h[i].Actor = model.ActorUser
		}
	}
	kept := model.Kept(h, steps)
	user := map[int]bool{}
	for _, k := range kept {
		if k >= 0 {
			user[k] = true
		}
	}
	for i, c := range calls {
		if c.call.Requestor == "user" && !user[i] {
			return nil, fmt.Errorf("H's call %d (%s) is the user's and the trajectory drops or changes it", i+1, c.call.Name)
		}
	}
	return kept, nil
}
