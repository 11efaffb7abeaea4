package model

import (
	"math"
	"strconv"
	"unsafe"
)

// canonicalValue is FromJSON's value of text already in the form FromJSON
// writes a JSONValue in (no white space, keys in strictly increasing
// order, strings of printable ASCII without escapes, integers as they
// read back, floats as Python writes them), read without a tree: the
// payload's values, for one, are canonical by construction. false for any
// other text, which FromJSON reads the long way.
func canonicalValue(src []byte) (Value, bool) {
	if len(src) == 0 {
		return Null, false
	}
	switch c := src[0]; {
	case c == '{':
		if end, ok := canonicalAt(src, 0, 0); ok && end == len(src) {
			return Value{kind: JSONValue, s: string(src)}, true
		}
	case c == '[':
		if xs, ok := plainList(src); ok {
			return Value{kind: ListValue, l: &xs}, true
		}
		if end, ok := canonicalAt(src, 0, 0); ok && end == len(src) {
			return Value{kind: JSONValue, s: string(src)}, true
		}
	case c == '"':
		if end, ok := plainStringAt(src, 0); ok && end == len(src) {
			return Str(string(src[1 : end-1])), true
		}
	case c == '-' || '0' <= c && c <= '9':
		end, integer, ok := canonicalNumberAt(src, 0)
		if !ok || end != len(src) {
			return Null, false
		}
		if integer {
			i, _ := strconv.ParseInt(unsafe.String(&src[0], len(src)), 10, 64)
			return Int(i), true
		}
		return Value{kind: JSONValue, s: string(src)}, true
	default:
		switch string(src) {
		case "null":
			return Null, true
		case "true":
			return Bool(true), true
		case "false":
			return Bool(false), true
		}
	}
	return Null, false
}

// plainList is the items of an array of plain strings in canonical form
// (FromJSON's ListValue); false for any other text.
func plainList(src []byte) ([]string, bool) {
	xs := []string{}
	i := 1
	if i < len(src) && src[i] == ']' {
		return xs, i+1 == len(src)
	}
	for {
		end, ok := plainStringAt(src, i)
		if !ok {
			return nil, false
		}
		xs = append(xs, string(src[i+1:end-1]))
		if end >= len(src) {
			return nil, false
		}
		switch src[end] {
		case ',':
			i = end + 1
		case ']':
			return xs, end+1 == len(src)
		default:
			return nil, false
		}
	}
}

// canonicalAt is the end of the canonical value at i; false where the
// text there is not one (or nests deeper than the parser allows).
func canonicalAt(src []byte, i, depth int) (int, bool) {
	if i >= len(src) || depth > maxDepth {
		return i, false
	}
	switch c := src[i]; {
	case c == '"':
		return plainStringAt(src, i)
	case c == '{':
		i++
		if i < len(src) && src[i] == '}' {
			return i + 1, true
		}
		var prev []byte
		for {
			end, ok := plainStringAt(src, i)
			if !ok || prev != nil && string(src[i+1:end-1]) <= string(prev) {
				return i, false // not a plain key, or not after the one before
			}
			prev = src[i+1 : end-1]
			if end >= len(src) || src[end] != ':' {
				return end, false
			}
			if i, ok = canonicalAt(src, end+1, depth+1); !ok || i >= len(src) {
				return i, false
			}
			switch src[i] {
			case ',':
				i++
			case '}':
				return i + 1, true
			default:
				return i, false
			}
		}
	case c == '[':
		i++
		if i < len(src) && src[i] == ']' {
			return i + 1, true
		}
		for {
			var ok bool
			if i, ok = canonicalAt(src, i, depth+1); !ok || i >= len(src) {
				return i, false
			}
			switch src[i] {
			case ',':
				i++
			case ']':
				return i + 1, true
			default:
				return i, false
			}
		}
	case c == '-' || '0' <= c && c <= '9':
		end, _, ok := canonicalNumberAt(src, i)
		return end, ok
	}
	for _, lit := range []string{"null", "true", "false"} {
		if len(src)-i >= len(lit) && string(src[i:i+len(lit)]) == lit {
			return i + len(lit), true
		}
	}
	return i, false
}

// plainStringAt is the end of the string literal at i when it holds only
// printable ASCII and no escape: its bytes are its text and
// appendJSONString writes it as it stands.
func plainStringAt(src []byte, i int) (int, bool) {
	if i >= len(src) || src[i] != '"' {
		return i, false
	}
	for i++; i < len(src); i++ {
		switch c := src[i]; {
		case c == '"':
			return i + 1, true
		case c < 0x20 || c >= 0x7f || c == '\\':
			return i, false
		}
	}
	return i, false
}

// canonicalNumberAt is the end of the number at i when it reads back as
// itself: an integer with no leading zero that fits in 18 digits (not
// -0), or a finite float in Python's repr (AppendPyFloat's text).
func canonicalNumberAt(src []byte, i int) (end int, integer, ok bool) {
	end = i
	for end < len(src) {
		c := src[end]
		if !('0' <= c && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E') {
			break
		}
		end++
	}
	lit := src[i:end]
	if len(lit) == 0 {
		return end, false, false
	}
	digits := lit
	if digits[0] == '-' {
		digits = digits[1:]
	}
	isInt := len(digits) > 0
	for _, c := range digits {
		if c < '0' || c > '9' {
			isInt = false
		}
	}
	if isInt {
		return end, true, len(digits) <= 18 && (digits[0] != '0' || len(digits) == 1) && string(lit) != "-0"
	}
	f, err := strconv.ParseFloat(unsafe.String(&lit[0], len(lit)), 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return end, false, false
	}
	var buf [32]byte
	return end, false, string(AppendPyFloat(buf[:0], f)) == string(lit)
}
