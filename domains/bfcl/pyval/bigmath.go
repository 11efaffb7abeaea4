package pyval

import (
	"math"
	"math/big"
)

// Correctly rounded pow, sin and cos, computed in 256-bit binary floating
// point and rounded once, so that results agree with the C library
// CPython calls (glibc's, accurate to the last bit in all but rare
// cases), where Go's math package may differ in the last bit.

const bigPrec = 256

func newBig() *big.Float { return new(big.Float).SetPrec(bigPrec) }

func bigOfFloat(x float64) *big.Float { return newBig().SetFloat64(x) }

// bigAtanhSeries is 2*atanh(t) = 2*(t + t^3/3 + t^5/5 + ...), |t| <= 1/3.
func bigAtanhSeries(t *big.Float) *big.Float {
	sum := newBig().Set(t)
	t2 := newBig().Mul(t, t)
	pow := newBig().Set(t)
	eps := new(big.Float).SetMantExp(big.NewFloat(1), -bigPrec-8)
	for k := int64(3); ; k += 2 {
		pow.Mul(pow, t2)
		term := newBig().Quo(pow, newBig().SetInt64(k))
		sum.Add(sum, term)
		if new(big.Float).Abs(term).Cmp(eps) < 0 {
			break
		}
	}
	return sum.Mul(sum, newBig().SetInt64(2))
}

var bigLn2 = func() *big.Float {
	return bigAtanhSeries(newBig().Quo(newBig().SetInt64(1), newBig().SetInt64(3)))
}()

// bigLog is ln(x) for x > 0.
func bigLog(x *big.Float) *big.Float {
	m := newBig()
	e := x.MantExp(m) // x = m × 2^e, m in [0.5, 1)
	if m.Cmp(newBig().SetFloat64(math.Sqrt2/2)) < 0 {
		m.SetMantExp(m, 1)
		e--
	}
	// ln m = 2 atanh((m-1)/(m+1)), m in [0.707, 1.414)
	num := newBig().Sub(m, newBig().SetInt64(1))
	den := newBig().Add(m, newBig().SetInt64(1))
	r := bigAtanhSeries(newBig().Quo(num, den))
	return r.Add(r, newBig().Mul(bigLn2, newBig().SetInt64(int64(e))))
}

// bigExp is e^z for a z whose result is within float range (or near).
func bigExp(z *big.Float) *big.Float {
	// z = k ln2 + r, |r| <= ln2/2; e^r by Taylor after halving s times.
	kf := newBig().Quo(z, bigLn2)
	k, _ := kf.Float64()
	ki := int64(math.Round(k))
	r := newBig().Sub(z, newBig().Mul(bigLn2, newBig().SetInt64(ki)))
	const s = 16
	r.SetMantExp(r, -s)
	sum := newBig().SetInt64(1)
	term := newBig().SetInt64(1)
	eps := new(big.Float).SetMantExp(big.NewFloat(1), -bigPrec-8)
	for n := int64(1); ; n++ {
		term.Mul(term, r)
		term.Quo(term, newBig().SetInt64(n))
		sum.Add(sum, term)
		if new(big.Float).Abs(term).Cmp(eps) < 0 {
			break
		}
	}
	for i := 0; i < s; i++ {
		sum.Mul(sum, sum)
	}
	return sum.SetMantExp(sum, int(ki))
}

// toFloat64 rounds a big float to the nearest float64 (subnormals and
// overflow to ±Inf included).
func toFloat64(x *big.Float) float64 {
	f, _ := x.Float64()
	return f
}

// powFloat is pow(x, y) for x > 0 finite, y finite and not integral.
func powFloat(x, y float64) float64 {
	if x == 1 {
		return 1
	}
	l := bigLog(bigOfFloat(x))
	z := l.Mul(l, bigOfFloat(y))
	if zf, _ := z.Float64(); zf > 710 {
		return math.Inf(1)
	} else if zf < -746 {
		return 0
	}
	return toFloat64(bigExp(z))
}

var bigPi = func() *big.Float {
	// Machin: π = 16 atan(1/5) - 4 atan(1/239).
	atanInv := func(n int64) *big.Float {
		x := newBig().Quo(newBig().SetInt64(1), newBig().SetInt64(n))
		x2 := newBig().Mul(x, x)
		sum := newBig().Set(x)
		pow := newBig().Set(x)
		eps := new(big.Float).SetMantExp(big.NewFloat(1), -bigPrec-8)
		for k := int64(3); ; k += 2 {
			pow.Mul(pow, x2)
			term := newBig().Quo(pow, newBig().SetInt64(k))
			if (k/2)%2 == 1 {
				sum.Sub(sum, term)
			} else {
				sum.Add(sum, term)
			}
			if term.Cmp(eps) < 0 {
				break
			}
		}
		return sum
	}
	a := atanInv(5)
	a.Mul(a, newBig().SetInt64(16))
	b := atanInv(239)
	b.Mul(b, newBig().SetInt64(4))
	return a.Sub(a, b)
}()

// sinCos gives correctly rounded sin(x) and cos(x) for finite |x| < 2^60
// (beyond, Go's math is used: the reduction would need more digits of π).
func sinCos(x float64) (float64, float64) {
	if math.Abs(x) > 1<<60 {
		return math.Sin(x), math.Cos(x)
	}
	if x == 0 {
		return x, 1
	}
	halfPi := newBig().Quo(bigPi, newBig().SetInt64(2))
	bx := bigOfFloat(x)
	qf, _ := newBig().Quo(bx, halfPi).Float64()
	q := int64(math.Round(qf))
	r := newBig().Sub(bx, newBig().Mul(halfPi, newBig().SetInt64(q)))
	r2 := newBig().Mul(r, r)
	eps := new(big.Float).SetMantExp(big.NewFloat(1), -bigPrec-8)
	series := func(start *big.Float, k0 int64) *big.Float {
		sum := newBig().Set(start)
		term := newBig().Set(start)
		for k := k0; ; k += 2 {
			term.Mul(term, r2)
			term.Quo(term, newBig().SetInt64(k*(k+1)))
			term.Neg(term)
			sum.Add(sum, term)
			if new(big.Float).Abs(term).Cmp(eps) < 0 {
				break
			}
		}
		return sum
	}
	s := series(r, 2)                    // sin r
	c := series(newBig().SetInt64(1), 1) // cos r
	switch ((q % 4) + 4) % 4 {
	case 0:
		return toFloat64(s), toFloat64(c)
	case 1:
		return toFloat64(c), -toFloat64(s)
	case 2:
		return -toFloat64(s), -toFloat64(c)
	default:
		return -toFloat64(c), toFloat64(s)
	}
}
