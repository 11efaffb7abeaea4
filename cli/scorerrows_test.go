package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/parthack/parthack/report"
)

// failingScorer answers every input a score read off the line's bytes,
// but for its process's Nth: there it crashes, prints a line that is not
// JSON, prints a score of 1.5, or sleeps past its time limit.
const failingScorer = `import hashlib, json, sys, time
mode, n = sys.argv[1], int(sys.argv[2])
k = 0
for line in sys.stdin:
    k += 1
    if k == n:
        if mode == "crash":
            print("crashing on call", k, file=sys.stderr)
            sys.exit(3)
        if mode == "notjson":
            print("oops", flush=True)
            continue
        if mode == "range":
            print('{"score": 1.5}', flush=True)
            continue
        if mode == "sleep":
            time.sleep(600)
    print(json.dumps({"score": hashlib.sha256(line.encode()).digest()[0] / 255}), flush=True)
`

// TestBenchScorerFailures: a user's scorer that crashes, answers with a
// line that is not JSON or a score outside [0, 1], or runs out of time
// on one call gives error rows naming the trajectory and the candidate
// (input number, payload sha256, calls), never a score; every other row
// is the bench's without the failure, the run exits 2 once everything is
// written, and the output is the same, byte for byte, on a second run.
func TestBenchScorerFailures(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "scorer.py")
	if err := os.WriteFile(script, []byte(failingScorer), 0o644); err != nil {
		t.Fatal(err)
	}
	bench := func(t *testing.T, name, mode, n, format string) (int, string, string, *report.Ledger, []byte) {
		t.Helper()
		ledger := filepath.Join(dir, name+".json")
		args := append([]string{"bench", "--domain", "tau-airline", "--tasks", "TAU-A04", "--edits", "1", "--format", format, "--ledger-out", ledger,
			"--scorer-timeout", "3s"}, python(t, script, mode, n)...)
		code, out, errs := run(t, append(args, "--scorer-ro", script)...)
		raw, err := os.ReadFile(ledger)
		if err != nil {
			t.Fatalf("%s: exit %d, no ledger: %v\n%s", name, code, err, errs)
		}
		l, err := report.Read(ledger, raw)
		if err != nil {
			t.Fatalf("%s: the ledger does not read back: %v", name, err)
		}
		return code, out, errs, l, raw
	}
	code, okOut, errs, ok, _ := bench(t, "ok", "ok", "0", "json")
	if code != 0 || strings.Contains(okOut, "unscored") {
		t.Fatalf("a scorer that never fails: exit %d\n%s", code, errs)
	}
	for _, c := range []struct {
		mode, n string
		want    []string // in some scorer row's error, beside the candidate
	}{
		// Its process's 5th call, and the 5th after each fresh start.
		{"crash", "5", []string{"gave no answer to input 5: it ended: exit status 3; stderr ends:\ncrashing on call 5", "gave no answer to input 10: it ended"}},
		{"notjson", "9", []string{"answer to input 9: the answer is not a JSON object"}},
		{"range", "3", []string{"answer to input 3: score 1.5 is not in [0, 1]"}},
		{"sleep", "35", []string{"gave no answer to input 35 within 3s; its process group was killed"}},
	} {
		t.Run(c.mode, func(t *testing.T) {
			code, out, errs, l, raw := bench(t, c.mode, c.mode, c.n, "json")
			if code != 2 || !strings.Contains(errs, "rows of scorer lack what an evaluator failed to give") {
				t.Fatalf("exit %d, want 2 once everything is written:\n%s", code, errs)
			}
			if len(l.Rows) != len(ok.Rows) {
				t.Fatalf("%d rows, want %d", len(l.Rows), len(ok.Rows))
			}
			var failed []string
			for i, r := range l.Rows {
				switch {
				case r.Error == "":
					if !reflect.DeepEqual(r, ok.Rows[i]) {
						t.Errorf("row %d (%s %s %s) differs from the bench's without the failure:\n%+v\n%+v", i, r.Set, r.Target, r.Task, r, ok.Rows[i])
					}
				case r.Target != scorerTarget:
					t.Errorf("row %d: %s has an error: %s", i, r.Target, r.Error)
				default:
					failed = append(failed, r.Error)
					if !strings.Contains(r.Error, " (task TAU-A04, payload sha256 ") || !strings.Contains(r.Error, ", calls ") {
						t.Errorf("row %d's error names no candidate: %s", i, r.Error)
					}
				}
			}
			if len(failed) == 0 || !strings.Contains(out, `"unscored": [`) || strings.Count(errs, "bench: unscored: ") != len(failed) {
				t.Errorf("%d error rows; the output lists them: JSON %t, stderr %d", len(failed), strings.Contains(out, `"unscored": [`), strings.Count(errs, "bench: unscored: "))
			}
			all := strings.Join(failed, "\n")
			for _, w := range c.want {
				if !strings.Contains(all, w) {
					t.Errorf("no error row says %q:\n%s", w, all)
				}
			}
			code2, out2, _, _, raw2 := bench(t, c.mode+"-again", c.mode, c.n, "json")
			if code2 != code || out2 != out || !bytes.Equal(raw2, raw) {
				t.Errorf("a second run differs: exit %d, stdout equal %t, ledger equal %t", code2, out2 == out, bytes.Equal(raw2, raw))
			}
			if c.mode != "range" {
				return
			}
			// The table lists the rows as stderr does.
			_, table, errs, _, _ := bench(t, c.mode+"-table", c.mode, c.n, "table")
			_, listed, _ := strings.Cut(table, "Unscored rows (an evaluator failed on a trajectory; the ledger's error field says the same)\n\n")
			var said []string
			for _, line := range strings.Split(errs, "\n") {
				if u, ok := strings.CutPrefix(line, "bench: unscored: "); ok {
					said = append(said, u)
				}
			}
			if listed != strings.Join(said, "\n")+"\n" {
				t.Errorf("the table's unscored rows:\n%s\nstderr's:\n%s", listed, strings.Join(said, "\n"))
			}
		})
	}
}
