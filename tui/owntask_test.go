package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// ownTaskDir copies the access-review fixture (a per-type allowlist,
// honest, rollback and witness files) into a fresh directory, as a user's
// own task, and returns its task file.
func ownTaskDir(t *testing.T) string {
	t.Helper()
	src := filepath.Join("..", "testdata", "certifier", "accessreview")
	dir := t.TempDir()
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "task.json")
}

func openApp(t *testing.T, opts Options) *workbench {
	t.Helper()
	m, err := newApp(opts)
	if err != nil {
		t.Fatal(err)
	}
	if drive(t, m, m.Init(), tea.WindowSizeMsg{Width: 120, Height: 40}) {
		t.Fatal("the workbench quit while opening")
	}
	return m
}

// TestWorkbenchOpensATaskFile: --task FILE opens the user's task first in
// Browse with its trajectories (t cycles them); a witness saved on it in
// the editor is in the store under its id and reopens, certified, the
// next time the task is opened.
func TestWorkbenchOpensATaskFile(t *testing.T) {
	file := ownTaskDir(t)
	db := filepath.Join(t.TempDir(), "store.db")
	m := openApp(t, Options{DBPath: db, TaskFile: file})
	own := m.browse.selected()
	if own == nil || own.ID != "EX-AR" || own.Split != ownSplit || own.M != 4 || own.Honest.String() != "2/4" {
		t.Fatalf("selected %+v", own)
	}
	if len(m.c.ws.tasks) != 25 {
		t.Errorf("%d tasks, want the suite's 24 and the user's", len(m.c.ws.tasks))
	}
	mustSee(t, m, "EX-AR", "Quarterly access review")
	press(t, m, "enter")
	if m.page != pageInspect || m.inspect.task != own || m.inspect.current().label != "honest" {
		t.Fatalf("enter opened page %v", m.page)
	}
	var labels []string
	for _, ch := range own.stored() {
		labels = append(labels, ch.label)
	}
	if strings.Join(labels, " ") != "honest rollback witness" {
		t.Errorf("trajectories %v", labels)
	}
	press(t, m, "esc", "ctrl+o", filepath.Join(filepath.Dir(file), "witness.json"), "enter")
	if m.page != pageEditor || m.editor.task != own {
		t.Fatalf("importing the witness opened page %v", m.page)
	}
	mustSee(t, m, "eligible")
	press(t, m, "s", "ctrl+u", "peak then undo", "enter")
	if m.editor.rec.Key == 0 {
		t.Fatalf("not saved: %s", m.status)
	}

	// Without the task file its witness is not listed, but counted.
	without := openApp(t, Options{DBPath: db})
	mustSee(t, without, "Saved · 0", "nothing saved for these tasks; + 1 saved for")
	mustNotSee(t, without, "peak then undo")

	again := openApp(t, Options{DBPath: db, TaskFile: file})
	mustSee(t, again, "peak then undo")
	press(t, again, "tab")
	mustSee(t, again, "eligible")
	press(t, again, "enter")
	if again.page != pageEditor || again.editor.task.ID != "EX-AR" || again.editor.name != "peak then undo" {
		t.Fatalf("the saved witness reopened as page %v", again.page)
	}
}

// TestBrowseImportsATaskFile: ctrl+o on a task file opens it, first in
// the list, with its trajectories; a broken one says where it is broken.
func TestBrowseImportsATaskFile(t *testing.T) {
	file := ownTaskDir(t)
	m := openApp(t, Options{DBPath: filepath.Join(t.TempDir(), "store.db")})
	press(t, m, "ctrl+o", file, "enter")
	if m.page != pageInspect || m.inspect.task.ID != "EX-AR" || m.c.ws.tasks[0].ID != "EX-AR" {
		t.Fatalf("import opened page %v", m.page)
	}
	press(t, m, "esc")
	if m.browse.selected().ID != "EX-AR" {
		t.Errorf("Browse is on %s", m.browse.selected().ID)
	}
	b, _ := os.ReadFile(file)
	if err := os.WriteFile(file, []byte(strings.Replace(string(b), `"ops": ["update"], "fields": ["status", "reviewer"]`, `"ops": ["update"]`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	press(t, m, "ctrl+o", file, "enter")
	if !m.statusErr || !strings.Contains(m.status, "op update needs at least one writable field") {
		t.Errorf("a broken task file says %q", m.status)
	}
	if len(m.c.ws.tasks) != 25 {
		t.Errorf("%d tasks after re-importing", len(m.c.ws.tasks))
	}
}

// TestTaskFileWithASuiteID: a task file that keeps a suite task's id is
// refused, so its witnesses never mix with the suite task's.
func TestTaskFileWithASuiteID(t *testing.T) {
	file := ownTaskDir(t)
	b, _ := os.ReadFile(file)
	if err := os.WriteFile(file, []byte(strings.Replace(string(b), `"id": "EX-AR"`, `"id": "PH-D01"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := newApp(Options{DBPath: filepath.Join(t.TempDir(), "store.db"), TaskFile: file}); err == nil || !strings.Contains(err.Error(), "is the suite's") {
		t.Fatalf("newApp: %v", err)
	}
}
