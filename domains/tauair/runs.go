package tauair

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
)

// Trajectory turns a recorded run into a trajectory of its task: every
// tool call an agent step, the conversation kept beside the log with each
// call and its output tied to its step.
func (r *Run) Trajectory() (*model.Trajectory, error) {
	if err := r.checkConversation(); err != nil {
		return nil, err
	}
	tr := &model.Trajectory{Task: TaskID(r.TaskID), Name: r.Name(), Termination: r.termination(),
		Note: fmt.Sprintf("GPT-4o run of tau-bench airline task %d, trial %d; tau-bench's reward %g", r.TaskID, r.Trial, r.Reward)}
	outputs := map[string]string{} // tool call id → the tool's output
	for _, m := range r.Messages {
		if m.Role == "tool" && m.Content != nil {
			outputs[m.ToolCallID] = m.Content.String()
		}
	}
	for turn, m := range r.Messages {
		var content model.Text
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
					return nil, &MessageError{Message: turn, CallIndex: k, Call: tc.Function.Name + "(" + tc.Function.Arguments + ")", Err: err}
				}
				tr.Steps = append(tr.Steps, st)
				text := fmt.Sprintf("%s(%s) → %s", tc.Function.Name, tc.Function.Arguments, outputs[tc.ID])
				if k == 0 && !content.Blank() {
					text = "(the agent, with this call) " + content.String() + "\n" + text
				}
				tr.Transcript = append(tr.Transcript, model.Turn{Role: "tool", Content: model.TextOf(text), Step: len(tr.Steps)})
			}
		default:
			role := m.Role
			if role != "system" && role != "user" && role != "assistant" {
				return nil, &MessageError{Message: turn, Err: fmt.Errorf("unknown role %q (a message is system, user, assistant or tool)", m.Role)}
			}
			tr.Transcript = append(tr.Transcript, model.Turn{Role: role, Content: content})
		}
	}
	return tr, nil
}

// reactObservation starts the user message in which tau-bench's ReAct and
// Act agents (chat_react_agent) record a tool's output.
const reactObservation = "API output: "

// checkConversation refuses a conversation tau-bench's loop could not
// have recorded: its agent acts on the first call of a message only, and
// records that call with the tool message that answers it right after
// (ToolCallingAgent.solve); its user calls no tool. A tool message must
// answer the call before it, by id and name, and every call be answered.
// A run of another of tau-bench's agents, which writes its actions in its
// text, is refused too: read as tool calls it would have none.
func (r *Run) checkConversation() error {
	awaiting, at := (*ToolCall)(nil), -1 // the call the next message must answer, and its message
	call := func(tc *ToolCall) string { return tc.Function.Name + "(" + tc.Function.Arguments + ")" }
	unanswered := func() error {
		return &MessageError{Message: at, Call: call(awaiting), Err: errors.New("no tool message answers this call (tau-bench records each call with the tool message that answers it, right after)")}
	}
	for j := range r.Messages {
		m := &r.Messages[j]
		if m.Role == "tool" {
			switch {
			case awaiting == nil:
				return &MessageError{Message: j, Err: fmt.Errorf("a tool message (tool_call_id %q) that answers no call: tau-bench records a tool message right after the call it answers", m.ToolCallID)}
			case m.ToolCallID != awaiting.ID:
				return &MessageError{Message: j, Err: fmt.Errorf("answers call id %q, but the call before it, %s in message %d, has id %q", m.ToolCallID, call(awaiting), at, awaiting.ID)}
			case m.Name != "" && m.Name != awaiting.Function.Name:
				return &MessageError{Message: j, Err: fmt.Errorf("answers %s (name %q), but the call before it is %s", m.ToolCallID, m.Name, call(awaiting))}
			}
			awaiting = nil
			continue
		}
		if awaiting != nil {
			return unanswered()
		}
		switch {
		case m.Role == "user" && m.Content != nil && m.Content.HasPrefix(reactObservation):
			return &MessageError{Message: j, Err: fmt.Errorf("a user message that holds a tool's output (%q…): a run of tau-bench's ReAct or Act agent, whose actions are in its text; parthack reads the tool-calling agent's runs, whose calls are tool_calls", reactObservation)}
		case len(m.ToolCalls) > 0 && m.Role != "assistant":
			return &MessageError{Message: j, CallIndex: 0, Call: call(&m.ToolCalls[0]), Err: fmt.Errorf("a call in a %s message: in tau-bench only the agent calls tools", m.Role)}
		case len(m.ToolCalls) > 1:
			return &MessageError{Message: j, CallIndex: 1, Call: call(&m.ToolCalls[1]), Err: errors.New("a second call in one message: tau-bench's agent acts on a message's first call only and records only it")}
		case len(m.ToolCalls) == 1:
			awaiting, at = &m.ToolCalls[0], j
		}
	}
	if awaiting != nil {
		return unanswered()
	}
	return nil
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
// and every required output appears in a reply of the agent. A run its
// loop stopped at max_num_steps scores 0: tau-bench computes a reward
// only when the episode ends.
func (t *Task) Reward(log *pbcste.Log, tr *model.Trajectory) float64 {
	if tr.Termination != "" || t.DataHash(log) != t.Gold.DataHash {
		return 0
	}
	for _, out := range t.Gold.Outputs {
		if !slices.ContainsFunc(tr.Transcript, func(turn model.Turn) bool { return turn.Role == "assistant" && model.Says(turn.Content, out) }) {
			return 0
		}
	}
	return 1
}

// StreamRuns reads tau-bench's run format: the JSON list of
// {"task_id", "reward", "info", "traj", "trial"} that tau-bench's run
// script writes and historical_trajectories/*.json hold. traj is the
// conversation; the calls are read from it. The file is read run by run
// (model.StreamJSONArray), as strictly as a trajectory file, and each run
// is handed to each with its index; run is valid only during the call.
// A run that does not decode gives a *RunError; an error of each is
// returned as it is. A list with no run is an error: a file to read runs
// from that holds none is a mistake.
func StreamRuns(file string, r io.Reader, each func(i int, run *Run) error) error {
	ts, err := Tasks()
	if err != nil {
		return err
	}
	var list model.JSON
	n := 0
	err = model.StreamJSONArray(file, r, func(v model.JSON) error { list = v; return nil }, func(i int, v model.JSON) error {
		n++
		run, err := decodeRun(v, len(ts))
		if err != nil {
			re := &RunError{File: file, Index: i, Message: -1, Err: err}
			if run != nil {
				re.Name = ImportedName(file, run)
			}
			return re
		}
		if _, err := run.Trajectory(); err != nil {
			re := &RunError{File: file, Index: i, Name: ImportedName(file, run), Message: -1, Err: err}
			if me := (*MessageError)(nil); errors.As(err, &me) {
				re.CallIndex, re.Call, re.Err = me.CallIndex, me.Call, me.Err
				re.At(run, me.Message)
			}
			return re
		}
		return each(i, run)
	})
	if err == nil && n == 0 {
		return list.Errorf("the list holds no run (expected at least one {task_id, reward, info, traj, trial})")
	}
	de, re := (*model.DecodeError)(nil), (*RunError)(nil)
	if errors.As(err, &re) || !errors.As(err, &de) {
		return err
	}
	if de.Path == "$" && strings.HasPrefix(de.Msg, "expected an array") {
		return fmt.Errorf("not tau-bench's run format (a JSON list of runs): %w", err)
	}
	// The file's text is wrong inside a run: name the run by its index.
	var i int
	if _, serr := fmt.Sscanf(de.Path, "$[%d]", &i); serr == nil {
		return &RunError{File: file, Index: i, Message: -1, Err: err}
	}
	return err
}

// ImportedName is the name a run of a file is imported under: the file's
// stem, the task and the trial ("gpt-4o-airline-t07-trial2").
func ImportedName(file string, r *Run) string {
	stem := strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
	if ext := filepath.Ext(stem); ext == ".json" {
		stem = strings.TrimSuffix(stem, ext) // name.json.gz
	}
	return fmt.Sprintf("%s-t%02d-trial%d", stem, r.TaskID, r.Trial)
}

// RunError is a run of a file that cannot be imported: the file, the
// run's index and name, the message and the call when it is about one,
// and why.
type RunError struct {
	File      string
	Index     int    // the run's index in the file, from 0
	Name      string // the name it would be imported under; "" when its task_id or trial is unreadable
	Message   int    // the index of the message in traj, -1 when not about one
	Call      string // the call, name(arguments), when about one
	CallIndex int    // with Call, its index in the message's tool_calls
	Line, Col int    // the place in the file of the call, else the message; 0 when unknown
	Err       error
}

func (e *RunError) Error() string {
	where := fmt.Sprintf("run %d", e.Index)
	if e.Name != "" {
		where += " (" + e.Name + ")"
	}
	if e.Message >= 0 {
		where += fmt.Sprintf(", message %d", e.Message)
	}
	if e.Call != "" {
		where += ", call " + e.Call
	}
	if de := (*model.DecodeError)(nil); errors.As(e.Err, &de) && de.File == e.File && de.Line > 0 {
		return fmt.Sprintf("%s:%d:%d: %s: %s: %s", de.File, de.Line, de.Col, where, de.Path, de.Msg)
	}
	if e.Line > 0 {
		path := fmt.Sprintf("$[%d].traj[%d]", e.Index, e.Message)
		if e.Call != "" {
			path += fmt.Sprintf(".tool_calls[%d]", e.CallIndex)
		}
		return fmt.Sprintf("%s:%d:%d: %s: %s: %v", e.File, e.Line, e.Col, where, path, e.Err)
	}
	return fmt.Sprintf("%s: %s: %v", e.File, where, e.Err)
}

// At fills in the message the error is about, from its index, and
// places it on the message, or on its call when it is about one (Call
// and CallIndex set first).
func (e *RunError) At(r *Run, message int) {
	e.Message = message
	if message < 0 || message >= len(r.Messages) {
		return
	}
	m := &r.Messages[message]
	e.Line, e.Col = m.Line, m.Col
	if e.Call != "" && e.CallIndex >= 0 && e.CallIndex < len(m.ToolCalls) {
		e.Line, e.Col = m.ToolCalls[e.CallIndex].Line, m.ToolCalls[e.CallIndex].Col
	}
}

func (e *RunError) Unwrap() error { return e.Err }

// MessageError is a message of a run's conversation that does not make
// a trajectory: its index, the call when it is about one (and its index
// in the message's tool_calls), and why.
type MessageError struct {
	Message   int
	Call      string
	CallIndex int
	Err       error
}

func (e *MessageError) Error() string {
	if e.Call != "" {
		return fmt.Sprintf("message %d, call %s: %v", e.Message, e.Call, e.Err)
	}
	return fmt.Sprintf("message %d: %v", e.Message, e.Err)
}

func (e *MessageError) Unwrap() error { return e.Err }

// CallAt is the message that made the step-th call (from 0), the call's
// index among the message's tool_calls, and the call as the agent wrote
// it, name(arguments); -1, -1 and "" past the last call.
func (r *Run) CallAt(step int) (message, index int, call string) {
	n := 0
	for turn, m := range r.Messages {
		for k, tc := range m.ToolCalls {
			if n == step {
				return turn, k, tc.Function.Name + "(" + tc.Function.Arguments + ")"
			}
			n++
		}
	}
	return -1, -1, ""
}

// decodeRun decodes one run. With an error, the run is returned too when
// its task_id and trial were read, to name it.
func decodeRun(v model.JSON, ntasks int) (*Run, error) {
	o, err := v.Object("task_id", "reward", "info", "traj", "trial")
	if err != nil {
		return nil, err
	}
	var run Run
	task, err := o.Need("task_id")
	if err != nil {
		return nil, err
	}
	id, err := task.Int()
	if err != nil {
		return nil, err
	}
	trial, err := o.Need("trial")
	if err != nil {
		return nil, err
	}
	tn, err := trial.Int()
	if err != nil {
		return nil, err
	}
	run.TaskID, run.Trial = int(id), int(tn)
	if id < 0 || id >= int64(ntasks) {
		return &run, task.Errorf("task_id %d: the airline test tasks are 0 … %d", id, ntasks-1)
	}
	fail := func(err error) (*Run, error) { return &run, err }
	reward, err := o.Need("reward")
	if err != nil {
		return fail(err)
	}
	if run.Reward, err = reward.Float(); err != nil {
		return fail(err)
	}
	traj, err := o.Need("traj")
	if err != nil {
		return fail(err)
	}
	msgs, err := traj.Array()
	if err != nil {
		return fail(err)
	}
	run.Messages = make([]Message, len(msgs))
	for k, m := range msgs {
		run.Messages[k].Line, run.Messages[k].Col = m.Pos()
		if err := decodeMessage(m, &run.Messages[k]); err != nil {
			return fail(err)
		}
	}
	return &run, nil
}

// decodeMessage decodes one message of a conversation, OpenAI-style as
// tau-bench keeps it; null stands for an absent field, as litellm writes.
func decodeMessage(v model.JSON, m *Message) error {
	o, err := v.Object("role", "content", "tool_calls", "name", "tool_call_id")
	if err != nil {
		return err
	}
	role, err := o.Need("role")
	if err != nil {
		return err
	}
	if m.Role, err = role.Str(); err != nil {
		return err
	}
	if c, ok := o.Get("content"); ok && !c.IsNull() {
		s, err := c.Text()
		if err != nil {
			return err
		}
		m.Content = &s
	}
	if err := optString(o, "name", &m.Name); err != nil {
		return err
	}
	if err := optString(o, "tool_call_id", &m.ToolCallID); err != nil {
		return err
	}
	calls, ok := o.Get("tool_calls")
	if !ok || calls.IsNull() {
		return nil
	}
	items, err := calls.Array()
	if err != nil {
		return err
	}
	m.ToolCalls = make([]ToolCall, len(items))
	for k, it := range items {
		tc := &m.ToolCalls[k]
		tc.Line, tc.Col = it.Pos()
		co, err := it.Object("id", "type", "function")
		if err != nil {
			return err
		}
		if err := optString(co, "id", &tc.ID); err != nil {
			return err
		}
		if err := optString(co, "type", &tc.Type); err != nil {
			return err
		}
		fn, err := co.Need("function")
		if err != nil {
			return err
		}
		fo, err := fn.Object("name", "arguments")
		if err != nil {
			return err
		}
		for _, f := range []struct {
			key string
			dst *string
		}{{"name", &tc.Function.Name}, {"arguments", &tc.Function.Arguments}} {
			v, err := fo.Need(f.key)
			if err != nil {
				return err
			}
			if *f.dst, err = v.Str(); err != nil {
				return err
			}
		}
	}
	return nil
}

// optString reads an optional string member; null is absent.
func optString(o model.JSONObject, key string, dst *string) error {
	v, ok := o.Get(key)
	if !ok || v.IsNull() {
		return nil
	}
	s, err := v.Str()
	*dst = s
	return err
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
