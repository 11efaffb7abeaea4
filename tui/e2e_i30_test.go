package tui

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/store"
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
		{"the run on screen is H for S, e and c; H marks a run H", "tau2-airline", func(t *testing.T, s *tmuxSession, dir string) {
			s.waitFor("Tasks · ")
			s.keys("/", "T2A-2", "Enter")
			s.waitFor("T2A-2 · claude-son…-4-5-trial0 (H)")
			s.keys("t", "t")
			s.waitFor("T2A-2 · gpt-4.1-trial0 (H)")
			s.keys("S")
			s.waitFor("Search attacker · T2A-2 · H gpt-4.1-trial0")
			s.keys("Escape", "e")
			s.waitFor("Witness editor › T2A-2 · H gpt-4.1-trial0", "✓ eligible")
			s.keys("c")
			s.waitFor("Compare › T2A-2 · H gpt-4.1-trial0", "H · gpt-4.1-trial0")
			s.keys("Escape", "Escape", "H")
			s.waitFor("H is gpt-4.1-trial0")
			s.keys("t")
			s.waitFor("reward 1 · vs H gpt-4.1-trial0")
			s.keys("c")
			s.waitFor("H · gpt-4.1-trial0", "A · gpt-4o-2024-11-20-trial0")
		}},
		{"a task with no goal opens its runs; c, e and S say why not", "tau2-airline", func(t *testing.T, s *tmuxSession, dir string) {
			s.waitFor("Tasks · ")
			s.keys("/", "T2A-0", "Enter")
			s.waitFor("T2A-0 · gpt-4.1-mi", "tau2-bench reward 0", "No goal predicate",
				"tau2-bench at termination: reward 0 · DB 0", "8 ✓ agent update_reservation", "Conversation · before the first call")
			s.keys("c")
			s.waitFor("no pair to compare: task T2A-0 has no goal predicate")
			s.keys("Escape", "e")
			s.waitFor("no witness to craft: task T2A-0 has no goal predicate")
			s.keys("Escape", "S")
			s.waitFor("no search: task T2A-0 has no goal predicate")
		}},
		{"b shows the benchmark's checks: gold actions, the reward basis", "tau2-airline", func(t *testing.T, s *tmuxSession, dir string) {
			s.waitFor("Tasks · ")
			s.keys("/", "T2A-2", "Enter")
			s.waitFor("T2A-2 · claude-son")
			s.keys("t", "t", "?")
			s.waitFor("Keys · Inspector", "gold actions")
			s.keys("Escape", "b")
			s.waitFor("tau2-bench's checks · T2A-2 · gpt-4.1-trial0", "reward 0 = DB 0 × COMMUNICATE 1", "Gold actions · 3 of 4 matched",
				"4 ✗ send_certificate", "wrong arguments: the call at event 5 has amount 100 (gold 50)")
			s.keys("Escape", "H", "t", "c")
			s.waitFor("A · gpt-4o-2024-11-20-trial0")
			s.keys("b")
			s.waitFor("tau2-bench's checks · T2A-2", "H · gpt-4.1-trial0")
		}},
		{"work is never lost: q then ctrl+c, esc on the search's result, both unsaved", "", func(t *testing.T, s *tmuxSession, dir string) {
			s.waitFor("Tasks · ")
			s.keys("/", "PH-H08", "Enter")
			s.waitFor("PH-H08 · honest (H)")
			s.keys("e", "$", "d")
			s.waitFor("2 steps · modified")
			s.keys("q", "C-c")
			s.waitFor("ctrl+c again quits anyway")
			s.keys("j", "C-c", "q")
			s.waitFor("q again quits anyway")
			s.keys("j", "S", "Tab", "Tab", "Right", "Enter")
			s.waitFor("Search attacker · PH-H08 · done", "inflated over one- and two-field updates")
			s.keys("Escape")
			s.waitFor("esc again dismisses it", "Search attacker · PH-H08 · done")
			s.keys("q")
			s.waitFor("the witness in the editor and the search attacker's witness are not saved: q", "again quits anyway and drops them all")
		}},
		{"telecom: Browse's ids and the header's run at 80 columns", "tau2-telecom", func(t *testing.T, s *tmuxSession, dir string) {
			s.waitFor("Tasks · 100 of 100", "T2T-[mob…ONA:Easy]", "T2T-[mob…ONA:None]", "T2T-[mob…ONA:Hard]")
			s.keys("Enter")
			s.waitFor("Inspector › T2T-[mo…", "gpt-4.1-trial0 (H) · ")
		}},
		{"ctrl+z suspends, u undoes; the export's name is a file name", "tau2-telecom", func(t *testing.T, s *tmuxSession, dir string) {
			s.waitFor("Tasks · 100 of 100")
			s.keys("Enter")
			s.waitFor("gpt-4.1-trial0 (H)")
			s.keys("e")
			s.waitFor("Witness editor", "✓ eligible")
			s.keys("?")
			s.waitFor("Keys · Witness editor", "ctrl+z", "suspend (fg resumes)")
			s.keys("Escape", "E")
			s.waitFor("Export witness JSON", "T2T-mobile_data_issue-data_saver_mode_on-user")
		}},
		{"the search form offers --same-end, and --pairs only where it applies", "tau2-airline", func(t *testing.T, s *tmuxSession, dir string) {
			s.waitFor("Tasks · ")
			s.keys("/", "T2A-2", "Enter")
			s.waitFor("T2A-2 · claude-son")
			s.keys("S")
			s.waitFor("moves   the task's tool calls", "end     ‹ only those ending in H's state ›")
			s.keys("Enter")
			s.waitFor("Search attacker · T2A-2 · done", "within 2 edits ending in H's state")
		}},
		{"Compare, enter, esc, esc comes back to the run you came from", "", func(t *testing.T, s *tmuxSession, dir string) {
			s.waitFor("Tasks · ")
			s.keys("/", "PH-H01", "Enter")
			s.waitFor("PH-H01 · honest (H)", "Progress over time · value at cursor → final · +3 more on a taller screen")
			s.keys("S", "Enter")
			s.waitFor("Search attacker · PH-H01 · done")
			s.keys("Enter")
			s.waitFor("Pair (H, A) · PH-H01 · search witness")
			s.keys("Enter")
			s.waitFor("PH-H01 · search witness · vs H honest")
			s.keys("Escape")
			s.waitFor("Pair (H, A) · PH-H01 · search witness")
			s.keys("Escape")
			s.waitFor("esc again drops it")
			s.keys("Escape")
			s.waitFor("PH-H01 · honest (H)")
		}},
		{"a note shows at its event", "", func(t *testing.T, s *tmuxSession, dir string) {
			s.waitFor("Tasks · ")
			s.keys("/", "PH-H05", "Enter")
			s.waitFor("PH-H05 · honest (H)")
			s.keys("l", "l", "a")
			s.waitFor("Note on PH-H05")
			s.keys("the user steps in here", "Enter")
			s.waitFor("saved note 1", "✎ note 1", "the user steps in here")
			s.keys("l")
			s.waitFor("✎2 ✓ user")
			s.waitGone("the user steps in here")
		}},
		{"Compare's s asks the run's name, and saves it once", "", func(t *testing.T, s *tmuxSession, dir string) {
			s.waitFor("Tasks · ")
			s.keys("/", "PH-H01", "Enter")
			s.waitFor("PH-H01 · honest (H)")
			s.keys("S", "Enter")
			s.waitFor("Search attacker · PH-H01 · done")
			s.keys("Enter")
			s.waitFor("Pair (H, A) · PH-H01 · search witness")
			s.keys("s")
			s.waitFor("Save as a run", "pair H honest vs search witness")
			s.keys("C-u", "first try", "Enter")
			s.waitFor(`saved run 1 "first try"`)
			s.keys("s")
			s.waitFor("Save as a run (replaces saved run 1)")
			s.keys("Enter")
			s.waitFor(`saved run 1 "first try"`)
		}},
		{"the add-call form's ctrl+n offers what starts with the typed prefix", "tau2-airline", func(t *testing.T, s *tmuxSession, dir string) {
			s.waitFor("Tasks · ")
			s.keys("/", "T2A-2", "Enter")
			s.waitFor("T2A-2 · claude-son")
			s.keys("e")
			s.waitFor("Witness editor", "✓ eligible")
			s.keys("a", "C-u", "update_res", "C-n")
			s.waitFor(`starting "update_res" · ctrl+n`, "update_reservation_baggages ·", "update_reservation_flights ·")
		}},
		{"no-user telecom: the phone is not the user's", "tau2-telecom", func(t *testing.T, s *tmuxSession, dir string) {
			s.waitFor("Tasks · 100 of 100")
			s.keys("/", "T2T-solo", "Enter")
			s.waitFor("Inspector › T2T-sol", "gpt-4.1-no-user-trial0 (H)")
			s.keys("Tab")
			if scr := s.scrollUntil("── the phone (no user: the agent's) ──"); strings.Contains(scr, "the user's phone") {
				t.Fatalf("the no-user phone is the user's:\n%s", scr)
			}
		}},
		{"different predicates read apart once cut", "tau2-airline", func(t *testing.T, s *tmuxSession, dir string) {
			s.waitFor("Tasks · ")
			s.keys("/", "T2A-7", "Enter")
			s.waitFor("T2A-7 · ")
			s.keys("Tab")
			s.scrollUntil(`1 …XEHM4B…8938"}]`, `5 …59XX6W…8938"}]`)
		}},
		{"Compare at 80×24 keeps the verdict whole and names every mismatch", "tau-airline", func(t *testing.T, s *tmuxSession, dir string) {
			s.waitFor("Tasks · 50 of 50")
			s.keys("/", "TAU-A02", "Enter")
			s.waitFor("TAU-A02 · trial0 (H)")
			s.keys("e")
			s.waitFor("Witness editor", "✓ eligible")
			s.keys("j", "j", "j", "j", "d", "c")
			s.waitFor("✗ rejected: state_vector_mismatch", "also mismatched: predicate 2 (payment_history-JG7FMM)",
				"H's latest cause of predicate 1: agent at event 5", "latest cause in the candidate: initial (no event touched it)",
				"Vectors and scores · not eligible: Δ is shown but not a measured inflation", "!5 ✓ agent update_reservation_flights")
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

// scrollUntil presses j, a line at a time, each waited for, until every
// text shows (a pane's text below the fold); it fails after 80 lines.
func (s *tmuxSession) scrollUntil(texts ...string) string {
	s.t.Helper()
	scr := s.screen()
	for i := 0; ; i++ {
		all := true
		for _, x := range texts {
			all = all && strings.Contains(scr, x)
		}
		if all {
			return scr
		}
		if i > 80 {
			s.t.Fatalf("80 lines down the screen still lacks %q:\n%s", texts, scr)
		}
		s.keys("j")
		scr = s.waitChange(scr)
	}
}

// seedStore puts records into a new store at db, as another process
// would before the workbench opens it.
func seedStore(t *testing.T, db string, recs ...store.Record) {
	t.Helper()
	s, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, r := range recs {
		if _, err := s.Put(r); err != nil {
			t.Fatal(err)
		}
	}
}

// completesAction is a witness of tau2 airline's T2A-20: its H, the
// first failed run, with the gold call it left out made as gold makes
// it, so that tau2's ACTION check rises from 0 to 1.
func completesAction(t *testing.T) store.Record {
	t.Helper()
	tasks, err := loadDomain("tau2-airline", nil)
	if err != nil {
		t.Fatal(err)
	}
	ws := newWorkspace(tasks)
	task := ws.task("T2A-20")
	h, err := analyze(ws, task, task.HonestTraj, "honest")
	if err != nil {
		t.Fatal(err)
	}
	a := &model.Trajectory{Task: task.ID, Steps: slices.Clone(task.HonestTraj.Steps)}
	for _, g := range h.checks.golds {
		if g.Event == 0 {
			a.Steps = append(a.Steps, model.Step{Index: len(a.Steps), Action: model.Action{Op: model.OpCall, Tool: g.Ref.Tool, Args: g.Ref.Args}})
		}
	}
	if len(a.Steps) == len(task.HonestTraj.Steps) {
		t.Fatal("H matches every gold action of T2A-20")
	}
	return store.Record{Kind: store.KindWitness, Task: task.ID, Name: "completes ACTION", Body: model.EncodeTrajectory(a), Created: 1}
}

// TestEndToEndSavedListIssue30At80x24 walks, in tmux at 80×24, the two
// items of issue 30 about the Saved list: a witness's largest Δ with its
// evaluator's name, the benchmark's own included, and the list scoped
// to the open domain, counting the others with where they open.
func TestEndToEndSavedListIssue30At80x24(t *testing.T) {
	bin, _ := buildBinary(t)
	const telecom = "T2T-[mobile_data_issue]data_saver_mode_on|user_abroad_roaming_enabled_off[PERSONA:Easy]"
	for i, tc := range []struct {
		name string
		seed func(t *testing.T) []store.Record
		walk func(t *testing.T, s *tmuxSession, bin, db string)
	}{
		{"a witness that completes tau2's ACTION is listed with ACTION's Δ", func(t *testing.T) []store.Record {
			return []store.Record{completesAction(t)}
		}, func(t *testing.T, s *tmuxSession, bin, db string) {
			s.start(bin, "--db", db, "workbench", "--domain", "tau2-airline")
			s.waitFor("Saved · 1", "completes ACTION", "✓ +1.00")
			s.keys("Tab")
			s.waitFor("eligible · Δ tau2 ACTION +1.00")
		}},
		{"the list holds the open tasks' records and counts the others with where they open", func(t *testing.T) []store.Record {
			return []store.Record{
				{Kind: store.KindNote, Task: "T2A-20", Name: "airline note", Note: "on tau2 airline", Created: 1},
				{Kind: store.KindNote, Task: telecom, Name: "telecom note", Note: "on tau2 telecom", Created: 2},
				{Kind: store.KindNote, Task: devTask, Name: "suite note", Note: "on the suite", Created: 3},
			}
		}, func(t *testing.T, s *tmuxSession, bin, db string) {
			s.start(bin, "--db", db, "workbench", "--domain", "tau2-airline")
			scr := s.waitFor("Saved · 1", "airline note", "+ 2 saved for tasks not open here", "(--domain tau2-telecom 1, the", "suite or a task file 1)")
			if strings.Contains(scr, "telecom note") || strings.Contains(scr, "suite note") {
				t.Fatalf("the Saved list on tau2 airline lists another's records:\n%s", scr)
			}
			s.quit()
			s.start(bin, "--db", db, "workbench")
			scr = s.waitFor("Saved · 1", "suite note", "+ 2 saved for tasks not open here", "tau2-airline 1", "tau2-telecom 1)")
			if strings.Contains(scr, "airline note") || strings.Contains(scr, "telecom note") {
				t.Fatalf("the Saved list on the suite lists a domain's records:\n%s", scr)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "e2e.db")
			seedStore(t, db, tc.seed(t)...)
			s := newSession(t, fmt.Sprintf("e2e30saved-%d", i), 80, 24)
			tc.walk(t, s, bin, db)
			s.quit()
		})
	}
}
