package tau2

import "testing"

// TestHashMemo holds the memo to one computation per state key, and
// state keys to telling apart what could be mistaken for one another: an
// absent record and an empty text, one record and two whose texts join.
func TestHashMemo(t *testing.T) {
	type rec struct {
		coll, id string
		text     []byte
	}
	key := func(rs ...rec) string {
		var b []byte
		for _, r := range rs {
			b = AppendStateKey(b, r.coll, r.id, r.text)
		}
		return string(b)
	}
	states := [][]rec{
		{},
		{{"users", "u1", nil}},
		{{"users", "u1", []byte{}}},
		{{"users", "u1", []byte(`{"a": 1}`)}},
		{{"users", "u1", []byte(`{"a": 1}`)}, {"users", "u2", []byte(`{}`)}},
		{{"users", "u1", []byte(`{"a": 1}` + "\x00users\x00u2\x00+\x02{}")}},
		{{"users", "u1u2", nil}},
		{{"user", "su1", nil}},
		{{"users", "u1\x00u2", nil}},
		{{"users\x00u1", "u2", nil}},
	}
	seen := map[string]int{}
	for i, s := range states {
		k := key(s...)
		if j, ok := seen[k]; ok {
			t.Fatalf("states %d and %d have one key %q", j, i, k)
		}
		seen[k] = i
	}
	var m HashMemo
	calls := 0
	for round := range 2 {
		for i, s := range states {
			want := string(rune('a' + i))
			if got := m.Hash([]byte(key(s...)), func() string { calls++; return want }); got != want {
				t.Fatalf("round %d, state %d: hash %q, want %q", round, i, got, want)
			}
		}
	}
	if calls != len(states) {
		t.Errorf("%d hashes computed for %d states", calls, len(states))
	}
}
