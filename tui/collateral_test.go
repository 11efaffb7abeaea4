package tui

import (
	"strings"
	"testing"

	"github.com/parthack/parthack/model"
)

// TestCompareShowsCollateral: beside the verdict of a real domain's
// witness, Compare says whether it ends in exactly H's state; x lists
// each cell it ends with apart from H, with both values and the goal
// predicates that read it. TAU-A01's double cancel keeps H's certified
// vectors, but refunds and charges again (issue 19).
func TestCompareShowsCollateral(t *testing.T) {
	m := tauApp(t, 80, 24)
	task := m.c.ws.task("TAU-A01")
	cancel := model.Step{Action: model.Action{Op: model.OpCall, Tool: "cancel_reservation", Args: model.MustJSON(`{"reservation_id":"Z7GOZK"}`)}}
	for _, tc := range []struct {
		name  string
		steps []model.Step
		want  []string
	}{
		{"H itself", task.HonestTraj.Steps, []string{"✓ eligible", "= ends in exactly H's state"}},
		{"double cancel", []model.Step{cancel, cancel},
			[]string{"✓ eligible", "≠ ends with H's certified vectors but not in H's state: 2 cells differ · x lists"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := &model.Trajectory{Task: task.ID, Name: tc.name, Steps: tc.steps}
			drive(t, m, m.c.navigate(openCompareMsg{task: task, kind: "pair", h: task.HonestTraj, a: tr}))
			if m.page != pageCompare || m.compare.p == nil {
				t.Fatalf("Compare did not open:\n%s", screen(m))
			}
			mustSee(t, m, tc.want...)
		})
	}
	press(t, m, "x")
	if m.overlay == nil {
		t.Fatalf("x opened nothing:\n%s", screen(m))
	}
	got := strings.Join(m.overlay.lines, "\n")
	for _, want := range []string{
		"reservation Z7GOZK · payment_history", "read by goal predicate 1",
		`H [{"amount":169,"payment_id":"gift_card_2200803"}]`,
		`A [{"amount":169,"payment_id":"gift_card_2200803"},{"amount":-`,
		"reservation Z7GOZK · status", `A "cancelled"`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the collateral lacks %q:\n%s", want, got)
		}
	}
	mustSee(t, m, "Collateral · TAU-A01 · A vs H")
}

// TestNoCollateralOffTheDomains: the suite's tasks have no benchmark
// state to compare: Compare says nothing of collateral and x is off.
func TestNoCollateralOffTheDomains(t *testing.T) {
	m := newTestApp(t, 120, 40, false)
	openTask(t, m, devTask)
	press(t, m, "c")
	if m.page != pageCompare || m.compare.p == nil || m.compare.p.collateral != nil {
		t.Fatalf("Compare on %s:\n%s", devTask, screen(m))
	}
	mustNotSee(t, m, "H's state", "collateral")
	press(t, m, "x")
	if m.overlay != nil {
		t.Fatal("x opened an overlay on a suite task")
	}
}
