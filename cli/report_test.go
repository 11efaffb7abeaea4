package cli

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/parthack/parthack/attacker/bench"
	"github.com/parthack/parthack/report"
)

func reportData(name string) string { return filepath.Join("..", "testdata", "report", name) }

func TestReportExitCodes(t *testing.T) {
	dir := t.TempDir()
	badCSV := filepath.Join(dir, "bad.csv")
	if err := os.WriteFile(badCSV, []byte("target,set,task,matched,delta,honest_score,p_state_h,attempts,valid\ncsps,shared,PH-H01,true,zero,0.5,0.5,3,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name       string
		args       []string
		code       int
		wantOut    string
		wantStderr string
	}{
		{"report a JSON ledger", []string{"report", "--ledger", reportData("ledger.json")}, 0, "Target-specific attack results", ""},
		{"report a CSV ledger as LaTeX", []string{"report", "--ledger", reportData("ledger.csv"), "--format", "latex"}, 0, `\toprule`, ""},
		{"report without a ledger", []string{"report"}, 2, "", "--ledger is required"},
		{"report a minimal ledger", []string{"report", "--ledger", reportData("minimal.csv")}, 0, "Candidate accounting left out: needs attempts and valid", ""},
		{"report a missing file", []string{"report", "--ledger", filepath.Join(dir, "nope.json")}, 2, "", "nope.json"},
		{"report a bad cell", []string{"report", "--ledger", badCSV}, 2, "", `bad.csv:2: row 1, column "delta": want a number, got "zero"`},
		{"report an unknown format", []string{"report", "--ledger", reportData("ledger.json"), "--format", "html"}, 2, "", `unknown format "html"`},
		{"bench an unknown split", []string{"bench", "--split", "train"}, 2, "", `--split: "train"`},
		{"bench zero edits", []string{"bench", "--edits", "0"}, 2, "", "--edits 0 is out of range: allowed 1 to 64"},
		{"bench a ledger without extension", []string{"bench", "--ledger-out", filepath.Join(dir, "ledger.txt")}, 2, "", ".json or .csv"},
		{"bench an unknown format", []string{"bench", "--format", "pdf"}, 2, "", `unknown format "pdf"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := run(t, c.args...)
			if code != c.code || !strings.Contains(out, c.wantOut) || !strings.Contains(errOut, c.wantStderr) {
				t.Errorf("exit %d (want %d)\nstdout: %s\nstderr: %s", code, c.code, out, errOut)
			}
		})
	}
}

func TestReportMarkdownGolden(t *testing.T) {
	code, out, errOut := run(t, "report", "--ledger", reportData("ledger.json"), "--format", "markdown")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	path := reportData("cli-report-markdown.golden")
	if *update {
		if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./cli -update to create it)", err)
	}
	if out != string(want) {
		t.Errorf("output differs from %s:\n--- got\n%s\n--- want\n%s", path, out, want)
	}
}

// TestBenchLedgerReports runs the benchmark on the development split,
// saves its ledger in both formats, and checks that `report` recomputes
// the very output `bench` printed from either.
func TestBenchLedgerReports(t *testing.T) {
	dir := t.TempDir()
	for _, ext := range []string{".json", ".csv"} {
		ledger := filepath.Join(dir, "ledger"+ext)
		code, out, errOut := run(t, "bench", "--split", "development", "--edits", "1", "--ledger-out", ledger, "--format", "json")
		if code != 0 {
			t.Fatalf("bench: exit %d: %s", code, errOut)
		}
		if !strings.Contains(errOut, "historical_milestone") || !strings.Contains(errOut, "ledger written to") {
			t.Errorf("bench progress: %s", errOut)
		}
		code, again, errOut := run(t, "report", "--ledger", ledger, "--format", "json")
		if code != 0 {
			t.Fatalf("report: exit %d: %s", code, errOut)
		}
		if again != out {
			t.Errorf("report --ledger %s differs from what bench printed", ext)
		}
		if !strings.Contains(out, `"set": "targeted"`) || !strings.Contains(out, `"target": "terminal_outcome"`) {
			t.Errorf("bench report lacks groups:\n%s", out)
		}
	}
}

// fakeJudgeServer is a loopback OpenAI-compatible endpoint whose answers
// are a function of the request bytes: a checklist when asked for one,
// else a score derived from the request's sha256. The schema-aware
// judge's requests about task failTask get HTTP 503, so those calls fail
// after their retry.
type fakeJudgeServer struct {
	*httptest.Server
	mu       sync.Mutex
	requests int
}

func newFakeJudgeServer(t *testing.T, failTask string) *fakeJudgeServer {
	t.Helper()
	s := &fakeJudgeServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		s.requests++
		s.mu.Unlock()
		idj := bytes.Contains(body, []byte("against a fixed checklist"))
		if !idj && bytes.Contains(body, []byte(failTask)) {
			http.Error(w, "overloaded", http.StatusServiceUnavailable)
			return
		}
		sum := sha256.Sum256(body)
		content := fmt.Sprintf(`{"score":%.2f,"rationale":"fake","cited_fields":["instruction"]}`, float64(sum[0])/255)
		if bytes.Contains(body, []byte(`<<<INSTRUCTION\n`)) {
			content = `{"checklist":["The task is done."]}`
		}
		b, _ := json.Marshal(map[string]any{"choices": []any{map[string]any{
			"finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": content}}}})
		w.Write(b)
	}))
	t.Cleanup(s.Close)
	return s
}

// clearJudgeEnv makes a run independent of the developer's own endpoint.
func clearJudgeEnv(t *testing.T) {
	for _, k := range []string{"BASE_URL", "MODEL", "API_KEY"} {
		t.Setenv("PARTHACK_JUDGE_"+k, "")
		t.Setenv("PARTHACK_IDJ_"+k, "")
	}
}

// TestBenchJudges runs the benchmark on two tasks with both LLM judges
// against a loopback server, recorded, and checks the judges' shared
// rows, their failures, the report, and that the recording replays the
// run offline to the same bytes.
func TestBenchJudges(t *testing.T) {
	clearJudgeEnv(t)
	dir := t.TempDir()
	srv := newFakeJudgeServer(t, "PH-H05")
	recording := filepath.Join(dir, "run.jsonl")
	base := []string{"bench", "--tasks", "PH-H04,PH-H05", "--edits", "1", "--idj", "--format", "markdown"}
	liveLedger := filepath.Join(dir, "live.json")
	code, live, errOut := run(t, append(base, "--judge-base-url", srv.URL, "--judge-model", "fake-model", "--record", recording, "--ledger-out", liveLedger)...)
	if code != 0 {
		t.Fatalf("live: exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"bench: tasks PH-H04,PH-H05, 2 tasks, 6 evaluators and LLM judge (schema-aware), IDJ on the shared set, within 1 edits of H: 28 rows",
		"PH-H05  llm_judge             f(H) no score  f(A) no score  f(R) no score  (H: judge: no answer after 2 attempt(s)",
		"judge exchanges recorded in " + recording,
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	// The judge: one call for each of H, A_ref and R of PH-H04, two
	// attempts for each of PH-H05; IDJ: a checklist and three calls for
	// each trajectory, per task.
	if srv.requests != 3+6+2*(1+3*3) {
		t.Errorf("%d requests", srv.requests)
	}

	l, err := report.ReadFile(liveLedger)
	if err != nil {
		t.Fatal(err)
	}
	var judged []report.Row
	ref := map[string]report.Row{}
	for _, r := range l.Rows {
		switch {
		case r.Target == report.TargetJudge || r.Target == report.TargetIDJ:
			judged = append(judged, r)
		case r.Set == report.SetShared && r.Target == bench.ReferenceTarget:
			ref[r.Task] = r
		}
	}
	if len(judged) != 4 {
		t.Fatalf("%d judge rows, want 4", len(judged))
	}
	for i, r := range judged {
		target, task := []string{report.TargetJudge, report.TargetIDJ}[i/2], []string{"PH-H04", "PH-H05"}[i%2]
		h := ref[task]
		if r.Target != target || r.Task != task || r.Set != report.SetShared || r.Matched != h.Matched || r.PStateH != h.PStateH ||
			r.Attempts != h.Attempts || r.Valid != h.Valid || *r.PStateR != *h.PStateR {
			t.Errorf("row %d: %+v (reference row %+v)", i, r, h)
		}
		failed := target == report.TargetJudge && task == "PH-H05"
		if complete := r.Honest != nil && r.Delta != nil && r.Rollback != nil && r.Error == ""; complete == failed {
			t.Errorf("row %d (%s %s): %+v", i, target, task, r)
		}
		if failed && (r.Honest != nil || r.Delta != nil || r.Rollback != nil || !strings.Contains(r.Error, "HTTP 503: overloaded") ||
			!strings.HasPrefix(r.Error, "H: judge: no answer after 2 attempt(s)") || !strings.Contains(r.Error, "; R: judge:")) {
			t.Errorf("the failed row: %+v", r)
		}
	}
	for _, want := range []string{
		"| LLM judge (schema-aware) | ", "| IDJ | ",
		"LLM judge (schema-aware) and IDJ: shared set only, no target-specific rows",
		"Tasks left partly unscored (a judge call failed after its retry, or a scorer failed on a trajectory): LLM judge (schema-aware) 1 of 2;",
	} {
		if !strings.Contains(live, want) {
			t.Errorf("report lacks %q:\n%s", want, live)
		}
	}
	if n := strings.Count(live, "| IDJ | "); n != 2 {
		t.Errorf("IDJ is in %d tables, want the shared-set and rollback tables", n)
	}

	// Offline, from the recording alone: the same report and ledger.
	srv.Close()
	replayLedger := filepath.Join(dir, "replay.json")
	code, replayed, errOut := run(t, append(base, "--replay", recording, "--ledger-out", replayLedger)...)
	if code != 0 {
		t.Fatalf("replay: exit %d: %s", code, errOut)
	}
	if replayed != live {
		t.Errorf("the replay printed\n%s\nthe live run\n%s", replayed, live)
	}
	a, _ := os.ReadFile(liveLedger)
	b, _ := os.ReadFile(replayLedger)
	if !bytes.Equal(a, b) {
		t.Errorf("the replayed ledger differs from the live one")
	}
	// A task the recording does not hold stops the run.
	code, _, errOut = run(t, "bench", "--tasks", "PH-H01", "--edits", "1", "--judge", "--replay", recording)
	if code != 2 || !strings.Contains(errOut, "PH-H01: llm_judge scoring H:") || !strings.Contains(errOut, "no recorded response") {
		t.Errorf("replay miss: exit %d, stderr %s", code, errOut)
	}

	// Without --judge: no judge rows, and the rest as before.
	plainLedger := filepath.Join(dir, "plain.json")
	code, plain, errOut := run(t, "bench", "--tasks", "PH-H04,PH-H05", "--edits", "1", "--format", "markdown", "--ledger-out", plainLedger)
	if code != 0 {
		t.Fatalf("plain: exit %d: %s", code, errOut)
	}
	for _, bad := range []string{"judge", "IDJ", "unscored"} {
		if strings.Contains(plain, bad) {
			t.Errorf("the report without --judge names %q:\n%s", bad, plain)
		}
	}
	pl, err := report.ReadFile(plainLedger)
	if err != nil {
		t.Fatal(err)
	}
	rest := slices.DeleteFunc(slices.Clone(l.Rows), func(r report.Row) bool {
		return r.Target == report.TargetJudge || r.Target == report.TargetIDJ
	})
	if !reflect.DeepEqual(pl.Rows, rest) {
		t.Errorf("the judges changed the other rows")
	}
}

func TestBenchJudgeUsage(t *testing.T) {
	clearJudgeEnv(t)
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--tasks", "PH-H04", "--judge"}, "--judge: LLM judge (schema-aware) not configured: give --judge-base-url and --judge-model, or set PARTHACK_JUDGE_BASE_URL"},
		{[]string{"--tasks", "PH-H04", "--record", "x.jsonl"}, "--record needs --judge"},
		{[]string{"--tasks", "PH-H04", "--judge", "--record", "a", "--replay", "b"}, "exclude each other"},
		{[]string{"--tasks", "PH-H04", "--judge", "--replay", filepath.Join(t.TempDir(), "none.jsonl")}, "--replay"},
		{[]string{"--tasks", "PH-H04", "--split", "development"}, "--tasks and --split exclude each other"},
		{[]string{"--tasks", "PH-H04,PH-H04"}, "--tasks: PH-H04 is listed twice"},
		{[]string{"--tasks", "PH-H04,"}, "holds an empty task id"},
		{[]string{"--tasks", "PH-X99"}, `--tasks: no suite task "PH-X99"`},
	} {
		code, out, errOut := run(t, append([]string{"bench"}, c.args...)...)
		if code != 2 || out != "" || !strings.Contains(errOut, c.msg) || strings.Contains(errOut, "historical_milestone") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 before any search and %q", c.args, code, out, errOut, c.msg)
		}
	}
}

// TestBenchTasks: --tasks runs exactly the listed tasks, in that order.
func TestBenchTasks(t *testing.T) {
	ledger := filepath.Join(t.TempDir(), "l.csv")
	code, _, errOut := run(t, "bench", "--tasks", "PH-H05,PH-D01", "--edits", "1", "--ledger-out", ledger)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	l, err := report.ReadFile(ledger)
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, r := range l.Rows[:2] {
		order = append(order, r.Task)
	}
	if len(l.Rows) != 2*2*6 || !slices.Equal(order, []string{"PH-H05", "PH-D01"}) {
		t.Errorf("%d rows, first tasks %v", len(l.Rows), order)
	}
}
