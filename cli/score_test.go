package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parthack/parthack/model"
)

func TestScore(t *testing.T) {
	task := example("task.json")
	for _, c := range []struct {
		golden string
		args   []string
	}{
		{"score-witness", []string{"score", "--task", task, "--trajectory", example("witness.json")}},
		{"score-witness-steps", []string{"score", "--task", task, "--trajectory", example("witness.json"), "--steps"}},
		{"score-rollback-json", []string{"score", "--task", task, "--trajectory", example("rollback.json"), "--json"}},
		{"score-rollback-steps-json", []string{"score", "--task", task, "--trajectory", example("rollback.json"), "--steps", "--json"}},
		{"score-suite-witness", []string{"score", "--task", "PH-D01", "--trajectory", filepath.Join("..", "tasks", "data", "PH-D01", "witness.json")}},
	} {
		code, out, errOut := run(t, c.args...)
		if code != ExitOK || errOut != "" {
			t.Fatalf("%v: exit %d, stderr %q", c.args, code, errOut)
		}
		golden(t, c.golden, out)
	}
	// The JSON scores are the table's.
	_, out, _ := run(t, "score", "--task", task, "--trajectory", example("witness.json"), "--json")
	var got struct {
		Hash   string `json:"payload_sha256"`
		Scores []struct {
			Name  string  `json:"name"`
			Value float64 `json:"value"`
		} `json:"scores"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{"historical_milestone": 1, "predicate_max": 1, "cape_max": 1, "csps": 0.5, "lightweight_cape": 0.5, "terminal_outcome": 0}
	for _, s := range got.Scores {
		if want[s.Name] != s.Value {
			t.Errorf("%s = %v, want %v", s.Name, s.Value, want[s.Name])
		}
	}
	if len(got.Scores) != len(want) {
		t.Errorf("%d scores", len(got.Scores))
	}
}

// TestPayloadCommand: stdout is exactly the payload's bytes (the same as
// the golden file the payload package pins), and stderr its sha256.
func TestPayloadCommand(t *testing.T) {
	suiteWitness := filepath.Join("..", "tasks", "data", "PH-D01", "witness.json")
	for _, c := range []struct {
		golden string
		args   []string
	}{
		{"EX-01-witness.payload", []string{"--task", example("task.json"), "--trajectory", example("witness.json")}},
		{"EX-01-witness.projection", []string{"--task", example("task.json"), "--trajectory", example("witness.json"), "--projection", "idj"}},
		// A suite id replays on the sealed trusted task; the payload is
		// the public one the payload package pins.
		{"PH-D01-witness.payload", []string{"--task", "PH-D01", "--trajectory", suiteWitness}},
	} {
		code, out, errOut := run(t, append([]string{"payload"}, c.args...)...)
		if code != ExitOK {
			t.Fatalf("%s: exit %d: %s", c.golden, code, errOut)
		}
		want, err := os.ReadFile(filepath.Join("..", "testdata", "payload", c.golden+".golden"))
		if err != nil {
			t.Fatal(err)
		}
		if out != string(want) {
			t.Errorf("%s: stdout is not the pinned bytes", c.golden)
		}
		if errOut != "sha256 "+model.Hash([]byte(out))+"\n" {
			t.Errorf("%s: stderr %q", c.golden, errOut)
		}
	}
}

func TestScoreUsage(t *testing.T) {
	task, witness := example("task.json"), example("witness.json")
	other := writeTemp(t, `{"task": "EX-02", "steps": []}`)
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"score", "--task", task}, "--trajectory is required"},
		{[]string{"score", "--trajectory", witness}, "--task is required"},
		{[]string{"score", "--task", task, "--trajectory", other}, `trajectory is for task "EX-02"`},
		{[]string{"payload", "--task", task, "--trajectory", witness, "--projection", "llm"}, "unknown projection"},
		{[]string{"payload", "--task", task, "--trajectory", writeTemp(t, `{"task": "EX-01", "steps": [{"op": "update"}]}`)}, "missing required field"},
	} {
		code, out, errOut := run(t, c.args...)
		if code != ExitUsage || out != "" || !strings.Contains(errOut, c.msg) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q", c.args, code, out, errOut, c.msg)
		}
	}
}

// TestScoreStepsWithoutTempDir: score --steps spools its rows in TMPDIR;
// one that cannot be written is an error that names it, with nothing
// printed.
func TestScoreStepsWithoutTempDir(t *testing.T) {
	t.Setenv("TMPDIR", filepath.Join(t.TempDir(), "missing"))
	code, out, errOut := run(t, "score", "--steps", "--task", example("task.json"), "--trajectory", example("witness.json"))
	if code == ExitOK || out != "" || !strings.Contains(errOut, "TMPDIR") {
		t.Errorf("exit %d, stdout %q, stderr %q; want a failure naming TMPDIR", code, out, errOut)
	}
}
