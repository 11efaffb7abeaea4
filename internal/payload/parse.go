package payload

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unsafe"

	"github.com/parthack/parthack/model"
)

// parser reads the canonical encoding and nothing else: every key in its
// one place, optional keys only when not empty, no white space, canonical
// integers and strings, field objects sorted. An unknown, missing,
// repeated or misplaced key is an error naming the byte offset and the
// key that belongs there. The first error sticks: later reads return zero
// values, so the grammar below reads straight through.
//
// A Decoder's parser reads a window of a stream (more: bytes may follow
// b): a read that runs off its end stops the parse with short set,
// and the Decoder reads on and parses the piece again.
type parser struct {
	b     []byte
	pos   int
	base  int // the stream offset of b[0]
	err   error
	more  bool
	short bool
	// odd notes a read whose bytes may not be canonical: a string with
	// escapes other than \" and \\ or with bytes beyond printable ASCII,
	// a value read raw, a cell's type or id written empty. Whatever the
	// parser reads without noting it odd is canonical as it stands.
	odd bool
	// recent, when not nil, keeps the short strings read last (names,
	// ids, actors, ops), which a long payload repeats, so that a string
	// read again is not copied again.
	recent *[256]string
	// owned says b is the payload's, never changed after (DecodeOwned):
	// a long string shares it rather than being copied out of it.
	owned bool
}

// ownedAbove is the length over which a string of owned bytes shares
// them: a long message, which the bytes are then mostly made of.
const ownedAbove = 1 << 20

// recentLen is the longest string a parser keeps in recent.
const recentLen = 32

func (r *parser) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("byte %d: %s", r.base+r.pos, fmt.Sprintf(format, args...))
	}
}

// ranOff notes a read that ran off the end of the window; it reports
// whether more bytes may follow, so that the read is not an error yet.
func (r *parser) ranOff() bool {
	if r.more {
		r.short = true
		if r.err == nil {
			r.err = errShort
		}
	}
	return r.more
}

// errShort stops a parse that ran off the end of a window.
var errShort = fmt.Errorf("the input ends here")

func (r *parser) at(s string) bool {
	if r.err != nil {
		return false
	}
	if len(r.b)-r.pos < len(s) {
		r.ranOff()
		return false
	}
	return string(r.b[r.pos:r.pos+len(s)]) == s
}

// lit consumes an exact literal: punctuation and the keys around it.
func (r *parser) lit(s string) {
	if r.err != nil {
		return
	}
	if r.at(s) {
		r.pos += len(s)
		return
	}
	if want := keyOf(s); want != "" {
		if found := keyOf(string(r.b[r.pos:min(len(r.b), r.pos+80)])); found != "" {
			r.fail("unexpected key %q where %q belongs", found, want)
			return
		}
		r.fail("expected key %q", want)
		return
	}
	r.fail("expected %s, found %q", s, r.b[r.pos:min(len(r.b), r.pos+16)])
}

// keyOf finds the key a literal such as `,"seq":` or `{"type":` opens.
func keyOf(s string) string {
	s = strings.TrimLeft(s, "{,")
	if !strings.HasPrefix(s, `"`) {
		return ""
	}
	end := strings.Index(s[1:], `"`)
	if end < 0 || !strings.HasPrefix(s[end+2:], ":") {
		return ""
	}
	return s[1 : end+1]
}

// opt consumes an optional literal and reports whether it was there.
func (r *parser) opt(s string) bool {
	if r.at(s) {
		r.pos += len(s)
		return true
	}
	return false
}

func (r *parser) str() string {
	if r.err != nil {
		return ""
	}
	if !r.at(`"`) {
		r.fail("expected a string")
		return ""
	}
	start := r.pos + 1
	for i := start; i < len(r.b); i++ {
		c := r.b[i]
		if c == '"' {
			r.pos = i + 1
			return r.text(r.b[start:i])
		}
		if c < 0x20 || c >= 0x7f || c == '\\' {
			return r.escapedStr()
		}
	}
	if !r.ranOff() {
		r.fail("unterminated string")
	}
	return ""
}

// text is the string of b, the one kept in recent when it is there.
func (r *parser) text(b []byte) string {
	if s, ok := r.share(b); ok {
		return s
	}
	if r.recent == nil || len(b) == 0 || len(b) > recentLen {
		return string(b)
	}
	slot := &r.recent[(len(b)*31+int(b[0])*7+int(b[len(b)-1]))&255]
	if *slot != string(b) {
		*slot = string(b)
	}
	return *slot
}

// share is the string of b sharing its bytes, where they are owned and
// b is long.
func (r *parser) share(b []byte) (string, bool) {
	if !r.owned || len(b) <= ownedAbove {
		return "", false
	}
	return unsafe.String(&b[0], len(b)), true
}

// skipStr reads a string without keeping it.
func (r *parser) skipStr() {
	if r.err != nil {
		return
	}
	if !r.at(`"`) {
		r.fail("expected a string")
		return
	}
	for i := r.pos + 1; i < len(r.b); i++ {
		switch c := r.b[i]; {
		case c == '"':
			r.pos = i + 1
			return
		case c == '\\' && i+1 < len(r.b) && (r.b[i+1] == '"' || r.b[i+1] == '\\'):
			i++
		case c == '\\' || c < 0x20 || c >= 0x7f:
			r.str()
			return
		}
	}
	if !r.ranOff() {
		r.fail("unterminated string")
	}
}

// escapedStr reads a string with escapes or non-ASCII bytes. The escapes
// the encoder writes (\" \\ \n \r \t and \u with four hex digits) read
// the same in Go syntax, so strconv.Unquote serves; anything it reads
// differently is not canonical, and Decode's final comparison rejects it.
func (r *parser) escapedStr() string {
	end := r.pos + 1
	for end < len(r.b) && r.b[end] != '"' {
		if r.b[end] == '\\' {
			end++
		}
		end++
	}
	if end >= len(r.b) {
		if !r.ranOff() {
			r.fail("unterminated string")
		}
		return ""
	}
	if s, ok := unescapeASCII(r.b[r.pos+1 : end]); ok {
		r.pos = end + 1
		return s
	}
	r.odd = true
	// Unquote hands back a part of its text where nothing in it is
	// escaped: shared owned bytes, or a copy.
	quoted, ok := r.share(r.b[r.pos : end+1])
	if !ok {
		quoted = string(r.b[r.pos : end+1])
	}
	s, err := strconv.Unquote(quoted)
	if err != nil {
		r.fail("bad string %s", r.b[r.pos:end+1])
		return ""
	}
	r.pos = end + 1
	return s
}

// unescapeASCII reads the common escaped string quickly: printable
// ASCII whose escapes are \" and \\ only. ok is false for any other.
func unescapeASCII(raw []byte) (s string, ok bool) {
	var sb strings.Builder
	sb.Grow(len(raw))
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c < 0x20 || c >= 0x7f {
			return "", false
		}
		if c == '\\' {
			if i++; i == len(raw) || (raw[i] != '"' && raw[i] != '\\') {
				return "", false
			}
			c = raw[i]
		}
		sb.WriteByte(c)
	}
	return sb.String(), true
}

func (r *parser) int() int64 {
	if r.err != nil {
		return 0
	}
	start := r.pos
	r.opt("-")
	digits := r.pos
	for r.pos < len(r.b) && r.b[r.pos] >= '0' && r.b[r.pos] <= '9' {
		r.pos++
	}
	if r.pos == len(r.b) && r.ranOff() {
		return 0
	}
	span := r.b[start:r.pos]
	if r.pos == digits {
		r.fail("expected an integer")
		return 0
	}
	if r.pos < len(r.b) && (r.b[r.pos] == '.' || r.b[r.pos] == 'e' || r.b[r.pos] == 'E') {
		r.fail("%s… is not an integer", span)
		return 0
	}
	if (r.b[digits] == '0' && r.pos-digits > 1) || string(span) == "-0" {
		r.fail("integer %s is not in canonical form", span)
		return 0
	}
	if r.pos-digits <= 18 { // cannot overflow
		var v int64
		for _, c := range r.b[digits:r.pos] {
			v = v*10 + int64(c-'0')
		}
		if digits > start {
			v = -v
		}
		return v
	}
	v, err := strconv.ParseInt(string(span), 10, 64)
	if err != nil {
		r.fail("integer %s out of range", span)
	}
	return v
}

func (r *parser) boolean() bool {
	if r.opt("true") {
		return true
	}
	if !r.opt("false") {
		r.fail("expected true or false")
	}
	return false
}

// value reads a cell value: null, a boolean, an integer, a string, a list
// of strings, or any other JSON value (model.FromJSON's mapping).
func (r *parser) value() model.Value {
	switch {
	case r.err != nil:
		return model.Null
	case r.opt("null"):
		return model.Null
	case r.at("true") || r.at("false"):
		return model.Bool(r.boolean())
	case r.at(`"`):
		return model.Str(r.str())
	case r.at("[") || r.at("{") || r.isFloat():
		r.odd = true
		v, err := model.FromJSON(r.raw())
		if err != nil {
			r.fail("bad value: %v", err)
		}
		return v
	}
	return model.Int(r.int())
}

// isFloat reports whether a number with a fraction or exponent is next.
func (r *parser) isFloat() bool {
	i := r.pos
	for i < len(r.b) && (r.b[i] >= '0' && r.b[i] <= '9' || r.b[i] == '-' || r.b[i] == '+') {
		i++
	}
	if i == len(r.b) && r.ranOff() {
		return false
	}
	return i > r.pos && i < len(r.b) && (r.b[i] == '.' || r.b[i] == 'e' || r.b[i] == 'E')
}

// raw consumes one JSON value and returns its bytes: an array, an object
// or a number, for model.FromJSON to read. Canonical form is checked by
// Decode's final comparison.
func (r *parser) raw() []byte {
	start, depth, inStr := r.pos, 0, false
	for i := r.pos; i < len(r.b); i++ {
		c := r.b[i]
		switch {
		case inStr && c == '\\':
			i++
		case c == '"':
			inStr = !inStr
		case inStr:
		case c == '[' || c == '{':
			depth++
		case c == ']' || c == '}':
			depth--
		case depth == 0 && (c == ',' || c == ':'):
			r.pos = i
			return r.b[start:i]
		}
		if depth == 0 && !inStr && (c == ']' || c == '}') {
			r.pos = i + 1
			return r.b[start:r.pos]
		}
		if depth < 0 {
			r.pos = i
			return r.b[start:i]
		}
	}
	if r.ranOff() {
		return nil
	}
	r.pos = len(r.b)
	return r.b[start:]
}

// list reads a JSON array of elements read by elem; never nil.
func list[T any](r *parser, elem func(*parser) T) []T { return listInto(r, []T{}, elem) }

// listInto reads a JSON array of elements read by elem, appending them
// to out.
func listInto[T any](r *parser, out []T, elem func(*parser) T) []T {
	r.lit("[")
	if r.opt("]") {
		return out
	}
	for r.err == nil {
		out = append(out, elem(r))
		if !r.opt(",") {
			r.lit("]")
			break
		}
	}
	return out
}

// fields reads an object of values with sorted, distinct keys.
func (r *parser) fields() Fields { return r.fieldsInto(Fields{}) }

// fieldsInto reads an object of values with sorted, distinct keys,
// appending them to out.
func (r *parser) fieldsInto(out Fields) Fields {
	r.lit("{")
	if r.opt("}") {
		return out
	}
	for r.err == nil {
		name := r.str()
		r.lit(":")
		if n := len(out); n > 0 && name <= out[n-1].Name {
			r.fail("field %q: keys must be sorted and distinct", name)
		}
		out = append(out, Field{Name: name, Value: r.value()})
		if !r.opt(",") {
			r.lit("}")
			break
		}
	}
	return out
}

// optStr reads an optional string key, which the encoder leaves out when
// empty.
func (r *parser) optStr(key string) string {
	if !r.opt(key) {
		return ""
	}
	s := r.str()
	if s == "" {
		r.fail("empty %s is left out, not written", keyOf(key))
	}
	return s
}

// rawObject reads the bytes of one JSON object without interpreting
// them: expressions, which the task file decoder reads.
func (r *parser) rawObject() []byte {
	if !r.at("{") {
		r.fail("expected an object")
		return nil
	}
	r.odd = true
	start, depth := r.pos, 0
	for ; r.pos < len(r.b); r.pos++ {
		switch r.b[r.pos] {
		case '"':
			for r.pos++; r.pos < len(r.b) && r.b[r.pos] != '"'; r.pos++ {
				if r.b[r.pos] == '\\' {
					r.pos++
				}
			}
		case '{', '[':
			depth++
		case '}', ']':
			if depth--; depth == 0 {
				r.pos++
				return bytes.Clone(r.b[start:r.pos])
			}
		}
	}
	if !r.ranOff() {
		r.fail("unterminated object")
	}
	return nil
}

func (r *parser) payload() *Payload {
	p := r.head()
	r.lit(`,"events":`)
	p.Events = list(r, (*parser).event)
	r.lit(`,"terminal":`)
	p.Terminal = r.state()
	r.lit(`,"provenance":`)
	p.Provenance = list(r, (*parser).provenance)
	r.lit(`,"transcript":`)
	p.Transcript = list(r, (*parser).turn)
	p.Termination = r.termination()
	r.end()
	return p
}

// termination reads the optional termination reason, which is left out
// rather than written empty.
func (r *parser) termination() string {
	if !r.opt(`,"termination_reason":`) {
		return ""
	}
	s := r.str()
	if r.err == nil && s == "" {
		r.fail("termination_reason is left out, not written empty")
	}
	return s
}

// end reads the end of the payload, which is the end of the input.
func (r *parser) end() {
	r.lit("}")
	if r.err == nil && r.pos != len(r.b) {
		r.fail("unexpected data after the payload")
	}
}

// head reads a payload up to its events: the header, goal schema,
// reference and initial state.
func (r *parser) head() *Payload {
	p := &Payload{}
	r.lit(`{"payload_version":`)
	if p.Version = int(r.int()); r.err == nil && p.Version != Version {
		r.fail("payload_version %d; this build reads version %d", p.Version, Version)
	}
	r.lit(`,"task":`)
	p.Task = r.str()
	r.lit(`,"title":`)
	p.Title = r.str()
	r.lit(`,"instruction":`)
	p.Instruction = r.str()
	r.lit(`,"schema":`)
	p.Schema = list(r, (*parser).entityType)
	r.lit(`,"goals":`)
	p.Goals = list(r, (*parser).goal)
	if r.opt(`,"reference":`) {
		p.Reference = &Reference{}
		r.lit(`{"changes":`)
		p.Reference.Changes = list(r, (*parser).cell)
		r.lit(`,"outputs":`)
		p.Reference.Outputs = list(r, (*parser).str)
		if r.opt(`,"basis":`) {
			p.Reference.Basis = nonEmpty(r, "reference.basis", list(r, (*parser).str))
		}
		if r.opt(`,"actions":`) {
			p.Reference.Actions = nonEmpty(r, "reference.actions", list(r, (*parser).refCall))
		}
		if r.opt(`,"assertions":`) {
			p.Reference.Assertions = nonEmpty(r, "reference.assertions", list(r, (*parser).str))
		}
		r.lit("}")
	}
	r.lit(`,"initial":`)
	p.Initial = r.state()
	return p
}

func (r *parser) provenance() Provenance {
	var pr Provenance
	r.lit(`{"seq":`)
	pr.Seq = int(r.int())
	r.lit(`,"actor":`)
	pr.Actor = model.Actor(r.str())
	r.lit("}")
	return pr
}

func (r *parser) turn() Turn {
	var t Turn
	r.lit(`{"role":`)
	t.Role = r.str()
	r.lit(`,"content":`)
	t.Content = r.str()
	r.lit("}")
	return t
}

func (r *parser) entityType() EntityType {
	var t EntityType
	r.lit(`{"name":`)
	t.Name = r.str()
	r.lit(`,"fields":`)
	t.Fields = list(r, func(r *parser) FieldDef {
		var f FieldDef
		r.lit(`{"name":`)
		f.Name = r.str()
		r.lit(`,"kind":`)
		f.Kind = model.FieldKind(r.str())
		if r.opt(`,"values":`) {
			if f.Values = list(r, (*parser).str); len(f.Values) == 0 {
				r.fail("empty values are left out, not written")
			}
		}
		f.Target = r.optStr(`,"target":`)
		r.lit("}")
		return f
	})
	r.lit("}")
	return t
}

func (r *parser) goal() Goal {
	var g Goal
	r.lit(`{"version":`)
	g.Version = r.str()
	r.lit(`,"predicates":`)
	g.Predicates = list(r, func(r *parser) Predicate {
		var p Predicate
		r.lit(`{"id":`)
		p.ID = r.str()
		r.lit(`,"text":`)
		p.Text = r.str()
		r.lit(`,"expr":`)
		p.Expr.raw = r.rawObject()
		r.lit("}")
		return p
	})
	r.lit("}")
	return g
}

func (r *parser) state() State {
	var s State
	r.lit(`{"goal_version":`)
	s.GoalVersion = r.str()
	r.lit(`,"entities":`)
	s.Entities = list(r, func(r *parser) Entity {
		var e Entity
		r.lit(`{"type":`)
		e.Type = r.str()
		r.lit(`,"id":`)
		e.ID = r.str()
		e.Deleted = r.opt(`,"deleted":true`)
		r.lit(`,"fields":`)
		e.Fields = r.fields()
		r.lit("}")
		return e
	})
	r.lit("}")
	return s
}

func (r *parser) event() Event {
	ev := Event{Diff: []Cell{}}
	r.eventInto(&ev)
	return ev
}

// eventInto reads an event into ev, reusing its diff's and arguments'
// room.
func (r *parser) eventInto(ev *Event) {
	diff, args := ev.Diff[:0], ev.Args[:0]
	*ev = Event{}
	r.lit(`{"seq":`)
	ev.Seq = int(r.int())
	r.lit(`,"t":`)
	ev.T = int(r.int())
	if r.opt(`,"step":`) {
		if ev.Step = int(r.int()); ev.Step == 0 {
			r.fail("step 0 is left out, not written")
		}
	}
	r.lit(`,"actor":`)
	ev.Actor = model.Actor(r.str())
	r.lit(`,"op":`)
	ev.Op = model.Op(r.str())
	ev.Type = r.optStr(`,"type":`)
	ev.ID = r.optStr(`,"id":`)
	ev.Tool = r.optStr(`,"tool":`)
	if r.opt(`,"args":`) {
		if args == nil {
			args = Fields{}
		}
		if ev.Args = r.fieldsInto(args); len(ev.Args) == 0 {
			r.fail("empty args are left out, not written")
		}
	}
	ev.Goal = r.optStr(`,"goal":`)
	r.lit(`,"ok":`)
	ev.OK = r.boolean()
	ev.Reason = r.optStr(`,"reason":`)
	r.lit(`,"diff":`)
	ev.Diff = listInto(r, diff, (*parser).cell)
	r.lit(`,"goal_version":`)
	ev.GoalVersion = r.str()
	r.lit("}")
}

// cell reads one changed cell.
func (r *parser) cell() Cell {
	var c Cell
	r.lit("{")
	if r.opt(`"type":`) {
		c.Type = r.str()
		r.odd = r.odd || c.Type == ""
		r.lit(",")
	}
	if r.opt(`"id":`) {
		c.ID = r.str()
		r.odd = r.odd || c.ID == ""
		r.lit(",")
	}
	r.lit(`"field":`)
	c.Field = r.str()
	r.lit(`,"before":`)
	c.Before = r.value()
	r.lit(`,"after":`)
	c.After = r.value()
	r.lit("}")
	return c
}

// nonEmpty refuses an optional list written empty: the canonical form
// leaves it out.
func nonEmpty[T any](r *parser, what string, xs []T) []T {
	if len(xs) == 0 && r.err == nil {
		r.fail("%s: an empty list is left out, not written", what)
	}
	return xs
}

func (r *parser) refCall() RefCall {
	var c RefCall
	r.lit(`{"requestor":`)
	c.Requestor = r.str()
	r.lit(`,"tool":`)
	c.Tool = r.str()
	r.lit(`,"args":`)
	c.Args = r.value()
	r.lit(`,"compare_args":`)
	c.CompareArgs = list(r, (*parser).str)
	r.lit(`,"all_args":`)
	c.AllArgs = r.boolean()
	r.lit("}")
	return c
}
