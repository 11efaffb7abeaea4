package report

import (
	"strings"
	"testing"
)

func TestParseShard(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Shard
		err  string
	}{
		{"0/1", Shard{0, 1}, ""},
		{"3/4", Shard{3, 4}, ""},
		{"4/4", Shard{}, "0 ≤ i < n"},
		{"0/0", Shard{}, "n ≥ 1"},
		{"-1/4", Shard{}, "not i/n"},
		{"1", Shard{}, "not i/n"},
		{"a/4", Shard{}, "not i/n"},
		{"1/+4", Shard{}, "not i/n"},
	} {
		got, err := ParseShard(c.in)
		if c.err == "" && (err != nil || got != c.want) || c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
			t.Errorf("ParseShard(%q) = %v, %v; want %v, error with %q", c.in, got, err, c.want, c.err)
		}
	}
}

// TestShardsPartitionWork: for every n up to the number of pairs, the
// shards' slices are contiguous, disjoint, cover every pair and differ
// in size by at most one.
func TestShardsPartitionWork(t *testing.T) {
	ps := Pairs([]string{"a", "b", "c"}, []string{"x", "y", "z", "w"})
	for n := 1; n <= len(ps); n++ {
		next, small, large := 0, len(ps), 0
		for i := range n {
			lo, hi := Shard{i, n}.span(len(ps))
			if lo != next {
				t.Fatalf("n=%d: shard %d starts at %d, want %d", n, i, lo, next)
			}
			next = hi
			small, large = min(small, hi-lo), max(large, hi-lo)
		}
		if next != len(ps) || large-small > 1 {
			t.Errorf("n=%d: covers %d of %d pairs, slices of %d to %d", n, next, len(ps), small, large)
		}
	}
}
