package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// newSession starts a tmux session on its own server at w × h.
func newSession(t *testing.T, name string, w, h int) *tmuxSession {
	s := &tmuxSession{t: t, socket: fmt.Sprintf("parthack-%s-%d", name, os.Getpid()), name: "wb", size: [2]int{w, h}}
	t.Cleanup(func() { s.tmux("kill-server") })
	return s
}

// TestEndToEndNeverLosesWork80x24: ctrl+c in the `:` line cancels the
// line, not the program; at top level it asks like q; `?` lists every
// key of the editor; q asks, and only a second q quits.
func TestEndToEndNeverLosesWork80x24(t *testing.T) {
	bin, dir := buildBinary(t)
	s := newSession(t, "e2elost", 80, 24)
	s.start(bin, "--db", filepath.Join(dir, "e2e.db"), "workbench")
	s.waitFor("Tasks · ", "PH-D01")
	s.keys("/", devTask, "Enter")
	s.waitFor(devTask+" · honest", "Initial snapshot")
	s.keys("e")
	s.waitFor("Witness editor", "✓ eligible", "2 steps")
	s.keys("$", "d")
	s.waitFor("1 steps · modified")
	s.keys(":", "update lap")
	s.waitFor("New step 2")
	s.keys("C-c")
	s.waitFor("1 steps · modified", "? all keys")
	s.keys("C-c")
	s.waitFor("ctrl+c again quits anyway")
	s.keys("Escape")
	s.keys("?")
	s.waitFor("Keys · Witness editor", "export JSON", "move step up", "certify as rollback", "the task in full")
	s.keys("Escape")
	s.waitFor("1 steps · modified")
	s.keys("q")
	s.waitFor("q again quits anyway")
	s.keys("q")
	s.waitExit()
}

// TestEndToEndEpisodeRule80x24: on tau-bench airline the editor marks
// the transfer that ends TAU-A04's episode and refuses a step after it,
// saying why; an import with a call after the transfer is refused with
// its file and line, the message whole at 80 columns until esc.
func TestEndToEndEpisodeRule80x24(t *testing.T) {
	bin, dir := buildBinary(t)
	file := writeAfterTransfer(t)
	s := newSession(t, "e2eepisode", 80, 24)
	s.start(bin, "--db", filepath.Join(dir, "e2e.db"), "workbench", "--domain", "tau-airline")
	s.waitFor("Tasks · 50 of 50")
	s.keys("/", "TAU-A04", "Enter")
	s.waitFor("TAU-A04 · trial0")
	s.keys("e")
	s.waitFor("Witness editor", "6 steps")
	s.keys("$")
	s.waitFor(episodeMark+" transfer_to", "the episode ends here")
	s.keys("a")
	s.waitFor("refused: step 6, a call of", "ends the episode", "6 steps")
	s.keys("Escape")
	s.keys("Escape")
	s.waitFor("TAU-A04 · trial0")
	s.keys("Escape")
	s.waitFor("Tasks · 1 of")
	s.keys("C-o")
	s.keys(file, "Enter")
	scr := s.waitFor("import: after-transfer.json:", "step 7 (call of get_user_details)", "transfer_to_human_agents")
	s.keys("j")
	if after := s.screen(); rowOf(after, "import: after-transfer.json:") == "" {
		t.Fatalf("the import error vanished on the next key:\n%s\nbefore:\n%s", after, scr)
	}
	s.keys("q")
	s.waitExit()
}

// TestEndToEndSearchNamesItsBound80x24: the search offers the move set
// and the state cap, names the move set in its result, and a cancelled
// search keeps the best it found.
func TestEndToEndSearchNamesItsBound80x24(t *testing.T) {
	bin, dir := buildBinary(t)
	s := newSession(t, "e2esearch", 80, 24)
	s.start(bin, "--db", filepath.Join(dir, "e2e.db"), "workbench")
	s.waitFor("Tasks · ")
	s.keys("/", devTask, "Enter")
	s.waitFor(devTask+" · honest", "Initial snapshot")
	s.keys("S")
	s.waitFor("‹ one-field updates ›", "‹ 1000000 ›")
	s.keys("Enter")
	s.waitFor("not inflated over one-field updates within 2 edits")
	// Its witness is not saved: esc asks, esc dismisses, esc goes back.
	s.keys("Escape")
	s.waitFor("esc again dismisses it")
	s.keys("Escape", "Escape")
	s.waitFor("Tasks · 1 of")
	s.keys("/", "C-u", "PH-H04", "Enter")
	s.waitFor("PH-H04 · honest")
	s.keys("S", "Tab", "Right", "Right", "Enter")
	s.waitFor("searching")
	s.keys("Escape")
	s.waitFor("Search attacker · PH-H04 · done", "inflated over one-field updates within 4 edits", "cancelled after", "the best so far over one-field")
	s.keys("Escape", "Escape", "q")
	s.waitExit()
}

// TestEndToEndBrowseFilter80x24: `/` starts the filter, q is its first
// letter, esc clears it, and q then quits.
func TestEndToEndBrowseFilter80x24(t *testing.T) {
	bin, dir := buildBinary(t)
	s := newSession(t, "e2efilter", 80, 24)
	s.start(bin, "--db", filepath.Join(dir, "e2e.db"), "workbench")
	s.waitFor("Tasks · ", "PH-D01")
	s.keys("/", "qqq")
	s.waitFor("no task matches", "filter qqq")
	s.keys("Escape")
	s.waitFor("PH-D01")
	s.keys("q")
	s.waitExit()
}

// TestEndToEndReadable80x24: on tau-bench airline at 80×24, Browse says
// where the task is whole and I shows it, with tau-bench's reward; the
// Inspector's header names the run's reward, ? lists every key, the
// opening turns show at the initial snapshot, and a lone match is 1/1.
func TestEndToEndReadable80x24(t *testing.T) {
	bin, dir := buildBinary(t)
	s := newSession(t, "e2eread", 80, 24)
	s.start(bin, "--db", filepath.Join(dir, "e2e.db"), "workbench", "--domain", "tau-airline")
	s.waitFor("Tasks · 50 of 50")
	s.keys("/", "TAU-A04", "Tab", "Tab")
	s.waitFor("… I shows the task in full", "tau-bench reward: trial0 0")
	s.keys("I")
	s.waitFor("Task TAU-A04", "Predicates · goal", "Instruction")
	s.keys("Escape", "Enter")
	s.waitFor("TAU-A04 · trial0 (H) · tau-bench reward 0", "Conversation · before the first call")
	s.keys("?")
	s.waitFor("Keys · Inspector", "next trajectory of the task", "whole state", "note on this event", "compare H vs R", "witness editor", "search attacker", "quit")
	s.keys("Escape", "/", "initial snapshot", "Enter")
	s.waitFor("match 1/1")
	s.keys("q")
	s.waitExit()
}

// TestEndToEndKeysWhileLoading80x24: t t typed as PH-H05 opens lands two
// trajectories on, on the attribution control, however fast it is typed.
func TestEndToEndKeysWhileLoading80x24(t *testing.T) {
	bin, dir := buildBinary(t)
	s := newSession(t, "e2eearly", 80, 24)
	s.start(bin, "--db", filepath.Join(dir, "e2e.db"), "workbench")
	s.waitFor("Tasks · ")
	s.keys("/", "PH-H05")
	s.waitFor("Tasks · 1 of")
	// Enter and both t's in one write: they reach the workbench before
	// the honest run's analysis does.
	if out, err := s.tmux("send-keys", "-t", s.name, "Enter", "t", "t"); err != nil {
		t.Fatalf("tmux send-keys: %v: %s", err, out)
	}
	s.waitFor("PH-H05 · attribution control")
	s.keys("q")
	s.waitExit()
}

// TestEndToEndTwoWorkbenchesOneStore80x24: one workbench deletes (after
// asking) a witness the other is editing; the other's save says so and
// saves it as a new witness, ctrl+l reloads the first one's list, and
// export names its full path.
func TestEndToEndTwoWorkbenchesOneStore80x24(t *testing.T) {
	bin, dir := buildBinary(t)
	db := filepath.Join(dir, "e2e.db")
	a := newSession(t, "e2etwo", 80, 24)
	b := &tmuxSession{t: t, socket: a.socket, name: "wb2", size: [2]int{80, 24}}
	a.start(bin, "--db", db, "workbench")
	a.waitFor("Tasks · ")
	a.keys("/", devTask, "Enter")
	a.waitFor(devTask + " · honest")
	a.keys("e")
	a.waitFor("Witness editor", "✓ eligible")
	a.keys("s", "C-u", "shared", "Enter")
	a.waitFor(`saved witness 1 "shared"`)

	b.start(bin, "--db", db, "workbench")
	b.waitFor("Saved · 1", "shared")
	b.keys("Tab", "C-d")
	b.waitFor(`delete witness 1 "shared"? del again deletes it`)
	b.keys("C-d")
	b.waitFor("Saved · 0")

	a.keys("d", "s", "Enter")
	a.waitFor("was deleted from the store", "s saves it as a new one")
	a.keys("Escape", "s", "Enter")
	a.waitFor(`saved witness 2 "shared"`)
	a.keys("E")
	a.waitFor("Export witness JSON")
	// The prompt offers a full path; the test writes into its own
	// directory.
	a.keys("C-u", filepath.Join(dir, "out.json"), "Enter")
	a.waitFor("exported to", "out.json")

	b.keys("C-l")
	b.waitFor("Saved · 1")
	b.keys("q")
	b.waitExit()
}

// TestEndToEndHandCraftsACall80x24: on TAU-A04 a tool call is typed in
// the `:` line with completion (tool, argument, value), added before the
// transfer, replayed and certified; Compare shows the cell it leaves
// apart from H; z on it inserts the call that restores the passengers,
// and the witness is eligible and ends in exactly H's state.
func TestEndToEndHandCraftsACall80x24(t *testing.T) {
	bin, dir := buildBinary(t)
	s := newSession(t, "e2ecall", 80, 24)
	s.start(bin, "--db", filepath.Join(dir, "e2e.db"), "workbench", "--domain", "tau-airline")
	s.waitFor("Tasks · 50 of 50")
	s.keys("/", "TAU-A04", "Enter")
	s.waitFor("TAU-A04 · trial0")
	s.keys("e")
	s.waitFor("Witness editor", "6 steps", "✓ eligible")
	s.keys("$", "k", ":")
	s.waitFor("New call 6")
	s.keys("update_reservation_p", "Tab")
	s.waitFor("reservation_id (string)", "passengers (array)")
	s.keys("r", "Tab", "FQ", "Tab", "pas", "Tab", "Tab", "Tab")
	s.waitFor(`"last_name":"Rossi"}]`)
	s.keys("Enter")
	s.waitFor("7 steps · modified", "6 ✓ update_reservation_passenger", "✗ rejected: state_vector_mismatch")
	// Compare says where the candidate ends apart from H, x lists it.
	s.keys("c")
	s.waitFor("Pair (H, A) · TAU-A04", "≠ does not end in H's state: 1 cell differs · x lists them")
	s.keys("x")
	s.waitFor("Collateral · TAU-A04", "reservation FQ8APE · passengers", "read by goal predicate 3", `"last_name":"Garcia"`)
	s.keys("Escape", "Escape")
	s.waitFor("7 steps · modified")
	s.keys("z")
	s.waitFor("step 7, a call of update_reservation_passengers, undoes step 6", "8 steps", "✓ eligible", "+0.20")
	s.keys("c")
	s.waitFor("✓ eligible", "= ends in exactly H's state")
	s.keys("Escape")
	s.waitFor("8 steps · modified")
	s.keys("q")
	s.waitFor("q again quits anyway")
	s.keys("q")
	s.waitExit()
}
