package cli

import (
	"bytes"
	"errors"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

func example(name string) string { return filepath.Join("..", "testdata", "example", name) }

// run calls Main as the binary would and returns exit code and streams.
func run(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main(args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("..", "testdata", "cli", name+".golden")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./cli -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s:\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

func writeTemp(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "candidate.json")
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestExitCodes(t *testing.T) {
	task, honest := example("task.json"), example("honest.json")
	cases := []struct {
		name       string
		args       []string
		code       int
		wantOut    string
		wantStderr string
	}{
		{"eligible pair", []string{"certify", "--task", task, "--honest", honest, "--candidate", example("witness.json")}, 0, "eligible", ""},
		{"strict rollback", []string{"certify", "--task", task, "--honest", honest, "--rollback", example("rollback.json")}, 0, "certified strict rollback", ""},
		{"rollback used as a candidate", []string{"certify", "--task", task, "--honest", honest, "--candidate", example("rollback.json")}, 1, "state_vector_mismatch", ""},
		{"malformed candidate", []string{"certify", "--task", task, "--honest", honest, "--candidate", writeTemp(t, `{"task": "EX-01", "steps": [`)}, 1, "malformed_schema", ""},
		{"unknown field in candidate", []string{"certify", "--task", task, "--honest", honest, "--candidate", writeTemp(t, `{"task": "EX-01", "stepz": []}`)}, 1, `unknown field \"stepz\"`, ""},
		{"illegal op", []string{"certify", "--task", task, "--honest", honest, "--candidate", writeTemp(t, `{"task": "EX-01", "steps": [{"op": "drop", "type": "ticket", "id": "T1"}]}`)}, 1, "illegal_action", ""},
		{"both candidate and rollback", []string{"certify", "--task", task, "--honest", honest, "--candidate", honest, "--rollback", honest}, 2, "", "exactly one of"},
		{"missing task file", []string{"replay", "--task", "nope.json", "--trajectory", honest}, 2, "", "nope.json"},
		{"unknown flag", []string{"replay", "--frobnicate"}, 2, "", "unknown flag"},
		{"unknown command", []string{"frobnicate"}, 2, "", "unknown command"},
		{"help lists subcommands", []string{"--help"}, 0, "certify", ""},
		{"suite witness by name", []string{"certify", "--task", "PH-D01", "--candidate", "witness"}, 0, "eligible", ""},
		{"suite attribution control", []string{"certify", "--task", "PH-H05", "--candidate", "attribution"}, 1, "attribution_vector_mismatch", ""},
		{"suite rollback by name", []string{"certify", "--task", "PH-H04", "--rollback", "rollback"}, 0, "certified strict rollback", ""},
		{"attack a suite task", []string{"attack", "--task", "PH-D02", "--edits", "2"}, 0, "exhausted: this is the certified worst case", ""},
		{"attack a split", []string{"attack", "--task", "development", "--edits", "1"}, 0, "coverage", ""},
		{"attack an unknown target", []string{"attack", "--task", "PH-D02", "--target", "vibes"}, 2, "", "unknown target evaluator"},
		{"attack a split with --out", []string{"attack", "--task", "all", "--out", "x.json"}, 2, "", "single task"},
		{"bench with budgets", []string{"bench", "--tasks", "PH-D04", "--budgets", "1,2"}, 0, "Budget sensitivity", ""},
		{"judge calls without a judge", []string{"bench", "--tasks", "PH-D04", "--judge-calls", "3"}, 2, "", "--judge-calls needs --judge"},
		{"bench with a zero budget", []string{"bench", "--tasks", "PH-D04", "--budgets", "0"}, 2, "", "--budgets 0 is out of range: allowed 1 to 64"},
		{"unknown stored trajectory", []string{"replay", "--task", "PH-H05", "--trajectory", "witness"}, 2, "", `no stored trajectory "witness"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := run(t, c.args...)
			if code != c.code {
				t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", code, c.code, out, errOut)
			}
			if c.wantOut != "" && !strings.Contains(out, strings.ReplaceAll(c.wantOut, `\"`, `"`)) {
				t.Errorf("stdout lacks %q:\n%s", c.wantOut, out)
			}
			if c.wantStderr != "" && !strings.Contains(errOut, c.wantStderr) {
				t.Errorf("stderr lacks %q:\n%s", c.wantStderr, errOut)
			}
		})
	}
}

func TestGoldenOutputs(t *testing.T) {
	task := example("task.json")
	cases := []struct {
		name string
		args []string
	}{
		{"replay-witness", []string{"replay", "--task", task, "--trajectory", example("witness.json")}},
		{"replay-witness-json", []string{"replay", "--json", "--task", task, "--trajectory", example("witness.json")}},
		{"certify-rollback-as-candidate", []string{"certify", "--task", task, "--honest", example("honest.json"), "--candidate", example("rollback.json")}},
		{"certify-witness-json", []string{"certify", "--json", "--task", task, "--honest", example("honest.json"), "--candidate", example("witness.json")}},
		{"attack-example", []string{"attack", "--task", task, "--honest", example("honest.json"), "--edits", "2"}},
		{"attack-development", []string{"attack", "--task", "development", "--edits", "2"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, out, _ := run(t, c.args...)
			// Paths differ between machines; the golden keeps the file name.
			golden(t, c.name, strings.ReplaceAll(out, filepath.Dir(task)+string(filepath.Separator), ""))
			_, again, _ := run(t, c.args...)
			if again != out {
				t.Error("two runs printed different bytes")
			}
		})
	}
}

// TestUsageErrorsKeepTheirChain: a usage error says what it wraps in the
// same words as before and still lets a caller find the cause.
func TestUsageErrorsKeepTheirChain(t *testing.T) {
	_, err := (&env{}).loadTrajectory("candidate", "", filepath.Join(t.TempDir(), "missing.json"))
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != ExitUsage {
		t.Fatalf("a missing file: %v, want a usage error", err)
	}
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%v: the usage error hides fs.ErrNotExist", err)
	}
	if !strings.HasPrefix(err.Error(), "read candidate: open ") {
		t.Errorf("message %q", err)
	}
	cause := errors.New("cause")
	if err := usage(cause); !errors.Is(err, cause) || err.Error() != "cause" {
		t.Errorf("usage(cause) = %v", err)
	}
}
