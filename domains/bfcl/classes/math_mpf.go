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

// This file holds the part of mpmath 1.3.0 that MathAPI.logarithm
// reaches: mpmath.mp.dps = precision, mpmath.log of an int, a float or
// a numeric string, the quotient of two logarithms (real, or complex
// where a logarithm's argument is negative), and the repr of the result
// ("mpf('2.0')", "mpc(real='…', imag='…')").
//
// Exactness: conversions, quotients and the repr are ported operation by
// operation and are exact. mpmath.log computes log(x) to prec+20 bits
// and rounds to prec bits; this port computes it to prec+64 bits and
// rounds to nearest, so the two differ only where log(x) lies within
// about 2^-(prec+17) of a rounding midpoint (a chance of about 1 in
// 100,000 per call). Every logarithm in BFCL's data and runs is equal.
// Strings are read as mpmath reads them (decimal literals, fractions,
// "inf", "nan"), but for literals with underscores or complex ones
// ("2+3j"), which give mpmath's "cannot create mpf" error here, and
// exponents past ±400, which this port rounds exactly where mpmath's
// rounding is approximate. A complex argument (no JSON argument is one)
// gives that error too.

// mpfKind tells mpmath's special values apart.
type mpfKind uint8

const (
	mpfFinite mpfKind = iota // nonzero, in f
	mpfZero
	mpfInf
	mpfNInf
	mpfNaN
)

// mpfNum is a raw mpf: a finite nonzero value is held exactly in f.
type mpfNum struct {
	kind mpfKind
	f    *big.Float
}

var (
	mpfZeroV = mpfNum{kind: mpfZero}
	mpfNaNV  = mpfNum{kind: mpfNaN}
)

// mpfSign is mpf_sign: -1, 0 or 1 (nan gives 0).
func mpfSign(x mpfNum) int {
	switch x.kind {
	case mpfFinite:
		return x.f.Sign()
	case mpfInf:
		return 1
	case mpfNInf:
		return -1
	}
	return 0
}

func mpfSpecial(x mpfNum) bool { return x.kind == mpfInf || x.kind == mpfNInf || x.kind == mpfNaN }

func mpfInfOfSign(s int) mpfNum {
	if s > 0 {
		return mpfNum{kind: mpfInf}
	}
	return mpfNum{kind: mpfNInf}
}

// exactFloat holds a big.Float's value with a precision that keeps it
// exact through later exact operations.
func mpNewFloat(prec uint) *big.Float { return new(big.Float).SetPrec(prec).SetMode(big.ToNearestEven) }

func mpfFromFloat(x float64) mpfNum {
	switch {
	case x == 0:
		return mpfZeroV
	case math.IsInf(x, 1):
		return mpfNum{kind: mpfInf}
	case math.IsInf(x, -1):
		return mpfNum{kind: mpfNInf}
	case math.IsNaN(x):
		return mpfNaNV
	}
	return mpfNum{kind: mpfFinite, f: mpNewFloat(53).SetFloat64(x)}
}

func mpfFromInt(x *big.Int) mpfNum {
	if x.Sign() == 0 {
		return mpfZeroV
	}
	bits := uint(x.BitLen())
	return mpfNum{kind: mpfFinite, f: mpNewFloat(bits).SetInt(x)}
}

// mpfRound rounds a finite value to prec bits with the mode.
func mpfRound(f *big.Float, prec uint, mode big.RoundingMode) mpfNum {
	if f.Sign() == 0 {
		return mpfZeroV
	}
	return mpfNum{kind: mpfFinite, f: new(big.Float).SetMode(mode).SetPrec(prec).Set(f)}
}

// mpfMul is mpf_mul without a precision: exact.
func mpfMul(s, t mpfNum) mpfNum {
	if s.kind == mpfFinite && t.kind == mpfFinite {
		return mpfNum{kind: mpfFinite, f: mpNewFloat(s.f.MinPrec()+t.f.MinPrec()+1).Mul(s.f, t.f)}
	}
	if !mpfSpecial(s) && !mpfSpecial(t) {
		return mpfZeroV
	}
	if s.kind == mpfNaN || t.kind == mpfNaN {
		return mpfNaNV
	}
	if mpfSpecial(t) {
		s, t = t, s
	}
	if t.kind == mpfZero {
		return mpfNaNV
	}
	return mpfInfOfSign(mpfSign(s) * mpfSign(t))
}

// mpfNeg is mpf_neg.
func mpfNeg(x mpfNum) mpfNum {
	switch x.kind {
	case mpfFinite:
		return mpfNum{kind: mpfFinite, f: new(big.Float).Neg(x.f)}
	case mpfInf:
		return mpfNum{kind: mpfNInf}
	case mpfNInf:
		return mpfNum{kind: mpfInf}
	}
	return x
}

// mpfAdd is mpf_add(s, t, prec, round_down), the rounding mpmath's
// complex division uses for its intermediate sums.
func mpfAdd(s, t mpfNum, prec uint) mpfNum {
	if s.kind == mpfFinite && t.kind == mpfFinite {
		exact := mpNewFloat(mpAddPrec(s.f, t.f)).Add(s.f, t.f)
		return mpfRound(exact, prec, big.ToZero)
	}
	if s.kind != mpfFinite {
		if mpfSpecial(s) {
			if s.kind == t.kind || t.kind == mpfFinite || t.kind == mpfZero {
				return s
			}
			return mpfNaNV
		}
		if t.kind == mpfFinite {
			return mpfRound(t.f, prec, big.ToZero)
		}
		return t
	}
	if mpfSpecial(t) {
		return t
	}
	return mpfRound(s.f, prec, big.ToZero)
}

// mpAddPrec is a precision that holds s+t exactly.
func mpAddPrec(s, t *big.Float) uint {
	es, et := s.MantExp(nil), t.MantExp(nil)
	lo := min(es-int(s.MinPrec()), et-int(t.MinPrec()))
	hi := max(es, et) + 1
	return uint(hi-lo) + 1
}

// mpfDiv is mpf_div(s, t, prec, round_nearest); ok false is its
// ZeroDivisionError (raised without a message).
func mpfDiv(s, t mpfNum, prec uint) (mpfNum, bool) {
	if s.kind == mpfFinite && t.kind == mpfFinite {
		return mpfNum{kind: mpfFinite, f: new(big.Float).SetMode(big.ToNearestEven).SetPrec(prec).Quo(s.f, t.f)}, true
	}
	if s.kind == mpfZero {
		if t.kind == mpfZero {
			return mpfNum{}, false
		}
		if t.kind == mpfNaN {
			return mpfNaNV, true
		}
		return mpfZeroV, true
	}
	if t.kind == mpfZero {
		return mpfNum{}, false
	}
	if mpfSpecial(s) && mpfSpecial(t) {
		return mpfNaNV, true
	}
	if s.kind == mpfNaN || t.kind == mpfNaN {
		return mpfNaNV, true
	}
	if !mpfSpecial(t) {
		return mpfInfOfSign(mpfSign(s) * mpfSign(t)), true
	}
	return mpfZeroV, true
}

// mpfLog is mpf_log(x, prec, round_nearest) of a nonnegative x (see the
// file comment for its exactness).
func mpfLog(x mpfNum, prec uint) mpfNum {
	switch x.kind {
	case mpfZero:
		return mpfNum{kind: mpfNInf}
	case mpfInf, mpfNaN:
		return x
	}
	if x.f.Cmp(big.NewFloat(1)) == 0 {
		return mpfZeroV
	}
	mant := new(big.Float)
	exp := x.f.MantExp(mant) // x = mant·2^exp, mant in [0.5, 1)
	wp := prec + 64 + uint(mpBits(exp))
	m := mpNewFloat(wp).Set(mant)
	if m.Cmp(big.NewFloat(math.Sqrt2/2)) < 0 {
		m.SetMantExp(m, 1)
		exp--
	}
	r := mpLnSeries(m, wp)
	if exp != 0 {
		l2 := mpLnSeries(mpNewFloat(wp).SetInt64(2), wp)
		r.Add(r, l2.Mul(l2, mpNewFloat(wp).SetInt64(int64(exp))))
	}
	return mpfRound(r, prec, big.ToNearestEven)
}

func mpBits(n int) int {
	if n < 0 {
		n = -n
	}
	b := 0
	for n > 0 {
		b++
		n >>= 1
	}
	return b
}

// mpAtanh is atanh(s) = s + s³/3 + s⁵/5 + … to wp bits (|s| < 1/2).
func mpAtanh(s *big.Float, wp uint) *big.Float {
	sum := mpNewFloat(wp).Set(s)
	s2 := mpNewFloat(wp).Mul(s, s)
	term := mpNewFloat(wp).Set(s)
	t := mpNewFloat(wp)
	for k := int64(3); ; k += 2 {
		term.Mul(term, s2)
		t.Quo(term, mpNewFloat(wp).SetInt64(k))
		if t.Sign() == 0 || t.MantExp(nil) < sum.MantExp(nil)-int(wp)-2 {
			return sum
		}
		sum.Add(sum, t)
	}
}

// mpLnSeries is log(m) of m > 0 to wp bits: k square roots bring m
// near 1 (k about sqrt(wp)/2, fewer where m is near 1 already), then
// log(m) = 2^(k+1)·atanh((m-1)/(m+1)). The roots cost k bits of the
// result's relative precision, and m near 1 the bits of |m-1| below 1:
// both are added as guard bits.
func mpLnSeries(m *big.Float, wp uint) *big.Float {
	one := big.NewFloat(1)
	d := new(big.Float).Sub(m, one)
	if d.Sign() == 0 {
		return mpNewFloat(wp)
	}
	e := d.MantExp(nil)
	k := 0
	if wp > 400 {
		k = max(0, int(math.Sqrt(float64(wp))/2)+min(e, 0))
	}
	hp := wp + uint(k) + uint(max(0, -e)) + 16
	x := mpNewFloat(hp).Set(m)
	for i := 0; i < k; i++ {
		x.Sqrt(x)
	}
	num := mpNewFloat(hp).Sub(x, one)
	den := mpNewFloat(hp).Add(x, one)
	r := mpAtanh(mpNewFloat(hp).Quo(num, den), hp)
	return r.SetMantExp(r, k+1)
}

// mpfPi is mpf_pi(prec, round_nearest): floor(pi·2^(prec+20)) rounded
// to prec bits, as mpmath's constants are made.
func mpfPi(prec uint) mpfNum {
	wp := prec + 20
	hp := wp + 64
	// pi = 16·atan(1/5) - 4·atan(1/239)
	a := mpAtanInv(5, hp)
	a.Mul(a, mpNewFloat(hp).SetInt64(16))
	b := mpAtanInv(239, hp)
	b.Mul(b, mpNewFloat(hp).SetInt64(4))
	pi := mpNewFloat(hp).Sub(a, b)
	fixed, _ := mpNewFloat(hp).SetMantExp(pi, int(wp)).Int(nil) // floor: pi > 0
	return mpfRound(mpNewFloat(uint(fixed.BitLen())+1).SetMantExp(mpNewFloat(uint(fixed.BitLen())+1).SetInt(fixed), -int(wp)), prec, big.ToNearestEven)
}

// mpAtanInv is atan(1/n) to wp bits.
func mpAtanInv(n int64, wp uint) *big.Float {
	x := mpNewFloat(wp).Quo(mpNewFloat(wp).SetInt64(1), mpNewFloat(wp).SetInt64(n))
	x2 := mpNewFloat(wp).Mul(x, x)
	sum := mpNewFloat(wp).Set(x)
	term := mpNewFloat(wp).Set(x)
	t := mpNewFloat(wp)
	for k := int64(3); ; k += 2 {
		term.Mul(term, x2)
		t.Quo(term, mpNewFloat(wp).SetInt64(k))
		if t.Sign() == 0 || t.MantExp(nil) < sum.MantExp(nil)-int(wp)-2 {
			return sum
		}
		if k%4 == 3 {
			sum.Sub(sum, t)
		} else {
			sum.Add(sum, t)
		}
	}
}

// mpPrecToDps is libmpf's prec_to_dps: the decimal digits a precision
// of n bits carries.
func mpPrecToDps(n uint) int {
	return max(1, int(mpPyRound(float64(n)/3.3219280948873626))-1)
}

// mpPyRound is Python's round(x) of a float: halves to even.
func mpPyRound(x float64) float64 { return math.RoundToEven(x) }

func mpReprDps(prec uint) int {
	d := mpPrecToDps(prec)
	if d == 15 {
		return 17
	}
	return d + 3
}

// mpLog2of10 is Python's math.log(10, 2).
const mpLog2of10 = 3.3219280948873626

// mpfToStr is libmpf.to_str(x, dps) with its defaults.
func mpfToStr(x mpfNum, dps int) string {
	switch x.kind {
	case mpfZero:
		if dps != 0 {
			return "0.0"
		}
		return ".0"
	case mpfInf:
		return "+inf"
	case mpfNInf:
		return "-inf"
	case mpfNaN:
		return "nan"
	}
	minFixed := min(-(dps / 3), -5)
	if dps < 0 { // Python's floor division
		minFixed = min(-mpFloorDiv(dps, 3), -5)
	}
	maxFixed := dps
	sign, digits, exponent := mpfDigitsExp(x.f, dps+3)
	if dps == 0 {
		if strings.ContainsRune("56789", rune(digits[0])) {
			exponent++
		}
		digits = ".0"
	} else {
		if len(digits) > dps && strings.ContainsRune("56789", rune(digits[dps])) {
			d := []byte(digits[:dps])
			i := dps - 1
			for i >= 0 && d[i] == '9' {
				i--
			}
			if i >= 0 {
				d[i]++
				for j := i + 1; j < dps; j++ {
					d[j] = '0'
				}
				digits = string(d)
			} else {
				digits = "1" + strings.Repeat("0", dps-1)
				exponent++
			}
		} else if len(digits) > dps {
			digits = digits[:dps]
		}
		split := 1
		if minFixed < exponent && exponent < maxFixed {
			if exponent < 0 {
				digits = strings.Repeat("0", -exponent) + digits
			} else {
				split = exponent + 1
				if split > dps {
					digits += strings.Repeat("0", split-dps)
				}
			}
			exponent = 0
		}
		digits = digits[:split] + "." + digits[split:]
		digits = strings.TrimRight(digits, "0")
		if digits[len(digits)-1] == '.' {
			digits += "0"
		}
	}
	if exponent == 0 && dps != 0 {
		return sign + digits
	}
	if exponent >= 0 {
		return sign + digits + "e+" + strconv.Itoa(exponent)
	}
	return sign + digits + "e" + strconv.Itoa(exponent)
}

func mpFloorDiv(a, b int) int {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// mpfDigitsExp is libmpf.to_digits_exp(x, dps) of a finite nonzero x:
// its decimal digits rounded toward zero and the exponent of the first.
// (mpmath takes another path for |x| beyond 2^3500, which no logarithm
// of a Python int or float reaches.)
func mpfDigitsExp(f *big.Float, dps int) (string, string, int) {
	sign := ""
	if f.Sign() < 0 {
		sign = "-"
	}
	// normalized mpf: x = man·2^exp with man odd, bc its bit count
	man := new(big.Int)
	mant := new(big.Float)
	e := f.MantExp(mant) // |x| = mant·2^e, mant in [0.5, 1)
	p := int(f.MinPrec())
	mant.Abs(mant).SetMantExp(mant, p)
	mant.Int(man)
	exp := e - p
	bc := man.BitLen()
	bitprec := int(float64(dps)*mpLog2of10) + 10
	fixprec := max(bitprec-exp-bc, 0)
	fixdps := int(float64(fixprec)/mpLog2of10 + 0.5)
	sf := new(big.Int)
	if off := exp + fixprec; off >= 0 {
		sf.Lsh(man, uint(off))
	} else {
		sf.Rsh(man, uint(-off))
	}
	sd := new(big.Int).Mul(sf, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(fixdps)), nil))
	sd.Rsh(sd, uint(fixprec))
	digits := sd.String()
	return sign, digits, len(digits) - fixdps - 1
}

// mpfFromString is mpmath's from_str(s, prec, round_nearest): "inf",
// "+inf", "-inf", "nan", a fraction "p/q" of ints, or a decimal literal.
// ok false where mpmath's convert gives up (its "cannot create mpf"
// error); zeroDiv where from_str raises ZeroDivisionError (q is 0).
func mpfFromString(s string, prec uint) (v mpfNum, ok, zeroDiv bool) {
	t := strings.ToLower(strings.TrimSpace(s))
	switch t {
	case "inf", "+inf":
		return mpfNum{kind: mpfInf}, true, false
	case "-inf":
		return mpfNum{kind: mpfNInf}, true, false
	case "nan":
		return mpfNaNV, true, false
	}
	if p, q, found := strings.Cut(t, "/"); found {
		pi, err1 := pyval.ToInt(strings.TrimRight(p, "l"))
		qi, err2 := pyval.ToInt(strings.TrimRight(q, "l"))
		if err1 != nil || err2 != nil || strings.Contains(q, "/") {
			return mpfNum{}, false, false
		}
		r, ok := mpfDiv(mpfFromInt(mpBig(pi)), mpfFromInt(mpBig(qi)), prec)
		return r, ok, !ok
	}
	t = strings.TrimRight(t, "l")
	if !mpDecimalLiteral(t) {
		return mpfNum{}, false, false
	}
	r, ok := new(big.Rat).SetString(t)
	if !ok {
		return mpfNum{}, false, false
	}
	if r.Sign() == 0 {
		return mpfZeroV, true, false
	}
	return mpfNum{kind: mpfFinite, f: new(big.Float).SetMode(big.ToNearestEven).SetPrec(prec).SetRat(r)}, true, false
}

// mpBig is an int value (int64 or *big.Int) as a *big.Int.
func mpBig(v pyval.Value) *big.Int {
	switch x := v.(type) {
	case int64:
		return big.NewInt(x)
	case *big.Int:
		return x
	}
	return new(big.Int)
}

// mpDecimalLiteral is [+-]digits[.digits][e[+-]digits] with a digit
// before or after the point.
func mpDecimalLiteral(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i, digits = i+1, digits+1
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i, digits = i+1, digits+1
		}
	}
	if digits == 0 {
		return false
	}
	if i < len(s) && s[i] == 'e' {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i, n = i+1, n+1
		}
		if n == 0 {
			return false
		}
	}
	return i == len(s)
}

// mpfValue is an mpf as a Python value: its repr uses the precision in
// force when it was made (mpmath reads mp.prec at repr time, and
// BFCL's executor writes the result right after the call that set it).
type mpfValue struct {
	x    mpfNum
	prec uint
}

func (m *mpfValue) ClassName() string { return "mpf" }
func (m *mpfValue) Repr() string {
	return "mpf('" + mpfToStr(m.x, mpReprDps(m.prec)) + "')"
}
func (m *mpfValue) Equal(other pyval.Value) bool {
	o, ok := other.(*mpfValue)
	if !ok || m.x.kind != o.x.kind || m.x.kind == mpfNaN {
		return false
	}
	return m.x.kind != mpfFinite || m.x.f.Cmp(o.x.f) == 0
}
func (m *mpfValue) DeepCopy(map[any]pyval.Value) pyval.Value { return m }
func (m *mpfValue) MarshalState() ([]byte, error) {
	return json.Marshal(mpState{Prec: m.prec, Re: mpfText(m.x)})
}

// mpcValue is an mpc (a logarithm of a negative number).
type mpcValue struct {
	re, im mpfNum
	prec   uint
}

func (m *mpcValue) ClassName() string { return "mpc" }
func (m *mpcValue) Repr() string {
	d := mpReprDps(m.prec)
	return "mpc(real='" + mpfToStr(m.re, d) + "', imag='" + mpfToStr(m.im, d) + "')"
}
func (m *mpcValue) Equal(other pyval.Value) bool {
	o, ok := other.(*mpcValue)
	return ok && (&mpfValue{x: m.re}).Equal(&mpfValue{x: o.re}) && (&mpfValue{x: m.im}).Equal(&mpfValue{x: o.im})
}
func (m *mpcValue) DeepCopy(map[any]pyval.Value) pyval.Value { return m }
func (m *mpcValue) MarshalState() ([]byte, error) {
	return json.Marshal(mpState{Prec: m.prec, Re: mpfText(m.re), Im: mpfText(m.im)})
}

// mpState is an mpf's or mpc's MarshalState: the precision its repr
// uses and each part exactly ("0", "+inf", "-inf", "nan", or a binary
// literal such as "0x.cp+2").
type mpState struct {
	Prec uint   `json:"prec"`
	Re   string `json:"re"`
	Im   string `json:"im,omitempty"`
}

func mpfText(x mpfNum) string {
	switch x.kind {
	case mpfZero:
		return "0"
	case mpfInf:
		return "+inf"
	case mpfNInf:
		return "-inf"
	case mpfNaN:
		return "nan"
	}
	return x.f.Text('p', 0)
}

func mpfParse(s string) (mpfNum, error) {
	switch s {
	case "0":
		return mpfZeroV, nil
	case "+inf":
		return mpfNum{kind: mpfInf}, nil
	case "-inf":
		return mpfNum{kind: mpfNInf}, nil
	case "nan":
		return mpfNaNV, nil
	}
	f, _, err := new(big.Float).SetPrec(1<<20).Parse(s, 0)
	if err != nil || f.Sign() == 0 {
		return mpfNum{}, fmt.Errorf("%q is no mpf value", s)
	}
	return mpfNum{kind: mpfFinite, f: mpNewFloat(f.MinPrec()).Set(f)}, nil
}

func init() {
	pyval.RegisterObject("mpf", func(data []byte) (pyval.Object, error) {
		var st mpState
		if err := json.Unmarshal(data, &st); err != nil {
			return nil, fmt.Errorf("mpf: %w", err)
		}
		x, err := mpfParse(st.Re)
		if err != nil {
			return nil, fmt.Errorf("mpf: %w", err)
		}
		return &mpfValue{x: x, prec: st.Prec}, nil
	})
	pyval.RegisterObject("mpc", func(data []byte) (pyval.Object, error) {
		var st mpState
		if err := json.Unmarshal(data, &st); err != nil {
			return nil, fmt.Errorf("mpc: %w", err)
		}
		re, err := mpfParse(st.Re)
		if err != nil {
			return nil, fmt.Errorf("mpc real: %w", err)
		}
		im, err := mpfParse(st.Im)
		if err != nil {
			return nil, fmt.Errorf("mpc imag: %w", err)
		}
		return &mpcValue{re: re, im: im, prec: st.Prec}, nil
	})
}

// mpNum is the value of an mpmath expression here: an mpf, or an mpc
// where a logarithm's argument was negative.
type mpNum struct {
	re, im  mpfNum
	complex bool
}

// mpLn is mpmath.ln(x) of a converted argument: mpf_log, or mpc_log
// (log|x|, pi) where mpf_log raises ComplexResult (x < 0).
func mpLn(x mpfNum, prec uint) mpNum {
	if mpfSign(x) < 0 {
		return mpNum{re: mpfLog(mpfNeg(x), prec), im: mpfPi(prec), complex: true}
	}
	return mpNum{re: mpfLog(x, prec)}
}

// mpQuo is a / b as mpf and mpc divide (mpf_div, mpc_div_mpf,
// mpc_mpf_div, mpc_div); ok false is ZeroDivisionError.
func mpQuo(a, b mpNum, prec uint) (mpNum, bool) {
	wp := prec + 10
	switch {
	case !a.complex && !b.complex:
		q, ok := mpfDiv(a.re, b.re, prec)
		return mpNum{re: q}, ok
	case !b.complex:
		re, ok := mpfDiv(a.re, b.re, prec)
		if !ok {
			return mpNum{}, false
		}
		im, ok := mpfDiv(a.im, b.re, prec)
		return mpNum{re: re, im: im, complex: true}, ok
	case !a.complex:
		m := mpfAdd(mpfMul(b.re, b.re), mpfMul(b.im, b.im), wp)
		re, ok := mpfDiv(mpfMul(b.re, a.re), m, prec)
		if !ok {
			return mpNum{}, false
		}
		im, ok := mpfDiv(mpfNeg(mpfMul(b.im, a.re)), m, prec)
		return mpNum{re: re, im: im, complex: true}, ok
	}
	mag := mpfAdd(mpfMul(b.re, b.re), mpfMul(b.im, b.im), wp)
	t := mpfAdd(mpfMul(a.re, b.re), mpfMul(a.im, b.im), wp)
	u := mpfAdd(mpfMul(a.im, b.re), mpfNeg(mpfMul(a.re, b.im)), wp)
	re, ok := mpfDiv(t, mag, prec)
	if !ok {
		return mpNum{}, false
	}
	im, ok := mpfDiv(u, mag, prec)
	return mpNum{re: re, im: im, complex: true}, ok
}

// value is the Python value of n made under precision prec.
func (n mpNum) value(prec uint) pyval.Value {
	if n.complex {
		return &mpcValue{re: n.re, im: n.im, prec: prec}
	}
	return &mpfValue{x: n.re, prec: prec}
}
