package tauair

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/parthack/parthack/model"
)

// num is a Python number as tau-bench's tools compute with: an int or a
// float. 28 and 28.0 are equal to Python but hash and print differently,
// so the difference is kept.
type num struct {
	isFloat bool
	i       int64
	f       float64
}

func intNum(i int64) num { return num{i: i} }

func (n num) float() float64 {
	if n.isFloat {
		return n.f
	}
	return float64(n.i)
}

func (n num) add(m num) num {
	if n.isFloat || m.isFloat {
		return num{isFloat: true, f: n.float() + m.float()}
	}
	return intNum(n.i + m.i)
}

func (n num) sub(m num) num { return n.add(m.neg()) }

func (n num) neg() num {
	if n.isFloat {
		return num{isFloat: true, f: -n.f}
	}
	return intNum(-n.i)
}

func (n num) mul(k int64) num {
	if n.isFloat {
		return num{isFloat: true, f: n.f * float64(k)}
	}
	return intNum(n.i * k)
}

// less compares exactly as Python compares ints and floats.
func (n num) less(m num) bool {
	if !n.isFloat && !m.isFloat {
		return n.i < m.i
	}
	return n.float() < m.float()
}

func (n num) equal(m num) bool { return !n.less(m) && !m.less(n) }

// String is Python's str of the number.
func (n num) String() string {
	if n.isFloat {
		return string(model.AppendPyFloat(nil, n.f))
	}
	return strconv.FormatInt(n.i, 10)
}

// value is the number as a model value: an int, or a JSON float.
func (n num) value() model.Value {
	if n.isFloat {
		return model.MustJSON(n.String())
	}
	return model.Int(n.i)
}

// numOf reads a JSON number as Python's json module does: a literal with
// a fraction or an exponent is a float.
func numOf(x any) (num, bool) {
	switch v := x.(type) {
	case json.Number:
		s := string(v)
		if !strings.ContainsAny(s, ".eE") {
			i, err := strconv.ParseInt(s, 10, 64)
			return intNum(i), err == nil
		}
		f, err := strconv.ParseFloat(s, 64)
		return num{isFloat: true, f: f}, err == nil && !math.IsInf(f, 0)
	case num:
		return v, true
	}
	return num{}, false
}

// decode reads JSON text into Go values, numbers kept as json.Number.
func decode(text string) (any, error) {
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var x any
	err := dec.Decode(&x)
	return x, err
}

// valueOf turns a decoded Go value back into a model value with
// model.FromJSON's mapping.
func valueOf(x any) model.Value {
	return model.MustJSON(string(appendJSON(nil, x, false)))
}

// appendJSON writes a decoded value as JSON, keys sorted. With spaced it
// writes Python's json.dumps separators (", " and ": ").
func appendJSON(b []byte, x any, spaced bool) []byte {
	comma, colon := ",", ":"
	if spaced {
		comma, colon = ", ", ": "
	}
	switch v := x.(type) {
	case nil:
		return append(b, "null"...)
	case bool:
		return strconv.AppendBool(b, v)
	case string:
		return model.Str(v).AppendJSON(b)
	case json.Number:
		n, _ := numOf(v)
		return append(b, n.String()...)
	case num:
		return append(b, v.String()...)
	case []any:
		b = append(b, '[')
		for i, e := range v {
			if i > 0 {
				b = append(b, comma...)
			}
			b = appendJSON(b, e, spaced)
		}
		return append(b, ']')
	case map[string]any:
		b = append(b, '{')
		for i, k := range sortedKeys(v) {
			if i > 0 {
				b = append(b, comma...)
			}
			b = model.Str(k).AppendJSON(b)
			b = append(b, colon...)
			b = appendJSON(b, v[k], spaced)
		}
		return append(b, '}')
	}
	panic(fmt.Sprintf("tauair: cannot encode %T", x))
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// dumps is json.dumps of a value, keys sorted: what a tool returns.
func dumps(x any) string { return string(appendJSON(nil, x, true)) }

// appendPyRepr writes Python's str() of to_hashable(x): dicts as sorted
// tuples of (key, value) pairs, lists as tuples, strings as repr.
func appendPyRepr(b []byte, x any) []byte {
	switch v := x.(type) {
	case nil:
		return append(b, "None"...)
	case bool:
		if v {
			return append(b, "True"...)
		}
		return append(b, "False"...)
	case string:
		return appendPyStr(b, v)
	case json.Number:
		n, _ := numOf(v)
		return append(b, n.String()...)
	case num:
		return append(b, v.String()...)
	case []any:
		return appendTuple(b, len(v), func(b []byte, i int) []byte { return appendPyRepr(b, v[i]) })
	case map[string]any:
		keys := sortedKeys(v)
		return appendTuple(b, len(keys), func(b []byte, i int) []byte {
			b = append(b, '(')
			b = appendPyStr(b, keys[i])
			b = append(b, ", "...)
			b = appendPyRepr(b, v[keys[i]])
			return append(b, ')')
		})
	}
	panic(fmt.Sprintf("tauair: cannot hash %T", x))
}

// appendTuple writes a Python tuple: "()", "(x,)" or "(x, y, …)".
func appendTuple(b []byte, n int, item func([]byte, int) []byte) []byte {
	b = append(b, '(')
	for i := 0; i < n; i++ {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = item(b, i)
	}
	if n == 1 {
		b = append(b, ',')
	}
	return append(b, ')')
}

// appendPyStr writes Python's repr of a str.
func appendPyStr(b []byte, s string) []byte {
	if plainPyStr(s) {
		b = append(b, '\'')
		b = append(b, s...)
		return append(b, '\'')
	}
	quote := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		quote = '"'
	}
	b = append(b, quote)
	for _, r := range s {
		switch {
		case r == rune(quote) || r == '\\':
			b = append(b, '\\', byte(r))
		case r == '\n':
			b = append(b, `\n`...)
		case r == '\r':
			b = append(b, `\r`...)
		case r == '\t':
			b = append(b, `\t`...)
		case r == utf8.RuneError:
			b = utf8.AppendRune(b, r)
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			b = fmt.Appendf(b, `\x%02x`, r)
		case r < 0x80 || unicode.IsPrint(r):
			b = utf8.AppendRune(b, r)
		case r <= 0xff:
			b = fmt.Appendf(b, `\x%02x`, r)
		case r <= 0xffff:
			b = fmt.Appendf(b, `\u%04x`, r)
		default:
			b = fmt.Appendf(b, `\U%08x`, r)
		}
	}
	return append(b, quote)
}

// plainPyStr reports whether s is printable ASCII without a quote or a
// backslash: its repr is itself in single quotes (most of a database's
// strings).
func plainPyStr(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '\'' || c == '\\' {
			return false
		}
	}
	return true
}

// jsonOf decodes a model value's JSON into Go values.
func jsonOf(v model.Value) any {
	switch v.Kind() {
	case model.NullValue:
		return nil
	case model.StringValue:
		return v.AsString()
	case model.IntValue:
		return json.Number(strconv.FormatInt(v.AsInt(), 10))
	case model.BoolValue:
		return v.AsBool()
	}
	x, err := decode(string(v.AppendJSON(nil)))
	if err != nil {
		panic(fmt.Sprintf("tauair: a model value is not JSON: %v", err))
	}
	return x
}
