package tui

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/store"
)

// TestCtrlCCancelsAPromptAndAsksLikeQ: ctrl+c in the `:` line cancels
// the line; at top level with an unsaved witness it asks, and a second
// ctrl+c quits; with nothing unsaved it quits at once.
func TestCtrlCCancelsAPromptAndAsksLikeQ(t *testing.T) {
	m := openEditor(t, 80, 24)
	press(t, m, "$", "d", ":", "update lap")
	if quit := press(t, m, "ctrl+c"); quit || m.editor.line != nil || m.page != pageEditor {
		t.Fatalf("ctrl+c in the step line: quit %v, line open %v", quit, m.editor.line != nil)
	}
	if quit := press(t, m, "ctrl+c"); quit {
		t.Fatal("ctrl+c quit with an unsaved witness")
	}
	mustSee(t, m, "the witness in the editor is not saved: ctrl+c again quits anyway")
	if quit := press(t, m, "ctrl+c"); !quit {
		t.Fatal("a second ctrl+c did not quit")
	}
	fresh := newTestApp(t, 80, 24, false)
	if quit := press(t, fresh, "ctrl+c"); !quit {
		t.Fatal("ctrl+c with nothing unsaved did not quit")
	}
}

// TestSearchWitnessAsksBeforeReplacingEdits: e on the search's result
// does not replace a modified witness until asked twice.
func TestSearchWitnessAsksBeforeReplacingEdits(t *testing.T) {
	m := openExample(t, 80, 24)
	press(t, m, "e", "$", "d")
	steps := slices.Clone(m.editor.steps)
	send(m, "S")
	send(m, "enter")
	task := m.c.ws.task("EX-01")
	m.Update(attackDoneMsg{id: m.attack.run.id, res: &searchResult{task: task, edits: 2, moves: "one-field updates", witness: task.Witness, exhausted: true}})
	press(t, m, "e")
	if !m.editor.modified || len(m.editor.steps) != len(steps) || !m.attack.witness() {
		t.Fatalf("e replaced the modified witness at once:\n%s", screen(m))
	}
	mustSee(t, m, "not saved: e again replaces it")
	press(t, m, "e")
	if len(m.editor.steps) != len(task.Witness.Steps) {
		t.Fatalf("a second e did not open the search's witness:\n%s", screen(m))
	}
}

// TestCompareAsksBeforeDroppingTheSearchWitness: the search's witness in
// Compare counts as unsaved: esc and q ask; once saved as a run, esc
// goes back.
func TestCompareAsksBeforeDroppingTheSearchWitness(t *testing.T) {
	m := openExample(t, 80, 24)
	press(t, m, "S", "enter", "enter")
	if m.page != pageCompare || !m.compare.unsaved {
		t.Fatalf("the search's witness did not open in Compare as unsaved:\n%s", screen(m))
	}
	press(t, m, "esc")
	if m.page != pageCompare {
		t.Fatal("esc dropped the search's witness")
	}
	mustSee(t, m, "not saved: esc again drops it")
	if quit := press(t, m, "x", "q"); quit {
		t.Fatal("q dropped the search's witness")
	}
	press(t, m, "esc", "s", "enter")
	if m.compare.unsaved {
		t.Fatalf("s did not save the witness as a run: %s", m.status)
	}
	press(t, m, "esc")
	if m.page != pageInspect {
		t.Fatalf("esc after saving did not go back: %s", m.status)
	}
}

// TestTooSmallShowsTheQuestion: on a terminal too small to draw, the
// question q asks is on the screen and goes with the next key; no key
// but q and ctrl+c acts on the page nobody sees.
func TestTooSmallShowsTheQuestion(t *testing.T) {
	m := openEditor(t, 80, 24)
	press(t, m, "d")
	steps := len(m.editor.steps)
	drive(t, m, nil, tea.WindowSizeMsg{Width: 60, Height: 18})
	if quit := press(t, m, "q"); quit {
		t.Fatal("q quit with an unsaved witness")
	}
	mustSee(t, m, "terminal too small", "the witness in the editor is not saved: q again quits", "a terminal of 80×24 shows it again")
	press(t, m, "d", "a", "s")
	if len(m.editor.steps) != steps || m.editor.Typing() {
		t.Fatalf("keys acted on the unseen editor: %d steps (had %d), typing %v", len(m.editor.steps), steps, m.editor.Typing())
	}
	if strings.Contains(screen(m), "not saved") {
		t.Fatalf("the question stayed after another key:\n%s", screen(m))
	}
	if quit := press(t, m, "q"); quit {
		t.Fatal("q after another key quit at once")
	}
	if quit := press(t, m, "q"); !quit {
		t.Fatal("q twice did not quit")
	}
}

// TestFormKeepsAnIllegalField: an imported step that writes a field
// the agent may not write keeps it through the form, marked illegal.
func TestFormKeepsAnIllegalField(t *testing.T) {
	m := openEditor(t, 120, 40)
	task := m.editor.task.Public
	var typ, field string
	for _, et := range task.Schema.Types {
		for _, fd := range et.Fields {
			if typ == "" && task.Allowlist.AllowsType(et.Name) && !task.Allowlist.AllowsField(et.Name, fd.Name) && fd.Kind == model.KindString {
				typ, field = et.Name, fd.Name
			}
		}
	}
	if typ == "" {
		t.Skip("the task has no field the agent may not write")
	}
	id := task.Alphabet[typ].IDs[0]
	tr := &model.Trajectory{Task: task.ID, Steps: []model.Step{{Action: model.Action{Op: model.OpUpdate, Type: typ, ID: id,
		Fields: []model.Assign{{Field: field, Value: model.Str("imported")}}}}}}
	drive(t, m, m.c.navigate(openEditorMsg{task: m.editor.task, start: tr, unsaved: true}))
	press(t, m, "enter")
	mustSee(t, m, field+"   imported", "✗ illegal: the agent may not write")
	press(t, m, "enter")
	if got := m.editor.steps[0].Fields; len(got) != 1 || got[0].Field != field || got[0].Value != model.Str("imported") {
		t.Fatalf("the form dropped the illegal field: %+v", got)
	}
}

// TestSaveAfterTheRecordVanished: when another workbench deleted the
// stored witness, save says so, keeps the witness and saves it anew.
func TestSaveAfterTheRecordVanished(t *testing.T) {
	m := openEditor(t, 120, 40)
	press(t, m, "s", "ctrl+u", "mine", "enter")
	if m.editor.rec.Key == 0 {
		t.Fatalf("not saved: %s", m.status)
	}
	s, err := store.Open(m.c.dbPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(store.KindWitness, m.editor.rec.Key); err != nil {
		t.Fatal(err)
	}
	s.Close()
	press(t, m, "d", "s", "enter")
	if !strings.Contains(m.status, "was deleted from the store meanwhile") || !strings.Contains(m.status, "s saves it as a new one") {
		t.Fatalf("status %q", m.status)
	}
	press(t, m, "esc", "s", "enter")
	if m.editor.rec.Key == 0 || m.editor.modified || !strings.HasPrefix(m.status, "saved witness 2") {
		t.Fatalf("not saved anew: %s", m.status)
	}
}

// TestDeleteAsksAndRefreshReloads: del asks before it deletes a saved
// record; ctrl+l reloads the lists another process changed.
func TestDeleteAsksAndRefreshReloads(t *testing.T) {
	m := newTestApp(t, 120, 40, false)
	s, err := store.Open(m.c.dbPath)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Put(store.Record{Kind: store.KindNote, Task: devTask, Name: "outside", Note: "written by another process", Created: 1}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	mustSee(t, m, "Saved · 0")
	press(t, m, "ctrl+l")
	mustSee(t, m, "Saved · 1", "outside")
	press(t, m, "tab", "ctrl+d")
	mustSee(t, m, "Saved · 1", `delete note 1 "outside"? del again deletes it`)
	press(t, m, "ctrl+d")
	mustSee(t, m, "Saved · 0")
}

// TestExportWritesAFullPathAndKeepsTheConversation: E on a tau-bench
// run offers a full path, writes the run with its conversation, and
// says where in full.
func TestExportWritesAFullPathAndKeepsTheConversation(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	m := tauApp(t, 120, 40)
	openTask(t, m, "TAU-A04")
	press(t, m, "e", "E")
	if got := m.editor.prompt.value(0); !filepath.IsAbs(got) || filepath.Dir(got) != dir {
		t.Fatalf("the export prompt offers %q, not a full path in %s", got, dir)
	}
	press(t, m, "ctrl+u", "run.json", "enter")
	want := filepath.Join(dir, "run.json")
	if m.status != "exported to "+want+" with the run's conversation" {
		t.Fatalf("status %q", m.status)
	}
	src, err := os.ReadFile(want)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := model.DecodeTrajectory(want, src)
	if err != nil || len(tr.Transcript) == 0 {
		t.Fatalf("the export lost the conversation: %v", err)
	}
}
