package cli

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
)

// attackerServer is a loopback OpenAI-compatible endpoint that answers
// every request with content; it counts the requests.
func attackerServer(t *testing.T, content string) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		n.Add(1)
		b, _ := json.Marshal(map[string]any{"choices": []any{map[string]any{"finish_reason": "stop",
			"message": map[string]any{"role": "assistant", "content": content}}}})
		w.Write(b)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

// noAttackerEnv keeps the caller's environment out of the test.
func noAttackerEnv(t *testing.T) {
	for _, k := range []string{"BASE_URL", "MODEL", "API_KEY"} {
		t.Setenv("PARTHACK_ATTACKER_"+k, "")
	}
}

func TestAttackLLMRecordAndReplay(t *testing.T) {
	noAttackerEnv(t)
	witness, err := os.ReadFile(example("witness.json"))
	if err != nil {
		t.Fatal(err)
	}
	srv, n := attackerServer(t, string(witness))
	dir := t.TempDir()
	rec, out := filepath.Join(dir, "attack.jsonl"), filepath.Join(dir, "witness.json")
	args := []string{"attack", "--llm", "--task", example("task.json"), "--honest", example("honest.json"), "--k", "2"}
	code, live, errOut := run(t, append(args, "--attacker-base-url", srv.URL, "--attacker-model", "m", "--record", rec, "--out", out)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"LLM attacker m, K = 2", "2 attempts: 2 generated, 2 protocol-valid, 2 eligible", "Δhack      +0.500", "witness (attempt 1, 4 steps)"} {
		if !strings.Contains(live, want) {
			t.Errorf("output lacks %q:\n%s", want, live)
		}
	}
	if n.Load() != 2 {
		t.Errorf("%d requests, want K = 2", n.Load())
	}
	if _, err := os.Stat(out); err != nil {
		t.Error(err)
	}
	srv.Close()
	code, replayed, errOut := run(t, append(args, "--replay", rec, "--out", out)...)
	if code != 0 || replayed != live {
		t.Errorf("replay: exit %d, %s\n--- replayed\n%s\n--- live\n%s", code, errOut, replayed, live)
	}
}

func TestAttackLLMSplit(t *testing.T) {
	noAttackerEnv(t)
	srv, n := attackerServer(t, `{"task": "nope"`)
	code, out, errOut := run(t, "attack", "--llm", "--task", "development", "--k", "1", "--attacker-base-url", srv.URL, "--attacker-model", "m")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	ids, _ := splitIDs("development")
	tasks := int64(len(ids))
	if n.Load() != 2*tasks {
		t.Errorf("%d requests for %d tasks; want two each (a malformed answer is retried once)", n.Load(), tasks)
	}
	for _, want := range []string{"attempts  generated  valid  eligible  matched", "attempts, " + strconv.FormatInt(tasks, 10) + " generated, 0 protocol-valid", "coverage 0/" + strconv.FormatInt(tasks, 10)} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestAttackLLMUsage(t *testing.T) {
	noAttackerEnv(t)
	task := example("task.json")
	cases := []struct {
		name, stderr string
		args         []string
	}{
		{"not configured", "not configured", []string{"attack", "--llm", "--task", task, "--honest", example("honest.json")}},
		{"--k without --llm", "--k needs --llm", []string{"attack", "--task", task, "--k", "2"}},
		{"search bound with --llm", "--edits bounds the search attacker", []string{"attack", "--llm", "--task", task, "--edits", "2"}},
		{"record and replay", "exclude each other", []string{"attack", "--llm", "--task", task, "--record", "a", "--replay", "b"}},
		{"zero attempts", "--k 0 is out of range: allowed 1 to 1000", []string{"attack", "--llm", "--task", task, "--k", "0"}},
		{"split with --out", "single task", []string{"attack", "--llm", "--task", "all", "--out", "x.json"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, _, errOut := run(t, c.args...)
			if code != ExitUsage || !strings.Contains(errOut, c.stderr) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, errOut, ExitUsage, c.stderr)
			}
		})
	}
}
