package tui

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/parthack/parthack/domains"
)

// longModel is the model of the staged BFCL runs, as their files name it.
const longModel = "gpt-oss-120b-2025-11-12-main"

// bfclLongModelApp is bfclApp on the result file renamed for longModel.
func bfclLongModelApp(t *testing.T, w, h int) *workbench {
	t.Helper()
	dir := t.TempDir()
	file := filepath.Join(dir, longModel+"-multi_turn_base_result.json")
	if err := os.Rename(bfclResultFile(t, dir, bfclTask, "sort"), file); err != nil {
		t.Fatal(err)
	}
	d, err := domains.Lookup(bfclDomain)
	if err != nil {
		t.Fatal(err)
	}
	runs, err := domains.ReadRuns(d, []string{file})
	if err != nil {
		t.Fatal(err)
	}
	m, err := newApp(Options{DBPath: filepath.Join(t.TempDir(), "store.db"), Domain: bfclDomain, Runs: runs})
	if err != nil {
		t.Fatal(err)
	}
	drive(t, m, m.Init(), tea.WindowSizeMsg{Width: w, Height: h})
	return m
}

// tasksPane is the screen's Tasks box: each line's left pane, up to the
// box's right edge.
func tasksPane(m *workbench) string {
	var out []string
	for _, l := range strings.Split(screen(m), "\n") {
		if i := strings.Index(l, "┃"); i >= 0 {
			if j := strings.Index(l[i+len("┃"):], "┃"); j >= 0 {
				out = append(out, l[i+len("┃"):i+len("┃")+j])
			}
		}
	}
	return strings.Join(out, "\n")
}

// cutAgainstM is a cut family or models cell run into the m column
// ("gpt-oss-120b-2025-11-12…1").
var cutAgainstM = regexp.MustCompile(`…\d`)

// TestBrowseColumnsByNeed: Browse's task columns share the row by need.
// A column no task fills (BFCL's tags) takes no width and is not headed,
// and its width goes to a column that needs it: at 200×60 BFCL's models
// read whole (before: "gpt-oss-120b-2025-11-12…" beside an empty tags
// column). Where a cell must be cut it keeps a gap before the next
// column (before: "gpt-oss-120…1", "runs' mo…m"); tags where there are
// some keep their column (tau2 airline's "no goal").
func TestBrowseColumnsByNeed(t *testing.T) {
	cases := []struct {
		name      string
		open      func(t *testing.T) *workbench
		want, not []string
	}{
		{"bfcl 200x60", func(t *testing.T) *workbench { return bfclLongModelApp(t, 200, 60) },
			[]string{" ID ", "runs' models", " " + longModel + " 4  4/4"}, []string{"tags", "…"}},
		{"bfcl 120x38", func(t *testing.T) *workbench { return bfclLongModelApp(t, 120, 38) },
			[]string{"runs' models ", longModel + " 4  4/4"}, []string{"tags", "…"}},
		{"bfcl 80x24", func(t *testing.T) *workbench { return bfclLongModelApp(t, 80, 24) },
			[]string{"runs' models ", "gpt-oss-120b-… 4"}, []string{"tags"}},
		{"tau2-airline 200x60", func(t *testing.T) *workbench { return domainApp(t, "tau2-airline", 200, 60) },
			[]string{"tags", " no goal", "runs' models"}, nil},
		{"tau2-airline 120x40", func(t *testing.T) *workbench { return domainApp(t, "tau2-airline", 120, 40) },
			[]string{"tags", " no goal", "runs' models"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pane := tasksPane(c.open(t))
			for _, x := range c.want {
				if !strings.Contains(pane, x) {
					t.Errorf("the Tasks box lacks %q:\n%s", x, pane)
				}
			}
			for _, x := range c.not {
				if strings.Contains(pane, x) {
					t.Errorf("the Tasks box shows %q:\n%s", x, pane)
				}
			}
			if s := cutAgainstM.FindString(pane); s != "" {
				t.Errorf("a cut cell runs into the next column (%q):\n%s", s, pane)
			}
		})
	}
}

// TestTaskLineNamesTheFamilyOnce: the line under a task's title, in
// Browse and in the task overlay (I), names a benchmark's family once
// (before: "BFCL multi_turn_base · BFCL multi_turn_base · split …",
// "airline (tau-bench) · airline (tau-bench) · …"); the suite's tasks keep
// their family and domain.
func TestTaskLineNamesTheFamilyOnce(t *testing.T) {
	cases := []struct {
		name, family, want string
		open               func(t *testing.T) *workbench
		overlay            bool
	}{
		{"bfcl browse", "BFCL multi_turn_base", "BFCL multi_turn_base · split BFCL multi-turn (v4) · rollback included",
			func(t *testing.T) *workbench { return bfclApp(t, 200, 60) }, false},
		{"bfcl overlay", "BFCL multi_turn_base", "BFCL multi_turn_base · split BFCL multi-turn (v4) · m 4",
			func(t *testing.T) *workbench { return bfclApp(t, 200, 60) }, true},
		{"tau-airline browse", "airline (tau-bench)", "airline (tau-bench) · split tau-bench airline · rollback included",
			func(t *testing.T) *workbench { return domainApp(t, "tau-airline", 200, 60) }, false},
		{"suite browse", "Persistent multi-step", "Persistent multi-step · helpdesk · split example · rollback included",
			func(t *testing.T) *workbench {
				m := exampleApp(t, false)
				drive(t, m, m.Init(), tea.WindowSizeMsg{Width: 200, Height: 60})
				return m
			}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := c.open(t)
			if c.overlay {
				press(t, m, "I")
			}
			l := line(t, m, c.family+" · ")
			if !strings.Contains(l, c.want) || strings.Count(l, c.family) != 1 {
				t.Errorf("the task's line reads\n%s\nwant %q, the family once", l, c.want)
			}
		})
	}
}
