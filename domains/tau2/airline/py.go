package airline

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/parthack/parthack/domains/tau2"
	"github.com/parthack/parthack/model"
)

// Python's view of a loaded JSON argument, as tau2's tools see it: its
// type name, str(), repr() and hashability, for the texts of the
// exceptions tau2 turns into "Error: …" tool messages.

// pyType is type(x).__name__.
func pyType(x any) string {
	switch x.(type) {
	case nil:
		return "NoneType"
	case bool:
		return "bool"
	case string:
		return "str"
	case int64:
		return "int"
	case float64:
		return "float"
	case []any:
		return "list"
	case tau2.Obj:
		return "dict"
	}
	return "object"
}

// hashable reports whether x can be a dict key.
func hashable(x any) bool {
	switch x.(type) {
	case []any, tau2.Obj:
		return false
	}
	return true
}

// unhashable is the TypeError a dict lookup of x raises.
func unhashable(x any) string { return "unhashable type: '" + pyType(x) + "'" }

// pyStr is str(x): a string as it is, anything else its repr.
func pyStr(x any) string {
	if s, ok := x.(string); ok {
		return s
	}
	return string(appendRepr(nil, x))
}

// pyRepr is repr(x).
func pyRepr(x any) string { return string(appendRepr(nil, x)) }

func appendRepr(b []byte, x any) []byte {
	switch v := x.(type) {
	case nil:
		return append(b, "None"...)
	case bool:
		if v {
			return append(b, "True"...)
		}
		return append(b, "False"...)
	case string:
		return appendStrRepr(b, v)
	case int64:
		return strconv.AppendInt(b, v, 10)
	case float64:
		return model.AppendPyFloat(b, v)
	case []any:
		b = append(b, '[')
		for i, it := range v {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = appendRepr(b, it)
		}
		return append(b, ']')
	case tau2.Obj:
		b = append(b, '{')
		for i, m := range v {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = appendStrRepr(b, m.Key)
			b = append(b, ": "...)
			b = appendRepr(b, m.Value)
		}
		return append(b, '}')
	}
	return append(b, "<object>"...)
}

// appendStrRepr writes a str's repr: single quotes unless the text has a
// single quote and no double one; escapes for backslash, the quote,
// \t \n \r, other control characters and what Python does not print.
func appendStrRepr(b []byte, s string) []byte {
	q := byte('\'')
	if strings.Contains(s, "'") && !strings.Contains(s, `"`) {
		q = '"'
	}
	b = append(b, q)
	for _, r := range s {
		switch {
		case r == rune(q) || r == '\\':
			b = append(b, '\\', byte(r))
		case r == '\t':
			b = append(b, `\t`...)
		case r == '\n':
			b = append(b, `\n`...)
		case r == '\r':
			b = append(b, `\r`...)
		case r < 0x20 || r == 0x7f:
			b = append(b, '\\', 'x', hexDigit(r>>4), hexDigit(r))
		case r < utf8.RuneSelf || unicode.IsPrint(r):
			b = utf8.AppendRune(b, r)
		case r <= 0xff:
			b = append(b, '\\', 'x', hexDigit(r>>4), hexDigit(r))
		case r <= 0xffff:
			b = append(b, '\\', 'u', hexDigit(r>>12), hexDigit(r>>8), hexDigit(r>>4), hexDigit(r))
		default:
			b = append(b, '\\', 'U')
			for sh := 28; sh >= 0; sh -= 4 {
				b = append(b, hexDigit(r>>sh))
			}
		}
	}
	return append(b, q)
}

func hexDigit(r rune) byte { return "0123456789abcdef"[r&15] }

// pyEqStr is x == s for a loaded value and a str.
func pyEqStr(x any, s string) bool { v, ok := x.(string); return ok && v == s }

// keyError is str(KeyError(key)): the key's repr.
func keyError(key any) string { return pyRepr(key) }
