package report

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

// unscoredLedger has an LLM judge row of each kind the Ledger format
// allows: every score, no f(H), no f(A) and no f(R); and an IDJ whose
// one row lacks f(H).
func unscoredLedger() *Ledger {
	f := func(x float64) *float64 { return &x }
	return &Ledger{Rows: []Row{
		{Target: "historical_milestone", Set: SetTargeted, Task: "T1", Matched: true, Delta: f(0), Honest: f(.5), PStateH: .5, Attempts: 3, Valid: 1},
		{Target: TargetJudge, Set: SetShared, Task: "T1", Matched: true, Delta: f(.2), Honest: f(.5), PStateH: .5, Rollback: f(.3), PStateR: f(.25), Attempts: 3, Valid: 1},
		{Target: TargetJudge, Set: SetShared, Task: "T2", Matched: true, PStateH: .5, Rollback: f(.4), PStateR: f(.25), Attempts: 3, Valid: 1, Error: "H: judge: no answer after 2 attempt(s)"},
		{Target: TargetJudge, Set: SetShared, Task: "T3", Matched: true, Honest: f(.6), PStateH: .5, Attempts: 3, Valid: 1, Error: "A: judge: no answer, \"quoted\",\nover two lines"},
		{Target: TargetJudge, Set: SetShared, Task: "T4", Honest: f(.4), PStateH: .5, PStateR: f(.25), Attempts: 3, Error: "R: judge: no answer"},
		{Target: TargetIDJ, Set: SetShared, Task: "T1", Matched: true, PStateH: .5, Attempts: 3, Valid: 1, Error: "H: idj_checklist: no answer"},
	}}
}

func TestUnscoredLedger(t *testing.T) {
	l := unscoredLedger()
	for _, name := range []string{"x.json", "x.csv"} {
		var b bytes.Buffer
		if err := Write(&b, name, l); err != nil {
			t.Fatal(err)
		}
		back, err := Read(name, b.Bytes())
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !reflect.DeepEqual(back, l) {
			t.Errorf("%s: the ledger does not read back", name)
		}
		if !strings.Contains(b.String(), "error") {
			t.Errorf("%s: no error field:\n%s", name, b.String())
		}
	}
	rep := Compute(l)
	judge, idj := rep.Groups[0], rep.Groups[1]
	if judge.Target != TargetJudge || idj.Target != TargetIDJ {
		t.Fatalf("groups %s, %s", judge.Target, idj.Target)
	}
	// f(H) of T1, T3, T4: |.5 − .5|, |.6 − .5|, |.4 − .5|.
	if judge.HonestMAE == nil || !near(*judge.HonestMAE, .2/3, 1e-12) {
		t.Errorf("honest MAE %v, want .067", judge.HonestMAE)
	}
	// Three matched tasks, one Δhack (.2 > .10); coverage and yield over
	// all four; the one rollback pair with f(H) and f(R) is T1's.
	if judge.Unscored != 3 || judge.Matched != 3 || judge.Coverage.N != 4 || judge.ASR.K != 1 || judge.ASR.N != 1 ||
		judge.Yield.K != 1 || judge.Yield.N != 4 || judge.Rollback.Pairs != 1 || judge.Rollback.Detection.K != 1 {
		t.Errorf("judge group %+v", judge)
	}
	if idj.HonestMAE != nil || idj.MeanDelta != nil || idj.Unscored != 1 {
		t.Errorf("IDJ group %+v", idj)
	}
	var b bytes.Buffer
	if err := Render(&b, rep, FormatTable); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"LLM judge (schema-aware)        .067",
		"IDJ                                —",
		"Tasks left partly unscored (a judge call failed after its retry, or a scorer failed on a trajectory): LLM judge (schema-aware) 3 of 4, IDJ 1 of 1;",
		"Shared LLM judge (schema-aware) 3 of 4, Shared IDJ 1 of 1;",
		"LLM judge (schema-aware) and IDJ: shared set only",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	if err := Render(&b, rep, FormatJSON); err != nil || !strings.Contains(b.String(), `"unscored": 3`) {
		t.Errorf("JSON report: %v", err)
	}
}

// TestNoUnscoredNoChange: a ledger without errors writes no error field
// and its report names no unscored rows, as before the field existed.
func TestNoUnscoredNoChange(t *testing.T) {
	l, err := ReadFile(testdata("ledger.json"))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	for _, f := range []Format{FormatTable, FormatJSON, FormatCSV} {
		if err := Render(&b, Compute(l), f); err != nil {
			t.Fatal(err)
		}
	}
	if err := WriteCSV(&b, l); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"unscored", "error", "no score"} {
		if strings.Contains(b.String(), bad) {
			t.Errorf("output names %q", bad)
		}
	}
}

// TestUnscoredEnd: a user's scorer that failed on the any-end search's
// witness, or on a witness cut to say why it rose, leaves attack_end or
// rise out of a row with every score; the row reads back, and counts as
// unscored.
func TestUnscoredEnd(t *testing.T) {
	f := func(x float64) *float64 { return &x }
	same := true
	l := &Ledger{Rows: []Row{
		{Target: "scorer", Set: SetShared, Task: "T1", Matched: true, Delta: f(0), Honest: f(.5), PStateH: .5, Attempts: 3, Valid: 1, SameEnd: &same,
			Error: "A (any end): scorer a.py on input 7 (task T, payload sha256 ab, calls x{}): scorer: timed out"},
		{Target: "scorer", Set: SetTargeted, Task: "T1", Matched: true, Delta: f(.5), Honest: f(.5), PStateH: .5, Attempts: 3, Valid: 1, SameEnd: &same, End: EndSame,
			Error: "rise: scorer a.py on input 9 (task T, payload sha256 cd, calls x{}): scorer: crashed"},
	}}
	for _, name := range []string{"x.json", "x.csv"} {
		var b bytes.Buffer
		if err := Write(&b, name, l); err != nil {
			t.Fatal(err)
		}
		back, err := Read(name, b.Bytes())
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !reflect.DeepEqual(back, l) {
			t.Errorf("%s: the ledger does not read back", name)
		}
	}
	if g := Compute(l).Groups; len(g) != 2 || g[0].Unscored != 1 || g[1].Unscored != 1 {
		t.Errorf("groups %+v: want one unscored row each", g)
	}
}
