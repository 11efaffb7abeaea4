package pyval

import (
	"fmt"
	"math"
	"math/big"
)

// isInt reports whether v is a Python int (bool included, as Python's
// arithmetic and comparisons take it).
func isInt(v Value) bool {
	switch v.(type) {
	case bool, int64, int, *big.Int:
		return true
	}
	return false
}

// bigOf is an int's value as a *big.Int (a new one, the caller's to
// change).
func bigOf(v Value) *big.Int {
	switch x := v.(type) {
	case bool:
		if x {
			return big.NewInt(1)
		}
		return big.NewInt(0)
	case int64:
		return big.NewInt(x)
	case int:
		return big.NewInt(int64(x))
	case *big.Int:
		return new(big.Int).Set(x)
	}
	return nil
}

// small is an int's value as int64 where it fits.
func small(v Value) (int64, bool) {
	switch x := v.(type) {
	case bool:
		if x {
			return 1, true
		}
		return 0, true
	case int64:
		return x, true
	case int:
		return int64(x), true
	case *big.Int:
		if x.IsInt64() {
			return x.Int64(), true
		}
	}
	return 0, false
}

// normInt gives an int as int64 where it fits, else the *big.Int.
func normInt(b *big.Int) Value {
	if b.IsInt64() {
		return b.Int64()
	}
	return b
}

// intToFloat is float(i) for an int, correctly rounded; OverflowError
// past the float range.
func intToFloat(v Value) (float64, error) {
	if n, ok := small(v); ok && n > -(1<<53) && n < 1<<53 {
		return float64(n), nil
	}
	f, _ := new(big.Float).SetInt(bigOf(v)).Float64()
	if math.IsInf(f, 0) {
		return 0, OverflowError("int too large to convert to float")
	}
	return f, nil
}

// numKind sorts a value for arithmetic: 'i' int, 'f' float, 0 other.
func numKind(v Value) byte {
	if isInt(v) {
		return 'i'
	}
	if _, ok := v.(float64); ok {
		return 'f'
	}
	return 0
}

// floats gives both operands as floats (one at least is a float).
func floats(a, b Value) (float64, float64, error) {
	fa, err := asFloat(a)
	if err != nil {
		return 0, 0, err
	}
	fb, err := asFloat(b)
	return fa, fb, err
}

func asFloat(v Value) (float64, error) {
	if f, ok := v.(float64); ok {
		return f, nil
	}
	return intToFloat(v)
}

// cmpIntFloat compares an int with a float exactly, as Python does
// (-1, 0, 1); ok false when f is NaN.
func cmpIntFloat(i Value, f float64) (int, bool) {
	if math.IsNaN(f) {
		return 0, false
	}
	if math.IsInf(f, 1) {
		return -1, true
	}
	if math.IsInf(f, -1) {
		return 1, true
	}
	bf := new(big.Float).SetInt(bigOf(i))
	return bf.Cmp(new(big.Float).SetFloat64(f)), true
}

// Equal is a == b as Python computes it: numbers by value (1 == 1.0 ==
// True), str, None, lists and tuples element-wise (a list never equals a
// tuple), dicts by their items whatever the order, objects by Equal.
func Equal(a, b Value) bool {
	ka, kb := numKind(a), numKind(b)
	if ka != 0 && kb != 0 {
		switch {
		case ka == 'i' && kb == 'i':
			sa, oka := small(a)
			sb, okb := small(b)
			if oka && okb {
				return sa == sb
			}
			return bigOf(a).Cmp(bigOf(b)) == 0
		case ka == 'f' && kb == 'f':
			return a.(float64) == b.(float64)
		case ka == 'i':
			c, ok := cmpIntFloat(a, b.(float64))
			return ok && c == 0
		default:
			c, ok := cmpIntFloat(b, a.(float64))
			return ok && c == 0
		}
	}
	switch x := a.(type) {
	case nil:
		return b == nil
	case string:
		y, ok := b.(string)
		return ok && x == y
	case *List:
		y, ok := b.(*List)
		return ok && (x == y || seqEqual(x.Items, y.Items))
	case Tuple:
		y, ok := b.(Tuple)
		return ok && seqEqual(x, y)
	case *Dict:
		y, ok := b.(*Dict)
		if !ok {
			return false
		}
		if x == y {
			return true
		}
		if x.Len() != y.Len() {
			return false
		}
		for _, it := range x.items {
			w, found := y.Get(it.Key)
			if !found || !Equal(it.Value, w) {
				return false
			}
		}
		return true
	case Object:
		return x.Equal(b)
	}
	if o, ok := b.(Object); ok {
		return o.Equal(a)
	}
	return false
}

func seqEqual(a, b []Value) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}

// Truth is bool(v).
func Truth(v Value) bool {
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x
	case int64:
		return x != 0
	case int:
		return x != 0
	case *big.Int:
		return x.Sign() != 0
	case float64:
		return x != 0
	case string:
		return x != ""
	case *List:
		return len(x.Items) > 0
	case Tuple:
		return len(x) > 0
	case *Dict:
		return x.Len() > 0
	case interface{ Truth() bool }:
		return x.Truth()
	}
	return true
}

// Compare is a op b for op "<", "<=", ">" or ">=", with Python's
// TypeError "'<' not supported between instances of 'str' and 'int'".
// Lists and tuples compare lexicographically, str by code point.
func Compare(op string, a, b Value) (bool, error) {
	c, err := order(op, a, b)
	if err != nil {
		return false, err
	}
	return c, nil
}

func cmpResult(op string, c int) bool {
	switch op {
	case "<":
		return c < 0
	case "<=":
		return c <= 0
	case ">":
		return c > 0
	case ">=":
		return c >= 0
	}
	return false
}

// swapped is the reflected operator Python tries on the right operand.
var swapped = map[string]string{"<": ">", "<=": ">=", ">": "<", ">=": "<="}

func order(op string, a, b Value) (bool, error) {
	ka, kb := numKind(a), numKind(b)
	if ka != 0 && kb != 0 {
		switch {
		case ka == 'i' && kb == 'i':
			sa, oka := small(a)
			sb, okb := small(b)
			if oka && okb {
				c := 0
				if sa < sb {
					c = -1
				} else if sa > sb {
					c = 1
				}
				return cmpResult(op, c), nil
			}
			return cmpResult(op, bigOf(a).Cmp(bigOf(b))), nil
		case ka == 'f' && kb == 'f':
			x, y := a.(float64), b.(float64)
			switch op {
			case "<":
				return x < y, nil
			case "<=":
				return x <= y, nil
			case ">":
				return x > y, nil
			default:
				return x >= y, nil
			}
		case ka == 'i':
			c, ok := cmpIntFloat(a, b.(float64))
			return ok && cmpResult(op, c), nil
		default:
			c, ok := cmpIntFloat(b, a.(float64))
			return ok && cmpResult(op, -c), nil
		}
	}
	switch x := a.(type) {
	case string:
		if y, ok := b.(string); ok {
			c := 0
			if x < y {
				c = -1
			} else if x > y {
				c = 1
			}
			return cmpResult(op, c), nil
		}
	case *List:
		if y, ok := b.(*List); ok {
			return seqOrder(op, x.Items, y.Items)
		}
	case Tuple:
		if y, ok := b.(Tuple); ok {
			return seqOrder(op, x, y)
		}
	}
	if o, ok := a.(OrderedObject); ok {
		r, ok, err := o.Compare(op, b)
		if err != nil || ok {
			return r, err
		}
	}
	if o, ok := b.(OrderedObject); ok {
		r, ok, err := o.Compare(swapped[op], a)
		if err != nil || ok {
			return r, err
		}
	}
	return false, TypeError(fmt.Sprintf("'%s' not supported between instances of '%s' and '%s'", op, TypeName(a), TypeName(b)))
}

// seqOrder compares sequences as Python does: at the first index whose
// items differ (by ==) those items are compared with op; else lengths.
func seqOrder(op string, a, b []Value) (bool, error) {
	for i := 0; i < len(a) && i < len(b); i++ {
		if !Equal(a[i], b[i]) {
			return order(op, a[i], b[i])
		}
	}
	c := 0
	if len(a) < len(b) {
		c = -1
	} else if len(a) > len(b) {
		c = 1
	}
	return cmpResult(op, c), nil
}
