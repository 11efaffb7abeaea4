package pyval

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"
)

// FormatObject is an Object with its own __format__ (Decimal).
type FormatObject interface {
	Object
	Format(spec string) (string, error)
}

// Format is format(v, spec), what an f-string's {v:spec} writes: the
// format mini-language for int, float and str ("{x:.2f}", "{n:,}",
// "{s:>10}"), str(v) for an empty spec, Python's errors otherwise
// ("Unknown format code 'f' for object of type 'str'").
func Format(v Value, spec string) (string, error) {
	if o, ok := v.(FormatObject); ok {
		return o.Format(spec)
	}
	if spec == "" {
		return StrErr(v)
	}
	switch x := v.(type) {
	case float64:
		fs, err := parseSpec(spec)
		if err != nil {
			return "", err
		}
		return formatFloat(x, fs, "float")
	case string:
		fs, err := parseSpec(spec)
		if err != nil {
			return "", err
		}
		return formatStr(x, fs)
	}
	if isInt(v) {
		fs, err := parseSpec(spec)
		if err != nil {
			return "", err
		}
		return formatInt(v, fs)
	}
	return "", TypeError(fmt.Sprintf("unsupported format string passed to %s.__format__", TypeName(v)))
}

type formatSpec struct {
	fill      rune
	align     byte
	sign      byte
	z, alt    bool
	zero      bool
	width     int
	grouping  byte
	precision int // -1 when absent
	typ       byte
}

func parseSpec(spec string) (formatSpec, error) {
	fs := formatSpec{fill: ' ', precision: -1}
	s := spec
	isAlign := func(c byte) bool { return c == '<' || c == '>' || c == '=' || c == '^' }
	if r, n := utf8.DecodeRuneInString(s); n > 0 && n < len(s) && isAlign(s[n]) {
		fs.fill, fs.align, s = r, s[n], s[n+1:]
	} else if len(s) > 0 && isAlign(s[0]) {
		fs.align, s = s[0], s[1:]
	}
	if len(s) > 0 && (s[0] == '+' || s[0] == '-' || s[0] == ' ') {
		fs.sign, s = s[0], s[1:]
	}
	if len(s) > 0 && s[0] == 'z' {
		fs.z, s = true, s[1:]
	}
	if len(s) > 0 && s[0] == '#' {
		fs.alt, s = true, s[1:]
	}
	if len(s) > 0 && s[0] == '0' {
		fs.zero, s = true, s[1:]
	}
	i := 0
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	if i > 0 {
		fs.width, _ = strconv.Atoi(s[:i])
		s = s[i:]
	}
	if len(s) > 0 && (s[0] == ',' || s[0] == '_') {
		fs.grouping, s = s[0], s[1:]
	}
	if len(s) > 0 && s[0] == '.' {
		j := 1
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		if j == 1 {
			return fs, ValueError("Format specifier missing precision")
		}
		fs.precision, _ = strconv.Atoi(s[1:j])
		s = s[j:]
	}
	if len(s) > 1 {
		return fs, ValueError("Invalid format specifier")
	}
	if len(s) == 1 {
		fs.typ = s[0]
	}
	if fs.zero && fs.align == 0 {
		fs.fill, fs.align = '0', '='
	}
	return fs, nil
}

func unknownCode(typ byte, kind string) error {
	return ValueError(fmt.Sprintf("Unknown format code '%c' for object of type '%s'", typ, kind))
}

func formatStr(s string, fs formatSpec) (string, error) {
	if fs.typ != 0 && fs.typ != 's' {
		return "", unknownCode(fs.typ, "str")
	}
	if fs.sign != 0 {
		return "", ValueError("Sign not allowed in string format specifier")
	}
	if fs.align == '=' {
		return "", ValueError("'=' alignment not allowed in string format specifier")
	}
	if fs.precision >= 0 && utf8.RuneCountInString(s) > fs.precision {
		s = string([]rune(s)[:fs.precision])
	}
	if fs.align == 0 {
		fs.align = '<'
	}
	return pad("", s, fs), nil
}

func formatInt(v Value, fs formatSpec) (string, error) {
	switch fs.typ {
	case 'e', 'E', 'f', 'F', 'g', 'G', '%':
		f, err := intToFloat(v)
		if err != nil {
			return "", err
		}
		return formatFloat(f, fs, "int")
	case 0, 'd', 'n', 'x', 'X', 'o', 'b', 'c':
	default:
		return "", unknownCode(fs.typ, "int")
	}
	if fs.precision >= 0 {
		return "", ValueError("Precision not allowed in integer format specifier")
	}
	b := bigOf(v)
	neg := b.Sign() < 0
	abs := new(big.Int).Abs(b)
	var digits, prefix string
	switch fs.typ {
	case 'x', 'X':
		digits, prefix = abs.Text(16), "0x"
	case 'o':
		digits, prefix = abs.Text(8), "0o"
	case 'b':
		digits, prefix = abs.Text(2), "0b"
	case 'c':
		if fs.sign != 0 {
			return "", ValueError("Sign not allowed with integer format specifier 'c'")
		}
		if !b.IsInt64() || b.Int64() < 0 || b.Int64() > 0x10ffff {
			return "", OverflowError("%c arg not in range(0x110000)")
		}
		return pad("", string(rune(b.Int64())), fs), nil
	default:
		if tooManyDigits(abs) {
			return "", intDigitsError
		}
		digits = abs.String()
	}
	if fs.typ == 'X' {
		digits, prefix = strings.ToUpper(digits), "0X"
	}
	if fs.alt && prefix != "" {
		if fs.align == '=' {
			return pad(signOf(neg, fs.sign)+prefix, digits, fs), nil
		}
		digits = prefix + digits
	}
	if fs.grouping != 0 {
		digits = group(digits, fs.grouping)
	}
	return pad(signOf(neg, fs.sign), digits, fs), nil
}

func signOf(neg bool, sign byte) string {
	switch {
	case neg:
		return "-"
	case sign == '+':
		return "+"
	case sign == ' ':
		return " "
	}
	return ""
}

// group inserts the separator every three digits of the integer part.
func group(digits string, sep byte) string {
	intPart, rest := digits, ""
	if i := strings.IndexAny(digits, ".eE%"); i >= 0 {
		intPart, rest = digits[:i], digits[i:]
	}
	if len(intPart) <= 3 {
		return digits
	}
	var b strings.Builder
	lead := len(intPart) % 3
	if lead > 0 {
		b.WriteString(intPart[:lead])
	}
	for i := lead; i < len(intPart); i += 3 {
		if b.Len() > 0 {
			b.WriteByte(sep)
		}
		b.WriteString(intPart[i : i+3])
	}
	return b.String() + rest
}

func formatFloat(x float64, fs formatSpec, kind string) (string, error) {
	switch fs.typ {
	case 0, 'e', 'E', 'f', 'F', 'g', 'G', '%', 'n':
	default:
		return "", unknownCode(fs.typ, kind)
	}
	neg := math.Signbit(x)
	ax := math.Abs(x)
	var body string
	upper := fs.typ == 'E' || fs.typ == 'F' || fs.typ == 'G'
	prec := fs.precision
	switch {
	case math.IsNaN(x):
		body = "nan"
		neg = false
	case math.IsInf(x, 0):
		body = "inf"
	default:
		switch fs.typ {
		case 'f', 'F':
			if prec < 0 {
				prec = 6
			}
			body = strconv.FormatFloat(ax, 'f', prec, 64)
			if fs.alt && prec == 0 {
				body += "."
			}
		case '%':
			if prec < 0 {
				prec = 6
			}
			body = strconv.FormatFloat(ax*100, 'f', prec, 64)
		case 'e', 'E':
			if prec < 0 {
				prec = 6
			}
			body = strconv.FormatFloat(ax, 'e', prec, 64)
		case 'g', 'G', 'n':
			if prec < 0 {
				prec = 6
			} else if prec == 0 {
				prec = 1
			}
			body = formatG(ax, prec, fs.alt, false)
		default:
			if prec < 0 {
				body = FloatRepr(ax)
			} else {
				if prec == 0 {
					prec = 1
				}
				body = formatG(ax, prec, fs.alt, true)
			}
		}
	}
	if math.IsNaN(x) || math.IsInf(x, 0) {
		if fs.typ == '%' {
			body += "%"
		}
	} else if fs.typ == '%' {
		body += "%"
	}
	if upper {
		body = strings.ToUpper(body)
	}
	if fs.z && neg && isZeroText(body) {
		neg = false
	}
	if fs.grouping != 0 && !math.IsNaN(x) && !math.IsInf(x, 0) {
		body = group(body, fs.grouping)
	}
	return pad(signOf(neg, fs.sign), body, fs), nil
}

func isZeroText(s string) bool {
	return strings.Trim(s, "0.%eE+-") == ""
}

// formatG is the 'g' presentation (and, with addDot, the empty type with
// a precision, which keeps a ".0" on an integral fixed value).
func formatG(ax float64, prec int, alt, addDot bool) string {
	e := strconv.FormatFloat(ax, 'e', prec-1, 64)
	exp, _ := strconv.Atoi(e[strings.IndexByte(e, 'e')+1:])
	var s string
	if exp >= -4 && exp < prec {
		s = strconv.FormatFloat(ax, 'f', prec-1-exp, 64)
	} else {
		s = e
	}
	if !alt {
		mant, tail := s, ""
		if i := strings.IndexByte(s, 'e'); i >= 0 {
			mant, tail = s[:i], s[i:]
		}
		if strings.Contains(mant, ".") {
			mant = strings.TrimRight(strings.TrimRight(mant, "0"), ".")
		}
		s = mant + tail
		if addDot && !strings.ContainsAny(s, ".e") {
			s += ".0"
		}
	}
	return s
}

// pad applies width, fill and alignment around sign and body.
func pad(sign, body string, fs formatSpec) string {
	n := utf8.RuneCountInString(sign) + utf8.RuneCountInString(body)
	if n >= fs.width {
		return sign + body
	}
	fill := strings.Repeat(string(fs.fill), fs.width-n)
	switch fs.align {
	case '<':
		return sign + body + fill
	case '^':
		left := (fs.width - n) / 2
		l := strings.Repeat(string(fs.fill), left)
		r := strings.Repeat(string(fs.fill), fs.width-n-left)
		return l + sign + body + r
	case '=':
		return sign + fill + body
	}
	return fill + sign + body
}
