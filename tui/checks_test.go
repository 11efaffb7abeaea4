package tui

import (
	"math"
	"strings"
	"testing"
)

// TestBenchmarkChecksView: b shows why tau2 scored the run on screen as
// it did: the reward as the product over its basis, each component, each
// gold action with the call that matched it or why none did, and in
// Compare the same for H and A; ? names it (issue 30, item 3: tau2's
// gold actions and its reward's components appeared in no screen).
func TestBenchmarkChecksView(t *testing.T) {
	m := domainApp(t, "tau2-airline", 80, 24)
	openTask(t, m, "T2A-2")
	showRun(t, m, "gpt-4.1-trial0")
	press(t, m, "?")
	mustSee(t, m, "gold actions")
	press(t, m, "esc", "b")
	if m.overlay == nil {
		t.Fatal("b opened no overlay")
	}
	mustSee(t, m, "tau2-bench's checks · T2A-2 · gpt-4.1-trial0", "reward 0 = DB 0 × COMMUNICATE 1", "reward basis: DB, COMMUNICATE",
		"partial ACTION       .75", "PR151 partial ACTION .88   another project's rule, not the benchmark's", "Gold actions · 3 of 4 matched", "1 ✓ get_user_details", "· event 1",
		"4 ✗ send_certificate", "wrong arguments: the call at event 5 has amount 100 (gold 50)", "the end state's hash")

	// Compare gives H's checks and A's.
	press(t, m, "esc", "H", "t", "c")
	if m.page != pageCompare || m.compare.p == nil {
		t.Fatalf("c did not open Compare:\n%s", screen(m))
	}
	press(t, m, "b")
	body := strings.Join(m.overlay.lines, "\n")
	for _, want := range []string{"H · gpt-4.1-trial0", "A · " + m.compare.p.a.label, "amount 100 (gold 50)"} {
		if !strings.Contains(body, want) {
			t.Fatalf("Compare's checks lack %q:\n%s", want, body)
		}
	}
	if strings.Count(body, "Gold actions") != 2 {
		t.Fatalf("Compare's checks do not give both runs' gold actions:\n%s", body)
	}
}

// TestBenchmarkChecksAgreeWithScores: on every run of tau2 airline's
// first tasks the gold actions the view says were matched are partial
// ACTION's share, and ACTION is 1 exactly when all are.
func TestBenchmarkChecksAgreeWithScores(t *testing.T) {
	m := domainApp(t, "tau2-airline", 80, 24)
	seen := 0
	for _, task := range m.c.ws.tasks[:min(8, len(m.c.ws.tasks))] {
		for _, ch := range task.stored() {
			a, err := analyze(m.c.ws, task, ch.traj, ch.label)
			if err != nil {
				t.Fatal(err)
			}
			if a.checks == nil || len(a.checks.golds) == 0 {
				continue
			}
			n := 0
			for _, g := range a.checks.golds {
				if g.Event > 0 {
					n++
				} else if !strings.HasPrefix(g.Why, "missing: ") && !strings.HasPrefix(g.Why, "wrong arguments: ") {
					t.Errorf("%s %s: gold %s unmatched with no reason: %q", task.ID, ch.label, g.Ref.Tool, g.Why)
				}
			}
			got := map[string]float64{}
			for _, b := range a.bench {
				got[benchShort(task.Bench, b.label)] = b.v
			}
			share := float64(n) / float64(len(a.checks.golds))
			if math.Abs(got["partial ACTION"]-share) > 1e-9 || (got["ACTION"] == 1) != (n == len(a.checks.golds)) {
				t.Errorf("%s %s: %d of %d gold actions matched, but partial ACTION %g, ACTION %g", task.ID, ch.label, n, len(a.checks.golds), got["partial ACTION"], got["ACTION"])
			}
			seen++
		}
	}
	if seen < 10 {
		t.Fatalf("only %d runs with gold actions checked", seen)
	}
	t.Logf("%d runs", seen)
}
