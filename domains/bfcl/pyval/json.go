package pyval

import (
	"fmt"
	"io"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Dumps is json.dumps(v) with its defaults: ensure_ascii, separators
// ", " and ": ", tuples as arrays, NaN and Infinity as Python writes
// them, int, float, bool and None keys turned into strings; any other
// value gives TypeError "Object of type X is not JSON serializable".
func Dumps(v Value) (string, error) {
	var b strings.Builder
	if err := dump(&b, v, 0, true); err != nil {
		return "", err
	}
	return b.String(), nil
}

// DumpsUnicode is json.dumps(v, ensure_ascii=False): characters past
// ASCII written as themselves, as BFCL writes its result files.
func DumpsUnicode(v Value) (string, error) {
	var b strings.Builder
	if err := dump(&b, v, 0, false); err != nil {
		return "", err
	}
	return b.String(), nil
}

// MakeJSONSerializable is BFCL's make_json_serializable
// (bfcl_eval/utils.py, gorilla 013a2a4e), applied to each entry before it
// writes a result file: dicts and lists walked, any other value kept
// where json.dumps takes it and replaced by str(value) where it does not
// (a tuple holding an object becomes one string; keys are kept as they
// are). A state_info snapshot's values reach the file this way. The
// error is str()'s, for an int past 4300 digits, where BFCL's writer
// fails.
func MakeJSONSerializable(v Value) (Value, error) {
	switch x := v.(type) {
	case *Dict:
		d := NewDict()
		for _, it := range x.items {
			e, err := MakeJSONSerializable(it.Value)
			if err != nil {
				return nil, err
			}
			d.Set(it.Key, e)
		}
		return d, nil
	case *List:
		l := &List{Items: make([]Value, len(x.Items))}
		for i, e := range x.Items {
			c, err := MakeJSONSerializable(e)
			if err != nil {
				return nil, err
			}
			l.Items[i] = c
		}
		return l, nil
	}
	if _, err := DumpsUnicode(v); err != nil {
		return StrErr(v)
	}
	return v, nil
}

// maxDepth stands for Python's recursion limit on nesting.
const maxDepth = 990

func dump(b *strings.Builder, v Value, depth int, ascii bool) error {
	if depth > maxDepth {
		return Errorf("RecursionError", "maximum recursion depth exceeded while encoding a JSON object")
	}
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		if x {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case int64, int:
		writeRepr(b, x)
	case *big.Int:
		if tooManyDigits(x) {
			return intDigitsError
		}
		writeRepr(b, x)
	case float64:
		b.WriteString(jsonFloat(x))
	case string:
		writeJSONString(b, x, ascii)
	case *List:
		return dumpSeq(b, x.Items, depth, ascii)
	case Tuple:
		return dumpSeq(b, x, depth, ascii)
	case *Dict:
		if x.Len() == 0 {
			b.WriteString("{}")
			return nil
		}
		b.WriteByte('{')
		for i, it := range x.items {
			k, err := jsonKey(it.Key)
			if err != nil {
				return err
			}
			if i > 0 {
				b.WriteString(", ")
			}
			writeJSONString(b, k, ascii)
			b.WriteString(": ")
			if err := dump(b, it.Value, depth+1, ascii); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	default:
		return TypeError(fmt.Sprintf("Object of type %s is not JSON serializable", TypeName(v)))
	}
	return nil
}

func dumpSeq(b *strings.Builder, items []Value, depth int, ascii bool) error {
	if len(items) == 0 {
		b.WriteString("[]")
		return nil
	}
	b.WriteByte('[')
	for i, e := range items {
		if i > 0 {
			b.WriteString(", ")
		}
		if err := dump(b, e, depth+1, ascii); err != nil {
			return err
		}
	}
	b.WriteByte(']')
	return nil
}

func jsonFloat(x float64) string {
	switch {
	case math.IsNaN(x):
		return "NaN"
	case math.IsInf(x, 1):
		return "Infinity"
	case math.IsInf(x, -1):
		return "-Infinity"
	}
	return FloatRepr(x)
}

// jsonKey is how json.dumps writes a dict key.
func jsonKey(k Value) (string, error) {
	switch x := k.(type) {
	case string:
		return x, nil
	case float64:
		return jsonFloat(x), nil
	case bool:
		if x {
			return "true", nil
		}
		return "false", nil
	case nil:
		return "null", nil
	case int64, int:
		return Repr(x), nil
	case *big.Int:
		return ReprErr(x)
	}
	return "", TypeError(fmt.Sprintf("keys must be str, int, float, bool or None, not %s", TypeName(k)))
}

// writeJSONString writes s as json.dumps does, with ensure_ascii or
// without.
func writeJSONString(b textWriter, s string, ascii bool) {
	b.WriteByte('"')
	for i := 0; i < len(s); {
		if j := plainRun(s, i); j > i {
			b.WriteString(s[i:j])
			i = j
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			fmt.Fprintf(b, "\\udc%02x", s[i])
			i++
			continue
		}
		i += n
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default:
			switch {
			case r < 0x20:
				fmt.Fprintf(b, "\\u%04x", r)
			case !ascii && r > 0x7e:
				b.WriteRune(r)
			case r > 0x7e && r <= 0xffff:
				fmt.Fprintf(b, "\\u%04x", r)
			case r > 0xffff:
				r1, r2 := utf16.EncodeRune(r)
				fmt.Fprintf(b, "\\u%04x\\u%04x", r1, r2)
			default:
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
}

// textWriter is what writeJSONString writes to: a strings.Builder or a
// bytes.Buffer.
type textWriter interface {
	io.Writer
	WriteByte(c byte) error
	WriteString(s string) (int, error)
	WriteRune(r rune) (int, error)
}

// plainRun is the end of the bytes from s[i] that a JSON string writes as
// they are: printable ASCII but the quote and the backslash.
func plainRun(s string, i int) int {
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x7e && s[i] != '"' && s[i] != '\\' {
		i++
	}
	return i
}

// Loads is json.loads(data): objects as ordered dicts (a repeated key
// keeps its first place and its last value), integers as int64 or
// *big.Int, numbers with a fraction or exponent as float64, NaN and
// Infinity accepted. Errors give Python's JSONDecodeError text
// ("Expecting value: line 1 column 1 (char 0)"), located as Python
// locates them (characters, not bytes).
func Loads(data []byte) (Value, error) {
	p := &jsonParser{s: string(data)}
	p.ws()
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.ws()
	if p.i != len(p.s) {
		return nil, p.fail("Extra data")
	}
	return v, nil
}

type jsonParser struct {
	s string
	i int
}

func (p *jsonParser) fail(msg string) error {
	return p.failAt(msg, p.i)
}

func (p *jsonParser) failAt(msg string, at int) error {
	line := 1 + strings.Count(p.s[:at], "\n")
	col := at + 1
	if nl := strings.LastIndexByte(p.s[:at], '\n'); nl >= 0 {
		col = utf8.RuneCountInString(p.s[nl+1:at]) + 1
	} else {
		col = utf8.RuneCountInString(p.s[:at]) + 1
	}
	return &Exception{Type: "JSONDecodeError", Msg: fmt.Sprintf("%s: line %d column %d (char %d)", msg, line, col, utf8.RuneCountInString(p.s[:at]))}
}

func (p *jsonParser) ws() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *jsonParser) value(depth int) (Value, error) {
	if depth > maxDepth {
		return nil, Errorf("RecursionError", "maximum recursion depth exceeded while decoding a JSON document")
	}
	if p.i >= len(p.s) {
		return nil, p.fail("Expecting value")
	}
	switch c := p.s[p.i]; {
	case c == '"':
		p.i++
		return p.str()
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case strings.HasPrefix(p.s[p.i:], "null"):
		p.i += 4
		return nil, nil
	case strings.HasPrefix(p.s[p.i:], "true"):
		p.i += 4
		return true, nil
	case strings.HasPrefix(p.s[p.i:], "false"):
		p.i += 5
		return false, nil
	case strings.HasPrefix(p.s[p.i:], "NaN"):
		p.i += 3
		return math.NaN(), nil
	case strings.HasPrefix(p.s[p.i:], "Infinity"):
		p.i += 8
		return math.Inf(1), nil
	case strings.HasPrefix(p.s[p.i:], "-Infinity"):
		p.i += 9
		return math.Inf(-1), nil
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	}
	return nil, p.fail("Expecting value")
}

// number follows Python's NUMBER_RE: -?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?
func (p *jsonParser) number() (Value, error) {
	start := p.i
	j := p.i
	if p.s[j] == '-' {
		j++
	}
	digits := func() int {
		k := j
		for j < len(p.s) && p.s[j] >= '0' && p.s[j] <= '9' {
			j++
		}
		return j - k
	}
	if j < len(p.s) && p.s[j] == '0' {
		j++
	} else if digits() == 0 {
		return nil, p.fail("Expecting value")
	}
	isFloat := false
	if j+1 < len(p.s) && p.s[j] == '.' && p.s[j+1] >= '0' && p.s[j+1] <= '9' {
		j++
		digits()
		isFloat = true
	}
	if j < len(p.s) && (p.s[j] == 'e' || p.s[j] == 'E') {
		k := j
		j++
		if j < len(p.s) && (p.s[j] == '+' || p.s[j] == '-') {
			j++
		}
		if digits() == 0 {
			j = k
		} else {
			isFloat = true
		}
	}
	p.i = j
	text := p.s[start:j]
	if isFloat {
		f, err := strconv.ParseFloat(text, 64)
		if err != nil && !isRangeErr(err) {
			return nil, p.failAt("Expecting value", start)
		}
		return f, nil
	}
	if n, err := strconv.ParseInt(text, 10, 64); err == nil {
		return n, nil
	}
	b, _ := new(big.Int).SetString(text, 10)
	return normInt(b), nil
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

func (p *jsonParser) str() (string, error) {
	start := p.i - 1
	var b strings.Builder
	for {
		if p.i >= len(p.s) {
			return "", p.failAt("Unterminated string starting at", start)
		}
		c := p.s[p.i]
		switch {
		case c == '"':
			p.i++
			return b.String(), nil
		case c == '\\':
			if p.i+1 >= len(p.s) {
				return "", p.failAt("Unterminated string starting at", start)
			}
			e := p.s[p.i+1]
			simple := map[byte]string{'"': "\"", '\\': "\\", '/': "/", 'b': "\b", 'f': "\f", 'n': "\n", 'r': "\r", 't': "\t"}
			if s, ok := simple[e]; ok {
				b.WriteString(s)
				p.i += 2
				continue
			}
			if e != 'u' {
				return "", p.failAt("Invalid \\escape", p.i)
			}
			r, ok := hex4(p.s, p.i+2)
			if !ok {
				return "", p.failAt("Invalid \\uXXXX escape", p.i+1)
			}
			p.i += 6
			if utf16.IsSurrogate(r) && r < 0xdc00 && strings.HasPrefix(p.s[p.i:], `\u`) {
				if r2, ok := hex4(p.s, p.i+2); ok && r2 >= 0xdc00 && r2 <= 0xdfff {
					r = utf16.DecodeRune(r, r2)
					p.i += 6
				}
			}
			b.WriteRune(r)
		case c < 0x20:
			return "", p.fail("Invalid control character at")
		default:
			b.WriteByte(c)
			p.i++
		}
	}
}

func hex4(s string, i int) (rune, bool) {
	if i+4 > len(s) {
		return 0, false
	}
	n, err := strconv.ParseUint(s[i:i+4], 16, 32)
	if err != nil || strings.ContainsAny(s[i:i+4], "+-") {
		return 0, false
	}
	return rune(n), true
}

func (p *jsonParser) object(depth int) (Value, error) {
	p.i++
	d := NewDict()
	p.ws()
	if p.i < len(p.s) && p.s[p.i] == '}' {
		p.i++
		return d, nil
	}
	for {
		if p.i >= len(p.s) || p.s[p.i] != '"' {
			return nil, p.fail("Expecting property name enclosed in double quotes")
		}
		p.i++
		k, err := p.str()
		if err != nil {
			return nil, err
		}
		p.ws()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return nil, p.fail("Expecting ':' delimiter")
		}
		p.i++
		p.ws()
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		d.Set(k, v)
		p.ws()
		if p.i < len(p.s) && p.s[p.i] == '}' {
			p.i++
			return d, nil
		}
		if p.i >= len(p.s) || p.s[p.i] != ',' {
			return nil, p.fail("Expecting ',' delimiter")
		}
		p.i++
		p.ws()
	}
}

func (p *jsonParser) array(depth int) (Value, error) {
	p.i++
	l := &List{Items: []Value{}}
	p.ws()
	if p.i < len(p.s) && p.s[p.i] == ']' {
		p.i++
		return l, nil
	}
	for {
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		l.Items = append(l.Items, v)
		p.ws()
		if p.i < len(p.s) && p.s[p.i] == ']' {
			p.i++
			return l, nil
		}
		if p.i >= len(p.s) || p.s[p.i] != ',' {
			return nil, p.fail("Expecting ',' delimiter")
		}
		p.i++
		p.ws()
	}
}
