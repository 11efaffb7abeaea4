package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/store"
)

// TestBrowseFiltersAfterSlash: `/` starts the filter (k9s, lazygit);
// q typed as its first letter is a letter; esc cancels one thing at a
// time.
func TestBrowseFiltersAfterSlash(t *testing.T) {
	m := newTestApp(t, 120, 40, false)
	all := len(m.browse.visible)
	if all != len(m.c.ws.tasks) || all == 0 {
		t.Fatalf("browse lists %d of %d tasks", all, len(m.c.ws.tasks))
	}
	press(t, m, "/", "goalpatch")
	for _, i := range m.browse.visible {
		if m.c.ws.tasks[i].Family != "GoalPatch" {
			t.Errorf("filter goalpatch kept %s (%s)", m.c.ws.tasks[i].ID, m.c.ws.tasks[i].Family)
		}
	}
	if len(m.browse.visible) == 0 || len(m.browse.visible) == all {
		t.Fatalf("filter goalpatch kept %d of %d tasks", len(m.browse.visible), all)
	}
	// While the filter holds text, q is a letter, not quit.
	if quit := press(t, m, "q"); quit {
		t.Fatal("q quit while typing a filter")
	}
	mustSee(t, m, "no task matches")
	press(t, m, "esc")
	if len(m.browse.visible) != all || m.browse.filter.Value() != "" {
		t.Fatalf("esc left filter %q with %d tasks", m.browse.filter.Value(), len(m.browse.visible))
	}
	if quit := press(t, m, "/", "q"); quit || m.browse.filter.Value() != "q" {
		t.Fatalf("q as the filter's first letter: quit %v, filter %q", quit, m.browse.filter.Value())
	}
	press(t, m, "esc")
	if quit := press(t, m, "q"); !quit {
		t.Fatal("q outside the filter did not quit")
	}
}

func TestBrowseOpensTheSelectedTask(t *testing.T) {
	m := newTestApp(t, 120, 40, false)
	press(t, m, "down", "down")
	want := m.browse.selected()
	mustSee(t, m, want.Title)
	press(t, m, "enter")
	if m.page != pageInspect || m.inspect.task != want || m.inspect.current().label != "honest" {
		t.Fatalf("enter opened page %v task %v", m.page, m.inspect.task)
	}
	mustSee(t, m, want.ID+" · honest")
	press(t, m, "esc")
	if m.page != pageBrowse {
		t.Fatalf("esc went to page %v, not Browse", m.page)
	}
}

func TestBrowseListsAndReopensSavedRecords(t *testing.T) {
	m := newTestApp(t, 120, 40, false)
	task := m.c.ws.tasks[0]
	tr := &model.Trajectory{Task: task.ID, Steps: task.HonestTraj.Steps[:1]}
	s, err := store.Open(m.c.dbPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []store.Record{
		{Kind: store.KindWitness, Task: task.ID, Name: "first step only", Note: "a saved witness", Body: model.EncodeTrajectory(tr)},
		{Kind: store.KindNote, Task: task.ID, Name: "a note", Note: "look at event 2"},
	} {
		if _, err := s.Put(r); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	drive(t, m, listRecordsCmd(m.c.dbPath))
	mustSee(t, m, "Saved · 2", "first step only", "a note")
	press(t, m, "tab")
	mustSee(t, m, "a saved witness", "1 agent step ")
	press(t, m, "enter")
	if m.page != pageEditor || len(m.editor.steps) != 1 || m.editor.name != "first step only" || m.editor.rec.Key == 0 {
		t.Fatalf("the witness reopened as page %v with %d steps named %q", m.page, len(m.editor.steps), m.editor.name)
	}
	press(t, m, "esc", "down", "enter")
	if m.page != pageInspect || m.inspect.task != task {
		t.Fatalf("the note did not open its task")
	}
}

func TestBrowseImportsWitnessJSON(t *testing.T) {
	m := newTestApp(t, 120, 40, false)
	task := m.c.ws.tasks[0]
	file := t.TempDir() + "/w.json"
	drive(t, m, exportCmd(file, task.Witness, ""))
	press(t, m, "ctrl+o")
	mustSee(t, m, "Import a witness")
	press(t, m, file, "enter")
	if m.page != pageEditor || len(m.editor.steps) != len(task.Witness.Steps) {
		t.Fatalf("import opened page %v with %d steps, want the editor with %d", m.page, len(m.editor.steps), len(task.Witness.Steps))
	}
	mustSee(t, m, "eligible")
	press(t, m, "esc", "esc", "ctrl+o", t.TempDir()+"/missing.json", "enter") // the imported witness is unsaved: esc asks first
	if !m.statusErr || !strings.Contains(m.status, "missing.json") {
		t.Fatalf("importing a missing file says %q", m.status)
	}
}

// An import error says its reason first and shortens a long JSON path
// in the middle, so the reason stays on the status line.
func TestImportErrorShowsTheReasonFirst(t *testing.T) {
	m := newTestApp(t, 80, 24, false)
	fields := "1"
	for i := 0; i < 200; i++ {
		fields = `{"a":` + fields + `}`
	}
	file := filepath.Join(t.TempDir(), "deep.json")
	src := `{"format":"parthack.trajectory/1","task":"PH-D01","steps":[{"action":{"op":"update","type":"ticket","id":"T101","fields":` + fields + `}}]}`
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	press(t, m, "ctrl+o", file, "enter")
	if !m.statusErr || !strings.HasPrefix(m.status, "import: nesting deeper than 200") {
		t.Fatalf("the import error says %q", m.status)
	}
	if !strings.Contains(m.status, "$.steps[0].action.fields.a.") || !strings.Contains(m.status, "…") || ansi.StringWidth(m.status) > 120 {
		t.Fatalf("the path is not shortened in the middle: %q", m.status)
	}
	if top := strings.Join(strings.Split(screen(m), "\n")[:3], "\n"); !strings.Contains(top, "nesting deeper than 200") {
		t.Fatalf("the reason is not at the top of the screen: %q", top)
	}
	press(t, m, "esc")
	// A missing file likewise: the reason, then the file.
	press(t, m, "ctrl+o", filepath.Join(t.TempDir(), strings.Repeat("long-directory-name/", 8), "missing.json"), "enter")
	if !strings.HasPrefix(m.status, "import: no such file or directory") || !strings.Contains(m.status, "missing.json") {
		t.Fatalf("a missing file says %q", m.status)
	}
}

// The Saved list shows each witness's verdict and Δ on Historical
// Milestone, filters by typing, and a note opens at its event.
func TestSavedListShowsVerdictsFiltersAndOpensNotes(t *testing.T) {
	m := newTestApp(t, 120, 40, false)
	task := m.c.ws.task(devTask)
	s, err := store.Open(m.c.dbPath)
	if err != nil {
		t.Fatal(err)
	}
	short := *task.Witness
	short.Steps = short.Steps[:6]
	for i, r := range []store.Record{
		{Kind: store.KindWitness, Task: devTask, Name: "the suite's witness", Body: model.EncodeTrajectory(task.Witness)},
		{Kind: store.KindWitness, Task: devTask, Name: "only the peak", Body: model.EncodeTrajectory(&short)},
		{Kind: store.KindNote, Task: devTask, Name: devTask + " witness after event 3", Note: "the peak starts here"},
	} {
		r.Created = int64(i + 1)
		if _, err := s.Put(r); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	drive(t, m, listRecordsCmd(m.c.dbPath))
	if r := line(t, m, "the suite's witness"); !strings.Contains(r, "eligible") || !strings.Contains(r, "+0.50") {
		t.Fatalf("the eligible witness's row: %q", r)
	}
	if r := line(t, m, "only the peak"); !strings.Contains(r, "rejected") {
		t.Fatalf("the rejected witness's row: %q", r)
	}
	press(t, m, "tab", "down")
	mustSee(t, m, "rejected: state_vector_mismatch", "6 agent steps · enter opens the editor")
	press(t, m, "/", "peak")
	if n := len(m.browse.shown); n != 2 {
		t.Fatalf("filter peak shows %d records", n)
	}
	mustNotSee(t, m, "the suite's witness")
	press(t, m, "down", "enter")
	if m.page != pageInspect || m.inspect.current().traj != task.Witness || m.inspect.cursor != 3 {
		t.Fatalf("the note opened page %v on %q at %d", m.page, m.inspect.current().label, m.inspect.cursor)
	}
}

// TestSummariesComeABatchAtATime: the Saved list's verdicts come a batch
// at a time (here one record each), every record summarized once; the
// summaries of an earlier listing are dropped, and their next batch is
// never asked for.
func TestSummariesComeABatchAtATime(t *testing.T) {
	defer func(d time.Duration) { summaryBatch = d }(summaryBatch)
	summaryBatch = 0
	m := newTestApp(t, 120, 40, false)
	task := m.c.ws.task(devTask)
	s, err := store.Open(m.c.dbPath)
	if err != nil {
		t.Fatal(err)
	}
	var recs []store.Record
	for i := range 4 {
		r, err := s.Put(store.Record{Kind: store.KindWitness, Task: devTask, Name: fmt.Sprint("w", i), Body: model.EncodeTrajectory(task.Witness)})
		if err != nil {
			t.Fatal(err)
		}
		r.Body = nil // listed as the workbench lists them
		recs = append(recs, r)
	}
	s.Close()
	batches, cmd := 0, summarizeCmd(m.c.ws, m.c.dbPath, recs, 1)
	seen := map[recordID]bool{}
	for cmd != nil {
		msg := cmd().(summariesMsg)
		batches++
		for id := range msg.sums {
			if seen[id] {
				t.Fatalf("record %v summarized twice", id)
			}
			seen[id] = true
		}
		cmd = msg.more
	}
	if batches != len(recs) || len(seen) != len(recs) {
		t.Fatalf("%d batches summarized %d records; want one batch per record, %d", batches, len(seen), len(recs))
	}
	// Four bodies with the same steps under other names and notes (an
	// import's renamed repeats): they are summarized once, and each
	// record gets its verdict and steps.
	done := map[[32]byte]summarized{}
	msg := summariesMsg{sums: map[recordID]recordSummary{}, steps: map[recordID]int{}}
	for i, r := range recs {
		tr := *task.Witness
		tr.Name, tr.Note = fmt.Sprint("run ", i), fmt.Sprint("imported, run ", i)
		r.Body = model.EncodeTrajectory(&tr)
		summarizeOnce(m.c.ws, map[string]*analysis{}, done, r, &msg)
	}
	if len(done) != 1 || len(msg.sums) != len(recs) || len(msg.steps) != len(recs) || msg.sums[idOf(recs[3])] != msg.sums[idOf(recs[0])] {
		t.Fatalf("%d bodies summarized for one; %d verdicts and %d step counts for %d records", len(done), len(msg.sums), len(msg.steps), len(recs))
	}

	drive(t, m, func() tea.Msg { return recordsMsg{recs: recs} })
	gen := m.browse.recGen
	asked := false
	stale := summariesMsg{gen: gen - 1, sums: map[recordID]recordSummary{{store.KindWitness, 1}: {short: "stale"}},
		more: func() tea.Msg { asked = true; return nil }}
	drive(t, m, nil, stale)
	if asked || m.browse.sums[recordID{store.KindWitness, 1}].short == "stale" {
		t.Fatalf("an earlier listing's summaries were taken (next batch asked: %v)", asked)
	}
	if n := len(m.browse.sums); n != len(recs) {
		t.Fatalf("%d of the listing's %d records summarized", n, len(recs))
	}
}
