package tauair

import (
	"strconv"

	"github.com/parthack/parthack/model"
)

// pyText is a value's Python text (appendPyRepr's) written ahead: a
// record built for hashing holds its fields so, and appendPyRepr splices
// them in.
type pyText []byte

// reprOf is appendPyRepr of jsonOf(v), written straight from the value's
// canonical JSON text where that text is plain (no white space, keys in
// increasing order, strings of printable ASCII without escapes), which
// the loaded database's values are; any other value is decoded as
// jsonOf does.
func reprOf(v model.Value) pyText {
	switch v.Kind() {
	case model.StringValue:
		return appendPyStr(nil, v.AsString())
	case model.IntValue:
		return strconv.AppendInt(nil, v.AsInt(), 10)
	case model.BoolValue:
		return appendPyRepr(nil, v.AsBool())
	case model.JSONValue:
		s := v.AsString()
		if b, end, ok := appendPlainRepr(make([]byte, 0, len(s)+len(s)/2), s, 0); ok && end == len(s) {
			return b
		}
	}
	return appendPyRepr(nil, jsonOf(v))
}

// appendPlainRepr writes the Python text of the plain JSON value at s[i:]
// and returns where it ends; false where the text is not plain.
func appendPlainRepr(b []byte, s string, i int) ([]byte, int, bool) {
	if i >= len(s) {
		return b, i, false
	}
	switch c := s[i]; {
	case c == '{':
		b = append(b, '(')
		i++
		n := 0
		prev := ""
		for i < len(s) && s[i] != '}' {
			if n > 0 {
				if s[i] != ',' {
					return b, i, false
				}
				i++
				b = append(b, ", "...)
			}
			key, end, ok := plainString(s, i)
			if !ok || (n > 0 && key <= prev) || end >= len(s) || s[end] != ':' {
				return b, i, false
			}
			prev = key
			b = append(b, '(')
			b = appendPyStr(b, key)
			b = append(b, ", "...)
			if b, i, ok = appendPlainRepr(b, s, end+1); !ok {
				return b, i, false
			}
			b = append(b, ')')
			n++
		}
		return closeTuple(b, s, i, n)
	case c == '[':
		b = append(b, '(')
		i++
		n := 0
		for i < len(s) && s[i] != ']' {
			if n > 0 {
				if s[i] != ',' {
					return b, i, false
				}
				i++
				b = append(b, ", "...)
			}
			var ok bool
			if b, i, ok = appendPlainRepr(b, s, i); !ok {
				return b, i, false
			}
			n++
		}
		return closeTuple(b, s, i, n)
	case c == '"':
		str, end, ok := plainString(s, i)
		if !ok {
			return b, i, false
		}
		return appendPyStr(b, str), end, true
	case c == '-' || '0' <= c && c <= '9':
		end, integer, ok := numberAt(s, i)
		if !ok {
			return b, i, false
		}
		// As numOf reads a json.Number.
		if integer {
			n, _ := strconv.ParseInt(s[i:end], 10, 64)
			return strconv.AppendInt(b, n, 10), end, true
		}
		f, _ := strconv.ParseFloat(s[i:end], 64)
		return model.AppendPyFloat(b, f), end, true
	}
	for _, lit := range [...]struct{ json, py string }{{"null", "None"}, {"true", "True"}, {"false", "False"}} {
		if len(s)-i >= len(lit.json) && s[i:i+len(lit.json)] == lit.json {
			return append(b, lit.py...), i + len(lit.json), true
		}
	}
	return b, i, false
}

// closeTuple ends a tuple of n items at s[i], its closing bracket.
func closeTuple(b []byte, s string, i, n int) ([]byte, int, bool) {
	if i >= len(s) {
		return b, i, false
	}
	if n == 1 {
		b = append(b, ',')
	}
	return append(b, ')'), i + 1, true
}

// plainString is the JSON string at s[i:] when it is printable ASCII
// without escapes, and where it ends.
func plainString(s string, i int) (string, int, bool) {
	if i >= len(s) || s[i] != '"' {
		return "", i, false
	}
	for j := i + 1; j < len(s); j++ {
		switch c := s[j]; {
		case c == '"':
			return s[i+1 : j], j + 1, true
		case c < 0x20 || c > 0x7e || c == '\\':
			return "", i, false
		}
	}
	return "", i, false
}

// numberAt scans the JSON number at s[i:]: where it ends and whether it
// has neither fraction nor exponent (an int to Python's json module).
func numberAt(s string, i int) (int, bool, bool) {
	if s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && '1' <= s[i] && s[i] <= '9':
		i = digits(s, i)
	default:
		return i, false, false
	}
	integer := true
	if i < len(s) && s[i] == '.' {
		integer = false
		j := digits(s, i+1)
		if j == i+1 {
			return i, false, false
		}
		i = j
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		integer = false
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		j := digits(s, i)
		if j == i {
			return i, false, false
		}
		i = j
	}
	return i, integer, true
}

func digits(s string, i int) int {
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	return i
}
