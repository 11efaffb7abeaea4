package tui

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/store"
)

// TestCtrlZSuspends: ctrl+z suspends the workbench as it does any
// terminal program, and undoes nothing; u undoes; ? says so (issue 30:
// ctrl+z undid in the editor and no overlay said so).
func TestCtrlZSuspends(t *testing.T) {
	m := openEditor(t, 80, 24)
	press(t, m, "$", "d")
	n := len(m.editor.steps)
	_, cmd := m.Update(tea.KeyMsg{Type: tea.KeyCtrlZ})
	if cmd == nil {
		t.Fatal("ctrl+z did nothing")
	}
	if _, ok := cmd().(tea.SuspendMsg); !ok {
		t.Fatal("ctrl+z does not suspend")
	}
	if len(m.editor.steps) != n {
		t.Fatal("ctrl+z undid the edit")
	}
	press(t, m, "u")
	if len(m.editor.steps) != n+1 {
		t.Fatal("u did not undo")
	}
	press(t, m, "?")
	if body := strings.Join(m.overlay.lines, "\n"); !strings.Contains(body, "ctrl+z") || !strings.Contains(body, "suspend (fg resumes)") {
		t.Fatalf("? does not say what ctrl+z does:\n%s", body)
	}
}

// TestExportNameIsAFileName: the export's default file name holds only
// letters, digits, dots, dashes and underscores, whatever the task's id
// and the witness's name hold (issue 30: telecom's held |, [, ] and :).
func TestExportNameIsAFileName(t *testing.T) {
	m := domainApp(t, "tau2-telecom", 80, 24)
	press(t, m, "enter", "e", "E")
	if m.editor.prompt == nil {
		t.Fatalf("E opened no prompt:\n%s", screen(m))
	}
	name := filepath.Base(m.editor.prompt.value(0))
	if strings.ContainsAny(name, "|[]: /\\*?\"<>") || !strings.HasSuffix(name, ".json") || !strings.HasPrefix(name, "T2T-mobile_data_issue-") || len(name) > 255 {
		t.Fatalf("the export's default name is %q", name)
	}
}

// TestSearchFormOffersWhatApplies: on a real domain's task the search
// form offers no --pairs (its moves are the task's tool calls) and
// offers --same-end, on by default; on the suite --pairs and --same-end
// are both choices, and the result names the end state it admitted
// (issue 30: the form offered --pairs where it cannot apply and lacked
// --same-end).
func TestSearchFormOffersWhatApplies(t *testing.T) {
	m := domainApp(t, "tau2-airline", 80, 24)
	openTask(t, m, "T2A-2")
	press(t, m, "S")
	mustSee(t, m, "moves   the task's tool calls", "end     ‹ only those ending in H's state ›")
	mustNotSee(t, m, "‹ the task's tool calls ›")
	press(t, m, "tab", "tab")
	if m.attack.field != setupEnd {
		t.Fatalf("tab tab from the target lands on field %d, not the end (the moves are no choice)", m.attack.field)
	}
	press(t, m, "esc")

	s := openExample(t, 80, 24)
	press(t, s, "S")
	mustSee(t, s, "moves   ‹ one-field updates ›", "end     ‹ any end state ›")
	press(t, s, "tab", "tab", "tab", "right")
	mustSee(t, s, "end     ‹ only those ending in H's state ›")
	press(t, s, "enter")
	if !s.attack.witness() && s.attack.state != attackDone {
		t.Fatalf("the search did not finish:\n%s", screen(s))
	}
	if !strings.Contains(strings.Join(s.attack.resultLines(200), " "), "within 2 edits ending in H's state") {
		t.Fatalf("the result does not name the end state it admitted:\n%s", screen(s))
	}
}

// TestBackToTheRunYouCameFrom: Inspector → c → enter on a row (the
// Inspector shows A's event) → esc → esc comes back to the Inspector on
// the run you came from, at its cursor (issue 30: it showed the
// candidate).
func TestBackToTheRunYouCameFrom(t *testing.T) {
	m := openExample(t, 80, 24)
	press(t, m, "l")
	press(t, m, "c")
	if m.page != pageCompare {
		t.Fatalf("c did not open Compare:\n%s", screen(m))
	}
	press(t, m, "enter")
	if m.page != pageInspect || m.inspect.current().label == "honest" {
		t.Fatalf("enter did not open the candidate's event:\n%s", screen(m))
	}
	press(t, m, "esc", "esc")
	if m.page != pageInspect || m.inspect.current().label != "honest" || m.inspect.cursor != 1 {
		t.Fatalf("esc esc came back to %q at %d, not to honest at 1:\n%s", m.inspect.current().label, m.inspect.cursor, screen(m))
	}
	mustSee(t, m, "EX-01 · honest (H)")
	press(t, m, "esc")
	if m.page != pageBrowse {
		t.Fatal("esc did not go back to Browse")
	}
}

// TestChartSaysWhatItLeavesOut: at 80×24 the Inspector's chart shows 4
// of its lanes and says how many more a taller screen shows; at 120×40
// it shows them all and says nothing (issue 30: 4 of 7 rows showed with
// no "+3 more").
func TestChartSaysWhatItLeavesOut(t *testing.T) {
	for _, tc := range []struct {
		w, h int
		more string
	}{{80, 24, "+3 more on a taller screen"}, {120, 40, ""}} {
		m := newTestApp(t, tc.w, tc.h, false)
		openTask(t, m, devTask)
		title := line(t, m, "Progress over time")
		if tc.more == "" && strings.Contains(title, "more") || tc.more != "" && !strings.Contains(title, tc.more) {
			t.Errorf("at %d×%d the chart's title is %q", tc.w, tc.h, title)
		}
	}
}

// TestNoteShowsAtItsEvent: a note written on an event shows at that
// event in the Inspector, whole, and its row in the log is marked ✎
// (issue 30: a note showed only in Browse).
func TestNoteShowsAtItsEvent(t *testing.T) {
	m := openExample(t, 80, 24)
	press(t, m, "l", "a", "the printer ticket closes here", "enter")
	mustSee(t, m, "✎ note 1", "the printer ticket closes here")
	press(t, m, "l")
	mustNotSee(t, m, "the printer ticket closes here")
	if row := line(t, m, "agent update ticket T2"); !strings.Contains(row, "✎1 ✓") {
		t.Fatalf("the noted event's row is not marked: %q", row)
	}
	press(t, m, "t")
	mustNotSee(t, m, "✎")
}

// TestCompareSaveAsksAName: s in Compare asks the name and note the run
// is saved under, and a second save replaces the run it saved (issue
// 30: s saved under a fixed name without asking, a new run per press).
func TestCompareSaveAsksAName(t *testing.T) {
	m := openExample(t, 80, 24)
	press(t, m, "c", "s")
	if m.compare.prompt == nil {
		t.Fatal("s did not ask a name")
	}
	mustSee(t, m, "Save as a run", "pair H honest vs")
	press(t, m, "ctrl+u", "printer run", "enter")
	recs := listRecords(t, m.c.dbPath, store.KindRun)
	if len(recs) != 1 || recs[0].Name != "printer run" {
		t.Fatalf("saved runs: %+v", recs)
	}
	press(t, m, "s")
	mustSee(t, m, "Save as a run (replaces saved run 1)")
	press(t, m, "enter")
	if recs := listRecords(t, m.c.dbPath, store.KindRun); len(recs) != 1 {
		t.Fatalf("a second save made %d runs", len(recs))
	}
}

// TestSavedListGivesTheLargestDelta: a witness that completes tau2's
// ACTION check is listed with ACTION's Δ, the largest, not Historical
// Milestone's (issue 30: the Saved list gave Historical Milestone's Δ
// for a witness found against tau2 ACTION).
func TestSavedListGivesTheLargestDelta(t *testing.T) {
	m := domainApp(t, "tau2-airline", 120, 40)
	// H is GPT-4.1's run, which sent a certificate of 100 where gold
	// sends 50: A sends gold's too.
	task := m.c.ws.task("T2A-2")
	for _, ch := range task.stored() {
		if ch.label == "gpt-4.1-trial0" {
			own := *task
			own.HonestTraj = ch.traj
			task = &own
		}
	}
	ws := newWorkspace([]*suiteTask{task})
	h, err := analyze(ws, task, task.HonestTraj, "honest")
	if err != nil {
		t.Fatal(err)
	}
	// A is H with the gold call H got wrong or left out, made as gold makes it.
	a := &model.Trajectory{Task: task.ID, Steps: slices.Clone(task.HonestTraj.Steps)}
	for _, g := range h.checks.golds {
		if g.Event == 0 {
			a.Steps = append(a.Steps, model.Step{Index: len(a.Steps), Action: model.Action{Op: model.OpCall, Tool: g.Ref.Tool, Args: g.Ref.Args}})
			break
		}
	}
	if len(a.Steps) == len(task.HonestTraj.Steps) {
		t.Fatal("H matches every gold action of T2A-2")
	}
	r := store.Record{Kind: store.KindWitness, Key: 1, Task: task.ID, Name: "completes ACTION", Body: model.EncodeTrajectory(a)}
	msg := &summariesMsg{sums: map[recordID]recordSummary{}, steps: map[recordID]int{}}
	summarize(ws, map[string]*analysis{}, r, a, msg)
	sum := msg.sums[idOf(r)]
	if sum.deltaOf != "tau2 ACTION" || sum.delta != 1 {
		t.Fatalf("the Saved list gives Δ %+.2f on %q, want +1 on tau2 ACTION", sum.delta, sum.deltaOf)
	}
	m.browse.records, m.browse.sums = []store.Record{r}, msg.sums
	m.browse.refilterRecords()
	press(t, m, "tab")
	mustSee(t, m, "Δ tau2 ACTION +1.00", "+1.00 ACTION")
}

// TestCallFormPickKeepsThePrefix: in the add-call form ctrl+n offers the
// tools (and values) that start with what was typed, in turn (issue 30:
// it ignored the prefix and offered the first tool of all).
func TestCallFormPickKeepsThePrefix(t *testing.T) {
	m := domainApp(t, "tau2-airline", 80, 24)
	openTask(t, m, "T2A-2")
	press(t, m, "e", "a")
	f := m.editor.call
	if f == nil {
		t.Fatalf("a opened no call form:\n%s", screen(m))
	}
	press(t, m, "ctrl+u", "update_res", "ctrl+n")
	first := f.rows[0].input.Value()
	press(t, m, "ctrl+n")
	second := f.rows[0].input.Value()
	if !strings.HasPrefix(first, "update_reservation_") || !strings.HasPrefix(second, "update_reservation_") || first == second {
		t.Fatalf("ctrl+n after update_res offered %q, then %q", first, second)
	}
	press(t, m, "ctrl+u", "zzz", "ctrl+n")
	if f.rows[0].input.Value() != "zzz" || !strings.Contains(f.err, `no value offered starts with "zzz"`) {
		t.Fatalf("ctrl+n with no tool offered: %q, %q", f.rows[0].input.Value(), f.err)
	}
}

// TestNoUserTelecomPhone: in tau2 telecom's no-user mode the agent holds
// the phone's tools and there is no user: the state view puts the
// phone's records under "the phone", not "the user's phone" (issue 30).
func TestNoUserTelecomPhone(t *testing.T) {
	m := domainApp(t, "tau2-telecom", 120, 40)
	press(t, m, "/", "T2T-solo", "enter")
	if m.page != pageInspect || !strings.HasPrefix(m.inspect.task.ID, "T2T-solo-") {
		t.Fatalf("no no-user task opened:\n%s", screen(m))
	}
	a := m.inspect.a
	body := strings.Join(m.c.stateLines(a, a.events(), true, 200), "\n")
	if !strings.Contains(body, "── the phone (no user: the agent's) ──") || strings.Contains(body, "the user's phone") {
		t.Fatalf("the no-user state view:\n%s", body)
	}
}

// TestPredicateCutsReadApart: on every task of every domain, at the
// predicate table's widths, different predicate texts of a goal read
// apart once cut, and each fits its width (issue 30: cut from the middle
// alone, "reservation XEHM4B has payment_history = […8938"}]" read as
// 59XX6W's, 18 goals of tau2 airline and 68 of retail had such pairs).
func TestPredicateCutsReadApart(t *testing.T) {
	for _, dom := range []string{"tau-airline", "tau2-airline", "tau2-retail", "tau2-telecom"} {
		m := domainApp(t, dom, 80, 24)
		for _, task := range m.c.ws.tasks {
			for _, g := range task.Public.Goals {
				var texts []string
				for _, p := range g.Predicates {
					texts = append(texts, p.Text)
				}
				for _, w := range []int{15, 30, 60} {
					seen := map[string]string{}
					for i, d := range distinctCuts(texts, w) {
						if ansi.StringWidth(d) > w {
							t.Errorf("%s: %q is wider than %d", task.ID, d, w)
						}
						if o, ok := seen[d]; ok && o != texts[i] {
							t.Errorf("%s at %d cells: %q and %q both read %q", task.ID, w, o, texts[i], d)
						}
						seen[d] = texts[i]
					}
				}
			}
		}
	}
}

// TestCompareAt80x24KeepsTheVerdictWhole: at 80×24 a rejected pair's
// Compare keeps the rejection sentence whole, the "not eligible" caveat
// and three rows of each log, and names every mismatching predicate and
// H's latest cause in words; the demo's Compare scenes too (issue 30: it
// cut the sentence, dropped the caveat, shrank both logs to 1–3 rows,
// named the first mismatch only and H's cause only as a marker).
func TestCompareAt80x24KeepsTheVerdictWhole(t *testing.T) {
	m := domainApp(t, "tau-airline", 80, 24)
	openTask(t, m, "TAU-A02")
	press(t, m, "e", "j", "j", "j", "j", "d", "c")
	if m.page != pageCompare || m.compare.p == nil || m.compare.p.verdict.Eligible {
		t.Fatalf("no rejected pair in Compare:\n%s", screen(m))
	}
	mustSee(t, m, "latest cause in the candidate: initial (no event touched it)", notEligibleCaveat,
		"also mismatched: predicate 2 (payment_history-JG7FMM) c_state and c_agent", "H's latest cause of predicate 1: agent at event 5")
	if rows := m.compare.logRows(); rows < 3 {
		t.Fatalf("the logs show %d rows a side", rows)
	}
	if n := strings.Count(screen(m), "\n") + 1; n != 24 || !strings.Contains(screen(m), "╰──") {
		t.Fatalf("Compare is %d lines or lost its bottom frame:\n%s", n, screen(m))
	}

	d := newTestApp(t, 80, 24, true)
	for i := range d.demo.scenes {
		d.demo.at = i
		d.demo.apply(d)
		if d.page != pageCompare {
			continue
		}
		s := screen(d)
		if rows := d.compare.logRows(); rows < 3 {
			t.Errorf("scene %d: the logs show %d rows a side:\n%s", i+1, rows, s)
		}
		if !d.compare.p.verdict.Eligible && !strings.Contains(s, notEligibleCaveat) {
			t.Errorf("scene %d: the caveat is gone:\n%s", i+1, s)
		}
		if ev := d.compare.p.verdict.Evidence; ev != nil && ev.Detail != "" && !strings.Contains(strings.Join(strings.Fields(s), " "), strings.Join(strings.Fields(ev.Detail)[:6], " ")) {
			t.Errorf("scene %d: the rejection sentence is cut:\n%s", i+1, s)
		}
	}
}
