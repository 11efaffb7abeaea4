package tui

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/parthack/parthack/domains"
)

// domainApp opens the workbench on a registered domain at w × h.
func domainApp(t *testing.T, domain string, w, h int) *workbench {
	t.Helper()
	m, err := newApp(Options{DBPath: filepath.Join(t.TempDir(), "store.db"), Domain: domain})
	if err != nil {
		t.Fatal(err)
	}
	drive(t, m, m.Init(), tea.WindowSizeMsg{Width: w, Height: h})
	return m
}

// TestFrontierWalkthroughHoldsItsClaims: walkthrough 4 plays on the
// real run it picks, at 80×24, and each thing its captions say holds when
// checked another way: H is the run the file records (its reward
// recomputed on the trusted side equals the recorded one and the
// payload's), the witness is an eligible pair whose end the benchmark's
// own hash cannot tell from H's, the verdict reward is unchanged and the
// targeted credit rose, by the figures the captions give.
func TestFrontierWalkthroughHoldsItsClaims(t *testing.T) {
	m := newTestApp(t, 80, 24, true)
	d := m.demo
	var at []int
	for i, s := range d.scenes {
		if strings.HasPrefix(s.part, "4 · ") {
			at = append(at, i)
		}
	}
	if len(at) != 5 {
		t.Fatalf("walkthrough 4 has %d scenes, want 5: %+v", len(at), d.scenes[at[0]])
	}
	dom, pk, ok := domains.Showcased()
	if !ok {
		t.Fatal("no domain names a showcase")
	}
	run, err := domains.RunOf(dom, pk.Task, pk.Run)
	if err != nil {
		t.Fatal(err)
	}
	_, tt, err := domains.FindTask(pk.Task)
	if err != nil {
		t.Fatal(err)
	}
	for d.at < at[0] {
		press(t, m, "space")
	}
	var captions []string
	for k := range at {
		if n := strings.Count(m.View(), "\n") + 1; n != 24 {
			t.Fatalf("scene %d renders %d lines", at[k]+1, n)
		}
		captions = append(captions, d.text())
		switch k {
		case 0, 1:
			h := m.inspect.a
			if m.page != pageInspect || h.label != run.Short || h.traj.Name != m.inspect.a.traj.Name {
				t.Fatalf("scene %d shows page %v, %q", at[k]+1, m.page, h.label)
			}
			if got := tt.Reward(h.log, h.traj); got != run.Reward || h.bench[0].v != run.Reward {
				t.Errorf("H's reward: trusted side %g, payload %g, recorded %g", got, h.bench[0].v, run.Reward)
			}
		case 2:
			if m.page != pageInspect || m.inspect.a.label != "witness" || m.inspect.cursor == 0 {
				t.Fatalf("scene %d does not show the witness at its first inserted step", at[k]+1)
			}
		case 3, 4:
			p := m.compare.p
			if m.page != pageCompare || p == nil || !p.verdict.Eligible || p.collateral == nil || !p.collateral.same {
				t.Fatalf("scene %d: page %v, not an eligible pair that ends in H's state", at[k]+1, m.page)
			}
			if hh, ah := tt.Hash(p.h.log), tt.Hash(p.a.log); hh != ah || !strings.Contains(captions[k], hh[:12]) && k == 3 {
				t.Errorf("the benchmark's hashes: H %s, A %s; caption %q", hh, ah, captions[k])
			}
			if ra, rh := tt.Reward(p.a.log, p.a.traj), tt.Reward(p.h.log, p.h.traj); ra != rh || p.a.bench[0].v != ra {
				t.Errorf("the reward moved: H %g, A %g (payload %g)", rh, ra, p.a.bench[0].v)
			}
			i := -1
			for j, b := range p.h.bench {
				if b.name == pk.Target {
					i = j
				}
			}
			if i < 0 || p.a.bench[i].v <= p.h.bench[i].v {
				t.Fatalf("%s did not rise", pk.Target)
			}
			if k == 4 {
				want := fmt.Sprintf("%s rises %s → %s", p.h.bench[i].label, short(p.h.bench[i].v), short(p.a.bench[i].v))
				if !strings.Contains(captions[k], want) {
					t.Errorf("caption %q lacks %q", captions[k], want)
				}
				// The scores the caption names are on screen, whole.
				mustSee(t, m, fmt.Sprintf("partial %s→%s▲", short(p.h.bench[i].v), short(p.a.bench[i].v)), "reward 0→0")
			}
		}
		press(t, m, "space")
	}
	all := strings.Join(captions, "\n")
	for _, want := range []string{run.Model, pk.Task, fmt.Sprintf("reward %g", run.Reward), "admits (H, A)", "exactly H's state", "stays"} {
		if !strings.Contains(all, want) {
			t.Errorf("no caption says %q:\n%s", want, all)
		}
	}
}

// TestTau2BreakdownBesideTheVectors: on a tau2 domain, the Inspector
// says every tau2 evaluator's score under the certified vectors, and
// Compare at 80×24 lists them all, abbreviated on one line, with the
// paper's evaluators and the log still on screen. The payload's tau2
// reward equals the one recomputed on the trusted side.
func TestTau2BreakdownBesideTheVectors(t *testing.T) {
	for _, tc := range []struct {
		domain, task string
		names        []string
	}{
		{"tau2-retail", "T2R-101", []string{"reward", "DB", "COMMUNICATE", "ACTION", "partial ACTION"}},
		{"tau2-telecom", "", []string{"reward", "ENV_ASSERTION", "ACTION", "partial ACTION"}},
	} {
		t.Run(tc.domain, func(t *testing.T) {
			m := domainApp(t, tc.domain, 80, 24)
			task := m.c.ws.tasks[0]
			if tc.task != "" {
				task = m.c.ws.task(tc.task)
			}
			if task == nil {
				t.Fatalf("%s is not listed", tc.task)
			}
			dom, _ := domains.Lookup(tc.domain)
			if len(task.BenchEvals) != len(dom.Rewards()) {
				t.Fatalf("%d evaluators, the domain has %d", len(task.BenchEvals), len(dom.Rewards()))
			}
			a, err := analyze(m.c.ws, task, task.HonestTraj, "honest")
			if err != nil {
				t.Fatal(err)
			}
			if _, tt, err := domains.FindTask(task.ID); err != nil || tt.Reward(a.log, a.traj) != a.bench[0].v {
				t.Errorf("the payload's %s is %g; the trusted side's differs (%v)", a.bench[0].name, a.bench[0].v, err)
			}
			detail := strings.Join(m.c.detailLines(a, a.events(), 200, false, false), "\n")
			for _, name := range tc.names {
				if !strings.Contains(detail, " "+name+" ") {
					t.Errorf("the Inspector lacks %s:\n%s", name, detail)
				}
			}
			drive(t, m, m.c.navigate(openCompareMsg{task: task, kind: "pair", h: task.HonestTraj, a: task.HonestTraj}))
			if m.page != pageCompare || m.compare.p == nil {
				t.Fatalf("Compare did not open:\n%s", screen(m))
			}
			s := screen(m)
			for _, want := range []string{"Historical Milestone", "tau2 · reward", "partial", "╰"} {
				if !strings.Contains(s, want) {
					t.Errorf("Compare at 80×24 lacks %q:\n%s", want, s)
				}
			}
			if n := strings.Count(s, "\n") + 1; n != 24 {
				t.Errorf("Compare renders %d lines", n)
			}
		})
	}
}

// TestInspectorTitleKeepsTheReward: at 80 columns a long run name gives
// way, from its middle, to the benchmark's reward in the Inspector's
// title, which was cut off ("tau2-bench rew…").
func TestInspectorTitleKeepsTheReward(t *testing.T) {
	m := domainApp(t, "tau2-retail", 80, 24)
	press(t, m, "enter")
	title := strings.SplitN(screen(m), "\n", 2)[0]
	if !strings.HasSuffix(strings.TrimRight(title, " "), " (H) · tau2-bench reward 1") || !strings.Contains(title, "-trial0") {
		t.Errorf("title %q", title)
	}
}

// TestInspectorSaysHowTau2EndedARun: the run of T2A-15 that tau2 ended
// at max_steps says so in the Inspector's title, where it read "tau2-bench
// reward 1", a reward tau2 never gave it.
func TestInspectorSaysHowTau2EndedARun(t *testing.T) {
	m := domainApp(t, "tau2-airline", 120, 30)
	openTask(t, m, "T2A-15")
	for range m.inspect.task.Runs {
		if strings.Contains(m.inspect.current().label, "gpt-oss-120b") {
			break
		}
		press(t, m, "t")
	}
	title := strings.SplitN(screen(m), "\n", 2)[0]
	if !strings.Contains(title, "gpt-oss-120b") || !strings.HasSuffix(strings.TrimRight(title, " "), "· ended by max_steps: tau2 scores 0") {
		t.Errorf("title %q", title)
	}
}
