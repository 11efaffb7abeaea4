package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parthack/parthack/internal/llmclient"
	"github.com/parthack/parthack/internal/payload"
	"github.com/parthack/parthack/model"
)

// tau2Payload is the public payload of a real tau2 airline run (GPT-4o on
// T2A-7), whose task carries four NL assertions.
func tau2Payload(t *testing.T) []byte { return testdata(t, "llm", "T2A-7-gpt-4o-trial0.payload") }

// nlAnswer is an answer grading the four assertions, met as given.
func nlAnswer(met ...bool) string {
	type result struct {
		Expected  string `json:"expectedOutcome"`
		Reasoning string `json:"reasoning"`
		Met       bool   `json:"metExpectation"`
	}
	var rs []result
	for i, m := range met {
		rs = append(rs, result{Expected: "assertion " + string(rune('A'+i)), Reasoning: "r", Met: m})
	}
	b, _ := json.Marshal(map[string]any{"results": rs})
	return string(b)
}

func TestNLAssertionsScore(t *testing.T) {
	for _, c := range []struct {
		name  string
		met   []bool
		score float64
	}{
		{"all met", []bool{true, true, true, true}, 1},
		{"one unmet", []bool{true, true, false, true}, 0},
		{"none met", []bool{false, false, false, false}, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newServer(t, answer(nlAnswer(c.met...)))
			p := tau2Payload(t)
			res, err := NewNLAssertions(client(t, s.config(), nil)).Score(context.Background(), p)
			if err != nil {
				t.Fatal(err)
			}
			if res.Score != c.score || res.Attempts != 1 || len(res.Checks) != 4 || res.Subject != model.Hash(p) || res.Model != "test-model" {
				t.Fatalf("result %+v; want score %v from one attempt", res, c.score)
			}
			for i, ch := range res.Checks {
				if ch.Met != c.met[i] || ch.Reasoning != "r" || ch.Expected != "assertion "+string(rune('A'+i)) {
					t.Errorf("check %d: %+v", i, ch)
				}
			}
			if res.Checks[1].Assertion != "Agent cancels XEHM4B." {
				t.Errorf("check 1 is paired with %q, not the task's second assertion", res.Checks[1].Assertion)
			}
			if reqs := s.requests(); len(reqs) != 1 || model.Hash(reqs[0]) != res.RequestSHA {
				t.Errorf("%d requests, request sha256 %s", len(reqs), res.RequestSHA)
			}
		})
	}
}

// TestNLAssertionsRequestGolden pins the request body: tau2's system
// prompt, its user prompt over the payload's transcript and assertions.
func TestNLAssertionsRequestGolden(t *testing.T) {
	n := NewNLAssertions(client(t, llmclient.Config{BaseURL: "http://127.0.0.1:1", Model: "test-model"}, nil))
	body, err := n.Request(tau2Payload(t))
	if err != nil {
		t.Fatal(err)
	}
	goldenRequest(t, "T2A-7-gpt-4o-trial0.nl-request.golden", body)
	user := userMessage(t, body)
	for _, want := range []string{
		"\n        conversation:\n        assistant: Hi! How can I help you today?\nuser: I need to cancel",
		"\n        \n        expectedOutcomes:\n        ['Agent upgrades XEHM4B to economy.', 'Agent cancels XEHM4B.', 'Agent cancels 59XX6W.', 'Agent communicates that total cost of upcoming flights is $1,628.']\n        ",
	} {
		if !strings.Contains(user, want) {
			t.Errorf("the user prompt lacks %q", want)
		}
	}
	if !strings.HasSuffix(user, "']\n        ") {
		t.Error("the user prompt does not end as tau2's does")
	}
	// Nothing of the payload but the transcript and the assertions: not
	// the goal schema, not the states, not the reference's changes.
	for _, leak := range []string{`"goals"`, "predicates", "payload_version", `"terminal"`} {
		if strings.Contains(user, leak) {
			t.Errorf("the request holds %s", leak)
		}
	}
}

func TestNLAssertionsWrongCount(t *testing.T) {
	// Three results for four assertions, twice: an error, no score.
	s := newServer(t, answer(nlAnswer(true, true, true)), answer(nlAnswer(true, true, true)))
	res, err := NewNLAssertions(client(t, s.config(), nil)).Score(context.Background(), tau2Payload(t))
	if res != nil || !errors.Is(err, llmclient.ErrSchema) || !strings.Contains(err.Error(), "3 results for 4 assertions") {
		t.Fatalf("result %+v, error %v; want a schema failure", res, err)
	}
	var ce *llmclient.CallError
	if !errors.As(err, &ce) || len(ce.Attempts) != 2 || ce.Call != CallNLAssertions || len(s.requests()) != 2 {
		t.Errorf("error %v after %d requests; want two attempts", err, len(s.requests()))
	}
	// A wrong count, then a right one: the retry scores.
	s = newServer(t, answer(nlAnswer(true, true, true, true, true)), answer(nlAnswer(true, true, true, true)))
	res, err = NewNLAssertions(client(t, s.config(), nil)).Score(context.Background(), tau2Payload(t))
	if err != nil || res.Attempts != 2 || res.Score != 1 {
		t.Fatalf("result %+v, error %v; want the retry's score", res, err)
	}
	if reqs := s.requests(); !bytes.Equal(reqs[0], reqs[1]) {
		t.Error("the retry sent other bytes")
	}
}

func TestNLAssertionsSchemaFailures(t *testing.T) {
	one := `{"expectedOutcome":"a","reasoning":"r","metExpectation":true}`
	four := func(last string) string { return `{"results":[` + one + `,` + one + `,` + one + `,` + last + `]}` }
	for _, c := range []struct{ name, answer, msg string }{
		{"met as a string", four(`{"expectedOutcome":"a","reasoning":"r","metExpectation":"true"}`), "results[3].metExpectation is not true or false"},
		{"reasoning missing", four(`{"expectedOutcome":"a","metExpectation":true}`), `results[3]: missing key "reasoning"`},
		{"unknown key in a result", four(`{"expectedOutcome":"a","reasoning":"r","metExpectation":true,"score":1}`), `unknown key "score"`},
		{"outcome not a string", four(`{"expectedOutcome":1,"reasoning":"r","metExpectation":true}`), "expectedOutcome is not a string"},
		{"results not a list", `{"results":{"a":1}}`, "results is not a list"},
		{"results null", `{"results":null}`, "results is not a list"},
		{"no results key", `{"checks":[]}`, `unknown key "checks"`},
		{"tau2's example, trailing comma", `{"results":[{"expectedOutcome":"a","reasoning":"r","metExpectation":true,}]}`, "not valid JSON"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newServer(t, answer(c.answer), answer(c.answer))
			res, err := NewNLAssertions(client(t, s.config(), nil)).Score(context.Background(), tau2Payload(t))
			if res != nil || !errors.Is(err, llmclient.ErrSchema) || !strings.Contains(err.Error(), c.msg) {
				t.Errorf("result %v, error %v; want a schema failure saying %q", res, err, c.msg)
			}
		})
	}
}

func TestNLAssertionsWithoutAssertions(t *testing.T) {
	// tau2 scores a task without assertions 1 without asking; no endpoint
	// is needed for that.
	res, err := NewNLAssertions(nil).Score(context.Background(), witness(t))
	if err != nil || res.Score != 1 || res.Attempts != 0 || res.RequestSHA != "" {
		t.Fatalf("result %+v, error %v", res, err)
	}
	if _, err := NewNLAssertions(nil).Score(context.Background(), tau2Payload(t)); !errors.Is(err, llmclient.ErrNotConfigured) {
		t.Errorf("not configured: %v", err)
	}
	c := client(t, llmclient.Config{BaseURL: "http://127.0.0.1:1", Model: "m"}, nil)
	if _, err := NewNLAssertions(c).Request(witness(t)); err == nil || !strings.Contains(err.Error(), "no NL assertions") {
		t.Errorf("request without assertions: %v", err)
	}
}

// TestNLAssertionsRecordReplay: a recorded run replays offline to the same
// result, and a second recording of the replay is byte for byte the first.
func TestNLAssertionsRecordReplay(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nl.jsonl")
	log, err := OpenLog(path)
	if err != nil {
		t.Fatal(err)
	}
	s := newServer(t, raw(503, "busy"), answer(nlAnswer(true, false, true, true)))
	live, err := NewNLAssertions(client(t, s.config(), log)).Score(context.Background(), tau2Payload(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := log.Close(); err != nil {
		t.Fatal(err)
	}
	rp, err := OpenReplay(path)
	if err != nil {
		t.Fatal(err)
	}
	rc, err := rp.Client(llmclient.Config{}, CallNLAssertions)
	if err != nil {
		t.Fatal(err)
	}
	again, err := NewNLAssertions(rc).Score(context.Background(), tau2Payload(t))
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(live)
	b, _ := json.Marshal(again)
	if !bytes.Equal(a, b) || live.Attempts != 2 || live.Score != 0 {
		t.Errorf("replayed %s; recorded %s", b, a)
	}
	recorded, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(recorded, []byte(`"call":"tau2_nl_assertions"`)); n != 2 {
		t.Errorf("%d exchanges recorded as tau2_nl_assertions; want the failure and the answer", n)
	}
}

// TestPyStrList holds the assertions' rendering to Python's str() of a
// list of str; TestPromptsAgainstPython checks the same against python3.
func TestPyStrList(t *testing.T) {
	for _, c := range []struct {
		in   []string
		want string
	}{
		{nil, "[]"},
		{[]string{"a", "b"}, "['a', 'b']"},
		{[]string{"it's"}, `["it's"]`},
		{[]string{`it's "x"`}, `['it\'s "x"']`},
		{[]string{`say "hi"`}, `['say "hi"']`},
		{[]string{"a\\b\n\t\r"}, `['a\\b\n\t\r']`},
		{[]string{"\x00\x7f\u0085\u00a0é\u200b\u2028€😀\U000e0001"}, `['\x00\x7f\x85\xa0é\u200b\u2028€😀\U000e0001']`},
	} {
		if got := pyStrList(c.in); got != c.want {
			t.Errorf("pyStrList(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}

// TestPromptsAgainstPython renders the user prompt with python3 from the
// same transcript and assertions: the list as Python prints it, and, when
// TAU2_SRC names a tau2 source tree, both prompts from tau2's own
// evaluator source (its f-string evaluated, its system prompt read).
func TestPromptsAgainstPython(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed")
	}
	p, err := payload.Decode(tau2Payload(t))
	if err != nil {
		t.Fatal(err)
	}
	assertions := append([]string{}, p.Reference.Assertions...)
	assertions = append(assertions, "it's", `it's "x"`, "a\\b\n\t\r", "\x00\x7f\u0085\u00a0é\u200b\u2028€😀\U000e0001", "\u00ad\u0600\u061c\ufeff\ue000")
	turns := append([]payload.Turn{}, p.Transcript...)
	turns = append(turns, payload.Turn{Role: "user", Content: "naïve 'quotes' \"and\" \\ {braces}"})
	in, _ := json.Marshal(map[string]any{"turns": turns, "assertions": assertions, "src": os.Getenv("TAU2_SRC")})
	script := `import ast, json, os, sys
d = json.load(sys.stdin)
nl_assertions = d["assertions"]
trajectory_str = "\n".join([f"{m['role']}: {m['content']}" for m in d["turns"]])
out = {"list": str(nl_assertions)}
path = os.path.join(d["src"], "tau2", "evaluator", "evaluator_nl_assertions.py")
if d["src"] and os.path.exists(path):
    tree = ast.parse(open(path).read())
    for n in ast.walk(tree):
        if isinstance(n, ast.Assign) and isinstance(n.targets[0], ast.Name) and n.targets[0].id == "system_prompt" and "system" not in out:
            out["system"] = n.value.value
        if isinstance(n, ast.Assign) and isinstance(n.targets[0], ast.Name) and n.targets[0].id == "user_prompt" and "user" not in out:
            expr = ast.Expression(n.value)
            out["user"] = eval(compile(expr, path, "eval"), {"trajectory_str": trajectory_str, "nl_assertions": nl_assertions})
print(json.dumps(out))
`
	cmd := exec.Command(py, "-c", script)
	cmd.Stdin = bytes.NewReader(in)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python3: %v", err)
	}
	var got struct{ List, System, User string }
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	if want := pyStrList(assertions); got.List != want {
		t.Errorf("python prints the list\n%s\nGo\n%s", got.List, want)
	}
	if got.User == "" {
		t.Skip("TAU2_SRC names no tau2 source tree: the prompts are held to the golden request only")
	}
	if got.System != nlSystem {
		t.Errorf("tau2's system prompt is\n%q\nGo sends\n%q", got.System, nlSystem)
	}
	if want := nlUser(turns, assertions); got.User != want {
		t.Errorf("tau2's user prompt is\n%q\nGo sends\n%q", got.User, want)
	}
}
