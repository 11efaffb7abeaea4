package pyval

import "testing"

// TestDictCopiesIndexed: a dict's copies (DeepCopy, Clone, Copy), their
// key index cloned whole, find each key the original holds, take new
// keys and lose old ones apart from it: an empty dict, one never written
// past its literal, one after a deletion.
func TestDictCopiesIndexed(t *testing.T) {
	deleted := DictOf(Item{Key: "a", Value: int64(1)}, Item{Key: int64(2), Value: "b"}, Item{Key: 3.5, Value: nil})
	deleted.Delete(int64(2))
	for _, d := range []*Dict{NewDict(), DictOf(Item{Key: "x", Value: NewList()}, Item{Key: true, Value: int64(1)}), deleted} {
		copies := map[string]*Dict{"DeepCopy": DeepCopy(d).(*Dict), "Clone": Clone(d).(*Dict), "Copy": d.Copy()}
		for name, c := range copies {
			for _, it := range d.Items() {
				if _, ok := c.Get(it.Key); !ok {
					t.Fatalf("%s of %s: no %s", name, Repr(d), Repr(it.Key))
				}
			}
			c.Set("new", int64(9))
			if d.Contains("new") {
				t.Fatalf("%s of %s: a key set in the copy shows in the original", name, Repr(d))
			}
			for _, it := range d.Items() {
				c.Delete(it.Key)
				if !d.Contains(it.Key) {
					t.Fatalf("%s of %s: a key deleted in the copy left the original", name, Repr(d))
				}
			}
			if c.Len() != 1 || !c.Contains("new") {
				t.Fatalf("%s of %s: %s after its keys were deleted", name, Repr(d), Repr(c))
			}
		}
	}
}
