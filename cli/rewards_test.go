package cli

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/parthack/parthack/domains"
	"github.com/parthack/parthack/evaluators"
)

// scoreJSON is score --json's document, the parts these tests read.
type scoreJSON struct {
	Scores  []json.RawMessage `json:"scores"`
	Rewards []rewardRow       `json:"rewards"`
	Judges  []struct {
		Name   string   `json:"name"`
		State  string   `json:"state"`
		Value  *float64 `json:"value"`
		Detail string   `json:"detail"`
	} `json:"judges"`
}

func decodeScore(t *testing.T, out string) scoreJSON {
	t.Helper()
	var s scoreJSON
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return s
}

// TestScoreDomainRewards: score on a domain task adds the benchmark's own
// evaluators below the paper's, computed from the payload, and tau2's
// verdict is the one tau2 recorded for the run.
func TestScoreDomainRewards(t *testing.T) {
	code, out, errs := run(t, "score", "--task", "T2R-5", "--trajectory", "T2R-5-gpt-4.1-trial0")
	if code != 0 || errs != "" {
		t.Fatalf("exit %d: %s", code, errs)
	}
	golden(t, "score-tau2-retail", out)

	// Every real domain lists the field's evaluators after its own.
	field := []string{"tau2_prm_partial_action", "toolsandbox_milestone", "agentboard_progress"}
	for _, c := range []struct {
		task, run string
		names     []string
	}{
		{"T2R-5", "T2R-5-gpt-4.1-trial0", append([]string{"tau2_reward", "tau2_db", "tau2_communicate", "tau2_action", "tau2_partial_action"}, field...)},
		{"T2A-7", "T2A-7-gpt-4o-2024-11-20-trial0", append([]string{"tau2_reward", "tau2_db", "tau2_communicate", "tau2_action", "tau2_partial_action"}, field...)},
		{"TAU-A04", "trial0", append([]string{"benchmark_reward"}, field...)},
	} {
		code, out, errs := run(t, "score", "--task", c.task, "--trajectory", c.run, "--json")
		if code != 0 || errs != "" {
			t.Fatalf("%s: exit %d: %s", c.task, code, errs)
		}
		s := decodeScore(t, out)
		var names []string
		for _, r := range s.Rewards {
			names = append(names, r.Name)
			if r.Judged != nil || r.NotComputed != nil {
				t.Errorf("%s: %s says it rests on a judge: %+v", c.task, r.Name, r)
			}
		}
		if !slices.Equal(names, c.names) || len(s.Scores) != 6 {
			t.Errorf("%s: rewards %v, %d scores; want %v and the six", c.task, names, len(s.Scores), c.names)
		}
		d, task, err := domains.FindTask(c.task)
		if err != nil {
			t.Fatal(err)
		}
		r, err := domains.RunOf(d, task.ID, c.run)
		if err != nil {
			t.Fatal(err)
		}
		if s.Rewards[0].Value != r.Reward {
			t.Errorf("%s %s: the verdict is %v; the benchmark recorded %v", c.task, c.run, s.Rewards[0].Value, r.Reward)
		}
	}
	// The judges' package pins its NL_ASSERTION request on this run's
	// payload, as the payload command prints it.
	_, out, _ = run(t, "payload", "--task", "T2A-7", "--trajectory", "T2A-7-gpt-4o-2024-11-20-trial0")
	if want, err := os.ReadFile(filepath.Join("..", "testdata", "llm", "T2A-7-gpt-4o-trial0.payload")); err != nil || out != string(want) {
		t.Errorf("testdata/llm/T2A-7-gpt-4o-trial0.payload is not the run's payload (%v)", err)
	}
	// A suite task has no benchmark of its own: no rewards member.
	_, out, _ = run(t, "score", "--task", "PH-D01", "--trajectory", "witness", "--json")
	if strings.Contains(out, `"rewards"`) {
		t.Errorf("a suite task's score has rewards:\n%s", out)
	}
}

// withNLBasis adds NL_ASSERTION to a tau2 task's reward basis for the
// test, as a task of a Results file may have it (no shipped airline or
// retail task does).
func withNLBasis(t *testing.T, id string) {
	t.Helper()
	_, task, err := domains.FindTask(id)
	if err != nil {
		t.Fatal(err)
	}
	ref := task.Model.Reference
	old := ref.Basis
	ref.Basis = append(slices.Clone(old), evaluators.Tau2NLBasis)
	t.Cleanup(func() { ref.Basis = old })
}

// judgeEndpoint is an OpenAI-compatible server that answers the
// schema-aware judge with judge and the NL_ASSERTION judge with the next
// of nl, keeping the NL requests' bodies.
type judgeEndpoint struct {
	*httptest.Server
	mu    sync.Mutex
	nl    []string
	asked [][]byte
}

func newJudgeEndpoint(t *testing.T, nl ...string) *judgeEndpoint {
	t.Helper()
	e := &judgeEndpoint{nl: nl}
	e.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		content := `{"score":0.5,"rationale":"r","cited_fields":[]}`
		if bytes.Contains(body, []byte(`"content":"\n        TASK\n`)) {
			e.mu.Lock()
			if len(e.asked) >= len(e.nl) {
				e.mu.Unlock()
				t.Errorf("NL request %d: %d answers scripted", len(e.asked)+1, len(e.nl))
				w.WriteHeader(http.StatusTeapot)
				return
			}
			content = e.nl[len(e.asked)]
			e.asked = append(e.asked, body)
			e.mu.Unlock()
		}
		b, _ := json.Marshal(map[string]any{"choices": []any{map[string]any{"finish_reason": "stop",
			"message": map[string]any{"role": "assistant", "content": content}}}})
		w.Write(b)
	}))
	t.Cleanup(e.Close)
	return e
}

func noJudgeEnv(t *testing.T) {
	for _, k := range []string{"BASE_URL", "MODEL", "API_KEY"} {
		t.Setenv("PARTHACK_JUDGE_"+k, "")
		t.Setenv("PARTHACK_IDJ_"+k, "")
	}
}

func nlAnswer(met ...bool) string {
	var rs []map[string]any
	for _, m := range met {
		rs = append(rs, map[string]any{"expectedOutcome": "e", "reasoning": "because", "metExpectation": m})
	}
	b, _ := json.Marshal(map[string]any{"results": rs})
	return string(b)
}

const nlNote = "was not computed"

// TestScoreNLAssertionNotComputed: without a judge the verdict is the
// product of the other components, and one note says so and how to
// have the judge decide; on stderr with --json.
func TestScoreNLAssertionNotComputed(t *testing.T) {
	noJudgeEnv(t)
	withNLBasis(t, "T2A-40")
	args := []string{"score", "--task", "T2A-40", "--trajectory", "T2A-40-gpt-4o-2024-11-20-trial0"}
	code, out, errs := run(t, args...)
	if code != 0 || errs != "" {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if n := strings.Count(out, nlNote); n != 1 || !hasRow(out, "tau2 reward (without NL_ASSERTION)", "1.000") || !strings.Contains(out, "--judge with an endpoint") {
		t.Errorf("the note is said %d times, or the reward row does not say what it leaves out:\n%s", n, out)
	}
	code, out, errs = run(t, append(args, "--json")...)
	if code != 0 || strings.Count(errs, nlNote) != 1 || strings.Contains(out, nlNote) {
		t.Fatalf("exit %d; the note belongs on stderr once: stdout\n%s\nstderr\n%s", code, out, errs)
	}
	s := decodeScore(t, out)
	if r := s.Rewards[0]; r.Name != "tau2_reward" || r.Value != 1 || !slices.Equal(r.NotComputed, []string{"NL_ASSERTION"}) || r.Judged != nil {
		t.Errorf("verdict %+v", r)
	}
	// --judge with no endpoint: the NL row is not configured, the note
	// still said once, without the advice the row's detail gives.
	code, out, _ = run(t, append(args, "--judge")...)
	if code != 0 || strings.Count(out, nlNote) != 1 || !hasRow(out, "tau2 NL_ASSERTION", "not configured") || !strings.Contains(out, "(tau2 NL_ASSERTION: not configured)") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}

// TestScoreNLAssertionJudged: with an endpoint the NL_ASSERTION judge's
// row is added and its score multiplied into the verdict; a recording
// replays to the same output; a judge that grades the wrong number of
// assertions twice gives no score and exit 2.
func TestScoreNLAssertionJudged(t *testing.T) {
	noJudgeEnv(t)
	withNLBasis(t, "T2A-40")
	args := []string{"score", "--task", "T2A-40", "--trajectory", "T2A-40-gpt-4o-2024-11-20-trial0", "--judge", "--judge-model", "test-model"}
	for _, c := range []struct {
		met     bool
		verdict string
	}{{true, "1.000"}, {false, "0.000"}} {
		srv := newJudgeEndpoint(t, nlAnswer(c.met))
		rec := filepath.Join(t.TempDir(), "rec.jsonl")
		code, live, errs := run(t, append(args, "--judge-base-url", srv.URL, "--record", rec)...)
		if code != 0 || errs != "" {
			t.Fatalf("exit %d: %s", code, errs)
		}
		if !hasRow(live, "tau2 reward (with NL_ASSERTION judge)", c.verdict) || !hasRow(live, "tau2 NL_ASSERTION", c.verdict) {
			t.Errorf("met %v: the verdict or the judge's row is not %s:\n%s", c.met, c.verdict, live)
		}
		for _, want := range []string{"Agent updates reservation 3RK2T9 to passenger Mei Garcia.", "because"} {
			if !strings.Contains(live, want) {
				t.Errorf("met %v: the output lacks %q:\n%s", c.met, want, live)
			}
		}
		if strings.Contains(live, nlNote) || len(srv.asked) != 1 {
			t.Errorf("met %v: %d NL requests; output\n%s", c.met, len(srv.asked), live)
		}
		code, replayed, errs := run(t, append(args, "--replay", rec)...)
		if code != 0 || replayed != live {
			t.Errorf("met %v: replay exit %d (%s), output\n%s\nrecorded\n%s", c.met, code, errs, replayed, live)
		}
		_, out, _ := run(t, append(args, "--replay", rec, "--json")...)
		s := decodeScore(t, out)
		if r := s.Rewards[0]; r.Value != map[bool]float64{true: 1, false: 0}[c.met] || !slices.Equal(r.Judged, []string{"NL_ASSERTION"}) {
			t.Errorf("met %v: verdict %+v", c.met, r)
		}
	}

	// Three results for one assertion, twice: no score, exit 2, and the
	// verdict without the judge.
	srv := newJudgeEndpoint(t, nlAnswer(true, true, true), nlAnswer(true, true, true))
	code, out, errs := run(t, append(args, "--judge-base-url", srv.URL)...)
	if code != ExitUsage || !strings.Contains(errs, "tau2 NL_ASSERTION gave no score") || !strings.Contains(out, "3 results for 1 assertions") ||
		!strings.Contains(out, "tau2 reward (without NL_ASSERTION)") || strings.Count(out, nlNote) != 1 {
		t.Errorf("exit %d, stderr %q:\n%s", code, errs, out)
	}
}

// TestScoreNLAssertionRequest: the request score sends is the one the
// judge's package pins for the same run (the basis is not part of it).
func TestScoreNLAssertionRequest(t *testing.T) {
	noJudgeEnv(t)
	withNLBasis(t, "T2A-7")
	srv := newJudgeEndpoint(t, nlAnswer(true, true, true, true))
	code, _, errs := run(t, "score", "--task", "T2A-7", "--trajectory", "T2A-7-gpt-4o-2024-11-20-trial0", "--judge", "--judge-model", "test-model", "--judge-base-url", srv.URL)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	want, err := os.ReadFile(filepath.Join("..", "testdata", "llm", "T2A-7-gpt-4o-trial0.nl-request.golden"))
	if err != nil {
		t.Fatal(err)
	}
	if len(srv.asked) != 1 || !bytes.Equal(srv.asked[0], want) {
		t.Errorf("the NL_ASSERTION request differs from the pinned one")
	}
}

// hasRow reports whether a score table has a row label … cell.
func hasRow(out, label, cell string) bool {
	for line := range strings.Lines(out) {
		rest, ok := strings.CutPrefix(strings.TrimSuffix(line, "\n"), label+"  ")
		if ok && strings.TrimSpace(rest) == cell {
			return true
		}
	}
	return false
}
