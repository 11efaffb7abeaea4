package pyval

import (
	"fmt"
	"math"
	"math/big"
	"strings"
)

// maxIntBits bounds the ints arithmetic builds (Python would grind on
// for minutes; here it is a MemoryError).
const maxIntBits = 1 << 24

// maxRepeat bounds a repeated sequence's length ("a" * n).
const maxRepeat = 1 << 26

func unsupported(op string, a, b Value) *Exception {
	return TypeError(fmt.Sprintf("unsupported operand type(s) for %s: '%s' and '%s'", op, TypeName(a), TypeName(b)))
}

// objectOp tries a's operator method then b's reflected one, as Python
// does for objects; ok false when both return NotImplemented.
func objectOp(op string, a, b Value) (Value, bool, error) {
	if o, ok := a.(NumberObject); ok {
		if r, ok, err := o.BinaryOp(op, b, false); err != nil || ok {
			return r, true, err
		}
	}
	if o, ok := b.(NumberObject); ok {
		if r, ok, err := o.BinaryOp(op, a, true); err != nil || ok {
			return r, true, err
		}
	}
	return nil, false, nil
}

// intOp applies an int operation, int64 where no overflow, else big.
func intOp(a, b Value, fast func(x, y int64) (int64, bool), slow func(x, y *big.Int) *big.Int) Value {
	if x, ok := small(a); ok {
		if y, ok := small(b); ok {
			if r, ok := fast(x, y); ok {
				return r
			}
		}
	}
	return normInt(slow(bigOf(a), bigOf(b)))
}

// Add is a + b: numbers, str + str, list + list, tuple + tuple, with
// Python's TypeError texts otherwise.
func Add(a, b Value) (Value, error) {
	ka, kb := numKind(a), numKind(b)
	switch {
	case ka == 'i' && kb == 'i':
		return intOp(a, b, func(x, y int64) (int64, bool) {
			s := x + y
			return s, (s > x) == (y > 0)
		}, func(x, y *big.Int) *big.Int { return x.Add(x, y) }), nil
	case ka != 0 && kb != 0:
		x, y, err := floats(a, b)
		return x + y, err
	}
	if r, ok, err := objectOp("+", a, b); ok {
		return r, err
	}
	switch x := a.(type) {
	case string:
		if y, ok := b.(string); ok {
			return x + y, nil
		}
		return nil, concatError("str", b)
	case *List:
		if y, ok := b.(*List); ok {
			items := make([]Value, 0, len(x.Items)+len(y.Items))
			return &List{Items: append(append(items, x.Items...), y.Items...)}, nil
		}
		return nil, concatError("list", b)
	case Tuple:
		if y, ok := b.(Tuple); ok {
			t := make(Tuple, 0, len(x)+len(y))
			return append(append(t, x...), y...), nil
		}
		return nil, concatError("tuple", b)
	}
	return nil, unsupported("+", a, b)
}

func concatError(kind string, b Value) *Exception {
	return TypeError(fmt.Sprintf("can only concatenate %s (not \"%s\") to %s", kind, TypeName(b), kind))
}

// Sub is a - b.
func Sub(a, b Value) (Value, error) {
	ka, kb := numKind(a), numKind(b)
	switch {
	case ka == 'i' && kb == 'i':
		return intOp(a, b, func(x, y int64) (int64, bool) {
			s := x - y
			return s, (s < x) == (y > 0)
		}, func(x, y *big.Int) *big.Int { return x.Sub(x, y) }), nil
	case ka != 0 && kb != 0:
		x, y, err := floats(a, b)
		return x - y, err
	}
	if r, ok, err := objectOp("-", a, b); ok {
		return r, err
	}
	return nil, unsupported("-", a, b)
}

// Mul is a * b: numbers, and a str, list or tuple repeated by an int.
func Mul(a, b Value) (Value, error) {
	ka, kb := numKind(a), numKind(b)
	switch {
	case ka == 'i' && kb == 'i':
		x, y := bigOf(a), bigOf(b)
		if x.BitLen()+y.BitLen() > maxIntBits {
			return nil, Errorf("MemoryError", "")
		}
		return normInt(x.Mul(x, y)), nil
	case ka != 0 && kb != 0:
		x, y, err := floats(a, b)
		return x * y, err
	}
	if r, ok, err := objectOp("*", a, b); ok {
		return r, err
	}
	if isSeq(a) {
		return repeat(a, b)
	}
	if isSeq(b) {
		return repeat(b, a)
	}
	return nil, unsupported("*", a, b)
}

func isSeq(v Value) bool {
	switch v.(type) {
	case string, *List, Tuple:
		return true
	}
	return false
}

func repeat(seq, n Value) (Value, error) {
	if !isInt(n) {
		return nil, TypeError(fmt.Sprintf("can't multiply sequence by non-int of type '%s'", TypeName(n)))
	}
	k, ok := small(n)
	if !ok {
		return nil, OverflowError("cannot fit 'int' into an index-sized integer")
	}
	if k < 0 {
		k = 0
	}
	switch x := seq.(type) {
	case string:
		if int64(len(x))*k > maxRepeat {
			return nil, Errorf("MemoryError", "")
		}
		return strings.Repeat(x, int(k)), nil
	case *List:
		if int64(len(x.Items))*k > maxRepeat {
			return nil, Errorf("MemoryError", "")
		}
		items := make([]Value, 0, len(x.Items)*int(k))
		for i := int64(0); i < k; i++ {
			items = append(items, x.Items...)
		}
		return &List{Items: items}, nil
	default:
		t := seq.(Tuple)
		if int64(len(t))*k > maxRepeat {
			return nil, Errorf("MemoryError", "")
		}
		out := make(Tuple, 0, len(t)*int(k))
		for i := int64(0); i < k; i++ {
			out = append(out, t...)
		}
		return out, nil
	}
}

// TrueDiv is a / b: ints divide to the correctly rounded float, as
// Python's int true division does.
func TrueDiv(a, b Value) (Value, error) {
	ka, kb := numKind(a), numKind(b)
	switch {
	case ka == 'i' && kb == 'i':
		y := bigOf(b)
		if y.Sign() == 0 {
			return nil, ZeroDivisionError("division by zero")
		}
		if x := bigOf(a); x.Sign() == 0 {
			return math.Copysign(0, float64(y.Sign())), nil
		}
		if x, ok := small(a); ok && x > -(1<<53) && x < 1<<53 {
			if z, ok := small(b); ok && z > -(1<<53) && z < 1<<53 {
				return float64(x) / float64(z), nil
			}
		}
		f, _ := new(big.Rat).SetFrac(bigOf(a), y).Float64()
		if math.IsInf(f, 0) {
			return nil, OverflowError("integer division result too large for a float")
		}
		return f, nil
	case ka != 0 && kb != 0:
		x, y, err := floats(a, b)
		if err != nil {
			return nil, err
		}
		if y == 0 {
			return nil, ZeroDivisionError("float division by zero")
		}
		return x / y, nil
	}
	if r, ok, err := objectOp("/", a, b); ok {
		return r, err
	}
	return nil, unsupported("/", a, b)
}

// FloorDiv is a // b.
func FloorDiv(a, b Value) (Value, error) {
	ka, kb := numKind(a), numKind(b)
	switch {
	case ka == 'i' && kb == 'i':
		y := bigOf(b)
		if y.Sign() == 0 {
			return nil, ZeroDivisionError("integer division or modulo by zero")
		}
		q, _ := floorDivMod(bigOf(a), y)
		return normInt(q), nil
	case ka != 0 && kb != 0:
		x, y, err := floats(a, b)
		if err != nil {
			return nil, err
		}
		if y == 0 {
			return nil, ZeroDivisionError("float floor division by zero")
		}
		q, _ := floatDivMod(x, y)
		return q, nil
	}
	if r, ok, err := objectOp("//", a, b); ok {
		return r, err
	}
	return nil, unsupported("//", a, b)
}

// Mod is a % b for numbers (the result takes the divisor's sign).
func Mod(a, b Value) (Value, error) {
	ka, kb := numKind(a), numKind(b)
	switch {
	case ka == 'i' && kb == 'i':
		y := bigOf(b)
		if y.Sign() == 0 {
			return nil, ZeroDivisionError("integer modulo by zero")
		}
		_, m := floorDivMod(bigOf(a), y)
		return normInt(m), nil
	case ka != 0 && kb != 0:
		x, y, err := floats(a, b)
		if err != nil {
			return nil, err
		}
		if y == 0 {
			return nil, ZeroDivisionError("float modulo")
		}
		_, m := floatDivMod(x, y)
		return m, nil
	}
	if r, ok, err := objectOp("%", a, b); ok {
		return r, err
	}
	if s, ok := a.(string); ok {
		return PercentFormat(s, b)
	}
	return nil, unsupported("%", a, b)
}

func floorDivMod(x, y *big.Int) (*big.Int, *big.Int) {
	q, m := new(big.Int).QuoRem(x, y, new(big.Int))
	if m.Sign() != 0 && (m.Sign() < 0) != (y.Sign() < 0) {
		q.Sub(q, big.NewInt(1))
		m.Add(m, y)
	}
	return q, m
}

// floatDivMod is CPython's float_divmod.
func floatDivMod(vx, wx float64) (float64, float64) {
	mod := math.Mod(vx, wx)
	div := (vx - mod) / wx
	if mod != 0 {
		if (wx < 0) != (mod < 0) {
			mod += wx
			div -= 1
		}
	} else {
		mod = math.Copysign(0, wx)
	}
	var floordiv float64
	if div != 0 {
		floordiv = math.Floor(div)
		if div-floordiv > 0.5 {
			floordiv += 1
		}
	} else {
		floordiv = math.Copysign(0, vx/wx)
	}
	return floordiv, mod
}

// Pow is a ** b. An int to a non-negative int power is exact; a float
// power is correctly rounded (as glibc's pow, which CPython calls, is
// in all but rare cases); a negative float to a fractional power is a
// Complex, as in Python 3.
func Pow(a, b Value) (Value, error) {
	ka, kb := numKind(a), numKind(b)
	switch {
	case ka == 'i' && kb == 'i':
		y := bigOf(b)
		if y.Sign() >= 0 {
			x := bigOf(a)
			if x.CmpAbs(big.NewInt(1)) <= 0 {
				if x.Sign() < 0 && y.Bit(0) == 0 {
					return int64(1), nil
				}
				if y.Sign() == 0 {
					return int64(1), nil
				}
				return normInt(x), nil
			}
			if !y.IsInt64() || int64(x.BitLen())*y.Int64() > maxIntBits {
				return nil, Errorf("MemoryError", "")
			}
			return normInt(x.Exp(x, y, nil)), nil
		}
		x, yf, err := floats(a, b)
		if err != nil {
			return nil, err
		}
		return floatPow(x, yf)
	case ka != 0 && kb != 0:
		x, y, err := floats(a, b)
		if err != nil {
			return nil, err
		}
		return floatPow(x, y)
	}
	if r, ok, err := objectOp("**", a, b); ok {
		return r, err
	}
	return nil, unsupported("** or pow()", a, b)
}

func isOddInteger(x float64) bool {
	return math.Mod(x, 2) == 1 || math.Mod(x, 2) == -1
}

// floatPow is CPython's float_pow.
func floatPow(iv, iw float64) (Value, error) {
	switch {
	case iw == 0:
		return 1.0, nil
	case math.IsNaN(iv):
		return iv, nil
	case math.IsNaN(iw):
		if iv == 1 {
			return 1.0, nil
		}
		return iw, nil
	case math.IsInf(iw, 0):
		iv = math.Abs(iv)
		if iv == 1 {
			return 1.0, nil
		}
		if (iw > 0) == (iv > 1) {
			return math.Abs(iw), nil
		}
		return 0.0, nil
	case math.IsInf(iv, 0):
		odd := isOddInteger(iw)
		if iw > 0 {
			if odd {
				return iv, nil
			}
			return math.Abs(iv), nil
		}
		if odd {
			return math.Copysign(0, iv), nil
		}
		return 0.0, nil
	case iv == 0:
		odd := isOddInteger(iw)
		if iw < 0 {
			return nil, ZeroDivisionError("0.0 cannot be raised to a negative power")
		}
		if odd {
			return iv, nil
		}
		return 0.0, nil
	}
	negate := false
	if iv < 0 {
		if iw != math.Floor(iw) {
			return complexPow(Complex{Re: iv}, Complex{Re: iw})
		}
		iv = -iv
		negate = isOddInteger(iw)
	}
	if iv == 1 {
		if negate {
			return -1.0, nil
		}
		return 1.0, nil
	}
	r := powRounded(iv, iw)
	if negate {
		r = -r
	}
	if math.IsInf(r, 0) {
		return nil, OverflowError("(34, 'Numerical result out of range')")
	}
	return r, nil
}

// powRounded is x**y for x > 0, correctly rounded as the C library's
// pow (nearly always) is.
func powRounded(x, y float64) float64 {
	if math.IsInf(x, 0) || math.IsInf(y, 0) || math.IsNaN(x) || math.IsNaN(y) {
		return math.Pow(x, y)
	}
	if y != math.Trunc(y) || math.Abs(y) > 4096 {
		return powFloat(x, y)
	}
	n := int64(math.Abs(y))
	prec := uint(53*n + 64)
	base := new(big.Float).SetPrec(prec).SetFloat64(x)
	acc := new(big.Float).SetPrec(prec).SetInt64(1)
	for i := n; i > 0; i >>= 1 {
		if i&1 == 1 {
			acc.Mul(acc, base)
		}
		base.Mul(base, base)
	}
	if y < 0 {
		acc = new(big.Float).SetPrec(200).Quo(new(big.Float).SetPrec(200).SetInt64(1), acc)
	}
	f, _ := acc.Float64()
	return f
}

// Neg is -a.
func Neg(a Value) (Value, error) {
	switch x := a.(type) {
	case float64:
		return -x, nil
	case NumberObject:
		return x.Unary("-")
	}
	if isInt(a) {
		if n, ok := small(a); ok && n != math.MinInt64 {
			return -n, nil
		}
		b := bigOf(a)
		return normInt(b.Neg(b)), nil
	}
	return nil, TypeError(fmt.Sprintf("bad operand type for unary -: '%s'", TypeName(a)))
}

// Abs is abs(a).
func Abs(a Value) (Value, error) {
	switch x := a.(type) {
	case float64:
		return math.Abs(x), nil
	case NumberObject:
		return x.Unary("abs")
	}
	if isInt(a) {
		if n, ok := small(a); ok && n != math.MinInt64 {
			if n < 0 {
				n = -n
			}
			return n, nil
		}
		b := bigOf(a)
		return normInt(b.Abs(b)), nil
	}
	return nil, TypeError(fmt.Sprintf("bad operand type for abs(): '%s'", TypeName(a)))
}
