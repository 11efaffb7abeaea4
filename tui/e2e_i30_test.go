package tui

import (
	"fmt"
	"path/filepath"
	"testing"
)

// TestEndToEndIssue30At80x24 walks, in tmux at 80×24, each item of the
// workbench's issue 30.
func TestEndToEndIssue30At80x24(t *testing.T) {
	bin, _ := buildBinary(t)
	for i, tc := range []struct {
		name   string
		domain string
		walk   func(t *testing.T, s *tmuxSession, dir string)
	}{
		{"typed-ahead keys act on the page they open: enter e :", "tau-airline", func(t *testing.T, s *tmuxSession, dir string) {
			s.waitFor("Tasks · 50 of 50")
			s.keys("/", "TAU-A02")
			s.waitFor("Tasks · 1 of")
			s.typeAtOnce("Enter", "e", ":")
			s.waitFor("Witness editor", "New call", "book_reservation user_id=omar_")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			s := newSession(t, fmt.Sprintf("e2e30-%d", i), 80, 24)
			args := []string{"--db", filepath.Join(dir, "e2e.db"), "workbench"}
			if tc.domain != "" {
				args = append(args, "--domain", tc.domain)
			}
			s.start(bin, args...)
			tc.walk(t, s, dir)
			s.quit()
		})
	}
}
