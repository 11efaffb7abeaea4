package pyval

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// TypeName is type(v).__name__: "NoneType", "bool", "int", "float",
// "str", "list", "tuple", "dict", or an object's class name.
func TypeName(v Value) string {
	switch x := v.(type) {
	case nil:
		return "NoneType"
	case bool:
		return "bool"
	case int64, int, *big.Int:
		return "int"
	case float64:
		return "float"
	case string:
		return "str"
	case *List:
		return "list"
	case Tuple:
		return "tuple"
	case *Dict:
		return "dict"
	case Object:
		return x.ClassName()
	}
	return fmt.Sprintf("<Go %T>", v)
}

// Repr is repr(v).
func Repr(v Value) string {
	var b strings.Builder
	writeRepr(&b, v)
	return b.String()
}

// maxStrDigits is sys.get_int_max_str_digits() (Python 3.11's default):
// an int of more decimal digits has no str.
const maxStrDigits = 4300

// intDigitsError is the ValueError str(i) raises past maxStrDigits.
var intDigitsError = ValueError(fmt.Sprintf("Exceeds the limit (%d digits) for integer string conversion; use sys.set_int_max_str_digits() to increase the limit", maxStrDigits))

// tooManyDigits reports whether str(x) passes maxStrDigits.
func tooManyDigits(x *big.Int) bool {
	// 4300 digits need at least 14281 bits; fewer bits cannot pass.
	if x.BitLen() < 14281 {
		return false
	}
	return len(new(big.Int).Abs(x).String()) > maxStrDigits
}

// intLimit is the ValueError repr(v) or json.dumps(v) raises where v holds
// an int past Python's 4300-digit limit on int-to-str conversion.
func intLimit(v Value) error {
	switch x := v.(type) {
	case *big.Int:
		if tooManyDigits(x) {
			return intDigitsError
		}
	case *List:
		for _, e := range x.Items {
			if err := intLimit(e); err != nil {
				return err
			}
		}
	case Tuple:
		for _, e := range x {
			if err := intLimit(e); err != nil {
				return err
			}
		}
	case *Dict:
		for _, it := range x.items {
			if err := intLimit(it.Key); err != nil {
				return err
			}
			if err := intLimit(it.Value); err != nil {
				return err
			}
		}
	}
	return nil
}

// StrErr is str(v) with the ValueError Python raises for an int of more
// than 4300 digits in it ("Exceeds the limit (4300 digits) for integer
// string conversion; ..."); Str writes such an int's digits.
func StrErr(v Value) (string, error) {
	if err := intLimit(v); err != nil {
		return "", err
	}
	return Str(v), nil
}

// ReprErr is repr(v) with the same ValueError as StrErr.
func ReprErr(v Value) (string, error) {
	if err := intLimit(v); err != nil {
		return "", err
	}
	return Repr(v), nil
}

// Str is str(v): a str as is, a container with repr of its elements, an
// object's __str__ where its class defines one, else repr(v).
func Str(v Value) string {
	switch x := v.(type) {
	case string:
		return x
	case StrObject:
		return x.Str()
	}
	return Repr(v)
}

func writeRepr(b *strings.Builder, v Value) {
	switch x := v.(type) {
	case nil:
		b.WriteString("None")
	case bool:
		if x {
			b.WriteString("True")
		} else {
			b.WriteString("False")
		}
	case int64:
		b.WriteString(strconv.FormatInt(x, 10))
	case int:
		b.WriteString(strconv.Itoa(x))
	case *big.Int:
		b.WriteString(x.String())
	case float64:
		b.WriteString(FloatRepr(x))
	case string:
		b.WriteString(StrRepr(x))
	case *List:
		b.WriteByte('[')
		for i, e := range x.Items {
			if i > 0 {
				b.WriteString(", ")
			}
			writeRepr(b, e)
		}
		b.WriteByte(']')
	case Tuple:
		b.WriteByte('(')
		for i, e := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			writeRepr(b, e)
		}
		if len(x) == 1 {
			b.WriteByte(',')
		}
		b.WriteByte(')')
	case *Dict:
		b.WriteByte('{')
		for i, it := range x.items {
			if i > 0 {
				b.WriteString(", ")
			}
			writeRepr(b, it.Key)
			b.WriteString(": ")
			writeRepr(b, it.Value)
		}
		b.WriteByte('}')
	case Object:
		b.WriteString(x.Repr())
	default:
		fmt.Fprintf(b, "<Go %T>", v)
	}
}

// FloatRepr is repr(x) of a float: the shortest string that round-trips,
// positional for exponents from -4 to 15 with ".0" when integral
// ("1.0", "0.0001", "1e-05", "1e+16", "inf", "nan", "-0.0").
func FloatRepr(x float64) string {
	switch {
	case math.IsNaN(x):
		return "nan"
	case math.IsInf(x, 1):
		return "inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	digits, decpt, neg := shortestDigits(x)
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	if decpt <= -4 || decpt > 16 {
		b.WriteByte(digits[0])
		if len(digits) > 1 {
			b.WriteByte('.')
			b.WriteString(digits[1:])
		}
		writeExp(&b, decpt-1)
		return b.String()
	}
	switch {
	case decpt <= 0:
		b.WriteString("0.")
		b.WriteString(strings.Repeat("0", -decpt))
		b.WriteString(digits)
	case decpt >= len(digits):
		b.WriteString(digits)
		b.WriteString(strings.Repeat("0", decpt-len(digits)))
		b.WriteString(".0")
	default:
		b.WriteString(digits[:decpt])
		b.WriteByte('.')
		b.WriteString(digits[decpt:])
	}
	return b.String()
}

// shortestDigits gives the shortest round-tripping decimal digits of a
// finite x and the decimal point's position (x = 0.digits × 10^decpt).
func shortestDigits(x float64) (digits string, decpt int, neg bool) {
	s := strconv.FormatFloat(x, 'e', -1, 64)
	if s[0] == '-' {
		neg, s = true, s[1:]
	}
	e := strings.IndexByte(s, 'e')
	exp, _ := strconv.Atoi(s[e+1:])
	digits = strings.Replace(s[:e], ".", "", 1)
	return digits, exp + 1, neg
}

// writeExp writes Python's exponent: "e+16", "e-05", "e+100".
func writeExp(b *strings.Builder, exp int) {
	b.WriteByte('e')
	if exp < 0 {
		b.WriteByte('-')
		exp = -exp
	} else {
		b.WriteByte('+')
	}
	if exp < 10 {
		b.WriteByte('0')
	}
	b.WriteString(strconv.Itoa(exp))
}

// StrRepr is repr(s) of a str: single quotes unless s holds ' and no ",
// with Python's escapes for backslash, the quote, \t \n \r and
// non-printable characters (\xhh, \uhhhh, \Uhhhhhhhh).
func StrRepr(s string) string {
	quote := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		quote = '"'
	}
	var b strings.Builder
	b.WriteByte(quote)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			// A byte that is no UTF-8: Python's str cannot hold it; show it
			// as the surrogate escape Python's decoders would give it.
			fmt.Fprintf(&b, "\\udc%02x", s[i])
			i++
			continue
		}
		i += n
		switch {
		case r == rune(quote) || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < ' ' || r == 0x7f:
			fmt.Fprintf(&b, "\\x%02x", r)
		case r < 0x7f:
			b.WriteRune(r)
		case IsPrintable(r):
			b.WriteRune(r)
		case r <= 0xff:
			fmt.Fprintf(&b, "\\x%02x", r)
		case r <= 0xffff:
			fmt.Fprintf(&b, "\\u%04x", r)
		default:
			fmt.Fprintf(&b, "\\U%08x", r)
		}
	}
	b.WriteByte(quote)
	return b.String()
}

// IsPrintable is Python's str.isprintable for one character: not in the
// categories Cc, Cf, Cs, Co, Cn, Zl, Zp, Zs (space aside).
func IsPrintable(r rune) bool {
	if r == ' ' {
		return true
	}
	return unicode.IsPrint(r)
}
