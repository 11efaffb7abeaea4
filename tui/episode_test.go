package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/charmbracelet/lipgloss"
	"github.com/parthack/parthack/model"
)

// tauApp opens the workbench on tau-bench's airline domain at w × h.
func tauApp(t *testing.T, w, h int) *workbench {
	t.Helper()
	m, err := newApp(Options{DBPath: filepath.Join(t.TempDir(), "store.db"), Domain: "tau-airline"})
	if err != nil {
		t.Fatal(err)
	}
	drive(t, m, m.Init(), tea.WindowSizeMsg{Width: w, Height: h})
	return m
}

// TestEditorKeepsTheEpisodeRule: on TAU-A04 trial0, whose step 6 calls
// transfer_to_human_agents, the editor marks step 6 as the end of the
// episode and refuses, in the status line and changing nothing, every
// edit that would put a step after it; deleting the transfer lifts the
// rule. z places its restoring call before the transfer, so on the
// flight change it says only that no call undoes it (a refund is a new
// payment, not the old history).
func TestEditorKeepsTheEpisodeRule(t *testing.T) {
	m := tauApp(t, 80, 24)
	openTask(t, m, "TAU-A04")
	press(t, m, "e")
	e := m.editor
	if m.page != pageEditor || len(e.steps) != 6 {
		t.Fatalf("the editor did not open on the run's 6 steps:\n%s", screen(m))
	}
	press(t, m, "$")
	mustSee(t, m, episodeMark+" transfer_to_human_agents", "the episode ends here")
	before := model.EncodeTrajectory(e.trajectory())
	const refused = "refused: step 6, a call of transfer_to_human_agents, ends the episode in tau-airline"
	for _, tc := range []struct {
		name, cursor string
		keys         []string
		cur          int
		why          string
	}{
		{"add after the transfer", "$", []string{"a"}, 5, refused},
		{"type a step after it", "$", []string{":"}, 5, refused},
		{"move the transfer up", "$", []string{"K"}, 5, refused},
		{"move the step before it down", "$", []string{"k", "J"}, 4, refused},
		{"undo the flight change", "$", []string{"k", "z"}, 4,
			"no call of this domain undoes step 5 (it changed reservation FQ8APE flights, reservation FQ8APE payment_history)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			press(t, m, tc.cursor)
			press(t, m, tc.keys...)
			if e.form != nil || e.call != nil || e.line != nil {
				t.Fatalf("a step entry opened after the end of the episode:\n%s", screen(m))
			}
			if got := model.EncodeTrajectory(e.trajectory()); string(got) != string(before) || e.cursor != tc.cur {
				t.Fatalf("the steps or the cursor changed (cursor %d, want %d)", e.cursor, tc.cur)
			}
			if !m.statusErr || !strings.Contains(m.status, tc.why) {
				t.Fatalf("status %q does not say why", m.status)
			}
		})
	}
	press(t, m, "$", "d", "a")
	if e.call == nil {
		t.Fatalf("with the transfer deleted, a does not add a call:\n%s", screen(m))
	}
}

// TestImportRefusesAStepAfterTheEpisodeEnd: a tau-bench run with a call
// after its transfer is refused on import, the message naming the file,
// the line of the step, and the call that ended the episode.
func TestImportRefusesAStepAfterTheEpisodeEnd(t *testing.T) {
	m := tauApp(t, 120, 40)
	file := writeAfterTransfer(t)
	press(t, m, "ctrl+o", file, "enter")
	if m.page != pageBrowse {
		t.Fatalf("the import opened page %d", m.page)
	}
	for _, want := range []string{"import: after-transfer.json:", "step 7 (call of get_user_details) comes after step 6, a call of transfer_to_human_agents"} {
		if !strings.Contains(m.status, want) || !m.statusErr {
			t.Fatalf("status %q lacks %q", m.status, want)
		}
	}
}

// writeAfterTransfer writes TAU-A04's trial0 with one more call after
// its transfer and returns its path.
func writeAfterTransfer(t *testing.T) string {
	t.Helper()
	task, err := loadDomain("tau-airline", nil)
	if err != nil {
		t.Fatal(err)
	}
	var h *model.Trajectory
	for _, st := range task {
		if st.ID == "TAU-A04" {
			h = st.HonestTraj
		}
	}
	tr := *h
	tr.Transcript = nil
	tr.Steps = append(append([]model.Step{}, h.Steps...), model.Step{Action: model.Action{Op: model.OpCall, Tool: "get_user_details",
		Args: h.Steps[0].Args}})
	file := filepath.Join(t.TempDir(), "after-transfer.json")
	if err := os.WriteFile(file, model.EncodeTrajectory(&tr), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// TestTauBenchRewardIsShown: the Inspector's title, Browse and the
// scores of Compare and the editor show tau-bench's own reward,
// recomputed by its rule, equal to the reward its run file records.
func TestTauBenchRewardIsShown(t *testing.T) {
	m := tauApp(t, 140, 45)
	press(t, m, "/", "TAU-A04")
	mustSee(t, m, "tau-bench reward: trial0 0")
	press(t, m, "enter")
	task := m.inspect.task
	for range task.Runs {
		cur := m.inspect.current()
		if want, ok := task.Rewards[cur.label]; ok && (m.inspect.a.reward == nil || *m.inspect.a.reward != want) {
			t.Fatalf("%s: recomputed reward %v, recorded %g", cur.label, m.inspect.a.reward, want)
		}
		press(t, m, "t")
	}
	mustSee(t, m, "TAU-A04 · trial0 · 6 events · tau-bench reward 0")
	press(t, m, "e")
	// tau-bench's reward, beside the field's evaluators, on one line
	// where the pane is short, H's score then the candidate's.
	if l := line(t, m, "tau-bench · reward"); !strings.Contains(l, "reward 0→0") {
		t.Fatalf("the editor's reward row: %q", l)
	}
}

// TestWideVectorsAndTheCaveatAreWholeAt80x24: TAU-A02's twelve
// predicates make vectors too wide for one row in the editor at 80×24:
// each goes on a line of its own, whole; the "not eligible" caveat
// wraps instead of being cut.
func TestWideVectorsAndTheCaveatAreWholeAt80x24(t *testing.T) {
	m := tauApp(t, 80, 24)
	openTask(t, m, "TAU-A02")
	press(t, m, "e")
	p := m.editor.pair
	if p == nil || p.verdict.Honest == nil || len(p.verdict.Honest.CAgent) != 12 {
		t.Fatalf("TAU-A02's editor did not certify H with 12 predicates:\n%s", screen(m))
	}
	leftW, _, _, _, _ := m.editor.layout()
	width := m.width - leftW - 2
	lines := strings.Join(m.c.vectorLines(p, width), "\n")
	want := "c_agent " + vector(p.verdict.Honest.CAgent)
	if !strings.Contains(lines, want) {
		t.Fatalf("the vectors at width %d lack %q:\n%s", width, want, lines)
	}
	mustSee(t, m, want)
	p.verdict.Eligible = false
	caveat := strings.Join(m.c.scoreLines(p, width, false), " ")
	if !strings.Contains(strings.Join(strings.Fields(caveat), " "), notEligibleCaveat) {
		t.Fatalf("the caveat is cut:\n%s", caveat)
	}
}

// TestEditorChartFollowsTheCursor: the candidate's chart marks the step
// under the cursor, not the last event.
func TestEditorChartFollowsTheCursor(t *testing.T) {
	m := openEditor(t, 120, 40)
	press(t, m, "0")
	mustSee(t, m, "▲ after 1 event")
	press(t, m, "$")
	mustSee(t, m, "▲ after 2 events")
}

// TestConversationIsWholeWhereItHappens: the initial snapshot shows the
// turns before the first call, the last call the turns that close the
// run, and f shows long turns whole.
func TestConversationIsWholeWhereItHappens(t *testing.T) {
	m := tauApp(t, 120, 40)
	openTask(t, m, "TAU-A04")
	a := m.inspect.a
	turns := a.traj.Transcript
	firstUser := turns[slices.IndexFunc(turns, func(t model.Turn) bool { return t.Role == "user" })]
	lastTurn := turns[len(turns)-1]
	words := func(s string, n int) string { f := strings.Fields(s); return strings.Join(f[:min(n, len(f))], " ") }
	at0 := strings.Join(m.c.detailLines(a, 0, 200, false, false), "\n")
	if !strings.Contains(at0, "before the first call") || !strings.Contains(at0, words(firstUser.Content.String(), 4)) {
		t.Fatalf("the initial snapshot lacks the opening turns:\n%s", at0)
	}
	end := strings.Join(m.c.detailLines(a, a.events(), 200, false, false), "\n")
	if !strings.Contains(end, "and the turns after it") || !strings.Contains(end, words(lastTurn.Content.String(), 4)) {
		t.Fatalf("the last call lacks the turns that close the run (%q):\n%s", lastTurn.Content, end)
	}
	cut := strings.Join(m.c.detailLines(a, a.events(), 24, false, false), "\n")
	whole := strings.Join(m.c.detailLines(a, a.events(), 24, false, true), "\n")
	if !strings.Contains(cut, "more lines") || strings.Contains(whole, "more lines") || len(whole) <= len(cut) {
		t.Fatalf("f does not show the turns whole:\n%s", whole)
	}
	press(t, m, "f")
	if !m.inspect.fullTurns {
		t.Fatal("f does not toggle whole turns")
	}
}

// TestLongTurnReadByItsHead: a turn of 8 MB shows its first lines and
// its size, and is read no further than they need: its words past the
// head are not in the lines, which f shows whole.
func TestLongTurnReadByItsHead(t *testing.T) {
	m := tauApp(t, 120, 40)
	turn := "start " + strings.Repeat("lorem ipsum ", 8<<20/12) + "THE-END"
	got := strings.Join(m.c.turnLines([]model.Turn{{Role: "user", Content: model.TextOf(turn)}}, "", 80, false, 6), "\n")
	if !strings.Contains(got, "start lorem") || !strings.Contains(got, "the rest of its 8 MB") || strings.Contains(got, "THE-END") {
		t.Fatalf("a long turn reads:\n%s", got)
	}
	if lines := strings.Count(got, "\n") + 1; lines != 8 {
		t.Errorf("%d lines, want the title's two and six", lines)
	}
	narrow := m.c.turnLines([]model.Turn{{Role: "user", Content: model.TextOf(turn)}}, "", 40, false, 6)
	if last := narrow[len(narrow)-1]; !strings.Contains(last, "8 MB in all: f shows it") || lipgloss.Width(last) > 40 {
		t.Errorf("in a pane of 40 columns the note is %q, want it whole on its line", last)
	}
	whole := m.c.turnLines([]model.Turn{{Role: "user", Content: model.TextOf(turn)}}, "", 80, true, 6)
	if !strings.Contains(whole[len(whole)-1], "THE-END") {
		t.Errorf("f does not show the turn whole: it ends %q", whole[len(whole)-1])
	}
}

// TestTaskInFullAt80x24: Browse says where a cut instruction is whole,
// I shows the instruction and every predicate whole, and the
// Inspector's predicate table cuts texts from the middle, so TAU-A04's
// predicates on one reservation still read apart.
func TestTaskInFullAt80x24(t *testing.T) {
	m := tauApp(t, 80, 24)
	task := m.c.ws.task("TAU-A04")
	press(t, m, "/", "TAU-A04", "tab", "tab") // tab leaves the filter, the task still selected
	mustSee(t, m, "… I shows the task in full")
	press(t, m, "I")
	if m.overlay == nil {
		t.Fatal("I opened no overlay")
	}
	// Wrapping moves line breaks, never characters.
	bare := func(s string) string { return strings.Join(strings.Fields(s), "") }
	body := bare(strings.Join(m.overlay.lines, " "))
	for _, p := range task.Public.Goals[0].Predicates {
		if !strings.Contains(body, bare(p.Text)) {
			t.Fatalf("the overlay lacks predicate %q", p.Text)
		}
	}
	if !strings.Contains(body, bare(task.Public.Instruction)) {
		t.Fatal("the overlay lacks the instruction")
	}
	press(t, m, "esc", "enter")
	logW, _, _, _, _ := m.inspect.layout()
	var texts []string
	for _, l := range m.c.detailLines(m.inspect.a, 0, m.width-logW-2, false, false) {
		for j := range task.Public.Goals[0].Predicates {
			if strings.HasPrefix(l, fmt.Sprintf("%2d ", j+1)) && strings.Contains(l, "…") {
				texts = append(texts, l[3:])
			}
		}
	}
	if n := len(slices.Compact(slices.Sorted(slices.Values(texts)))); n != len(texts) || n < 2 {
		t.Fatalf("predicates cut from the middle still read alike: %q", texts)
	}
}
