package classes

import (
	"math"
	"math/big"

	"github.com/parthack/parthack/domains/bfcl/pyval"
)

// MathAPI (math_api.py) is stateless: each method computes over its
// arguments with Python's operators, ported through pyval, so that a
// str, a list or a bool where a number was meant behaves as in Python.
// sum() is Python 3.12's (compensated for floats), the version BFCL's
// official runs were made and scored with. logarithm is mpmath 1.3.0's
// (math_mpf.go: exact but for a chance of about 1 in 100,000 per call
// where log(x) lies next to a rounding midpoint; every call in BFCL's
// data and runs is exact) and square_root is decimal's (math_decimal.go,
// exact). mp.dps and the decimal context's prec, which Python keeps
// between calls, are read only by the call that sets them.
func init() {
	one := func(name string) []Param { return []Param{{Name: name}} }
	two := func(a, b string) []Param { return []Param{{Name: a}, {Name: b}} }
	Register(&Class{
		Name:      "MathAPI",
		Stateless: true,
		Init: func(self *Instance) {
			self.Set("_api_description", "This tool belongs to the Math API, which provides various mathematical operations.")
		},
		Methods: map[string]*Method{
			"logarithm":              {Params: []Param{{Name: "value"}, {Name: "base"}, {Name: "precision"}}, Body: mathLogarithm},
			"mean":                   {Params: one("numbers"), Body: mathMean},
			"standard_deviation":     {Params: one("numbers"), Body: mathStandardDeviation},
			"si_unit_conversion":     {Params: []Param{{Name: "value"}, {Name: "unit_in"}, {Name: "unit_out"}}, Body: mathSIUnitConversion},
			"imperial_si_conversion": {Params: []Param{{Name: "value"}, {Name: "unit_in"}, {Name: "unit_out"}}, Body: mathImperialSIConversion},
			"add":                    {Params: two("a", "b"), Body: mathBinary(pyval.Add, "Both inputs must be numbers")},
			"subtract":               {Params: two("a", "b"), Body: mathBinary(pyval.Sub, "Both inputs must be numbers")},
			"multiply":               {Params: two("a", "b"), Body: mathMultiply},
			"divide":                 {Params: two("a", "b"), Body: mathDivide},
			"power":                  {Params: two("base", "exponent"), Body: mathBinary(pyval.Pow, "Both inputs must be numbers")},
			"square_root":            {Params: two("number", "precision"), Body: mathSquareRoot},
			"absolute_value":         {Params: one("number"), Body: mathAbsoluteValue},
			"round_number":           {Params: []Param{{Name: "number"}, {Name: "decimal_places", Default: int64(0), HasDefault: true}}, Body: mathRoundNumber},
			"percentage":             {Params: two("part", "whole"), Body: mathPercentage},
			"min_value":              {Params: one("numbers"), Body: mathReduce(pyval.Min, "Cannot find minimum of an empty list")},
			"max_value":              {Params: one("numbers"), Body: mathReduce(pyval.Max, "Cannot find maximum of an empty list")},
			"sum_values":             {Params: one("numbers"), Body: mathReduce(pyval.Sum, "Cannot calculate sum of an empty list")},
		},
	})
}

func mathResult(v pyval.Value) *pyval.Dict { return fsResult("result", v) }
func mathError(msg string) *pyval.Dict     { return fsResult("error", msg) }

// isTypeError is `except TypeError:`; other exceptions propagate.
func isTypeError(err error) bool {
	e, ok := err.(*pyval.Exception)
	return ok && e.Type == "TypeError"
}

// caught is a method body's `try: … except TypeError: return {"error":
// msg}` around a computed result.
func caught(v pyval.Value, err error, msg string) (pyval.Value, error) {
	if err != nil {
		if isTypeError(err) {
			return mathError(msg), nil
		}
		return nil, err
	}
	return mathResult(v), nil
}

func mathBinary(op func(a, b pyval.Value) (pyval.Value, error), msg string) func(*Instance, []pyval.Value) (pyval.Value, error) {
	return func(_ *Instance, args []pyval.Value) (pyval.Value, error) {
		v, err := op(args[0], args[1])
		return caught(v, err, msg)
	}
}

// mathReduce is min_value, max_value and sum_values: an empty (falsy)
// argument is refused, a TypeError inside becomes the error message.
func mathReduce(op func(pyval.Value) (pyval.Value, error), empty string) func(*Instance, []pyval.Value) (pyval.Value, error) {
	return func(_ *Instance, args []pyval.Value) (pyval.Value, error) {
		if !pyval.Truth(args[0]) {
			return mathError(empty), nil
		}
		v, err := op(args[0])
		return caught(v, err, "All elements in the list must be numbers")
	}
}

func mathMultiply(_ *Instance, args []pyval.Value) (pyval.Value, error) {
	if !pyval.IsNumber(args[0]) || !pyval.IsNumber(args[1]) {
		return mathError("Both inputs must be numbers"), nil
	}
	v, err := pyval.Mul(args[0], args[1])
	return caught(v, err, "Both inputs must be numbers")
}

func mathDivide(_ *Instance, args []pyval.Value) (pyval.Value, error) {
	if pyval.Equal(args[1], int64(0)) {
		return mathError("Cannot divide by zero"), nil
	}
	v, err := pyval.TrueDiv(args[0], args[1])
	return caught(v, err, "Both inputs must be numbers")
}

func mathAbsoluteValue(_ *Instance, args []pyval.Value) (pyval.Value, error) {
	v, err := pyval.Abs(args[0])
	return caught(v, err, "Input must be a number")
}

func mathRoundNumber(_ *Instance, args []pyval.Value) (pyval.Value, error) {
	v, err := pyval.Round(args[0], args[1])
	return caught(v, err, "First input must be a number, second input must be an integer")
}

func mathPercentage(_ *Instance, args []pyval.Value) (pyval.Value, error) {
	if pyval.Equal(args[1], int64(0)) {
		return mathError("Whole value cannot be zero"), nil
	}
	q, err := pyval.TrueDiv(args[0], args[1])
	if err == nil {
		q, err = pyval.Mul(q, int64(100))
	}
	return caught(q, err, "Both inputs must be numbers")
}

// mathMeanOf is sum(numbers) / len(numbers).
func mathMeanOf(numbers pyval.Value) (pyval.Value, int, error) {
	total, err := pyval.Sum(numbers)
	if err != nil {
		return nil, 0, err
	}
	n, err := pyval.Len(numbers)
	if err != nil {
		return nil, 0, err
	}
	mean, err := pyval.TrueDiv(total, int64(n))
	return mean, n, err
}

func mathMean(_ *Instance, args []pyval.Value) (pyval.Value, error) {
	if !pyval.Truth(args[0]) {
		return mathError("Cannot calculate mean of an empty list"), nil
	}
	mean, _, err := mathMeanOf(args[0])
	return caught(mean, err, "All elements in the list must be numbers")
}

func mathStandardDeviation(_ *Instance, args []pyval.Value) (pyval.Value, error) {
	numbers := args[0]
	if !pyval.Truth(numbers) {
		return mathError("Cannot calculate standard deviation of an empty list"), nil
	}
	sd, err := func() (pyval.Value, error) {
		mean, n, err := mathMeanOf(numbers)
		if err != nil {
			return nil, err
		}
		items, err := pyval.Iter(numbers)
		if err != nil {
			return nil, err
		}
		squares := make([]pyval.Value, len(items))
		for i, x := range items {
			d, err := pyval.Sub(x, mean)
			if err != nil {
				return nil, err
			}
			if squares[i], err = pyval.Pow(d, int64(2)); err != nil {
				return nil, err
			}
		}
		total, err := pyval.Sum(pyval.NewList(squares...))
		if err != nil {
			return nil, err
		}
		variance, err := pyval.TrueDiv(total, int64(n))
		if err != nil {
			return nil, err
		}
		return mathSqrt(variance)
	}()
	return caught(sd, err, "All elements in the list must be numbers")
}

// mathSqrt is math.sqrt(x).
func mathSqrt(x pyval.Value) (pyval.Value, error) {
	f, err := pyval.ToFloat(x)
	if err != nil {
		return nil, err
	}
	if f < 0 {
		return nil, pyval.ValueError("math domain error")
	}
	return math.Sqrt(f), nil
}

func mathSIUnitConversion(_ *Instance, args []pyval.Value) (pyval.Value, error) {
	value, unitIn, unitOut := args[0], args[1], args[2]
	toMeters := pyval.NewDict()
	for _, u := range []pyval.Item{{Key: "km", Value: int64(1000)}, {Key: "m", Value: int64(1)}, {Key: "cm", Value: 0.01},
		{Key: "mm", Value: 0.001}, {Key: "um", Value: 1e-6}, {Key: "nm", Value: 1e-9}} {
		toMeters.Set(u.Key, u.Value)
	}
	fromMeters := pyval.NewDict()
	for _, it := range toMeters.Items() {
		inv, err := pyval.TrueDiv(int64(1), it.Value)
		if err != nil {
			return nil, err
		}
		fromMeters.Set(it.Key, inv)
	}
	if !pyval.IsNumber(value) {
		return mathError("Value must be a number"), nil
	}
	in, err := pyval.In(unitIn, toMeters)
	if err != nil {
		return nil, err
	}
	out := false
	if in {
		if out, err = pyval.In(unitOut, fromMeters); err != nil {
			return nil, err
		}
	}
	if !in || !out {
		return mathError("Conversion from '" + pyval.Str(unitIn) + "' to '" + pyval.Str(unitOut) + "' is not supported"), nil
	}
	f, _ := toMeters.Get(unitIn)
	g, _ := fromMeters.Get(unitOut)
	meters, err := pyval.Mul(value, f)
	if err == nil {
		meters, err = pyval.Mul(meters, g)
	}
	return overflowCaught(meters, err)
}

// overflowCaught is `except OverflowError: return {"error": "Conversion
// resulted in a value too large to represent"}`.
func overflowCaught(v pyval.Value, err error) (pyval.Value, error) {
	if err != nil {
		if e, ok := err.(*pyval.Exception); ok && e.Type == "OverflowError" {
			return mathError("Conversion resulted in a value too large to represent"), nil
		}
		return nil, err
	}
	return mathResult(v), nil
}

// imperialFactors are imperial_si_conversion's conversion dict.
var imperialFactors = map[string]float64{
	"cm_to_in": 0.393701, "in_to_cm": 2.54, "m_to_ft": 3.28084, "ft_to_m": 0.3048,
	"m_to_yd": 1.09361, "yd_to_m": 0.9144, "km_to_miles": 0.621371, "miles_to_km": 1.60934,
	"kg_to_lb": 2.20462, "lb_to_kg": 0.453592, "celsius_to_fahrenheit": 1.8,
	"fahrenheit_to_celsius": 5.0 / 9,
}

func mathImperialSIConversion(_ *Instance, args []pyval.Value) (pyval.Value, error) {
	value, unitIn, unitOut := args[0], args[1], args[2]
	if !pyval.IsNumber(value) {
		return mathError("Value must be a number"), nil
	}
	if pyval.Equal(unitIn, unitOut) {
		return mathResult(value), nil
	}
	factor, ok := imperialFactors[pyval.Str(unitIn)+"_to_"+pyval.Str(unitOut)]
	if !ok {
		return mathError("Conversion from '" + pyval.Str(unitIn) + "' to '" + pyval.Str(unitOut) + "' is not supported"), nil
	}
	var v pyval.Value
	var err error
	switch {
	case pyval.Equal(unitIn, "celsius") && pyval.Equal(unitOut, "fahrenheit"):
		if v, err = pyval.Mul(value, factor); err == nil {
			v, err = pyval.Add(v, int64(32))
		}
	case pyval.Equal(unitIn, "fahrenheit") && pyval.Equal(unitOut, "celsius"):
		if v, err = pyval.Sub(value, int64(32)); err == nil {
			v, err = pyval.Mul(v, factor)
		}
	default:
		v, err = pyval.Mul(value, factor)
	}
	return overflowCaught(v, err)
}

// mathLogarithm is logarithm: mpmath.mp.dps = precision, then
// mpmath.log(value) / mpmath.log(base); any exception is returned as
// {"error": str(e)}.
func mathLogarithm(_ *Instance, args []pyval.Value) (pyval.Value, error) {
	value, base, precision := args[0], args[1], args[2]
	prec, err := mpSetDps(precision)
	if err != nil {
		return mathError(exceptionText(err)), nil
	}
	a, err := mpLnOf(value, prec)
	if err != nil {
		return mathError(exceptionText(err)), nil
	}
	b, err := mpLnOf(base, prec)
	if err != nil {
		return mathError(exceptionText(err)), nil
	}
	q, ok := mpQuo(a, b, prec)
	if !ok {
		return mathError(""), nil // ZeroDivisionError(), raised bare
	}
	return mathResult(q.value(prec)), nil
}

func exceptionText(err error) string {
	if e, ok := err.(*pyval.Exception); ok {
		return e.Msg
	}
	return err.Error()
}

// mpMaxPrec bounds the precision this port computes a logarithm at
// (100,000 digits); mpmath goes further, no model has asked.
const mpMaxPrec = 332196

// mpSetDps is mp.dps = n: prec = max(1, round((int(n)+1)·3.3219…)),
// with the exceptions int() and float arithmetic raise.
func mpSetDps(n pyval.Value) (uint, error) {
	i, err := pyval.ToInt(n)
	if err != nil {
		return 0, err
	}
	i1, err := pyval.Add(i, int64(1))
	if err != nil {
		return 0, err
	}
	f, err := pyval.Mul(i1, 3.3219280948873626)
	if err != nil {
		return 0, err
	}
	r, err := pyval.Round(f, nil)
	if err != nil {
		return 0, err
	}
	p, ok := r.(int64)
	if !ok || p > mpMaxPrec {
		return 0, &pyval.Exception{Type: "MemoryError", Msg: "logarithm: precision beyond what this port computes"}
	}
	return uint(max(1, p)), nil
}

// mpLnOf is mpmath.log(x): x converted as ctx.convert does (an int or a
// float exactly, a str as a decimal literal rounded to prec bits), then
// mpf_log, or mpc_log for a negative x.
func mpLnOf(x pyval.Value, prec uint) (mpNum, error) {
	var v mpfNum
	switch t := x.(type) {
	case bool:
		v = mpfFromInt(big.NewInt(map[bool]int64{false: 0, true: 1}[t]))
	case int64:
		v = mpfFromInt(big.NewInt(t))
	case int:
		v = mpfFromInt(big.NewInt(int64(t)))
	case *big.Int:
		v = mpfFromInt(t)
	case float64:
		v = mpfFromFloat(t)
	case string:
		var ok, zeroDiv bool
		v, ok, zeroDiv = mpfFromString(t, prec)
		if zeroDiv {
			return mpNum{}, pyval.ZeroDivisionError("")
		}
		if !ok {
			return mpNum{}, pyval.TypeError("cannot create mpf from " + pyval.Repr(x))
		}
	default:
		return mpNum{}, pyval.TypeError("cannot create mpf from " + pyval.Repr(x))
	}
	return mpLn(v, prec), nil
}

// mathSquareRoot is square_root: number < 0 refused, then
// getcontext().prec = precision and Decimal(number).sqrt(); TypeError
// and InvalidOperation become the error message.
func mathSquareRoot(_ *Instance, args []pyval.Value) (pyval.Value, error) {
	const msg = "Input must be a number or computation resulted in an invalid operation"
	number, precision := args[0], args[1]
	neg, err := pyval.Compare("<", number, int64(0))
	if err != nil {
		return caught(nil, err, msg)
	}
	if neg {
		return mathError("Cannot calculate square root of a negative number"), nil
	}
	prec, err := decSetPrec(precision)
	if err != nil {
		return caught(nil, err, msg)
	}
	var d decimalNum
	switch t := number.(type) {
	case bool:
		d = decimalFromInt(big.NewInt(map[bool]int64{false: 0, true: 1}[t]))
	case int64:
		d = decimalFromInt(big.NewInt(t))
	case int:
		d = decimalFromInt(big.NewInt(int64(t)))
	case *big.Int:
		d = decimalFromInt(t)
	case float64:
		d = decimalFromFloat(t)
	default:
		return caught(nil, pyval.TypeError("conversion from "+pyval.TypeName(number)+" to Decimal is not supported"), msg)
	}
	return mathResult(&decimalValue{d.sqrt(prec)}), nil
}

// decMaxPrec bounds the precision this port computes a square root at
// (ten million digits); CPython's context allows up to 10^18-1.
const decMaxPrec = 10_000_000

// decSetPrec is getcontext().prec = n: an int (TypeError otherwise) in
// [1, MAX_PREC] (ValueError), fitting a C ssize_t (OverflowError).
func decSetPrec(n pyval.Value) (int, error) {
	var p int64
	switch t := n.(type) {
	case bool:
		if t {
			p = 1
		}
	case int64:
		p = t
	case int:
		p = int64(t)
	case *big.Int:
		if t.IsInt64() {
			p = t.Int64()
		} else {
			return 0, pyval.OverflowError("Python int too large to convert to C ssize_t")
		}
	default:
		return 0, pyval.TypeError("an integer is required")
	}
	if p < 1 || p > 999999999999999999 {
		return 0, pyval.ValueError("valid range for prec is [1, MAX_PREC]")
	}
	if p > decMaxPrec {
		return 0, &pyval.Exception{Type: "MemoryError", Msg: "square_root: precision beyond what this port computes"}
	}
	return int(p), nil
}
