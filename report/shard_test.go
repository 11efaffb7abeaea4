package report

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/parthack/parthack/evaluators"
	"github.com/parthack/parthack/tasks"
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

// shardRun runs shard sh of the benchmark of ts and returns its ledger
// with the metadata bench writes.
func shardRun(t *testing.T, ts []*tasks.Task, sh Shard, edits int) *Ledger {
	t.Helper()
	l, err := Run(context.Background(), ts, RunOptions{Edits: edits, MaxStates: 200_000, Shard: sh}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ri := RunInfo{Version: "test", Suite: "suite", Edits: edits, MaxStates: 200_000}
	for _, x := range ts {
		ri.Tasks = append(ri.Tasks, x.ID)
	}
	for _, ev := range evaluators.Deterministic() {
		ri.Evaluators = append(ri.Evaluators, ev.Name)
	}
	l.Shard = &ShardInfo{Shard: sh, Run: ri}
	return l
}

// TestMergeShardsIsTheRun: the shards of a run, in any order and through
// their JSON ledgers, merge into the unsharded ledger byte for byte.
func TestMergeShardsIsTheRun(t *testing.T) {
	ts := split(t, "development")[:2]
	whole, err := Run(context.Background(), ts, RunOptions{Edits: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := ledgerBytes(t, whole)
	for _, n := range []int{1, 5, len(ts) * len(evaluators.Deterministic())} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			var names []string
			var ls []*Ledger
			for i := n - 1; i >= 0; i-- { // last first: the order given does not matter
				name := fmt.Sprintf("shard-%d.json", i)
				l, err := ReadJSON(name, []byte(ledgerBytes(t, shardRun(t, ts, Shard{i, n}, 1))))
				if err != nil {
					t.Fatal(err)
				}
				names, ls = append(names, name), append(ls, l)
			}
			merged, err := Merge(names, ls)
			if err != nil {
				t.Fatal(err)
			}
			if got := ledgerBytes(t, merged); got != want {
				t.Errorf("merged ledger differs from the unsharded one:\n%s\nwant\n%s", got, want)
			}
		})
	}
}

func TestMergeRefuses(t *testing.T) {
	ts := split(t, "development")[:2]
	s0, s1, s2 := shardRun(t, ts, Shard{0, 3}, 1), shardRun(t, ts, Shard{1, 3}, 1), shardRun(t, ts, Shard{2, 3}, 1)
	whole, err := Run(context.Background(), ts, RunOptions{Edits: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	edits2 := *s1
	edits2.Shard = &ShardInfo{Shard: s1.Shard.Shard, Run: s1.Shard.Run}
	edits2.Shard.Run.Edits = 2
	other := shardRun(t, ts, Shard{1, 2}, 1)
	moved := *s1
	moved.Rows = append(slices.Clone(s1.Rows), s2.Rows[0])
	short := *s1
	short.Rows = s1.Rows[1:]
	judged := *s1
	judged.Shard = &ShardInfo{Shard: s1.Shard.Shard, Run: s1.Shard.Run}
	judged.Shard.Run.Judges, judged.Shard.Run.Judge = []string{TargetJudge}, "llm_judge model \"m\""
	for _, c := range []struct {
		name string
		ls   []*Ledger
		want string
	}{
		{"gap", []*Ledger{s0, s2}, "gap: shard 1/3 missing (have 2 of 3 shards)"},
		{"overlap", []*Ledger{s0, s1, s1, s2}, "overlap: b.json and c.json are both shard 1/3"},
		{"different n", []*Ledger{s0, other, s2}, "a.json is shard 0/3 but b.json is shard 1/2"},
		{"different edits", []*Ledger{s0, &edits2, s2}, "a.json and b.json are shards of different runs: edits 1 vs 2"},
		{"different judges", []*Ledger{s0, &judged, s2}, `judges (none) vs llm_judge; judge (none) vs "llm_judge model \"m\""`},
		{"not a shard", []*Ledger{s0, whole, s2}, "b.json is not a shard's ledger"},
		{"a row of another shard", []*Ledger{s0, &moved, s2}, "b.json (shard 1/3) holds row (shared, cape_max, " + ts[1].ID + "), which is not in its slice"},
		{"a row missing", []*Ledger{s0, &short, s2}, "b.json (shard 1/3) lacks row (shared, historical_milestone, " + ts[1].ID + ") of its slice"},
	} {
		t.Run(c.name, func(t *testing.T) {
			names := []string{"a.json", "b.json", "c.json", "d.json"}[:len(c.ls)]
			_, err := Merge(names, c.ls)
			if !errors.Is(err, ErrMerge) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Merge: %v\nwant an error with %q", err, c.want)
			}
		})
	}
}

func TestShardLedgerJSON(t *testing.T) {
	l := shardRun(t, split(t, "development")[:1], Shard{1, 2}, 1)
	src := ledgerBytes(t, l)
	back, err := ReadJSON("s.json", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if got := ledgerBytes(t, back); got != src {
		t.Errorf("a shard's ledger does not read back the same:\n%s\nwant\n%s", got, src)
	}
	if err := WriteCSV(&strings.Builder{}, l); err == nil {
		t.Error("WriteCSV wrote a shard's ledger; its metadata would be lost")
	}
	for _, c := range []struct{ old, new, want string }{
		{`"index": 1`, `"index": 2`, `field "shard": shard 2/2`},
		{`"edits": 1`, `"edits": 0`, "edits and max_states must be at least 1"},
		{`"suite": "suite"`, `"suite": "suite", "extra": 1`, `unknown field "extra"`},
	} {
		bad := strings.Replace(src, c.old, c.new, 1)
		if _, err := ReadJSON("s.json", []byte(bad)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s → %s: %v, want an error with %q", c.old, c.new, err, c.want)
		}
	}
}
