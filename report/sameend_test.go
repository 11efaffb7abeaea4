package report

import (
	"bytes"
	"encoding/json"
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
	if err := WriteCSV(&plain, l); err != nil || strings.Contains(plain.String(), "same_end_state") || strings.Contains(plain.String(), "attack_end") {
		t.Fatalf("a ledger with no witness compared grew the columns: %v\n%s", err, plain.String())
	}
}

// endLedger is a real domain's ledger as bench writes it by default:
// successes end in H's state, each with its rise; the tasks without one
// say where the any-end search's best attack over .10 ends.
func endLedger() *Ledger {
	yes := true
	h, big, small := 0.5, 0.25, 0.05
	row := func(task string, matched bool, delta *float64, end, rise string) Row {
		r := Row{Target: "tau2_action", Set: SetTargeted, Task: task, Matched: matched, Delta: delta, Honest: &h, PStateH: 0.5, Attempts: 3, End: end, Rise: rise}
		if matched {
			r.Valid, r.SameEnd = 1, &yes
		}
		return r
	}
	return &Ledger{Rows: []Row{
		row("a", true, &big, EndSame, RiseFailedCall),
		row("b", true, &big, EndSame, RiseFailedCall),
		row("c", true, &big, EndSame, RiseChangeUndo),
		row("d", true, &small, EndGold, ""),
		row("e", false, nil, EndOther, ""),
		row("f", true, &small, "", ""),
	}}
}

// TestEndCounts: each group counts its tasks by where their best attack
// over .10 ends and its same-end ones by why the evaluator rose; JSON
// carries same_end, gold_end and other_end with successes equal to
// same_end, and every text format and the metrics CSV show them.
func TestEndCounts(t *testing.T) {
	l := endLedger()
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
			if r.End != l.Rows[i].End || r.Rise != l.Rows[i].Rise {
				t.Errorf("%s row %d: attack_end %q rise %q, want %q %q", name, i, r.End, r.Rise, l.Rows[i].End, l.Rows[i].Rise)
			}
		}
	}
	rep := Compute(l)
	g := rep.Groups[0]
	want := EndCounts{SameEnd: 3, GoldEnd: 1, OtherEnd: 1, Rise: Rise{FailedCall: 2, ChangeUndo: 1}}
	if g.EndCounts == nil || *g.EndCounts != want || g.Successes != g.SameEnd {
		t.Fatalf("counts %+v, successes %d; want %+v", g.EndCounts, g.Successes, want)
	}
	var b bytes.Buffer
	if err := Render(&b, rep, FormatJSON); err != nil {
		t.Fatal(err)
	}
	var j struct {
		Groups []map[string]json.RawMessage
	}
	if err := json.Unmarshal(b.Bytes(), &j); err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]string{"successes": "3", "same_end": "3", "gold_end": "1", "other_end": "1", "rise": `{"failed_call":2,"no_op_repeat":0,"change_undo":1}`} {
		var c bytes.Buffer
		json.Compact(&c, j.Groups[0][k])
		if c.String() != v {
			t.Errorf("json %s = %s, want %s", k, c.String(), v)
		}
	}
	for f, want := range map[Format][]string{
		FormatTable:    {"Same end (failed/no-op/undo)  Gold end  Other end", "3 (2/0/1)         1          1", "count Same end only (the search admitted only witnesses"},
		FormatMarkdown: {"| Same end (failed/no-op/undo) | Gold end | Other end |", "| 3 (2/0/1) | 1 | 1 |"},
		FormatLaTeX:    {`\textbf{Same end (failed/no-op/undo)} & \textbf{Gold end} & \textbf{Other end}`, "& 3 (2/0/1) & 1 & 1"},
		FormatCSV:      {",same_end,gold_end,other_end,rise_failed_call,rise_no_op_repeat,rise_change_undo\n", ",3,1,1,2,0,1\n"},
	} {
		var b bytes.Buffer
		if err := Render(&b, rep, f); err != nil {
			t.Fatal(err)
		}
		for _, w := range want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s lacks %q:\n%s", f, w, b.String())
			}
		}
	}
}

// TestEndRules: attack_end and rise take their values only, on the rows
// they fit, each error at its column.
func TestEndRules(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(*Row)
		want string
	}{
		{"unknown end", func(r *Row) { r.End = "h" }, `column "attack_end": "h" is none of same, gold, other`},
		{"unknown rise", func(r *Row) { r.Rise = "undo" }, `column "rise": "undo" is none of failed_call, no_op_repeat, change_undo`},
		{"rise off same", func(r *Row) { r.End, r.Rise = EndGold, RiseFailedCall }, `column "rise": given on a row whose attack_end is not "same"`},
		{"same without success", func(r *Row) { d := 0.05; r.Delta = &d }, `column "attack_end": "same" on a row that is no success`},
		{"gold on a same-end success", func(r *Row) { r.End, r.Rise = EndGold, "" }, `column "attack_end": "gold" on a success whose own witness ends in H's state`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := endLedger()
			tc.edit(&l.Rows[0])
			var b bytes.Buffer
			if err := WriteCSV(&b, l); err != nil {
				t.Fatal(err)
			}
			if _, err := Read("bad.csv", b.Bytes()); err == nil || !strings.Contains(err.Error(), "bad.csv:2: row 1, "+tc.want) {
				t.Fatalf("got %v, want %q", err, tc.want)
			}
		})
	}
}

// TestOldSameEndLedger: a ledger written before attack_end still loads,
// and counts a success by its same_end_state: in H's state, or other.
func TestOldSameEndLedger(t *testing.T) {
	yes, no := true, false
	d := 0.25
	h := 0.5
	rep := Compute(&Ledger{Rows: []Row{
		{Target: "historical_milestone", Set: SetShared, Task: "a", Matched: true, Delta: &d, Honest: &h, PStateH: 0.5, Attempts: 3, Valid: 1, SameEnd: &no},
		{Target: "historical_milestone", Set: SetShared, Task: "b", Matched: true, Delta: &d, Honest: &h, PStateH: 0.5, Attempts: 3, Valid: 1, SameEnd: &yes},
	}})
	if c := rep.Groups[0].EndCounts; c == nil || *c != (EndCounts{SameEnd: 1, OtherEnd: 1}) {
		t.Fatalf("counts %+v, want 1 same and 1 other", c)
	}
	var b bytes.Buffer
	if err := Render(&b, rep, FormatTable); err != nil || !strings.Contains(b.String(), "count every end") {
		t.Fatalf("%v\n%s", err, b.String())
	}
}
