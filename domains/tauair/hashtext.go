package tauair

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/parthack/parthack/internal/jsonscan"
	"github.com/parthack/parthack/model"
)

// appendValueRepr writes appendPyRepr of jsonOf(v), straight from the
// value's canonical JSON text where that text is plain (no white space,
// keys in increasing order, strings of printable ASCII without escapes),
// which the loaded database's values are; any other value is decoded as
// jsonOf does.
func appendValueRepr(b []byte, v model.Value) []byte {
	switch v.Kind() {
	case model.StringValue:
		return appendPyStr(b, v.AsString())
	case model.IntValue:
		return strconv.AppendInt(b, v.AsInt(), 10)
	case model.BoolValue:
		return appendPyRepr(b, v.AsBool())
	case model.ListValue:
		if xs := v.AsList(); !slices.ContainsFunc(xs, func(x string) bool { return !utf8.ValidString(x) }) {
			return appendTuple(b, len(xs), func(b []byte, i int) []byte { return appendPyStr(b, xs[i]) })
		}
	case model.JSONValue:
		s := v.AsString()
		if out, end, ok := appendPlainRepr(b, s, 0); ok && end == len(s) {
			return out
		}
	}
	return appendPyRepr(b, jsonOf(v))
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
			key, end, ok := jsonscan.PlainString(s, i)
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
		str, end, ok := jsonscan.PlainString(s, i)
		if !ok {
			return b, i, false
		}
		return appendPyStr(b, str), end, true
	case c == '-' || '0' <= c && c <= '9':
		end, integer, ok := jsonscan.Number(s, i)
		if !ok {
			return b, i, false
		}
		// As numOf reads a json.Number.
		if integer && end-i <= 18 && s[i:end] != "-0" {
			return append(b, s[i:end]...), end, true // it reads back as written
		}
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

// appendRootRepr writes appendPyRepr of root(coll, id) straight from the
// state's values, without the record's maps: each field's text (reprOf),
// the keys in sorted order. false when the record is absent.
func (c *callCtx) appendRootRepr(b []byte, coll, id string) ([]byte, bool) {
	switch coll {
	case "users":
		if !c.v.Alive(TypeUser, id) {
			return b, false
		}
		var pms []string // sorted, as paymentMethodIDs gives them
		for _, pm := range c.d.paymentMethodIDs(id) {
			if c.v.Alive(TypePaymentMethod, id+"/"+pm) {
				pms = append(pms, pm)
			}
		}
		return c.appendRecordRepr(b, TypeUser, id, nil, "payment_methods", func(b []byte) []byte {
			return appendTuple(b, len(pms), func(b []byte, i int) []byte {
				b = append(b, '(')
				b = appendPyStr(b, pms[i])
				b = append(b, ", "...)
				b = c.appendRecordRepr(b, TypePaymentMethod, id+"/"+pms[i], []string{"user"}, "", nil)
				return append(b, ')')
			})
		}), true
	case "reservations":
		if !c.v.Alive(TypeReservation, id) {
			return b, false
		}
		return c.appendRecordRepr(b, TypeReservation, id, nil, "", nil), true
	case "flights":
		fi, ok := c.d.db.byNumber[id]
		if !ok || !c.v.Alive(TypeFlight, id) {
			return b, false
		}
		var dates []string
		for _, date := range c.d.db.flights[fi].dates {
			if c.v.Alive(TypeFlightDate, id+"/"+date) {
				dates = append(dates, date)
			}
		}
		slices.Sort(dates)
		return c.appendRecordRepr(b, TypeFlight, id, nil, "dates", func(b []byte) []byte {
			return appendTuple(b, len(dates), func(b []byte, i int) []byte {
				b = append(b, '(')
				b = appendPyStr(b, dates[i])
				b = append(b, ", "...)
				b = c.appendRecordRepr(b, TypeFlightDate, id+"/"+dates[i], []string{"flight", "date"}, "", nil)
				return append(b, ')')
			})
		}), true
	}
	return b, false
}

// appendRecordRepr writes appendPyRepr of record(typ, id) less the fields
// drop names, with the member extraKey (written by extra) set when it is
// not "", as root sets a record's nested ones.
func (c *callCtx) appendRecordRepr(b []byte, typ, id string, drop []string, extraKey string, extra func([]byte) []byte) []byte {
	type member struct {
		key string
		v   model.Value
	}
	var buf [24]member
	ms := buf[:0]
	for _, name := range fieldsByName(typ) {
		if name == extraKey || slices.Contains(drop, name) {
			continue
		}
		if v := c.field(typ, id, name); !v.IsNull() {
			ms = append(ms, member{name, v})
		}
	}
	if extraKey != "" {
		at, _ := slices.BinarySearchFunc(ms, extraKey, func(m member, k string) int { return strings.Compare(m.key, k) })
		ms = slices.Insert(ms, at, member{key: extraKey})
	}
	return appendTuple(b, len(ms), func(b []byte, i int) []byte {
		b = append(b, '(')
		b = appendPyStr(b, ms[i].key)
		b = append(b, ", "...)
		if ms[i].key == extraKey {
			b = extra(b)
		} else {
			b = appendValueRepr(b, ms[i].v)
		}
		return append(b, ')')
	})
}

// fieldsByName are each entity type's field names, sorted: a record's
// keys in the order to_hashable sorts them.
var fieldsByName = func() func(typ string) []string {
	byType := map[string][]string{}
	for _, et := range schema.Types {
		var names []string
		for _, fd := range et.Fields {
			names = append(names, fd.Name)
		}
		slices.Sort(names)
		byType[et.Name] = names
	}
	return func(typ string) []string { return byType[typ] }
}()
