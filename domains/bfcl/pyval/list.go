package pyval

// Len is len(l).
func (l *List) Len() int { return len(l.Items) }

// Append is l.append(v).
func (l *List) Append(v Value) { l.Items = append(l.Items, v) }

// Extend is l.extend(iterable).
func (l *List) Extend(iterable Value) error {
	items, err := Iter(iterable)
	if err != nil {
		return err
	}
	l.Items = append(l.Items, items...)
	return nil
}

// Insert is l.insert(i, v), i clamped as Python clamps it.
func (l *List) Insert(i int, v Value) {
	n := len(l.Items)
	if i < 0 {
		i += n
		if i < 0 {
			i = 0
		}
	}
	if i > n {
		i = n
	}
	l.Items = append(l.Items, nil)
	copy(l.Items[i+1:], l.Items[i:])
	l.Items[i] = v
}

// Pop is l.pop() (i nil) or l.pop(i): IndexError "pop from empty list",
// "pop index out of range".
func (l *List) Pop(i Value) (Value, error) {
	if len(l.Items) == 0 {
		return nil, IndexError("pop from empty list")
	}
	k := len(l.Items) - 1
	if i != nil {
		if !isInt(i) {
			return nil, TypeError("'" + TypeName(i) + "' object cannot be interpreted as an integer")
		}
		n, ok := small(i)
		if ok && n < 0 {
			n += int64(len(l.Items))
		}
		if !ok || n < 0 || n >= int64(len(l.Items)) {
			return nil, IndexError("pop index out of range")
		}
		k = int(n)
	}
	v := l.Items[k]
	l.Items = append(l.Items[:k], l.Items[k+1:]...)
	return v, nil
}

// Remove is l.remove(v): ValueError "list.remove(x): x not in list".
func (l *List) Remove(v Value) error {
	for i, e := range l.Items {
		if Equal(e, v) {
			l.Items = append(l.Items[:i], l.Items[i+1:]...)
			return nil
		}
	}
	return ValueError("list.remove(x): x not in list")
}

// Index is l.index(v): ValueError "'x' is not in list".
func (l *List) Index(v Value) (int, error) {
	for i, e := range l.Items {
		if Equal(e, v) {
			return i, nil
		}
	}
	return 0, ValueError(Repr(v) + " is not in list")
}

// Count is l.count(v).
func (l *List) Count(v Value) int {
	n := 0
	for _, e := range l.Items {
		if Equal(e, v) {
			n++
		}
	}
	return n
}

// Copy is l.copy() (or list(l)).
func (l *List) Copy() *List { return &List{Items: append([]Value(nil), l.Items...)} }

// Reverse is l.reverse().
func (l *List) Reverse() { reverseValues(l.Items) }

func reverseValues(v []Value) {
	for i, j := 0, len(v)-1; i < j; i, j = i+1, j-1 {
		v[i], v[j] = v[j], v[i]
	}
}

// Sort is l.sort(reverse=reverse). On an error the list is left in some
// order of its items, as Python leaves it.
func (l *List) Sort(reverse bool) error {
	return l.SortBy(nil, reverse)
}

// SortBy is l.sort(key=key, reverse=reverse); key nil sorts the items
// themselves. Keys are computed once each, first to last, as Python
// computes them; comparisons follow CPython's (a first run found by
// count_run, then binary insertion), so a list of mixed types raises the
// TypeError Python raises for lists under 64 items; longer lists sort to
// the same order with other comparisons.
func (l *List) SortBy(key func(Value) (Value, error), reverse bool) error {
	n := len(l.Items)
	keys := l.Items
	if key != nil {
		keys = make([]Value, n)
		for i, v := range l.Items {
			k, err := key(v)
			if err != nil {
				return err
			}
			keys[i] = k
		}
	}
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	if reverse {
		reverseInts(idx)
	}
	lt := func(a, b int) (bool, error) { return Compare("<", keys[a], keys[b]) }
	err := timsortSmall(idx, lt)
	if reverse {
		reverseInts(idx)
	}
	items := make([]Value, n)
	for i, k := range idx {
		items[i] = l.Items[k]
	}
	copy(l.Items, items)
	return err
}

func reverseInts(v []int) {
	for i, j := 0, len(v)-1; i < j; i, j = i+1, j-1 {
		v[i], v[j] = v[j], v[i]
	}
}

// timsortSmall is CPython's list sort for one run: count_run, reverse a
// strictly descending run, binary-insert the rest.
func timsortSmall(a []int, lt func(x, y int) (bool, error)) error {
	n := len(a)
	if n < 2 {
		return nil
	}
	run := 2
	desc, err := lt(a[1], a[0])
	if err != nil {
		return err
	}
	for ; run < n; run++ {
		less, err := lt(a[run], a[run-1])
		if err != nil {
			return err
		}
		if less != desc {
			break
		}
	}
	if desc {
		reverseInts(a[:run])
	}
	for start := run; start < n; start++ {
		pivot := a[start]
		lo, hi := 0, start
		for lo < hi {
			p := lo + (hi-lo)/2
			less, err := lt(pivot, a[p])
			if err != nil {
				return err
			}
			if less {
				hi = p
			} else {
				lo = p + 1
			}
		}
		copy(a[lo+1:start+1], a[lo:start])
		a[lo] = pivot
	}
	return nil
}
