package report

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

var minimalGolden = map[Format]string{
	FormatTable:    "minimal.txt",
	FormatMarkdown: "minimal.md",
	FormatLaTeX:    "minimal.tex",
	FormatCSV:      "minimal-report.csv",
	FormatJSON:     "minimal-report.json",
}

// TestMinimalLedgerGolden reports the minimal form of the golden ledger
// (its five columns a paper prints), from CSV and from JSON alike, and
// holds the output to golden files: the tables the five columns give,
// then one line per table left out.
func TestMinimalLedgerGolden(t *testing.T) {
	fromCSV, err := ReadFile(testdata("minimal.csv"))
	if err != nil {
		t.Fatal(err)
	}
	fromJSON, err := ReadFile(testdata("minimal.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !fromCSV.Minimal || !fromJSON.Minimal {
		t.Fatalf("minimal: CSV %v, JSON %v", fromCSV.Minimal, fromJSON.Minimal)
	}
	for f, name := range minimalGolden {
		t.Run(string(f), func(t *testing.T) {
			render := func(l *Ledger) string {
				var b bytes.Buffer
				if err := Render(&b, Compute(l), f); err != nil {
					t.Fatal(err)
				}
				return b.String()
			}
			got := render(fromCSV)
			golden(t, name, got)
			if again := render(fromJSON); again != got {
				t.Errorf("the JSON form of the minimal ledger renders differently")
			}
		})
	}
}

// TestMinimalAgreesWithFull: every table a minimal ledger gives holds the
// full ledger's values, less the columns the five columns cannot give.
func TestMinimalAgreesWithFull(t *testing.T) {
	full, err := ReadFile(testdata("ledger.json"))
	if err != nil {
		t.Fatal(err)
	}
	minimal, err := ReadFile(testdata("minimal.csv"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Table{}
	for _, tb := range Compute(full).Tables() {
		want[tb.ID] = tb
	}
	var ids []string
	for _, got := range Compute(minimal).Tables() {
		ids = append(ids, got.ID)
		w := want[got.ID]
		for _, head := range []string{"Valid", "Honest MAE", "Rollback", "Rollback detection"} {
			if slices.ContainsFunc(w.Columns, func(c Column) bool { return c.Head == head }) {
				w.dropColumn(head)
			}
		}
		if !slices.EqualFunc(got.Rows, w.Rows, slices.Equal) {
			t.Errorf("%s: minimal rows %q, full %q", got.ID, got.Rows, w.Rows)
		}
	}
	if !slices.Equal(ids, []string{"targeted", "shared", "thresholds", "intervals"}) {
		t.Errorf("tables %v", ids)
	}
}

func TestMinimalLedgerRules(t *testing.T) {
	for _, c := range []struct{ name, src, want string }{
		{"m.csv", "target,set,task,matched,delta\ncsps,shared,PH-H01,true,\n", `m.csv:2: row 1, column "delta": missing on a matched row`},
		{"m.csv", "target,set,task,matched,delta\ncsps,shared,PH-H01,false,.1\n", `given on an unmatched row`},
		{"m.csv", "target,set,task,matched,delta\ncsps,shared,PH-H01,true,1.5\n", `1.5 is outside [−1, 1]`},
		{"m.csv", "target,set,task,matched,delta\ncsps,shared,PH-H01,true,.1\ncsps,shared,PH-H01,false,\n", "repeats row 1"},
		{"m.csv", "target,set,task,matched,delta,honest_score\ncsps,shared,PH-H01,true,.1,.5\n", `missing required column "p_state_h" (a minimal ledger has exactly target, set, task, matched and delta)`},
		{"m.json", `{"format": "parthack-ledger/1", "rows": [{"target": "csps", "set": "shared", "task": "PH-H01", "matched": true, "delta": 0.1},
{"target": "csps", "set": "shared", "task": "PH-H02", "matched": false, "delta": null, "honest_score": 0.5}]}`, "m.json:2: row 2: has fields target, set, task, matched, delta, honest_score, but row 1 has only the minimal ones"},
		{"m.json", `{"format": "parthack-ledger/1", "rows": [{"target": "csps", "set": "shared", "task": "PH-H01", "matched": true, "delta": 0.1, "honest_score": 0.5, "p_state_h": 0.5, "attempts": 1, "valid": 1},
{"target": "csps", "set": "shared", "task": "PH-H02", "matched": false, "delta": null}]}`, "m.json:2: row 2: has only the minimal fields"},
	} {
		if _, err := Read(c.name, []byte(c.src)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s:\n%s\n→ %v\nwant an error with %q", c.name, c.src, err, c.want)
		}
	}
	// A minimal ledger writes back as one, in either format.
	l, err := ReadFile(testdata("minimal.csv"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"minimal.csv", "minimal.json"} {
		var b bytes.Buffer
		if err := Write(&b, name, l); err != nil {
			t.Fatal(err)
		}
		golden(t, name, b.String())
	}
}
