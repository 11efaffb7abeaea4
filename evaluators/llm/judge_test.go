package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/parthack/parthack/internal/llmclient"
	"github.com/parthack/parthack/model"
)

var update = flag.Bool("update", false, "rewrite golden files")

const good = `{"score":0.75,"rationale":"T2 is closed and T1 assigned; the tag is missing.","cited_fields":["terminal.entities[2].fields.status","events[0].diff[0].after","goals[0].predicates[1]"]}`

func TestJudgeParsesAWellFormedAnswer(t *testing.T) {
	s := newServer(t, answer(good))
	p := witness(t)
	res, err := NewJudge(client(t, s.config(), nil)).Score(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	want := Answer{Score: 0.75, Rationale: "T2 is closed and T1 assigned; the tag is missing.",
		CitedFields: []string{"terminal.entities[2].fields.status", "events[0].diff[0].after", "goals[0].predicates[1]"}}
	if res.Score != want.Score || res.Rationale != want.Rationale || strings.Join(res.CitedFields, ",") != strings.Join(want.CitedFields, ",") {
		t.Errorf("answer %+v, want %+v", res.Answer, want)
	}
	if res.Attempts != 1 || res.Model != "test-model" || res.Subject != model.Hash(p) {
		t.Errorf("attempts %d, model %q, subject %s", res.Attempts, res.Model, res.Subject)
	}
	reqs := s.requests()
	if len(reqs) != 1 || res.RequestSHA != model.Hash(reqs[0]) {
		t.Fatalf("%d requests; result names request %s", len(reqs), res.RequestSHA)
	}
	r := s.reqs[0]
	if r.Method != "POST" || r.URL.Path != "/v1/chat/completions" || r.Header.Get("Authorization") != "Bearer k-test" || r.Header.Get("Content-Type") != "application/json" {
		t.Errorf("%s %s, auth %q, content type %q", r.Method, r.URL.Path, r.Header.Get("Authorization"), r.Header.Get("Content-Type"))
	}
	// The request: temperature 0, the token cap, JSON mode, and the
	// instructions in the system message apart from the quoted payload.
	var body struct {
		Model          string  `json:"model"`
		Temperature    float64 `json:"temperature"`
		MaxTokens      int     `json:"max_tokens"`
		Stream         bool    `json:"stream"`
		ResponseFormat struct {
			Type string `json:"type"`
		} `json:"response_format"`
		Messages []struct{ Role, Content string } `json:"messages"`
	}
	dec := json.NewDecoder(bytes.NewReader(reqs[0]))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&body); err != nil {
		t.Fatal(err)
	}
	if body.Model != "test-model" || body.Temperature != 0 || body.MaxTokens != llmclient.DefaultMaxTokens || body.Stream || body.ResponseFormat.Type != "json_object" {
		t.Errorf("request %s", reqs[0])
	}
	if !bytes.Contains(reqs[0], []byte(`"temperature":0,`)) {
		t.Error("temperature 0 is not stated in the request")
	}
	if len(body.Messages) != 2 || body.Messages[0].Role != "system" || body.Messages[1].Role != "user" {
		t.Fatalf("messages %+v", body.Messages)
	}
	if strings.Contains(body.Messages[0].Content, "EX-01") {
		t.Error("the system message holds payload data")
	}
	if !strings.Contains(userMessage(t, reqs[0]), "\n<<<RECORD\n"+string(p)+"\nRECORD>>>") {
		t.Error("the user message does not quote the exact payload bytes")
	}
}

func TestJudgeRequestGolden(t *testing.T) {
	body, err := NewJudge(client(t, llmclient.Config{BaseURL: "http://127.0.0.1:1", Model: "test-model"}, nil)).Request(witness(t))
	if err != nil {
		t.Fatal(err)
	}
	// Pinned, so a change to the frozen prompt is a deliberate one.
	goldenRequest(t, "EX-01-witness.judge-request.golden", body)
}

// goldenRequest holds a request body to its golden in testdata/llm
// (-update writes it).
func goldenRequest(t *testing.T, name string, body []byte) {
	t.Helper()
	path := filepath.Join("..", "..", "testdata", "llm", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./evaluators/llm -update to create it)", err)
	}
	if !bytes.Equal(body, want) {
		t.Errorf("the request is not the pinned one (%s):\n%s", name, body)
	}
}

func TestJudgeRequestBytesAreDeterministic(t *testing.T) {
	s := newServer(t, answer(good), answer(good))
	cfg := s.config()
	p := witness(t)
	// Two clients, as two runs would have.
	for range 2 {
		if _, err := NewJudge(client(t, cfg, nil)).Score(context.Background(), p); err != nil {
			t.Fatal(err)
		}
	}
	reqs := s.requests()
	built, err := NewJudge(client(t, cfg, nil)).Request(bytes.Clone(p))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(reqs[0], reqs[1]) || !bytes.Equal(reqs[0], built) {
		t.Errorf("the same payload gave different request bytes:\n%s\n%s", reqs[0], reqs[1])
	}
	other, err := NewJudge(client(t, cfg, nil)).Request(honest(t))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(other, built) {
		t.Error("two payloads gave the same request")
	}
	// The API key and the server are not part of the request.
	cfg2 := llmclient.Config{BaseURL: "http://127.0.0.1:9/other", Model: cfg.Model, APIKey: "another"}
	if again, _ := NewJudge(client(t, cfg2, nil)).Request(p); !bytes.Equal(again, built) {
		t.Error("the request depends on the endpoint or key")
	}
}

func TestJudgeRetriesOnceAfterAMalformedAnswer(t *testing.T) {
	s := newServer(t, answer(`{"score": 0.5, "rationale": "cut`), answer(good))
	res, err := NewJudge(client(t, s.config(), nil)).Score(context.Background(), witness(t))
	if err != nil {
		t.Fatal(err)
	}
	reqs := s.requests()
	if res.Attempts != 2 || res.Score != 0.75 || len(reqs) != 2 || !bytes.Equal(reqs[0], reqs[1]) {
		t.Errorf("attempts %d, score %v, %d requests (identical: %v)", res.Attempts, res.Score, len(reqs), len(reqs) == 2 && bytes.Equal(reqs[0], reqs[1]))
	}
}

func TestJudgeTwoMalformedAnswersAreAnError(t *testing.T) {
	s := newServer(t, answer("I think about 0.6."), answer(`{"score":0.6}`), answer(good))
	res, err := NewJudge(client(t, s.config(), nil)).Score(context.Background(), witness(t))
	if res != nil || !errors.Is(err, llmclient.ErrSchema) {
		t.Fatalf("result %+v, error %v; want no result and a schema failure", res, err)
	}
	var ce *llmclient.CallError
	if !errors.As(err, &ce) || len(ce.Attempts) != 2 || ce.Call != CallJudge {
		t.Errorf("error %v is not a two-attempt judge CallError", err)
	}
	if n := len(s.requests()); n != 2 {
		t.Errorf("%d requests; the retry is bounded at one", n)
	}
}

func TestJudgeSchemaFailures(t *testing.T) {
	for _, c := range []struct{ name, answer, msg string }{
		{"score above 1", `{"score":1.5,"rationale":"r","cited_fields":[]}`, "not a number in [0, 1]"},
		{"score below 0", `{"score":-0.1,"rationale":"r","cited_fields":[]}`, "not a number in [0, 1]"},
		{"score as a string", `{"score":"0.5","rationale":"r","cited_fields":[]}`, "score is not a number"},
		{"unknown key", `{"score":0.5,"rationale":"r","cited_fields":[],"confidence":0.9}`, `unknown key "confidence"`},
		{"missing key", `{"score":0.5,"rationale":"r"}`, `missing key "cited_fields"`},
		{"repeated key", `{"score":0.5,"score":0.9,"rationale":"r","cited_fields":[]}`, `key "score" given twice`},
		{"rationale not a string", `{"score":0.5,"rationale":3,"cited_fields":[]}`, "rationale is not a string"},
		{"cited fields not a list", `{"score":0.5,"rationale":"r","cited_fields":"terminal"}`, "cited_fields is not a list"},
		{"cited field not a string", `{"score":0.5,"rationale":"r","cited_fields":[1]}`, "cited_fields[0] is not a string"},
		{"cited field not in the payload", `{"score":0.5,"rationale":"r","cited_fields":["terminal.entities[0].fields.secret"]}`, "is not a field of the record"},
		{"cited position past the end", `{"score":0.5,"rationale":"r","cited_fields":["goals[0].predicates[4]"]}`, "is not a field of the record"},
		{"cited field in another syntax", `{"score":0.5,"rationale":"r","cited_fields":["$.terminal"]}`, "is not a field of the record"},
		{"text after the object", good + ` Hope this helps!`, "text after the JSON object"},
		{"a list, not an object", `[0.5]`, "not a JSON object"},
		{"not a chat completion", "", "no message content"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := answer(c.answer)
			if c.answer == "" {
				r = raw(200, `{"choices":[]}`)
			}
			s := newServer(t, r, r)
			res, err := NewJudge(client(t, s.config(), nil)).Score(context.Background(), witness(t))
			if res != nil || !errors.Is(err, llmclient.ErrSchema) || !strings.Contains(err.Error(), c.msg) {
				t.Errorf("result %v, error %v; want a schema failure saying %q", res, err, c.msg)
			}
			if len(s.requests()) != 2 {
				t.Errorf("%d requests", len(s.requests()))
			}
		})
	}
}

func TestJudgeAcceptsAFencedAnswer(t *testing.T) {
	s := newServer(t, answer("```json\n"+good+"\n```"))
	res, err := NewJudge(client(t, s.config(), nil)).Score(context.Background(), witness(t))
	if err != nil || res.Score != 0.75 || res.Attempts != 1 {
		t.Fatalf("result %+v, error %v", res, err)
	}
}

func TestJudgeRetriesAfterATransportFailure(t *testing.T) {
	for _, c := range []struct {
		name  string
		first reply
	}{
		{"server error", raw(503, `{"error":{"message":"overloaded"}}`)},
		{"dropped connection", hangUp},
		{"rate limited", raw(429, `slow down`)},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newServer(t, c.first, answer(good))
			res, err := NewJudge(client(t, s.config(), nil)).Score(context.Background(), witness(t))
			if err != nil || res.Attempts != 2 || res.Score != 0.75 {
				t.Fatalf("result %+v, error %v", res, err)
			}
		})
	}
	s := newServer(t, raw(500, "boom"), raw(502, "bad gateway"))
	_, err := NewJudge(client(t, s.config(), nil)).Score(context.Background(), witness(t))
	if !errors.Is(err, llmclient.ErrTransport) || !strings.Contains(err.Error(), "HTTP 502") {
		t.Errorf("two transport failures: %v", err)
	}
}

func TestJudgeHonoursTheTimeout(t *testing.T) {
	s := newServer(t, stall(10*time.Second), answer(good))
	cfg := s.config()
	cfg.Timeout = 100 * time.Millisecond
	start := time.Now()
	res, err := NewJudge(client(t, cfg, nil)).Score(context.Background(), witness(t))
	if err != nil || res.Attempts != 2 {
		t.Fatalf("result %+v, error %v; want the retry to answer", res, err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %s with a 100ms timeout", d)
	}
	s = newServer(t, stall(10*time.Second), stall(10*time.Second))
	cfg = s.config()
	cfg.Timeout = 100 * time.Millisecond
	_, err = NewJudge(client(t, cfg, nil)).Score(context.Background(), witness(t))
	if !errors.Is(err, llmclient.ErrTransport) || !strings.Contains(err.Error(), "no response within 100ms") {
		t.Errorf("two timeouts: %v", err)
	}
}

func TestNotConfigured(t *testing.T) {
	if _, err := NewJudge(nil).Score(context.Background(), witness(t)); !errors.Is(err, llmclient.ErrNotConfigured) || err.Error() != "not configured" {
		t.Errorf("judge: %v", err)
	}
	if _, err := NewIDJ(nil).Score(context.Background(), witness(t)); !errors.Is(err, llmclient.ErrNotConfigured) {
		t.Errorf("idj: %v", err)
	}
}
