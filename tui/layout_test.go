package tui

import (
	"fmt"
	"slices"
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
		{"editor line", []string{"esc", ":", "update ticket T102 sta"}},
		{"editor rollback mode", []string{"esc", "m"}},
		{"attacker setup", []string{"S"}},
		{"inspector whole state", []string{"esc", "esc", "w", "l"}},
		{"compare state diff", []string{"c", "d"}},
	}
	wantPage := map[string]string{"editor line": "Witness editor", "editor rollback mode": "Witness editor", "attacker setup": "Witness editor",
		"inspector whole state": "Inspector", "compare state diff": "Compare"}
	for _, s := range screens {
		press(t, m, s.keys...)
		if want := wantPage[s.name]; want != "" && pageNames[m.page] != want {
			t.Fatalf("%s: the keys led to page %s", s.name, pageNames[m.page])
		}
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
	press(t, m, "/", "x")
	if h := last(); strings.Contains(h, "q quit") || !strings.Contains(h, "esc cancel") {
		t.Fatalf("help while filtering: %q", h)
	}
	press(t, m, "esc", "/", devTask, "enter")
	if h := last(); !strings.Contains(h, "l/→ next step") || !strings.Contains(h, "/ search") {
		t.Fatalf("inspector help: %q", h)
	}
	press(t, m, "tab")
	if h := last(); !strings.Contains(h, "j/↓ scroll down") || strings.Contains(h, "/ search") {
		t.Fatalf("detail pane help: %q", h)
	}
	press(t, m, "?")
	s := screen(m)
	for _, want := range []string{"Keys · Inspector", "prev match", "next trajectory of the task", "compare H vs R", "note on this event"} {
		if !strings.Contains(s, want) {
			t.Errorf("the help overlay lacks %q:\n%s", want, s)
		}
	}
	if n := strings.Count(m.View(), "\n") + 1; n != 40 {
		t.Errorf("the help overlay: %d lines", n)
	}
	press(t, m, "?")
	if n := len(strings.Split(screen(m), "\n")); n != 40 || strings.Contains(screen(m), "prev match") {
		t.Errorf("? did not close the help overlay")
	}
}

// fitsExactly fails unless the view is exactly w × h cells or less wide.
func fitsExactly(t *testing.T, what string, m *workbench, w, h int) {
	t.Helper()
	lines := strings.Split(m.View(), "\n")
	if len(lines) != h {
		t.Errorf("%s at %dx%d: %d lines\n%s", what, w, h, len(lines), screen(m))
	}
	for i, l := range lines {
		if lw := ansi.StringWidth(l); lw > w {
			t.Errorf("%s at %dx%d: line %d is %d wide: %q", what, w, h, i+1, lw, l)
		}
	}
}

// Below 80×24 the workbench says it needs more room instead of drawing
// a screen taller or wider than the terminal.
func TestTerminalTooSmall(t *testing.T) {
	m := newTestApp(t, 80, 24, false)
	openTask(t, m, devTask)
	press(t, m, "c")
	for _, size := range [][2]int{{60, 18}, {79, 24}, {80, 23}, {20, 5}, {1, 1}} {
		drive(t, m, nil, tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		fitsExactly(t, "too small", m, size[0], size[1])
		if size[0] >= 40 {
			mustSee(t, m, "terminal too small (need 80×24)")
		}
	}
	drive(t, m, nil, tea.WindowSizeMsg{Width: 80, Height: 24})
	mustNotSee(t, m, "too small")
	mustSee(t, m, "Compare")
}

// Every demo scene fits 80×24 with its title, its verdict and the help
// bar on screen.
func TestDemoScenesFit80x24(t *testing.T) {
	m := newTestApp(t, 80, 24, true)
	for i := range m.demo.scenes {
		fitsExactly(t, fmt.Sprintf("scene %d", i+1), m, 80, 24)
		lines := strings.Split(screen(m), "\n")
		if !strings.Contains(lines[0], "parthack") || !strings.Contains(lines[len(lines)-1], "next scene") {
			t.Errorf("scene %d lost its title or help bar:\n%s", i+1, screen(m))
		}
		if m.page == pageCompare {
			mustSee(t, m, m.compare.verdictTitle())
			if v := m.compare.p.verdict; !v.Eligible {
				mustSee(t, m, "rejected: "+string(v.Reason))
			} else {
				mustSee(t, m, "✓ ")
			}
		}
		press(t, m, "space")
	}
}

// A rejection's evidence is wrapped onto its own lines, never cut in the
// middle, at 80×24 as on a wide screen.
func TestRejectionEvidenceIsWrappedNotCut(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		m := newTestApp(t, size[0], size[1], false)
		task := m.c.ws.task("PH-H05")
		drive(t, m, m.c.navigate(openCompareMsg{task: task, kind: "pair", h: task.HonestTraj, a: task.Attribution}))
		v := m.compare.p.verdict
		if v.Eligible || v.Evidence == nil {
			t.Fatalf("the attribution control is eligible")
		}
		fitsExactly(t, "compare", m, size[0], size[1])
		for _, part := range append(v.Evidence.Where(), "rejected: "+string(v.Reason)) {
			if !strings.Contains(screen(m), part) {
				t.Errorf("at %dx%d the evidence %q is cut:\n%s", size[0], size[1], part, screen(m))
			}
		}
	}
}

// At 200×60 the log pane grows to show whole events instead of leaving
// the detail pane half empty.
func TestWideTerminalGrowsTheLog(t *testing.T) {
	m := newTestApp(t, 200, 60, false)
	openTask(t, m, "PH-H12")
	press(t, m, "t")
	in := m.inspect
	logW, _, _, _, _ := in.layout()
	if logW <= 64 {
		t.Fatalf("the log pane stays %d wide at 200 columns", logW)
	}
	for k := 1; k <= in.a.events(); k++ {
		ev := in.a.log.Events[k-1]
		if what := describeAction(ev.Action); len(what) < 90 {
			mustSee(t, m, what)
		}
	}
	fitsExactly(t, "inspector", m, 200, 60)
}

// Without colour (the tests' profile is the one NO_COLOR gives) the
// focused pane still shows: its frame is heavy.
func TestFocusShowsWithoutColour(t *testing.T) {
	m := newTestApp(t, 120, 40, false)
	openTask(t, m, devTask)
	if l := line(t, m, devTask+" · honest · "); !strings.Contains(l, "┏") || strings.Count(l, "┏") != 1 {
		t.Fatalf("the focused log's frame is not heavy: %q", l)
	}
	press(t, m, "tab")
	l := line(t, m, devTask+" · honest · ")
	if !strings.HasPrefix(l, "╭") || !strings.Contains(l, "┏") {
		t.Fatalf("tab did not move the heavy frame to the detail pane: %q", l)
	}
}

// Without colour the text cursor shows as a bar where it stands.
func TestTextCursorShowsWithoutColour(t *testing.T) {
	m := newTestApp(t, 120, 40, false)
	press(t, m, "/")
	mustSee(t, m, "filter ▏/ filters tasks")
	press(t, m, "esc")
	openTask(t, m, devTask)
	press(t, m, "e", "s")
	mustSee(t, m, "hand-crafted witness▏")
	press(t, m, "left", "left")
	mustSee(t, m, "hand-crafted witne▏ss")
}

// TestWrapKeepsHyphenatedWords: a line breaks at spaces, not after a
// hyphen inside a date, an id or a model name, unless the word is longer
// than the line; the text itself is unchanged.
func TestWrapKeepsHyphenatedWords(t *testing.T) {
	for _, c := range []struct {
		text  string
		width int
		want  []string
	}{
		{"flights on 2024-05-21 and 2024-05-22", 16, []string{"flights on", "2024-05-21 and", "2024-05-22"}},
		{"gpt-4.1-mini-2025-04-14-trial0", 12, []string{"gpt-4.1-mini", "-2025-04-14-", "trial0"}},
		{"a non\u2011breaking hyphen-here", 40, []string{"a non\u2011breaking hyphen-here"}},
	} {
		if got := wrap(c.text, c.width); !slices.Equal(got, c.want) {
			t.Errorf("wrap(%q, %d) = %q, want %q", c.text, c.width, got, c.want)
		}
	}
}
