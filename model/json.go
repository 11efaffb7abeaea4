package model

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// KindJSON declares a field that holds any JSON value: a real benchmark's
// nested records (a reservation's flights, a user's address) stay one
// typed cell whose before → after is a diff like any other.
const KindJSON FieldKind = "json"

// JSONValue is the kind of a structured JSON value (an object, an array
// that is not a list of strings, or a non-integral number), held as its
// canonical text.
const JSONValue ValueKind = ListValue + 1

// FromJSON maps JSON text to a Value, the one mapping every reader uses:
// null, booleans, strings, integers and arrays of strings become the
// plain kinds; objects, other arrays and non-integral numbers become a
// JSONValue in canonical form (compact, object keys sorted, numbers as
// Python writes them, so 28 and 28.0 stay different values as they are
// to a Python benchmark). Duplicate keys are an error.
func FromJSON(src []byte) (Value, error) {
	if v, ok := canonicalValue(src); ok {
		return v, nil // already in the form FromJSON writes: no tree to build
	}
	d, err := parseDoc("", src)
	if err != nil {
		return Null, err
	}
	return d.cur().anyValue()
}

// MustJSON is FromJSON for text known to be valid, as Go code builds it.
func MustJSON(src string) Value {
	v, err := FromJSON([]byte(src))
	if err != nil {
		panic(fmt.Sprintf("model.MustJSON(%q): %v", src, err))
	}
	return v
}

// CanonicalJSON is a JSONValue from s, which must already be one's
// canonical form (its AsString): for a store that keeps values encoded
// and reads them back. It checks nothing.
func CanonicalJSON(s string) Value { return Value{kind: JSONValue, s: s} }

// anyValue reads any JSON value with FromJSON's mapping.
func (c cursor) anyValue() (Value, error) {
	switch c.n.kind {
	case nodeNumber:
		if isIntLiteral(c.n.str) {
			return c.value()
		}
	case nodeArray:
		if !slices.ContainsFunc(c.n.items, func(n *node) bool { return n.kind != nodeString }) {
			return c.value()
		}
	case nodeObject:
	default:
		return c.value()
	}
	b, err := appendCanonical(nil, c)
	if err != nil {
		return Null, err
	}
	return Value{kind: JSONValue, s: string(b)}, nil
}

func isIntLiteral(s string) bool { return !strings.ContainsAny(s, ".eE") }

// appendCanonical writes a node as canonical JSON.
func appendCanonical(b []byte, c cursor) ([]byte, error) {
	n := c.n
	switch n.kind {
	case nodeNull:
		return append(b, "null"...), nil
	case nodeBool:
		return strconv.AppendBool(b, n.b), nil
	case nodeString:
		str, err := c.str()
		return appendJSONString(b, str), err
	case nodeNumber:
		if isIntLiteral(n.str) {
			i, err := c.integer()
			if err != nil {
				return nil, err
			}
			return strconv.AppendInt(b, i, 10), nil
		}
		f, err := strconv.ParseFloat(n.str, 64)
		if err != nil || math.IsInf(f, 0) {
			return nil, c.fail("number %s is out of range", n.str)
		}
		return AppendPyFloat(b, f), nil
	case nodeArray:
		items, _ := c.array()
		b = append(b, '[')
		for i, it := range items {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = appendCanonical(b, it); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	}
	keys, vals, err := c.entries()
	if err != nil {
		return nil, err
	}
	order := make([]int, len(keys))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(x, y int) int { return strings.Compare(keys[x], keys[y]) })
	b = append(b, '{')
	for i, k := range order {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, keys[k])
		b = append(b, ':')
		if b, err = appendCanonical(b, vals[k]); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

// AppendPyFloat writes a finite float as Python's repr does: the
// shortest text that round-trips, always with a '.' or an exponent, in
// positional form for exponents in [-4, 16).
func AppendPyFloat(b []byte, f float64) []byte {
	if f == math.Trunc(f) && math.Abs(f) < 1e16 {
		b = strconv.AppendFloat(b, f, 'f', -1, 64)
		return append(b, ".0"...)
	}
	s := strconv.FormatFloat(f, 'e', -1, 64)
	mant, exp, _ := strings.Cut(s, "e")
	e, _ := strconv.Atoi(exp)
	if e >= -4 && e < 16 {
		return strconv.AppendFloat(b, f, 'f', -1, 64)
	}
	b = append(b, mant...)
	b = append(b, 'e')
	if e < 0 {
		b = append(b, '-')
		e = -e
	} else {
		b = append(b, '+')
	}
	if e < 10 {
		b = append(b, '0')
	}
	return strconv.AppendInt(b, int64(e), 10)
}

// Members splits a JSON object value into its members, keys sorted, each
// value with FromJSON's mapping; false when v is not an object.
func Members(v Value) ([]Assign, bool) {
	if v.kind != JSONValue || !strings.HasPrefix(v.s, "{") {
		return nil, false
	}
	d, err := parseDoc("", []byte(v.s))
	if err != nil {
		return nil, false
	}
	keys, vals, err := d.cur().entries()
	if err != nil {
		return nil, false
	}
	out := make([]Assign, len(keys))
	for i, k := range keys {
		x, err := vals[i].anyValue()
		if err != nil {
			return nil, false
		}
		out[i] = Assign{Field: k, Value: x}
	}
	return out, true
}
