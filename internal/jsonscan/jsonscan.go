// Package jsonscan reads the plain parts of valid JSON text in place: a
// string of printable ASCII without escapes, a number. What a domain's
// fast writers (a benchmark's hash texts, written straight from
// canonical JSON) take as they are; anything else they read the long way.
package jsonscan

// PlainString is the JSON string at s[i:] when it is printable ASCII
// without escapes, and where it ends; false for any other string.
func PlainString(s string, i int) (string, int, bool) {
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

// Number scans the JSON number at s[i:]: where it ends and whether it
// has neither fraction nor exponent (an int to Python's json module);
// false where none starts there.
func Number[T ~string | ~[]byte](s T, i int) (end int, integer, ok bool) {
	if i < len(s) && s[i] == '-' {
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
	integer = true
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

func digits[T ~string | ~[]byte](s T, i int) int {
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	return i
}
