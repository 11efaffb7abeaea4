// Package model holds the typed vocabulary of parthack: values, entity
// schemas, tasks, goal versions, predicates, trajectories, events,
// certificates and verdicts, with their strict JSON decoding and canonical
// encoding. It has no behaviour beyond that; the environment lives in
// pbcste and the certifiers in certifier.
package model

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
)

// ValueKind is the dynamic kind of a Value.
type ValueKind uint8

// Value kinds. Enum and reference fields hold string values; the schema
// gives them their meaning.
const (
	NullValue ValueKind = iota
	StringValue
	IntValue
	BoolValue
	ListValue
)

// Value is one typed cell value. The zero Value is null: an unset field.
type Value struct {
	kind ValueKind
	i    int64
	s    string
	l    *[]string // lists are rare; a pointer keeps every other value small
}

// Null is the unset value.
var Null = Value{}

// Str makes a string value (also used for enum members and reference ids).
func Str(s string) Value { return Value{kind: StringValue, s: s} }

// Int makes an integer value.
func Int(i int64) Value { return Value{kind: IntValue, i: i} }

// Bool makes a boolean value.
func Bool(b bool) Value {
	if b {
		return Value{kind: BoolValue, i: 1}
	}
	return Value{kind: BoolValue}
}

// List makes a list-of-strings value; it keeps its own copy.
func List(xs []string) Value {
	c := slices.Clone(xs)
	return Value{kind: ListValue, l: &c}
}

// Kind reports the value's kind.
func (v Value) Kind() ValueKind { return v.kind }

// IsNull reports whether the value is unset.
func (v Value) IsNull() bool { return v.kind == NullValue }

// AsString returns the string of a string value or the canonical text of
// a JSON value, "" otherwise.
func (v Value) AsString() string { return v.s }

// AsInt returns the integer of an int value, 0 otherwise.
func (v Value) AsInt() int64 {
	if v.kind != IntValue {
		return 0
	}
	return v.i
}

// AsBool returns the boolean of a bool value, false otherwise.
func (v Value) AsBool() bool { return v.kind == BoolValue && v.i == 1 }

// AsList returns the elements of a list value; callers must not modify it.
func (v Value) AsList() []string {
	if v.l == nil {
		return nil
	}
	return *v.l
}

// Equal is exact typed equality.
func (v Value) Equal(w Value) bool {
	if v.kind != w.kind {
		return false
	}
	switch v.kind {
	case NullValue:
		return true
	case StringValue:
		return v.s == w.s
	case IntValue, BoolValue:
		return v.i == w.i
	case JSONValue:
		return v.s == w.s
	default:
		return slices.Equal(v.AsList(), w.AsList())
	}
}

// KindName names a value kind for error messages.
func (k ValueKind) String() string {
	switch k {
	case NullValue:
		return "null"
	case StringValue:
		return "string"
	case IntValue:
		return "int"
	case BoolValue:
		return "bool"
	case ListValue:
		return "list of strings"
	case JSONValue:
		return "json"
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// AppendJSON appends the canonical JSON encoding of v to b.
func (v Value) AppendJSON(b []byte) []byte {
	switch v.kind {
	case StringValue:
		return appendJSONString(b, v.s)
	case IntValue:
		return strconv.AppendInt(b, v.i, 10)
	case BoolValue:
		return strconv.AppendBool(b, v.i == 1)
	case JSONValue:
		return append(b, v.s...)
	case ListValue:
		b = append(b, '[')
		for i, s := range v.AsList() {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, s)
		}
		return append(b, ']')
	}
	return append(b, "null"...)
}

// MarshalJSON encodes the value canonically.
func (v Value) MarshalJSON() ([]byte, error) { return v.AppendJSON(nil), nil }

// String renders the value as JSON, the form users type.
func (v Value) String() string { return string(v.AppendJSON(nil)) }

// appendJSONString writes s as a JSON string without HTML escaping, so the
// bytes depend only on s.
func appendJSONString(b []byte, s string) []byte {
	return append(appendJSONStringBody(append(b, '"'), s), '"')
}

// appendJSONStringBody writes s escaped as within a JSON string, without
// its quotes.
func appendJSONStringBody(b []byte, s string) []byte {
	var x jsonEscaper
	return x.appendBody(b, s)
}

// jsonEscaper escapes strings as encoding/json does, without HTML
// escaping, into a buffer it keeps from one string to the next. Each
// character is escaped on its own, so the pieces of a string cut where
// characters start escape to the pieces of the string.
type jsonEscaper struct {
	buf bytes.Buffer
	enc *json.Encoder
}

// appendBody appends s escaped, without its quotes.
func (x *jsonEscaper) appendBody(b []byte, s string) []byte {
	plain := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			plain = false
			break
		}
	}
	if plain {
		return append(b, s...)
	}
	if x.enc == nil {
		x.enc = json.NewEncoder(&x.buf)
		x.enc.SetEscapeHTML(false)
	}
	x.buf.Reset()
	if err := x.enc.Encode(s); err != nil {
		panic(err) // a Go string always encodes
	}
	out := x.buf.Bytes()
	return append(b, out[1:len(out)-2]...) // less the quotes and the newline
}
