package tau2

import (
	"strconv"

	"github.com/parthack/parthack/internal/jsonscan"
	"github.com/parthack/parthack/model"
)

// AppendPlainDumps appends json.dumps(x, sort_keys=True) of the value x
// that ParsePy reads from s, written straight from s where s is plain
// canonical JSON (no white space, keys in increasing order, strings of
// printable ASCII without escapes), as a loaded database's values are.
// false for any other text, which the caller dumps the long way.
func AppendPlainDumps(b []byte, s string) ([]byte, bool) {
	b, end, ok := appendPlainDumps(b, s, 0)
	return b, ok && end == len(s)
}

func appendPlainDumps(b []byte, s string, i int) ([]byte, int, bool) {
	if i >= len(s) {
		return b, i, false
	}
	switch c := s[i]; {
	case c == '{' || c == '[':
		closing := byte(']')
		if c == '{' {
			closing = '}'
		}
		b = append(b, c)
		i++
		prev := ""
		for n := 0; i < len(s) && s[i] != closing; n++ {
			if n > 0 {
				if s[i] != ',' {
					return b, i, false
				}
				i++
				b = append(b, ", "...)
			}
			if c == '{' {
				key, end, ok := jsonscan.PlainString(s, i)
				if !ok || (n > 0 && key <= prev) || end >= len(s) || s[end] != ':' {
					return b, i, false
				}
				prev = key
				b = append(b, s[i:end]...)
				b = append(b, ": "...)
				i = end + 1
			}
			var ok bool
			if b, i, ok = appendPlainDumps(b, s, i); !ok {
				return b, i, false
			}
		}
		if i >= len(s) {
			return b, i, false
		}
		return append(b, closing), i + 1, true
	case c == '"':
		_, end, ok := jsonscan.PlainString(s, i)
		return append(b, s[i:end]...), end, ok
	case c == '-' || '0' <= c && c <= '9':
		end, integer, ok := jsonscan.Number(s, i)
		if !ok {
			return b, i, false
		}
		// As pyParser.number reads it: an int where it is one and fits.
		if integer && end-i <= 18 && s[i:end] != "-0" {
			return append(b, s[i:end]...), end, true // it reads back as written
		}
		if integer {
			if n, err := strconv.ParseInt(s[i:end], 10, 64); err == nil {
				return strconv.AppendInt(b, n, 10), end, true
			}
		}
		f, err := strconv.ParseFloat(s[i:end], 64)
		if err != nil {
			return b, i, false
		}
		return model.AppendPyFloat(b, f), end, true
	}
	for _, lit := range [...]string{"null", "true", "false"} {
		if len(s)-i >= len(lit) && s[i:i+len(lit)] == lit {
			return append(b, lit...), i + len(lit), true
		}
	}
	return b, i, false
}

// AppendStr appends json.dumps of a str: AppendDumps(b, s, …) without
// making s an interface value (an allocation each).
func AppendStr(b []byte, s string) []byte { return appendPyStr(b, s) }
