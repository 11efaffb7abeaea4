package tau2

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	"github.com/parthack/parthack/model"
)

// A Python value as tau2's tools see it once JSON is loaded: nil, bool,
// string, int64 (a Python int), float64 (a Python float), []any, or Obj
// (a dict, keys in insertion order).

// Obj is a Python dict: its members in insertion order.
type Obj []Member

// Member is one key of a dict and its value.
type Member struct {
	Key   string
	Value any
}

// Get is a dict's value for a key.
func (o Obj) Get(key string) (any, bool) {
	for _, m := range o {
		if m.Key == key {
			return m.Value, true
		}
	}
	return nil, false
}

// Str is a dict's string value for a key, "" when absent or not a string.
func (o Obj) Str(key string) string { v, _ := o.Get(key); s, _ := v.(string); return s }

// Set replaces a key's value, or appends the key.
func (o Obj) Set(key string, v any) Obj {
	for i := range o {
		if o[i].Key == key {
			o[i].Value = v
			return o
		}
	}
	return append(o, Member{key, v})
}

// Order returns the dict with the named keys first, in that order, as a
// pydantic model dumps its fields; other keys follow as they were.
func (o Obj) Order(keys ...string) Obj {
	out := make(Obj, 0, len(o))
	for _, k := range keys {
		if v, ok := o.Get(k); ok {
			out = append(out, Member{k, v})
		}
	}
	for _, m := range o {
		if !slices.Contains(keys, m.Key) {
			out = append(out, m)
		}
	}
	return out
}

// ParsePy loads JSON text as Python's json.loads does: objects keep their
// key order, an integer literal is an int and any other number a float.
// Text in the common shape (valid UTF-8, no repeated key) is read in one
// pass over its bytes; anything else, an error included, by
// encoding/json's tokenizer, which gives the same values and words the
// error.
func ParsePy(src []byte) (any, error) {
	p := pyParser{src: src}
	if x, ok := p.value(0); ok {
		if p.off = skipSpace(src, p.off); p.off == len(src) {
			return x, nil
		}
	}
	return parsePyTokens(src)
}

// parsePyTokens is ParsePy by encoding/json's tokenizer.
func parsePyTokens(src []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.UseNumber()
	x, err := parseValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("text after the JSON value")
	}
	return x, nil
}

// MustPy is ParsePy of a value known to be valid JSON (a model value).
// A JSON value's text is read once (pyCache); each read after gets a copy
// of what it gave.
func MustPy(v model.Value) any {
	if v.Kind() != model.JSONValue {
		return mustParse(v, v.AppendJSON(nil))
	}
	s := v.AsString()
	if x, ok := pyCache.Load(s); ok {
		return pyCopy(x)
	}
	x := mustParse(v, unsafe.Slice(unsafe.StringData(s), len(s))) // read, never written
	if pyCached.Load() >= maxPyCache {
		return x
	}
	if _, had := pyCache.LoadOrStore(s, x); !had {
		pyCached.Add(1)
	}
	return pyCopy(x)
}

// pyCache holds the Python value of each JSON text MustPy (or mustArgs)
// has read, by text, never handed out to be changed: a replay reads the
// records the replays before it read (a run's two certifiers, the runs of
// one task), and a copy (pyCopy) costs a quarter of a parse. The seven
// airline and retail files read 2,536 texts 29,705 times. It keeps at
// most maxPyCache texts.
var (
	pyCache  sync.Map // string → any
	pyCached atomic.Int32
)

const maxPyCache = 1 << 13

func mustParse(v model.Value, src []byte) any {
	x, err := ParsePy(src)
	if err != nil {
		panic(fmt.Sprintf("tau2: model value %s is not JSON: %v", v, err))
	}
	return x
}

// pyCopy is a Python value with its lists and dicts copied: what a
// caller may change, never the value it was copied from.
func pyCopy(x any) any {
	switch v := x.(type) {
	case Obj:
		out := make(Obj, len(v))
		for i, m := range v {
			out[i] = Member{m.Key, pyCopy(m.Value)}
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, it := range v {
			out[i] = pyCopy(it)
		}
		return out
	}
	return x // nil, bool, string, int64, float64: values
}

func parseValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		if t == '[' {
			out := []any{}
			for dec.More() {
				x, err := parseValue(dec)
				if err != nil {
					return nil, err
				}
				out = append(out, x)
			}
			_, err := dec.Token()
			return out, err
		}
		out := Obj{}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return nil, err
			}
			x, err := parseValue(dec)
			if err != nil {
				return nil, err
			}
			out = out.Set(kt.(string), x) // a repeated key keeps its first place and last value, as a dict does
		}
		_, err := dec.Token()
		return out, err
	case json.Number:
		s := string(t)
		if !strings.ContainsAny(s, ".eE") {
			if i, err := strconv.ParseInt(s, 10, 64); err == nil {
				return i, nil
			}
		}
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return nil, fmt.Errorf("number %s is out of range", s)
		}
		return f, nil
	}
	return tok, nil // string, bool or nil
}

// pyParser reads JSON text into Python values in one pass; it reports
// false on anything it leaves to the tokenizer (see ParsePy).
type pyParser struct {
	src []byte
	off int
	// items and members hold the values of the arrays and objects being
	// read, each copied out at its end into a slice of its size.
	items   []any
	members []Member
}

// maxPyDepth bounds nesting, as the tokenizer's stack would otherwise grow
// with hostile input; deeper text goes to the tokenizer.
const maxPyDepth = 512

func skipSpace(src []byte, i int) int {
	for i < len(src) && (src[i] == ' ' || src[i] == '\n' || src[i] == '\t' || src[i] == '\r') {
		i++
	}
	return i
}

func (p *pyParser) value(depth int) (any, bool) {
	src := p.src
	p.off = skipSpace(src, p.off)
	if p.off >= len(src) || depth > maxPyDepth {
		return nil, false
	}
	switch c := src[p.off]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		p.off++
		if p.off = skipSpace(src, p.off); p.off < len(src) && src[p.off] == ']' {
			p.off++
			return []any{}, true
		}
		base := len(p.items)
		defer func() { p.items = p.items[:base] }()
		for {
			x, ok := p.value(depth + 1)
			if !ok {
				return nil, false
			}
			p.items = append(p.items, x)
			if p.off = skipSpace(src, p.off); p.off >= len(src) {
				return nil, false
			}
			switch src[p.off] {
			case ',':
				p.off++
			case ']':
				p.off++
				return slices.Clone(p.items[base:]), true
			default:
				return nil, false
			}
		}
	case c == '"':
		return p.str()
	case c == 't':
		return true, p.literal("true")
	case c == 'f':
		return false, p.literal("false")
	case c == 'n':
		return nil, p.literal("null")
	}
	return p.number()
}

func (p *pyParser) literal(lit string) bool {
	if !bytes.HasPrefix(p.src[p.off:], []byte(lit)) {
		return false
	}
	p.off += len(lit)
	return true
}

func (p *pyParser) object(depth int) (any, bool) {
	src := p.src
	p.off++
	if p.off = skipSpace(src, p.off); p.off < len(src) && src[p.off] == '}' {
		p.off++
		return Obj{}, true
	}
	base := len(p.members)
	defer func() { p.members = p.members[:base] }()
	var seen map[string]bool // once the object is too large to scan
	for {
		if p.off = skipSpace(src, p.off); p.off >= len(src) || src[p.off] != '"' {
			return nil, false
		}
		k, ok := p.str()
		if !ok {
			return nil, false
		}
		key := k.(string)
		// A repeated key is the tokenizer's (a dict keeps its first place
		// and last value).
		if out := Obj(p.members[base:]); len(out) < 16 {
			if _, dup := out.Get(key); dup {
				return nil, false
			}
		} else {
			if seen == nil {
				seen = make(map[string]bool, 2*len(out))
				for _, m := range out {
					seen[m.Key] = true
				}
			}
			if seen[key] {
				return nil, false
			}
			seen[key] = true
		}
		if p.off = skipSpace(src, p.off); p.off >= len(src) || src[p.off] != ':' {
			return nil, false
		}
		p.off++
		x, ok := p.value(depth + 1)
		if !ok {
			return nil, false
		}
		p.members = append(p.members, Member{key, x})
		if p.off = skipSpace(src, p.off); p.off >= len(src) {
			return nil, false
		}
		switch src[p.off] {
		case ',':
			p.off++
		case '}':
			p.off++
			return Obj(slices.Clone(p.members[base:])), true
		default:
			return nil, false
		}
	}
}

// str reads a string: its bytes when it has no escape, else unescaped
// here. Invalid UTF-8 and lone surrogates, which the tokenizer replaces,
// are left to it.
func (p *pyParser) str() (any, bool) {
	src := p.src
	start := p.off + 1
	i := start
	ascii := true
	for i < len(src) && src[i] != '"' && src[i] != '\\' {
		if src[i] < 0x20 {
			return nil, false
		}
		ascii = ascii && src[i] < utf8.RuneSelf
		i++
	}
	if i >= len(src) {
		return nil, false
	}
	if src[i] == '"' {
		if !ascii && !utf8.Valid(src[start:i]) {
			return nil, false
		}
		p.off = i + 1
		return string(src[start:i]), true
	}
	b := append(make([]byte, 0, i-start+16), src[start:i]...)
	for i < len(src) {
		c := src[i]
		switch {
		case c == '"':
			if !ascii && !utf8.Valid(b) {
				return nil, false
			}
			p.off = i + 1
			return string(b), true
		case c < 0x20:
			return nil, false
		case c != '\\':
			ascii = ascii && c < utf8.RuneSelf
			b = append(b, c)
			i++
			continue
		}
		if i+1 >= len(src) {
			return nil, false
		}
		switch e := src[i+1]; e {
		case '"', '\\', '/':
			b = append(b, e)
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			r, ok := hex4At(src, i+2)
			if !ok {
				return nil, false
			}
			i += 6
			switch {
			case utf16.IsSurrogate(r):
				r2, ok := rune(0), false
				if i+1 < len(src) && src[i] == '\\' && src[i+1] == 'u' {
					r2, ok = hex4At(src, i+2)
				}
				if r = utf16.DecodeRune(r, r2); !ok || r == utf8.RuneError {
					return nil, false
				}
				i += 6
			}
			b = utf8.AppendRune(b, r)
			continue
		default:
			return nil, false
		}
		i += 2
	}
	return nil, false
}

// hex4At reads the four hex digits of a \u escape at src[i:].
func hex4At(src []byte, i int) (rune, bool) {
	if i+4 > len(src) {
		return 0, false
	}
	var r rune
	for _, c := range src[i : i+4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// number reads a number of the JSON grammar as ParsePy does: an int when
// it has no fraction or exponent and fits, else a float.
func (p *pyParser) number() (any, bool) {
	src, i := p.src, p.off
	if i < len(src) && src[i] == '-' {
		i++
	}
	switch {
	case i < len(src) && src[i] == '0':
		i++
	case i < len(src) && '1' <= src[i] && src[i] <= '9':
		for i < len(src) && '0' <= src[i] && src[i] <= '9' {
			i++
		}
	default:
		return nil, false
	}
	integer := true
	if i < len(src) && src[i] == '.' {
		integer = false
		j := i + 1
		for j < len(src) && '0' <= src[j] && src[j] <= '9' {
			j++
		}
		if j == i+1 {
			return nil, false
		}
		i = j
	}
	if i < len(src) && (src[i] == 'e' || src[i] == 'E') {
		integer = false
		i++
		if i < len(src) && (src[i] == '+' || src[i] == '-') {
			i++
		}
		j := i
		for j < len(src) && '0' <= src[j] && src[j] <= '9' {
			j++
		}
		if j == i {
			return nil, false
		}
		i = j
	}
	lit := unsafe.String(&src[p.off], i-p.off) // parsed, not kept
	p.off = i
	if integer {
		if n, err := strconv.ParseInt(lit, 10, 64); err == nil {
			return n, true
		}
	}
	f, err := strconv.ParseFloat(lit, 64)
	return f, err == nil
}

// AppendDumps appends json.dumps(x) as Python writes it with its default
// separators (", " and ": ") and ensure_ascii, keys sorted when sortKeys
// (json.dumps(x, sort_keys=True)).
func AppendDumps(b []byte, x any, sortKeys bool) []byte {
	switch v := x.(type) {
	case nil:
		return append(b, "null"...)
	case bool:
		if v {
			return append(b, "true"...)
		}
		return append(b, "false"...)
	case string:
		return appendPyStr(b, v)
	case int64:
		return strconv.AppendInt(b, v, 10)
	case int:
		return strconv.AppendInt(b, int64(v), 10)
	case float64:
		switch {
		case math.IsNaN(v):
			return append(b, "NaN"...)
		case math.IsInf(v, 1):
			return append(b, "Infinity"...)
		case math.IsInf(v, -1):
			return append(b, "-Infinity"...)
		}
		return model.AppendPyFloat(b, v)
	case []any:
		b = append(b, '[')
		for i, it := range v {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = AppendDumps(b, it, sortKeys)
		}
		return append(b, ']')
	case []string:
		b = append(b, '[')
		for i, it := range v {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = appendPyStr(b, it)
		}
		return append(b, ']')
	case Obj:
		ms := v
		if sortKeys && !slices.IsSortedFunc(v, cmpMember) {
			ms = slices.Clone(v)
			slices.SortStableFunc(ms, cmpMember)
		}
		b = append(b, '{')
		for i, m := range ms {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = appendPyStr(b, m.Key)
			b = append(b, ": "...)
			b = AppendDumps(b, m.Value, sortKeys)
		}
		return append(b, '}')
	case Raw:
		return append(b, v...)
	}
	panic(fmt.Sprintf("tau2: no Python JSON for %T", x))
}

// Raw is text already written by AppendDumps, spliced in as it is.
type Raw []byte

// cmpMember orders keys as Python sorts str: by code point, which is
// UTF-8's byte order.
func cmpMember(a, b Member) int { return strings.Compare(a.Key, b.Key) }

// Dumps is AppendDumps as a string.
func Dumps(x any, sortKeys bool) string { return string(AppendDumps(nil, x, sortKeys)) }

const hexDigits = "0123456789abcdef"

// appendPyStr writes a string as json.dumps does with ensure_ascii: the
// short escapes, \u00XX for other control characters, \uXXXX (a
// surrogate pair above the BMP) for everything not ASCII.
func appendPyStr(b []byte, s string) []byte {
	// The printable ASCII before the first character to escape (most
	// strings are all of it) goes in whole.
	i := 0
	for i < len(s) && 0x20 <= s[i] && s[i] <= 0x7e && s[i] != '"' && s[i] != '\\' {
		i++
	}
	b = append(append(b, '"'), s[:i]...)
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			switch c {
			case '"':
				b = append(b, '\\', '"')
			case '\\':
				b = append(b, '\\', '\\')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			default:
				if c < 0x20 || c == 0x7f {
					b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&15])
				} else {
					b = append(b, c)
				}
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if r >= 0x10000 {
			r -= 0x10000
			b = appendU(b, 0xd800|(r>>10))
			r = 0xdc00 | (r & 0x3ff)
		}
		b = appendU(b, r)
	}
	return append(b, '"')
}

func appendU(b []byte, r rune) []byte {
	return append(b, '\\', 'u', hexDigits[r>>12&15], hexDigits[r>>8&15], hexDigits[r>>4&15], hexDigits[r&15])
}

// PyEqual is Python's == on loaded JSON values: ints, floats and bools
// compare as numbers (1 == 1.0 == True), dicts regardless of key order.
func PyEqual(a, b any) bool {
	if x, ok := pyNumber(a); ok {
		y, ok := pyNumber(b)
		return ok && x == y
	}
	switch v := a.(type) {
	case nil:
		return b == nil
	case string:
		w, ok := b.(string)
		return ok && v == w
	case []any:
		w, ok := b.([]any)
		if !ok || len(v) != len(w) {
			return false
		}
		for i := range v {
			if !PyEqual(v[i], w[i]) {
				return false
			}
		}
		return true
	case Obj:
		w, ok := b.(Obj)
		if !ok || len(v) != len(w) {
			return false
		}
		for _, m := range v {
			y, ok := w.Get(m.Key)
			if !ok || !PyEqual(m.Value, y) {
				return false
			}
		}
		return true
	}
	return false
}

// pyNumber is a number's value; large ints lose precision, which no
// tau2 argument reaches.
func pyNumber(x any) (float64, bool) {
	switch v := x.(type) {
	case bool:
		if v {
			return 1, true
		}
		return 0, true
	case int64:
		return float64(v), true
	case float64:
		return v, true
	}
	return 0, false
}

// ModelValue is a Python value as a field value: what model.FromJSON
// gives of its json.dumps, written straight from the value (a string,
// int, bool, None or list of strings as itself, anything else as
// canonical JSON) rather than dumped and parsed again. A value canonical
// JSON cannot hold (a NaN) goes the long way, and fails as it does.
func ModelValue(x any) model.Value {
	switch v := x.(type) {
	case nil:
		return model.Null
	case bool:
		return model.Bool(v)
	case string:
		return model.Str(v)
	case int64:
		return model.Int(v)
	case int:
		return model.Int(int64(v))
	case []any:
		strs := make([]string, 0, len(v))
		for _, it := range v {
			s, ok := it.(string)
			if !ok {
				strs = nil
				break
			}
			strs = append(strs, s)
		}
		if strs != nil {
			return model.List(strs)
		}
	}
	if b, ok := appendCanonical(nil, x); ok {
		return model.CanonicalJSON(string(b))
	}
	return model.MustJSON(Dumps(x, false))
}

// appendCanonical appends x as canonical JSON (model.FromJSON's form:
// compact, keys sorted, numbers as Python writes them); false for what it
// cannot hold.
func appendCanonical(b []byte, x any) ([]byte, bool) {
	switch v := x.(type) {
	case nil:
		return append(b, "null"...), true
	case bool:
		return strconv.AppendBool(b, v), true
	case string:
		return model.Str(v).AppendJSON(b), true
	case int64:
		return strconv.AppendInt(b, v, 10), true
	case int:
		return strconv.AppendInt(b, int64(v), 10), true
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, false
		}
		return model.AppendPyFloat(b, v), true
	case []any:
		b = append(b, '[')
		for i, it := range v {
			if i > 0 {
				b = append(b, ',')
			}
			var ok bool
			if b, ok = appendCanonical(b, it); !ok {
				return nil, false
			}
		}
		return append(b, ']'), true
	case Obj:
		ms := v
		if !slices.IsSortedFunc(v, cmpMember) {
			ms = slices.Clone(v)
			slices.SortStableFunc(ms, cmpMember)
		}
		b = append(b, '{')
		for i, m := range ms {
			if i > 0 {
				if m.Key == ms[i-1].Key {
					return nil, false // a repeated key, which FromJSON refuses
				}
				b = append(b, ',')
			}
			b = model.Str(m.Key).AppendJSON(b)
			b = append(b, ':')
			var ok bool
			if b, ok = appendCanonical(b, m.Value); !ok {
				return nil, false
			}
		}
		return append(b, '}'), true
	}
	return nil, false
}
