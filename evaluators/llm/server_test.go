package llm

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/parthack/parthack/internal/llmclient"
)

// reply is one scripted server response.
type reply func(w http.ResponseWriter, r *http.Request)

// answer replies with a chat completion whose message content is content.
func answer(content string) reply {
	return func(w http.ResponseWriter, _ *http.Request) {
		b, _ := json.Marshal(map[string]any{
			"id": "cmpl-1", "object": "chat.completion", "model": "served-model",
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
				"message": map[string]any{"role": "assistant", "content": content}}},
			"usage": map[string]any{"prompt_tokens": 1, "completion_tokens": 1},
		})
		w.Header().Set("Content-Type", "application/json")
		w.Write(b)
	}
}

// raw replies with a status and body as given.
func raw(status int, body string) reply {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(status)
		io.WriteString(w, body)
	}
}

// hangUp drops the connection without a response.
func hangUp(w http.ResponseWriter, _ *http.Request) {
	conn, _, err := w.(http.Hijacker).Hijack()
	if err == nil {
		conn.Close()
	}
}

// stall answers only after d, or never if the client gives up first.
func stall(d time.Duration) reply {
	return func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(d):
			answer(`{"score":1,"rationale":"late","cited_fields":[]}`)(w, r)
		}
	}
}

// server is a scripted OpenAI-compatible endpoint on 127.0.0.1: the n-th
// request gets the n-th reply, and every request is kept.
type server struct {
	t       *testing.T
	srv     *httptest.Server
	mu      sync.Mutex
	replies []reply
	reqs    []*http.Request
	bodies  [][]byte
}

func newServer(t *testing.T, replies ...reply) *server {
	t.Helper()
	s := &server{t: t, replies: replies}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		n := len(s.bodies)
		s.reqs = append(s.reqs, r)
		s.bodies = append(s.bodies, body)
		s.mu.Unlock()
		if n >= len(s.replies) {
			t.Errorf("request %d: the script has %d replies", n+1, len(s.replies))
			w.WriteHeader(http.StatusTeapot)
			return
		}
		s.replies[n](w, r)
	}))
	t.Cleanup(s.srv.Close)
	return s
}

// config is an endpoint config for the server, under the /v1 prefix
// that most servers put before chat/completions.
func (s *server) config() llmclient.Config {
	return llmclient.Config{BaseURL: s.srv.URL + "/v1", Model: "test-model", APIKey: "k-test"}
}

func (s *server) requests() [][]byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([][]byte{}, s.bodies...)
}

func client(t *testing.T, cfg llmclient.Config, rec llmclient.Recorder) *llmclient.Client {
	t.Helper()
	c, err := llmclient.NewClient(cfg, rec)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// testdata reads a file of the module's testdata directory.
func testdata(t *testing.T, parts ...string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(append([]string{"..", "..", "testdata"}, parts...)...))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// witness is the public payload of the example task's witness.
func witness(t *testing.T) []byte { return testdata(t, "payload", "EX-01-witness.payload.golden") }

func honest(t *testing.T) []byte { return testdata(t, "payload", "EX-01-honest.payload.golden") }

// userMessage is the user message of a request body.
func userMessage(t *testing.T, body []byte) string {
	t.Helper()
	var r struct {
		Messages []struct{ Role, Content string } `json:"messages"`
	}
	if err := json.Unmarshal(body, &r); err != nil || len(r.Messages) != 2 || r.Messages[1].Role != "user" {
		t.Fatalf("request %s: %v", body, err)
	}
	return r.Messages[1].Content
}
