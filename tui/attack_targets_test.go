package tui

import (
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	_ "github.com/parthack/parthack/domains/all"
)

// TestSearchOffersTheBenchmarksEvaluators: on a tau2 task the search
// attacker's target list holds tau2's own evaluators after the paper's,
// then the field's,
// and a search against tau2's partial-action credit names it in its
// result; on the suite the list is the paper's alone.
func TestSearchOffersTheBenchmarksEvaluators(t *testing.T) {
	m, err := newApp(Options{DBPath: filepath.Join(t.TempDir(), "store.db"), Domain: "tau2-retail"})
	if err != nil {
		t.Fatal(err)
	}
	drive(t, m, m.Init(), tea.WindowSizeMsg{Width: 120, Height: 40})
	openTask(t, m, "T2R-101")
	p := m.attack
	p.setup(m.inspect.task, choice{})
	var names []string
	for _, e := range p.targets() {
		names = append(names, e.Name)
	}
	if got := strings.Join(names, " "); !strings.Contains(got, "historical_milestone") || !strings.HasSuffix(got, "tau2_action tau2_partial_action tau2_prm_partial_action toolsandbox_milestone agentboard_progress") {
		t.Fatalf("targets on a tau2 task: %s", got)
	}
	suite := &attackPanel{c: m.c}
	suite.setup(&suiteTask{ID: "PH-H01"}, choice{})
	if n := len(suite.targets()); n != len(m.c.ws.evaluators) {
		t.Fatalf("a suite task offers %d targets, want the paper's %d", n, len(m.c.ws.evaluators))
	}
}
