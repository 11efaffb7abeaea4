package tui

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// screenStyled is the screen with its colour escapes.
func (s *tmuxSession) screenStyled() string {
	out, err := s.tmux("capture-pane", "-e", "-p", "-t", s.name)
	if err != nil {
		return ""
	}
	return out
}

// styleBefore is the escape sequence that styles the first occurrence of
// word on the row that holds marker: the run of escapes right before it.
func styleBefore(styled, marker, word string) string {
	for _, row := range strings.Split(styled, "\n") {
		plain := stripEscapes(row)
		if !strings.Contains(plain, marker) {
			continue
		}
		at := strings.Index(row, word)
		if at < 0 {
			return ""
		}
		start := at
		for start > 0 && (row[start-1] == 'm' || row[start-1] == ';' || row[start-1] == '[' || row[start-1] == '\x1b' || row[start-1] >= '0' && row[start-1] <= '9') {
			start--
		}
		return row[start:at]
	}
	return ""
}

func stripEscapes(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\x1b' {
			for i < len(s) && s[i] != 'm' {
				i++
			}
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// TestEndToEndDemoFrontierRun80x24: the demo's fourth walkthrough plays
// on a terminal of 80×24: the real run and its conversation, the witness,
// the verdict with H's state, and the scores.
func TestEndToEndDemoFrontierRun80x24(t *testing.T) {
	bin, dir := buildBinary(t)
	s := newSession(t, "e2efrontier", 80, 24)
	s.start(bin, "--db", filepath.Join(dir, "e2e.db"), "demo")
	s.waitFor("[1/")
	// One scene at a time, each waited for: the first of walkthrough 4
	// is the one to stop on.
	for k := 1; !strings.Contains(s.screen(), "4 · a frontier model's run"); k++ {
		if k > 40 {
			t.Fatalf("walkthrough 4 never came:\n%s", s.screen())
		}
		s.keys(" ")
		s.waitFor(fmt.Sprintf("[%d/", k+1))
	}
	s.waitFor("A real run: gpt-4.1 on tau2-bench retail", "Conversation")
	s.keys(" ")
	s.waitFor("H ends with certified progress", "partial ACTION")
	s.keys(" ")
	s.waitFor("The search attacker", "finds A", "T2R-101 · witness")
	s.keys(" ")
	s.waitFor("The certifier admits (H, A)", "✓ eligible", "= ends in exactly H's state")
	s.keys(" ")
	s.waitFor("partial ACTION rises", "tau2 · reward", "▲", "Historical Milestone")
	s.keys("q")
	s.waitExit()
}

// TestEndToEndTelecomActors80x24: on tau2 telecom the log names each
// step's actor in its column and the user's in a colour of their own;
// the editor shows H's user steps as the user's and refuses to delete
// one, saying why.
func TestEndToEndTelecomActors80x24(t *testing.T) {
	bin, dir := buildBinary(t)
	s := newSession(t, "e2etelecom", 80, 24)
	s.start(bin, "--db", filepath.Join(dir, "e2e.db"), "workbench", "--domain", "tau2-telecom")
	s.waitFor("Tasks · 100 of 100", "runs' models", "gpt-4.1")
	s.keys("Enter")
	s.waitFor("agent get_customer_by_p", "user  run_speed_test")
	styled := s.screenStyled()
	user, agent := styleBefore(styled, "user  run_speed_test", "user"), styleBefore(styled, "agent get_customer_by_p", "agent")
	if user == "" || user == agent {
		t.Fatalf("the user's steps are not in a colour of their own: user %q, agent %q\n%s", user, agent, styled)
	}
	s.keys("e")
	s.waitFor("Witness editor", "user: run_speed_test", "✓ eligible")
	s.keys("j", "j", "j", "d")
	s.waitFor("refused: step 4 is the user's", "a witness authors")
	s.keys("Escape", "Escape")
	s.keys("q")
	s.waitExit()
}
