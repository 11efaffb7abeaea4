package pyval

import (
	"fmt"
	"maps"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// Dict is a Python dict: insertion-ordered, its keys compared as Python
// hashes and compares them (1, 1.0 and True are one key; assigning to an
// existing key keeps the key object first stored, as Python does).
type Dict struct {
	items []Item
	index map[string]int // HashKey → position in items
}

// NewDict makes an empty dict.
func NewDict() *Dict { return &Dict{} }

// DictOf makes a dict of the items in order, a later item replacing the
// value of an equal earlier key as dict literals do. It panics on an
// unhashable key (a caller's bug, not a Python error).
func DictOf(items ...Item) *Dict {
	d := NewDict()
	for _, it := range items {
		d.Set(it.Key, it.Value)
	}
	return d
}

// Len is len(d).
func (d *Dict) Len() int { return len(d.items) }

// Items are the dict's items in order; callers must not modify the slice.
func (d *Dict) Items() []Item { return d.items }

// Keys are list(d.keys()).
func (d *Dict) Keys() []Value {
	out := make([]Value, len(d.items))
	for i, it := range d.items {
		out[i] = it.Key
	}
	return out
}

// Values are list(d.values()).
func (d *Dict) Values() []Value {
	out := make([]Value, len(d.items))
	for i, it := range d.items {
		out[i] = it.Value
	}
	return out
}

func (d *Dict) find(k Value) (int, error) {
	h, err := HashKey(k)
	if err != nil {
		return -1, err
	}
	if i, ok := d.index[h]; ok {
		return i, nil
	}
	return -1, nil
}

// Get is d[k] for a present key; false when k is absent or unhashable.
func (d *Dict) Get(k Value) (Value, bool) {
	i, err := d.find(k)
	if err != nil || i < 0 {
		return nil, false
	}
	return d.items[i].Value, true
}

// GetOr is d.get(k, def): TypeError for an unhashable key.
func (d *Dict) GetOr(k, def Value) (Value, error) {
	i, err := d.find(k)
	if err != nil {
		return nil, err
	}
	if i < 0 {
		return def, nil
	}
	return d.items[i].Value, nil
}

// GetItem is d[k]: KeyError (its str repr(k)) when absent, TypeError
// "unhashable type: 'list'" for an unhashable key.
func (d *Dict) GetItem(k Value) (Value, error) {
	i, err := d.find(k)
	if err != nil {
		return nil, err
	}
	if i < 0 {
		return nil, KeyError(k)
	}
	return d.items[i].Value, nil
}

// Contains is k in d; false for an unhashable key (In gives its
// TypeError).
func (d *Dict) Contains(k Value) bool {
	i, err := d.find(k)
	return err == nil && i >= 0
}

// SetItem is d[k] = v: TypeError for an unhashable key.
func (d *Dict) SetItem(k, v Value) error {
	h, err := HashKey(k)
	if err != nil {
		return err
	}
	if i, ok := d.index[h]; ok {
		d.items[i].Value = v
		return nil
	}
	if d.index == nil {
		d.index = map[string]int{}
	}
	d.index[h] = len(d.items)
	d.items = append(d.items, Item{Key: k, Value: v})
	return nil
}

// Set is d[k] = v for a key the caller knows hashable; it panics on an
// unhashable one (use SetItem where a model's value may be the key).
func (d *Dict) Set(k, v Value) {
	if err := d.SetItem(k, v); err != nil {
		panic(fmt.Sprintf("pyval: Dict.Set: %v", err))
	}
}

// Delete removes k, reporting whether it was present.
func (d *Dict) Delete(k Value) bool {
	i, err := d.find(k)
	if err != nil || i < 0 {
		return false
	}
	d.removeAt(i)
	return true
}

func (d *Dict) removeAt(i int) {
	h, _ := HashKey(d.items[i].Key)
	delete(d.index, h)
	d.items = append(d.items[:i], d.items[i+1:]...)
	for j := i; j < len(d.items); j++ {
		hj, _ := HashKey(d.items[j].Key)
		d.index[hj] = j
	}
}

// DelItem is del d[k]: KeyError when absent.
func (d *Dict) DelItem(k Value) error {
	i, err := d.find(k)
	if err != nil {
		return err
	}
	if i < 0 {
		return KeyError(k)
	}
	d.removeAt(i)
	return nil
}

// Pop is d.pop(k): KeyError when absent.
func (d *Dict) Pop(k Value) (Value, error) {
	i, err := d.find(k)
	if err != nil {
		return nil, err
	}
	if i < 0 {
		return nil, KeyError(k)
	}
	v := d.items[i].Value
	d.removeAt(i)
	return v, nil
}

// PopDefault is d.pop(k, def).
func (d *Dict) PopDefault(k, def Value) (Value, error) {
	i, err := d.find(k)
	if err != nil {
		return nil, err
	}
	if i < 0 {
		return def, nil
	}
	v := d.items[i].Value
	d.removeAt(i)
	return v, nil
}

// SetDefault is d.setdefault(k, def).
func (d *Dict) SetDefault(k, def Value) (Value, error) {
	i, err := d.find(k)
	if err != nil {
		return nil, err
	}
	if i >= 0 {
		return d.items[i].Value, nil
	}
	return def, d.SetItem(k, def)
}

// Update is d.update(other).
func (d *Dict) Update(other *Dict) {
	for _, it := range other.items {
		d.Set(it.Key, it.Value)
	}
}

// Clear is d.clear().
func (d *Dict) Clear() { d.items, d.index = nil, nil }

// Copy is d.copy(): a new dict sharing the values.
func (d *Dict) Copy() *Dict {
	c := &Dict{items: append([]Item(nil), d.items...), index: maps.Clone(d.index)}
	return c
}

// Hashable reports whether v can be a dict key (hash(v) succeeds).
func Hashable(v Value) bool {
	_, err := HashKey(v)
	return err == nil
}

// HashKey is a string equal for two values exactly when Python's dict
// takes them for one key: numbers by value (1, 1.0, True), str, None,
// tuples element-wise, objects by HashObject.HashKey or else identity.
// An unhashable value gives Python's TypeError. A HashObject equal to a
// number returns that number's HashKey. Deviation: every float NaN is one
// key here, where Python keys NaN objects by identity.
func HashKey(v Value) (string, error) {
	switch x := v.(type) {
	case nil:
		return "N", nil
	case bool:
		if x {
			return "i1", nil
		}
		return "i0", nil
	case int64:
		return "i" + strconv.FormatInt(x, 10), nil
	case int:
		return "i" + strconv.Itoa(x), nil
	case *big.Int:
		return "i" + x.String(), nil
	case float64:
		if math.IsNaN(x) {
			return "fnan", nil
		}
		if math.IsInf(x, 0) {
			return "f" + strconv.FormatFloat(x, 'g', -1, 64), nil
		}
		if x == math.Trunc(x) {
			bi, _ := new(big.Float).SetFloat64(x).Int(nil)
			return "i" + bi.String(), nil
		}
		return "f" + strconv.FormatUint(math.Float64bits(x), 16), nil
	case string:
		return "s" + x, nil
	case Tuple:
		var b strings.Builder
		b.WriteString("t")
		for _, e := range x {
			h, err := HashKey(e)
			if err != nil {
				return "", err
			}
			b.WriteString(strconv.Itoa(len(h)))
			b.WriteByte(':')
			b.WriteString(h)
		}
		return b.String(), nil
	case *List, *Dict:
		return "", unhashable(v)
	case UnhashableObject:
		return "", unhashable(v)
	case HashObject:
		return x.HashKey(), nil
	case Object:
		return fmt.Sprintf("p%p", x), nil
	}
	return "", unhashable(v)
}
