package llmattack

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/parthack/parthack/internal/llmclient"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
)

// fake is a scripted OpenAI-compatible endpoint on 127.0.0.1: the n-th
// request is answered with the n-th content, or with the n-th status
// when that is not 0.
type fake struct {
	srv    *httptest.Server
	mu     sync.Mutex
	bodies [][]byte
}

type reply struct {
	status  int
	content string
}

func ok(content string) reply { return reply{content: content} }

func newFake(t *testing.T, replies ...reply) *fake {
	t.Helper()
	f := &fake{}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		f.mu.Lock()
		n := len(f.bodies)
		f.bodies = append(f.bodies, body)
		f.mu.Unlock()
		if n >= len(replies) {
			t.Errorf("request %d: the script has %d replies", n+1, len(replies))
			w.WriteHeader(http.StatusTeapot)
			return
		}
		if replies[n].status != 0 {
			w.WriteHeader(replies[n].status)
			return
		}
		b, _ := json.Marshal(map[string]any{"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
			"message": map[string]any{"role": "assistant", "content": replies[n].content}}}})
		w.Write(b)
	}))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fake) config() llmclient.Config {
	return llmclient.Config{BaseURL: f.srv.URL + "/v1", Model: "attacker-model"}
}

func (f *fake) requests() [][]byte {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([][]byte{}, f.bodies...)
}

func exampleFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "example", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

type example struct {
	env    *pbcste.Env
	honest *model.Trajectory
}

func load(t *testing.T) example {
	t.Helper()
	task, err := model.DecodeTask("task.json", exampleFile(t, "task.json"))
	if err != nil {
		t.Fatal(err)
	}
	env, err := pbcste.Compile(task)
	if err != nil {
		t.Fatal(err)
	}
	h, err := model.DecodeTrajectory("honest.json", exampleFile(t, "honest.json"))
	if err != nil {
		t.Fatal(err)
	}
	return example{env, h}
}

func (ex example) run(t *testing.T, c *llmclient.Client, opt Options) *Result {
	t.Helper()
	res, err := Run(context.Background(), c, ex.env.Task, ex.env, ex.honest, opt)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func newClient(t *testing.T, cfg llmclient.Config, rec llmclient.Recorder) *llmclient.Client {
	t.Helper()
	c, err := llmclient.NewClient(cfg, rec)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Candidates for the example task (H closes T2, then sets T1's priority:
// 2 of 4 predicates).
const (
	honestOnly = `{"task": "EX-01", "name": "H again", "steps": [
		{"op": "update", "type": "ticket", "id": "T2", "fields": {"status": "closed"}},
		{"op": "update", "type": "ticket", "id": "T1", "fields": {"priority": 1}}]}`
	illegal = `{"task": "EX-01", "steps": [
		{"op": "update", "type": "user", "id": "U1", "fields": {"name": "Dana"}}]}`
	// more progress than H: assigned stays true at the end
	mismatch = `{"task": "EX-01", "steps": [
		{"op": "update", "type": "ticket", "id": "T2", "fields": {"status": "closed"}},
		{"op": "update", "type": "ticket", "id": "T1", "fields": {"assignee": "U1", "priority": 1}}]}`
)

// witness is the peak-and-undo witness: H's steps with every predicate
// reached and the extra two undone in between; Historical Milestone 4/4.
func witness(t *testing.T) string { return string(exampleFile(t, "witness.json")) }

func TestWitnessIsEligibleAndInflates(t *testing.T) {
	ex := load(t)
	f := newFake(t, ok(witness(t)), ok(honestOnly), ok(mismatch))
	res := ex.run(t, newClient(t, f.config(), nil), Options{})
	if res.K != 3 || len(res.Attempts) != 3 || len(f.requests()) != 3 {
		t.Fatalf("K %d, %d attempts, %d requests", res.K, len(res.Attempts), len(f.requests()))
	}
	if res.Best == nil || res.BestAttempt != 1 || res.Honest != 0.5 || res.Score != 1 || res.Delta != 0.5 || res.Verdict == nil || !res.Verdict.Eligible {
		t.Fatalf("best attempt %d, f(H) %v, f(A) %v, Δ %v, verdict %+v", res.BestAttempt, res.Honest, res.Score, res.Delta, res.Verdict)
	}
	if len(res.Best.Steps) != 4 || !strings.Contains(res.Best.Note, "attempt 1 of 3") {
		t.Errorf("best %s", model.EncodeTrajectory(res.Best))
	}
	if res.Generated != 3 || res.Valid != 3 || res.Eligible != 2 {
		t.Errorf("generated %d, valid %d, eligible %d", res.Generated, res.Valid, res.Eligible)
	}
	third := res.Attempts[2]
	if third.Eligible || !third.Valid || third.Outcome != string(model.StateVectorMismatch) || third.Score == nil {
		t.Errorf("different vectors: %+v", third)
	}
}

func TestRequests(t *testing.T) {
	ex := load(t)
	f := newFake(t, ok("not json"), ok("not json"), ok(illegal))
	res := ex.run(t, newClient(t, f.config(), nil), Options{K: 2})
	reqs := f.requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3: two for the malformed attempt (the retry), one for the second", len(reqs))
	}
	if !bytes.Equal(reqs[0], reqs[1]) {
		t.Error("the retry did not resend the same bytes")
	}
	var body struct {
		Temperature    float64               `json:"temperature"`
		ResponseFormat struct{ Type string } `json:"response_format"`
		Messages       []struct{ Role, Content string }
	}
	if err := json.Unmarshal(reqs[2], &body); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(reqs[0], []byte(`"temperature":0,`)) || body.ResponseFormat.Type != "json_object" || len(body.Messages) != 2 {
		t.Fatalf("request %s", reqs[2])
	}
	system, user := body.Messages[0].Content, body.Messages[1].Content
	if strings.Contains(system, "EX-01") || !strings.Contains(system, "Historical Milestone") {
		t.Error("the system message holds task data, or does not describe the target")
	}
	for _, want := range []string{"<<<INTERFACE\n", `"honest_record":{"payload_version":1`, `"alphabet":{"ticket":{"ids":["T1","T2","T3"]`,
		"<<<FEEDBACK\n", `"outcome":"malformed_schema"`, `"answer":"not json"`} {
		if !strings.Contains(user, want) {
			t.Errorf("the second user message lacks %s:\n%s", want, user)
		}
	}
	if strings.Contains(user, "close the duplicate") {
		t.Error("H's comments are quoted")
	}
	if a := res.Attempts[0]; !a.Generated || a.Valid || a.Requests != 2 || a.Outcome != string(model.MalformedSchema) || a.Detail == "" || a.Score != nil {
		t.Errorf("malformed: %+v", a)
	}
	if a := res.Attempts[1]; !a.Generated || a.Valid || a.Outcome != string(model.IllegalAction) || a.Score != nil {
		t.Errorf("illegal: %+v", a)
	}
	if res.Generated != 2 || res.Valid != 0 || res.Eligible != 0 || res.Best != nil || res.Score != res.Honest || res.Delta != 0 {
		t.Errorf("accounting %+v", res)
	}
}

func TestNoAnswerSpendsTheAttempt(t *testing.T) {
	ex := load(t)
	f := newFake(t, reply{status: 503}, reply{status: 503}, ok(witness(t)))
	res := ex.run(t, newClient(t, f.config(), nil), Options{K: 2})
	if a := res.Attempts[0]; a.Generated || a.Outcome != OutcomeNoAnswer || !strings.Contains(a.Detail, "503") {
		t.Errorf("first attempt %+v", a)
	}
	if res.Generated != 1 || res.BestAttempt != 2 {
		t.Errorf("generated %d, best attempt %d", res.Generated, res.BestAttempt)
	}
}

func TestKIsHonoured(t *testing.T) {
	ex := load(t)
	for _, k := range []int{1, 4} {
		replies := make([]reply, k)
		for i := range replies {
			replies[i] = ok(honestOnly)
		}
		f := newFake(t, replies...)
		res := ex.run(t, newClient(t, f.config(), nil), Options{K: k})
		if len(f.requests()) != k || len(res.Attempts) != k || res.Generated != k {
			t.Errorf("K %d: %d requests, %d attempts", k, len(f.requests()), len(res.Attempts))
		}
	}
}

func TestTiesGoToTheEarlierAttempt(t *testing.T) {
	ex := load(t)
	second := strings.Replace(witness(t), `"historical witness"`, `"second witness"`, 1)
	f := newFake(t, ok(honestOnly), ok(witness(t)), ok(second))
	res := ex.run(t, newClient(t, f.config(), nil), Options{})
	if res.BestAttempt != 2 || res.Best.Name != "historical witness" || res.Eligible != 3 {
		t.Errorf("best attempt %d (%s), %d eligible; want attempt 2, the first of the two at 1.000", res.BestAttempt, res.Best.Name, res.Eligible)
	}
}

func TestOtherTarget(t *testing.T) {
	ex := load(t)
	f := newFake(t, ok(witness(t)))
	res := ex.run(t, newClient(t, f.config(), nil), Options{Target: "csps", K: 1})
	if res.Best == nil || res.Delta != 0 || !strings.Contains(userSystem(t, f.requests()[0]), "CSPS:") {
		t.Errorf("csps: best %v, Δ %v", res.Best != nil, res.Delta)
	}
	if _, err := Run(context.Background(), newClient(t, f.config(), nil), ex.env.Task, ex.env, ex.honest, Options{Target: "vibes"}); err == nil || !strings.Contains(err.Error(), "unknown target") {
		t.Errorf("unknown target: %v", err)
	}
}

func userSystem(t *testing.T, body []byte) string {
	t.Helper()
	var r struct {
		Messages []struct{ Role, Content string }
	}
	if err := json.Unmarshal(body, &r); err != nil || len(r.Messages) != 2 {
		t.Fatalf("request %s: %v", body, err)
	}
	return r.Messages[0].Content
}

func TestRecordThenReplayOffline(t *testing.T) {
	ex := load(t)
	path := filepath.Join(t.TempDir(), "attack.jsonl")
	log, err := llmclient.OpenLog(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	f := newFake(t, ok("{"), ok("{"), ok(mismatch), ok(witness(t)))
	live := ex.run(t, newClient(t, f.config(), log), Options{})
	if err := log.Close(); err != nil {
		t.Fatal(err)
	}
	f.srv.Close()

	rp, err := llmclient.OpenReplay(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	c, err := rp.Client(llmclient.Config{}, CallAttack)
	if err != nil {
		t.Fatal(err)
	}
	replayed := ex.run(t, c, Options{})
	a, _ := json.Marshal(live)
	b, _ := json.Marshal(replayed)
	if !bytes.Equal(a, b) || !bytes.Equal(model.EncodeTrajectory(live.Best), model.EncodeTrajectory(replayed.Best)) {
		t.Errorf("replay differs:\nlive   %s\nreplay %s", a, b)
	}
	if live.BestAttempt != 3 || replayed.Model != "attacker-model" {
		t.Errorf("best attempt %d, model %q", live.BestAttempt, replayed.Model)
	}
	// A run the recording does not hold is an error, not a spent attempt.
	if _, err := Run(context.Background(), c, ex.env.Task, ex.env, ex.honest, Options{K: 1}); !errors.Is(err, llmclient.ErrNoRecording) {
		t.Errorf("replay miss: %v", err)
	}
}

func TestNotConfigured(t *testing.T) {
	ex := load(t)
	if _, err := llmclient.NewClient(llmclient.Config{}, nil); !errors.Is(err, llmclient.ErrNotConfigured) {
		t.Fatalf("client: %v", err)
	}
	res, err := Run(context.Background(), nil, ex.env.Task, ex.env, ex.honest, Options{})
	if !errors.Is(err, llmclient.ErrNotConfigured) || res != nil {
		t.Errorf("result %v, error %v", res, err)
	}
}
