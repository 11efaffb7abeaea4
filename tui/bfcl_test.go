package tui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/parthack/parthack/domains"
	"github.com/parthack/parthack/model"
)

// The BFCL tests open the workbench as `workbench --domain
// bfcl-multi-turn --runs FILE` does, on a result file written here in
// BFCL's format from an entry's gold calls (BFCL's data ship with the
// domain; its real runs do not): multi_turn_base_5 with turn 1's sort
// skipped, a read, so every turn ends in gold's state and BFCL fails the
// run on turn 1's response check alone.
const (
	bfclDomain = "bfcl-multi-turn"
	bfclTask   = "multi_turn_base_5"
	bfclModel  = "my-model"
)

// bfclResultFile writes a BFCL result file of one entry in dir: its gold
// calls, turn by turn, each a step of its own, less those of the tool
// skip, each turn ended by the model's answer without a call.
func bfclResultFile(t testing.TB, dir, id, skip string) string {
	t.Helper()
	d, err := domains.Lookup(bfclDomain)
	if err != nil {
		t.Fatal(err)
	}
	task, err := domains.TaskOf(d, id)
	if err != nil {
		t.Fatal(err)
	}
	var turns [][]any
	for _, st := range task.Gold.Steps {
		switch {
		case st.Actor == model.ActorUser:
			turns = append(turns, nil)
		case st.Tool != skip:
			turns[len(turns)-1] = append(turns[len(turns)-1], []any{map[string]string{st.Tool: st.Args.String()}})
		}
	}
	for i := range turns {
		turns[i] = append(turns[i], []any{})
	}
	line, err := json.Marshal(map[string]any{"id": id, "result": turns})
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, bfclModel+"-multi_turn_base_result.json")
	if err := os.WriteFile(file, append(line, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// bfclRuns are the runs of the result file, read as --runs reads them.
func bfclRuns(t testing.TB) []*domains.Run {
	t.Helper()
	d, err := domains.Lookup(bfclDomain)
	if err != nil {
		t.Fatal(err)
	}
	runs, err := domains.ReadRuns(d, []string{bfclResultFile(t, t.TempDir(), bfclTask, "sort")})
	if err != nil {
		t.Fatal(err)
	}
	return runs
}

// bfclApp opens the workbench on BFCL with the result file's runs, at
// w × h, in Browse.
func bfclApp(t testing.TB, w, h int) *workbench {
	t.Helper()
	m, err := newApp(Options{DBPath: filepath.Join(t.TempDir(), "store.db"), Domain: bfclDomain, Runs: bfclRuns(t)})
	if err != nil {
		t.Fatal(err)
	}
	drive(t, m, m.Init(), tea.WindowSizeMsg{Width: w, Height: h})
	return m
}

// bfclInspector is bfclApp with the task open in the Inspector on H, the
// file's run.
func bfclInspector(t testing.TB, w, h int) *workbench {
	t.Helper()
	m := bfclApp(t, w, h)
	press(t, m, "enter")
	if m.page != pageInspect || m.inspect.a == nil || m.inspect.task.ID != bfclTask {
		t.Fatalf("%s did not open:\n%s", bfclTask, screen(m))
	}
	return m
}

// TestBFCLRunsOpenTheirTasks: given runs, Browse lists the tasks they are
// runs of, each with its gold run and the file's run, H the file's run
// (BFCL fails it); m and H's progress are of the goal version H ends in
// (turn 3's), not turn 0's.
func TestBFCLRunsOpenTheirTasks(t *testing.T) {
	m := bfclApp(t, 120, 38)
	mustSee(t, m, "Tasks · 1 of 1", bfclTask, bfclModel)
	tasks := m.c.ws.tasks
	if len(tasks) != 1 || tasks[0].ID != bfclTask {
		t.Fatalf("Browse lists %d tasks, want %s alone", len(tasks), bfclTask)
	}
	st := tasks[0]
	var labels []string
	for _, ch := range st.Runs {
		labels = append(labels, ch.label)
	}
	if strings.Join(labels, ",") != "gold,"+bfclModel || st.HonestTraj != st.Runs[1].traj {
		t.Fatalf("runs %q, H %v: want gold and %s, H the file's run", labels, st.HonestTraj.Name, bfclModel)
	}
	last := st.Public.Goals[len(st.Public.Goals)-1]
	if st.M != len(last.Predicates) || st.M == len(st.Public.Goals[0].Predicates) || st.Honest.Den != st.M || st.Honest.Num > st.M {
		t.Errorf("m %d, H's progress %s: want turn 3's %d predicates (turn 0 has %d)", st.M, st.Honest, len(last.Predicates), len(st.Public.Goals[0].Predicates))
	}
	if st.Rewards[bfclModel] != 0 {
		t.Errorf("the run's recorded BFCL verdict %g, want 0", st.Rewards[bfclModel])
	}
	mustSee(t, m, "BFCL valid: "+bfclModel+" 0")
}

// bfclQuestion is the entry's question for a turn, as the task's
// instruction holds it ("turn 1: …").
func bfclQuestion(t testing.TB, st *suiteTask, turn int) string {
	t.Helper()
	prefix := fmt.Sprintf("turn %d: ", turn)
	for _, l := range strings.Split(st.Public.Instruction, "\n") {
		if strings.HasPrefix(l, prefix) {
			return strings.TrimPrefix(l, prefix)
		}
	}
	t.Fatalf("the instruction has no %q:\n%s", prefix, st.Public.Instruction)
	return ""
}

// TestBFCLUserTurnsReadAsMessages: in the Inspector each user step reads
// as the user's message of its turn, its detail says the goal version it
// brings; beside a call the conversation holds the turn's message, the
// call and what it returned on replay.
func TestBFCLUserTurnsReadAsMessages(t *testing.T) {
	m := bfclInspector(t, 120, 38)
	a := m.inspect.a
	turn, firstCall := -1, -1
	for k := 1; k <= a.events(); k++ {
		ev := &a.log.Events[k-1]
		row := m.c.eventRow(a, k, 200, markNone)
		if ev.Actor() == model.ActorUser {
			turn++
			q := bfclQuestion(t, a.task, turn)
			if want := fmt.Sprintf("user  turn %d: %s", turn, q[:min(40, len(q))]); !strings.Contains(row, want) {
				t.Errorf("event %d's row %q lacks %q", k, row, want)
			}
			detail := strings.Join(m.c.detailLines(a, k, 200, false, false), "\n")
			if turn > 0 && !strings.Contains(detail, fmt.Sprintf("the goal becomes turn-%d", turn)) {
				t.Errorf("event %d (turn %d's message) does not say the goal it brings:\n%s", k, turn, detail)
			}
			continue
		}
		if turn == 1 && firstCall < 0 {
			firstCall = k
		}
	}
	if turn != 3 || firstCall < 0 {
		t.Fatalf("H has turns up to %d and turn 1's first call at %d", turn, firstCall)
	}
	ev := &a.log.Events[firstCall-1]
	out := a.log.Output(ev)
	if !ev.OK || ev.Action.Tool != "cat" || !strings.Contains(out, "file_content") {
		t.Fatalf("turn 1's first call is %s (ok %v) returning %q, want cat's file_content", ev.Action.Tool, ev.OK, out)
	}
	detail := strings.Join(m.c.detailLines(a, firstCall, 200, false, false), "\n")
	for _, want := range []string{"Conversation · turn 1, call 1 of the turn", "user   " + bfclQuestion(t, a.task, 1)[:40], "agent  cat {", "call   " + out[:30]} {
		if !strings.Contains(detail, want) {
			t.Errorf("the detail of turn 1's first call lacks %q:\n%s", want, detail)
		}
	}
}

// TestBFCLChecksSayEachTurn: b shows BFCL's verdict, recomputed, with its
// sentence, and each turn's state and response checks: turn 1's response
// fails, its missing result named; the components are BFCL's own scores,
// as its evaluators give them.
func TestBFCLChecksSayEachTurn(t *testing.T) {
	m := bfclInspector(t, 120, 38)
	press(t, m, "b")
	var scores []string
	for _, s := range m.inspect.a.bench[1:4] {
		scores = append(scores, fmt.Sprintf("%s %s", benchShort("BFCL", s.label), short(s.v)))
	}
	if got := strings.Join(scores, ","); got != "state check 1,response check .86,turn credit .75" {
		t.Fatalf("BFCL's scores of H %q, want state 1, response 6/7, turn credit 3/4", got)
	}
	mustSee(t, m, "BFCL's checks · "+bfclTask,
		"BFCL valid 0 (recomputed by its own rule): multi_turn:execution_response_mismatch at turn 1",
		"Model response execution results so far does not contain all the ground truth",
		"Checks · 7 of 8 pass",
		"✓ turn 0 · state", "✗ turn 1 · response  1 of 2 gold results found", "missing: ",
		"response check       .86   BFCL's own")
	mustNotSee(t, m, "not in the basis", "ACTION needs all")
}

// TestBFCLEditorHoldsTheTurns: the editor shows H's user turns as the
// user's messages and refuses, saying why, with nothing changed, to
// delete one or to put a call before the first.
func TestBFCLEditorHoldsTheTurns(t *testing.T) {
	m := bfclInspector(t, 120, 38)
	press(t, m, "e")
	if m.page != pageEditor || m.editor.pair == nil {
		t.Fatalf("the editor did not open:\n%s", screen(m))
	}
	before := len(m.editor.steps)
	mustSee(t, m, "▸ 1 · user turn 0: "+bfclQuestion(t, m.editor.task, 0)[:20])
	press(t, m, "d")
	mustSee(t, m, "refused: step 1 is the user's (turn 0's message); a witness authors the agent's steps only")
	press(t, m, "esc", "i")
	if m.editor.call == nil {
		t.Fatalf("i opened no call form:\n%s", screen(m))
	}
	if tool := m.editor.call.rows[0].input.Value(); tool == "user_turn" {
		t.Errorf("a new call before the user's turn starts from the user's step: tool %q", tool)
	}
	press(t, m, "ctrl+u", "pwd", "enter")
	mustSee(t, m, "refused: step 1 (pwd) is the agent's, where it has no turn: before the first user message, the model has no turn")
	if len(m.editor.steps) != before {
		t.Errorf("the refused edits changed the steps: %d, was %d", len(m.editor.steps), before)
	}
}

// TestGoldenBFCL: the BFCL screens at 80×24 and 120×38 on the result
// file's run: Browse, the Inspector at turn 1's first call, BFCL's
// checks, the editor, and Compare of H with gold (go test -update
// rewrites them).
func TestGoldenBFCL(t *testing.T) {
	type step struct {
		keys   []string
		marker string
	}
	open := step{[]string{"enter"}, bfclTask + " · " + bfclModel}
	call := step{[]string{"l", "l", "l", "l", "l"}, "call 1 of the turn"}
	cases := []struct {
		name  string
		steps []step
	}{
		{"browse", []step{{nil, "Tasks · 1 of 1"}}},
		{"inspector", []step{open, call}},
		{"checks", []step{open, {[]string{"b"}, "Checks · "}}},
		{"editor", []step{open, call, {[]string{"e"}, "· live"}}},
		{"compare", []step{open, {[]string{"H", "t"}, bfclTask + " · gold"}, {[]string{"c"}, "Pair (H, A)"}}},
	}
	runs := bfclRuns(t)
	for _, size := range [][2]int{{80, 24}, {120, 38}} {
		for _, c := range cases {
			t.Run(fmt.Sprintf("%s_%dx%d", c.name, size[0], size[1]), func(t *testing.T) {
				m, err := newApp(Options{DBPath: filepath.Join(t.TempDir(), "store.db"), Domain: bfclDomain, Runs: runs})
				if err != nil {
					t.Fatal(err)
				}
				tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(size[0], size[1]))
				for _, s := range c.steps {
					for _, k := range s.keys {
						for _, msg := range keyMsgs(k) {
							tm.Send(msg)
						}
					}
					teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte(s.marker)) },
						teatest.WithDuration(20*time.Second))
				}
				if err := tm.Quit(); err != nil {
					t.Fatal(err)
				}
				final := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(*workbench)
				golden.RequireEqual(t, []byte(final.View()))
			})
		}
	}
}

// TestBFCLEndedRunSaysWhy: a run BFCL ended itself (its model's API
// failed: inference_error) has no call; b says why it ended, which its
// payload cannot, beside BFCL's checks of the calls it has (none).
func TestBFCLEndedRunSaysWhy(t *testing.T) {
	d, err := domains.Lookup(bfclDomain)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), bfclModel+"-multi_turn_base_result.json")
	line := fmt.Sprintf(`{"id": %q, "result": "Error during inference: Error code: 500"}`+"\n", bfclTask)
	if err := os.WriteFile(file, []byte(line), 0o644); err != nil {
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
	drive(t, m, m.Init(), tea.WindowSizeMsg{Width: 120, Height: 38})
	press(t, m, "enter", "b")
	mustSee(t, m, bfclTask+" · "+bfclModel, "BFCL ended the run itself: inference_error", "✗ turn 0  the run never reached this turn")
}

// TestBFCLCompareSaysATurnEndsApart: a witness of H that makes turn 0's
// move in turn 1 ends in H's state, but BFCL checks every turn's end:
// Compare says which turn ends apart instead of "= ends in exactly H's
// state".
func TestBFCLCompareSaysATurnEndsApart(t *testing.T) {
	m := bfclInspector(t, 120, 38)
	h := m.inspect.a
	var steps []model.Step
	var mv *model.Step
	users := 0
	for _, st := range h.traj.Steps {
		if st.Tool == "mv" && mv == nil {
			mv = &st
			continue
		}
		steps = append(steps, st)
		if st.Actor == model.ActorUser {
			if users++; users == 2 && mv != nil {
				steps = append(steps, *mv) // the first call of turn 1
			}
		}
	}
	if mv == nil || len(steps) != len(h.traj.Steps) {
		t.Fatalf("H has no mv to move: %d steps of %d", len(steps), len(h.traj.Steps))
	}
	a, err := analyze(m.c.ws, h.task, &model.Trajectory{Task: h.task.ID, Name: "late move", Steps: steps}, "late move")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		a    *analysis
		want string
	}{
		{"H itself", h, "= ends in exactly H's state"},
		{"turn 0's move made in turn 1", a, "≠ ends in H's state, but its turn 0 ends elsewhere than H's"},
	} {
		p, err := certifyAgainst(m.c.ws, "pair", h, c.a)
		if err != nil {
			t.Fatal(err)
		}
		cm := &comparer{c: m.c, p: p}
		if got := strings.Join(cm.collateralLines(200), " "); !strings.Contains(got, c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
