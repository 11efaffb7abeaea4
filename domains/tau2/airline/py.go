package airline

import (
	"strconv"

	"github.com/parthack/parthack/domains/tau2"
	"github.com/parthack/parthack/internal/pyrepr"
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
		return pyrepr.AppendStr(b, v)
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
			b = pyrepr.AppendStr(b, m.Key)
			b = append(b, ": "...)
			b = appendRepr(b, m.Value)
		}
		return append(b, '}')
	}
	return append(b, "<object>"...)
}

// pyEqStr is x == s for a loaded value and a str.
func pyEqStr(x any, s string) bool { v, ok := x.(string); return ok && v == s }

// keyError is str(KeyError(key)): the key's repr.
func keyError(key any) string { return pyRepr(key) }
