package bench

import (
	"bytes"
	"context"
	"errors"
	"runtime"
	"testing"

	"github.com/parthack/parthack/evaluators"
	"github.com/parthack/parthack/report"
	"github.com/parthack/parthack/tasks"
)

func split(t *testing.T, name string) []*tasks.Task {
	t.Helper()
	all, err := tasks.Suite()
	if err != nil {
		t.Fatal(err)
	}
	var out []*tasks.Task
	for _, x := range all {
		if x.Split == name {
			out = append(out, x)
		}
	}
	return out
}

func ledgerBytes(t *testing.T, l *report.Ledger) string {
	t.Helper()
	var b bytes.Buffer
	if err := report.WriteJSON(&b, l); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestRunDevelopment benchmarks the development split within one edit
// and holds the ledger to what the evaluators' definitions guarantee.
func TestRunDevelopment(t *testing.T) {
	ts := split(t, "development")
	var lines int
	l, err := Run(context.Background(), ts, RunOptions{Edits: 1, Workers: 2}, func(string) { lines++ })
	if err != nil {
		t.Fatal(err)
	}
	evs := evaluators.Deterministic()
	if len(l.Rows) != 2*len(evs)*len(ts) {
		t.Fatalf("%d rows, want %d", len(l.Rows), 2*len(evs)*len(ts))
	}
	if lines != len(ts)*len(evs) { // Historical Milestone's search serves both sets
		t.Errorf("%d progress lines, want %d", lines, len(ts)*len(evs))
	}
	// The ledger reads back: every row passes the format's checks.
	if _, err := report.ReadJSON("run.json", []byte(ledgerBytes(t, l))); err != nil {
		t.Fatal(err)
	}
	for i, r := range l.Rows {
		wantSet, wantTarget, wantTask := report.SetShared, evs[(i/len(ts))%len(evs)].Name, ts[i%len(ts)].ID
		if i >= len(evs)*len(ts) {
			wantSet = report.SetTargeted
		}
		if r.Set != wantSet || r.Target != wantTarget || r.Task != wantTask {
			t.Fatalf("row %d is %s/%s/%s, want %s/%s/%s", i, r.Set, r.Target, r.Task, wantSet, wantTarget, wantTask)
		}
		if r.PStateH != ts[i%len(ts)].Honest.Float() {
			t.Errorf("row %d: P_state(H) %v, manifest %s", i, r.PStateH, ts[i%len(ts)].Honest)
		}
		if r.Rollback != nil {
			t.Errorf("row %d: the development split has no strict rollbacks", i)
		}
		// Current-state evaluators score A as H when the vectors match.
		switch r.Target {
		case "csps", "lightweight_cape", "terminal_outcome":
			if r.Matched && *r.Delta != 0 {
				t.Errorf("row %d: %s Δhack %v on a matched pair", i, r.Target, *r.Delta)
			}
		}
	}
	rep := report.Compute(l)
	for _, g := range rep.Groups {
		if g.Target == "historical_milestone" && g.Matched == 0 {
			t.Errorf("%s: no historical witness within one edit", g.Set)
		}
		if (g.Target == "csps" || g.Target == "lightweight_cape") && *g.HonestMAE != 0 {
			t.Errorf("%s %s: honest MAE %v, want 0", g.Set, g.Target, *g.HonestMAE)
		}
	}
	// The shared and targeted Historical rows come from the same search.
	n := len(evs) * len(ts)
	for i := range ts {
		if s, tg := l.Rows[i], l.Rows[n+i]; *s.Delta != *tg.Delta || s.Attempts != tg.Attempts || s.Valid != tg.Valid {
			t.Errorf("%s: shared %+v, targeted %+v", s.Task, s, tg)
		}
	}
	// One worker gives the same ledger, byte for byte.
	l1, err := Run(context.Background(), ts, RunOptions{Edits: 1, Workers: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if ledgerBytes(t, l1) != ledgerBytes(t, l) {
		t.Errorf("the ledger depends on the number of workers")
	}
}

func TestRunCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Run(ctx, split(t, "held-out"), RunOptions{Edits: 2}, nil)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled run: %v", err)
	}
}

// TestRunDoesNotDependOnGOMAXPROCS: tasks are searched side by side, in
// an order of their own, and candidates scored on every core, yet the
// ledger of nine held-out tasks within 3 edits is the same, byte for
// byte, with one core or several.
func TestRunDoesNotDependOnGOMAXPROCS(t *testing.T) {
	var ts []*tasks.Task
	for _, id := range []string{"PH-H01", "PH-H02", "PH-H03", "PH-H04", "PH-H05", "PH-H07", "PH-H08", "PH-H10", "PH-H12"} {
		x, err := tasks.Get(id)
		if err != nil {
			t.Fatal(err)
		}
		ts = append(ts, x)
	}
	run := func() string {
		l, err := Run(context.Background(), ts, RunOptions{Edits: 3}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range l.Rows {
			if r.Capped {
				t.Fatalf("%s %s %s: capped", r.Set, r.Target, r.Task)
			}
		}
		return ledgerBytes(t, l)
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	one := run()
	runtime.GOMAXPROCS(2)
	if two := run(); two != one {
		t.Errorf("the ledger differs with GOMAXPROCS=2:\n%s\nGOMAXPROCS=1:\n%s", two, one)
	}
}
