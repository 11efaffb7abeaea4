package pyval

import (
	"fmt"
	"math"
	"strings"
	"unicode/utf8"
)

// Len is len(v): TypeError "object of type 'int' has no len()".
func Len(v Value) (int, error) {
	switch x := v.(type) {
	case string:
		return utf8.RuneCountInString(x), nil
	case *List:
		return len(x.Items), nil
	case Tuple:
		return len(x), nil
	case *Dict:
		return x.Len(), nil
	case interface{ Len() int }:
		return x.Len(), nil
	}
	return 0, TypeError(fmt.Sprintf("object of type '%s' has no len()", TypeName(v)))
}

// Iter is list(v): a str's characters, a list's or tuple's items, a
// dict's keys; TypeError "'int' object is not iterable".
func Iter(v Value) ([]Value, error) {
	switch x := v.(type) {
	case string:
		out := make([]Value, 0, len(x))
		for _, r := range x {
			out = append(out, string(r))
		}
		return out, nil
	case *List:
		return append([]Value(nil), x.Items...), nil
	case Tuple:
		return append([]Value(nil), x...), nil
	case *Dict:
		return x.Keys(), nil
	case interface{ Iter() ([]Value, error) }:
		return x.Iter()
	}
	return nil, TypeError(fmt.Sprintf("'%s' object is not iterable", TypeName(v)))
}

// In is x in container: substring for str, == membership for lists and
// tuples, key membership for dicts, with Python's TypeErrors.
func In(x, container Value) (bool, error) {
	switch c := container.(type) {
	case string:
		s, ok := x.(string)
		if !ok {
			return false, TypeError(fmt.Sprintf("'in <string>' requires string as left operand, not %s", TypeName(x)))
		}
		return strings.Contains(c, s), nil
	case *List:
		return contains(c.Items, x), nil
	case Tuple:
		return contains(c, x), nil
	case *Dict:
		i, err := c.find(x)
		return i >= 0, err
	case interface{ Contains(Value) (bool, error) }:
		return c.Contains(x)
	}
	return false, TypeError(fmt.Sprintf("argument of type '%s' is not iterable", TypeName(container)))
}

func contains(items []Value, x Value) bool {
	for _, e := range items {
		if Equal(e, x) {
			return true
		}
	}
	return false
}

// index resolves a sequence index as Python does (negative from the end),
// with its IndexError and TypeError texts.
func index(kind string, n int, key Value) (int, error) {
	if !isInt(key) {
		if kind == "str" { // CPython words a str's own way
			return 0, TypeError(fmt.Sprintf("string indices must be integers, not '%s'", TypeName(key)))
		}
		return 0, TypeError(fmt.Sprintf("%s indices must be integers or slices, not %s", kind, TypeName(key)))
	}
	i, ok := small(key)
	if ok && i < 0 {
		i += int64(n)
	}
	if !ok || i < 0 || i >= int64(n) {
		what := kind
		if kind == "str" {
			what = "string"
		}
		return 0, IndexError(what + " index out of range")
	}
	return int(i), nil
}

// GetItem is container[key] for a dict, list, tuple or str, with Python's
// KeyError, IndexError and TypeError texts ("'int' object is not
// subscriptable").
func GetItem(container, key Value) (Value, error) {
	switch c := container.(type) {
	case *Dict:
		return c.GetItem(key)
	case *List:
		i, err := index("list", len(c.Items), key)
		if err != nil {
			return nil, err
		}
		return c.Items[i], nil
	case Tuple:
		i, err := index("tuple", len(c), key)
		if err != nil {
			return nil, err
		}
		return c[i], nil
	case string:
		rs := []rune(c)
		i, err := index("str", len(rs), key)
		if err != nil {
			return nil, err
		}
		return string(rs[i]), nil
	}
	return nil, TypeError(fmt.Sprintf("'%s' object is not subscriptable", TypeName(container)))
}

// SetItem is container[key] = v for a dict or list.
func SetItem(container, key, v Value) error {
	switch c := container.(type) {
	case *Dict:
		return c.SetItem(key, v)
	case *List:
		i, err := index("list", len(c.Items), key)
		if err != nil {
			if e, ok := err.(*Exception); ok && e.Type == "IndexError" {
				return IndexError("list assignment index out of range")
			}
			return err
		}
		c.Items[i] = v
		return nil
	}
	return TypeError(fmt.Sprintf("'%s' object does not support item assignment", TypeName(container)))
}

// DelItem is del container[key] for a dict or list.
func DelItem(container, key Value) error {
	switch c := container.(type) {
	case *Dict:
		return c.DelItem(key)
	case *List:
		i, err := index("list", len(c.Items), key)
		if err != nil {
			if e, ok := err.(*Exception); ok && e.Type == "IndexError" {
				return IndexError("list assignment index out of range")
			}
			return err
		}
		c.Items = append(c.Items[:i], c.Items[i+1:]...)
		return nil
	}
	return TypeError(fmt.Sprintf("'%s' object doesn't support item deletion", TypeName(container)))
}

// Sum is sum(iterable) as Python 3.12 computes it (builtin_sum_impl):
// ints added exactly while they fit 64 bits; from the first float on,
// floats added with Neumaier's compensated summation (ints in that
// stretch uncompensated) until another kind of item; the rest by Add
// (TypeError "unsupported operand type(s) for +: 'int' and 'str'").
// Python 3.11 adds floats plainly; see SumPlain.
func Sum(iterable Value) (Value, error) {
	items, err := Iter(iterable)
	if err != nil {
		return nil, err
	}
	i := 0
	var acc int64
	var result Value
	for ; i < len(items); i++ {
		if n, ok := small(items[i]); ok && isInt(items[i]) {
			if s := acc + n; (s > acc) == (n > 0) {
				acc = s
				continue
			}
		}
		break
	}
	result = acc
	if i == len(items) {
		return result, nil
	}
	if result, err = Add(result, items[i]); err != nil {
		return nil, err
	}
	i++
	if f, ok := result.(float64); ok {
		c := 0.0
		for ; i < len(items); i++ {
			if x, ok := items[i].(float64); ok {
				t := f + x
				if math.Abs(f) >= math.Abs(x) {
					c += (f - t) + x
				} else {
					c += (x - t) + f
				}
				f = t
				continue
			}
			if n, ok := small(items[i]); ok && isInt(items[i]) {
				f += float64(n)
				continue
			}
			break
		}
		if c != 0 && !math.IsInf(c, 0) && !math.IsNaN(c) {
			f += c
		}
		result = f
	}
	for ; i < len(items); i++ {
		if result, err = Add(result, items[i]); err != nil {
			return nil, err
		}
	}
	return result, nil
}

// SumPlain is sum(iterable) as Python 3.11 and earlier compute it (floats
// added left to right, uncompensated).
func SumPlain(iterable Value) (Value, error) {
	items, err := Iter(iterable)
	if err != nil {
		return nil, err
	}
	var result Value = int64(0)
	for _, x := range items {
		if result, err = Add(result, x); err != nil {
			return nil, err
		}
	}
	return result, nil
}

// Min is min(iterable): ValueError "min() arg is an empty sequence",
// comparisons by "<" keeping the first of equal items.
func Min(iterable Value) (Value, error) { return extreme("min", "<", iterable) }

// Max is max(iterable), comparisons by ">".
func Max(iterable Value) (Value, error) { return extreme("max", ">", iterable) }

func extreme(name, op string, iterable Value) (Value, error) {
	items, err := Iter(iterable)
	if err != nil {
		return nil, err
	}
	if len(items) == 0 {
		return nil, ValueError(name + "() arg is an empty sequence")
	}
	best := items[0]
	for _, x := range items[1:] {
		better, err := Compare(op, x, best)
		if err != nil {
			return nil, err
		}
		if better {
			best = x
		}
	}
	return best, nil
}

// Sorted is sorted(iterable): a new list, stable, ordered by "<" with
// the comparisons CPython's list.sort makes for short lists (binary
// insertion after its first run), so a mixed list fails with the same
// TypeError text Python gives.
func Sorted(iterable Value) (*List, error) {
	items, err := Iter(iterable)
	if err != nil {
		return nil, err
	}
	l := &List{Items: items}
	return l, l.Sort(false)
}

// IsNumber is isinstance(v, (int, float)).
func IsNumber(v Value) bool { return numKind(v) != 0 }

// Slice is v[start:stop:step] for a str, list or tuple; nil bounds are
// None. TypeError "slice indices must be integers or None or have an
// __index__ method", ValueError "slice step cannot be zero", and "'int'
// object is not subscriptable" as Python gives them.
func Slice(v, start, stop, step Value) (Value, error) {
	var n int
	switch x := v.(type) {
	case string:
		n = utf8.RuneCountInString(x)
	case *List:
		n = len(x.Items)
	case Tuple:
		n = len(x)
	default:
		return nil, TypeError(fmt.Sprintf("'%s' object is not subscriptable", TypeName(v)))
	}
	idx := func(b Value) (int64, bool, error) {
		if b == nil {
			return 0, false, nil
		}
		if !isInt(b) {
			return 0, false, TypeError("slice indices must be integers or None or have an __index__ method")
		}
		if i, ok := small(b); ok {
			return i, true, nil
		}
		if bigOf(b).Sign() < 0 {
			return math.MinInt64, true, nil
		}
		return math.MaxInt64, true, nil
	}
	st, haveStep, err := idx(step)
	if err != nil {
		return nil, err
	}
	if !haveStep {
		st = 1
	}
	if st == 0 {
		return nil, ValueError("slice step cannot be zero")
	}
	lo, haveLo, err := idx(start)
	if err != nil {
		return nil, err
	}
	hi, haveHi, err := idx(stop)
	if err != nil {
		return nil, err
	}
	ln := int64(n)
	adjust := func(i int64, have bool, def int64) int64 {
		if !have {
			return def
		}
		if i < 0 {
			i += ln
			if i < 0 {
				if st < 0 {
					return -1
				}
				return 0
			}
		} else if i >= ln {
			if st < 0 {
				return ln - 1
			}
			return ln
		}
		return i
	}
	var picks []int
	if st > 0 {
		for i := adjust(lo, haveLo, 0); i < adjust(hi, haveHi, ln); i += st {
			picks = append(picks, int(i))
		}
	} else {
		for i := adjust(lo, haveLo, ln-1); i > adjust(hi, haveHi, -1); i += st {
			picks = append(picks, int(i))
		}
	}
	switch x := v.(type) {
	case string:
		rs := []rune(x)
		out := make([]rune, len(picks))
		for k, i := range picks {
			out[k] = rs[i]
		}
		return string(out), nil
	case *List:
		out := make([]Value, len(picks))
		for k, i := range picks {
			out[k] = x.Items[i]
		}
		return &List{Items: out}, nil
	default:
		t := v.(Tuple)
		out := make(Tuple, len(picks))
		for k, i := range picks {
			out[k] = t[i]
		}
		return out, nil
	}
}
