package payload

import (
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/parthack/parthack/model"
)

// The canonical encoding, written without reflection so that a
// 1,000,000-event payload encodes in a fraction of a second. For every
// payload whose strings are valid UTF-8 it is the same bytes as model.Canonical of the
// structs, whose json tags document the format (a test holds the two
// together): keys in declaration order, empty optional keys left out,
// field objects sorted by name, no white space. A nil list encodes as [].

// Bytes is the payload's canonical JSON: the exact bytes every evaluator
// receives.
func (p *Payload) Bytes() []byte {
	return p.appendJSON(make([]byte, 0, sizeHint(p.Events)+textHint(p.Transcript)))
}

func (p *Payload) appendJSON(b []byte) []byte {
	b = appendHeader(b, "payload_version", p.Version, p.Task, p.Title, p.Instruction, p.Schema)
	b = p.appendGoals(b)
	b = appendTail(b, &p.Initial, p.Events, &p.Terminal, p.Provenance, p.Transcript)
	return append(appendTermination(b, p.Termination), '}')
}

// appendTermination writes the termination reason, when there is one.
func appendTermination(b []byte, reason string) []byte {
	if reason == "" {
		return b
	}
	return appendStr(append(b, `,"termination_reason":`...), reason)
}

// appendGoals writes the goal schema and the reference: what the payload
// holds beyond its projection's header.
func (p *Payload) appendGoals(b []byte) []byte {
	b = appendList(append(b, `,"goals":`...), p.Goals, appendGoal)
	if p.Reference != nil {
		b = appendList(append(b, `,"reference":{"changes":`...), p.Reference.Changes, appendCell)
		b = appendList(append(b, `,"outputs":`...), p.Reference.Outputs, appendStrElem)
		if len(p.Reference.Basis) > 0 {
			b = appendList(append(b, `,"basis":`...), p.Reference.Basis, appendStrElem)
		}
		if len(p.Reference.Actions) > 0 {
			b = appendList(append(b, `,"actions":`...), p.Reference.Actions, appendRefCall)
		}
		if len(p.Reference.Assertions) > 0 {
			b = appendList(append(b, `,"assertions":`...), p.Reference.Assertions, appendStrElem)
		}
		b = append(b, '}')
	}
	return b
}

// sizeHint guesses the encoded size, so that a long log is not copied
// over and over as the buffer grows.
func sizeHint(events []Event) int { return 1<<14 + 320*len(events) }

// textHint guesses the encoded size of a transcript: room for a long
// message up front, so that it is copied once into the bytes, not again
// each time a full buffer grows (a 200 MB message made 450 MB of them).
func textHint(transcript []Turn) int {
	n := 0
	for i := range transcript {
		n += len(transcript[i].Content) + 64
	}
	return n
}

// Hash is the sha256 of Bytes, in hex.
func (p *Payload) Hash() string { return model.Hash(p.Bytes()) }

// Bytes is the projection's canonical JSON.
func (q *Projection) Bytes() []byte {
	b := appendHeader(make([]byte, 0, sizeHint(q.Events)), "projection_version", q.Version, q.Task, q.Title, q.Instruction, q.Schema)
	return append(appendTail(b, &q.Initial, q.Events, &q.Terminal, q.Provenance, q.Transcript), '}')
}

// Hash is the sha256 of Bytes, in hex.
func (q *Projection) Hash() string { return model.Hash(q.Bytes()) }

// appendList writes a JSON array, one element at a time.
func appendList[T any](b []byte, xs []T, elem func([]byte, *T) []byte) []byte {
	b = append(b, '[')
	for i := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		b = elem(b, &xs[i])
	}
	return append(b, ']')
}

func appendHeader(b []byte, versionKey string, version int, task, title, instruction string, schema []EntityType) []byte {
	b = append(b, `{"`...)
	b = append(b, versionKey...)
	b = strconv.AppendInt(append(b, `":`...), int64(version), 10)
	b = appendStr(append(b, `,"task":`...), task)
	b = appendStr(append(b, `,"title":`...), title)
	b = appendStr(append(b, `,"instruction":`...), instruction)
	return appendList(append(b, `,"schema":`...), schema, appendType)
}

func appendType(b []byte, t *EntityType) []byte {
	b = appendStr(append(b, `{"name":`...), t.Name)
	b = appendList(append(b, `,"fields":`...), t.Fields, func(b []byte, f *FieldDef) []byte {
		b = appendStr(append(b, `{"name":`...), f.Name)
		b = appendStr(append(b, `,"kind":`...), string(f.Kind))
		if len(f.Values) > 0 {
			b = appendList(append(b, `,"values":`...), f.Values, func(b []byte, s *string) []byte { return appendStr(b, *s) })
		}
		if f.Target != "" {
			b = appendStr(append(b, `,"target":`...), f.Target)
		}
		return append(b, '}')
	})
	return append(b, '}')
}

func appendGoal(b []byte, g *Goal) []byte {
	b = appendStr(append(b, `{"version":`...), g.Version)
	b = appendList(append(b, `,"predicates":`...), g.Predicates, func(b []byte, pr *Predicate) []byte {
		b = appendStr(append(b, `{"id":`...), pr.ID)
		b = appendStr(append(b, `,"text":`...), pr.Text)
		b = AppendExpr(append(b, `,"expr":`...), &pr.Expr.Expr)
		return append(b, '}')
	})
	return append(b, '}')
}

func appendTail(b []byte, initial *State, events []Event, terminal *State, prov []Provenance, transcript []Turn) []byte {
	b = appendState(append(b, `,"initial":`...), initial)
	b = appendList(append(b, `,"events":`...), events, appendEvent)
	b = appendState(append(b, `,"terminal":`...), terminal)
	b = appendList(append(b, `,"provenance":`...), prov, appendProvenance)
	return appendList(append(b, `,"transcript":`...), transcript, appendTurn)
}

func appendProvenance(b []byte, pr *Provenance) []byte {
	b = strconv.AppendInt(append(b, `{"seq":`...), int64(pr.Seq), 10)
	b = appendStr(append(b, `,"actor":`...), string(pr.Actor))
	return append(b, '}')
}

func appendTurn(b []byte, t *Turn) []byte {
	b = appendStr(append(b, `{"role":`...), t.Role)
	b = appendStr(append(b, `,"content":`...), t.Content)
	return append(b, '}')
}

// TextBytes is Bytes of p with turns, a run's conversation, as its
// transcript in place of p's own: each turn's text is read into the
// bytes a piece at a time, so that a message set aside in a spill file is
// never made whole for them, and the bytes are sized for it up front. An
// error reading a text back is returned.
func (p *Payload) TextBytes(turns []model.Turn) ([]byte, error) {
	text := 0
	for i := range turns {
		text += turns[i].Content.Len() + 64
	}
	b := appendHeader(make([]byte, 0, sizeHint(p.Events)+text), "payload_version", p.Version, p.Task, p.Title, p.Instruction, p.Schema)
	b = appendTail(p.appendGoals(b), &p.Initial, p.Events, &p.Terminal, p.Provenance, nil)
	b = b[:len(b)-1] // the transcript's closing bracket
	for i := range turns {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(appendStr(append(b, `{"role":`...), turns[i].Role), `,"content":"`...)
		err := turns[i].Content.Pieces(func(s string) error {
			for len(s) > 0 {
				n := strCut(s, encFlush)
				b = appendStrBody(b, s[:n])
				s = s[n:]
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		b = append(b, `"}`...)
	}
	return append(appendTermination(append(b, ']'), p.Termination), '}'), nil
}

// encode writes p through e, the bytes Bytes makes, a piece at a time.
func (p *Payload) encode(e *Encoder) error {
	e.Head(p)
	for i := range p.Events {
		e.Event(&p.Events[i])
	}
	e.Terminal(&p.Terminal)
	for _, pr := range p.Provenance {
		e.Provenance(pr)
	}
	for i := range p.Transcript {
		e.Turn(&p.Transcript[i])
	}
	return e.CloseWith(p.Termination)
}

// strCut is where a long string is cut into the pieces an Encoder
// writes one at a time: the first ASCII byte at or after n (the string's
// end if none). An ASCII byte is a character of its own and ends any run
// of invalid bytes, which appendOther replaces as a whole, so each piece
// escapes to what it is within the whole string.
func strCut(s string, n int) int {
	for n < len(s) && s[n] >= utf8.RuneSelf {
		n++
	}
	return min(n, len(s))
}

// appendStrBody writes s as appendStr does, without its quotes.
func appendStrBody(b []byte, s string) []byte {
	n := len(b)
	b = appendStr(b, s)
	return append(b[:n], b[n+1:len(b)-1]...)
}

func appendState(b []byte, s *State) []byte {
	b = appendStr(append(b, `{"goal_version":`...), s.GoalVersion)
	b = appendList(append(b, `,"entities":`...), s.Entities, func(b []byte, e *Entity) []byte {
		b = appendStr(append(b, `{"type":`...), e.Type)
		b = appendStr(append(b, `,"id":`...), e.ID)
		if e.Deleted {
			b = append(b, `,"deleted":true`...)
		}
		b = e.Fields.appendJSON(append(b, `,"fields":`...))
		return append(b, '}')
	})
	return append(b, '}')
}

func appendEvent(b []byte, ev *Event) []byte {
	b = strconv.AppendInt(append(b, `{"seq":`...), int64(ev.Seq), 10)
	b = strconv.AppendInt(append(b, `,"t":`...), int64(ev.T), 10)
	if ev.Step != 0 {
		b = strconv.AppendInt(append(b, `,"step":`...), int64(ev.Step), 10)
	}
	b = appendStr(append(b, `,"actor":`...), string(ev.Actor))
	b = appendStr(append(b, `,"op":`...), string(ev.Op))
	if ev.Type != "" {
		b = appendStr(append(b, `,"type":`...), ev.Type)
	}
	if ev.ID != "" {
		b = appendStr(append(b, `,"id":`...), ev.ID)
	}
	if ev.Tool != "" {
		b = appendStr(append(b, `,"tool":`...), ev.Tool)
	}
	if len(ev.Args) > 0 {
		b = ev.Args.appendJSON(append(b, `,"args":`...))
	}
	if ev.Goal != "" {
		b = appendStr(append(b, `,"goal":`...), ev.Goal)
	}
	b = strconv.AppendBool(append(b, `,"ok":`...), ev.OK)
	if ev.Reason != "" {
		b = appendStr(append(b, `,"reason":`...), ev.Reason)
	}
	b = appendList(append(b, `,"diff":`...), ev.Diff, appendCell)
	b = appendStr(append(b, `,"goal_version":`...), ev.GoalVersion)
	return append(b, '}')
}

func appendCell(b []byte, c *Cell) []byte {
	b = append(b, '{')
	if c.Type != "" {
		b = append(appendStr(append(b, `"type":`...), c.Type), ',')
	}
	if c.ID != "" {
		b = append(appendStr(append(b, `"id":`...), c.ID), ',')
	}
	b = appendStr(append(b, `"field":`...), c.Field)
	b = appendValue(append(b, `,"before":`...), c.Before)
	b = appendValue(append(b, `,"after":`...), c.After)
	return append(b, '}')
}

// appendStr writes a canonical JSON string. Invalid UTF-8 is written as
// U+FFFD, as encoding/json reads it, so that every payload decodes to one
// that encodes to the same bytes.
func appendStr[T string | []byte](b []byte, s T) []byte {
	// Printable ASCII, the common case, needs escapes for '"' and '\\'
	// only, as encoding/json writes them; a run without either is copied
	// whole.
	start := len(b)
	b = append(b, '"')
	from := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20 || c >= 0x7f:
			return appendOther(b[:start], string(s))
		case c == '"' || c == '\\':
			b = append(append(b, s[from:i]...), '\\', c)
			from = i + 1
		}
	}
	return append(append(b, s[from:]...), '"')
}

// appendOther writes a string with control or non-ASCII bytes.
func appendOther(b []byte, s string) []byte {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	return model.Str(s).AppendJSON(b)
}

// appendValue writes a cell value, its strings as appendStr does.
func appendValue(b []byte, v model.Value) []byte {
	switch v.Kind() {
	case model.StringValue:
		return appendStr(b, v.AsString())
	case model.ListValue:
		return appendList(b, v.AsList(), func(b []byte, s *string) []byte { return appendStr(b, *s) })
	}
	return v.AppendJSON(b)
}

func appendStrElem(b []byte, s *string) []byte { return appendStr(b, *s) }

func appendRefCall(b []byte, c *RefCall) []byte {
	b = appendStr(append(b, `{"requestor":`...), c.Requestor)
	b = appendStr(append(b, `,"tool":`...), c.Tool)
	b = appendValue(append(b, `,"args":`...), c.Args)
	b = appendList(append(b, `,"compare_args":`...), c.CompareArgs, appendStrElem)
	b = strconv.AppendBool(append(b, `,"all_args":`...), c.AllArgs)
	return append(b, '}')
}

// Encoder writes the canonical encoding of a payload, or of its
// projection, to a writer a piece at a time, in the encoding's order:
// Head, then every Event, Terminal, every Provenance entry, every Turn of
// the transcript, and Close. A payload of any length is written so
// without being held; the bytes are exactly Bytes's for the payload the
// pieces make up.
type Encoder struct {
	w          io.Writer
	b          []byte
	err        error
	projection bool
	list       encList // the list being written
	n          int     // its elements so far
}

// encList is the list of the payload an Encoder is writing.
type encList int

const (
	encEvents encList = iota
	encProvenance
	encTranscript
)

// encFlush is how many bytes an Encoder gathers before it writes them.
const encFlush = 64 << 10

// NewEncoder writes a payload to w.
func NewEncoder(w io.Writer) *Encoder { return &Encoder{w: w} }

// NewProjectionEncoder writes the IDJ projection of a payload to w, from
// the same pieces: the goal schema and reference of Head are left out.
func NewProjectionEncoder(w io.Writer) *Encoder { return &Encoder{w: w, projection: true} }

// Head writes everything before the events: p's header, its goal schema
// and reference (not in a projection) and its initial state. p's later
// parts are not read.
func (e *Encoder) Head(p *Payload) {
	if e.projection {
		e.b = appendHeader(e.b, "projection_version", ProjectionVersion, p.Task, p.Title, p.Instruction, p.Schema)
	} else {
		e.b = p.appendGoals(appendHeader(e.b, "payload_version", p.Version, p.Task, p.Title, p.Instruction, p.Schema))
	}
	e.b = append(appendState(append(e.b, `,"initial":`...), &p.Initial), `,"events":[`...)
	e.list, e.n = encEvents, 0
	e.flush(encFlush)
}

// elem starts the next element of list l.
func (e *Encoder) elem(l encList) {
	if e.list != l {
		if l == encTranscript && e.list == encProvenance {
			e.b = append(e.b, `],"transcript":[`...)
		}
		e.list, e.n = l, 0
	}
	if e.n > 0 {
		e.b = append(e.b, ',')
	}
	e.n++
}

// Event writes the next event.
func (e *Encoder) Event(ev *Event) {
	e.elem(encEvents)
	e.b = appendEvent(e.b, ev)
	e.flush(encFlush)
}

// Terminal ends the events and writes the terminal state.
func (e *Encoder) Terminal(s *State) {
	e.b = append(appendState(append(e.b, `],"terminal":`...), s), `,"provenance":[`...)
	e.list, e.n = encProvenance, 0
	e.flush(encFlush)
}

// Provenance writes the next provenance entry.
func (e *Encoder) Provenance(pr Provenance) {
	e.elem(encProvenance)
	e.b = appendProvenance(e.b, &pr)
	e.flush(encFlush)
}

// Turn writes the next turn of the transcript, a long content a piece
// at a time.
func (e *Encoder) Turn(t *Turn) {
	e.elem(encTranscript)
	if len(t.Content) <= encFlush {
		e.b = appendTurn(e.b, t)
		e.flush(encFlush)
		return
	}
	e.turnHead(t.Role)
	e.strBody(t.Content)
	e.b = append(e.b, `"}`...)
	e.flush(encFlush)
}

// TextTurn writes the next turn of the transcript from its role and a
// text, read a piece at a time, as Turn writes the turn of the text's
// string: a message set aside in a spill file is written without being
// made whole. An error reading it back is Close's.
func (e *Encoder) TextTurn(role string, text model.Text) {
	e.elem(encTranscript)
	e.turnHead(role)
	// A spilled text is valid UTF-8 (its stream checked it) and comes in
	// pieces cut where a character starts, which escape as they do
	// within the whole; another comes whole, and strBody cuts it.
	err := text.Pieces(func(piece string) error {
		e.strBody(piece)
		return e.err
	})
	if e.err == nil {
		e.err = err
	}
	e.b = append(e.b, `"}`...)
	e.flush(encFlush)
}

// turnHead writes a turn up to its content's opening quote.
func (e *Encoder) turnHead(role string) {
	e.b = append(appendStr(append(e.b, `{"role":`...), role), `,"content":"`...)
}

// strBody writes s escaped, without its quotes, a piece of about
// encFlush bytes at a time.
func (e *Encoder) strBody(s string) {
	for len(s) > 0 {
		n := strCut(s, encFlush)
		e.b = appendStrBody(e.b, s[:n])
		s = s[n:]
		e.flush(encFlush)
	}
}

// TurnText writes the next turn of the transcript from its role and the
// bytes of its content, as Turn writes it.
func (e *Encoder) TurnText(role string, content []byte) {
	e.elem(encTranscript)
	e.b = append(appendStr(append(appendStr(append(e.b, `{"role":`...), role), `,"content":`...), content), '}')
	e.flush(encFlush)
}

// CloseWith ends the payload with the run's termination reason ("" for
// none; a projection leaves it out) and writes what is left; it returns
// the first error the writer gave.
func (e *Encoder) CloseWith(termination string) error {
	if e.list != encTranscript {
		e.b = append(e.b, `],"transcript":[`...)
	}
	e.b = append(e.b, ']')
	if !e.projection {
		e.b = appendTermination(e.b, termination)
	}
	e.b = append(e.b, '}')
	e.flush(0)
	return e.err
}

// flush writes the gathered bytes once there are at least n of them.
func (e *Encoder) flush(n int) {
	if len(e.b) < max(n, 1) {
		return
	}
	if t, ok := e.w.(taker); ok {
		if e.err == nil {
			e.b, e.err = t.Take(e.b) // b may be the taker's even when it fails
		}
		e.b = e.b[:0]
		return
	}
	if e.err == nil {
		_, e.err = e.w.Write(e.b)
	}
	e.b = e.b[:0]
}

// taker is a writer that takes a buffer whole rather than copy it, and
// gives back an empty one to fill next, or on failure one that is not
// its own (internal/pipe's Bytes is one): an Encoder writing hundreds of
// megabytes to one saves a copy of them.
type taker interface {
	Take(b []byte) (next []byte, err error)
}
