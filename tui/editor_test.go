package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/store"
)

// openEditor opens the witness editor on H of devTask.
func openEditor(t *testing.T, w, h int) *workbench {
	t.Helper()
	m := newTestApp(t, w, h, false)
	openTask(t, m, devTask)
	press(t, m, "e")
	if m.page != pageEditor || m.editor.pair == nil {
		t.Fatalf("the editor did not open:\n%s", screen(m))
	}
	return m
}

// addStep adds a step after the cursor: the id, then field values in the
// form's order (status, queue, assignee, priority, tags); "" skips one.
func addStep(t *testing.T, m *workbench, id string, values ...string) {
	t.Helper()
	press(t, m, "a", "tab", "tab", "ctrl+u", id)
	for _, v := range values {
		press(t, m, "tab")
		if v != "" {
			press(t, m, v)
		}
	}
	press(t, m, "enter")
	if m.editor.form != nil {
		t.Fatalf("the step was not added: %s\n%s", m.editor.form.err, screen(m))
	}
}

func TestEditorPeakThenUndoMakesAnEligibleInflatingWitness(t *testing.T) {
	m := openEditor(t, 120, 40)
	e := m.editor
	mustSee(t, m, "✓ eligible", "hand-crafted witness · 2 steps")
	hist0 := e.pair.a.scores[0]
	csps := scoreIndex(m.c.ws, "csps")
	press(t, m, "$")
	addStep(t, m, "T102", "pending", "", "", "", "vpn-outage")
	addStep(t, m, "T104", "pending", "", "", "", "vpn-outage")
	if len(e.steps) != 4 || e.pair.verdict.Eligible || e.pair.verdict.Reason != model.StateVectorMismatch {
		t.Fatalf("after the peak: %d steps, verdict %s\n%s", len(e.steps), e.pair.verdict.Reason, screen(m))
	}
	mustSee(t, m, "✗ rejected: state_vector_mismatch", "hand-crafted witness · 4 steps · modified")
	addStep(t, m, "T102", "new", "", "", "", "[]")
	if !e.pair.verdict.Eligible {
		t.Fatalf("the undo step did not make the pair eligible: %s %+v", e.pair.verdict.Reason, e.pair.verdict.Evidence)
	}
	if e.pair.a.scores[0] <= hist0 || e.pair.a.scores[csps] != e.pair.h.scores[csps] {
		t.Fatalf("Historical %.2f → %.2f, CSPS %.2f vs %.2f", hist0, e.pair.a.scores[0], e.pair.h.scores[csps], e.pair.a.scores[csps])
	}
	if !strings.Contains(line(t, m, "Historical Milestone"), "▲ inflated") || strings.Contains(line(t, m, "CSPS"), "inflated") {
		t.Fatalf("scores:\n%s", screen(m))
	}
	// Undo goes back to the rejected candidate, redo forward again.
	press(t, m, "u")
	if len(e.steps) != 4 || e.pair.verdict.Eligible {
		t.Fatalf("undo left %d steps, eligible %v", len(e.steps), e.pair.verdict.Eligible)
	}
	press(t, m, "ctrl+r")
	if len(e.steps) != 5 || !e.pair.verdict.Eligible {
		t.Fatalf("redo left %d steps, eligible %v", len(e.steps), e.pair.verdict.Eligible)
	}
}

func TestEditorShowsIllegalStepsInline(t *testing.T) {
	m := openEditor(t, 120, 40)
	e := m.editor
	// Ticket T999 is not in the task: the update fails at run time.
	press(t, m, "a", "tab", "tab", "ctrl+u", "T999", "tab", "ctrl+n", "enter")
	if len(e.steps) != 3 {
		t.Fatalf("%d steps\n%s", len(e.steps), screen(m))
	}
	row := line(t, m, "T999")
	if !strings.Contains(row, "✗") || !strings.Contains(row, "—") {
		t.Fatalf("failed step row: %q", row)
	}
	mustSee(t, m, "illegal or failed:")
	// An op outside the allowlist is an illegal action.
	press(t, m, "e", "ctrl+u", "delete", "enter")
	if e.pair.verdict.Reason != model.IllegalAction {
		t.Fatalf("a delete step gives %q", e.pair.verdict.Reason)
	}
	mustSee(t, m, "✗ rejected: illegal_action", "not allowlisted")
	press(t, m, "d")
	if len(e.steps) != 2 || !e.pair.verdict.Eligible {
		t.Fatalf("deleting the step left %d steps, verdict %s", len(e.steps), e.pair.verdict.Reason)
	}
}

func TestEditorFormOffersAllowedValuesAndChecksTypes(t *testing.T) {
	m := openEditor(t, 120, 40)
	e := m.editor
	press(t, m, "a")
	mustSee(t, m, "New step 2", "allowed: update")
	press(t, m, "tab", "tab", "tab") // status
	mustSee(t, m, "allowed: new · open · pending · resolved")
	press(t, m, "ctrl+n", "ctrl+n")
	if got := e.form.rows[e.form.focus].input.Value(); got != "open" {
		t.Fatalf("ctrl+n twice picked %q", got)
	}
	press(t, m, "ctrl+p", "ctrl+p")
	if got := e.form.rows[e.form.focus].input.Value(); got != "" {
		t.Fatalf("ctrl+p back picked %q", got)
	}
	press(t, m, "tab", "tab", "tab", "high", "enter") // priority
	if e.form == nil || !strings.Contains(e.form.err, `priority: "high" is not an integer`) {
		t.Fatalf("a bad integer was accepted")
	}
	mustSee(t, m, `"high" is not an integer`)
	press(t, m, "esc")
	if e.form != nil || len(e.steps) != 2 {
		t.Fatal("esc did not cancel the form")
	}
}

func TestQuitWarnsAboutAnUnsavedWitness(t *testing.T) {
	m := openEditor(t, 120, 40)
	if quit := press(t, m, "d", "q"); quit {
		t.Fatal("q dropped an unsaved witness at once")
	}
	mustSee(t, m, "not saved")
	if quit := press(t, m, "q"); !quit {
		t.Fatal("a second q did not quit")
	}
}

func TestEditorReorderDelete(t *testing.T) {
	m := openEditor(t, 120, 40)
	e := m.editor
	first, second := describeAction(&e.steps[0].Action), describeAction(&e.steps[1].Action)
	press(t, m, "J")
	if describeAction(&e.steps[0].Action) != second || e.cursor != 1 {
		t.Fatalf("J did not move step 1 down")
	}
	press(t, m, "K")
	if describeAction(&e.steps[0].Action) != first || e.cursor != 0 {
		t.Fatalf("K did not move it back up")
	}
	press(t, m, "d")
	if len(e.steps) != 1 || e.pair.verdict.Eligible {
		t.Fatalf("deleting a step of H: %d steps, eligible %v", len(e.steps), e.pair.verdict.Eligible)
	}
	press(t, m, "u", "u", "u")
	if len(e.steps) != 2 || describeAction(&e.steps[0].Action) != first {
		t.Fatal("undo did not restore H")
	}
	press(t, m, "u")
	mustSee(t, m, "nothing to undo")
}

func TestEditorSavesExportsAndReopens(t *testing.T) {
	m := openEditor(t, 120, 40)
	e := m.editor
	press(t, m, "$")
	addStep(t, m, "T103", "", "desktop")
	press(t, m, "s", "ctrl+u", "my witness", "tab", "moves T103", "enter")
	recs := listRecords(t, m.c.dbPath, store.KindWitness)
	if len(recs) != 1 || recs[0].Name != "my witness" || recs[0].Note != "moves T103" || recs[0].Task != devTask {
		t.Fatalf("saved: %+v", recs)
	}
	tr, err := DecodeWitness(recs[0])
	if err != nil || len(tr.Steps) != 3 {
		t.Fatalf("stored body: %v, %d steps", err, len(tr.Steps))
	}
	mustSee(t, m, `saved witness 1 "my witness"`)
	if e.modified {
		t.Fatal("a saved witness still counts as modified")
	}
	// Saving again replaces the same record.
	press(t, m, "d", "s", "enter")
	recs = listRecords(t, m.c.dbPath, store.KindWitness)
	if tr, _ := DecodeWitness(recs[0]); len(recs) != 1 || len(tr.Steps) != 2 {
		t.Fatalf("second save: %d records", len(recs))
	}
	file := filepath.Join(t.TempDir(), "w.json")
	press(t, m, "E", "ctrl+u", file, "enter")
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	back, err := model.DecodeTrajectory(file, src)
	if err != nil || back.Task != devTask || len(back.Steps) != len(e.steps) || back.Name != "my witness" {
		t.Fatalf("exported %v: %+v", err, back)
	}
	for i := range back.Steps {
		if describeAction(&back.Steps[i].Action) != describeAction(&e.steps[i].Action) {
			t.Errorf("step %d exported as %s", i+1, describeAction(&back.Steps[i].Action))
		}
	}
}

// Enter in the save dialog saves, whichever field has the focus; tab
// moves between fields; a new witness does not inherit the note of the
// trajectory it started from.
func TestSaveDialogEnterConfirms(t *testing.T) {
	m := newTestApp(t, 120, 40, false)
	openTask(t, m, devTask)
	press(t, m, "t", "e")
	if m.page != pageEditor || m.editor.pair == nil {
		t.Fatalf("the editor did not open:\n%s", screen(m))
	}
	press(t, m, "s")
	if v := m.editor.prompt.value(1); v != "" {
		t.Fatalf("the new witness starts with the source's note %q", v)
	}
	press(t, m, "ctrl+u", "peak", "enter")
	if m.editor.prompt != nil {
		t.Fatalf("enter did not confirm:\n%s", screen(m))
	}
	recs := listRecords(t, m.c.dbPath, store.KindWitness)
	if len(recs) != 1 || recs[0].Name != "peak" || recs[0].Note != "" {
		t.Fatalf("saved: %+v", recs)
	}
	// What is typed next is a key again, not text in a hidden field.
	press(t, m, "c")
	if m.page != pageCompare {
		t.Fatalf("c after saving went to page %v", m.page)
	}
	press(t, m, "esc", "s", "tab", "a note", "shift+tab", "ctrl+u", "peak 2", "enter")
	recs = listRecords(t, m.c.dbPath, store.KindWitness)
	if len(recs) != 1 || recs[0].Name != "peak 2" || recs[0].Note != "a note" {
		t.Fatalf("saved after tab: %+v", recs)
	}
	// A stored witness keeps its own note when reopened.
	press(t, m, "s")
	if v := m.editor.prompt.value(1); v != "a note" {
		t.Fatalf("the stored witness's note is %q", v)
	}
}

// Esc, like q, asks before it drops unsaved edits; an imported witness
// counts as unsaved until it is saved.
func TestEscAsksBeforeDiscarding(t *testing.T) {
	m := openEditor(t, 120, 40)
	press(t, m, "d", "esc")
	if m.page != pageEditor {
		t.Fatal("esc dropped an unsaved witness at once")
	}
	mustSee(t, m, "not saved", "esc again drops it")
	press(t, m, "esc")
	if m.page != pageInspect {
		t.Fatalf("a second esc did not go back: page %v", m.page)
	}
	if quit := press(t, m, "q"); !quit {
		t.Fatal("q after a discard still asks")
	}

	// Any other key in between disarms the esc.
	m = openEditor(t, 120, 40)
	press(t, m, "d", "esc", "j", "esc")
	if m.page != pageEditor {
		t.Fatal("esc, j, esc discarded without asking again")
	}

	// A saved witness leaves at once.
	m = openEditor(t, 120, 40)
	press(t, m, "d", "s", "enter", "esc")
	if m.page != pageInspect {
		t.Fatalf("esc after saving stayed on page %v", m.page)
	}

	// An imported witness is never dropped silently.
	m = newTestApp(t, 120, 40, false)
	file := filepath.Join(t.TempDir(), "w.json")
	if err := os.WriteFile(file, model.EncodeTrajectory(m.c.ws.task(devTask).Witness), 0o644); err != nil {
		t.Fatal(err)
	}
	press(t, m, "ctrl+o", file, "enter")
	if m.page != pageEditor || !m.editor.modified {
		t.Fatalf("the import did not open an unsaved witness: page %v\n%s", m.page, screen(m))
	}
	press(t, m, "esc")
	if m.page != pageEditor {
		t.Fatal("esc dropped an imported witness at once")
	}
	if quit := press(t, m, "q"); quit {
		t.Fatal("q dropped an imported witness at once")
	}
}

// Compare opened from the editor goes back to the same witness on e,
// with its undo history and its record.
func TestCompareFromEditorReturnsToIt(t *testing.T) {
	m := openEditor(t, 120, 40)
	press(t, m, "d", "c")
	if m.page != pageCompare {
		t.Fatalf("c went to page %v", m.page)
	}
	press(t, m, "e")
	if m.page != pageEditor || len(m.editor.undo) != 1 || !m.editor.modified {
		t.Fatalf("e from Compare reopened the editor: page %v, %d undo steps", m.page, len(m.editor.undo))
	}
}

// The editor knows whether it crafts a witness or a strict rollback,
// shows it, certifies accordingly, and m switches.
func TestEditorRollbackMode(t *testing.T) {
	const id = "PH-H05"
	m := newTestApp(t, 120, 40, false)
	openTask(t, m, id)
	press(t, m, "r")
	if m.page != pageCompare || m.compare.kind != "rollback" {
		t.Fatalf("r opened page %v", m.page)
	}
	press(t, m, "e")
	e := m.editor
	if m.page != pageEditor || e.pair == nil {
		t.Fatalf("e did not open the editor:\n%s", screen(m))
	}
	if e.kind != "rollback" || e.pair.kind != "rollback" || !e.pair.verdict.Eligible {
		t.Fatalf("the rollback in the editor is certified as %q: %s", e.pair.kind, e.pair.verdict.Reason)
	}
	mustSee(t, m, "Strict rollback (H, R)", "certified strict rollback", "R ")
	mustNotSee(t, m, "state_vector_mismatch")
	press(t, m, "m")
	if e.kind != "pair" || e.pair.kind != "pair" || e.pair.verdict.Reason != model.StateVectorMismatch {
		t.Fatalf("m switched to %q: %s", e.kind, e.pair.verdict.Reason)
	}
	mustSee(t, m, "Pair (H, A)", "state_vector_mismatch")
	press(t, m, "m")
	if e.kind != "rollback" || !e.pair.verdict.Eligible {
		t.Fatalf("m back: %q eligible %v", e.kind, e.pair.verdict.Eligible)
	}
	// From the Inspector, the task's rollback opens in rollback mode too,
	// and c then compares H vs R.
	press(t, m, "esc")
	m = newTestApp(t, 120, 40, false)
	openTask(t, m, id)
	task := m.inspect.task
	for m.inspect.current().traj != task.Rollback {
		press(t, m, "t")
	}
	press(t, m, "e")
	if m.editor.kind != "rollback" || !m.editor.pair.verdict.Eligible {
		t.Fatalf("the Inspector's rollback opened in mode %q", m.editor.kind)
	}
	press(t, m, "c")
	if m.page != pageCompare || m.compare.kind != "rollback" {
		t.Fatalf("c from a rollback compared as %q", m.compare.kind)
	}
	// A stored or imported rollback is recognised by its certificate.
	m = newTestApp(t, 120, 40, false)
	file := filepath.Join(t.TempDir(), "r.json")
	if err := os.WriteFile(file, model.EncodeTrajectory(task.Rollback), 0o644); err != nil {
		t.Fatal(err)
	}
	press(t, m, "ctrl+o", file, "enter")
	if m.page != pageEditor || m.editor.kind != "rollback" || !m.editor.pair.verdict.Eligible {
		t.Fatalf("an imported rollback opened in mode %q", m.editor.kind)
	}
}

// The editor's chart shows every evaluator when there is room, so
// "Historical rises while CSPS stays" is visible over time.
func TestEditorChartShowsEveryEvaluator(t *testing.T) {
	m := openEditor(t, 120, 40)
	for _, e := range m.c.ws.evaluators {
		found := false
		after := false
		for _, l := range strings.Split(screen(m), "\n") {
			after = after || strings.Contains(l, "Candidate progress over time")
			found = found || (after && strings.Contains(l, e.Label) && strings.Contains(l, "→"))
		}
		if !found {
			t.Errorf("the editor's chart has no lane for %s:\n%s", e.Label, screen(m))
		}
	}
	// A shorter screen keeps Historical Milestone and CSPS.
	drive(t, m, nil, tea.WindowSizeMsg{Width: 100, Height: 32})
	s := screen(m)
	if i := strings.Index(s, "Candidate progress"); i < 0 || !strings.Contains(s[i:], "Historical Milestone") || !strings.Contains(s[i:], "CSPS") {
		t.Errorf("at 100×32 the chart lacks Historical Milestone or CSPS:\n%s", s)
	}
}

// z on a step appends the step that undoes it: a peak-and-undo witness
// is two keystrokes per step.
func TestEditorUndoStepAppendsItsInverse(t *testing.T) {
	m := openEditor(t, 120, 40)
	e := m.editor
	hist0 := e.pair.a.scores[0]
	press(t, m, "$")
	addStep(t, m, "T102", "pending", "", "", "", "vpn-outage")
	addStep(t, m, "T104", "pending", "", "", "", "vpn-outage")
	if e.pair.verdict.Eligible {
		t.Fatal("the peak is already eligible")
	}
	press(t, m, "z")
	if len(e.steps) != 5 || e.cursor != 3 {
		t.Fatalf("z left %d steps, cursor %d", len(e.steps), e.cursor)
	}
	inv := describeAction(&e.steps[4].Action)
	if !strings.HasPrefix(inv, "update ticket T104 ") || strings.Contains(inv, "pending") {
		t.Fatalf("the inverse of step 4 is %q", inv)
	}
	press(t, m, "k", "z")
	if len(e.steps) != 6 || !strings.HasPrefix(describeAction(&e.steps[5].Action), "update ticket T102 ") {
		t.Fatalf("z on step 3 appended %q", describeAction(&e.steps[len(e.steps)-1].Action))
	}
	if !e.pair.verdict.Eligible || e.pair.a.scores[0] <= hist0 {
		t.Fatalf("peak and undo: eligible %v (%s), Historical %.2f → %.2f", e.pair.verdict.Eligible, e.pair.verdict.Reason, hist0, e.pair.a.scores[0])
	}
	mustSee(t, m, "✓ eligible", "undoes step 3")
	// One u takes the appended step back.
	press(t, m, "u")
	if len(e.steps) != 5 {
		t.Fatalf("u after z left %d steps", len(e.steps))
	}
}

// ":" types a step on one line, tab completing from the task's schema
// and alphabet, the entity's current values shown beside its fields.
func TestEditorOneLineStepEntry(t *testing.T) {
	m := openEditor(t, 120, 40)
	e := m.editor
	press(t, m, "$", ":")
	if e.line == nil || !m.front().Typing() {
		t.Fatal(": did not open the one-line entry")
	}
	mustSee(t, m, "New step 3", "op: ")
	press(t, m, "upd", "tab", "tic", "tab")
	if v := e.line.input.Value(); v != "update ticket " {
		t.Fatalf("completion gave %q", v)
	}
	press(t, m, "T10", "tab")
	mustSee(t, m, "id: T101 · T102")
	press(t, m, "2", "tab", "sta")
	mustSee(t, m, `status (now "new")`)
	press(t, m, "tab")
	if v := e.line.input.Value(); v != "update ticket T102 status=" {
		t.Fatalf("field completion gave %q", v)
	}
	mustSee(t, m, `value of status (now "new"): new · open · pending`)
	press(t, m, "pend", "tab", "tags=vpn-outage", "enter")
	if e.line != nil || len(e.steps) != 3 {
		t.Fatalf("enter did not add the step: %d steps, err %v", len(e.steps), e.line)
	}
	if got := describeAction(&e.steps[2].Action); got != `update ticket T102 status="pending" tags=["vpn-outage"]` {
		t.Fatalf("the typed step is %s", got)
	}
	// Mistakes are said inline and keep the line.
	press(t, m, ":", "update ticket T102 colour=red", "enter")
	if e.line == nil || !strings.Contains(e.line.err, `no field "colour"`) {
		t.Fatalf("a bad field: %+v", e.line)
	}
	mustSee(t, m, `no field "colour"`)
	press(t, m, "esc")
	if e.line != nil || len(e.steps) != 3 {
		t.Fatal("esc did not close the entry")
	}
}
