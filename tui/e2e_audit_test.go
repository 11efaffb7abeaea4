package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parthack/parthack/model"
)

// mouse sends an SGR mouse report (1-based cell): a press and release
// of the left button, or one notch of the wheel down.
func (s *tmuxSession) mouse(x, y int, wheel bool) {
	s.t.Helper()
	seq := fmt.Sprintf("\x1b[<0;%d;%dM\x1b[<0;%d;%dm", x, y, x, y)
	if wheel {
		seq = fmt.Sprintf("\x1b[<65;%d;%dM", x, y)
	}
	s.keys(seq)
}

// writeIllegalField writes a witness of PH-D01 whose one step writes a
// field the agent may not write, and returns its path and the field.
func writeIllegalField(t *testing.T) (file, field string) {
	t.Helper()
	m := newTestApp(t, 80, 24, false)
	task := m.c.ws.task(devTask).Public
	var typ string
	for _, et := range task.Schema.Types {
		for _, fd := range et.Fields {
			if typ == "" && task.Allowlist.AllowsType(et.Name) && !task.Allowlist.AllowsField(et.Name, fd.Name) && fd.Kind == model.KindString {
				typ, field = et.Name, fd.Name
			}
		}
	}
	if typ == "" {
		t.Fatal("PH-D01 has no field the agent may not write")
	}
	tr := &model.Trajectory{Task: devTask, Name: "imported", Steps: []model.Step{{Action: model.Action{Op: model.OpUpdate, Type: typ,
		ID: task.Alphabet[typ].IDs[0], Fields: []model.Assign{{Field: field, Value: model.Str("imported")}}}}}}
	file = filepath.Join(t.TempDir(), "illegal.json")
	if err := os.WriteFile(file, model.EncodeTrajectory(tr), 0o644); err != nil {
		t.Fatal(err)
	}
	return file, field
}

// TestEndToEndIssue22At80x24 walks, in tmux at 80×24, each item of the
// workbench's issue 22 that no other end-to-end test covers: work is
// never lost (S then e, the search's witness in Compare, too small, an
// illegal imported field, export of a tau run), the search's move sets,
// every key under ?, the task and its whole texts, conversation turns in
// full, the mouse, esc one thing at a time, and a task with no goal.
func TestEndToEndIssue22At80x24(t *testing.T) {
	bin, _ := buildBinary(t)
	open := func(s *tmuxSession, task string) {
		s.waitFor("Tasks · ")
		s.keys("/", task, "Enter")
		s.waitFor(task + " · ")
	}
	for i, tc := range []struct {
		name   string
		domain string
		walk   func(t *testing.T, s *tmuxSession, dir string)
	}{
		{"S then e asks before replacing; the pairs find PH-H08's +0.25", "", func(t *testing.T, s *tmuxSession, dir string) {
			open(s, "PH-H08")
			s.keys("e")
			s.waitFor("Witness editor", "3 steps")
			s.keys("$", "d")
			s.waitFor("2 steps · modified")
			s.keys("S", "Tab", "Tab", "Right")
			s.waitFor("‹ one- and two-field updates ›")
			s.keys("Enter")
			s.waitFor("inflated over one- and two-field updates within 2", "+0.250", "certified worst case over one-")
			s.keys("e")
			s.waitFor("e again replaces it", "2 steps · modified")
			s.keys("e")
			s.waitFor("5 steps", "+0.25  ▲")
		}},
		{"the search's witness in Compare asks; ? lists Compare's keys", "", func(t *testing.T, s *tmuxSession, dir string) {
			open(s, "PH-H01")
			s.keys("S", "Enter")
			s.waitFor("Search attacker · PH-H01 · done")
			s.keys("Enter")
			s.waitFor("Pair (H, A) · PH-H01 · search witness")
			s.keys("Escape")
			if scr := s.waitFor("esc again drops it"); strings.Contains(scr, "esc dismisses") {
				t.Fatalf("esc's own question says esc dismisses it:\n%s", scr)
			}
			s.keys("?")
			s.waitFor("Keys · Compare", "witness editor", "save", "search attacker", "back", "quit")
			s.keys("Escape", "q")
			s.waitFor("q again quits anyway")
		}},
		{"too small: the question shows, no key acts unseen", "", func(t *testing.T, s *tmuxSession, dir string) {
			open(s, "PH-H08")
			s.keys("e", "$", "d")
			s.waitFor("2 steps · modified")
			if out, err := s.tmux("resize-window", "-t", s.name, "-x", "60", "-y", "18"); err != nil {
				t.Fatalf("tmux resize-window: %v: %s", err, out)
			}
			s.waitFor("terminal too small")
			s.keys("q")
			s.waitFor("not saved: q again quits", "anyway", "shows it again")
			s.keys("d")
			s.waitGone("not saved") // the next key answers the question
			if out, err := s.tmux("resize-window", "-t", s.name, "-x", "80", "-y", "24"); err != nil {
				t.Fatalf("tmux resize-window: %v: %s", err, out)
			}
			s.waitFor("2 steps · modified")
		}},
		{"an imported illegal field stays through the form", "", func(t *testing.T, s *tmuxSession, dir string) {
			file, field := writeIllegalField(t)
			s.waitFor("Tasks · ")
			s.keys("C-o", file, "Enter")
			s.waitFor("Witness editor", "1 steps")
			s.keys("Enter")
			s.waitFor(field+"   imported", "✗ illegal: the agent", "may not write "+field+";", "kept as imported")
			s.keys("Enter")
			s.waitFor("1 steps · modified", "✗ rejected: illegal_action")
			s.keys("Enter")
			s.waitFor(field + "   imported")
		}},
		{"export keeps a tau run's conversation under a full path", "tau-airline", func(t *testing.T, s *tmuxSession, dir string) {
			open(s, "TAU-A04")
			s.keys("e")
			s.waitFor("Witness editor", "6 steps")
			s.keys("E")
			s.waitFor("Export witness JSON")
			out := filepath.Join(dir, "run.json")
			s.keys("C-u", out, "Enter")
			s.waitFor("exported to", "with the run's conversation")
			src, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			if tr, err := model.DecodeTrajectory(out, src); err != nil || len(tr.Transcript) == 0 {
				t.Fatalf("the export lost the conversation: %v", err)
			}
		}},
		{"whole texts: vectors, verdict, state diff, predicates, turns", "tau-airline", func(t *testing.T, s *tmuxSession, dir string) {
			open(s, "TAU-A04")
			s.keys("Tab", "j", "j", "j", "j", "j", "j", "j", "j", "j", "j", "j", "j")
			s.waitFor(`reserva…ossi"}]`, `reserva…0333"}]`) // cut from the middle, told apart
			s.keys("Escape")
			s.waitFor("Tasks · 1 of")
			s.keys("/", "C-u", "TAU-A02", "Enter")
			s.waitFor("TAU-A02 · trial0")
			s.keys("$")
			s.waitFor("f shows every turn")
			s.keys("f")
			s.waitFor("has been processed back to your credit")
			s.keys("e")
			s.waitFor("Witness editor", "c_agent [1 1 1 1 1 0 0 0 0 0 0 0]", "tau-bench · reward")
			s.keys("j", "j", "j", "j", "d")
			s.waitFor("✗ rejected: state_vector_mismatch")
			s.keys("c")
			s.waitFor("c_state[1] (flights-JG7FMM) is 0 for the candidate and 1 for the honest", "trajectory; latest cause in the candidate: initial (no event touched it)", "tau-bench · reward")
			s.keys("d")
			s.waitFor("reservation JG7FMM · flights", `"price":1859}`)
		}},
		{"mouse: a click selects a row and focuses a pane, the wheel scrolls", "tau-airline", func(t *testing.T, s *tmuxSession, dir string) {
			s.waitFor("Tasks · 50 of 50")
			s.mouse(5, 8, false)
			s.waitFor("╭─ TAU-A03 ")
			s.mouse(60, 15, false)
			s.waitFor("┏━ Saved · ")
			s.mouse(10, 10, true)
			s.waitFor("╭─ TAU-A04 ", "┏━ Tasks · ")
		}},
		{"esc takes back one thing at a time; the : placeholder is the task's", "tau-airline", func(t *testing.T, s *tmuxSession, dir string) {
			open(s, "TAU-A02")
			s.keys("S")
			s.waitFor("Search attacker · TAU-A02")
			s.keys("Escape")
			s.waitGone("Search attacker")
			s.waitFor("TAU-A02 · trial0") // esc closed the search's form alone
			s.keys("e", ":")
			s.waitFor("New call", "book_reservation user_id=omar_")
			s.keys("Escape")
			s.waitFor("7 steps")
			s.keys("Escape")
			s.waitFor("TAU-A02 · trial0 (H) · tau-bench reward")
		}},
		{"a task with no goal says why", "tau-airline", func(t *testing.T, s *tmuxSession, dir string) {
			open(s, "TAU-A12")
			s.waitFor("TAU-A12 · ", "tau-bench reward", "No goal predicate", "task TAU-A12 has no goal predicate: its gold run changes nothing, so")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			s := newSession(t, fmt.Sprintf("e2e22-%d", i), 80, 24)
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

// TestEndToEndHandCraftsOnTau2At80x24: on each tau2 domain a call is
// typed in the `:` line with its tool, arguments, their types and the
// task's values completed, added, opened in the form as fields, and
// undone by z; tau2's instruction reads as tau2 lays it out; tau2's
// episode rule (a transfer ends nothing) is kept.
func TestEndToEndHandCraftsOnTau2At80x24(t *testing.T) {
	bin, _ := buildBinary(t)
	for _, tc := range []struct {
		domain, task string
		scenario     []string // what I shows of tau2's user scenario
		walk         func(t *testing.T, s *tmuxSession)
	}{
		{"tau2-retail", "T2R-0", []string{"Instructions:", "Domain: retail", "Reason for call:", "Known info: You are Yusuf Rossi"}, func(t *testing.T, s *tmuxSession) {
			s.keys("$", "k", ":", "modify_user_a", "Tab")
			s.waitFor("user_id (string)", "city (string)")
			s.keys("C-u", "modify_user_address user_id=", "Tab")
			s.waitFor("user_id=yusuf_rossi_9620")
			s.keys(` address1="1 Main St" address2=x city=Philadelphia state=PA country=USA zip=19122`, "Enter")
			s.waitFor("7 steps · modified", "6 ✓ modify_user_address", "tau2 · reward 1→0")
			s.keys("Enter")
			s.waitFor("Edit call 6", "tool      modify_user_address", "user_id   yusuf_rossi_9620")
			s.keys("Escape", "z")
			s.waitFor("step 8, a call of modify_user_address, undoes step 6", "tau2 · reward 1→1")
		}},
		{"tau2-airline", "T2A-2", []string{"Instructions:", "Domain: airline", "Reason for call:"}, func(t *testing.T, s *tmuxSession) {
			if scr := s.waitFor("6 · transfer_to_human_agents"); strings.Contains(scr, "the episode ends here") {
				t.Fatalf("tau2's transfer is marked as ending the episode:\n%s", scr)
			}
			s.keys("$", "k", ":", "update_reservation_b", "Tab")
			s.waitFor("total_baggages (integer)", "payment_id (string)")
			s.keys("C-u", "update_reservation_baggages reservation_id=", "Tab")
			s.waitFor("reservation_id=SDZQKO")
			s.keys(" payment_id=")
			s.waitFor("credit_card_1245537")
		}},
		{"tau2-telecom", "", []string{"Persona:", "  As a 41-year-old office administrator"}, func(t *testing.T, s *tmuxSession) {
			s.waitFor("3 ✓ enable_roaming")
			// z finds the tool that undoes it among the domain's own,
			// called with the same arguments; u takes it back.
			s.keys("j", "j", "z")
			s.waitFor("step 19, a call of disable_roaming, undoes step 3", "19 steps · modified")
			s.keys("u")
			s.waitFor("18 steps")
			s.keys(":", "disable_roa", "Tab")
			s.waitFor("customer_id (string)")
			s.keys("C-u", "disable_roaming customer_id=", "Tab")
			s.waitFor("customer_id=C1001")
			s.keys(" line_id=", "Tab")
			s.waitFor("line_id=L1001")
			s.keys("Enter")
			s.waitFor("19 steps · modified", "4 ✓ disable_roaming")
		}},
	} {
		t.Run(tc.domain, func(t *testing.T) {
			dir := t.TempDir()
			s := newSession(t, "e2ecraft-"+tc.domain, 80, 24)
			s.start(bin, "--db", filepath.Join(dir, "e2e.db"), "workbench", "--domain", tc.domain)
			s.waitFor("Tasks · ")
			if tc.task != "" {
				s.keys("/", tc.task, "Tab", "Tab")
				s.waitFor("╭─ " + tc.task + " ")
			}
			s.keys("I")
			s.waitFor(tc.scenario...)
			s.keys("Escape", "Enter")
			s.waitFor("Initial snapshot")
			s.keys("e")
			s.waitFor("Witness editor", "✓ eligible")
			tc.walk(t, s)
			s.quit()
		})
	}
}
