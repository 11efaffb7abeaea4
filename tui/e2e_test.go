package tui

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// tmuxSession is the built parthack running in a detached tmux session on
// a private server socket, read with capture-pane like a person reads it.
type tmuxSession struct {
	t      *testing.T
	socket string
	name   string
	size   [2]int // columns, rows; zero means 120×40
}

func (s *tmuxSession) tmux(args ...string) (string, error) {
	out, err := exec.Command("tmux", append([]string{"-L", s.socket}, args...)...).CombinedOutput()
	return string(out), err
}

func (s *tmuxSession) start(bin string, args ...string) {
	s.t.Helper()
	w, h := 120, 40
	if s.size != [2]int{} {
		w, h = s.size[0], s.size[1]
	}
	// The pane is a terminal: drop CI, which termenv reads as "no TTY"
	// and answers with no colour, and name a colour terminal so the
	// screen is the same on every machine.
	cmd := append([]string{"new-session", "-d", "-s", s.name, "-x", fmt.Sprint(w), "-y", fmt.Sprint(h),
		"env", "-u", "CI", "TERM=xterm-256color", bin}, args...)
	if out, err := s.tmux(cmd...); err != nil {
		s.t.Fatalf("tmux new-session: %v: %s", err, out)
	}
}

// keys sends tmux key names or literal text, one argument at a time, as
// fast as tmux takes them: the workbench acts on every key in order, on
// the page it was typed for, however late that page loads, so a test
// waits for what it needs to read, never for time to pass.
func (s *tmuxSession) keys(keys ...string) {
	s.t.Helper()
	for _, k := range keys {
		args := []string{"send-keys", "-t", s.name}
		if !regexp.MustCompile(`^(Enter|Tab|Escape|BSpace|C-[a-z]|Left|Right|Up|Down)$`).MatchString(k) {
			args = append(args, "-l")
		}
		if out, err := s.tmux(append(args, k)...); err != nil {
			s.t.Fatalf("tmux send-keys %q: %v: %s", k, err, out)
		}
	}
}

// typeAtOnce sends keys in one write: they reach the workbench together,
// before any page they open has loaded, as on a busy machine.
func (s *tmuxSession) typeAtOnce(keys ...string) {
	s.t.Helper()
	if out, err := s.tmux(append([]string{"send-keys", "-t", s.name}, keys...)...); err != nil {
		s.t.Fatalf("tmux send-keys: %v: %s", err, out)
	}
}

// quit ends the workbench with ctrl+c, answering its question when work
// is unsaved: each ctrl+c in turn cancels a prompt, asks, or quits.
func (s *tmuxSession) quit() {
	s.t.Helper()
	for range 4 {
		if _, err := s.tmux("send-keys", "-t", s.name, "C-c"); err != nil {
			break
		}
	}
	s.waitExit()
}

func (s *tmuxSession) screen() string {
	out, err := s.tmux("capture-pane", "-p", "-t", s.name)
	if err != nil {
		return ""
	}
	return out
}

// e2eBound bounds each wait for the screen or for the program's exit: a
// bound for a program that hangs, never a pace, as every wait returns as
// soon as what it waits for is there. On a two-core machine with other
// work beside the suite a screen has taken over ten seconds to come.
const e2eBound = 60 * time.Second

// waitFor polls the screen until every text is on it.
func (s *tmuxSession) waitFor(texts ...string) string {
	s.t.Helper()
	deadline := time.Now().Add(e2eBound)
	for {
		scr := s.screen()
		missing := ""
		for _, x := range texts {
			if !strings.Contains(scr, x) {
				missing = x
				break
			}
		}
		if missing == "" {
			return scr
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("the screen never showed %q:\n%s", missing, scr)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// waitGone polls the screen until no text is on it.
func (s *tmuxSession) waitGone(texts ...string) string {
	s.t.Helper()
	deadline := time.Now().Add(e2eBound)
	for {
		scr := s.screen()
		shown := ""
		for _, x := range texts {
			if strings.Contains(scr, x) {
				shown = x
				break
			}
		}
		if shown == "" {
			return scr
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("the screen still shows %q:\n%s", shown, scr)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// waitChange polls the screen until it is no longer before.
func (s *tmuxSession) waitChange(before string) string {
	s.t.Helper()
	deadline := time.Now().Add(e2eBound)
	for {
		if scr := s.screen(); scr != before {
			return scr
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("the screen never changed from:\n%s", before)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// waitExit waits for the program to end, which ends its session.
func (s *tmuxSession) waitExit() {
	s.t.Helper()
	deadline := time.Now().Add(e2eBound)
	for {
		if _, err := s.tmux("has-session", "-t", s.name); err != nil {
			return
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("parthack did not quit:\n%s", s.screen())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func rowOf(screen, text string) string {
	for _, l := range strings.Split(screen, "\n") {
		if strings.Contains(l, text) {
			return l
		}
	}
	return ""
}

// The binary is built once for every end-to-end test of a run: each
// test still gets a directory of its own for its store.
var (
	buildOnce          sync.Once
	builtBin, buildErr string
)

// buildBinary builds parthack (once per test process) and gives the test
// a fresh directory.
func buildBinary(t *testing.T) (bin, dir string) {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed: the end-to-end test needs it (CI installs it)")
	}
	if testing.Short() {
		t.Skip("end-to-end test skipped in -short mode")
	}
	buildOnce.Do(func() {
		tmp, err := os.MkdirTemp("", "parthack-e2e-")
		if err != nil {
			buildErr = err.Error()
			return
		}
		builtBin = filepath.Join(tmp, "parthack")
		build := exec.Command("go", "build", "-o", builtBin, ".")
		build.Dir = ".."
		if out, err := build.CombinedOutput(); err != nil {
			buildErr = fmt.Sprintf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != "" {
		t.Fatal(buildErr)
	}
	return builtBin, t.TempDir()
}

// TestMain removes the built binary after the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	if builtBin != "" {
		os.RemoveAll(filepath.Dir(builtBin))
	}
	os.Exit(code)
}

// TestEndToEnd80x24 walks the smallest supported terminal: keys that
// arrive in one read all count, a peak-and-undo witness is built with the
// one-line entry and "z" (append the inverse step), saved with Enter, and
// found again after a restart with its verdict and Δ in the Saved list;
// a terminal below 80×24 gets a note instead of a screen.
func TestEndToEnd80x24(t *testing.T) {
	bin, dir := buildBinary(t)
	db := filepath.Join(dir, "e2e.db")
	s := &tmuxSession{t: t, socket: fmt.Sprintf("parthack-e2e80-%d", os.Getpid()), name: "wb", size: [2]int{80, 24}}
	t.Cleanup(func() { s.tmux("kill-server") })

	s.start(bin, "--db", db, "workbench")
	s.waitFor("Tasks · ", "PH-D01")
	s.keys("/", devTask)
	s.waitFor("Tasks · 1 of")
	s.keys("Enter")
	s.waitFor(devTask+" · honest", "Initial snapshot")
	s.keys("t")
	s.waitFor(devTask + " · witness")
	s.keys("lll") // one read, three key presses
	s.waitFor("Event 3 of")
	// Wait for Browse before the next key: an esc and a key that reach
	// the terminal together read as alt+key.
	s.keys("Escape")
	s.waitFor("Tasks · 1 of", "Saved · ")
	s.keys("Enter")
	s.waitFor(devTask+" · honest", "Initial snapshot")

	s.keys("e")
	s.waitFor("Witness editor", "✓ eligible", "2 steps")
	// The one-line entry, typed whole and with tab completion.
	s.keys("$", ":", "update ticket T102 status=pending tags=vpn-outage", "Enter")
	s.waitFor("3 steps")
	s.keys(":", "upd", "Tab", "tic", "Tab", "T104 sta", "Tab", "pend", "Tab", "tags=vpn-outage", "Enter")
	s.waitFor("4 steps", "rejected: state_vector_mismatch")
	s.keys("z")
	s.waitFor("5 steps", "Pair (H, A) · live") // replayed: z needs the fresh candidate
	s.keys("k", "z")
	scr := s.waitFor("6 steps", "✓ eligible")
	if hist := rowOf(scr, "Historical Milestone"); !strings.Contains(hist, "▲") {
		t.Fatalf("Historical Milestone is not inflated:\n%s", scr)
	}
	s.keys("s", "C-u", "peak undo 80", "Enter")
	s.waitFor(`saved witness 1 "peak undo 80"`)
	s.keys("q")
	s.waitExit()

	s.start(bin, "--db", db)
	if row := rowOf(s.waitFor("Saved · 1", "peak undo 80", "+0.25"), "peak undo 80"); !strings.Contains(row, "✓") {
		t.Fatalf("the saved witness shows no verdict: %q", row)
	}
	if _, err := s.tmux("resize-window", "-t", s.name, "-x", "60", "-y", "18"); err != nil {
		t.Fatalf("tmux resize-window: %v", err)
	}
	s.waitFor("terminal too small (need 80×24)")
	s.keys("q")
	s.waitExit()
}

// TestEndToEnd runs the real binary in tmux at 120×40: open a task, step
// to a later event, open the witness editor, add steps until the pair is
// eligible again with a higher Historical Milestone and the same CSPS,
// save, quit, reopen and find the witness; then run the search attacker
// and open its best candidate.
func TestEndToEnd(t *testing.T) {
	bin, dir := buildBinary(t)
	db := filepath.Join(dir, "e2e.db")
	s := &tmuxSession{t: t, socket: fmt.Sprintf("parthack-e2e-%d", os.Getpid()), name: "wb"}
	t.Cleanup(func() { s.tmux("kill-server") })

	s.start(bin, "--db", db, "workbench")
	s.waitFor("Tasks · ", "PH-D01")
	s.keys("/", devTask)
	s.waitFor("Tasks · 1 of")
	s.keys("Enter")
	s.waitFor(devTask+" · honest", "Initial snapshot")
	s.keys("l", "l")
	s.waitFor("Event 2 of 2", "Typed diff")

	s.keys("e")
	scr := s.waitFor("Witness editor", "✓ eligible", "2 steps")
	hist0, csps0 := rowOf(scr, "Historical Milestone"), rowOf(scr, "CSPS")
	if !strings.Contains(hist0, "+0.00") || !strings.Contains(csps0, "+0.00") {
		t.Fatalf("H against itself is not Δ 0:\n%s", scr)
	}
	// The step form (the 80×24 walk uses the one-line entry).
	add := func(id, status, tags string) {
		s.keys("a", "Tab", "Tab", "C-u", id, "Tab", status, "Tab", "Tab", "Tab", "Tab", tags, "Enter")
	}
	s.keys("$")
	add("T102", "pending", "vpn-outage")
	s.waitFor("3 steps")
	add("T104", "pending", "vpn-outage")
	s.waitFor("4 steps", "rejected: state_vector_mismatch")
	add("T102", "new", "[]")
	scr = s.waitFor("5 steps", "✓ eligible")
	hist, csps := rowOf(scr, "Historical Milestone"), rowOf(scr, "CSPS")
	if !strings.Contains(hist, "0.50  0.75  +0.25") || !strings.Contains(hist, "inflated") {
		t.Fatalf("Historical Milestone did not rise: %q\n%s", hist, scr)
	}
	if !strings.Contains(csps, "+0.00") || strings.Contains(csps, "inflated") {
		t.Fatalf("CSPS moved: %q", csps)
	}

	s.keys("s", "C-u", "e2e witness", "Tab", "peak then undo", "Enter")
	s.waitFor(`saved witness 1 "e2e witness"`)
	s.keys("q")
	s.waitExit()

	s.start(bin, "--db", db)
	s.waitFor("Saved · 1", "e2e witness")
	s.keys("Tab")
	s.waitFor("peak then undo", "5 agent steps")
	s.keys("Enter")
	// Browse's Saved list also says "✓ eligible +0.25": wait on the
	// editor's own row, which a screen caught mid-redraw does not hold.
	scr = s.waitFor("e2e witness · 5 steps", "0.50  0.75  +0.25")
	if !strings.Contains(rowOf(scr, "Historical Milestone"), "+0.25") {
		t.Fatalf("the reopened witness scores differently:\n%s", scr)
	}

	// The search attacker, in the background: within 2 edits of H it
	// certifies that no eligible witness inflates Historical Milestone
	// (the one above needs 3), and its best candidate opens in Compare.
	s.keys("S")
	s.waitFor("Search attacker · "+devTask, "‹ Historical Milestone ›", "‹ 2 ›")
	s.keys("Enter")
	s.waitFor("Search attacker · "+devTask+" · done", "Historical Milestone not inflated over one-field updates within 2 edits: Δhack +0.000", "exhausted after")
	s.keys("Enter")
	s.waitFor("A · search witness", "✓ eligible")
	// The search's witness is not saved: q asks first.
	s.keys("q")
	s.waitFor("q again quits anyway")
	s.keys("q")
	s.waitExit()
}

// TestEndToEndTauDomain drives the real binary on tau-bench's airline
// runs: import a tau-bench run file, open the workbench on the domain,
// step to a call of a real GPT-4o run and read the conversation beside
// it, then open the imported run from the saved list.
func TestEndToEndTauDomain(t *testing.T) {
	bin, dir := buildBinary(t)
	db := filepath.Join(dir, "e2e.db")
	runs := filepath.Join(dir, "gpt-4o-airline.json")
	for _, args := range [][]string{{"domain", "export", "--domain", "tau-airline", runs}, {"--db", db, "import", "tau-bench", runs}} {
		if out, err := exec.Command(bin, args...).CombinedOutput(); err != nil {
			t.Fatalf("parthack %v: %v\n%s", args, err, out)
		}
	}
	s := &tmuxSession{t: t, socket: fmt.Sprintf("parthack-e2etau-%d", os.Getpid()), name: "wb", size: [2]int{140, 45}}
	t.Cleanup(func() { s.tmux("kill-server") })

	s.start(bin, "--db", db, "workbench", "--domain", "tau-airline")
	s.waitFor("Tasks · 50 of 50", "TAU-A00", "Saved · 200")
	s.keys("/", "TAU-A04")
	s.waitFor("Tasks · 1 of")
	s.keys("Enter")
	s.waitFor("TAU-A04 · trial0 · 6 events", "Initial snapshot")
	s.keys("$")
	s.waitFor("Event 6 of 6", "Conversation · call 6, the last", "transfer_to_human_agents", "Transfer successful")
	s.keys("Escape")
	s.waitFor("Tasks · 1 of", "Saved · ")
	s.keys("Tab")
	s.keys("/", "gpt-4o-airline-t04-trial3")
	s.waitFor("gpt-4o-airline-t04-trial3")
	s.keys("Enter")
	s.waitFor("Witness editor", "9 steps")
	s.keys("C-c")
	s.waitExit()
}
