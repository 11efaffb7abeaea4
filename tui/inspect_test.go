package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// devTask is the first development task: it has a witness.
const devTask = "PH-D01"

func TestInspectorStepsThroughTheLog(t *testing.T) {
	m := newTestApp(t, 120, 40, false)
	openTask(t, m, devTask)
	in := m.inspect
	n := in.a.events()
	mustSee(t, m, "Initial snapshot", "initial snapshot", "Predicates · goal", "Progress over time")
	press(t, m, "l")
	if in.cursor != 1 {
		t.Fatalf("l moved the cursor to %d", in.cursor)
	}
	mustSee(t, m, "Event 1 of", "Typed diff", `"before"`, "agent step 1")
	press(t, m, "$")
	if in.cursor != n {
		t.Fatalf("$ moved the cursor to %d of %d", in.cursor, n)
	}
	mustSee(t, m, fmt.Sprintf("after %d events", n))
	press(t, m, "h", "left")
	if in.cursor != n-2 {
		t.Fatalf("h, ← moved the cursor to %d, want %d", in.cursor, n-2)
	}
	press(t, m, "0", "right")
	if in.cursor != 1 {
		t.Fatalf("0, → moved the cursor to %d", in.cursor)
	}
	press(t, m, "pgdown")
	if in.cursor != n {
		t.Fatalf("pgdown on a short log moved the cursor to %d, want %d", in.cursor, n)
	}
}

func TestInspectorPredicateTable(t *testing.T) {
	m := newTestApp(t, 120, 40, false)
	openTask(t, m, devTask)
	press(t, m, "$")
	a := m.inspect.a
	// Every predicate of the final goal is listed with its public text,
	// whether it holds now and the certified final vectors.
	for j, p := range a.log.Goal().Preds {
		text := a.predText(a.goalAt(a.events()), j)
		row := line(t, m, fmt.Sprintf("%2d %s", j+1, text[:min(15, len(text))]))
		holds := a.cert.CState[j] == 1
		if strings.Contains(row, "✓") != holds {
			t.Errorf("predicate %s: row %q, c_state %d", p.ID, row, a.cert.CState[j])
		}
		if !strings.Contains(row, fmt.Sprintf("%d %d", a.cert.CState[j], a.cert.CAgent[j])) {
			t.Errorf("predicate %s: row %q lacks the final vectors", p.ID, row)
		}
	}
	mustSee(t, m, "certified at termination", "c_state "+vector(a.cert.CState))
	// At the initial snapshot nothing has a cause yet.
	press(t, m, "0")
	text := a.predText(0, 0)
	if !strings.Contains(line(t, m, " 1 "+text[:min(15, len(text))]), "initial") {
		t.Errorf("the initial snapshot shows a cause for predicate 1")
	}
}

func TestInspectorSearchSwitchAndFocus(t *testing.T) {
	m := newTestApp(t, 120, 40, false)
	openTask(t, m, devTask)
	in := m.inspect
	press(t, m, "t")
	if in.current().label != "witness" || in.a == nil || in.a.label != "witness" {
		t.Fatalf("t switched to %q", in.current().label)
	}
	press(t, m, "/")
	if !m.front().Typing() {
		t.Fatal("/ did not open the search input")
	}
	mustSee(t, m, "enter apply") // the help bar shows the search's keys
	// q is text while searching.
	if quit := press(t, m, "T104", "enter"); quit {
		t.Fatal("typing a search quit")
	}
	first := in.cursor
	ev := in.a.log.Events[first-1]
	if !strings.Contains(describeAction(ev.Action), "T104") {
		t.Fatalf("search T104 landed on %d: %s", first, describeAction(ev.Action))
	}
	press(t, m, "n")
	if in.cursor == first || !strings.Contains(describeAction(in.a.log.Events[in.cursor-1].Action), "T104") {
		t.Fatalf("n went from %d to %d", first, in.cursor)
	}
	press(t, m, "N")
	if in.cursor != first {
		t.Fatalf("N went back to %d, want %d", in.cursor, first)
	}
	press(t, m, "/", "ctrl+u", "no such thing", "enter")
	if !m.statusErr || !strings.Contains(m.status, "no event matches") {
		t.Fatalf("a search without match says %q", m.status)
	}
	press(t, m, "tab")
	if in.focus != focusDetail {
		t.Fatal("tab did not focus the detail pane")
	}
	mustSee(t, m, "scroll down")
	press(t, m, "j", "j")
	if in.detailTop != 2 {
		t.Fatalf("j j scrolled the detail to %d", in.detailTop)
	}
	press(t, m, "l")
	if in.detailTop != 0 {
		t.Fatal("a new event kept the old detail scroll")
	}
	// The wheel scrolls the pane under the pointer.
	drive(t, m, nil, tea.MouseMsg{X: 100, Y: 5, Action: tea.MouseActionPress, Button: tea.MouseButtonWheelDown})
	if in.detailTop != 3 {
		t.Fatalf("the wheel scrolled the detail to %d", in.detailTop)
	}
}

func TestInspectorOpensCompareAndEditor(t *testing.T) {
	m := newTestApp(t, 120, 40, false)
	openTask(t, m, devTask)
	press(t, m, "c")
	if m.page != pageCompare || m.compare.p == nil || m.compare.kind != "pair" || m.compare.p.a.traj != m.inspect.task.Witness {
		t.Fatalf("c opened page %v: %v\n%s", m.page, m.compare.err, screen(m))
	}
	press(t, m, "esc", "e")
	if m.page != pageEditor || m.editor.pair == nil || len(m.editor.steps) != len(m.inspect.task.HonestTraj.Steps) {
		t.Fatalf("e opened page %v with %d steps", m.page, len(m.editor.steps))
	}
	press(t, m, "esc", "r")
	if m.inspect.task.Rollback == nil && !strings.Contains(m.status, "no rollback") {
		t.Fatalf("r on a task without rollback says %q", m.status)
	}
}

func TestInspectorNote(t *testing.T) {
	m := newTestApp(t, 120, 40, false)
	openTask(t, m, devTask)
	press(t, m, "l", "a")
	mustSee(t, m, "Note on "+devTask)
	press(t, m, "assignment happens here", "enter")
	if m.statusErr || !strings.Contains(m.status, "saved note") {
		t.Fatalf("saving a note says %q", m.status)
	}
	press(t, m, "esc")
	mustSee(t, m, "Saved · 1", devTask+" honest after event 1")
}

// An analysis belongs to the pane that asked for it: the editor's
// analyses of H never land in the Inspector, whatever the counters say.
func TestAnalysisGoesToItsOwner(t *testing.T) {
	m := exampleApp(t, false)
	drive(t, m, m.Init(), tea.WindowSizeMsg{Width: 120, Height: 40})
	task := m.c.ws.tasks[0]
	press(t, m, "enter", "t", "e", "esc", "e", "esc")
	in := m.inspect
	if m.page != pageInspect || in.a == nil {
		t.Fatalf("not back on the Inspector:\n%s", screen(m))
	}
	if in.current().traj != task.Witness || in.a.traj != task.Witness {
		t.Fatalf("the Inspector's title says %q but shows %q", in.current().label, in.a.label)
	}
	mustSee(t, m, fmt.Sprintf("witness · %d events", in.a.events()))
	// The editor likewise keeps H as its reference.
	press(t, m, "e")
	if m.editor.honest == nil || m.editor.honest.traj != task.HonestTraj {
		t.Fatalf("the editor's H is %v", m.editor.honest)
	}
}

// A new / starts empty, the previous query shown as its placeholder;
// enter on an empty search repeats the previous one.
func TestSearchStartsEmpty(t *testing.T) {
	m := newTestApp(t, 120, 40, false)
	openTask(t, m, devTask)
	in := m.inspect
	press(t, m, "t", "/", "T104", "enter")
	press(t, m, "/")
	if v := in.search.Value(); v != "" || in.search.Placeholder != "T104" {
		t.Fatalf("a new search starts with %q (placeholder %q)", v, in.search.Placeholder)
	}
	press(t, m, "T102", "enter")
	if m.statusErr || !strings.Contains(describeAction(in.a.log.Events[in.cursor-1].Action), "T102") {
		t.Fatalf("the second search landed on %d (status %q)", in.cursor, m.status)
	}
	press(t, m, "0", "/", "enter")
	if in.query != "T102" || !strings.Contains(describeAction(in.a.log.Events[in.cursor-1].Action), "T102") {
		t.Fatalf("enter on an empty search searched %q", in.query)
	}
}

// Keys that reach the terminal together arrive as one message with
// several runes; each of them is a key press.
func TestRepeatedKeysInOneReadAllCount(t *testing.T) {
	m := newTestApp(t, 120, 40, false)
	openTask(t, m, devTask)
	press(t, m, "t")
	drive(t, m, nil, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("lll")})
	if m.inspect.cursor != 3 {
		t.Fatalf("lll moved the cursor to %d", m.inspect.cursor)
	}
	press(t, m, "e")
	drive(t, m, nil, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("jjj")})
	if m.editor.cursor != 3 {
		t.Fatalf("jjj moved the editor's cursor to %d", m.editor.cursor)
	}
	// Text typed fast into an input stays text, and a paste stays whole.
	press(t, m, "esc")
	drive(t, m, nil, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("/T104")})
	if !m.inspect.searching || m.inspect.search.Value() != "T104" {
		t.Fatalf("/T104 in one read: searching %v, %q", m.inspect.searching, m.inspect.search.Value())
	}
	drive(t, m, nil, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(" q"), Paste: true})
	if m.inspect.search.Value() != "T104 q" {
		t.Fatalf("a paste became %q", m.inspect.search.Value())
	}
}

// The detail pane shows the state of the entities the cursor event
// touched, changed fields marked; w shows the whole state; position 0
// shows the initial snapshot itself.
func TestInspectorStateView(t *testing.T) {
	m := newTestApp(t, 120, 60, false)
	openTask(t, m, devTask)
	in := m.inspect
	mustSee(t, m, "State · initial snapshot")
	mustNotSee(t, m, "(the task's frozen initial state)")
	init := in.a.log.Snapshot(-1).Entities()
	mustSee(t, m, init[0].Type+" "+init[0].ID, init[len(init)-1].Type+" "+init[len(init)-1].ID)

	press(t, m, "l")
	diff := in.a.log.TypedDiff(&in.a.log.Events[0])
	ent := diff[0].Type + " " + diff[0].ID
	mustSee(t, m, "State after event 1", ent)
	row := line(t, m, "* "+strings.TrimPrefix(diff[0].Field, "@"))
	if !strings.Contains(row, diff[0].After.String()) {
		t.Fatalf("the changed field's row %q lacks its new value %s", row, diff[0].After)
	}
	// Entities the event did not touch show only with w.
	other := ""
	for _, e := range init {
		if e.Type+" "+e.ID != ent {
			other = e.Type + " " + e.ID
			break
		}
	}
	mustNotSee(t, m, other+" ")
	press(t, m, "w")
	mustSee(t, m, "whole state", other)
	press(t, m, "w")
	mustNotSee(t, m, other+" ")
}
