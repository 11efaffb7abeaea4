package tui

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/parthack/parthack/internal/fixture"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
)

// longLog opens the inspector on an n-step trajectory of the worked
// example task (fixture.Churn: flips, assignments, failing steps).
func longLog(tb testing.TB, n int) *workbench {
	tb.Helper()
	task := fixture.ExampleTask(tb)
	env, err := pbcste.Compile(task)
	if err != nil {
		tb.Fatal(err)
	}
	st := &suiteTask{ID: task.ID, Title: task.Title, Public: task,
		HonestTraj: &model.Trajectory{Task: task.ID, Name: "churn", Steps: fixture.Churn(n)}}
	ws := newWorkspace([]*suiteTask{st})
	ws.envs[task.ID] = env
	c := &common{ws: ws, dbPath: filepath.Join(tb.TempDir(), "store.db"), st: newStyles(defaultTheme), keys: newKeyMap(), hl: newHighlighter(defaultTheme)}
	m := newModel(c)
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	a, err := analyze(ws, st, st.HonestTraj, "churn")
	if err != nil {
		tb.Fatal(err)
	}
	m.page = pageInspect
	m.inspect.present(a, a.events()/2)
	return m
}

// BenchmarkCursorStep times one step of the cursor, Update and View, on
// logs of 10,000 and 100,000 steps, and reports the 99th percentile: it
// must not grow with the log's length.
func BenchmarkCursorStep(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		b.Run(fmt.Sprintf("steps=%d", n), func(b *testing.B) {
			m := longLog(b, n)
			right := tea.KeyMsg{Type: tea.KeyRight}
			left := tea.KeyMsg{Type: tea.KeyLeft}
			var times []time.Duration
			dir := right
			for b.Loop() {
				start := time.Now()
				m.Update(dir)
				_ = m.View()
				times = append(times, time.Since(start))
				// Sweep back and forth over a window of the log so every
				// step renders a new event.
				if c := m.inspect.cursor; c >= m.inspect.a.events()/2+500 {
					dir = left
				} else if c <= m.inspect.a.events()/2-500 {
					dir = right
				}
			}
			slices.Sort(times)
			b.ReportMetric(float64(times[len(times)*99/100].Microseconds()), "p99-µs/step")
			b.ReportMetric(float64(m.inspect.a.events()), "events")
		})
	}
}

// BenchmarkOpen times opening the workbench on the suite: load, first
// size, first View.
func BenchmarkOpen(b *testing.B) {
	dir := b.TempDir()
	for b.Loop() {
		m, err := newApp(Options{DBPath: filepath.Join(dir, "store.db")})
		if err != nil {
			b.Fatal(err)
		}
		m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
		_ = m.View()
	}
}

// TestOpenIsFast opens the workbench in a fresh process (nothing decoded
// or cached yet) and requires the first View within 300 ms.
func TestOpenIsFast(t *testing.T) {
	if os.Getenv("PARTHACK_OPEN_PROBE") == "1" {
		start := time.Now()
		m, err := newApp(Options{DBPath: filepath.Join(t.TempDir(), "store.db")})
		if err != nil {
			t.Fatal(err)
		}
		m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
		if !strings.Contains(m.View(), "Tasks · ") {
			t.Fatal("the first view shows no task list")
		}
		fmt.Printf("open-ns=%d\n", time.Since(start).Nanoseconds())
		return
	}
	if testing.Short() {
		t.Skip("spawns a process")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestOpenIsFast$", "-test.count=1")
	cmd.Env = append(os.Environ(), "PARTHACK_OPEN_PROBE=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("probe: %v\n%s", err, out)
	}
	for _, l := range strings.Split(string(out), "\n") {
		if ns, ok := strings.CutPrefix(l, "open-ns="); ok {
			d, err := strconv.ParseInt(ns, 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("time to first View on the suite: %v", time.Duration(d))
			if time.Duration(d) > 300*time.Millisecond {
				t.Fatalf("time to first View %v, over 300 ms", time.Duration(d))
			}
			return
		}
	}
	t.Fatalf("the probe printed no time:\n%s", out)
}
