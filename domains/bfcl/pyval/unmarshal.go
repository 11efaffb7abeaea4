package pyval

import (
	"encoding/json"
	"math/big"
	"strconv"
	"unicode/utf8"
)

// readMarshalled reads Marshal's own text in one pass: compact JSON whose
// objects are its tagged forms, keys in the order Marshal writes them. It
// answers false, having kept nothing, for any other text (whitespace, an
// escaped key, a number that is no int64, a value Unmarshal refuses),
// which Unmarshal then reads its general way, to the same value or its
// located error. Every call decodes the cells it reads that no call
// decoded before: with encoding/json at each level, their decoding was
// the most of the time a call spent on its cells.
func readMarshalled(data []byte) (Value, bool) {
	r := reader{b: data}
	v, ok := r.value(0)
	if !ok || r.at != len(data) {
		return nil, false
	}
	return v, true
}

// reader is readMarshalled's position in its text, and the values of the
// lists it is in, each list's made once at its size.
type reader struct {
	b     []byte
	at    int
	stack []Value
}

func (r *reader) lit(s string) bool {
	if len(r.b)-r.at < len(s) || string(r.b[r.at:r.at+len(s)]) != s {
		return false
	}
	r.at += len(s)
	return true
}

func (r *reader) value(depth int) (Value, bool) {
	if r.at >= len(r.b) || depth > maxDepth {
		return nil, false
	}
	switch c := r.b[r.at]; {
	case c == 'n':
		return nil, r.lit("null")
	case c == 't':
		return true, r.lit("true")
	case c == 'f':
		return false, r.lit("false")
	case c == '"':
		return r.str()
	case c == '[':
		items, ok := r.items(depth)
		if !ok {
			return nil, false
		}
		return &List{Items: items}, true
	case c == '{':
		return r.tagged(depth)
	case c == '-' || c >= '0' && c <= '9':
		return r.int()
	}
	return nil, false
}

// int reads an integer as JSON writes it (no fraction, no exponent) that
// fits an int64; Unmarshal refuses any other number.
func (r *reader) int() (Value, bool) {
	start := r.at
	if r.b[r.at] == '-' {
		r.at++
	}
	digits := r.at
	for r.at < len(r.b) && r.b[r.at] >= '0' && r.b[r.at] <= '9' {
		r.at++
	}
	if r.at == digits || r.b[digits] == '0' && r.at-digits > 1 {
		return nil, false
	}
	if r.at < len(r.b) {
		switch r.b[r.at] {
		case '.', 'e', 'E':
			return nil, false
		}
	}
	n, err := strconv.ParseInt(string(r.b[start:r.at]), 10, 64)
	return n, err == nil
}

// str reads a JSON string: its bytes where it has no escape and is valid
// UTF-8, else as encoding/json reads it.
func (r *reader) str() (string, bool) {
	start := r.at
	r.at++
	escaped := false
	for ; r.at < len(r.b); r.at++ {
		switch c := r.b[r.at]; {
		case c == '"':
			r.at++
			raw := r.b[start:r.at]
			if !escaped && utf8.Valid(raw) {
				return string(raw[1 : len(raw)-1]), true
			}
			var s string
			return s, json.Unmarshal(raw, &s) == nil
		case c == '\\':
			escaped = true
			r.at++ // the escaped byte; \u's digits are plain bytes
		case c < 0x20:
			return "", false
		}
	}
	return "", false
}

// items reads an array's values into a slice of its length.
func (r *reader) items(depth int) ([]Value, bool) {
	r.at++ // [
	base := len(r.stack)
	if !r.lit("]") {
		for {
			v, ok := r.value(depth + 1)
			if !ok {
				r.stack = r.stack[:base]
				return nil, false
			}
			r.stack = append(r.stack, v)
			if r.lit("]") {
				break
			}
			if !r.lit(",") {
				r.stack = r.stack[:base]
				return nil, false
			}
		}
	}
	items := make([]Value, len(r.stack)-base)
	copy(items, r.stack[base:])
	clear(r.stack[base:])
	r.stack = r.stack[:base]
	return items, true
}

// tagged reads one of Marshal's tagged objects.
func (r *reader) tagged(depth int) (Value, bool) {
	switch {
	case r.lit(`{"int":`):
		s, ok := r.tagStr()
		if !ok {
			return nil, false
		}
		b, ok := new(big.Int).SetString(s, 10)
		if !ok {
			return nil, false
		}
		return normInt(b), r.lit("}")
	case r.lit(`{"float":`):
		s, ok := r.tagStr()
		if !ok {
			return nil, false
		}
		f, err := parseFloatRepr(s)
		return f, err == nil && r.lit("}")
	case r.lit(`{"tuple":`):
		if r.at >= len(r.b) || r.b[r.at] != '[' {
			return nil, false
		}
		items, ok := r.items(depth + 1)
		if !ok {
			return nil, false
		}
		return Tuple(items), r.lit("}")
	case r.lit(`{"dict":[`):
		d := NewDict()
		if r.lit("]") {
			return d, r.lit("}")
		}
		for {
			if !r.lit("[") {
				return nil, false
			}
			k, ok := r.value(depth + 3)
			if !ok || !r.lit(",") {
				return nil, false
			}
			v, ok := r.value(depth + 3)
			if !ok || !r.lit("]") {
				return nil, false
			}
			if d.SetItem(k, v) != nil {
				return nil, false
			}
			if r.lit("]") {
				return d, r.lit("}")
			}
			if !r.lit(",") {
				return nil, false
			}
		}
	case r.lit(`{"object":`):
		name, ok := r.tagStr()
		if !ok || !r.lit(`,"state":`) {
			return nil, false
		}
		decode, ok := objectDecoders[name]
		if !ok {
			return nil, false
		}
		start := r.at
		if !r.skip(depth + 1) {
			return nil, false
		}
		state := r.b[start:r.at]
		if !r.lit("}") {
			return nil, false
		}
		o, err := decode(state)
		return o, err == nil
	}
	return nil, false
}

// tagStr reads a tag's string.
func (r *reader) tagStr() (string, bool) {
	if r.at >= len(r.b) || r.b[r.at] != '"' {
		return "", false
	}
	return r.str()
}

// skip passes over one compact JSON value (an object's state, which its
// decoder reads), checking it as it goes.
func (r *reader) skip(depth int) bool {
	if r.at >= len(r.b) || depth > maxDepth {
		return false
	}
	switch c := r.b[r.at]; {
	case c == 'n':
		return r.lit("null")
	case c == 't':
		return r.lit("true")
	case c == 'f':
		return r.lit("false")
	case c == '"':
		_, ok := r.str()
		return ok
	case c == '[', c == '{':
		end := byte(']')
		if c == '{' {
			end = '}'
		}
		r.at++
		if r.lit(string(end)) {
			return true
		}
		for {
			if c == '{' {
				if r.at >= len(r.b) || r.b[r.at] != '"' {
					return false
				}
				if _, ok := r.str(); !ok || !r.lit(":") {
					return false
				}
			}
			if !r.skip(depth + 1) {
				return false
			}
			if r.lit(string(end)) {
				return true
			}
			if !r.lit(",") {
				return false
			}
		}
	case c == '-' || c >= '0' && c <= '9':
		return r.number()
	}
	return false
}

// number passes over a JSON number.
func (r *reader) number() bool {
	digits := func() int {
		n := 0
		for r.at < len(r.b) && r.b[r.at] >= '0' && r.b[r.at] <= '9' {
			r.at++
			n++
		}
		return n
	}
	r.lit("-")
	start := r.at
	if n := digits(); n == 0 || r.b[start] == '0' && n > 1 {
		return false
	}
	if r.lit(".") && digits() == 0 {
		return false
	}
	if r.lit("e") || r.lit("E") {
		if !r.lit("+") {
			r.lit("-")
		}
		if digits() == 0 {
			return false
		}
	}
	return true
}
