package tui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
)

// Every screen fills the terminal exactly, from 80×24 up, and follows
// resizes: no line wider than the terminal, no line missing.
func TestLayoutFitsEverySize(t *testing.T) {
	m := newTestApp(t, 80, 24, false)
	screens := []struct {
		name string
		keys []string
	}{
		{"browse", nil},
		{"inspector", []string{devTask, "enter", "l"}},
		{"inspector help", []string{"?"}},
		{"compare", []string{"?", "c"}},
		{"editor", []string{"esc", "e"}},
		{"editor form", []string{"a"}},
		{"editor save", []string{"esc", "s"}},
	}
	for _, s := range screens {
		press(t, m, s.keys...)
		for _, size := range [][2]int{{80, 24}, {100, 30}, {120, 40}, {200, 60}, {80, 24}} {
			drive(t, m, nil, tea.WindowSizeMsg{Width: size[0], Height: size[1]})
			lines := strings.Split(m.View(), "\n")
			if len(lines) != size[1] {
				t.Errorf("%s at %dx%d: %d lines\n%s", s.name, size[0], size[1], len(lines), screen(m))
			}
			for i, l := range lines {
				if w := ansi.StringWidth(l); w > size[0] {
					t.Errorf("%s at %dx%d: line %d is %d wide: %q", s.name, size[0], size[1], i+1, w, l)
				}
			}
		}
	}
}

func TestHelpShowsTheFocusedPanesKeys(t *testing.T) {
	m := newTestApp(t, 120, 40, false)
	last := func() string {
		lines := strings.Split(screen(m), "\n")
		return lines[len(lines)-1]
	}
	if h := last(); !strings.Contains(h, "enter open") || !strings.Contains(h, "q quit") {
		t.Fatalf("browse help: %q", h)
	}
	press(t, m, "x")
	if h := last(); strings.Contains(h, "q quit") || !strings.Contains(h, "esc clear filter") {
		t.Fatalf("help while filtering: %q", h)
	}
	press(t, m, "esc", devTask, "enter")
	if h := last(); !strings.Contains(h, "l/→ next step") || !strings.Contains(h, "/ search") {
		t.Fatalf("inspector help: %q", h)
	}
	press(t, m, "tab")
	if h := last(); !strings.Contains(h, "j/↓ scroll down") || strings.Contains(h, "/ search") {
		t.Fatalf("detail pane help: %q", h)
	}
	press(t, m, "?")
	s := screen(m)
	for _, want := range []string{"prev match", "next trajectory of the task", "compare H vs R", "note on this event"} {
		if !strings.Contains(s, want) {
			t.Errorf("expanded help lacks %q:\n%s", want, s)
		}
	}
	if n := strings.Count(m.View(), "\n") + 1; n != 40 {
		t.Errorf("expanded help: %d lines", n)
	}
	press(t, m, "?")
	if n := len(strings.Split(screen(m), "\n")); n != 40 || strings.Contains(screen(m), "prev match") {
		t.Errorf("? did not fold the help back")
	}
}
