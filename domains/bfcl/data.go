package bfcl

import (
	"embed"
	"fmt"
	"math"
	"math/big"
	"path"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/parthack/parthack/domains/bfcl/pyval"
	"github.com/parthack/parthack/internal/mapfile"
	"github.com/parthack/parthack/model"
)

// data is BFCL's multi-turn data as parthack ships it: the questions, the
// gold calls and the function docs of gorilla 8db0b7ca, with BFCL's
// Apache-2.0 licence and a NOTICE naming each file's origin.
//
//go:embed data
var data embed.FS

// Categories are BFCL's multi-turn categories parthack ships, in BFCL's
// order.
var Categories = []string{"multi_turn_base", "multi_turn_miss_func", "multi_turn_miss_param"}

// Message is one message of a user turn.
type Message struct {
	Role    string
	Content string
}

// Entry is one BFCL multi-turn test entry, its question file's line and
// its possible_answer line together.
type Entry struct {
	ID       string // "multi_turn_base_0"
	Category string // BFCL's test category: the id less its last "_N"
	// Question holds the user turns, each a list of messages; a turn of
	// miss_func where a held-out function comes back has none (BFCL
	// sends its fixed message then).
	Question [][]Message
	// InitialConfig is each class's starting state, by class name, as
	// json.loads gives it.
	InitialConfig   *pyval.Dict
	InvolvedClasses []string
	// Path and ExcludedFunction are the functions the entry is about and
	// those not offered (nil when the entry names none); BFCL's checker
	// reads neither.
	Path, ExcludedFunction []string
	// MissedFunction (miss_func) holds the functions withheld until a
	// turn, by that turn's index; nil elsewhere.
	MissedFunction map[int][]string
	// GroundTruth holds, per turn, the gold calls as Python call strings.
	GroundTruth [][]string
}

// Unrunnable is why BFCL's inference cannot run the entry, "" when it
// can: a turn that gives a held-out function back must have no user
// message (BFCL asserts it and records the assertion as the entry's
// inference error). 8 miss_func entries of gorilla 8db0b7ca have one; a
// later commit moved their held-out turn.
func (e *Entry) Unrunnable() string {
	for turn := range e.MissedFunction {
		if len(e.Question[turn]) != 0 {
			return "Holdout turn should not have user message."
		}
	}
	return ""
}

// FuncDoc is one function's schema as BFCL offers it to a model.
type FuncDoc struct {
	Name        string
	Description string
	Parameters  *Schema
	Response    *Schema
	// Raw is the doc as its file has it (one JSON line).
	Raw string
}

// Schema is a parameter's or a response's schema in BFCL's words (types
// "dict", "string", "integer", "float", "boolean", "array", "any", ...).
type Schema struct {
	Type        string
	Description string
	Properties  []Property // a dict's, in the doc's order
	Required    []string
	Items       *Schema // an array's items
	// Default is the parameter's default as json.loads gives it, when
	// HasDefault.
	Default    pyval.Value
	HasDefault bool
}

// Property is one named member of a dict schema.
type Property struct {
	Name   string
	Schema *Schema
}

// funcDocFiles maps each class to its function-doc file, as BFCL's
// MULTI_TURN_FUNC_DOC_FILE_MAPPING does.
var funcDocFiles = map[string]string{
	"GorillaFileSystem": "gorilla_file_system.json",
	"MathAPI":           "math_api.json",
	"MessageAPI":        "message_api.json",
	"TwitterAPI":        "posting_api.json",
	"TicketAPI":         "ticket_api.json",
	"TradingBot":        "trading_bot.json",
	"TravelAPI":         "travel_booking.json",
	"VehicleControlAPI": "vehicle_control.json",
}

var loaded struct {
	once    sync.Once
	entries []*Entry
	byID    map[string]*Entry
	docs    map[string][]*FuncDoc
	err     error
}

func load() {
	l := &loaded
	l.byID = map[string]*Entry{}
	for _, cat := range Categories {
		es, err := decodeCategory(cat)
		if err != nil {
			l.err = err
			return
		}
		for _, e := range es {
			l.byID[e.ID] = e
		}
		l.entries = append(l.entries, es...)
	}
	l.docs = map[string][]*FuncDoc{}
	for class, file := range funcDocFiles {
		docs, err := decodeFuncDocs("multi_turn_func_doc/" + file)
		if err != nil {
			l.err = err
			return
		}
		l.docs[class] = docs
	}
}

// Entries are BFCL's multi-turn entries parthack ships, the three
// categories in Categories' order, each in its file's order. They are
// decoded once; callers must not modify them.
func Entries() ([]*Entry, error) {
	loaded.once.Do(load)
	return loaded.entries, loaded.err
}

// EntryByID finds a shipped entry by BFCL's id ("multi_turn_base_0").
func EntryByID(id string) (*Entry, error) {
	loaded.once.Do(load)
	if loaded.err != nil {
		return nil, loaded.err
	}
	e, ok := loaded.byID[id]
	if !ok {
		return nil, fmt.Errorf("bfcl: no multi-turn entry %q (ids are %s_N, N from 0 to 199)", id, strings.Join(Categories, "_N, "))
	}
	return e, nil
}

// FuncDocs are a class's function docs, in its file's order
// ("GorillaFileSystem": gorilla_file_system.json).
func FuncDocs(class string) ([]*FuncDoc, error) {
	loaded.once.Do(load)
	if loaded.err != nil {
		return nil, loaded.err
	}
	docs, ok := loaded.docs[class]
	if !ok {
		return nil, fmt.Errorf("bfcl: no class %q (BFCL's multi-turn classes are GorillaFileSystem, MathAPI, MessageAPI, TwitterAPI, TicketAPI, TradingBot, TravelAPI, VehicleControlAPI)", class)
	}
	return docs, nil
}

// shipped reads a shipped file, gunzipped (its checksum verified) when
// it is gzipped.
func shipped(name string) ([]byte, error) {
	b, err := data.ReadFile(path.Join("data", name))
	if err != nil {
		return nil, fmt.Errorf("bfcl data: %w", err)
	}
	out, err := mapfile.Unpack(b)
	if err != nil {
		return nil, fmt.Errorf("bfcl data %s: %w", name, err)
	}
	return out, nil
}

// lines splits a file of one JSON value a line (BFCL's format, read as
// its load_file does: `for line in f: json.loads(line)`), calling each
// with the line's text and number (from 1).
func lines(src []byte, each func(line string, n int) error) error {
	s := string(src)
	for n := 1; s != ""; n++ {
		line, rest, _ := strings.Cut(s, "\n")
		s = rest
		if err := each(line, n); err != nil {
			return err
		}
	}
	return nil
}

func decodeCategory(cat string) ([]*Entry, error) {
	qfile := "BFCL_v4_" + cat + ".json.gz"
	afile := "possible_answer/" + qfile
	qsrc, err := shipped(qfile)
	if err != nil {
		return nil, err
	}
	asrc, err := shipped(afile)
	if err != nil {
		return nil, err
	}
	var out []*Entry
	err = lines(qsrc, func(line string, n int) error {
		c, err := parseLine(qfile, line, n)
		if err != nil {
			return err
		}
		e, err := decodeQuestion(c, cat)
		if err != nil {
			return err
		}
		out = append(out, e)
		return nil
	})
	if err != nil {
		return nil, err
	}
	i := 0
	err = lines(asrc, func(line string, n int) error {
		c, err := parseLine(afile, line, n)
		if err != nil {
			return err
		}
		o, err := c.object("id", "ground_truth")
		if err != nil {
			return err
		}
		id, err := o.needStr("id")
		if err != nil {
			return err
		}
		if i >= len(out) {
			return o.at("id").fail("entry %q has no question: %s holds %d", id, qfile, len(out))
		}
		e := out[i]
		if id != e.ID {
			return o.at("id").fail("expected %q, the id of line %d of %s (BFCL pairs questions and answers by position)", e.ID, i+1, qfile)
		}
		gt, err := o.need("ground_truth")
		if err != nil {
			return err
		}
		turns, err := gt.array()
		if err != nil {
			return err
		}
		if len(turns) != len(e.Question) {
			return gt.fail("expected %d turns, one per turn of the question, got %d", len(e.Question), len(turns))
		}
		for _, t := range turns {
			calls, err := t.strs()
			if err != nil {
				return err
			}
			e.GroundTruth = append(e.GroundTruth, calls)
		}
		i++
		return nil
	})
	if err != nil {
		return nil, err
	}
	if i != len(out) {
		return nil, fmt.Errorf("bfcl data %s: %d answers for %d questions of %s", afile, i, len(out), qfile)
	}
	return out, nil
}

func decodeQuestion(c jc, cat string) (*Entry, error) {
	o, err := c.object("id", "question", "initial_config", "involved_classes", "path", "excluded_function", "missed_function")
	if err != nil {
		return nil, err
	}
	e := &Entry{}
	if e.ID, err = o.needStr("id"); err != nil {
		return nil, err
	}
	if i := strings.LastIndexByte(e.ID, '_'); i > 0 {
		e.Category = e.ID[:i]
	}
	if e.Category != cat {
		return nil, o.at("id").fail("expected an id of category %s (%s_N), got %q", cat, cat, e.ID)
	}
	q, err := o.need("question")
	if err != nil {
		return nil, err
	}
	turns, err := q.array()
	if err != nil {
		return nil, err
	}
	for _, t := range turns {
		msgs, err := t.array()
		if err != nil {
			return nil, err
		}
		turn := []Message{}
		for _, m := range msgs {
			mo, err := m.object("role", "content")
			if err != nil {
				return nil, err
			}
			var msg Message
			if msg.Role, err = mo.needStr("role"); err != nil {
				return nil, err
			}
			if msg.Content, err = mo.needStr("content"); err != nil {
				return nil, err
			}
			turn = append(turn, msg)
		}
		e.Question = append(e.Question, turn)
	}
	ic, err := o.need("initial_config")
	if err != nil {
		return nil, err
	}
	if _, err := ic.object(); err != nil {
		return nil, err
	}
	e.InitialConfig = ic.n.py().(*pyval.Dict)
	for _, f := range []struct {
		key      string
		dst      *[]string
		optional bool
	}{{"involved_classes", &e.InvolvedClasses, false}, {"path", &e.Path, false}, {"excluded_function", &e.ExcludedFunction, true}} {
		v, ok := o.get(f.key)
		if !ok {
			if f.optional {
				continue
			}
			return nil, o.fail("missing %q", f.key)
		}
		if *f.dst, err = v.strs(); err != nil {
			return nil, err
		}
	}
	for i, class := range e.InvolvedClasses {
		if _, ok := funcDocFiles[class]; !ok {
			return nil, o.at("involved_classes").item(i).fail("expected one of BFCL's multi-turn classes, got %q", class)
		}
	}
	if mf, ok := o.get("missed_function"); ok {
		mo, err := mf.object()
		if err != nil {
			return nil, err
		}
		e.MissedFunction = map[int][]string{}
		for _, key := range mo.n.keys {
			v := mo.at(key)
			turn, err := strconv.Atoi(key)
			if err != nil || strconv.Itoa(turn) != key || turn < 0 || turn >= len(e.Question) {
				return nil, v.fail("expected a turn index from 0 to %d as the key, got %q", len(e.Question)-1, key)
			}
			if e.MissedFunction[turn], err = v.strs(); err != nil {
				return nil, err
			}
		}
	}
	return e, nil
}

func decodeFuncDocs(file string) ([]*FuncDoc, error) {
	src, err := shipped(file)
	if err != nil {
		return nil, err
	}
	var out []*FuncDoc
	err = lines(src, func(line string, n int) error {
		c, err := parseLine(file, line, n)
		if err != nil {
			return err
		}
		o, err := c.object("name", "description", "parameters", "response")
		if err != nil {
			return err
		}
		d := &FuncDoc{Raw: line}
		if d.Name, err = o.needStr("name"); err != nil {
			return err
		}
		if d.Description, err = o.needStr("description"); err != nil {
			return err
		}
		if p, ok := o.get("parameters"); ok {
			if d.Parameters, err = decodeSchema(p); err != nil {
				return err
			}
		}
		if r, ok := o.get("response"); ok {
			if d.Response, err = decodeSchema(r); err != nil {
				return err
			}
		}
		out = append(out, d)
		return nil
	})
	return out, err
}

func decodeSchema(c jc) (*Schema, error) {
	o, err := c.object("type", "description", "properties", "required", "items", "default")
	if err != nil {
		return nil, err
	}
	s := &Schema{}
	if s.Type, err = o.needStr("type"); err != nil {
		return nil, err
	}
	if d, ok := o.get("description"); ok {
		if s.Description, err = d.str(); err != nil {
			return nil, err
		}
	}
	if p, ok := o.get("properties"); ok {
		po, err := p.object()
		if err != nil {
			return nil, err
		}
		for _, key := range po.n.keys {
			ps, err := decodeSchema(po.at(key))
			if err != nil {
				return nil, err
			}
			s.Properties = append(s.Properties, Property{Name: key, Schema: ps})
		}
	}
	if r, ok := o.get("required"); ok {
		if s.Required, err = r.strs(); err != nil {
			return nil, err
		}
	}
	if it, ok := o.get("items"); ok {
		if s.Items, err = decodeSchema(it); err != nil {
			return nil, err
		}
	}
	if d, ok := o.get("default"); ok {
		s.Default, s.HasDefault = d.n.py(), true
	}
	return s, nil
}

// A JSON text is parsed as Python's json.loads parses it (CPython's C
// scanner): standard JSON plus NaN, Infinity and -Infinity, an integer
// literal an int of any size, anything else a float (1e400 is inf), a
// key that repeats keeping its first place and its last value, and on
// bad input the error text json.JSONDecodeError gives ("Expecting ','
// delimiter: line 1 column 23 (char 22)"), which BFCL records when a
// model's arguments fail to decode. The one departure: a lone surrogate
// escape (\ud800) becomes U+FFFD, as Go strings are UTF-8. The files
// parthack reads are parsed the same way, but a key that repeats there is
// refused (BFCL's json.dumps never writes one).

// jkind is a JSON value's kind.
type jkind uint8

const (
	jNull jkind = iota
	jBool
	jInt
	jFloat
	jStr
	jArr
	jObj
)

var jkindNames = [...]string{"null", "a boolean", "an integer", "a number", "a string", "a list", "an object"}

// jnode is one parsed value.
type jnode struct {
	kind  jkind
	off   int // byte offset of its first byte in its text
	end   int // and of the byte after its last
	b     bool
	s     string   // a string's value; a number's literal
	items []*jnode // a list's items; an object's values
	keys  []string // an object's keys, in order, repeats kept
}

// jsonError is a JSON text's syntax error as Python words it, at a byte
// offset of the text, with the path of the value being read.
type jsonError struct {
	msg  string
	off  int
	path string
	// beyond says the text is nested past maxJSONDepth: parthack's
	// bound, not an error Python would give there.
	beyond bool
}

// maxJSONDepth bounds nesting. Python's own bound is its recursion limit,
// which depends on the caller's stack; no text BFCL writes or a model
// sends comes near either.
const maxJSONDepth = 500

type jparser struct {
	src    string
	strict bool // refuse a key that repeats (a file parthack reads)
	segs   []string
	depth  int
}

func (p *jparser) fail(off int, msg string) *jsonError {
	return &jsonError{msg: msg, off: off, path: "$" + strings.Join(p.segs, "")}
}

// parseJSON parses a whole text as json.loads does.
func parseJSON(src string, strict bool) (*jnode, *jsonError) {
	p := &jparser{src: src, strict: strict}
	if strings.HasPrefix(src, "\ufeff") {
		return nil, p.fail(0, "Unexpected UTF-8 BOM (decode using utf-8-sig)")
	}
	n, end, err := p.value(p.ws(0))
	if err != nil {
		return nil, err
	}
	if end = p.ws(end); end != len(src) {
		return nil, p.fail(end, "Extra data")
	}
	return n, nil
}

func isWS(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func (p *jparser) ws(i int) int {
	for i < len(p.src) && isWS(p.src[i]) {
		i++
	}
	return i
}

func (p *jparser) value(i int) (*jnode, int, *jsonError) {
	n, end, err := p.scan(i)
	if err == nil {
		n.end = end
	}
	return n, end, err
}

// scan reads the value at i as the C scanner's scan_once_unicode does.
func (p *jparser) scan(i int) (*jnode, int, *jsonError) {
	s := p.src
	if i >= len(s) {
		return nil, 0, p.fail(i, "Expecting value")
	}
	switch c := s[i]; c {
	case '"':
		str, end, err := p.str(i + 1)
		if err != nil {
			return nil, 0, err
		}
		return &jnode{kind: jStr, off: i, s: str}, end, nil
	case '{', '[':
		if p.depth++; p.depth > maxJSONDepth {
			e := p.fail(i, fmt.Sprintf("nested deeper than %d levels (parthack's bound)", maxJSONDepth))
			e.beyond = true
			return nil, 0, e
		}
		defer func() { p.depth-- }()
		if c == '{' {
			return p.object(i)
		}
		return p.array(i)
	}
	for _, lit := range []struct {
		text string
		n    jnode
	}{{"null", jnode{kind: jNull}}, {"true", jnode{kind: jBool, b: true}}, {"false", jnode{kind: jBool}},
		{"NaN", jnode{kind: jFloat, s: "NaN"}}, {"Infinity", jnode{kind: jFloat, s: "Infinity"}}, {"-Infinity", jnode{kind: jFloat, s: "-Infinity"}}} {
		if strings.HasPrefix(s[i:], lit.text) {
			n := lit.n
			n.off = i
			return &n, i + len(lit.text), nil
		}
	}
	return p.number(i)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// number reads a number as the C scanner's _match_number_unicode does:
// a '.' or an exponent not followed by digits is left for the caller.
func (p *jparser) number(start int) (*jnode, int, *jsonError) {
	s, i := p.src, start
	if s[i] == '-' {
		if i++; i >= len(s) {
			return nil, 0, p.fail(start, "Expecting value")
		}
	}
	switch {
	case s[i] >= '1' && s[i] <= '9':
		for i++; i < len(s) && isDigit(s[i]); i++ {
		}
	case s[i] == '0':
		i++
	default:
		return nil, 0, p.fail(start, "Expecting value")
	}
	isFloat := false
	if i+1 < len(s) && s[i] == '.' && isDigit(s[i+1]) {
		isFloat = true
		for i += 2; i < len(s) && isDigit(s[i]); i++ {
		}
	}
	if i+1 < len(s) && (s[i] == 'e' || s[i] == 'E') {
		e := i
		i++
		if i+1 < len(s) && (s[i] == '-' || s[i] == '+') {
			i++
		}
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		if isDigit(s[i-1]) {
			isFloat = true
		} else {
			i = e
		}
	}
	lit := s[start:i]
	if isFloat {
		return &jnode{kind: jFloat, off: start, s: lit}, i, nil
	}
	if digits := len(strings.TrimPrefix(lit, "-")); digits > 4300 {
		// CPython's int() refuses this many digits (a ValueError, which
		// json.loads lets through).
		return nil, 0, &jsonError{msg: fmt.Sprintf("Exceeds the limit (4300 digits) for integer string conversion: value has %d digits; use sys.set_int_max_str_digits() to increase the limit", digits), off: -1}
	}
	return &jnode{kind: jInt, off: start, s: lit}, i, nil
}

// str reads a string's body from i (after its opening quote) as the C
// scanner's scanstring_unicode does.
func (p *jparser) str(i int) (string, int, *jsonError) {
	s, begin := p.src, i-1
	var b *strings.Builder
	for {
		j := i
		for j < len(s) && s[j] != '"' && s[j] != '\\' {
			if s[j] <= 0x1f {
				return "", 0, p.fail(j, "Invalid control character at")
			}
			j++
		}
		if j >= len(s) {
			return "", 0, p.fail(begin, "Unterminated string starting at")
		}
		if s[j] == '"' && b == nil {
			return s[i:j], j + 1, nil
		}
		if b == nil {
			b = &strings.Builder{}
		}
		b.WriteString(s[i:j])
		if s[j] == '"' {
			return b.String(), j + 1, nil
		}
		j++ // past the backslash
		if j >= len(s) {
			return "", 0, p.fail(begin, "Unterminated string starting at")
		}
		if c := s[j]; c != 'u' {
			r, ok := map[byte]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}[c]
			if !ok {
				return "", 0, p.fail(j-1, "Invalid \\escape")
			}
			b.WriteByte(r)
			i = j + 1
			continue
		}
		u, ok := hex4(s, j+1)
		if !ok {
			return "", 0, p.fail(j, "Invalid \\uXXXX escape")
		}
		i = j + 5
		if u >= 0xd800 && u <= 0xdbff && i+6 < len(s) && s[i] == '\\' && s[i+1] == 'u' {
			u2, ok := hex4(s, i+2)
			if !ok {
				return "", 0, p.fail(i+1, "Invalid \\uXXXX escape")
			}
			if u2 >= 0xdc00 && u2 <= 0xdfff {
				u = 0x10000 + (u-0xd800)<<10 | (u2 - 0xdc00)
				i += 6
			}
		}
		b.WriteRune(rune(u)) // a lone surrogate is written as U+FFFD
	}
}

// hex4 reads the four hex digits of a \u escape at i; CPython refuses one
// whose digits end at or past the text's end (the closing quote must
// follow).
func hex4(s string, i int) (int, bool) {
	if i+4 >= len(s) {
		return 0, false
	}
	v, err := strconv.ParseUint(s[i:i+4], 16, 32)
	if err != nil {
		return 0, false
	}
	return int(v), true
}

func (p *jparser) object(open int) (*jnode, int, *jsonError) {
	s := p.src
	n := &jnode{kind: jObj, off: open}
	i := p.ws(open + 1)
	if i < len(s) && s[i] == '}' {
		return n, i + 1, nil
	}
	for {
		if i >= len(s) || s[i] != '"' {
			return nil, 0, p.fail(i, "Expecting property name enclosed in double quotes")
		}
		key, end, err := p.str(i + 1)
		if err != nil {
			return nil, 0, err
		}
		if p.strict {
			for _, k := range n.keys {
				if k == key {
					return nil, 0, p.fail(i, fmt.Sprintf("key %q repeats (a file BFCL writes has each key once)", key))
				}
			}
		}
		i = p.ws(end)
		if i >= len(s) || s[i] != ':' {
			return nil, 0, p.fail(i, "Expecting ':' delimiter")
		}
		p.segs = append(p.segs, "."+key)
		v, end, err := p.value(p.ws(i + 1))
		if err != nil {
			return nil, 0, err
		}
		p.segs = p.segs[:len(p.segs)-1]
		n.keys = append(n.keys, key)
		n.items = append(n.items, v)
		i = p.ws(end)
		if i < len(s) && s[i] == '}' {
			return n, i + 1, nil
		}
		if i >= len(s) || s[i] != ',' {
			return nil, 0, p.fail(i, "Expecting ',' delimiter")
		}
		i = p.ws(i + 1)
	}
}

func (p *jparser) array(open int) (*jnode, int, *jsonError) {
	s := p.src
	n := &jnode{kind: jArr, off: open}
	i := p.ws(open + 1)
	if i < len(s) && s[i] == ']' {
		return n, i + 1, nil
	}
	for {
		p.segs = append(p.segs, "["+strconv.Itoa(len(n.items))+"]")
		v, end, err := p.value(i)
		if err != nil {
			return nil, 0, err
		}
		p.segs = p.segs[:len(p.segs)-1]
		n.items = append(n.items, v)
		i = p.ws(end)
		if i < len(s) && s[i] == ']' {
			return n, i + 1, nil
		}
		if i >= len(s) || s[i] != ',' {
			return nil, 0, p.fail(i, "Expecting ',' delimiter")
		}
		i = p.ws(i + 1)
	}
}

// pyMessage is the error as str(json.JSONDecodeError) gives it: the
// message, then the line, column and character index Python counts (in
// characters, from 1, 1 and 0).
func (e *jsonError) pyMessage(src string) string {
	if e.off < 0 {
		return e.msg
	}
	before := src[:e.off]
	char := utf8.RuneCountInString(before)
	line := strings.Count(before, "\n") + 1
	col := char + 1
	if nl := strings.LastIndexByte(before, '\n'); nl >= 0 {
		col = utf8.RuneCountInString(before[nl:])
	}
	return fmt.Sprintf("%s: line %d column %d (char %d)", e.msg, line, col, char)
}

// py is the value json.loads gives.
func (n *jnode) py() pyval.Value {
	switch n.kind {
	case jBool:
		return n.b
	case jInt:
		if v, err := strconv.ParseInt(n.s, 10, 64); err == nil {
			return v
		}
		v, _ := new(big.Int).SetString(n.s, 10)
		return v
	case jFloat:
		switch n.s {
		case "NaN":
			return math.NaN()
		case "Infinity":
			return math.Inf(1)
		case "-Infinity":
			return math.Inf(-1)
		}
		f, _ := strconv.ParseFloat(n.s, 64) // out of range is ±inf or 0, as float() gives
		return f
	case jStr:
		return n.s
	case jArr:
		l := pyval.NewList()
		for _, it := range n.items {
			l.Items = append(l.Items, it.py())
		}
		return l
	case jObj:
		d := pyval.NewDict()
		for i, k := range n.keys {
			d.Set(k, n.items[i].py())
		}
		return d
	}
	return nil
}

// jc is a parsed value of a file with where it is: the file, the line
// the value's JSON text starts on, and its JSON path. Every typed read
// that fails gives a *model.DecodeError placing the value.
type jc struct {
	n    *jnode
	file string
	line int // the line of the file the text starts on, from 1
	path string
}

// parseLine parses line n of a file of one JSON value a line, strictly.
func parseLine(file, line string, n int) (jc, error) {
	if !utf8.ValidString(line) {
		i := 0
		for i < len(line) {
			r, size := utf8.DecodeRuneInString(line[i:])
			if r == utf8.RuneError && size == 1 {
				break
			}
			i += size
		}
		return jc{}, &model.DecodeError{File: file, Line: n, Col: i + 1, Msg: fmt.Sprintf("invalid UTF-8: byte 0x%02X is not part of a UTF-8 character (BFCL's files are UTF-8)", line[i])}
	}
	root, err := parseJSON(line, true)
	if err != nil {
		col := err.off + 1
		if err.off < 0 {
			col = 1
		}
		return jc{}, &model.DecodeError{File: file, Line: n, Col: col, Path: err.path, Msg: "malformed JSON: " + err.msg}
	}
	return jc{n: root, file: file, line: n, path: "$"}, nil
}

func (c jc) fail(format string, args ...any) error {
	return &model.DecodeError{File: c.file, Line: c.line, Col: c.n.off + 1, Path: c.path, Msg: fmt.Sprintf(format, args...)}
}

// describe is the value in a few words, for errors.
func (c jc) describe() string {
	switch c.n.kind {
	case jStr:
		s := c.n.s
		if len(s) > 40 {
			s = s[:40] + "…"
		}
		return strconv.Quote(s)
	case jInt, jFloat:
		return "the number " + c.n.s
	case jBool:
		return strconv.FormatBool(c.n.b)
	}
	return jkindNames[c.n.kind]
}

func (c jc) expect(k jkind) error {
	if c.n.kind != k {
		return c.fail("expected %s, got %s", jkindNames[k], c.describe())
	}
	return nil
}

func (c jc) str() (string, error) {
	if err := c.expect(jStr); err != nil {
		return "", err
	}
	return c.n.s, nil
}

func (c jc) item(i int) jc {
	return jc{c.n.items[i], c.file, c.line, fmt.Sprintf("%s[%d]", c.path, i)}
}

func (c jc) array() ([]jc, error) {
	if err := c.expect(jArr); err != nil {
		return nil, err
	}
	out := make([]jc, len(c.n.items))
	for i := range c.n.items {
		out[i] = c.item(i)
	}
	return out, nil
}

func (c jc) strs() ([]string, error) {
	items, err := c.array()
	if err != nil {
		return nil, err
	}
	out := make([]string, len(items))
	for i, it := range items {
		if out[i], err = it.str(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// jobj is an object whose keys were checked.
type jobj struct{ jc }

// object reads an object; when allowed is not empty, every key must be
// among them.
func (c jc) object(allowed ...string) (jobj, error) {
	if err := c.expect(jObj); err != nil {
		return jobj{}, err
	}
	if len(allowed) > 0 {
		for _, k := range c.n.keys {
			if !contains(allowed, k) {
				return jobj{}, c.fail("unexpected key %q (expected %s)", k, strings.Join(allowed, ", "))
			}
		}
	}
	return jobj{c}, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (o jobj) get(key string) (jc, bool) {
	for i, k := range o.n.keys {
		if k == key {
			return jc{o.n.items[i], o.file, o.line, o.path + "." + key}, true
		}
	}
	return jc{}, false
}

// at is the member named key, which the caller knows is there.
func (o jobj) at(key string) jc { c, _ := o.get(key); return c }

func (o jobj) need(key string) (jc, error) {
	c, ok := o.get(key)
	if !ok {
		return jc{}, o.fail("missing %q", key)
	}
	return c, nil
}

func (o jobj) needStr(key string) (string, error) {
	c, err := o.need(key)
	if err != nil {
		return "", err
	}
	return c.str()
}
