package tui

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// openExample opens the worked example's task in the Inspector at w × h.
func openExample(t *testing.T, w, h int) *workbench {
	t.Helper()
	m := exampleApp(t, false)
	drive(t, m, m.Init(), tea.WindowSizeMsg{Width: w, Height: h})
	press(t, m, "enter")
	if m.page != pageInspect || m.inspect.a == nil {
		t.Fatalf("the example did not open:\n%s", screen(m))
	}
	return m
}

// send delivers one key to Update and returns its command without
// running it: a search set up this way never starts, so the test feeds
// the run's messages itself.
func send(m *workbench, k string) tea.Cmd {
	var cmd tea.Cmd
	for _, msg := range keyMsgs(k) {
		_, cmd = m.Update(msg)
	}
	return cmd
}

func TestAttackSetupProgressAndResult(t *testing.T) {
	m := openExample(t, 120, 40)
	press(t, m, "?")
	mustSee(t, m, "search attacker")
	press(t, m, "esc")
	send(m, "S")
	mustSee(t, m, "Search attacker · EX-01", "‹ Historical Milestone ›", "‹ 2 ›", "enter start search")
	// Targets wrap around; the bound stays within 1..4.
	send(m, "left")
	mustSee(t, m, "‹ Terminal Outcome ›")
	send(m, "right")
	for _, k := range []string{"tab", "right", "right", "right", "left"} {
		send(m, k)
	}
	mustSee(t, m, "‹ Historical Milestone ›", "‹ 3 ›")

	send(m, "enter")
	if !m.attack.running() {
		t.Fatalf("enter did not start the search:\n%s", screen(m))
	}
	id := m.attack.run.id
	mustSee(t, m, "searching 0 states · 0 eligible · best Δ — · EX-01 · Historical Milestone · one-field updates within 3", "esc/S cancel search")
	mustNotSee(t, m, "esc back", "S search attacker")

	// Progress is shown and the next read is issued; a stale run's is not.
	if _, cmd := m.Update(attackProgressMsg{id: id, p: searchProgress{states: 3000, eligible: 7, best: 0.25}}); cmd == nil {
		t.Error("a progress message did not issue the next read")
	}
	if _, cmd := m.Update(attackProgressMsg{id: id - 1, p: searchProgress{states: 9}}); cmd != nil {
		t.Error("a stale progress message issued a read")
	}
	mustSee(t, m, "searching 3000 states · 7 eligible · best Δ +0.250")

	// The page keeps the focus while the search runs, and the result
	// reaches the panel whichever page is in front.
	press(t, m, "c")
	if m.page != pageCompare || !m.attack.running() {
		t.Fatalf("c did not open Compare beside the running search:\n%s", screen(m))
	}
	task := m.c.ws.task("EX-01")
	m.Update(attackDoneMsg{id: id, res: &searchResult{task: task, edits: 3, moves: "one-field updates", honest: 0.5, score: 0.75, delta: 0.25,
		witness: task.Witness, states: 3500, eligible: 9, exhausted: true}})
	mustSee(t, m, "Search attacker · EX-01 · done", "▲ Historical Milestone inflated over one-field updates within 3 edits: Δhack",
		"+0.250 (H 0.500 → A 0.750)", "the certified worst case over one-field updates within 3 edits", "enter/c compare H vs witness", "e edit witness")

	// The result has the focus: e opens its witness in the editor.
	press(t, m, "e")
	if m.page != pageEditor || len(m.editor.steps) != len(task.Witness.Steps) || m.attack.state != attackIdle {
		t.Fatalf("e did not open the witness in the editor:\n%s", screen(m))
	}
	mustSee(t, m, "✓ eligible", "S search attacker")
}

func TestAttackNoEligibleCandidate(t *testing.T) {
	m := openExample(t, 80, 24)
	send(m, "S")
	send(m, "enter")
	task := m.c.ws.task("EX-01")
	m.Update(attackDoneMsg{id: m.attack.run.id, res: &searchResult{task: task, edits: 2, moves: "one-field updates", honest: 0.5, score: 0.5, states: 559, exhausted: true}})
	mustSee(t, m, "no eligible candidate over one-field updates within 2 edits: exhausted", "559 states searched", "esc dismiss")
	mustNotSee(t, m, "compare H vs witness")
	press(t, m, "enter")
	if m.page != pageInspect || m.attack.state != attackDone {
		t.Fatalf("enter acted without a witness:\n%s", screen(m))
	}
	press(t, m, "esc")
	if m.attack.state != attackIdle || m.page != pageInspect {
		t.Fatalf("esc did not dismiss the result:\n%s", screen(m))
	}
	mustNotSee(t, m, "Search attacker")
}

// TestAttackCancel: esc or S cancels a running search, which then shows
// the best it found until then, named as a cancelled search's; what an
// older run sends never reaches the next one.
func TestAttackCancel(t *testing.T) {
	for _, k := range []string{"esc", "S"} {
		t.Run(k, func(t *testing.T) {
			m := openExample(t, 120, 40)
			send(m, "S")
			send(m, "enter")
			id := m.attack.run.id
			m.Update(attackProgressMsg{id: id, p: searchProgress{states: 2000, eligible: 3}})
			drive(t, m, send(m, k))
			if !m.attack.stopping || m.page != pageInspect {
				t.Fatalf("%s did not cancel the search, or went back:\n%s", k, screen(m))
			}
			mustSee(t, m, "cancelling the search after 2000 states: its best so far follows")
			task := m.c.ws.task("EX-01")
			m.Update(attackDoneMsg{id: id, res: &searchResult{task: task, edits: 2, moves: "one-field updates", cancelled: true, honest: 0.5,
				score: 0.75, delta: 0.25, witness: task.Witness, states: 2100, eligible: 3}})
			if !m.attack.witness() {
				t.Fatalf("the best so far was dropped:\n%s", screen(m))
			}
			mustSee(t, m, "cancelled after 2100 states (3 eligible): the best so far over one-field", "enter/c compare H vs witness")
			if k := m.c.keys; k.AttackCancel.Enabled() {
				t.Fatal("esc still cancels")
			}
			// Its witness is not saved: esc asks, and again dismisses it.
			press(t, m, "esc")
			mustSee(t, m, "the search attacker's witness is not saved: esc again dismisses it")
			press(t, m, "esc")
			// What the cancelled run still sends is dropped, also once
			// the next search runs.
			send(m, "S")
			send(m, "enter")
			m.Update(attackProgressMsg{id: id, p: searchProgress{states: 3000}})
			m.Update(attackDoneMsg{id: id, err: context.Canceled})
			if !m.attack.running() || m.attack.run.id == id || m.statusErr {
				t.Fatalf("a cancelled run's messages reached the next search:\n%s", screen(m))
			}
			mustSee(t, m, "searching 0 states · 0 eligible · best Δ — · EX-01 · Historical Milestone · one-field updates within 2")
		})
	}
}

// TestAttackCancelStopsTheSearch cancels a real search that would run
// for seconds and waits for its goroutine to stop with ctx's error.
func TestAttackCancelStopsTheSearch(t *testing.T) {
	m := newTestApp(t, 120, 40, false)
	openTask(t, m, "PH-H04")
	send(m, "S")
	for _, k := range []string{"tab", "right", "right"} {
		send(m, k)
	}
	batch, ok := send(m, "enter")().(tea.BatchMsg)
	if !ok {
		t.Fatal("enter did not start the search and its spinner")
	}
	var read tea.Cmd
	for _, c := range batch {
		if msg, ok := c().(attackProgressMsg); ok {
			_, read = m.Update(msg)
		}
	}
	if read == nil || m.attack.progress.states == 0 {
		t.Fatalf("no progress from the search:\n%s", screen(m))
	}
	drive(t, m, send(m, "esc"))
	mustSee(t, m, "cancelling the search after")
	deadline := time.After(10 * time.Second)
	for {
		got := make(chan tea.Msg, 1)
		go func() { got <- read() }()
		select {
		case <-deadline:
			t.Fatal("the cancelled search did not stop")
		case msg := <-got:
			if done, ok := msg.(attackDoneMsg); ok {
				if done.err != nil || done.res == nil || !done.res.cancelled || done.res.exhausted {
					t.Fatalf("the cancelled search ended with %v, %+v", done.err, done.res)
				}
				return
			}
		}
	}
}

func TestAttackFindsTheExampleWitness(t *testing.T) {
	m := openExample(t, 120, 40)
	// A real search on the worked example, run through the model.
	press(t, m, "S", "enter")
	mustSee(t, m, "Search attacker · EX-01 · done", "▲ Historical Milestone inflated", "the certified worst case over one-field updates within 2 edits")
	res := m.attack.res
	if res == nil || res.witness == nil || !res.exhausted || res.delta <= 0 {
		t.Fatalf("search result %+v", res)
	}
	press(t, m, "enter")
	if m.page != pageCompare || m.compare.p == nil {
		t.Fatalf("the witness did not open in Compare: %v\n%s", m.compare.err, screen(m))
	}
	p := m.compare.p
	if !p.verdict.Eligible || p.a.traj != res.witness {
		t.Fatalf("Compare shows %q, eligible %v", p.a.label, p.verdict.Eligible)
	}
	hm := scoreIndex(m.c.ws, "historical_milestone")
	if d := p.a.scores[hm] - p.h.scores[hm]; d <= 0 || d != res.delta {
		t.Fatalf("Historical Milestone Δ in Compare %.3f, the search's %.3f", d, res.delta)
	}
	mustSee(t, m, "A · search witness")
	if l := line(t, m, "Historical Milestone"); !strings.Contains(l, "▲ inflated") {
		t.Fatalf("Historical Milestone row: %q", l)
	}

	// The setup keeps the last bound; CSPS reads only the final state,
	// which every eligible candidate shares with H.
	press(t, m, "S", "right", "right", "right", "enter")
	mustSee(t, m, "CSPS not inflated over one-field updates within 2 edits: Δhack +0.000", "the certified worst case over one-field")
}

func TestAttackKeysApplyOnlyWithATask(t *testing.T) {
	m := exampleApp(t, false)
	drive(t, m, m.Init(), tea.WindowSizeMsg{Width: 120, Height: 40})
	// On Browse there is no task to search.
	press(t, m, "S")
	if m.attack.state != attackIdle || m.browse.filter.Value() != "" {
		t.Fatalf("S on Browse: panel %v, filter %q", m.attack.state, m.browse.filter.Value())
	}
	d := exampleApp(t, true)
	drive(t, d, d.Init(), tea.WindowSizeMsg{Width: 120, Height: 40})
	press(t, d, "S")
	if d.attack.state != attackIdle {
		t.Fatal("S started a search in the demo")
	}
}
