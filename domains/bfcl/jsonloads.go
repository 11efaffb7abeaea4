package bfcl

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/parthack/parthack/domains/bfcl/pyval"
)

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
