package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func reportData(name string) string { return filepath.Join("..", "..", "testdata", "report", name) }

func TestReportExitCodes(t *testing.T) {
	dir := t.TempDir()
	badCSV := filepath.Join(dir, "bad.csv")
	if err := os.WriteFile(badCSV, []byte("target,set,task,matched,delta,honest_score,p_state_h,attempts,valid\ncsps,shared,PH-H01,true,zero,0.5,0.5,3,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name       string
		args       []string
		code       int
		wantOut    string
		wantStderr string
	}{
		{"report a JSON ledger", []string{"report", "--ledger", reportData("ledger.json")}, 0, "Target-specific attack results", ""},
		{"report a CSV ledger as LaTeX", []string{"report", "--ledger", reportData("ledger.csv"), "--format", "latex"}, 0, `\toprule`, ""},
		{"report without a ledger", []string{"report"}, 2, "", "--ledger is required"},
		{"report a missing file", []string{"report", "--ledger", filepath.Join(dir, "nope.json")}, 2, "", "nope.json"},
		{"report a bad cell", []string{"report", "--ledger", badCSV}, 2, "", `bad.csv:2: row 1, column "delta": want a number, got "zero"`},
		{"report an unknown format", []string{"report", "--ledger", reportData("ledger.json"), "--format", "html"}, 2, "", `unknown format "html"`},
		{"bench an unknown split", []string{"bench", "--split", "train"}, 2, "", `--split: "train"`},
		{"bench zero edits", []string{"bench", "--edits", "0"}, 2, "", "at least 1"},
		{"bench a ledger without extension", []string{"bench", "--ledger-out", filepath.Join(dir, "ledger.txt")}, 2, "", ".json or .csv"},
		{"bench an unknown format", []string{"bench", "--format", "pdf"}, 2, "", `unknown format "pdf"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := run(t, c.args...)
			if code != c.code || !strings.Contains(out, c.wantOut) || !strings.Contains(errOut, c.wantStderr) {
				t.Errorf("exit %d (want %d)\nstdout: %s\nstderr: %s", code, c.code, out, errOut)
			}
		})
	}
}

func TestReportMarkdownGolden(t *testing.T) {
	code, out, errOut := run(t, "report", "--ledger", reportData("ledger.json"), "--format", "markdown")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	path := reportData("cli-report-markdown.golden")
	if *update {
		if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./internal/cli -update to create it)", err)
	}
	if out != string(want) {
		t.Errorf("output differs from %s:\n--- got\n%s\n--- want\n%s", path, out, want)
	}
}

// TestBenchLedgerReports runs the benchmark on the development split,
// saves its ledger in both formats, and checks that `report` recomputes
// the very output `bench` printed from either.
func TestBenchLedgerReports(t *testing.T) {
	dir := t.TempDir()
	for _, ext := range []string{".json", ".csv"} {
		ledger := filepath.Join(dir, "ledger"+ext)
		code, out, errOut := run(t, "bench", "--split", "development", "--edits", "1", "--ledger-out", ledger, "--format", "json")
		if code != 0 {
			t.Fatalf("bench: exit %d: %s", code, errOut)
		}
		if !strings.Contains(errOut, "historical_milestone") || !strings.Contains(errOut, "ledger written to") {
			t.Errorf("bench progress: %s", errOut)
		}
		code, again, errOut := run(t, "report", "--ledger", ledger, "--format", "json")
		if code != 0 {
			t.Fatalf("report: exit %d: %s", code, errOut)
		}
		if again != out {
			t.Errorf("report --ledger %s differs from what bench printed", ext)
		}
		if !strings.Contains(out, `"set": "targeted"`) || !strings.Contains(out, `"target": "terminal_outcome"`) {
			t.Errorf("bench report lacks groups:\n%s", out)
		}
	}
}
