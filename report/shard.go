package report

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// Shard is one slice of a benchmark run's work, for running the benchmark
// on several machines: shard Index of Count, counted from 0, as
// Kubernetes' JOB_COMPLETION_INDEX and a Slurm array of 0-(n-1) count.
// The zero Shard (Count 0) is the whole run.
//
// A run's work is its (task, target) pairs, task by task in the run's
// task order and, within a task, targets in ledger order: the
// deterministic evaluators, then the judges. Shard i of n takes the
// contiguous pairs [⌊i·N/n⌋, ⌊(i+1)·N/n⌋) of the N pairs, so the slices
// differ in size by at most one pair and a shard repeats the search
// against Historical Milestone (every shared row needs A_ref) for at most
// the one task it shares with the shard before it. A pair's rows (shared
// and targeted) do not depend on which other pairs the process runs, so
// merging every shard's rows gives the unsharded ledger.
type Shard struct {
	Index int `json:"index"`
	Count int `json:"count"`
}

// ParseShard reads "i/n": shard i of n, 0 ≤ i < n.
func ParseShard(s string) (Shard, error) {
	is, ns, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(is)
	n, err2 := strconv.Atoi(ns)
	if !ok || err1 != nil || err2 != nil || strings.ContainsAny(s, "+- ") {
		return Shard{}, fmt.Errorf("%q is not i/n (shard i of n, counted from 0: 0/4 … 3/4)", s)
	}
	sh := Shard{Index: i, Count: n}
	if err := sh.valid(); err != nil {
		return Shard{}, err
	}
	return sh, nil
}

func (s Shard) valid() error {
	if s.Count < 1 || s.Index < 0 || s.Index >= s.Count {
		return fmt.Errorf("shard %d/%d: want i/n with n ≥ 1 and 0 ≤ i < n (shards count from 0)", s.Index, s.Count)
	}
	return nil
}

func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// span is the shard's pairs among n: [lo, hi). The zero Shard spans all.
func (s Shard) span(n int) (lo, hi int) {
	if s.Count == 0 {
		return 0, n
	}
	return s.Index * n / s.Count, (s.Index + 1) * n / s.Count
}

// Pair is one unit of a run's work: one task and one target, with the
// target's shared and targeted rows.
type Pair struct{ Task, Target string }

// Pairs lists a run's work in shard order: task by task, targets in the
// given order.
func Pairs(tasks, targets []string) []Pair {
	ps := make([]Pair, 0, len(tasks)*len(targets))
	for _, t := range tasks {
		for _, g := range targets {
			ps = append(ps, Pair{t, g})
		}
	}
	return ps
}

// Slice is the shard's pairs of a run's work.
func (s Shard) Slice(ps []Pair) []Pair {
	lo, hi := s.span(len(ps))
	return ps[lo:hi]
}

// RunInfo is what makes two shards parts of one run: every setting the
// ledger's rows depend on. Merge refuses shards whose RunInfo differ.
type RunInfo struct {
	// Version identifies the parthack build (its module version and VCS
	// revision): code that changed can change every row.
	Version string `json:"version"`
	// Suite is the suite manifest's hash (tasks.ManifestHash).
	Suite string `json:"suite"`
	// Split is the --split run, empty when --tasks chose the tasks.
	Split string `json:"split,omitempty"`
	// Tasks are the task ids in the run's order.
	Tasks []string `json:"tasks"`
	// Evaluators are the deterministic evaluators, in ledger order.
	Evaluators []string `json:"evaluators"`
	// Judges are the LLM judges' targets, in ledger order; none without
	// --judge.
	Judges     []string `json:"judges,omitempty"`
	JudgeCalls int      `json:"judge_calls,omitempty"`
	// Judge describes the judges' endpoints (models, servers, answer
	// settings; never a key), when there are judges.
	Judge     string `json:"judge,omitempty"`
	Edits     int    `json:"edits"`
	MaxStates int    `json:"max_states"`
}

// targets are the run's targets in ledger order.
func (ri *RunInfo) targets() []string {
	return append(slices.Clone(ri.Evaluators), ri.Judges...)
}

// ShardInfo is the metadata a shard's ledger carries besides its rows
// (the JSON ledger's "shard" field): which shard it is, of which run.
type ShardInfo struct {
	Shard
	Run RunInfo `json:"run"`
}

// check holds decoded shard metadata to its rules.
func (si *ShardInfo) check() error {
	if err := si.valid(); err != nil {
		return err
	}
	r := &si.Run
	switch {
	case r.Version == "" || r.Suite == "":
		return errors.New("run: version and suite must not be empty")
	case len(r.Tasks) == 0 || len(r.Evaluators) == 0:
		return errors.New("run: tasks and evaluators must not be empty")
	case r.Edits < 1 || r.MaxStates < 1:
		return errors.New("run: edits and max_states must be at least 1")
	case r.JudgeCalls < 0 || r.JudgeCalls > 0 && len(r.Judges) == 0:
		return errors.New("run: judge_calls needs judges")
	}
	for _, list := range [][]string{r.Tasks, r.targets()} {
		for i, s := range list {
			if s == "" || slices.Contains(list[:i], s) {
				return fmt.Errorf("run: %q is empty or repeated", s)
			}
		}
	}
	return nil
}

// RowKey names a row: its set, target and task.
type RowKey struct{ Set, Target, Task string }

func (k RowKey) String() string { return fmt.Sprintf("(%s, %s, %s)", k.Set, k.Target, k.Task) }

// RowOrder is the ledger order of the rows of the pairs ps of a run, as
// the benchmark run (attacker/bench) writes them: shared set first (the
// deterministic evaluators, then the judges), then targeted (the
// deterministic evaluators, then the judges when they are attacked:
// judgeCalls > 0); within that, by target, then task, in the run's
// orders.
func RowOrder(tasks, evs, judges []string, judgeCalls int, ps []Pair) []RowKey {
	owned := map[Pair]bool{}
	for _, p := range ps {
		owned[p] = true
	}
	targeted := evs
	if judgeCalls > 0 {
		targeted = append(slices.Clone(evs), judges...)
	}
	var keys []RowKey
	for _, part := range []struct {
		set     string
		targets []string
	}{{SetShared, append(slices.Clone(evs), judges...)}, {SetTargeted, targeted}} {
		for _, g := range part.targets {
			for _, t := range tasks {
				if owned[Pair{t, g}] {
					keys = append(keys, RowKey{part.set, g, t})
				}
			}
		}
	}
	return keys
}

// ErrMerge is wrapped by every reason Merge refuses its ledgers.
var ErrMerge = errors.New("cannot merge")

// Merge joins the ledgers of every shard of one run, named by their
// files, into the ledger the unsharded run writes: the same rows in the
// same order, without shard metadata. It refuses ledgers without shard
// metadata, shards of different runs (any RunInfo field, or n, differs),
// two files of the same shard (an overlap), a missing shard (a gap), and
// a shard whose rows are not exactly its slice's.
func Merge(names []string, ls []*Ledger) (*Ledger, error) {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrMerge, fmt.Sprintf(format, args...))
	}
	if len(ls) == 0 {
		return nil, fail("no ledgers")
	}
	for i, l := range ls {
		if l.Shard == nil {
			return nil, fail("%s is not a shard's ledger (parthack bench --shard i/n writes those); only the shards of one run merge", names[i])
		}
	}
	first := ls[0].Shard
	byIndex := make([]int, first.Count) // shard index → 1 + position in ls
	for i, l := range ls {
		s := l.Shard
		if s.Count != first.Count {
			return nil, fail("%s is shard %s but %s is shard %s: the shards of one run share n", names[0], first.Shard, names[i], s.Shard)
		}
		if diff := runDiff(&first.Run, &s.Run); diff != "" {
			return nil, fail("%s and %s are shards of different runs: %s", names[0], names[i], diff)
		}
		if j := byIndex[s.Index]; j != 0 {
			return nil, fail("overlap: %s and %s are both shard %s", names[j-1], names[i], s.Shard)
		}
		byIndex[s.Index] = i + 1
	}
	var missing []string
	for i, j := range byIndex {
		if j == 0 {
			missing = append(missing, Shard{i, first.Count}.String())
		}
	}
	if len(missing) > 0 {
		return nil, fail("gap: shard %s missing (have %d of %d shards)", strings.Join(missing, ", "), len(ls), first.Count)
	}
	r := &first.Run
	pairs := Pairs(r.Tasks, r.targets())
	rows := map[RowKey]Row{}
	for i, l := range ls {
		want := RowOrder(r.Tasks, r.Evaluators, r.Judges, r.JudgeCalls, l.Shard.Slice(pairs))
		have := map[RowKey]*Row{}
		for j := range l.Rows {
			row := &l.Rows[j]
			have[RowKey{row.Set, row.Target, row.Task}] = row
		}
		for _, k := range want {
			row, ok := have[k]
			if !ok {
				return nil, fail("%s (shard %s) lacks row %s of its slice", names[i], l.Shard.Shard, k)
			}
			rows[k] = *row
			delete(have, k)
		}
		for _, row := range l.Rows { // in file order, for a stable message
			if k := (RowKey{row.Set, row.Target, row.Task}); have[k] != nil {
				return nil, fail("%s (shard %s) holds row %s, which is not in its slice", names[i], l.Shard.Shard, k)
			}
		}
	}
	out := &Ledger{}
	for _, k := range RowOrder(r.Tasks, r.Evaluators, r.Judges, r.JudgeCalls, pairs) {
		out.Rows = append(out.Rows, rows[k])
	}
	return out, nil
}

// runDiff names the settings in which two runs differ, "" when none.
func runDiff(a, b *RunInfo) string {
	var diffs []string
	va, vb := reflect.ValueOf(*a), reflect.ValueOf(*b)
	for i := range va.NumField() {
		x, y := va.Field(i).Interface(), vb.Field(i).Interface()
		if !reflect.DeepEqual(x, y) {
			name, _, _ := strings.Cut(va.Type().Field(i).Tag.Get("json"), ",")
			diffs = append(diffs, fmt.Sprintf("%s %s vs %s", name, show(x), show(y)))
		}
	}
	return strings.Join(diffs, "; ")
}

func show(v any) string {
	switch x := v.(type) {
	case string:
		if x == "" {
			return "(none)"
		}
		return strconv.Quote(x)
	case []string:
		if len(x) == 0 {
			return "(none)"
		}
		return strings.Join(x, ",")
	}
	return fmt.Sprint(v)
}
