package bench

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/parthack/parthack/evaluators"
	"github.com/parthack/parthack/report"
	"github.com/parthack/parthack/tasks"
)

// shardRun runs shard sh of the benchmark of ts and returns its ledger
// with the metadata bench writes.
func shardRun(t *testing.T, ts []*tasks.Task, sh report.Shard, edits int) *report.Ledger {
	t.Helper()
	l, err := Run(context.Background(), ts, RunOptions{Edits: edits, MaxStates: 200_000, Shard: sh}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ri := report.RunInfo{Version: "test", Suite: "suite", Edits: edits, MaxStates: 200_000}
	for _, x := range ts {
		ri.Tasks = append(ri.Tasks, x.ID)
	}
	for _, ev := range evaluators.Deterministic() {
		ri.Evaluators = append(ri.Evaluators, ev.Name)
	}
	l.Shard = &report.ShardInfo{Shard: sh, Run: ri}
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
			var ls []*report.Ledger
			for i := n - 1; i >= 0; i-- { // last first: the order given does not matter
				name := fmt.Sprintf("shard-%d.json", i)
				l, err := report.ReadJSON(name, []byte(ledgerBytes(t, shardRun(t, ts, report.Shard{Index: i, Count: n}, 1))))
				if err != nil {
					t.Fatal(err)
				}
				names, ls = append(names, name), append(ls, l)
			}
			merged, err := report.Merge(names, ls)
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
	s0, s1, s2 := shardRun(t, ts, report.Shard{Index: 0, Count: 3}, 1), shardRun(t, ts, report.Shard{Index: 1, Count: 3}, 1), shardRun(t, ts, report.Shard{Index: 2, Count: 3}, 1)
	whole, err := Run(context.Background(), ts, RunOptions{Edits: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	edits2 := *s1
	edits2.Shard = &report.ShardInfo{Shard: s1.Shard.Shard, Run: s1.Shard.Run}
	edits2.Shard.Run.Edits = 2
	other := shardRun(t, ts, report.Shard{Index: 1, Count: 2}, 1)
	moved := *s1
	moved.Rows = append(slices.Clone(s1.Rows), s2.Rows[0])
	short := *s1
	short.Rows = s1.Rows[1:]
	judged := *s1
	judged.Shard = &report.ShardInfo{Shard: s1.Shard.Shard, Run: s1.Shard.Run}
	judged.Shard.Run.Judges, judged.Shard.Run.Judge = []string{report.TargetJudge}, "llm_judge model \"m\""
	for _, c := range []struct {
		name string
		ls   []*report.Ledger
		want string
	}{
		{"gap", []*report.Ledger{s0, s2}, "gap: shard 1/3 missing (have 2 of 3 shards)"},
		{"overlap", []*report.Ledger{s0, s1, s1, s2}, "overlap: b.json and c.json are both shard 1/3"},
		{"different n", []*report.Ledger{s0, other, s2}, "a.json is shard 0/3 but b.json is shard 1/2"},
		{"different edits", []*report.Ledger{s0, &edits2, s2}, "a.json and b.json are shards of different runs: edits 1 vs 2"},
		{"different judges", []*report.Ledger{s0, &judged, s2}, `judges (none) vs llm_judge; judge (none) vs "llm_judge model \"m\""`},
		{"not a shard", []*report.Ledger{s0, whole, s2}, "b.json is not a shard's ledger"},
		{"a row of another shard", []*report.Ledger{s0, &moved, s2}, "b.json (shard 1/3) holds row (shared, cape_max, " + ts[1].ID + "), which is not in its slice"},
		{"a row missing", []*report.Ledger{s0, &short, s2}, "b.json (shard 1/3) lacks row (shared, historical_milestone, " + ts[1].ID + ") of its slice"},
	} {
		t.Run(c.name, func(t *testing.T) {
			names := []string{"a.json", "b.json", "c.json", "d.json"}[:len(c.ls)]
			_, err := report.Merge(names, c.ls)
			if !errors.Is(err, report.ErrMerge) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Merge: %v\nwant an error with %q", err, c.want)
			}
		})
	}
}

func TestShardLedgerJSON(t *testing.T) {
	l := shardRun(t, split(t, "development")[:1], report.Shard{Index: 1, Count: 2}, 1)
	src := ledgerBytes(t, l)
	back, err := report.ReadJSON("s.json", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if got := ledgerBytes(t, back); got != src {
		t.Errorf("a shard's ledger does not read back the same:\n%s\nwant\n%s", got, src)
	}
	if err := report.WriteCSV(&strings.Builder{}, l); err == nil {
		t.Error("WriteCSV wrote a shard's ledger; its metadata would be lost")
	}
	for _, c := range []struct{ old, new, want string }{
		{`"index": 1`, `"index": 2`, `field "shard": shard 2/2`},
		{`"edits": 1`, `"edits": 0`, "edits and max_states must be at least 1"},
		{`"suite": "suite"`, `"suite": "suite", "extra": 1`, `unknown field "extra"`},
	} {
		bad := strings.Replace(src, c.old, c.new, 1)
		if _, err := report.ReadJSON("s.json", []byte(bad)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s → %s: %v, want an error with %q", c.old, c.new, err, c.want)
		}
	}
}
