package pyval

import (
	"encoding/json"
	"math"
	"strings"
)

// Complex is a Python complex, the result of a negative float raised to
// a fractional power (MathAPI.power).
type Complex struct{ Re, Im float64 }

// ClassName is "complex".
func (c Complex) ClassName() string { return "complex" }

// Repr is repr(c): "(1.7319121124709868e-16+2.8284271247461903j)",
// "(1+1j)", or "2j" when the real part is +0.
func (c Complex) Repr() string {
	im := complexPart(c.Im)
	if c.Re == 0 && !math.Signbit(c.Re) {
		return im + "j"
	}
	if !math.Signbit(c.Im) || math.IsNaN(c.Im) {
		im = "+" + im
	}
	return "(" + complexPart(c.Re) + im + "j)"
}

// complexPart is a complex component's repr: a float's without the ".0"
// of an integral value.
func complexPart(x float64) string {
	return strings.TrimSuffix(FloatRepr(x), ".0")
}

// Equal is c == other.
func (c Complex) Equal(other Value) bool {
	switch o := other.(type) {
	case Complex:
		return c.Re == o.Re && c.Im == o.Im
	case float64:
		return c.Im == 0 && c.Re == o
	}
	if isInt(other) {
		f, err := intToFloat(other)
		return err == nil && c.Im == 0 && c.Re == f
	}
	return false
}

// HashKey keys a complex with a zero imaginary part as its real part.
func (c Complex) HashKey() string {
	if c.Im == 0 {
		h, _ := HashKey(c.Re)
		return h
	}
	return "c" + FloatRepr(c.Re) + "," + FloatRepr(c.Im)
}

// DeepCopy is c (complex is immutable).
func (c Complex) DeepCopy(map[any]Value) Value { return c }

// MarshalState is [re, im] as float reprs.
func (c Complex) MarshalState() ([]byte, error) {
	return json.Marshal([]string{FloatRepr(c.Re), FloatRepr(c.Im)})
}

func init() {
	RegisterObject("complex", func(data []byte) (Object, error) {
		var parts []string
		if err := json.Unmarshal(data, &parts); err != nil || len(parts) != 2 {
			return nil, ValueError("complex: want [re, im] float reprs")
		}
		re, err := parseFloatRepr(parts[0])
		if err != nil {
			return nil, err
		}
		im, err := parseFloatRepr(parts[1])
		if err != nil {
			return nil, err
		}
		return Complex{Re: re, Im: im}, nil
	})
}

// complexPow is CPython's _Py_c_pow for a complex base and exponent.
func complexPow(a, b Complex) (Value, error) {
	switch {
	case b.Re == 0 && b.Im == 0:
		return Complex{Re: 1}, nil
	case a.Re == 0 && a.Im == 0:
		if b.Im != 0 || b.Re < 0 {
			return nil, ZeroDivisionError("0.0 to a negative or complex power")
		}
		return Complex{}, nil
	}
	vabs := math.Hypot(a.Re, a.Im)
	if a.Im != 0 && a.Re != 0 {
		// hypot correctly rounded, as glibc's is.
		h := newBig().Add(newBig().Mul(bigOfFloat(a.Re), bigOfFloat(a.Re)), newBig().Mul(bigOfFloat(a.Im), bigOfFloat(a.Im)))
		vabs = toFloat64(h.Sqrt(h))
	}
	l := powRounded(vabs, b.Re)
	at := math.Atan2(a.Im, a.Re)
	phase := at * b.Re
	if b.Im != 0 {
		l /= math.Exp(at * b.Im)
		phase += b.Im * math.Log(vabs)
	}
	sin, cos := sinCos(phase)
	r := Complex{Re: l * cos, Im: l * sin}
	if math.IsInf(r.Re, 0) || math.IsInf(r.Im, 0) {
		return nil, OverflowError("complex exponentiation")
	}
	return r, nil
}
