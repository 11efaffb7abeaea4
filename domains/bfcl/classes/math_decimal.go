package classes

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/parthack/parthack/domains/bfcl/pyval"
)

// This file holds the part of Python's decimal module that
// MathAPI.square_root reaches: Decimal of an int, bool or float (exact),
// Decimal.sqrt under a context of the given precision (rounded half to
// even, the result exact where it can be and then at its ideal
// exponent), and the repr ("Decimal('1.4142')"). All of it is exact: it
// follows the General Decimal Arithmetic rules CPython's libmpdec and
// _pydecimal implement, step for step as _pydecimal.Decimal.sqrt does.

// decimalNum is a finite Decimal (-1)^neg · coeff · 10^exp, an
// Infinity or a NaN.
type decimalNum struct {
	neg   bool
	coeff *big.Int // ≥ 0
	exp   int
	inf   bool
	nan   bool
}

// decimalFromFloat is Decimal(x): the float's exact binary value.
func decimalFromFloat(x float64) decimalNum {
	neg := math.Signbit(x)
	if math.IsNaN(x) {
		return decimalNum{neg: neg, nan: true}
	}
	if math.IsInf(x, 0) {
		return decimalNum{neg: neg, inf: true}
	}
	r := new(big.Rat).SetFloat64(math.Abs(x))
	n, d := r.Num(), r.Denom()
	k := d.BitLen() - 1 // d = 2^k
	coeff := new(big.Int).Mul(n, new(big.Int).Exp(big.NewInt(5), big.NewInt(int64(k)), nil))
	return decimalNum{neg: neg, coeff: coeff, exp: -k}
}

// decimalFromInt is Decimal(n).
func decimalFromInt(n *big.Int) decimalNum {
	return decimalNum{neg: n.Sign() < 0, coeff: new(big.Int).Abs(n)}
}

func (d decimalNum) digits() string { return d.coeff.String() }

// sqrt is d.sqrt() in a context of precision prec (d ≥ 0 or -0).
func (d decimalNum) sqrt(prec int) decimalNum {
	if d.inf || d.nan {
		return d
	}
	if d.coeff.Sign() == 0 {
		return decimalNum{neg: d.neg, coeff: new(big.Int), exp: mpFloorDiv(d.exp, 2)}.fix(prec)
	}
	p := prec + 1
	ndig := len(d.digits())
	e := d.exp >> 1
	c := new(big.Int).Set(d.coeff)
	var l int
	if d.exp&1 != 0 {
		c.Mul(c, big.NewInt(10))
		l = (ndig >> 1) + 1
	} else {
		l = (ndig + 1) >> 1
	}
	shift := p - l
	exact := true
	if shift >= 0 {
		c.Mul(c, decPow10(2*shift))
	} else {
		var rem big.Int
		c.QuoRem(c, decPow10(-2*shift), &rem)
		exact = rem.Sign() == 0
	}
	e -= shift
	n := new(big.Int).Sqrt(c)
	exact = exact && new(big.Int).Mul(n, n).Cmp(c) == 0
	if exact {
		if shift >= 0 {
			n.Quo(n, decPow10(shift))
		} else {
			n.Mul(n, decPow10(-shift))
		}
		e += shift
	} else if new(big.Int).Mod(n, big.NewInt(5)).Sign() == 0 {
		n.Add(n, big.NewInt(1))
	}
	return decimalNum{coeff: n, exp: e}.fix(prec)
}

func decPow10(n int) *big.Int { return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil) }

// fix is Decimal._fix in the default context's exponent range, rounding
// half to even to prec digits.
func (d decimalNum) fix(prec int) decimalNum {
	if d.coeff.Sign() == 0 {
		return d
	}
	s := d.digits()
	expMin := len(s) + d.exp - prec
	if d.exp >= expMin {
		return d
	}
	keep := len(s) + d.exp - expMin
	if keep < 0 {
		s, d.exp, keep = "1", expMin-1, 0
	}
	coeff := s[:keep]
	if coeff == "" {
		coeff = "0"
	}
	if decRoundHalfEven(s, keep) > 0 {
		c, _ := new(big.Int).SetString(coeff, 10)
		coeff = c.Add(c, big.NewInt(1)).String()
		if len(coeff) > prec {
			coeff = coeff[:len(coeff)-1]
			expMin++
		}
	}
	c, _ := new(big.Int).SetString(coeff, 10)
	return decimalNum{neg: d.neg, coeff: c, exp: expMin}
}

// decRoundHalfEven is _round_half_even(digits, keep): 1 to round the kept
// digits up, else 0 or -1.
func decRoundHalfEven(s string, keep int) int {
	rest := s[keep:]
	if rest == "" {
		return 0
	}
	if rest[0] == '5' && strings.Trim(rest[1:], "0") == "" {
		if keep == 0 || strings.IndexByte("02468", s[keep-1]) >= 0 {
			return -1
		}
		return 1
	}
	if rest[0] >= '5' {
		return 1
	}
	if strings.Trim(rest, "0") == "" {
		return 0
	}
	return -1
}

// String is str(d), Decimal's to-scientific-string.
func (d decimalNum) String() string {
	sign := ""
	if d.neg {
		sign = "-"
	}
	if d.inf {
		return sign + "Infinity"
	}
	if d.nan {
		return sign + "NaN"
	}
	digits := d.digits()
	left := d.exp + len(digits)
	dot := 1
	if d.exp <= 0 && left > -6 {
		dot = left
	}
	var intpart, frac string
	switch {
	case dot <= 0:
		intpart, frac = "0", "."+strings.Repeat("0", -dot)+digits
	case dot >= len(digits):
		intpart = digits + strings.Repeat("0", dot-len(digits))
	default:
		intpart, frac = digits[:dot], "."+digits[dot:]
	}
	exp := ""
	if left != dot {
		exp = "E" + strconv.FormatInt(int64(left-dot), 10)
		if left-dot >= 0 {
			exp = "E+" + strconv.FormatInt(int64(left-dot), 10)
		}
	}
	return sign + intpart + frac + exp
}

// rat is d's value (d finite).
func (d decimalNum) rat() *big.Rat {
	r := new(big.Rat).SetInt(d.coeff)
	if d.exp >= 0 {
		r.Mul(r, new(big.Rat).SetInt(decPow10(d.exp)))
	} else {
		r.Quo(r, new(big.Rat).SetInt(decPow10(-d.exp)))
	}
	if d.neg {
		r.Neg(r)
	}
	return r
}

// decimalValue is a Decimal as a Python value.
type decimalValue struct{ d decimalNum }

func (v *decimalValue) ClassName() string { return "Decimal" }
func (v *decimalValue) Repr() string      { return "Decimal('" + v.d.String() + "')" }
func (v *decimalValue) Str() string       { return v.d.String() }
func (v *decimalValue) Equal(other pyval.Value) bool {
	o, ok := other.(*decimalValue)
	if !ok {
		return false
	}
	if v.d.nan || o.d.nan {
		return false
	}
	if v.d.inf || o.d.inf {
		return v.d.inf && o.d.inf && v.d.neg == o.d.neg
	}
	return v.d.rat().Cmp(o.d.rat()) == 0
}
func (v *decimalValue) DeepCopy(map[any]pyval.Value) pyval.Value { return v }

// MarshalState is str(d), which decimalParse reads back exactly.
func (v *decimalValue) MarshalState() ([]byte, error) {
	return []byte(strconv.Quote(v.d.String())), nil
}

// decimalParse reads what String writes: [-](Infinity|NaN|digits[.digits][E±n]).
func decimalParse(s string) (decimalNum, bool) {
	var d decimalNum
	if strings.HasPrefix(s, "-") {
		d.neg, s = true, s[1:]
	}
	switch s {
	case "Infinity":
		d.inf = true
		return d, true
	case "NaN":
		d.nan = true
		return d, true
	}
	mant, exp := s, 0
	if i := strings.IndexByte(s, 'E'); i >= 0 {
		e, err := strconv.Atoi(s[i+1:])
		if err != nil {
			return d, false
		}
		mant, exp = s[:i], e
	}
	whole, frac, _ := strings.Cut(mant, ".")
	c, ok := new(big.Int).SetString(whole+frac, 10)
	if !ok || c.Sign() < 0 || whole == "" {
		return d, false
	}
	d.coeff, d.exp = c, exp-len(frac)
	return d, true
}

func init() {
	pyval.RegisterObject("Decimal", func(data []byte) (pyval.Object, error) {
		var s string
		if err := json.Unmarshal(data, &s); err != nil {
			return nil, fmt.Errorf("Decimal: %w", err)
		}
		d, ok := decimalParse(s)
		if !ok {
			return nil, fmt.Errorf("Decimal: %q is no decimal", s)
		}
		return &decimalValue{d}, nil
	})
}
