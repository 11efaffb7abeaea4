package tui

import (
	"strings"
	"testing"
)

// showRun presses t in the Inspector until the run named label is on
// screen.
func showRun(t *testing.T, m *workbench, label string) choice {
	t.Helper()
	for range m.inspect.choices {
		if m.inspect.current().label == label {
			return m.inspect.current()
		}
		press(t, m, "t")
	}
	t.Fatalf("%s has no run %q", m.inspect.task.ID, label)
	return choice{}
}

// TestRunOnScreenIsH: on T2A-2, after t to GPT-4.1's run, S searches from
// that run, e edits against it, and each screen names it as H; H marks
// a run H, so that c compares it with another run on screen (issue 30,
// item 1: S, c and e took Claude's run, the task's default, whatever run
// was on screen, and no key set H).
func TestRunOnScreenIsH(t *testing.T) {
	m := domainApp(t, "tau2-airline", 80, 24)
	openTask(t, m, "T2A-2")
	def := m.inspect.task.honest()
	var other choice
	for _, ch := range m.inspect.task.stored() {
		if ch.label != "gold" && ch.traj != def.traj {
			other = ch
		}
	}
	if other.traj == nil {
		t.Fatal("T2A-2 has no run besides gold and its default H")
	}
	showRun(t, m, other.label)
	mustSee(t, m, "T2A-2 · "+other.label+" (H)")

	press(t, m, "S")
	if m.attack.h.traj != other.traj {
		t.Fatalf("S searches from %q, not from the run on screen %q", m.attack.h.label, other.label)
	}
	mustSee(t, m, "Search attacker · T2A-2 · H "+other.label)
	press(t, m, "esc", "e")
	if m.page != pageEditor || m.editor.honest == nil || m.editor.honest.traj != other.traj {
		t.Fatalf("e edits against %q, not the run on screen %q:\n%s", m.editor.h.label, other.label, screen(m))
	}
	mustSee(t, m, "Witness editor › T2A-2 · H "+other.label)
	press(t, m, "c")
	if m.page != pageCompare || m.compare.p == nil || m.compare.p.h.traj != other.traj {
		t.Fatalf("c from the editor compares against %q, not %q", m.compare.h.label, other.label)
	}
	mustSee(t, m, "H · "+other.label)
	press(t, m, "esc", "esc")

	// H marks the run on screen; t shows another, which c compares with it.
	press(t, m, "H")
	mustSee(t, m, "H is "+other.label)
	press(t, m, "t")
	cur := m.inspect.current()
	if cur.traj == other.traj {
		t.Fatal("t stayed on the marked run")
	}
	if m.inspect.honest().traj != other.traj || !strings.Contains(screen(m), "vs H "+shortenMiddle(other.label, 20)[:5]) {
		t.Fatalf("the Inspector does not name H beside the run on screen:\n%s", screen(m))
	}
	press(t, m, "c")
	if m.page != pageCompare || m.compare.p == nil || m.compare.p.h.traj != other.traj || m.compare.p.a.traj != cur.traj {
		t.Fatalf("c compares %q with %q, want H %q with %q:\n%s", m.compare.h.label, m.compare.p.a.label, other.label, cur.label, screen(m))
	}
	mustSee(t, m, "H · "+other.label, "A · "+cur.label)
	press(t, m, "esc", "H")
	if m.inspect.honest().traj != cur.traj {
		t.Fatal("H on another run did not make it H")
	}
	press(t, m, "H")
	if _, ok := m.inspect.marked["T2A-2"]; ok || m.inspect.honest().traj != cur.traj {
		t.Fatal("H on the marked run did not take the mark back")
	}
}

// TestSuiteWitnessReadsAgainstItsH: on the suite the witness is no run:
// on screen, H is still the honest run, and c compares the two.
func TestSuiteWitnessReadsAgainstItsH(t *testing.T) {
	m := openExample(t, 80, 24)
	press(t, m, "t")
	if m.inspect.current().label != "witness" || m.inspect.honest().label != "honest" {
		t.Fatalf("on the witness H is %q", m.inspect.honest().label)
	}
	mustSee(t, m, "EX-01 · witness · vs H honest")
	press(t, m, "c")
	mustSee(t, m, "H · honest", "A · witness")
}
