package audit

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/parthack/parthack/evaluators/llm"
	"github.com/parthack/parthack/internal/llmclient"
	"github.com/parthack/parthack/internal/payload/builder"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
	"github.com/parthack/parthack/tasks"
	"github.com/parthack/parthack/tasks/sealed"
)

// judgeServer is a loopback chat-completions endpoint that keeps every
// request body and answers each well-formed: a checklist when asked for
// one, else a score.
type judgeServer struct {
	srv    *httptest.Server
	mu     sync.Mutex
	bodies [][]byte
}

func newJudgeServer(t *testing.T) *judgeServer {
	t.Helper()
	s := &judgeServer{}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		s.bodies = append(s.bodies, body)
		s.mu.Unlock()
		content := `{"score":0.5,"rationale":"half","cited_fields":["terminal"]}`
		if bytes.Contains(body, []byte(`<<<INSTRUCTION\n`)) {
			content = `{"checklist":["The task is done."]}`
		}
		b, _ := json.Marshal(map[string]any{"choices": []any{map[string]any{
			"finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": content}}}})
		w.Write(b)
	}))
	t.Cleanup(s.srv.Close)
	return s
}

func (s *judgeServer) config() llmclient.Config {
	return llmclient.Config{BaseURL: s.srv.URL, Model: "audit-model"}
}

func (s *judgeServer) requests() [][]byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.bodies)
}

// needles are a task's canaries as they would appear in a request body
// or recording: raw, and JSON-escaped once (a string of the payload),
// twice (the payload quoted in a request) and three times (the request
// in a recording line).
func needles(t *testing.T, id string) [][]byte {
	t.Helper()
	canaries, err := sealed.Canaries(id)
	if err != nil {
		t.Fatal(err)
	}
	if len(canaries) == 0 {
		t.Fatalf("%s: no canaries: the audit would prove nothing", id)
	}
	var out [][]byte
	for _, c := range canaries {
		n := []byte(c)
		for range 4 {
			out = append(out, n)
			esc := model.Str(string(n)).AppendJSON(nil)
			n = esc[1 : len(esc)-1]
		}
	}
	return out
}

func leaks(b []byte, needles [][]byte) []byte {
	for _, n := range needles {
		if bytes.Contains(b, n) {
			return n
		}
	}
	return nil
}

func trustedEnv(t *testing.T, id string) *pbcste.Env {
	t.Helper()
	trusted, err := sealed.Trusted(id)
	if err != nil {
		t.Fatal(err)
	}
	env, err := pbcste.Compile(trusted)
	if err != nil {
		t.Fatal(err)
	}
	return env
}

// TestNoCanaryInLLMRequests is the leak audit of the LLM judges: every
// stored trajectory of every suite task goes through the schema-aware
// judge and IDJ against a loopback server, recorded, and no request body
// the server receives, nor the recording, holds any of the task's
// canaries, raw or JSON-escaped.
func TestNoCanaryInLLMRequests(t *testing.T) {
	suite, err := tasks.Suite()
	if err != nil {
		t.Fatal(err)
	}
	if len(suite) == 0 {
		t.Fatal("empty suite")
	}
	for _, task := range suite {
		env := trustedEnv(t, task.ID)
		ns := needles(t, task.ID)
		srv := newJudgeServer(t)
		recording := filepath.Join(t.TempDir(), task.ID+".jsonl")
		log, err := llm.OpenLog(recording)
		if err != nil {
			t.Fatal(err)
		}
		c, err := llmclient.NewClient(srv.config(), log)
		if err != nil {
			t.Fatal(err)
		}
		judge, idj := llm.NewJudge(c), llm.NewIDJ(c)

		// Control: the request for an unredacted payload (the trusted
		// task as its own public view) must show the leak.
		unredacted, err := builder.Build(env.Task, env.Replay(nil), nil)
		if err != nil {
			t.Fatal(err)
		}
		body, err := judge.Request(unredacted.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		if leaks(body, ns) == nil {
			t.Errorf("%s: no canary in the request for the unredacted payload: the audit cannot see a leak", task.ID)
		}

		trajectories := task.Trajectories()
		for _, n := range trajectories {
			p, err := builder.Build(task.Public, env.Replay(n.Trajectory.Steps), nil)
			if err != nil {
				t.Fatalf("%s %s: %v", task.ID, n.File, err)
			}
			if _, err := judge.Score(context.Background(), p.Bytes()); err != nil {
				t.Fatalf("%s %s: judge: %v", task.ID, n.File, err)
			}
			if _, err := idj.Score(context.Background(), p.Bytes()); err != nil {
				t.Fatalf("%s %s: idj: %v", task.ID, n.File, err)
			}
		}
		log.Close()
		reqs := srv.requests()
		// One checklist for the task, then per trajectory one judge call
		// and three IDJ calls: every request was seen.
		if want := 1 + 4*len(trajectories); len(reqs) != want {
			t.Errorf("%s: %d requests, want %d", task.ID, len(reqs), want)
		}
		for i, b := range reqs {
			if n := leaks(b, ns); n != nil {
				t.Errorf("%s: request %d holds canary %s", task.ID, i+1, n)
			}
		}
		rec, err := os.ReadFile(recording)
		if err != nil {
			t.Fatal(err)
		}
		if n := leaks(rec, ns); n != nil {
			t.Errorf("%s: the recording holds canary %s", task.ID, n)
		}
	}
}
