package report

import (
	"strings"
	"testing"
)

// TestBudgets: runs at other budgets join the report in budget order and
// make the budget sensitivity table, matched / successful per target.
func TestBudgets(t *testing.T) {
	ledger := func(deltas ...float64) *Ledger {
		l := &Ledger{}
		for i, d := range deltas {
			h, d := 0.5, d
			row := Row{Target: "historical_milestone", Set: SetTargeted, Task: string(rune('A' + i)), Honest: &h, PStateH: 0.5, Matched: d >= 0}
			if row.Matched {
				row.Delta = &d
			}
			l.Rows = append(l.Rows, row)
		}
		return l
	}
	rep := Compute(ledger(0.25, 0, -1))
	rep.AddBudget(3, ledger(0.25, 0.25, 0))
	rep.AddBudget(1, ledger(0, -1, -1))
	if len(rep.Budgets) != 2 || rep.Budgets[0].Edits != 1 || rep.Budgets[1].Edits != 3 {
		t.Fatalf("budgets %+v, want edits 1 then 3", rep.Budgets)
	}
	var table *Table
	for _, tb := range rep.Tables() {
		if tb.ID == "budgets" {
			table = &tb
		}
	}
	if table == nil {
		t.Fatal("no budget table")
	}
	got := strings.Join(table.Rows[0], " | ")
	if want := "Historical Milestone | 1 / 0 | 3 / 2"; got != want {
		t.Errorf("row %q, want %q", got, want)
	}
	if table.Columns[1].Head != "≤ 1 edit" || table.Columns[2].Head != "≤ 3 edits" {
		t.Errorf("columns %+v", table.Columns)
	}
	if len(Compute(ledger(0.25)).Tables()) == 0 {
		t.Fatal("no tables")
	}
	for _, tb := range Compute(ledger(0.25)).Tables() {
		if tb.ID == "budgets" {
			t.Error("a budget table without budgets")
		}
	}
}
