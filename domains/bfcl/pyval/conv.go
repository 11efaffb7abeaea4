package pyval

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode"
)

// ToFloat is float(v): ints correctly rounded (OverflowError past the
// float range), str parsed as Python parses it (whitespace, "_" between
// digits, "inf", "nan"), ValueError "could not convert string to float:
// 'x'", TypeError for other types.
func ToFloat(v Value) (float64, error) {
	switch x := v.(type) {
	case float64:
		return x, nil
	case string:
		f, ok := parsePyFloat(x)
		if !ok {
			return 0, ValueError("could not convert string to float: " + StrRepr(x))
		}
		return f, nil
	case NumberObject:
		return x.Float()
	}
	if isInt(v) {
		return intToFloat(v)
	}
	return 0, TypeError(fmt.Sprintf("float() argument must be a string or a real number, not '%s'", TypeName(v)))
}

// parsePyFloat parses a float literal as float(str) accepts it.
func parsePyFloat(s string) (float64, bool) {
	t := asciiDigits(strings.TrimFunc(s, IsSpace))
	body := strings.TrimLeft(t, "+-")
	if len(t)-len(body) > 1 {
		return 0, false
	}
	switch strings.ToLower(body) {
	case "inf", "infinity":
		if strings.HasPrefix(t, "-") {
			return math.Inf(-1), true
		}
		return math.Inf(1), true
	case "nan":
		if strings.HasPrefix(t, "-") {
			return math.Copysign(math.NaN(), -1), true
		}
		return math.NaN(), true
	}
	clean, ok := dropUnderscores(t)
	if !ok || clean == "" {
		return 0, false
	}
	for _, c := range clean {
		if !(c >= '0' && c <= '9' || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') {
			return 0, false
		}
	}
	if strings.HasPrefix(strings.ToLower(strings.TrimLeft(clean, "+-")), "0x") {
		return 0, false
	}
	f, err := strconv.ParseFloat(clean, 64)
	if err != nil && !isRangeErr(err) {
		return 0, false
	}
	return f, true
}

// dropUnderscores removes the single "_" Python allows between digits.
func dropUnderscores(s string) (string, bool) {
	if !strings.Contains(s, "_") {
		return s, true
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '_' {
			if i == 0 || i == len(s)-1 || !isDigit(s[i-1]) || !isDigit(s[i+1]) {
				return "", false
			}
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String(), true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// ToInt is int(v): a float truncated (ValueError for NaN, OverflowError
// for infinity), a str parsed in base 10 (ValueError "invalid literal
// for int() with base 10: 'x'"), TypeError for other types.
func ToInt(v Value) (Value, error) {
	switch x := v.(type) {
	case bool:
		if x {
			return int64(1), nil
		}
		return int64(0), nil
	case float64:
		return floatToInt(x)
	case string:
		t := asciiDigits(strings.TrimFunc(x, IsSpace))
		clean, ok := dropUnderscores(t)
		body := strings.TrimLeft(clean, "+-")
		if !ok || body == "" || len(clean)-len(body) > 1 || strings.HasPrefix(body, "_") {
			return nil, ValueError("invalid literal for int() with base 10: " + StrRepr(x))
		}
		for i := 0; i < len(body); i++ {
			if !isDigit(body[i]) {
				return nil, ValueError("invalid literal for int() with base 10: " + StrRepr(x))
			}
		}
		if len(body) > maxStrDigits {
			return nil, ValueError(fmt.Sprintf("Exceeds the limit (%d digits) for integer string conversion: value has %d digits; use sys.set_int_max_str_digits() to increase the limit", maxStrDigits, len(body)))
		}
		b, _ := new(big.Int).SetString(clean, 10)
		return normInt(b), nil
	case NumberObject:
		f, err := x.Float()
		if err != nil {
			return nil, err
		}
		return floatToInt(f)
	}
	if isInt(v) {
		return normInt(bigOf(v)), nil
	}
	return nil, TypeError(fmt.Sprintf("int() argument must be a string, a bytes-like object or a real number, not '%s'", TypeName(v)))
}

func floatToInt(x float64) (Value, error) {
	switch {
	case math.IsNaN(x):
		return nil, ValueError("cannot convert float NaN to integer")
	case math.IsInf(x, 0):
		return nil, OverflowError("cannot convert float infinity to integer")
	}
	t := math.Trunc(x)
	if t >= -(1<<63) && t < 1<<63 {
		return int64(t), nil
	}
	b, _ := new(big.Float).SetFloat64(t).Int(nil)
	return normInt(b), nil
}

// RoundFloat is round(x, n) for a float: the decimal nearest x's exact
// binary value at n digits (halves to even), as CPython rounds.
func RoundFloat(x float64, n int) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) || x == 0 {
		return x
	}
	// CPython: ndigits past what a double can hold gives x; far below
	// its exponent gives a signed zero.
	if n > 323 {
		return x
	}
	if n < -308 {
		return math.Copysign(0, x)
	}
	var r float64
	if n >= 0 {
		r, _ = strconv.ParseFloat(strconv.FormatFloat(x, 'f', n, 64), 64)
	} else {
		exact := new(big.Rat)
		exact.SetFloat64(x)
		scale := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(-n)), nil)
		q := new(big.Rat).Quo(exact, new(big.Rat).SetInt(scale))
		num, den := q.Num(), q.Denom()
		whole, rem := new(big.Int).QuoRem(num, den, new(big.Int))
		twice := new(big.Int).Mul(new(big.Int).Abs(rem), big.NewInt(2))
		if c := twice.Cmp(den); c > 0 || c == 0 && whole.Bit(0) == 1 {
			if num.Sign() < 0 {
				whole.Sub(whole, big.NewInt(1))
			} else {
				whole.Add(whole, big.NewInt(1))
			}
		}
		r, _ = new(big.Float).SetInt(whole.Mul(whole, scale)).Float64()
	}
	if r == 0 {
		return math.Copysign(0, x)
	}
	return r
}

// Round is the builtin round(number, ndigits); ndigits nil is round(x)
// with one argument (an int result, halves to even).
func Round(number, ndigits Value) (Value, error) {
	if ndigits != nil && !isInt(ndigits) {
		return nil, TypeError(fmt.Sprintf("'%s' object cannot be interpreted as an integer", TypeName(ndigits)))
	}
	switch x := number.(type) {
	case float64:
		if ndigits == nil {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return floatToInt(x)
			}
			return floatToInt(math.RoundToEven(x))
		}
		n, ok := small(ndigits)
		if !ok {
			if bigOf(ndigits).Sign() > 0 {
				return x, nil
			}
			return math.Copysign(0, x), nil
		}
		if n > 400 {
			n = 400
		} else if n < -400 {
			n = -400
		}
		r := RoundFloat(x, int(n))
		if math.IsInf(r, 0) && !math.IsInf(x, 0) {
			return nil, OverflowError("rounded value too large to represent")
		}
		return r, nil
	case interface {
		Round(ndigits Value) (Value, error)
	}:
		return x.Round(ndigits)
	}
	if isInt(number) {
		if ndigits == nil {
			return normInt(bigOf(number)), nil
		}
		n, ok := small(ndigits)
		if ok && n >= 0 || !ok && bigOf(ndigits).Sign() > 0 {
			return normInt(bigOf(number)), nil
		}
		if !ok || n < -4000 {
			return int64(0), nil
		}
		scale := new(big.Int).Exp(big.NewInt(10), big.NewInt(-n), nil)
		q, m := floorDivMod(bigOf(number), scale)
		twice := new(big.Int).Mul(m, big.NewInt(2))
		if c := twice.Cmp(scale); c > 0 || c == 0 && q.Bit(0) == 1 {
			q.Add(q, big.NewInt(1))
		}
		return normInt(q.Mul(q, scale)), nil
	}
	return nil, TypeError(fmt.Sprintf("type %s doesn't define __round__ method", TypeName(number)))
}

// asciiDigits replaces Unicode decimal digits (category Nd: '١', '٣')
// by ASCII ones, as int() and float() read them.
func asciiDigits(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if r >= 0x80 && unicode.IsDigit(r) {
			// Nd digits come in runs of whole sets of ten, zero first.
			start := r
			for unicode.IsDigit(start - 1) {
				start--
			}
			b.WriteByte(byte('0' + (r-start)%10))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
