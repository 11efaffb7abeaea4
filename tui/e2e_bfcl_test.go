package tui

import (
	"os"
	"path/filepath"
	"testing"
)

// sharedBFCLRuns is the staged BFCL runs folder: $BFCL_DIR/runs, or
// shared/realworld/bfcl/runs in the nearest folder above the package;
// the test is skipped with a note when there is none (BFCL's run files
// carry no licence: they are test data read from ../shared, not shipped).
func sharedBFCLRuns(t *testing.T) string {
	t.Helper()
	if d := os.Getenv("BFCL_DIR"); d != "" {
		return filepath.Join(d, "runs")
	}
	dir, _ := filepath.Abs(".")
	for {
		cand := filepath.Join(dir, "shared", "realworld", "bfcl", "runs")
		if st, err := os.Stat(cand); err == nil && st.IsDir() {
			return cand
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skip("no shared/realworld/bfcl/runs above this package and BFCL_DIR unset: BFCL's runs are test data read from ../shared, not shipped")
		}
		dir = parent
	}
}

// TestEndToEndBFCLRuns80x24 drives the real binary on a real BFCL result
// file given with --runs, at 80×24: gpt-oss-120b's run of
// multi_turn_base_1 opens as H; at turn 1's first call the conversation
// holds the user's turn-1 message and the call's result from the
// replay; b shows BFCL's verdict and its checks' scores.
func TestEndToEndBFCLRuns80x24(t *testing.T) {
	file := filepath.Join(sharedBFCLRuns(t), "gpt-oss-120b-2025-11-12-main-multi_turn_base_result.json.gz")
	bin, dir := buildBinary(t)
	s := newSession(t, "e2ebfcl", 80, 24)
	s.start(bin, "--db", filepath.Join(dir, "e2e.db"), "workbench", "--domain", "bfcl-multi-turn", "--runs", file)
	s.waitFor("Tasks · 200 of 200", "runs' models", "gpt-oss-120b")
	s.keys("/", "multi_turn_base_1", "Enter")
	s.waitFor("gpt-oss-", "(H) · BFCL valid 0", "Initial snapshot", "user  turn 1: Go to")
	s.keys("l", "l", "l", "l", "l")
	s.waitFor("Event 5 of 11", "Conversation · turn 1, call 1 of the turn",
		"user   Go to workspace directory", "agent  cd {\"folder\":\"workspace\"}", `call   {"current_working_directory":`)
	s.keys("b")
	s.waitFor("BFCL's checks", "multi_turn:execution_response_mismatch at turn 2",
		"state check          1     BFCL's own", "response check       .83", "turn credit          .75")
	s.keys("Escape")
	s.waitGone("BFCL's checks")
	s.keys("q")
	s.waitExit()
}
