package llm

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/parthack/parthack/internal/llmclient"
	"github.com/parthack/parthack/internal/payload"
	"github.com/parthack/parthack/model"
)

const checklistAnswer = `{"checklist":["Ticket T2 is closed.","Ticket T1 is assigned to Dana.","Ticket T1 is tagged hardware."]}`

func idjAnswer(score string) reply {
	return answer(`{"score":` + score + `,"rationale":"r","cited_fields":["terminal.entities[3].fields.status"]}`)
}

func TestIDJMedianOfThree(t *testing.T) {
	s := newServer(t, answer(checklistAnswer), idjAnswer("0.2"), idjAnswer("0.9"), idjAnswer("0.5"))
	p := witness(t)
	res, err := NewIDJ(client(t, s.config(), nil)).Score(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if res.Score != 0.5 || res.Spread != 0.7 || len(res.Scores) != 3 || res.Scores[0] != 0.2 || res.Scores[1] != 0.9 || res.Scores[2] != 0.5 {
		t.Errorf("median %v, spread %v, scores %v; want 0.5, 0.7, [0.2 0.9 0.5]", res.Score, res.Spread, res.Scores)
	}
	reqs := s.requests()
	if len(reqs) != 4 || !bytes.Equal(reqs[1], reqs[2]) || !bytes.Equal(reqs[2], reqs[3]) || model.Hash(reqs[1]) != res.RequestSHA {
		t.Fatalf("%d requests; the three scoring calls must send the same bytes", len(reqs))
	}
	// The checklist request carries the instruction alone; the scoring
	// request carries the projection, with no goal schema.
	dp, err := payload.Decode(p)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(reqs[0], []byte("Close the duplicate ticket T2")) {
		t.Error("the checklist request lacks the instruction")
	}
	for _, leak := range []string{dp.Title, "Ticket T2 is closed", `\"goals\"`, `\"terminal\"`} {
		if bytes.Contains(reqs[0], []byte(leak)) {
			t.Errorf("the checklist request holds %s", leak)
		}
	}
	q, err := payload.Project(dp)
	if err != nil {
		t.Fatal(err)
	}
	if res.Subject != q.Hash() || !strings.Contains(userMessage(t, reqs[1]), "\n<<<RECORD\n"+string(q.Bytes())+"\nRECORD>>>") {
		t.Error("the scoring request does not quote the projection")
	}
	for _, leak := range []string{`\"goals\"`, "Exactly one printer ticket is open", `\"predicates\"`} {
		if bytes.Contains(reqs[1], []byte(leak)) {
			t.Errorf("the scoring request holds %s", leak)
		}
	}
	// A cited field must be in the projection: the goals are not.
	s = newServer(t, answer(checklistAnswer), answer(`{"score":0.5,"rationale":"r","cited_fields":["goals[0]"]}`), answer(`{"score":0.5,"rationale":"r","cited_fields":["goals[0]"]}`))
	if _, err := NewIDJ(client(t, s.config(), nil)).Score(context.Background(), p); !errors.Is(err, llmclient.ErrSchema) {
		t.Errorf("IDJ citing the goal schema: %v", err)
	}
}

func TestIDJFailedCallIsAnError(t *testing.T) {
	s := newServer(t, answer(checklistAnswer), idjAnswer("0.4"), answer(`{"score":2,"rationale":"r","cited_fields":[]}`), raw(500, "down"))
	res, err := NewIDJ(client(t, s.config(), nil)).Score(context.Background(), witness(t))
	if res != nil || err == nil || !strings.Contains(err.Error(), "idj score 2 of 3") {
		t.Fatalf("result %+v, error %v", res, err)
	}
}

func TestChecklistSchema(t *testing.T) {
	for _, c := range []struct{ answer, msg string }{
		{`{"checklist":[]}`, "0 checklist items"},
		{`{"checklist":["a","  A "]}`, "repeats another"},
		{`{"checklist":["a",""]}`, "is empty"},
		{`{"checklist":"a"}`, "not a list"},
		{`{"items":["a"]}`, `unknown key "items"`},
		{`["a"]`, "not a JSON object"},
		{`{"checklist":["` + strings.Repeat(`a","`, maxItems) + `b"]}`, "33 checklist items"},
	} {
		if _, err := parseChecklist([]byte(c.answer)); !errors.Is(err, llmclient.ErrSchema) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: %v; want a schema failure saying %q", c.answer, err, c.msg)
		}
	}
}

func TestChecklistIsFrozenHashedAndStored(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.jsonl")
	log, err := OpenLog(path)
	if err != nil {
		t.Fatal(err)
	}
	s := newServer(t, answer(checklistAnswer), idjAnswer("0.4"), idjAnswer("0.4"), idjAnswer("0.4"),
		idjAnswer("0.1"), idjAnswer("0.1"), idjAnswer("0.1"))
	d := NewIDJ(client(t, s.config(), log))
	first, err := d.Score(context.Background(), witness(t))
	if err != nil {
		t.Fatal(err)
	}
	cl := first.Checklist
	if cl.SHA != model.Hash(cl.Bytes()) || cl.Version != ChecklistVersion || cl.Task != "EX-01" || len(cl.Items) != 3 {
		t.Fatalf("checklist %+v", cl)
	}
	// The checklist's bytes are pinned: the same answer freezes to the
	// same hash on any machine.
	dp, _ := payload.Decode(witness(t))
	want := `{"checklist_version":1,"task":"EX-01","instruction_sha256":"` + model.Hash([]byte(dp.Instruction)) +
		`","model":"test-model","request_sha256":"` + cl.RequestSHA + `","items":["Ticket T2 is closed.","Ticket T1 is assigned to Dana.","Ticket T1 is tagged hardware."]}`
	if string(cl.Bytes()) != want {
		t.Errorf("checklist bytes\n%s\nwant\n%s", cl.Bytes(), want)
	}
	// A second trajectory of the task reuses it: no checklist request.
	second, err := d.Score(context.Background(), honest(t))
	if err != nil {
		t.Fatal(err)
	}
	if second.Checklist.SHA != cl.SHA || len(s.requests()) != 7 {
		t.Errorf("second trajectory: checklist %s, %d requests", second.Checklist.SHA, len(s.requests()))
	}
	if err := log.Close(); err != nil {
		t.Fatal(err)
	}
	// Stored: a new run on the same recording finds it frozen.
	log, err = OpenLog(path)
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	s2 := newServer(t)
	got, err := NewIDJ(client(t, s2.config(), log)).Checklist(context.Background(), "EX-01", dp.Instruction)
	if err != nil || got.SHA != cl.SHA || len(s2.requests()) != 0 {
		t.Fatalf("reopened: checklist %+v, error %v, %d requests", got, err, len(s2.requests()))
	}
	// A checklist edited after freezing no longer matches its hash.
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tampered := filepath.Join(t.TempDir(), "tampered.jsonl")
	lines := bytes.SplitAfter(b, []byte("\n"))
	for i, l := range lines {
		if bytes.HasPrefix(l, []byte(`{"checklist":`)) {
			lines[i] = bytes.Replace(l, []byte("tagged hardware"), []byte("tagged software"), 1)
		}
	}
	os.WriteFile(tampered, bytes.Join(lines, nil), 0o644)
	if _, err := OpenReplay(tampered); err == nil || !strings.Contains(err.Error(), "does not match its content") {
		t.Errorf("tampered checklist: %v", err)
	}
}

// TestRecordReplay records a run with a retry, a transport failure and
// a response that is not UTF-8, then replays it with the server gone:
// the same scores, the same attempts, byte for byte.
func TestRecordReplay(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.jsonl")
	log, err := OpenLog(path)
	if err != nil {
		t.Fatal(err)
	}
	s := newServer(t,
		raw(200, "\xff\xfe not utf-8"), answer(good), // judge, retried
		answer(checklistAnswer),
		raw(503, "busy"), idjAnswer("0.3"), // IDJ call 1, retried
		idjAnswer("0.6"), idjAnswer("0.45"))
	cfg := s.config()
	p := witness(t)
	j, err := NewJudge(client(t, cfg, log)).Score(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	d, err := NewIDJ(client(t, cfg, log)).Score(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	log.Close()
	live := s.requests()
	s.srv.Close()

	lines := strings.Split(strings.TrimSpace(readFile(t, path)), "\n")
	if len(lines) != len(live)+1 { // every exchange and the checklist
		t.Fatalf("%d lines for %d exchanges and a checklist", len(lines), len(live))
	}
	if !strings.Contains(lines[0], `"response_base64":"//4gbm90IHV0Zi04"`) || !strings.Contains(lines[0], `"attempt":1`) {
		t.Errorf("first line: %s", lines[0])
	}

	rp, err := OpenReplay(path)
	if err != nil {
		t.Fatal(err)
	}
	cfg.BaseURL = "" // offline: no server
	jc, err := rp.Client(cfg, CallJudge)
	if err != nil {
		t.Fatal(err)
	}
	j2, err := NewJudge(jc).Score(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if j2.Score != j.Score || j2.Rationale != j.Rationale || j2.Attempts != 2 || j2.RequestSHA != j.RequestSHA {
		t.Errorf("replayed judge %+v, recorded %+v", j2, j)
	}
	// The model comes from the recording when none is named.
	ic, err := rp.Client(llmclient.Config{}, CallChecklist, CallIDJ)
	if err != nil {
		t.Fatal(err)
	}
	d2, err := NewIDJ(ic).Score(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if d2.Score != 0.45 || d2.Score != d.Score || d2.Checklist.SHA != d.Checklist.SHA || strings.Join(fmtScores(d2.Scores), " ") != "0.3 0.6 0.45" || d2.Attempts[0] != 2 {
		t.Errorf("replayed IDJ %+v, recorded %+v", d2, d)
	}
	// A request the recording does not hold fails clearly.
	body, _ := NewJudge(jc).Request(honest(t))
	_, err = NewJudge(jc).Score(context.Background(), honest(t))
	want := "no recorded response for request " + model.Hash(body) + "; run with an endpoint to record it"
	if !errors.Is(err, llmclient.ErrNoRecording) || !strings.Contains(err.Error(), want) {
		t.Errorf("replay miss: %v; want %q", err, want)
	}
	var ce *llmclient.CallError
	if errors.As(err, &ce) && len(ce.Attempts) != 1 {
		t.Errorf("a replay miss was retried: %v", err)
	}
	// So does the same payload once its responses are used up.
	if _, err := NewJudge(jc).Score(context.Background(), p); !errors.Is(err, llmclient.ErrNoRecording) {
		t.Errorf("replaying past the recording: %v", err)
	}
}

func fmtScores(xs []float64) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = strconv.FormatFloat(x, 'g', -1, 64)
	}
	return out
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
