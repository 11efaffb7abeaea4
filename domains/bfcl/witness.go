package bfcl

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/parthack/parthack/domains/bfcl/classes"
	"github.com/parthack/parthack/domains/bfcl/pyval"
	"github.com/parthack/parthack/model"
)

// Witness is a trajectory a of a result entry's task, a witness of the
// run res records, as BFCL would have recorded it: one entry of a result
// file, one line as BFCL writes it (json.dumps(entry, ensure_ascii=False)),
// which StreamResults, import bfcl and BFCL's own checker read as they
// read the run's.
//
// Its result is H's, turn by turn: each of H's steps that a keeps whole
// is written as H's model sent it (its grouping of parallel calls, its
// arguments' text), a call a drops is removed from its step (a step left
// with no call goes), each call a inserts is a step of its own,
// `[{"<name>": "<json args>"}]`, after the step of the call a keeps
// before it (a step of parallel calls is split where a inserts between
// them), and the step that ended each turn (a text answer, an empty or
// undecodable response) stays where H had it. Its inference_log, where
// H's entry has one, is true of the witness: the port replays its calls
// as BFCL's inference ran them, logging each turn's query as H's, each
// step's decoding and results, and the state at each turn's start and
// after the last where H's log has one. H's token counts and latencies
// are left out: they are per step of H's inference, and an inserted step
// had none.
func Witness(res *Result, e *Entry, a *model.Trajectory) ([]byte, error) {
	out, err := witness(res, e, a)
	if err != nil {
		return nil, fmt.Errorf("entry %s: %w", res.ID, err)
	}
	return out, nil
}

func witness(res *Result, e *Entry, a *model.Trajectory) ([]byte, error) {
	switch {
	case res.Failed:
		return nil, fmt.Errorf("BFCL's inference failed (%s): the run has no turns a witness could keep", Termination(res, e))
	case res.ForceQuit:
		return nil, fmt.Errorf("BFCL's harness force-quit the run: a witness of it is not recorded")
	}
	h, err := Trajectory(res, e)
	if err != nil {
		return nil, err
	}
	// calls[t][k][j] is the step of h that is turn t's step k's call j;
	// users[t] the user's step that starts turn t.
	calls := make([][][]int, len(res.Turns))
	var users []int
	at := 0
	for t, turn := range res.Turns {
		users = append(users, at)
		at++
		calls[t] = make([][]int, len(turn.Steps))
		for k := range turn.Steps {
			if s := &turn.Steps[k]; !s.Empty() {
				for range s.Calls {
					calls[t][k] = append(calls[t][k], at)
					at++
				}
			}
		}
	}
	kept := model.Kept(h.Steps, a.Steps)
	keptH := make([]bool, len(h.Steps))
	after := map[int][]int{} // a step of h → the steps a inserts after it
	prev := -1
	for s, k := range kept {
		st := &a.Steps[s]
		if k >= 0 {
			keptH[k], prev = true, k
			continue
		}
		switch {
		case st.Actor == model.ActorUser:
			return nil, fmt.Errorf("step %d (%s) is a user's turn H does not have: BFCL's user turns are the entry's own", s+1, st.Tool)
		case st.Actor != "" && st.Actor != model.ActorAgent || st.Op != model.OpCall:
			return nil, fmt.Errorf("step %d (%s) is no call of the model's: a witness inserts the model's calls only", s+1, st.Tool)
		case prev < 0:
			return nil, fmt.Errorf("step %d (%s) comes before the first user turn: the model has no turn there", s+1, st.Tool)
		}
		after[prev] = append(after[prev], s)
	}
	for t, u := range users {
		if !keptH[u] {
			return nil, fmt.Errorf("the trajectory drops or moves user turn %d: a witness keeps every user turn of H's", t)
		}
	}
	steps := make([][]string, len(res.Turns)) // per turn, each step's text
	insert := func(t, k int) error {
		for _, s := range after[k] {
			text, err := insertedStep(&a.Steps[s])
			if err != nil {
				return fmt.Errorf("step %d (%s): %w", s+1, a.Steps[s].Tool, err)
			}
			steps[t] = append(steps[t], text)
		}
		return nil
	}
	for t, turn := range res.Turns {
		if err := insert(t, users[t]); err != nil {
			return nil, err
		}
		for k := range turn.Steps {
			s := &turn.Steps[k]
			if s.Empty() {
				steps[t] = append(steps[t], pyJSON(s.resp))
				continue
			}
			idx := calls[t][k]
			whole := true
			for j, i := range idx {
				if !keptH[i] || j < len(idx)-1 && len(after[i]) > 0 {
					whole = false
				}
			}
			if whole {
				steps[t] = append(steps[t], pyJSON(s.resp))
				if err := insert(t, idx[len(idx)-1]); err != nil {
					return nil, err
				}
				continue
			}
			seg := make([]bool, len(idx))
			for j, i := range idx {
				seg[j] = keptH[i]
				if len(after[i]) == 0 && j < len(idx)-1 {
					continue
				}
				if text, ok := keptCalls(s.resp, seg); ok {
					steps[t] = append(steps[t], text)
				}
				if err := insert(t, i); err != nil {
					return nil, err
				}
				seg = make([]bool, len(idx))
			}
		}
	}
	var b strings.Builder
	b.WriteString(`{"id": `)
	b.WriteString(pyStr(res.ID))
	b.WriteString(`, "result": [`)
	for t, ss := range steps {
		if t > 0 {
			b.WriteString(", ")
		}
		b.WriteString("[" + strings.Join(ss, ", ") + "]")
	}
	b.WriteString("]")
	if res.Logged {
		log, err := witnessLog(res, e, steps)
		if err != nil {
			return nil, err
		}
		b.WriteString(`, "inference_log": `)
		b.WriteString(log)
	}
	b.WriteString("}")
	return []byte(b.String()), nil
}

// insertedStep is a call a witness inserts as BFCL's FC handlers record a
// step of one call: [{"<name>": "<json args>"}], the arguments' text the
// one the world runs the call with.
func insertedStep(st *model.Step) (string, error) {
	args := st.Args.AppendJSON(nil)
	if len(args) == 0 || args[0] != '{' {
		return "", fmt.Errorf("its arguments %s are no JSON object, which BFCL's handler needs to decode a call", args)
	}
	return "[{" + pyStr(st.Tool) + ": " + pyStr(string(args)) + "}]", nil
}

// keptCalls is the step n (a dict of calls or a list of such dicts) with
// only the calls keep marks, in order: a dict with none of them goes;
// false when no call is kept.
func keptCalls(n *jnode, keep []bool) (string, bool) {
	call := 0
	dict := func(d *jnode) string {
		var parts []string
		for i, k := range d.keys {
			if keep[call] {
				parts = append(parts, pyStr(k)+": "+pyJSON(d.items[i]))
			}
			call++
		}
		if parts == nil {
			return ""
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	if n.kind == jObj {
		d := dict(n)
		return d, d != ""
	}
	var items []string
	for _, it := range n.items {
		if d := dict(it); d != "" {
			items = append(items, d)
		}
	}
	return "[" + strings.Join(items, ", ") + "]", items != nil
}

// witnessLog is the inference_log of a witness whose result holds steps,
// as BFCL's FC handlers log a run (inference_multi_turn_FC, gorilla
// 8db0b7ca): before each turn H's log snapshots and after its last, the
// state of every stateful instance; per turn H's query, then per step
// the response, the handler's decoding and each call's result, the
// calls run by the port on one set of instances, as BFCL's inference
// runs them.
func witnessLog(res *Result, e *Entry, steps [][]string) (string, error) {
	s, err := classes.NewSession(e.InitialConfig, e.InvolvedClasses, "", e.ID)
	if err != nil {
		return "", err
	}
	var items []string
	snapshot := func(logged []Snapshot) error {
		if logged == nil {
			return nil
		}
		var states []string
		for _, st := range s.Snapshot() {
			if in, _ := s.Instance(st.Class); in.Class.Stateless {
				continue
			}
			d := pyval.NewDict()
			for _, a := range st.Attrs {
				d.Set(a.Name, a.Value)
			}
			v, err := pyval.MakeJSONSerializable(d)
			if err != nil {
				return fmt.Errorf("%s's state: %w", st.Class, err)
			}
			text, err := pyval.DumpsUnicode(v)
			if err != nil {
				return fmt.Errorf("%s's state: %w", st.Class, err)
			}
			states = append(states, `{"role": "state_info", "class_name": `+pyStr(st.Class)+`, "content": `+text+`}`)
		}
		items = append(items, "["+strings.Join(states, ", ")+"]")
		return nil
	}
	for t, turn := range res.Turns {
		if err := snapshot(turn.Start); err != nil {
			return "", fmt.Errorf("the state at turn %d's start: %w", t, err)
		}
		var query []string
		for _, m := range turn.Query {
			query = append(query, `{"role": `+pyStr(m.Role)+`, "content": `+pyStr(m.Content)+`}`)
		}
		parts := []string{`"begin_of_turn_query": [` + strings.Join(query, ", ") + `]`}
		for k, text := range steps[t] {
			c, err := parseLine("witness", text, 1)
			if err != nil {
				return "", fmt.Errorf("turn %d step %d: %w", t, k, err)
			}
			st, err := decodeStep(c, text)
			if err != nil {
				return "", fmt.Errorf("turn %d step %d: %w", t, k, err)
			}
			msgs := []string{`{"role": "assistant", "content": ` + text + `}`}
			switch {
			case st.DecodeError != "":
				msgs = append(msgs, `{"role": "handler_log", "content": "Error decoding the model response. Proceed to next turn.", "error": `+pyStr(st.DecodeError)+`}`)
			case len(st.Decoded) == 0:
				msgs = append(msgs, `{"role": "handler_log", "content": "Successfully decoded model response.", "model_response_decoded": []}`,
					`{"role": "handler_log", "content": "Empty response from the model. Proceed to next turn.", "model_response_decoded": []}`)
			default:
				decoded := make([]string, len(st.Decoded))
				for i, d := range st.Decoded {
					decoded[i] = pyStr(d)
				}
				msgs = append(msgs, `{"role": "handler_log", "content": "Successfully decoded model response.", "model_response_decoded": [`+strings.Join(decoded, ", ")+`]}`)
				for _, call := range st.Decoded {
					msgs = append(msgs, `{"role": "tool", "content": `+pyStr(s.Execute([]string{call})[0])+`}`)
				}
			}
			parts = append(parts, pyStr("step_"+strconv.Itoa(k))+": ["+strings.Join(msgs, ", ")+"]")
		}
		items = append(items, "{"+strings.Join(parts, ", ")+"}")
	}
	if err := snapshot(res.Final); err != nil {
		return "", fmt.Errorf("the state after the last turn: %w", err)
	}
	return "[" + strings.Join(items, ", ") + "]", nil
}

// pyJSON is a parsed JSON value as json.dumps(value, ensure_ascii=False)
// writes what json.loads gave of it: an object's keys in order, repeats
// kept (as the step was recorded).
func pyJSON(n *jnode) string {
	switch n.kind {
	case jArr:
		parts := make([]string, len(n.items))
		for i, it := range n.items {
			parts[i] = pyJSON(it)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case jObj:
		parts := make([]string, len(n.items))
		for i, it := range n.items {
			parts[i] = pyStr(n.keys[i]) + ": " + pyJSON(it)
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	text, _ := pyval.DumpsUnicode(n.py()) // a scalar json.loads gave always dumps
	return text
}

// pyStr is a str as json.dumps(s, ensure_ascii=False) writes it.
func pyStr(s string) string {
	text, _ := pyval.DumpsUnicode(s) // a str always dumps
	return text
}
