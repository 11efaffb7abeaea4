package memo

import (
	"sync"
	"testing"
	"unsafe"
)

// TestGenerations holds the cache to its bound: what a full generation
// pushes out, what a hit in the older keeps, what is too large to keep.
func TestGenerations(t *testing.T) {
	type op struct {
		add  string // a key to add (its value is its length), or
		get  string // a key to look up
		size int
		want bool // for get: found
	}
	tests := []struct {
		name string
		ops  []op
	}{
		{"an added key is found", []op{{add: "a", size: 1}, {get: "a", want: true}, {get: "b"}}},
		{"a key over Max is never kept", []op{{add: "big", size: 5}, {get: "big"}}},
		{"a full generation becomes the older one", []op{{add: "a", size: 3}, {add: "b", size: 2}, {get: "a", want: true}, {get: "b", want: true}}},
		{"the older is dropped at the next turn", []op{{add: "a", size: 4}, {add: "b", size: 4}, {add: "c", size: 4}, {get: "a"}, {get: "b", want: true}, {get: "c", want: true}}},
		{"a hit in the older moves it to the newer", []op{{add: "a", size: 2}, {add: "b", size: 3}, {get: "a", want: true}, {add: "c", size: 1}, {add: "d", size: 4}, {get: "a", want: true}, {get: "b"}}},
		// Counted twice, a would fill the generation before b: b would be
		// in the generation c joins, which e's leaves older.
		{"a key added twice counts once", []op{{add: "a", size: 2}, {add: "a", size: 2}, {add: "b", size: 2}, {add: "c", size: 1}, {add: "e", size: 4}, {get: "b"}, {get: "c", want: true}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Cache[int]{Max: 4}
			for i, o := range tt.ops {
				if o.add != "" {
					c.Add(o.add, len(o.add), o.size)
					continue
				}
				v, ok := c.Get(o.get)
				if ok != o.want || ok && v != len(o.get) {
					t.Fatalf("op %d: Get(%q) = %d, %v; want found %v", i, o.get, v, ok, o.want)
				}
			}
		})
	}
}

// TestKeyNotKept: a key that shares bytes changed once Get returns (a
// cell read in place from a state written next) is found again under its
// text, after a hit moved it from the older generation to the newer.
func TestKeyNotKept(t *testing.T) {
	c := Cache[int]{Max: 4}
	c.Add("abc", 1, 3)
	c.Add("d", 2, 3) // abc's generation becomes the older
	b := []byte("abc")
	if _, ok := c.Get(unsafe.String(&b[0], len(b))); !ok {
		t.Fatal("abc not found")
	}
	copy(b, "xyz")
	if v, ok := c.Get("abc"); !ok || v != 1 {
		t.Fatalf("after its key's bytes changed, Get(abc) = %d, %v; want 1, true", v, ok)
	}
	if _, ok := c.Get("xyz"); ok {
		t.Fatal("xyz found")
	}
}

// TestConcurrent: goroutines adding and getting at once (go test -race).
func TestConcurrent(t *testing.T) {
	c := Cache[string]{Max: 64}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 1000 {
				k := string(rune('a' + (g*7+i)%26))
				if v, ok := c.Get(k); ok && v != k {
					t.Errorf("Get(%q) = %q", k, v)
				}
				c.Add(k, k, 3)
			}
		})
	}
	wg.Wait()
}
