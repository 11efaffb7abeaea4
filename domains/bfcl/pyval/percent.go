package pyval

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// PercentFormat is format % args, printf-style formatting of a str
// (Mod's str case): %s %r %a %d %i %u %x %X %o %e %E %f %F %g %G %c and
// %%, with flags, width, precision and %(key)s mapping keys, and
// Python's errors ("not all arguments converted during string
// formatting", "not enough arguments for format string").
func PercentFormat(format string, args Value) (string, error) {
	var items []Value
	argidx, arglen := -2, -1
	if t, ok := args.(Tuple); ok {
		items, arglen, argidx = t, len(t), 0
	}
	var mapping Value
	switch args.(type) {
	case *Dict, *List:
		mapping = args
	}
	next := func() (Value, error) {
		switch {
		case arglen >= 0 && argidx < arglen:
			argidx++
			return items[argidx-1], nil
		case arglen < 0 && argidx == -2:
			argidx = -1
			return args, nil
		}
		return nil, TypeError("not enough arguments for format string")
	}
	var b strings.Builder
	rs := []rune(format)
	for i := 0; i < len(rs); i++ {
		if rs[i] != '%' {
			b.WriteRune(rs[i])
			continue
		}
		i++
		if i >= len(rs) {
			return "", ValueError("incomplete format")
		}
		var arg Value
		haveArg := false
		if rs[i] == '(' {
			if mapping == nil {
				return "", TypeError("format requires a mapping")
			}
			depth, j := 1, i+1
			for ; j < len(rs) && depth > 0; j++ {
				if rs[j] == '(' {
					depth++
				} else if rs[j] == ')' {
					depth--
				}
			}
			if depth > 0 {
				return "", ValueError("incomplete format key")
			}
			v, err := GetItem(mapping, string(rs[i+1:j-1]))
			if err != nil {
				return "", err
			}
			arg, haveArg = v, true
			argidx, arglen = -1, -1
			i = j
		}
		var flags string
		for i < len(rs) && strings.ContainsRune("-+ #0", rs[i]) {
			flags += string(rs[i])
			i++
		}
		width, prec := -1, -1
		readNum := func() (int, error) {
			if i < len(rs) && rs[i] == '*' {
				i++
				v, err := next()
				if err != nil {
					return 0, err
				}
				n, ok := small(v)
				if !ok || !isInt(v) {
					return 0, TypeError("* wants int")
				}
				return int(n), nil
			}
			j := i
			for i < len(rs) && rs[i] >= '0' && rs[i] <= '9' {
				i++
			}
			if i == j {
				return -1, nil
			}
			n, _ := strconv.Atoi(string(rs[j:i]))
			return n, nil
		}
		var err error
		if width, err = readNum(); err != nil {
			return "", err
		}
		if i < len(rs) && rs[i] == '.' {
			i++
			if prec, err = readNum(); err != nil {
				return "", err
			}
			if prec < 0 {
				prec = 0
			}
		}
		for i < len(rs) && (rs[i] == 'h' || rs[i] == 'l' || rs[i] == 'L') {
			i++
		}
		if i >= len(rs) {
			return "", ValueError("incomplete format")
		}
		conv := rs[i]
		if conv == '%' {
			b.WriteByte('%')
			continue
		}
		if !strings.ContainsRune("sradiuxXoeEfFgGc", conv) {
			return "", ValueError(fmt.Sprintf("unsupported format character '%c' (0x%x) at index %d", conv, conv, i))
		}
		if !haveArg {
			if arg, err = next(); err != nil {
				return "", err
			}
		}
		out, err := percentOne(conv, flags, width, prec, arg)
		if err != nil {
			return "", err
		}
		b.WriteString(out)
	}
	if argidx < arglen && mapping == nil || arglen < 0 && argidx == -2 && mapping == nil {
		return "", TypeError("not all arguments converted during string formatting")
	}
	return b.String(), nil
}

func percentOne(conv rune, flags string, width, prec int, arg Value) (string, error) {
	left := strings.Contains(flags, "-")
	spec := ""
	if left {
		spec += "<"
	}
	if strings.Contains(flags, "+") {
		spec += "+"
	} else if strings.Contains(flags, " ") {
		spec += " "
	}
	if strings.Contains(flags, "0") && !left {
		spec += "0"
	}
	if width > 0 {
		spec += strconv.Itoa(width)
	}
	switch conv {
	case 's', 'r', 'a':
		s := Str(arg)
		if conv != 's' {
			s = Repr(arg)
		}
		if prec >= 0 && utf8.RuneCountInString(s) > prec {
			s = string([]rune(s)[:prec])
		}
		fs := formatSpec{fill: ' ', align: '>', width: width, precision: -1}
		if left {
			fs.align = '<'
		}
		return pad("", s, fs), nil
	case 'd', 'i', 'u':
		v := arg
		if f, ok := arg.(float64); ok {
			iv, err := floatToInt(f)
			if err != nil {
				return "", err
			}
			v = iv
		} else if !isInt(arg) {
			return "", TypeError(fmt.Sprintf("%%%c format: a real number is required, not %s", conv, TypeName(arg)))
		}
		return Format(v, spec+"d")
	case 'x', 'X', 'o':
		if !isInt(arg) {
			return "", TypeError(fmt.Sprintf("%%%c format: an integer is required, not %s", conv, TypeName(arg)))
		}
		if strings.Contains(flags, "#") {
			spec = "#" + spec
		}
		return Format(arg, spec+string(conv))
	case 'c':
		if s, ok := arg.(string); ok && utf8.RuneCountInString(s) == 1 {
			return s, nil
		}
		n, ok := small(arg)
		if !ok || !isInt(arg) {
			return "", TypeError("%c requires int or char")
		}
		return string(rune(n)), nil
	}
	f, err := ToFloat(arg)
	if err != nil {
		if _, ok := arg.(string); ok || arg == nil || !isInt(arg) {
			return "", TypeError(fmt.Sprintf("must be real number, not %s", TypeName(arg)))
		}
		return "", err
	}
	if prec < 0 {
		prec = 6
	}
	if strings.Contains(flags, "#") {
		spec = "#" + spec
	}
	return Format(f, spec+"."+strconv.Itoa(prec)+string(conv))
}
