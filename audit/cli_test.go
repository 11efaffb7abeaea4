package audit

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parthack/parthack/cli"
)

func parthack(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := cli.Main(args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// clearJudgeEnv makes the run independent of the developer's own
// endpoint settings.
func clearJudgeEnv(t *testing.T) {
	for _, k := range []string{"BASE_URL", "MODEL", "API_KEY"} {
		t.Setenv("PARTHACK_JUDGE_"+k, "")
		t.Setenv("PARTHACK_IDJ_"+k, "")
	}
}

// quoted is the record a request's user message quotes.
func quoted(t *testing.T, body []byte) string {
	t.Helper()
	var r struct {
		Messages []struct{ Role, Content string } `json:"messages"`
	}
	if err := json.Unmarshal(body, &r); err != nil || len(r.Messages) != 2 {
		t.Fatalf("request %s: %v", body, err)
	}
	_, rest, ok := strings.Cut(r.Messages[1].Content, "<<<RECORD\n")
	record, _, ok2 := strings.Cut(rest, "\nRECORD>>>")
	if !ok || !ok2 {
		t.Fatalf("no quoted record in %s", r.Messages[1].Content)
	}
	return record
}

// TestScoreJudgesSeeThePayloadBytes is the same-payload audit for the
// LLM judges, through the CLI: the record the schema-aware judge is sent
// is byte for byte what `parthack payload` prints, IDJ's is what
// `parthack payload --projection idj` prints, and a recorded run replays
// offline to the same output.
func TestScoreJudgesSeeThePayloadBytes(t *testing.T) {
	clearJudgeEnv(t)
	task, traj := "PH-D01", filepath.Join("..", "tasks", "data", "PH-D01", "witness.json")
	_, pay, _ := parthack(t, "payload", "--task", task, "--trajectory", traj)
	_, proj, _ := parthack(t, "payload", "--task", task, "--trajectory", traj, "--projection", "idj")

	srv := newJudgeServer(t)
	recording := filepath.Join(t.TempDir(), "judges.jsonl")
	args := []string{"score", "--task", task, "--trajectory", traj, "--idj", "--judge-model", "audit-model"}
	code, live, errOut := parthack(t, append(args, "--judge-base-url", srv.srv.URL, "--record", recording)...)
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	reqs := srv.requests()
	if len(reqs) != 5 {
		t.Fatalf("%d requests; want the judge, a checklist and three IDJ calls", len(reqs))
	}
	if quoted(t, reqs[0]) != pay {
		t.Error("the judge was not sent the payload bytes")
	}
	for _, b := range reqs[2:] {
		if quoted(t, b) != proj {
			t.Error("IDJ was not sent the projection bytes")
		}
	}
	for _, want := range []string{"LLM judge (schema-aware)  0.500", "IDJ                       0.500", "scores 0.500 0.500 0.500, median 0.500, spread 0.000"} {
		if !strings.Contains(live, want) {
			t.Errorf("output lacks %q:\n%s", want, live)
		}
	}
	srv.srv.Close()
	code, replayed, errOut := parthack(t, append(args, "--replay", recording)...)
	if code != 0 || replayed != live {
		t.Errorf("replay: exit %d, stderr %q, output\n%s\nwant\n%s", code, errOut, replayed, live)
	}
	// The model is in the recording; the replay needs no flag for it.
	if _, again, _ := parthack(t, "score", "--task", task, "--trajectory", traj, "--idj", "--replay", recording); again != live {
		t.Errorf("replay without --judge-model:\n%s", again)
	}
	// Another trajectory is not in the recording: a clear miss, no score.
	honest := filepath.Join("..", "tasks", "data", "PH-D01", "honest.json")
	code, out, errOut := parthack(t, "score", "--task", task, "--trajectory", honest, "--judge", "--replay", recording)
	if code != 2 || !strings.Contains(out, "LLM judge (schema-aware)  error") || !strings.Contains(out, "no recorded response for request") || !strings.Contains(errOut, "gave no score") {
		t.Errorf("replay miss: exit %d, stdout\n%s\nstderr %s", code, out, errOut)
	}
}

func TestScoreJudgesNotConfigured(t *testing.T) {
	clearJudgeEnv(t)
	args := []string{"score", "--task", "PH-D01", "--trajectory", filepath.Join("..", "tasks", "data", "PH-D01", "witness.json")}
	_, plain, _ := parthack(t, args...)
	code, out, errOut := parthack(t, append(args, "--idj")...)
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"LLM judge (schema-aware)  not configured", "IDJ                       not configured", "set PARTHACK_JUDGE_BASE_URL"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(plain, "judge") {
		t.Errorf("without --judge the output names a judge:\n%s", plain)
	}
	code, out, _ = parthack(t, append(args, "--judge", "--json")...)
	var got struct {
		Judges []struct{ Name, State string } `json:"judges"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || code != 0 || len(got.Judges) != 1 || got.Judges[0].State != "not configured" {
		t.Errorf("JSON: exit %d, %+v, %v", code, got, err)
	}
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--record", "x.jsonl"}, "--record needs --judge"},
		{[]string{"--judge", "--steps"}, "does not go with --steps"},
		{[]string{"--judge", "--record", "a", "--replay", "b"}, "exclude each other"},
		{[]string{"--judge", "--judge-base-url", "ftp://x", "--judge-model", "m"}, "not an http(s) URL"},
		{[]string{"--judge", "--replay", filepath.Join(t.TempDir(), "none.jsonl")}, "--replay"},
	} {
		code, _, errOut := parthack(t, append(args, c.args...)...)
		if code != 2 || !strings.Contains(errOut, c.msg) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", c.args, code, errOut, c.msg)
		}
	}
}
