package pyval

import (
	"encoding/json"
	"slices"
	"testing"
)

// TestRandomStateAsJSONMarshal holds a generator's state text, written
// straight, to the text json.Marshal writes of it, byte for byte: fresh
// generators, after draws, and at every position of the next draw.
func TestRandomStateAsJSONMarshal(t *testing.T) {
	for _, seed := range []Value{int64(0), int64(141053), int64(-7), "seed", 2.5} {
		r, err := NewRandom(seed)
		if err != nil {
			t.Fatal(err)
		}
		for i := range 1300 {
			if i%97 == 0 || r.mti == 0 || r.mti == 624 {
				got, err := r.MarshalState()
				if err != nil {
					t.Fatal(err)
				}
				want, err := json.Marshal(randomState{MT: r.mt[:], MTI: r.mti})
				if err != nil {
					t.Fatal(err)
				}
				if string(got) != string(want) {
					t.Fatalf("Random(%v) after %d draws: %s, json.Marshal writes %s", seed, i, got, want)
				}
			}
			if _, err := r.Randint(0, 1<<40); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestRandomCopySharesWords: a deep copy shares the generator's 624 words
// until a draw regenerates them, and the copy and the original then draw
// as two generators of one state, neither's draws changing the other's.
func TestRandomCopySharesWords(t *testing.T) {
	r, err := NewRandom(int64(141053))
	if err != nil {
		t.Fatal(err)
	}
	c := DeepCopy(r).(*Random)
	if &c.mt[0] != &r.mt[0] || !c.SameState(r) {
		t.Fatal("a fresh copy does not share the generator's words")
	}
	var fromR []int64
	for range 1000 { // past 624 draws: r regenerates its words
		x, err := r.Randint(0, 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		fromR = append(fromR, x)
	}
	if &c.mt[0] == &r.mt[0] || c.SameState(r) {
		t.Fatal("the original's draws reached its copy")
	}
	for i, want := range fromR {
		if x, _ := c.Randint(0, 1<<20); x != want {
			t.Fatalf("draw %d: the copy draws %d, the original drew %d", i, x, want)
		}
	}
	if !c.SameState(r) {
		t.Error("after the same draws, copy and original hold different states")
	}
}

// TestSeededWordsKept: generators of one int seed start from the words
// kept for it, which none's draws change: each draws as a generator
// seeded afresh, before and after another drew past its words.
func TestSeededWordsKept(t *testing.T) {
	for _, seed := range []int64{141053, 0, -7} {
		draws := func(r *Random) []int64 {
			var out []int64
			for range 1300 {
				x, err := r.Randint(0, 1<<40)
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, x)
			}
			return out
		}
		fresh, err := newRandom(int64(seed))
		if err != nil {
			t.Fatal(err)
		}
		want := draws(fresh)
		a, _ := NewRandom(int64(seed))
		b, _ := NewRandom(int64(seed))
		if &a.mt[0] != &b.mt[0] {
			t.Errorf("seed %d: two generators hold two copies of its words", seed)
		}
		for i, r := range []*Random{a, b} {
			if got := draws(r); !slices.Equal(got, want) {
				t.Fatalf("seed %d: generator %d draws otherwise than one seeded afresh", seed, i)
			}
		}
	}
}
