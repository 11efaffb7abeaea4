package report

import (
	"bytes"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// cappedLedger is the golden ledger with some searches cut at the state
// cap: every shared row of PH-H04 (the search for A_ref stopped) and the
// targeted Historical Milestone row of PH-H07.
func cappedLedger(t *testing.T) *Ledger {
	t.Helper()
	l, err := ReadFile(testdata("ledger.json"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for i := range l.Rows {
		r := &l.Rows[i]
		if r.Set == SetShared && r.Task == "PH-H04" || r.Set == SetTargeted && r.Target == "historical_milestone" && r.Task == "PH-H07" {
			r.Capped = true
			n++
		}
	}
	if n < 2 {
		t.Fatalf("the golden ledger has %d rows to cap", n)
	}
	return l
}

// TestCappedRoundTrip: capped rows survive JSON and CSV, are the only
// ones that say so, and a ledger without them keeps its bytes (the
// golden ledger reads and writes back unchanged, capped nowhere).
func TestCappedRoundTrip(t *testing.T) {
	l := cappedLedger(t)
	var js, cs bytes.Buffer
	if err := WriteJSON(&js, l); err != nil {
		t.Fatal(err)
	}
	if err := WriteCSV(&cs, l); err != nil {
		t.Fatal(err)
	}
	capped := 0
	for _, r := range l.Rows {
		if r.Capped {
			capped++
		}
	}
	if got := strings.Count(js.String(), `"capped": true`); got != capped || strings.Contains(js.String(), `"capped": false`) {
		t.Errorf("the JSON ledger says capped %d times for %d capped rows", got, capped)
	}
	lines := strings.Split(strings.TrimSpace(cs.String()), "\n")
	if !strings.HasSuffix(lines[0], ",valid,capped") {
		t.Errorf("CSV header %q: want the capped column after valid", lines[0])
	}
	for _, line := range lines[1:] {
		if !strings.HasSuffix(line, ",true") && !strings.HasSuffix(line, ",") {
			t.Errorf("CSV row %q: capped is true or an empty cell", line)
		}
	}
	for name, src := range map[string][]byte{"x.json": js.Bytes(), "x.csv": cs.Bytes()} {
		got, err := Read(name, src)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, l) {
			t.Errorf("%s: the capped rows do not survive a round trip", name)
		}
	}

	old, err := ReadFile(testdata("ledger.json"))
	if err != nil {
		t.Fatal(err)
	}
	js.Reset()
	cs.Reset()
	WriteJSON(&js, old)
	WriteCSV(&cs, old)
	if strings.Contains(js.String()+cs.String(), "capped") {
		t.Error("a ledger without capped searches mentions capped")
	}
	for _, f := range formats {
		var b bytes.Buffer
		if err := Render(&b, Compute(old), f); err != nil {
			t.Fatal(err)
		}
		if s := b.String(); strings.Contains(s, "capped") || strings.Contains(s, "state cap") {
			t.Errorf("%s report of a ledger without capped searches mentions the cap", f)
		}
	}
}

// TestCappedMerge: shards carry their capped rows into the merged ledger.
func TestCappedMerge(t *testing.T) {
	l := cappedLedger(t)
	var tasks, evs, judges []string
	for _, r := range l.Rows {
		if !slices.Contains(tasks, r.Task) {
			tasks = append(tasks, r.Task)
		}
		_, judge := judgeLabels[r.Target]
		switch {
		case judge && !slices.Contains(judges, r.Target):
			judges = append(judges, r.Target)
		case !judge && !slices.Contains(evs, r.Target):
			evs = append(evs, r.Target)
		}
	}
	run := RunInfo{Version: "test", Suite: "suite", Tasks: tasks, Evaluators: evs, Judges: judges, Edits: 2, MaxStates: 10}
	targets := append(slices.Clone(evs), judges...)
	// The golden ledger has no targeted CSPS rows: a run would; they
	// copy the shared ones.
	have := map[RowKey]Row{}
	for _, r := range l.Rows {
		have[RowKey{r.Set, r.Target, r.Task}] = r
	}
	whole := &Ledger{}
	for _, k := range RowOrder(tasks, evs, judges, 0, Pairs(tasks, targets)) {
		r, ok := have[k]
		if !ok {
			r = have[RowKey{SetShared, k.Target, k.Task}]
			r.Set = SetTargeted
		}
		whole.Rows = append(whole.Rows, r)
	}
	l = whole
	const n = 3
	var names []string
	var shards []*Ledger
	for i := n - 1; i >= 0; i-- {
		sh := Shard{Index: i, Count: n}
		part := &Ledger{Shard: &ShardInfo{Shard: sh, Run: run}}
		keys := RowOrder(tasks, evs, judges, 0, sh.Slice(Pairs(tasks, targets)))
		for _, r := range l.Rows {
			if slices.Contains(keys, RowKey{r.Set, r.Target, r.Task}) {
				part.Rows = append(part.Rows, r)
			}
		}
		var b bytes.Buffer
		if err := WriteJSON(&b, part); err != nil {
			t.Fatal(err)
		}
		name := sh.String() + ".json"
		back, err := Read(name, b.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		names, shards = append(names, name), append(shards, back)
	}
	merged, err := Merge(names, shards)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(merged.Rows, l.Rows) {
		t.Error("the merged shards lose or move capped rows")
	}
}

// TestCappedReport: the capped tasks are named in every format: the
// notes of the target-specific and shared-set tables (text, Markdown,
// the LaTeX captions), each group's capped list in JSON and the
// capped_tasks column of the metrics CSV.
func TestCappedReport(t *testing.T) {
	rep := Compute(cappedLedger(t))
	var targeted, shared int
	for _, g := range rep.Groups {
		switch {
		case g.Set == SetTargeted && g.Target == "historical_milestone":
			targeted++
			if !slices.Equal(g.Capped, []string{"PH-H07"}) {
				t.Errorf("targeted Historical Milestone capped %v", g.Capped)
			}
		case g.Set == SetShared:
			shared++
			if !slices.Equal(g.Capped, []string{"PH-H04"}) {
				t.Errorf("shared %s capped %v", g.Target, g.Capped)
			}
		case len(g.Capped) > 0:
			t.Errorf("%s %s capped %v", g.Set, g.Target, g.Capped)
		}
	}
	if targeted != 1 || shared == 0 {
		t.Fatalf("%d targeted Historical Milestone groups, %d shared", targeted, shared)
	}
	want := map[Format][]string{
		FormatTable: {
			"Searches stopped at the state cap before exhausting the edit bound (a larger cap may find more): Historical Milestone on PH-H07.",
			"The searches for A_ref stopped at the state cap before exhausting the edit bound (a larger cap may find more): PH-H04 (every evaluator).",
		},
		FormatMarkdown: {"Historical Milestone on PH-H07.", "PH-H04 (every evaluator)."},
		FormatLaTeX:    {`state cap before exhausting the edit bound (a larger cap may find more): Historical Milestone on PH-H07. Their adversary is the best found, not the certified worst case, and $\Delta$hack there a lower bound.}`, "PH-H04 (every evaluator)"},
		FormatJSON:     {"\"capped\": [\n        \"PH-H07\"\n      ]", "\"capped\": [\n        \"PH-H04\"\n      ]"},
		FormatCSV:      {",generated,protocol_valid,capped_tasks\n", ",PH-H04\n", ",PH-H07\n"},
	}
	for f, subs := range want {
		var b bytes.Buffer
		if err := Render(&b, rep, f); err != nil {
			t.Fatal(err)
		}
		for _, s := range subs {
			if !strings.Contains(b.String(), s) {
				t.Errorf("%s report lacks %q:\n%s", f, s, b.String())
			}
		}
	}
}

// TestCappedBudgets: the budget table names the capped searches of each
// budget's run.
func TestCappedBudgets(t *testing.T) {
	rep := Compute(cappedLedger(t))
	rep.AddBudget(1, cappedLedger(t))
	var b bytes.Buffer
	if err := Render(&b, rep, FormatTable); err != nil {
		t.Fatal(err)
	}
	if want := "(a larger cap may find more): within 1 edit(s), Historical Milestone on PH-H07."; !strings.Contains(b.String(), want) {
		t.Errorf("the budget table lacks %q:\n%s", want, b.String())
	}
}
