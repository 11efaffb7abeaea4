package pyval

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Str methods as Python's str has them, on Go strings holding UTF-8.
// Positions and lengths count characters (code points), as Python's do.

// IsSpace is str.isspace for one character (Unicode White_Space, plus
// the separators \x1c-\x1f Python counts).
func IsSpace(r rune) bool { return unicode.IsSpace(r) || r >= 0x1c && r <= 0x1f }

// SplitWhitespace is s.split(): runs of whitespace separate, none empty.
func SplitWhitespace(s string) []string {
	return strings.FieldsFunc(s, IsSpace)
}

// Split is s.split(sep, maxsplit) with maxsplit -1 for no limit;
// ValueError "empty separator" for sep "".
func Split(s, sep string, maxsplit int) ([]string, error) {
	if sep == "" {
		return nil, ValueError("empty separator")
	}
	if maxsplit < 0 {
		return strings.Split(s, sep), nil
	}
	return strings.SplitN(s, sep, maxsplit+1), nil
}

// SplitLines is s.splitlines() (line ends dropped): \n, \r, \r\n, \v, \f,
// \x1c-\x1e, \x85, \u2028 and \u2029 end lines.
func SplitLines(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch r {
		case '\n', '\r', '\v', '\f', 0x1c, 0x1d, 0x1e, 0x85, 0x2028, 0x2029:
			out = append(out, s[start:i])
			i += n
			if r == '\r' && i < len(s) && s[i] == '\n' {
				i++
			}
			start = i
			continue
		}
		i += n
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

// Strip is s.strip(chars); chars nil strips whitespace.
func Strip(s string, chars *string) string { return RStrip(LStrip(s, chars), chars) }

// LStrip is s.lstrip(chars).
func LStrip(s string, chars *string) string {
	if chars == nil {
		return strings.TrimLeftFunc(s, IsSpace)
	}
	return strings.TrimLeft(s, *chars)
}

// RStrip is s.rstrip(chars).
func RStrip(s string, chars *string) string {
	if chars == nil {
		return strings.TrimRightFunc(s, IsSpace)
	}
	return strings.TrimRight(s, *chars)
}

// Lower is s.lower() with Unicode's full mappings (İ → i̇, a final Σ → ς).
func Lower(s string) string {
	var b strings.Builder
	rs := []rune(s)
	for i, r := range rs {
		switch {
		case r == 0x130:
			b.WriteString("i\u0307")
		case r == 'Σ' && finalSigma(rs, i):
			b.WriteRune('ς')
		default:
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// finalSigma is Unicode's Final_Sigma condition: a cased letter before
// (case-ignorable ones skipped) and none after.
func finalSigma(rs []rune, i int) bool {
	cased := func(r rune) bool { return unicode.IsUpper(r) || unicode.IsLower(r) || unicode.IsTitle(r) }
	ignorable := func(r rune) bool {
		return unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Lm, unicode.Sk) || r == '\'' || r == '.' || r == ':' || r == 0xb7 || r == 0x2019
	}
	j := i - 1
	for j >= 0 && ignorable(rs[j]) {
		j--
	}
	if j < 0 || !cased(rs[j]) {
		return false
	}
	k := i + 1
	for k < len(rs) && ignorable(rs[k]) {
		k++
	}
	return k == len(rs) || !cased(rs[k])
}

// upperSpecial are the unconditional full uppercase mappings of Unicode's
// SpecialCasing that Go's simple mapping lacks.
var upperSpecial = map[rune]string{
	0xdf: "SS", 0x149: "\u02bcN", 0x1f0: "J\u030c", 0x390: "\u0399\u0308\u0301",
	0x3b0: "\u03a5\u0308\u0301", 0x587: "\u0535\u0552", 0x1e96: "H\u0331",
	0x1e97: "T\u0308", 0x1e98: "W\u030a", 0x1e99: "Y\u030a", 0x1e9a: "A\u02be",
	0xfb00: "FF", 0xfb01: "FI", 0xfb02: "FL", 0xfb03: "FFI", 0xfb04: "FFL",
	0xfb05: "ST", 0xfb06: "ST",
}

// Upper is s.upper() with the full mappings (ß → SS).
func Upper(s string) string {
	var b strings.Builder
	for _, r := range s {
		if m, ok := upperSpecial[r]; ok {
			b.WriteString(m)
			continue
		}
		b.WriteRune(unicode.ToUpper(r))
	}
	return b.String()
}

// IsDigit is s.isdigit(): non-empty, every character a digit (decimal
// digits, and the superscript, subscript and circled digits Python
// counts).
func IsDigit(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !unicode.IsDigit(r) && !otherDigit(r) {
			return false
		}
	}
	return true
}

func otherDigit(r rune) bool {
	switch {
	case r == 0xb2 || r == 0xb3 || r == 0xb9:
		return true
	case r >= 0x2070 && r <= 0x2079 && r != 0x2071 && r != 0x2072 && r != 0x2073:
		return true
	case r >= 0x2080 && r <= 0x2089:
		return true
	case r >= 0x2460 && r <= 0x2468, r >= 0x2474 && r <= 0x247c, r >= 0x2488 && r <= 0x2490:
		return true
	case r == 0x24ea || r >= 0x24f5 && r <= 0x24fd || r == 0x24ff:
		return true
	case r >= 0x2776 && r <= 0x277e, r >= 0x2780 && r <= 0x2788, r >= 0x278a && r <= 0x2792:
		return true
	case r >= 0x1369 && r <= 0x1371, r == 0x19da, r >= 0x10a40 && r <= 0x10a43:
		return true
	case r >= 0x1f100 && r <= 0x1f10a:
		return true
	}
	return false
}

// ZFill is s.zfill(width).
func ZFill(s string, width int) string {
	n := utf8.RuneCountInString(s)
	if n >= width {
		return s
	}
	pad := strings.Repeat("0", width-n)
	if s != "" && (s[0] == '+' || s[0] == '-') {
		return s[:1] + pad + s[1:]
	}
	return pad + s
}

// ByteLen is len(s.encode("utf-8")).
func ByteLen(s string) int { return len(s) }

// Join is sep.join(iterable): TypeError "sequence item 0: expected str
// instance, int found".
func Join(sep string, iterable Value) (string, error) {
	items, err := Iter(iterable)
	if err != nil {
		if _, ok := iterable.(Object); !ok {
			return "", TypeError("can only join an iterable")
		}
		return "", err
	}
	parts := make([]string, len(items))
	for i, it := range items {
		s, ok := it.(string)
		if !ok {
			return "", TypeError(fmt.Sprintf("sequence item %d: expected str instance, %s found", i, TypeName(it)))
		}
		parts[i] = s
	}
	return strings.Join(parts, sep), nil
}

// StrFormat is s.format(**kwargs) for named fields ("{symbol}",
// "{x:.2f}", "{{" and "}}" escapes): KeyError 'name' for a field the
// kwargs lack, IndexError for a positional field.
func StrFormat(s string, kwargs *Dict) (string, error) {
	var b strings.Builder
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '{' && i+1 < len(s) && s[i+1] == '{':
			b.WriteByte('{')
			i += 2
		case c == '}' && i+1 < len(s) && s[i+1] == '}':
			b.WriteByte('}')
			i += 2
		case c == '}':
			return "", ValueError("Single '}' encountered in format string")
		case c == '{':
			end := strings.IndexByte(s[i:], '}')
			if end < 0 {
				if i+1 == len(s) {
					return "", ValueError("Single '{' encountered in format string")
				}
				return "", ValueError("expected '}' before end of string")
			}
			field := s[i+1 : i+end]
			i += end + 1
			name, spec, _ := strings.Cut(field, ":")
			conv := ""
			if k := strings.IndexByte(name, '!'); k >= 0 {
				name, conv = name[:k], name[k+1:]
			}
			if name == "" || isDigit(name[0]) {
				n := 0
				if name != "" {
					fmt.Sscan(name, &n)
				}
				return "", IndexError(fmt.Sprintf("Replacement index %d out of range for positional args tuple", n))
			}
			v, ok := kwargs.Get(name)
			if !ok {
				return "", KeyError(name)
			}
			switch conv {
			case "r":
				v = Repr(v)
			case "s":
				v = Str(v)
			}
			out, err := Format(v, spec)
			if err != nil {
				return "", err
			}
			b.WriteString(out)
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String(), nil
}
