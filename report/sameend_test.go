package report

import (
	"bytes"
	"strings"
	"testing"
)

// TestSameEndColumn: a real domain's rows carry same_end_state, true or
// false, through JSON and CSV alike; an unmatched row may not, and a
// ledger without it keeps its columns.
func TestSameEndColumn(t *testing.T) {
	yes, no := true, false
	d1, d2 := 0.25, 0.0
	h := 0.5
	l := &Ledger{Rows: []Row{
		{Target: "historical_milestone", Set: SetShared, Task: "a", Matched: true, Delta: &d1, Honest: &h, PStateH: 0.5, Attempts: 3, Valid: 1, SameEnd: &no},
		{Target: "historical_milestone", Set: SetShared, Task: "b", Matched: true, Delta: &d2, Honest: &h, PStateH: 0.5, Attempts: 3, Valid: 1, SameEnd: &yes},
		{Target: "historical_milestone", Set: SetShared, Task: "c", Honest: &h, PStateH: 0.5, Attempts: 3},
	}}
	for _, name := range []string{"l.json", "l.csv"} {
		var b bytes.Buffer
		if err := Write(&b, name, l); err != nil {
			t.Fatal(err)
		}
		back, err := Read(name, b.Bytes())
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, b.String())
		}
		for i, r := range back.Rows {
			if (r.SameEnd == nil) != (l.Rows[i].SameEnd == nil) || r.SameEnd != nil && *r.SameEnd != *l.Rows[i].SameEnd {
				t.Errorf("%s row %d: same_end_state %v, want %v", name, i, r.SameEnd, l.Rows[i].SameEnd)
			}
		}
	}
	bad := "target,set,task,matched,delta,honest_score,p_state_h,rollback_score,p_state_r,attempts,valid,same_end_state\n" +
		"historical_milestone,shared,c,false,,0.5,0.5,,,1,0,true\n"
	if _, err := Read("bad.csv", []byte(bad)); err == nil || !strings.Contains(err.Error(), `column "same_end_state": given on an unmatched row`) {
		t.Fatalf("got %v", err)
	}
	var plain bytes.Buffer
	l.Rows = l.Rows[2:]
	if err := WriteCSV(&plain, l); err != nil || strings.Contains(plain.String(), "same_end_state") {
		t.Fatalf("a ledger with no witness compared grew the column: %v\n%s", err, plain.String())
	}
	rep := Compute(&Ledger{Rows: []Row{
		{Target: "historical_milestone", Set: SetShared, Task: "a", Matched: true, Delta: &d1, Honest: &h, PStateH: 0.5, Attempts: 3, Valid: 1, SameEnd: &no},
		{Target: "historical_milestone", Set: SetShared, Task: "b", Matched: true, Delta: &d1, Honest: &h, PStateH: 0.5, Attempts: 3, Valid: 1, SameEnd: &yes},
		{Target: "historical_milestone", Set: SetShared, Task: "c", Matched: true, Delta: &d2, Honest: &h, PStateH: 0.5, Attempts: 3, Valid: 1, SameEnd: &yes},
	}})
	if g := rep.Groups[0]; g.SameEnd == nil || *g.SameEnd != (SameEnd{Successes: 2, Same: 1}) {
		t.Fatalf("same end %+v, want 1 of 2 successes", g.SameEnd)
	}
}
