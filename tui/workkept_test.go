package tui

import (
	"strings"
	"testing"
)

// finishSearch starts a search on the page in front and delivers its
// result: the task's witness, inflating Historical Milestone.
func finishSearch(t *testing.T, m *workbench) {
	t.Helper()
	send(m, "S")
	send(m, "enter")
	task := m.attack.task
	m.Update(attackDoneMsg{id: m.attack.run.id, res: &searchResult{task: task, h: task.honest(), edits: 2, moves: "one-field updates",
		honest: 0.5, score: 0.75, delta: 0.25, witness: task.Witness, states: 10, eligible: 3, exhausted: true}})
	if !m.attack.witness() {
		t.Fatalf("the search's result has no witness:\n%s", screen(m))
	}
}

// TestWorkIsNeverLost: a question goes ahead only on the key it names,
// about the work it names (issue 30, item 4: in the editor q then
// ctrl+c quit; esc on the search's result dropped its witness unasked;
// with an edited witness and a search result both unsaved the question
// named one, and a second q lost both).
func TestWorkIsNeverLost(t *testing.T) {
	for _, tc := range []struct {
		name string
		walk func(t *testing.T, m *workbench)
	}{
		{"q then ctrl+c keeps an edited witness", func(t *testing.T, m *workbench) {
			press(t, m, "e", "$", "d")
			if quit := press(t, m, "q", "ctrl+c"); quit {
				t.Fatal("q then ctrl+c quit")
			}
			mustSee(t, m, "the witness in the editor is not saved: ctrl+c again quits anyway")
			if quit := press(t, m, "ctrl+c"); !quit {
				t.Fatal("ctrl+c twice did not quit")
			}
		}},
		{"ctrl+c then q keeps an edited witness", func(t *testing.T, m *workbench) {
			press(t, m, "e", "$", "d")
			if quit := press(t, m, "ctrl+c", "q"); quit {
				t.Fatal("ctrl+c then q quit")
			}
			mustSee(t, m, "the witness in the editor is not saved: q again quits anyway")
		}},
		{"esc on the search's result asks", func(t *testing.T, m *workbench) {
			finishSearch(t, m)
			press(t, m, "esc")
			if !m.attack.witness() {
				t.Fatal("esc dropped the search's witness unasked")
			}
			mustAsk(t, m, "the search attacker's witness is not saved: esc again dismisses it, enter or e opens it")
			press(t, m, "esc")
			if m.attack.state != attackIdle {
				t.Fatal("esc again did not dismiss the result")
			}
		}},
		{"the question names both unsaved witnesses", func(t *testing.T, m *workbench) {
			press(t, m, "e", "$", "d")
			finishSearch(t, m)
			if quit := press(t, m, "q"); quit {
				t.Fatal("q quit with two witnesses unsaved")
			}
			mustAsk(t, m, "the witness in the editor and the search attacker's witness are not saved: q again quits anyway and drops them all")
			if quit := press(t, m, "q"); !quit {
				t.Fatal("q again, after the question named both, did not quit")
			}
		}},
		{"a search that finishes after the question is asked about", func(t *testing.T, m *workbench) {
			press(t, m, "e", "$", "d")
			send(m, "S")
			send(m, "enter") // the search runs; its result is delivered below
			if quit := press(t, m, "q"); quit {
				t.Fatal("q quit with an edited witness")
			}
			mustAsk(t, m, "the witness in the editor is not saved: q again quits anyway")
			task := m.attack.task
			m.Update(attackDoneMsg{id: m.attack.run.id, res: &searchResult{task: task, h: task.honest(), edits: 2, moves: "one-field updates",
				honest: 0.5, score: 0.75, delta: 0.25, witness: task.Witness, states: 10, eligible: 3, exhausted: true}})
			if quit := press(t, m, "q"); quit {
				t.Fatal("the second q lost the search's witness, which the question did not name")
			}
			mustAsk(t, m, "the witness in the editor and the search attacker's witness are not saved")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.walk(t, openExample(t, 80, 24))
		})
	}
}

// mustAsk fails unless the status line asks text.
func mustAsk(t *testing.T, m *workbench, text string) {
	t.Helper()
	if !strings.Contains(m.status, text) {
		t.Fatalf("the status %q does not ask %q:\n%s", m.status, text, screen(m))
	}
}
