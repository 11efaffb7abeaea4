package tui

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// typeAhead delivers keys the way a busy machine does: every key reaches
// Update before the message of any command the keys start (a page's
// opening, its analysis), then those commands run in order.
func typeAhead(t testing.TB, m *workbench, keys ...string) (quit bool) {
	t.Helper()
	var cmds []tea.Cmd
	for _, k := range keys {
		for _, msg := range keyMsgs(k) {
			_, cmd := m.Update(msg)
			cmds = append(cmds, cmd)
		}
	}
	return drive(t, m, tea.Batch(cmds...))
}

// TestTypedAheadKeysAreNeverLost: keys typed before the page they act on
// is on screen act on it, in order, however many pages open in between
// and however late each page's analysis arrives (issue 30, item 5: e
// then : typed while the Inspector loaded opened the editor without the
// step line, as the Inspector played the : to itself).
func TestTypedAheadKeysAreNeverLost(t *testing.T) {
	for _, tc := range []struct {
		name string
		keys []string
		want func(m *workbench) string // "" when it holds
	}{
		{"enter e : opens the editor with the step line", []string{"enter", "e", ":"}, func(m *workbench) string {
			if m.page != pageEditor || m.editor.line == nil {
				return "the editor's step line is not open"
			}
			return ""
		}},
		{"enter t t lands two trajectories on", []string{"enter", "t", "t"}, func(m *workbench) string {
			if m.page != pageInspect || m.inspect.which != 2 {
				return "the Inspector is not on the third trajectory"
			}
			return ""
		}},
		{"enter r $ moves Compare's cursor to its last row", []string{"enter", "r", "$"}, func(m *workbench) string {
			if m.page != pageCompare || m.compare.p == nil || m.compare.cursor != len(m.compare.p.rows)-1 {
				return "Compare's cursor is not on its last row"
			}
			return ""
		}},
		{"enter e $ d deletes the last step in the editor", []string{"enter", "e", "$", "d"}, func(m *workbench) string {
			if m.page != pageEditor || !m.editor.modified || len(m.editor.steps) != len(m.editor.honest.traj.Steps)-1 {
				return "the editor did not delete a step"
			}
			return ""
		}},
		{"enter e esc esc goes back to Browse", []string{"enter", "e", "esc", "esc"}, func(m *workbench) string {
			if m.page != pageBrowse {
				return "esc esc did not go back to Browse"
			}
			return ""
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := newTestApp(t, 80, 24, false)
			press(t, m, "/", "PH-H05")
			if quit := typeAhead(t, m, tc.keys...); quit {
				t.Fatal("the workbench quit")
			}
			if len(m.held) != 0 {
				t.Fatalf("%d keys are still held", len(m.held))
			}
			if why := tc.want(m); why != "" {
				t.Fatalf("%s:\n%s", why, screen(m))
			}
		})
	}
}

// TestCtrlCIsNeverHeld: ctrl+c acts at once while a page loads: it
// quits (nothing is unsaved) without waiting for the page.
func TestCtrlCIsNeverHeld(t *testing.T) {
	m := newTestApp(t, 80, 24, false)
	press(t, m, "/", "PH-H05")
	m.Update(tea.KeyMsg{Type: tea.KeyEnter})
	if _, cmd := m.Update(tea.KeyMsg{Type: tea.KeyCtrlC}); cmd == nil {
		t.Fatal("ctrl+c was held while the Inspector opened")
	} else if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Fatal("ctrl+c did not quit while the Inspector opened")
	}
}

// TestEscThenKeyInOneRead: an esc and the key after it that reach the
// terminal in one read arrive as an alt key (the workbench binds none);
// they act as the two keys: esc closes the overlay, / starts a search.
func TestEscThenKeyInOneRead(t *testing.T) {
	m := newTestApp(t, 80, 24, false)
	openTask(t, m, devTask)
	press(t, m, "?")
	if m.overlay == nil {
		t.Fatal("? opened no overlay")
	}
	drive(t, m, nil, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'/'}, Alt: true})
	if m.overlay != nil || !m.inspect.searching {
		t.Fatalf("esc / in one read: overlay open %v, searching %v", m.overlay != nil, m.inspect.searching)
	}
	drive(t, m, nil, tea.KeyMsg{Type: tea.KeyEsc, Alt: true})
	if m.page != pageBrowse {
		t.Fatalf("esc esc in one read did not close the search and go back:\n%s", screen(m))
	}
}
