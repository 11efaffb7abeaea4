package worker

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// TestSession: one process answers every input of a session, each with
// its own answer, and stdio is the session's pipes.
func TestSession(t *testing.T) {
	s, err := Start(context.Background(), config(t, "session"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	pid := ""
	for k, in := range []string{`{"task":1}`, `{"task":2}`, `{"task":3}`} {
		res, err := s.Score([]byte(in))
		if err != nil {
			t.Fatalf("input %d: %v", k+1, err)
		}
		p, sum, _ := strings.Cut(res.Rationale, " ")
		if want := fmt.Sprintf("sha256=%x", sha256.Sum256([]byte(in))); res.Score != .25 || sum != want {
			t.Errorf("input %d: %+v, want score .25 and %s", k+1, res, want)
		}
		if pid != "" && p != pid {
			t.Errorf("input %d answered by %s, the first by %s: not one process", k+1, p, pid)
		}
		pid = p
	}
	if _, err := s.Score([]byte("{\n}")); err == nil {
		t.Error("an input of two lines is sent")
	}
}

// TestSessionBadAnswers: a crash, a line that is not the answer, a score
// outside [0, 1], a missing line and a timeout each fail the input that
// met them and say so; the next input is answered by the program started
// afresh, in a fresh working directory, the old one removed.
func TestSessionBadAnswers(t *testing.T) {
	for _, c := range []struct {
		act  string
		want string
	}{
		{"crash", "gave no answer to input 2: it ended: exit status 3"},
		{"not json", "answer to input 2: the answer is not a JSON object"},
		{`{"score":1.5}`, "answer to input 2: score 1.5 is not in [0, 1]"},
		{`{"score":0.5,"verdict":"pass"}`, `answer to input 2: unknown key "verdict"`},
		{"quit", "gave no answer to input 2: it exited with status 0"},
		{"sleep", "gave no answer to input 2 within 500ms; its process group was killed"},
	} {
		t.Run(c.act, func(t *testing.T) {
			cfg := config(t, "session", "echo", c.act)
			cfg.Timeout = 500 * time.Millisecond
			s, err := Start(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			first, err := s.Score([]byte(`{"n":1}`))
			if err != nil {
				t.Fatalf("input 1: %v", err)
			}
			dir := s.p.dir
			_, err = s.Score([]byte(`{"n":2}`))
			var se *ScorerError
			if !errors.As(err, &se) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("input 2: %v, want a scorer error saying %q", err, c.want)
			}
			if c.act == "crash" && !strings.Contains(se.Stderr, "crashing") {
				t.Errorf("the error quotes stderr %q, want its tail", se.Stderr)
			}
			if _, err := os.Stat(dir); !os.IsNotExist(err) {
				t.Errorf("the failed process's working directory %s left behind: %v", dir, err)
			}
			// The fresh process is the program from its first line: its
			// first act (echo) answers input 3.
			third, err := s.Score([]byte(`{"n":3}`))
			if err != nil {
				t.Fatalf("input 3 after the failure: %v", err)
			}
			pid1, _, _ := strings.Cut(first.Rationale, " ")
			pid3, sum, _ := strings.Cut(third.Rationale, " ")
			if want := fmt.Sprintf("sha256=%x", sha256.Sum256([]byte(`{"n":3}`))); third.Score != .25 || sum != want || pid3 == pid1 || s.p.dir == dir {
				t.Errorf("input 3: %+v by %s in %s, input 1 by %s in %s: want echo's answer from a fresh process and directory", third, pid3, s.p.dir, pid1, dir)
			}
		})
	}
}

// TestSessionCancelAndClose: cancelling the context kills the program,
// removes its working directory and starts it no more; Close ends a
// running one and removes its working directory.
func TestSessionCancelAndClose(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cfg := config(t, "session", "sleep")
	cfg.Timeout = time.Hour
	s, err := Start(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	dir := s.p.dir
	done := make(chan error, 1)
	go func() { _, err := s.Score([]byte(`{}`)); done <- err }()
	cancel()
	if err := <-done; err == nil {
		t.Error("a cancelled session answered")
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("working directory %s left behind: %v", dir, err)
	}
	if _, err := s.Score([]byte(`{}`)); !errors.Is(err, context.Canceled) || s.p != nil {
		t.Errorf("an input after the cancel: %v, process %v; want the context's error and none started", err, s.p)
	}

	s, err = Start(context.Background(), config(t, "session"))
	if err != nil {
		t.Fatal(err)
	}
	dir = s.p.dir
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("working directory %s left behind: %v", dir, err)
	}
	if _, err := s.Score([]byte(`{}`)); err == nil {
		t.Error("a closed session answered")
	}
}
