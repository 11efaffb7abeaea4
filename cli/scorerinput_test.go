package cli

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"

	"github.com/parthack/parthack/internal/worker"
)

// python is the system's Python for the scorer tests, with the flags
// that let it run in the sandbox; the test skips where there is none or
// where the worker refuses to run.
func python(t *testing.T, args ...string) []string {
	t.Helper()
	if abi, err := ll.LandlockGetABIVersion(); err != nil || abi < worker.MinLandlockABI {
		t.Skipf("the worker refuses to run here (Landlock ABI %d, %v)", abi, err)
	}
	if _, err := os.Stat("/usr/bin/python3"); err != nil {
		t.Skip("no /usr/bin/python3")
	}
	out := []string{"--scorer", "/usr/bin/python3", "--scorer-ro", "/usr/lib"}
	for _, a := range args {
		out = append(out, "--scorer-arg", a)
	}
	return out
}

// TestScorerInputTau2: PR #151's rule as a Python scorer reading tau2's
// {task, simulation} gives a run the score tau2_prm_partial_action reads
// off its payload, and finds the same inflation when attacked.
func TestScorerInputTau2(t *testing.T) {
	script, err := filepath.Abs(filepath.Join("..", "examples", "prm151_scorer.py"))
	if err != nil {
		t.Fatal(err)
	}
	sc := append(python(t, script), "--scorer-ro", script, "--scorer-input", "tau2")
	code, out, errs := run(t, append([]string{"score", "--task", "T2A-7", "--trajectory", "T2A-7-gpt-4o-2024-11-20-trial0", "--json"}, sc...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	s := decodeScore(t, out)
	var prm float64
	for _, r := range s.Rewards {
		if r.Name == "tau2_prm_partial_action" {
			prm = r.Value
		}
	}
	if len(s.Judges) != 1 || s.Judges[0].Value == nil || *s.Judges[0].Value != prm || prm != .9 {
		t.Fatalf("scorer %+v, tau2_prm_partial_action %v: want both .9", s.Judges, prm)
	}
	code, out, errs = run(t, append([]string{"attack", "--task", "T2R-5", "--honest", "T2R-5-gpt-4.1-mini-2025-04-14-trial0", "--edits", "1", "--target", "scorer", "--json"}, sc...)...)
	if code != 0 {
		t.Fatalf("attack: exit %d: %s", code, errs)
	}
	var res struct {
		Honest float64 `json:"honest_score"`
		Delta  float64 `json:"delta"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if res.Honest != .8 || math.Abs(res.Delta-.2) > 1e-9 {
		t.Errorf("attack --target scorer: f(H) %v, Δ %v; want .8 and .2, as tau2_prm_partial_action's", res.Honest, res.Delta)
	}
}

// TestScorerInputFailures: a scorer that gives no valid answer is an
// error naming the input and the candidate, exit 2, never a score; and
// --scorer-input holds to what the task's benchmark records.
func TestScorerInputFailures(t *testing.T) {
	for _, c := range []struct{ name, code, want string }{
		{"not JSON", `print("oops", flush=True); import time; time.sleep(60)`, "the answer is not a JSON object"},
		{"out of range", `print('{"score": 1.5}', flush=True); import time; time.sleep(60)`, "score 1.5 is not in [0, 1]"},
		{"no answer", `import sys; sys.stdin.readline()`, "gave no answer to input 1: it exited with status 0"},
		{"crash", `import sys; sys.stdin.readline(); sys.exit(4)`, "gave no answer to input 1: it ended: exit status 4"},
	} {
		args := append([]string{"attack", "--task", "T2R-5", "--honest", "T2R-5-gpt-4.1-mini-2025-04-14-trial0", "--edits", "1", "--target", "scorer", "--scorer-input", "tau2"},
			python(t, "-c", c.code)...)
		code, out, errs := run(t, args...)
		if code != 2 || out != "" || !strings.Contains(errs, c.want) || !strings.Contains(errs, "on input 1 (task T2R-5, payload sha256 ") {
			t.Errorf("%s: exit %d, stdout %q, stderr %s", c.name, code, out, errs)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"score", "--task", "TAU-A04", "--trajectory", "trial0", "--scorer", "/usr/bin/python3", "--scorer-input", "tau2"}, "tau-airline's runs are in tau-bench's format"},
		{[]string{"score", "--task", "PH-D01", "--trajectory", "witness", "--scorer", "/usr/bin/python3", "--scorer-input", "tau2"}, "the suite's tasks have only the payload"},
		{[]string{"score", "--task", "PH-D01", "--trajectory", "witness", "--scorer", "/usr/bin/python3", "--scorer-input", "csv"}, `--scorer-input "csv": want payload or a benchmark's run format`},
		{[]string{"attack", "--task", "T2R-5", "--honest", "T2R-5-gpt-4.1-mini-2025-04-14-trial0", "--target", "scorer"}, "--target scorer and --scorer go together"},
		{[]string{"bench", "--scorer", "/usr/bin/python3"}, "--scorer goes with --domain"},
	} {
		code, _, errs := run(t, c.args...)
		if code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, %s; want 2 and %q", c.args, code, errs, c.want)
		}
	}
}
