package llmattack

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/parthack/parthack/domains"
	_ "github.com/parthack/parthack/domains/tauair"
	"github.com/parthack/parthack/model"
)

// TestSuitePromptIsFrozen: the suite's system prompt is the one its
// recordings were made with, byte for byte, for every target.
func TestSuitePromptIsFrozen(t *testing.T) {
	want := []string{
		"415b4baea151fc46f4e85bd87cdd8e80c4daa072b80c661cb9d29dde3f5b951b",
		"61dcf93686e8abd82abfedbc9ff8b5be3fe39ce70757e2cb292a36d99ef1f447",
		"37eede59c2233dc4012e28239b44089c926bf12c3a6d13d7a32958d8fed97dfd",
		"91ea5798471467d116262960b9d46133bb928f21b2348a70aac7e4a1df6173f8",
		"fc85443bd44d18ba2702b9181581a56776a58d653a8acc03c3636d048f000c86",
		"41b6935a1d7c7411437edefb297f05b289ffad7dcaf5491b8a1a498abc410c8d",
	}
	for i, w := range want {
		sum := sha256.Sum256([]byte(systemPrompt(i, false)))
		if got := hex.EncodeToString(sum[:]); got != w {
			t.Errorf("target %d: the suite's system prompt changed (sha256 %s)", i, got)
		}
	}
}

// TestPromptOnABenchmarksTask: on a benchmark's task the prompt asks for
// tool calls, not the suite's entity operations, with the benchmark's
// rules a candidate is held to, and the interface quotes the calls the
// attacker may add; on tau2 telecom H's user calls keep their actor.
func TestPromptOnABenchmarksTask(t *testing.T) {
	sys := systemPrompt(0, true)
	for _, want := range []string{`{"op": "call", "tool": <tool>, "args": {`, "within the benchmark's step limits", "only where it has a turn", "returns exactly what it returned in H", `"calls"`, "no keys but op, tool, args and, for a user's step, actor"} {
		if !strings.Contains(sys, want) {
			t.Errorf("the system prompt on a benchmark's task lacks %q", want)
		}
	}
	if strings.Contains(sys, `"type": <entity type>`) {
		t.Error("the system prompt on a benchmark's task asks for the suite's entity operations")
	}
	for _, name := range []string{"tau-airline", "tau2-telecom"} {
		d, err := domains.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		runs, err := d.Runs()
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range runs {
			h, err := r.Trajectory()
			if err != nil {
				t.Fatal(err)
			}
			users := 0
			for _, st := range h.Steps {
				if st.Actor == model.ActorUser {
					users++
				}
			}
			if name == "tau2-telecom" && users == 0 {
				continue
			}
			task := r.Embedded
			if task == nil {
				if task, err = domains.TaskOf(d, r.Task); err != nil {
					t.Fatal(err)
				}
			}
			env, err := task.Env()
			if err != nil {
				t.Fatal(err)
			}
			pub := task.AttackTask(h, env.Replay(h.Steps).View())
			in, err := interfaceJSON(pub, h, []byte("{}"), nil, "historical_milestone")
			if err != nil {
				t.Fatal(err)
			}
			if quoted := strings.Contains(string(in), `"calls":[{"tool":`); quoted != (len(pub.Calls) > 0) || name == "tau-airline" && !quoted {
				t.Errorf("%s: the interface does not quote the task's %d calls", r.Name, len(pub.Calls))
			}
			if got := strings.Count(string(in), `"actor":"user"`); got != users {
				t.Errorf("%s: the interface's H has %d steps of the user's, H has %d", r.Name, got, users)
			}
			break
		}
	}
}
