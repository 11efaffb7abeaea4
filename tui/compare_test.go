package tui

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/store"
)

// openPair shows H of task id against cand on the Compare screen.
func openPair(t *testing.T, m *workbench, id, kind string, cand *model.Trajectory) *suiteTask {
	t.Helper()
	task := m.c.ws.task(id)
	drive(t, m, m.c.navigate(openCompareMsg{task: task, kind: kind, h: task.HonestTraj, a: cand}))
	if m.page != pageCompare || m.compare.p == nil {
		t.Fatalf("compare did not open: %v\n%s", m.compare.err, screen(m))
	}
	return task
}

func TestCompareWitnessInflatesHistoricalScores(t *testing.T) {
	m := newTestApp(t, 120, 40, false)
	task := openPair(t, m, devTask, "pair", m.c.ws.task(devTask).Witness)
	mustSee(t, m, "✓ eligible", "H · honest", "A · historical witness", "Certified vectors", "Evaluator scores")
	hist := line(t, m, "Historical Milestone")
	if !strings.Contains(hist, "▲ inflated") || !strings.Contains(hist, "+") {
		t.Errorf("Historical Milestone is not called out: %q", hist)
	}
	if csps := line(t, m, "CSPS"); strings.Contains(csps, "inflated") || !strings.Contains(csps, "+0.00") {
		t.Errorf("CSPS row: %q", csps)
	}
	// Every event of each log appears once, in order, and events the two
	// logs share sit on one row.
	p := m.compare.p
	nextH, nextA := 0, 0
	for _, r := range p.rows {
		if r.h >= 0 {
			if r.h != nextH {
				t.Fatalf("H event %d out of order", r.h)
			}
			nextH++
		}
		if r.a >= 0 {
			if r.a != nextA {
				t.Fatalf("A event %d out of order", r.a)
			}
			nextA++
		}
	}
	if nextH != p.h.events() || nextA != p.a.events() {
		t.Fatalf("rows cover %d of %d H events and %d of %d A events", nextH, p.h.events(), nextA, p.a.events())
	}
	shared := align(p.h.log, p.h.log)
	for i, r := range shared {
		if r.h != i || r.a != i {
			t.Fatalf("H against itself aligns row %d as %+v", i, r)
		}
	}
	press(t, m, "s", "enter")
	recs := listRecords(t, m.c.dbPath, store.KindRun)
	if len(recs) != 1 || recs[0].Task != task.ID || recs[0].Note != "eligible" {
		t.Fatalf("saved runs: %+v", recs)
	}
	// The run reopens as the same comparison.
	press(t, m, "esc")
	m.page, m.back = pageBrowse, nil
	press(t, m, "tab", "enter")
	if m.page != pageCompare || m.compare.p == nil || !m.compare.p.verdict.Eligible || len(m.compare.p.a.traj.Steps) != len(task.Witness.Steps) {
		t.Fatalf("the run did not reopen:\n%s", screen(m))
	}
}

func TestCompareRejectionHighlightsTheEvidence(t *testing.T) {
	m := newTestApp(t, 120, 40, false)
	h := m.c.ws.task(devTask).HonestTraj
	// Without H's last step a predicate H satisfies stays false.
	cand := &model.Trajectory{Task: devTask, Name: "short", Steps: slices.Clone(h.Steps[:len(h.Steps)-1])}
	openPair(t, m, devTask, "pair", cand)
	v := m.compare.p.verdict
	if v.Eligible || v.Reason != model.StateVectorMismatch || v.Evidence == nil || v.Evidence.Predicate == 0 {
		t.Fatalf("verdict %+v", v)
	}
	mustSee(t, m, "✗ rejected: state_vector_mismatch", "predicate "+strconv.Itoa(v.Evidence.Predicate)+" ("+v.Evidence.PredID+")", "not eligible")
	// H's row that caused the predicate is marked, and the cursor is on it.
	hSeq, _ := m.compare.p.evidenceRows()
	if hSeq < 0 {
		t.Fatal("no evidence row in H")
	}
	ev := describeAction(m.compare.p.h.log.Events[hSeq].Action)
	marked := line(t, m, fmt.Sprintf("!%*d", len(strconv.Itoa(m.compare.p.h.events())), hSeq+1))
	if !strings.Contains(marked, ev[:10]) {
		t.Errorf("marked row %q is not H's event %d (%s)", marked, hSeq+1, ev)
	}
	if m.compare.p.rows[m.compare.cursor].h != hSeq {
		t.Errorf("cursor on row %d, not the evidence", m.compare.cursor)
	}
	press(t, m, "0")
	press(t, m, "v")
	if m.compare.p.rows[m.compare.cursor].h != hSeq {
		t.Errorf("v did not jump back to the evidence")
	}
	for _, l := range []string{"Historical Milestone", "CSPS"} {
		if strings.Contains(line(t, m, l), "inflated") {
			t.Errorf("a rejected pair calls %s inflated", l)
		}
	}
}

func TestCompareRollbackMissedByHistoricalCredit(t *testing.T) {
	m := newTestApp(t, 80, 24, false)
	h := m.c.ws.task(devTask).HonestTraj
	last := h.Steps[len(h.Steps)-1].Action
	// Undo H's last write: T101's priority goes back.
	undo := model.Action{Op: last.Op, Type: last.Type, ID: last.ID, Fields: []model.Assign{{Field: "priority", Value: model.Int(3)}}}
	r := &model.Trajectory{Task: devTask, Name: "undo priority", Steps: append(slices.Clone(h.Steps), model.Step{Action: undo})}
	openPair(t, m, devTask, "rollback", r)
	v := m.compare.p.verdict
	if !v.Eligible {
		t.Fatalf("rollback rejected: %s %+v", v.Reason, v.Evidence)
	}
	mustSee(t, m, "certified strict rollback", "R · undo priority")
	if !strings.Contains(line(t, m, "Historical Milestone"), "misses") {
		t.Errorf("Historical Milestone does not miss the rollback:\n%s", screen(m))
	}
	if !strings.Contains(line(t, m, "CSPS"), "detects") {
		t.Errorf("CSPS does not detect the rollback:\n%s", screen(m))
	}
}

func listRecords(t *testing.T, path string, kind store.Kind) []store.Record {
	t.Helper()
	s, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	recs, err := s.List(kind)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// From Compare, enter opens the cursor row's event in the Inspector
// (diff, predicate table), and d shows where the two states differ at the
// cursor and at termination.
func TestCompareOpensEventsAndDiffsStates(t *testing.T) {
	m := newTestApp(t, 120, 40, false)
	task := openPair(t, m, "PH-H05", "pair", m.c.ws.task("PH-H05").Attribution)
	aEv := m.compare.aEv
	press(t, m, "v", "enter")
	if m.page != pageInspect || m.inspect.current().traj != task.Attribution || m.inspect.cursor != aEv+1 {
		t.Fatalf("enter opened page %v on %q at %d, want the evidence event %d", m.page, m.inspect.current().label, m.inspect.cursor, aEv+1)
	}
	mustSee(t, m, fmt.Sprintf("Event %d of", aEv+1), "Typed diff", "Predicates · goal")
	press(t, m, "esc")
	if m.page != pageCompare {
		t.Fatalf("esc went to page %v", m.page)
	}
	press(t, m, "d")
	mustSee(t, m, "State: H vs A", "at termination", "the same")
	press(t, m, "0")
	mustSee(t, m, "after row 1")
	press(t, m, "d")
	mustNotSee(t, m, "State: H vs A")
}
