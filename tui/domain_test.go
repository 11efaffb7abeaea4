package tui

import (
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	_ "github.com/parthack/parthack/domains/all" // the domains the workbench opens
)

// TestTauDomain: the workbench on tau-bench's airline runs. Browse lists
// the 50 tasks, a task opens on its first failed GPT-4o run, the cursor
// on a call shows the conversation that led to it and the call's output,
// the state pane shows the records the call changed, t cycles gold and
// the four runs, and the search attacker finds the run's certified worst
// case from calls drawn from the task.
func TestTauDomain(t *testing.T) {
	m, err := newApp(Options{DBPath: filepath.Join(t.TempDir(), "store.db"), Domain: "tau-airline"})
	if err != nil {
		t.Fatal(err)
	}
	drive(t, m, m.Init(), tea.WindowSizeMsg{Width: 140, Height: 45})
	mustSee(t, m, "Tasks · 50 of 50", "TAU-A00", "tau-bench airline task 0 (user mia_li_3668)")
	openTask(t, m, "TAU-A04")
	in := m.inspect
	if in.current().label != "trial0" || in.a.events() != 6 {
		t.Fatalf("TAU-A04 opened on %s with %d events, want trial0 (its first failed run) with 6", in.current().label, in.a.events())
	}
	press(t, m, "l", "l", "l", "l", "l")
	mustSee(t, m, "Event 5 of 6", "update_reservation_flights", "Conversation · up to call 5", "reservation FQ8APE")
	detail := strings.Join(m.c.detailLines(in.a, 5, 100, false, false), "\n")
	for _, want := range []string{"State after event 5 · 1 entity touched", "reservation FQ8APE", "* flights", "* payment_history"} {
		if !strings.Contains(detail, want) {
			t.Errorf("the detail pane lacks %q:\n%s", want, detail)
		}
	}
	whole := strings.Join(m.c.detailLines(in.a, 0, 100, true, false), "\n")
	if n := strings.Count(whole, "\nreservation ") + strings.Count(whole, "\nuser "); n == 0 || n > 10 {
		t.Errorf("the initial snapshot of a domain task shows %d reservations and users, want the goal's few:\n%s", n, whole)
	}
	press(t, m, "l")
	mustSee(t, m, "transfer_to_human_agents", "Transfer successful", "user   Yes, please transfer me to a human agent.")

	var labels []string
	for range 5 {
		press(t, m, "t")
		labels = append(labels, m.inspect.current().label)
	}
	if got := strings.Join(labels, " "); got != "trial1 trial2 trial3 gold trial0" {
		t.Fatalf("t cycles %s", got)
	}

	// A real domain's search admits only witnesses that end in H's
	// state unless asked for any end, and says which it admitted.
	press(t, m, "S")
	mustSee(t, m, "‹ only those ending in H's state ›", "--any-end")
	press(t, m, "enter")
	mustSee(t, m, "Search attacker · TAU-A04 · done", "the certified worst case over the task's tool calls within 2 edits ending in H's state")
	if res := m.attack.res; res == nil || res.witness == nil || !res.sameEnd || len(res.witness.Steps) <= len(m.c.ws.task("TAU-A04").HonestTraj.Steps)-2 {
		t.Fatalf("the search on a real run found no witness: %+v", res)
	}
	press(t, m, "esc", "esc", "S", "tab", "tab", "right") // esc asks before dropping the witness; esc again drops it
	mustSee(t, m, "‹ any end state ›")
	press(t, m, "enter")
	mustSee(t, m, "Search attacker · TAU-A04 · done", "within 2 edits ending anywhere")
	if res := m.attack.res; res == nil || res.sameEnd {
		t.Fatalf("asked for any end, the search admitted: %+v", res)
	}
}
