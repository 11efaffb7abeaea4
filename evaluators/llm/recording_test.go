package llm

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/parthack/parthack/internal/llmclient"
)

// goldenRecording is a recording written by a live run: a judge call
// retried after a response that is not UTF-8, IDJ's frozen checklist (with
// characters HTML escaping would change) and its three scores, one retried
// after a 503, and a call outside the judges (the attacker's kind).
var goldenRecording = filepath.Join("..", "..", "testdata", "llm", "EX-01.recording.golden")

const goldenChecklist = `{"checklist":["Ticket T2 is closed & <archived>.","Ticket T1 is assigned to Dana.","Ticket T1 is tagged hardware."]}`

// TestRecordingGolden pins the recording's bytes: a live run records
// exactly the golden file, and the golden file replays offline to the
// same results. A change to the format fails here, so recordings made by
// earlier builds keep replaying.
func TestRecordingGolden(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.jsonl")
	log, err := OpenLog(path)
	if err != nil {
		t.Fatal(err)
	}
	s := newServer(t,
		raw(200, "\xff\xfe not utf-8"), answer(good),
		answer(goldenChecklist),
		raw(503, "busy"), idjAnswer("0.3"), idjAnswer("0.6"), idjAnswer("0.45"),
		answer(`{"steps":[]}`))
	cfg := s.config()
	live := run(t, client(t, cfg, log), client(t, cfg, log), client(t, cfg, log))
	if err := log.Close(); err != nil {
		t.Fatal(err)
	}
	got := readFile(t, path)
	if *update {
		if err := os.WriteFile(goldenRecording, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if want := readFile(t, goldenRecording); got != want {
		t.Errorf("the recording differs from %s (go test -update rewrites it)\n--- got\n%s\n--- want\n%s", goldenRecording, got, want)
	}

	rp, err := OpenReplay(goldenRecording)
	if err != nil {
		t.Fatal(err)
	}
	jc, err := rp.Client(llmclient.Config{}, CallJudge)
	if err != nil {
		t.Fatal(err)
	}
	ic, err := rp.Client(llmclient.Config{}, CallChecklist, CallIDJ)
	if err != nil {
		t.Fatal(err)
	}
	ac, err := rp.Client(llmclient.Config{}, "attack")
	if err != nil {
		t.Fatal(err)
	}
	if replayed := run(t, jc, ic, ac); replayed != live {
		t.Errorf("replayed %s; recorded %s", replayed, live)
	}
}

// run scores the witness with the judge and IDJ and asks one question
// outside the judges, and sums up what came back.
func run(t *testing.T, judge, idj, other *llmclient.Client) string {
	t.Helper()
	ctx := context.Background()
	j, err := NewJudge(judge).Score(ctx, witness(t))
	if err != nil {
		t.Fatal(err)
	}
	d, err := NewIDJ(idj).Score(ctx, witness(t))
	if err != nil {
		t.Fatal(err)
	}
	var answer string
	sha, n, err := other.Chat(ctx, "attack", "subject", "system", "user <&>", func(b []byte) error {
		answer = string(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprint(j.Score, j.Attempts, j.RequestSHA, d.Score, d.Scores, d.Attempts, d.Checklist.SHA, d.Checklist.Items, sha, n, answer)
}
