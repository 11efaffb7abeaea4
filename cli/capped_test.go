package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/parthack/parthack/report"
)

// TestBenchReportsTheCap: with a state cap below what PH-D01's searches
// need (151 states within 1 edit) and above PH-H05's (76), bench names
// PH-D01, and only it, as capped in every format, on stderr, and in the
// ledger, JSON and CSV, whose report says the same again.
func TestBenchReportsTheCap(t *testing.T) {
	args := []string{"bench", "--tasks", "PH-H05,PH-D01", "--edits", "1", "--max-states", "100"}
	for format, want := range map[string][]string{
		"table":    {"Searches stopped at the state cap before exhausting the edit bound (a larger cap may find more): PH-D01 (every target).", "The searches for A_ref stopped at the state cap before exhausting the edit bound (a larger cap may find more): PH-D01 (every evaluator)."},
		"markdown": {"(a larger cap may find more): PH-D01 (every target).", "PH-D01 (every evaluator)."},
		"latex":    {`\caption{Target-specific attack results.`, "(a larger cap may find more): PH-D01 (every target). Their adversary is the best found"},
		"json":     {"\"capped\": [\n        \"PH-D01\"\n      ]"},
		"csv":      {",generated,protocol_valid,capped_tasks\n", ",PH-D01\n"},
	} {
		t.Run(format, func(t *testing.T) {
			code, out, errOut := run(t, append(args, "--format", format)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			for _, w := range want {
				if !strings.Contains(out, w) {
					t.Errorf("the %s report lacks %q:\n%s", format, w, out)
				}
			}
			if strings.Contains(out, "PH-H05") {
				t.Errorf("the %s report names PH-H05, whose searches were exhausted:\n%s", format, out)
			}
			if w := "bench: 6 targeted searches stopped at --max-states 100: their bound is not exhausted"; !strings.Contains(errOut, w) {
				t.Errorf("stderr lacks %q:\n%s", w, errOut)
			}
		})
	}
	dir := t.TempDir()
	_, table, _ := run(t, args...)
	for _, name := range []string{"l.json", "l.csv"} {
		path := filepath.Join(dir, name)
		if code, _, errOut := run(t, append(args, "--ledger-out", path)...); code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		l, err := report.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range l.Rows {
			if r.Capped != (r.Task == "PH-D01") {
				t.Errorf("%s: row %s %s %s capped %t", name, r.Set, r.Target, r.Task, r.Capped)
			}
		}
		code, rep, errOut := run(t, "report", "--ledger", path)
		if code != 0 || rep != table {
			t.Errorf("report --ledger %s: exit %d, %s\n%s\nwant bench's\n%s", name, code, errOut, rep, table)
		}
	}
}

// TestTauBenchReportsTheCap: bench --domain tau-airline marks the runs
// whose searches were cut in its ledger and tables.
func TestTauBenchReportsTheCap(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tau.json")
	code, out, errOut := run(t, "bench", "--domain", "tau-airline", "--tasks", "TAU-A04", "--max-states", "20", "--ledger-out", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	l, err := report.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var capped []string
	for _, r := range l.Rows {
		if r.Capped && r.Set == report.SetTargeted && r.Target == "historical_milestone" {
			capped = append(capped, r.Task)
		}
	}
	if len(capped) == 0 {
		t.Fatal("no run's search was cut at 20 states")
	}
	if w := "(a larger cap may find more): " + strings.Join(capped, ", "); !strings.Contains(out, w) {
		t.Errorf("the tables lack %q:\n%s", w, out)
	}
}
