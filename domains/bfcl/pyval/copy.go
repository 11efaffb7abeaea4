package pyval

import (
	"maps"
	"reflect"
)

// DeepCopy is copy.deepcopy(v): lists, dicts and objects are copied
// recursively, and a list, dict or object reached twice is copied once,
// so shared references stay shared in the copy.
func DeepCopy(v Value) Value {
	return DeepCopyMemo(v, map[any]Value{})
}

// DeepCopyMemo is DeepCopy with the caller's memo (what an Object's
// DeepCopy passes on for the values it holds).
func DeepCopyMemo(v Value, memo map[any]Value) Value { return copyMemo(v, memo, false) }

// Cloner is an object whose copy.deepcopy lays the copy out anew (a set
// is built again in its iteration order, which may not be the order its
// members went in): Clone copies it as it stands.
type Cloner interface {
	Object
	Clone() Value
}

// Clone is a copy of v as it stands: DeepCopy, but an object whose deep
// copy would be laid out anew (Cloner) is copied as it is. It is what a
// call runs on where Python runs on the object itself, so that the copy
// behaves, and is written, as the object would have been.
func Clone(v Value) Value { return copyMemo(v, map[any]Value{}, true) }

func copyMemo(v Value, memo map[any]Value, exact bool) Value {
	if c, ok := v.(Cloner); ok && exact {
		if d, ok := memo[c]; ok {
			return d
		}
		d := c.Clone()
		memo[c] = d
		return d
	}
	switch x := v.(type) {
	case *List:
		if c, ok := memo[x]; ok {
			return c
		}
		c := &List{Items: make([]Value, len(x.Items))}
		memo[x] = c
		for i, e := range x.Items {
			c.Items[i] = copyMemo(e, memo, exact)
		}
		return c
	case Tuple:
		c := make(Tuple, len(x))
		for i, e := range x {
			c[i] = copyMemo(e, memo, exact)
		}
		return c
	case *Dict:
		if c, ok := memo[x]; ok {
			return c
		}
		c := &Dict{items: make([]Item, len(x.items)), index: maps.Clone(x.index)}
		memo[x] = c
		for i, it := range x.items {
			c.items[i] = Item{Key: copyMemo(it.Key, memo, exact), Value: copyMemo(it.Value, memo, exact)}
		}
		return c
	case Object:
		if !comparableObject(x) {
			return x.DeepCopy(memo)
		}
		if c, ok := memo[x]; ok {
			return c
		}
		c := x.DeepCopy(memo)
		memo[x] = c
		return c
	}
	return v
}

// comparableObject reports whether x can key the memo (pointer objects
// can; a value object like Complex is immutable and needs no memo).
func comparableObject(x Object) bool { return reflect.ValueOf(x).Comparable() }
