package pyval

import (
	"encoding/json"
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
