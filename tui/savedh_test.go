package tui

import (
	"strings"
	"testing"

	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/store"
)

// TestSavedWitnessKeepsItsH: a witness edited against GPT-4.1's run of
// T2A-2 (t to it, e, s) names that run; the Saved list certifies it
// against that run, not Claude's (the task's default H), and reopened
// the editor and Compare take it as H (issue 30, item 1: a saved witness
// was judged against the task's default H).
func TestSavedWitnessKeepsItsH(t *testing.T) {
	m := domainApp(t, "tau2-airline", 120, 40)
	openTask(t, m, "T2A-2")
	task := m.inspect.task
	def := task.honest()
	var other choice
	for _, ch := range task.stored() {
		if ch.label != "gold" && ch.traj != def.traj && (other.traj == nil || strings.Contains(ch.label, "gpt-4.1")) {
			other = ch
		}
	}
	if other.traj == nil {
		t.Fatal("T2A-2 has no run besides gold and its default H")
	}
	showRun(t, m, other.label)
	press(t, m, "e", "s", "ctrl+u", "from "+other.label, "enter")
	recs := listRecords(t, m.c.dbPath, store.KindWitness)
	if len(recs) != 1 {
		t.Fatalf("saved %d witnesses", len(recs))
	}
	w, err := DecodeWitness(recs[0])
	if err != nil || w.Honest != other.label {
		t.Fatalf("the saved witness names H %q (%v), want %q", w.Honest, err, other.label)
	}

	// The Saved list's verdict and Δ: those against the run it names,
	// which differ from those against the default H.
	against := func(h choice) recordSummary {
		own := *task
		own.HonestTraj = h.traj
		plain := *w
		plain.Honest = ""
		msg := &summariesMsg{sums: map[recordID]recordSummary{}, steps: map[recordID]int{}}
		summarize(newWorkspace([]*suiteTask{&own}), map[string]*analysis{}, recs[0], &plain, msg)
		return msg.sums[idOf(recs[0])]
	}
	want, old := against(other), against(def)
	if want.verdict == old.verdict && want.delta == old.delta {
		t.Fatalf("against either run the witness reads %q Δ %+.2f: the test tells nothing", want.verdict, want.delta)
	}
	press(t, m, "esc", "esc")
	if m.page != pageBrowse {
		t.Fatalf("not back in Browse:\n%s", screen(m))
	}
	press(t, m, "ctrl+r")
	sum, ok := m.browse.sums[idOf(recs[0])]
	if !ok || sum.verdict != want.verdict || sum.delta != want.delta || sum.h != other.label {
		t.Fatalf("the Saved list reads %q Δ %+.2f vs H %q, want %q Δ %+.2f vs H %q (default H: %q Δ %+.2f)",
			sum.verdict, sum.delta, sum.h, want.verdict, want.delta, other.label, old.verdict, old.delta)
	}
	press(t, m, "tab")
	mustSee(t, m, "vs H "+other.label)

	// Reopened, the editor and Compare take that run as H.
	press(t, m, "enter")
	if m.page != pageEditor || m.editor.h.traj != other.traj {
		t.Fatalf("the reopened witness is edited against %q, not %q:\n%s", m.editor.h.label, other.label, screen(m))
	}
	mustSee(t, m, "T2A-2 · H "+other.label)
	press(t, m, "c")
	if m.page != pageCompare || m.compare.p == nil || m.compare.p.h.traj != other.traj {
		t.Fatalf("Compare takes %q as H, not %q:\n%s", m.compare.h.label, other.label, screen(m))
	}
	mustSee(t, m, "H · "+other.label)
}

// TestWitnessOf: a witness's H is the run it names, the task's default
// where it names none, and the default, said so, where the task has no
// run of that name.
func TestWitnessOf(t *testing.T) {
	m := domainApp(t, "tau2-airline", 80, 24)
	task := m.c.ws.task("T2A-2")
	def, runs := task.honest(), task.stored()
	for _, c := range []struct {
		honest, want string
		note         bool
	}{
		{"", def.label, false},
		{runs[0].label, runs[0].label, false},
		{"no-such-run", def.label, true},
	} {
		h, note := task.witnessOf(&model.Trajectory{Task: "T2A-2", Honest: c.honest})
		if h.label != c.want || (note != "") != c.note {
			t.Errorf("honest %q: H %q, note %q; want H %q, a note: %t", c.honest, h.label, note, c.want, c.note)
		}
	}
}
