package tui

import (
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/parthack/parthack/internal/fixture"
	"github.com/parthack/parthack/pbcste"
)

// Screens in tests are plain text: golden files and assertions read what
// a person would read, without colour codes.
func init() { lipgloss.SetColorProfile(termenv.Ascii) }

// newTestApp opens the workbench on the embedded suite with a fresh store
// and gives it a terminal of w × h.
func newTestApp(t testing.TB, w, h int, demo bool) *workbench {
	t.Helper()
	m, err := newApp(Options{DBPath: filepath.Join(t.TempDir(), "store.db"), Demo: demo})
	if err != nil {
		t.Fatal(err)
	}
	quit := drive(t, m, m.Init(), tea.WindowSizeMsg{Width: w, Height: h})
	if quit {
		t.Fatal("the workbench quit while opening")
	}
	return m
}

// exampleApp opens the workbench on a one-task suite made of the worked
// example in testdata/example (honest, witness and rollback), so golden
// screens do not move when the embedded suite grows.
func exampleApp(t testing.TB, demo bool) *workbench {
	t.Helper()
	task := fixture.ExampleTask(t)
	env, err := pbcste.Compile(task)
	if err != nil {
		t.Fatal(err)
	}
	st := &suiteTask{ID: task.ID, Title: task.Title, Split: "example", Family: "Persistent multi-step", Domain: "helpdesk",
		RollbackMetric: "included", M: len(task.Goals[0].Predicates), Public: task,
		HonestTraj: fixture.Trajectory(t, "honest.json"), Witness: fixture.Trajectory(t, "witness.json"), Rollback: fixture.Trajectory(t, "rollback.json")}
	cert, rej, err := certifyOne(env, st.HonestTraj)
	if err != nil || rej != nil {
		t.Fatalf("the example's honest trajectory: %v %v", err, rej)
	}
	st.Honest = cert.PState
	ws := newWorkspace([]*suiteTask{st})
	ws.envs[task.ID] = env
	c := &common{ws: ws, dbPath: filepath.Join(t.TempDir(), "store.db"), st: newStyles(defaultTheme), keys: newKeyMap(), hl: newHighlighter(defaultTheme)}
	m := newModel(c)
	if demo {
		m.demo = newDemo(c)
	}
	return m
}

// drive runs cmd, then delivers each message, and runs every command the
// workbench returns until none is left, the way the program would but in
// order and on this goroutine. It reports whether the workbench quit.
func drive(t testing.TB, m *workbench, cmd tea.Cmd, msgs ...tea.Msg) (quit bool) {
	t.Helper()
	queue := []tea.Cmd{cmd}
	for _, msg := range msgs {
		queue = append(queue, func() tea.Msg { return msg })
	}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		switch msg := c().(type) {
		case nil:
		case tea.QuitMsg:
			quit = true
		case tea.BatchMsg:
			queue = append(append([]tea.Cmd{}, msg...), queue...)
		default:
			_, next := m.Update(msg)
			queue = append([]tea.Cmd{next}, queue...)
		}
	}
	return quit
}

// press delivers keys: each argument is a key name ("enter", "tab",
// "ctrl+u", "esc", "left", …) or text typed rune by rune.
func press(t testing.TB, m *workbench, keys ...string) (quit bool) {
	t.Helper()
	for _, k := range keys {
		for _, msg := range keyMsgs(k) {
			quit = drive(t, m, nil, msg) || quit
		}
	}
	return quit
}

var namedKeys = map[string]tea.KeyType{
	"enter": tea.KeyEnter, "tab": tea.KeyTab, "shift+tab": tea.KeyShiftTab, "esc": tea.KeyEsc,
	"up": tea.KeyUp, "down": tea.KeyDown, "left": tea.KeyLeft, "right": tea.KeyRight,
	"pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown, "home": tea.KeyHome, "end": tea.KeyEnd,
	"ctrl+c": tea.KeyCtrlC, "ctrl+u": tea.KeyCtrlU, "ctrl+n": tea.KeyCtrlN, "ctrl+p": tea.KeyCtrlP,
	"ctrl+r": tea.KeyCtrlR, "ctrl+z": tea.KeyCtrlZ, "ctrl+l": tea.KeyCtrlL, "ctrl+o": tea.KeyCtrlO, "ctrl+d": tea.KeyCtrlD, "backspace": tea.KeyBackspace,
	"space": tea.KeySpace,
}

func keyMsgs(k string) []tea.Msg {
	if kt, ok := namedKeys[k]; ok {
		return []tea.Msg{tea.KeyMsg{Type: kt}}
	}
	var out []tea.Msg
	for _, r := range k {
		out = append(out, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
	return out
}

// screen is the workbench's view as plain text.
func screen(m *workbench) string { return ansi.Strip(m.View()) }

// mustSee fails unless every text is on the screen.
func mustSee(t testing.TB, m *workbench, texts ...string) {
	t.Helper()
	s := screen(m)
	for _, x := range texts {
		if !strings.Contains(s, x) {
			t.Fatalf("screen lacks %q:\n%s", x, s)
		}
	}
}

// mustNotSee fails if any text is on the screen.
func mustNotSee(t testing.TB, m *workbench, texts ...string) {
	t.Helper()
	s := screen(m)
	for _, x := range texts {
		if strings.Contains(s, x) {
			t.Fatalf("screen shows %q:\n%s", x, s)
		}
	}
}

// line returns the first screen line containing text, or fails.
func line(t testing.TB, m *workbench, text string) string {
	t.Helper()
	for _, l := range strings.Split(screen(m), "\n") {
		if strings.Contains(l, text) {
			return l
		}
	}
	t.Fatalf("no line contains %q:\n%s", text, screen(m))
	return ""
}

// openTask filters Browse to id and opens it.
func openTask(t testing.TB, m *workbench, id string) {
	t.Helper()
	press(t, m, "/", id, "enter")
	if m.page != pageInspect || m.inspect.a == nil || m.inspect.task.ID != id {
		t.Fatalf("task %s did not open:\n%s", id, screen(m))
	}
}
