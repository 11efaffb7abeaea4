package bfcl

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/parthack/parthack/domains/bfcl/pyval"
	"github.com/parthack/parthack/internal/mapfile"
	"github.com/parthack/parthack/model"
)

// Result is one entry of a BFCL result file (BFCL_v4_<category>_result.json,
// one JSON object a line), as BFCL's FC handlers write it (gorilla
// 8db0b7ca, bfcl_eval/model_handler/base_handler.py,
// inference_multi_turn_FC): per turn, per step, the model's calls as
// `[{"func": "<json args>"}]`, and an inference_log with the state of
// every involved instance at each turn's start, each step's decoding and
// each call's result.
type Result struct {
	ID       string
	Category string // the id less its last "_N"
	Line     int    // its line in the file, from 1
	// Failed says the handler failed (an API error): result is its text,
	// InferenceError, and BFCL scores the entry multi_turn:inference_error.
	Failed         bool
	InferenceError string
	Turns          []Turn
	// ForceQuit says the handler stopped the entry after more than 20
	// steps in one turn; its later turns were never run.
	ForceQuit bool
	// Logged says the entry has an inference_log: its turns' Query, Start
	// and steps' Results and Logged* fields are set from it.
	Logged bool
	// Final is the state snapshot the log records after the last turn run
	// (nil when it records none).
	Final []Snapshot
	id    jc // the id's value, to place errors about the entry
}

// Errorf is an error about the entry, placed at its id: the file, line,
// column and JSON path ($.id).
func (r *Result) Errorf(format string, args ...any) error { return r.id.fail(format, args...) }

// Turn is one user turn of a result.
type Turn struct {
	Query []Message  // the turn's user messages as sent (begin_of_turn_query)
	Start []Snapshot // the state at the turn's start; nil when not logged
	Steps []Step
}

// Snapshot is one instance's state as BFCL logs it (state_info): its
// public attributes, each made JSON-serializable (a value json.dumps
// refuses is written as its str()), read back as json.loads gives them.
type Snapshot struct {
	Class   string
	Content *pyval.Dict
}

// Step is one model response of a turn.
type Step struct {
	// Calls are the model's calls as the result records them.
	Calls []Call
	// Text is the step as recorded when it is not a list of calls (a
	// handler that records a text answer as the step itself); IsText
	// says so.
	Text   string
	IsText bool
	// Decoded are the calls as BFCL's FC handlers decode them
	// (convert_to_function_call): `name(k=repr(v),...)`, the strings its
	// checker executes; DecodeError is str(e) when decoding raised (BFCL
	// then ends the turn at inference and skips the step in scoring).
	// A step with no calls decodes to none: the model answered in text
	// and the turn ended.
	Decoded     []string
	DecodeError string
	// What the inference_log records of the step: the decoded calls or
	// the decoding's error (LoggedDecoded nil then), and each call's
	// result, in order.
	LoggedDecoded     []string
	LoggedDecodeError string
	Results           []string
	resp              *jnode // the step as result has it
}

// Call is one call of a step: the function's name and its arguments as
// the model sent them (a JSON text; an object's text when the handler
// recorded an object).
type Call struct {
	Name      string
	Arguments string
}

// Empty says the step made no call: decoding failed or gave none (BFCL's
// is_empty_execute_response).
func (s *Step) Empty() bool { return s.DecodeError != "" || len(s.Decoded) == 0 }

// ModelTurns are the calls BFCL's scorer checks: per turn, per step that
// decoded to at least one call, its decoded calls (eval_runner drops the
// steps that failed to decode or decoded to none).
func (r *Result) ModelTurns() [][][]string {
	out := make([][][]string, len(r.Turns))
	for t, turn := range r.Turns {
		out[t] = [][]string{}
		for _, s := range turn.Steps {
			if !s.Empty() {
				out[t] = append(out[t], s.Decoded)
			}
		}
	}
	return out
}

// StreamResults reads a BFCL result file from r, gzipped or not (told by
// the gzip magic bytes; every member's checksum is verified), one entry a
// line, handing each entry to each in file order: only the entry being
// read is held. Every error is a *model.DecodeError naming the file, the
// line and column, the JSON path within the line's entry and what was
// expected; an error of each stops the stream and is returned as it is.
func StreamResults(file string, r io.Reader, each func(*Result) error) error {
	return streamLines(file, r, func(c jc, text string) error {
		res, err := decodeResult(c, text)
		if err != nil {
			return err
		}
		return each(res)
	})
}

// unpacked is r unpacked as it is read when it is gzipped (known by the
// gzip magic bytes), and as it is otherwise; gz says which. A reader that
// reads a gzip stream to its end has had every member's checksum
// verified.
func unpacked(file string, r io.Reader) (src io.Reader, gz bool, err error) {
	br := bufio.NewReaderSize(r, 1<<16)
	if head, _ := br.Peek(2); len(head) < 2 || head[0] != 0x1f || head[1] != 0x8b {
		return br, false, nil
	}
	z, err := gzip.NewReader(br)
	if err != nil {
		return nil, true, &model.DecodeError{File: file, Msg: mapfile.GzipError(err).Error()}
	}
	return z, true, nil
}

func decodeResult(c jc, text string) (*Result, error) {
	o, err := c.object()
	if err != nil {
		return nil, err
	}
	res := &Result{Line: c.line}
	if res.ID, err = o.needStr("id"); err != nil {
		return nil, err
	}
	res.id = o.at("id")
	if i := strings.LastIndexByte(res.ID, '_'); i > 0 {
		res.Category = res.ID[:i]
	}
	if !strings.HasPrefix(res.ID, "multi_turn_") || res.Category == "" {
		return nil, o.at("id").fail("expected a multi-turn entry's id (multi_turn_<category>_N), got %q", res.ID)
	}
	rc, err := o.need("result")
	if err != nil {
		return nil, err
	}
	switch rc.n.kind {
	case jStr:
		res.Failed, res.InferenceError = true, rc.n.s
		return res, nil
	case jArr:
	default:
		return nil, rc.fail("expected a list of turns, or the text of an inference error, got %s", rc.describe())
	}
	turns, _ := rc.array()
	for _, tc := range turns {
		steps, err := tc.array()
		if err != nil {
			return nil, err
		}
		var turn Turn
		for _, sc := range steps {
			s, err := decodeStep(sc, text)
			if err != nil {
				return nil, err
			}
			turn.Steps = append(turn.Steps, s)
		}
		res.Turns = append(res.Turns, turn)
	}
	if lc, ok := o.get("inference_log"); ok {
		if err := decodeLog(res, lc); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// decodeStep reads one step of result and decodes it as BFCL's FC
// handlers' decode_execute does (convert_to_function_call,
// bfcl_eval/model_handler/utils.py at gorilla 8db0b7ca): a dict is one
// step of calls; a list's items must each be a dict; each key is a
// function, its value the arguments, a JSON text json.loads reads when
// it is a string; each call becomes `name(k=repr(v),...)`. Python's
// exception, when one is raised, is what BFCL recorded.
func decodeStep(c jc, text string) (Step, error) {
	s := Step{resp: c.n}
	items := []jc{c}
	switch c.n.kind {
	case jArr:
		items, _ = c.array()
	case jObj:
	case jStr:
		// A text answer: iterating a str gives its characters, which
		// have no .items().
		s.Text, s.IsText = c.n.s, true
		if c.n.s != "" {
			s.DecodeError = "'str' object has no attribute 'items'"
		} else {
			s.Decoded = []string{}
		}
		return s, nil
	default:
		// null, a number or a boolean: not iterable.
		s.DecodeError = fmt.Sprintf("'%s' object is not iterable", pyTypeName(c.n))
		return s, nil
	}
	var decoded []string
	for _, it := range items {
		if it.n.kind != jObj {
			if s.DecodeError == "" {
				s.DecodeError = fmt.Sprintf("'%s' object has no attribute 'items'", pyTypeName(it.n))
			}
			continue
		}
		for k, name := range it.n.keys {
			arg := it.n.items[k]
			call := Call{Name: name}
			args := arg
			switch arg.kind {
			case jStr:
				call.Arguments = arg.s
				parsed, jerr := parseJSON(arg.s, false)
				if jerr != nil {
					if jerr.beyond {
						return s, jc{arg, c.file, c.line, it.path + "." + name}.fail("the arguments are %s", jerr.msg)
					}
					if s.DecodeError == "" {
						s.DecodeError = jerr.pyMessage(arg.s)
					}
					args = nil
				} else {
					args = parsed
				}
			default:
				call.Arguments = text[arg.off:arg.end]
			}
			s.Calls = append(s.Calls, call)
			if args == nil || s.DecodeError != "" {
				continue
			}
			if args.kind != jObj {
				s.DecodeError = fmt.Sprintf("'%s' object has no attribute 'items'", pyTypeName(args))
				continue
			}
			decoded = append(decoded, callString(name, args.py().(*pyval.Dict)))
		}
	}
	if s.DecodeError == "" {
		s.Decoded = decoded
		if s.Decoded == nil {
			s.Decoded = []string{}
		}
	}
	return s, nil
}

// callString is f"{name}({','.join(f'{k}={repr(v)}' for k, v in args.items())})".
func callString(name string, args *pyval.Dict) string {
	var b strings.Builder
	b.WriteString(name)
	b.WriteByte('(')
	for i, it := range args.Items() {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(it.Key.(string))
		b.WriteByte('=')
		b.WriteString(pyval.Repr(it.Value))
	}
	b.WriteByte(')')
	return b.String()
}

// pyTypeName is type(json.loads(text)).__name__ for the value n.
func pyTypeName(n *jnode) string {
	return [...]string{"NoneType", "bool", "int", "float", "str", "list", "dict"}[n.kind]
}

// decodeLog reads an entry's inference_log: a state_info list before
// each turn it snapshots (none when every involved class is stateless)
// and after the last, and per turn a dict of its query and steps, each
// step's messages in order: the assistant's response (the step of
// result), the handler's decoding, one tool message per decoded call.
func decodeLog(res *Result, c jc) error {
	items, err := c.array()
	if err != nil {
		return err
	}
	res.Logged = true
	var pending []Snapshot
	havePending := false
	t := 0
	for _, it := range items {
		switch it.n.kind {
		case jArr:
			if havePending {
				return it.fail("expected a turn's log (an object) after a state snapshot, got another snapshot")
			}
			snaps, err := decodeSnapshots(it)
			if err != nil {
				return err
			}
			pending, havePending = snaps, true
		case jObj:
			if t >= len(res.Turns) {
				return it.fail("the log has more turns than result (%d)", len(res.Turns))
			}
			turn := &res.Turns[t]
			turn.Start, pending, havePending = pending, nil, false
			if err := decodeLogTurn(res, turn, it); err != nil {
				return err
			}
			t++
		default:
			return it.fail("expected a state snapshot (a list) or a turn's log (an object), got %s", it.describe())
		}
	}
	if t != len(res.Turns) {
		return c.fail("the log has %d turns, result %d", t, len(res.Turns))
	}
	res.Final = pending
	return nil
}

func decodeSnapshots(c jc) ([]Snapshot, error) {
	items, _ := c.array()
	out := make([]Snapshot, 0, len(items))
	for _, it := range items {
		o, err := it.object("role", "class_name", "content")
		if err != nil {
			return nil, err
		}
		role, err := o.needStr("role")
		if err != nil {
			return nil, err
		}
		if role != "state_info" {
			return nil, o.at("role").fail("expected \"state_info\", got %q", role)
		}
		var s Snapshot
		if s.Class, err = o.needStr("class_name"); err != nil {
			return nil, err
		}
		content, err := o.need("content")
		if err != nil {
			return nil, err
		}
		if _, err := content.object(); err != nil {
			return nil, err
		}
		s.Content = content.n.py().(*pyval.Dict)
		out = append(out, s)
	}
	return out, nil
}

func decodeLogTurn(res *Result, turn *Turn, c jc) error {
	o, _ := c.object()
	q, err := o.need("begin_of_turn_query")
	if err != nil {
		return err
	}
	msgs, err := q.array()
	if err != nil {
		return err
	}
	for _, m := range msgs {
		mo, err := m.object()
		if err != nil {
			return err
		}
		var msg Message
		if msg.Role, err = mo.needStr("role"); err != nil {
			return err
		}
		if msg.Content, err = mo.needStr("content"); err != nil {
			return err
		}
		turn.Query = append(turn.Query, msg)
	}
	steps := 0
	for i, key := range o.n.keys {
		if key == "begin_of_turn_query" {
			continue
		}
		sc := jc{o.n.items[i], o.file, o.line, o.path + "." + key}
		if key != "step_"+strconv.Itoa(steps) {
			return sc.fail("expected step_%d, the turn's next step, got %q", steps, key)
		}
		if steps >= len(turn.Steps) {
			return sc.fail("the log has more steps than result's turn (%d)", len(turn.Steps))
		}
		if err := decodeLogStep(res, &turn.Steps[steps], sc); err != nil {
			return err
		}
		steps++
	}
	if steps != len(turn.Steps) {
		return c.fail("the log has %d steps, result's turn %d", steps, len(turn.Steps))
	}
	return nil
}

func decodeLogStep(res *Result, s *Step, c jc) error {
	msgs, err := c.array()
	if err != nil {
		return err
	}
	for _, m := range msgs {
		mo, err := m.object()
		if err != nil {
			return err
		}
		role, err := mo.needStr("role")
		if err != nil {
			return err
		}
		switch role {
		case "inference_input":
			// The prompt as sent, logged on request: not read.
		case "assistant":
			content, err := mo.need("content")
			if err != nil {
				return err
			}
			if !equalJSON(content.n, s.resp) {
				return content.fail("expected the step's response as result records it")
			}
		case "tool":
			content, err := mo.needStr("content")
			if err != nil {
				return err
			}
			s.Results = append(s.Results, content)
		case "handler_log":
			content, err := mo.needStr("content")
			if err != nil {
				return err
			}
			if strings.HasPrefix(content, "Model has been forced to quit") {
				res.ForceQuit = true
			}
			if e, ok := mo.get("error"); ok {
				if s.LoggedDecodeError, err = e.str(); err != nil {
					return err
				}
			}
			if d, ok := mo.get("model_response_decoded"); ok && s.LoggedDecoded == nil && content == "Successfully decoded model response." {
				if s.LoggedDecoded, err = d.strs(); err != nil {
					return err
				}
			}
		default:
			return mo.at("role").fail("expected assistant, handler_log, tool or inference_input, got %q", role)
		}
	}
	return nil
}

// equalJSON says two parsed values are the same JSON.
func equalJSON(a, b *jnode) bool {
	if a.kind != b.kind || a.b != b.b || a.s != b.s || len(a.items) != len(b.items) || len(a.keys) != len(b.keys) {
		return false
	}
	for i := range a.keys {
		if a.keys[i] != b.keys[i] {
			return false
		}
	}
	for i := range a.items {
		if !equalJSON(a.items[i], b.items[i]) {
			return false
		}
	}
	return true
}
