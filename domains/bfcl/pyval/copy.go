package pyval

import "reflect"

// DeepCopy is copy.deepcopy(v): lists, dicts and objects are copied
// recursively, and a list, dict or object reached twice is copied once,
// so shared references stay shared in the copy.
func DeepCopy(v Value) Value {
	return DeepCopyMemo(v, map[any]Value{})
}

// DeepCopyMemo is DeepCopy with the caller's memo (what an Object's
// DeepCopy passes on for the values it holds).
func DeepCopyMemo(v Value, memo map[any]Value) Value {
	switch x := v.(type) {
	case *List:
		if c, ok := memo[x]; ok {
			return c
		}
		c := &List{Items: make([]Value, len(x.Items))}
		memo[x] = c
		for i, e := range x.Items {
			c.Items[i] = DeepCopyMemo(e, memo)
		}
		return c
	case Tuple:
		c := make(Tuple, len(x))
		for i, e := range x {
			c[i] = DeepCopyMemo(e, memo)
		}
		return c
	case *Dict:
		if c, ok := memo[x]; ok {
			return c
		}
		c := &Dict{items: make([]Item, len(x.items)), index: make(map[string]int, len(x.index))}
		memo[x] = c
		for k, i := range x.index {
			c.index[k] = i
		}
		for i, it := range x.items {
			c.items[i] = Item{Key: DeepCopyMemo(it.Key, memo), Value: DeepCopyMemo(it.Value, memo)}
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
