package tui

import (
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// TestKeysTypedWhileLoadingActOnTheLoadedScreen: `t t` typed before
// PH-H05's honest run is on screen moves two trajectories on, to the
// attribution control (honest, rollback, attribution control), whenever
// the analyses arrive.
func TestKeysTypedWhileLoadingActOnTheLoadedScreen(t *testing.T) {
	m := newTestApp(t, 80, 24, false)
	task := m.c.ws.task("PH-H05")
	_, load := m.Update(openTaskMsg{task: task, traj: task.HonestTraj, label: "honest"})
	for _, k := range []string{"t", "t", "l"} {
		m.Update(keyMsgs(k)[0])
	}
	if m.inspect.a != nil {
		t.Fatal("the analysis arrived before the keys: the test proves nothing")
	}
	drive(t, m, load)
	if got := m.inspect.current().label; got != "attribution control" || m.inspect.a == nil || m.inspect.cursor != 1 {
		t.Fatalf("t t l while loading landed on %q at %d, want the attribution control at 1", got, m.inspect.cursor)
	}
}

// TestOneMatchSaysOneOfOne: a search whose only match is under the
// cursor says 1/1 instead of "no event matches".
func TestOneMatchSaysOneOfOne(t *testing.T) {
	m := newTestApp(t, 80, 24, false)
	openTask(t, m, devTask)
	press(t, m, "/", "initial snapshot", "enter")
	if m.statusErr || !strings.Contains(m.status, "match 1/1") || m.inspect.cursor != 0 {
		t.Fatalf("status %q, cursor %d", m.status, m.inspect.cursor)
	}
}

// TestStepLinePlaceholderIsTheTasks: `:` shows a step of the task at
// hand, not a ticket step on every task.
func TestStepLinePlaceholderIsTheTasks(t *testing.T) {
	m := newTestApp(t, 120, 40, false)
	openTask(t, m, "PH-H04")
	press(t, m, "e", ":")
	ph := m.editor.line.input.Placeholder
	if strings.Contains(ph, "ticket") || !strings.HasPrefix(ph, "update ") {
		t.Fatalf("PH-H04's placeholder is %q", ph)
	}
	if _, err := (&stepLine{c: m.c, task: m.editor.task.Public, input: newInput(strings.TrimSuffix(ph, "   (tab completes)"))}).build(); err != nil {
		t.Fatalf("the placeholder %q is not a step the line reads: %v", ph, err)
	}
	drive(t, m, nil, tea.KeyMsg{Type: tea.KeyEsc})
}

// TestMouseSelectsRowsAndFocusesPanes: a click selects the row under
// the pointer and focuses its pane, in Browse, the Inspector and the
// editor; the wheel scrolls the pane under the pointer.
func TestMouseSelectsRowsAndFocusesPanes(t *testing.T) {
	click := func(x, y int) tea.MouseMsg {
		return tea.MouseMsg{X: x, Y: y, Action: tea.MouseActionPress, Button: tea.MouseButtonLeft}
	}
	m := newTestApp(t, 120, 40, false)
	// Header, frame, filter line and column heads come first: the
	// third task is on screen row 1+3+2.
	drive(t, m, nil, click(5, 6))
	if m.browse.cursor != 2 || m.browse.focus != focusTasks {
		t.Fatalf("a click on the third task put the cursor on %d", m.browse.cursor)
	}
	_, infoH := m.browse.panes()
	drive(t, m, nil, click(100, 1+infoH+2))
	if m.browse.focus != focusRecords {
		t.Fatal("a click on the saved work did not focus it")
	}
	press(t, m, "tab", "enter")
	if m.page != pageInspect || m.inspect.task.ID != m.c.ws.tasks[2].ID {
		t.Fatalf("enter did not open the clicked task:\n%s", screen(m))
	}
	in := m.inspect
	drive(t, m, nil, click(100, 5))
	if in.focus != focusDetail {
		t.Fatal("a click on the detail did not focus it")
	}
	drive(t, m, nil, click(5, 1+1+2))
	if in.focus != focusLog || in.cursor != 2 {
		t.Fatalf("a click on log row 3 focused %d with the cursor at %d", in.focus, in.cursor)
	}
	press(t, m, "e")
	drive(t, m, nil, click(5, 1+1+1))
	if m.editor.cursor != 1 {
		t.Fatalf("a click on step 2 put the cursor on %d", m.editor.cursor)
	}
	// In Compare, on either log, below the box title that names H.
	c := openPair(t, m, "PH-H05", "pair", m.c.ws.task("PH-H05").Attribution)
	at := slices.IndexFunc(strings.Split(screen(m), "\n"), func(l string) bool { return strings.Contains(l, "H · honest") })
	if at < 0 {
		t.Fatalf("no H log on the Compare page:\n%s", screen(m))
	}
	for _, x := range []int{5, 70} {
		drive(t, m, nil, click(x, at+1+2))
		if m.compare.cursor != m.compare.top+2 {
			t.Fatalf("%s: a click on the third row of a log at x %d put the cursor on %d (top %d)", c.ID, x, m.compare.cursor, m.compare.top)
		}
		press(t, m, "0")
	}
}

// TestStateDiffKeepsValuesWhole: a value too long for its row goes whole
// on lines of its own instead of being cut.
func TestStateDiffKeepsValuesWhole(t *testing.T) {
	m := openExample(t, 80, 24)
	press(t, m, "r", "d", "$")
	p := m.compare.p
	d := diffStates(p.h.log.Snapshot(len(p.h.log.Events)-1).Entities(), p.a.log.Snapshot(len(p.a.log.Events)-1).Entities(), p.h.task.cellText)
	hs, as := p.lastEvents(m.compare.cursor)
	d = append(d, diffStates(p.h.log.Snapshot(hs).Entities(), p.a.log.Snapshot(as).Entities(), p.h.task.cellText)...)
	if len(d) == 0 {
		t.Skip("the example's H and R never differ")
	}
	bare := func(s string) string { return strings.Join(strings.Fields(s), "") }
	body := bare(strings.Join(m.compare.stateDiffLines(16), " "))
	for _, x := range d {
		if !strings.Contains(body, bare(x.h)) || !strings.Contains(body, bare(x.a)) {
			t.Fatalf("%s · %s: H %q or A %q is cut:\n%s", x.entity, x.field, x.h, x.a, strings.Join(m.compare.stateDiffLines(16), "\n"))
		}
	}
}

// TestKeysTypedWhilePageOpensActOnIt: keys typed after Browse's enter,
// before the Inspector opens, act on the Inspector.
func TestKeysTypedWhilePageOpensActOnIt(t *testing.T) {
	m := newTestApp(t, 80, 24, false)
	press(t, m, "/", "PH-H05")
	_, open := m.Update(tea.KeyMsg{Type: tea.KeyEnter})
	for _, k := range []string{"t", "t"} {
		m.Update(keyMsgs(k)[0])
	}
	if m.page != pageBrowse {
		t.Fatal("the Inspector opened before the keys: the test proves nothing")
	}
	drive(t, m, open)
	if got := m.inspect.current().label; got != "attribution control" {
		t.Fatalf("enter t t landed on %q, want the attribution control", got)
	}
}

// TestCompareAndEditorKeepEarlyKeys: keys typed while Compare certifies
// its pair or the editor replays H act once they are on screen.
func TestCompareAndEditorKeepEarlyKeys(t *testing.T) {
	m := openExample(t, 80, 24)
	task := m.inspect.task
	_, load := m.Update(openCompareMsg{task: task, kind: "pair", h: task.HonestTraj, a: task.Witness})
	m.Update(keyMsgs("$")[0])
	drive(t, m, load)
	if m.compare.p == nil || m.compare.cursor != len(m.compare.p.rows)-1 {
		t.Fatalf("$ typed while Compare loaded did not reach it:\n%s", screen(m))
	}
	_, load = m.Update(openEditorMsg{task: task, start: task.Witness, kind: "pair"})
	for _, k := range []string{"$", "d"} {
		m.Update(keyMsgs(k)[0])
	}
	drive(t, m, load)
	if len(m.editor.steps) != len(task.Witness.Steps)-1 || !m.editor.modified {
		t.Fatalf("$ d typed while the editor loaded left %d steps:\n%s", len(m.editor.steps), screen(m))
	}
}
