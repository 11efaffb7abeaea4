package tui

import (
	"crypto/sha256"
	"fmt"
	"strings"
	"testing"

	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/store"
)

// TestGoallessTaskRunsOpen: a task with no goal predicate (its gold run
// changes nothing) opens its runs in the Inspector: the calls, each
// event's typed diff, the conversation and the benchmark's own rewards;
// only c, e and S say why they do not apply, whole at 80 columns (issue
// 30, item 2: T2A-0 showed only "error: … no goal predicate", so even a
// failed run could not be read).
func TestGoallessTaskRunsOpen(t *testing.T) {
	for _, tc := range []struct {
		domain, task string
		rewards      []string // what the Inspector gives of the benchmark's own scores
	}{
		{"tau2-airline", "T2A-0", []string{"tau2-bench reward 0", "tau2-bench at termination: reward 0 · DB 0 · COMMUNICATE 1"}},
		{"tau-airline", "TAU-A12", []string{"tau-bench reward"}},
	} {
		t.Run(tc.task, func(t *testing.T) {
			m := domainApp(t, tc.domain, 80, 24)
			openTask(t, m, tc.task)
			a := m.inspect.a
			if a.noGoal == nil || a.events() == 0 {
				t.Fatalf("%s: no goal %v, %d events", tc.task, a.noGoal, a.events())
			}
			mustSee(t, m, "No goal predicate", "progress to certify, score or attack")
			mustSee(t, m, tc.rewards...)
			if a.traj.Transcript != nil {
				mustSee(t, m, "Conversation · before the first call")
			}
			// The first event that changed something shows its typed diff.
			for k := 1; k <= a.events(); k++ {
				if ev := &a.log.Events[k-1]; ev.OK && ev.DiffLen() > 0 {
					press(t, m, "0")
					for range k {
						press(t, m, "l")
					}
					mustSee(t, m, fmt.Sprintf("Event %d of", k))
					d := strings.Join(m.c.detailLines(a, k, 60, false, false), "\n")
					if cell := a.log.TypedDiff(ev)[0]; !strings.Contains(d, "Typed diff") || !strings.Contains(d, cell.Field) {
						t.Fatalf("event %d's detail lacks its typed diff (%s):\n%s", k, cell.Field, d)
					}
					break
				}
			}
			for _, k := range []string{"c", "r", "e", "S"} {
				press(t, m, k)
				if m.page != pageInspect || m.attack.state != attackIdle {
					t.Fatalf("%s opened on a task with no goal:\n%s", k, screen(m))
				}
				if !strings.Contains(m.status, "has no goal predicate") {
					t.Fatalf("%s did not say why: %q", k, m.status)
				}
				press(t, m, "esc")
			}
		})
	}
}

// TestGoallessWitnessSummary: a witness saved on a task with no goal
// (an import's run of TAU-A12) gets no verdict in the Saved list, and
// summarizing it does not fail: its runs' analyses have no scores.
func TestGoallessWitnessSummary(t *testing.T) {
	m := domainApp(t, "tau-airline", 80, 24)
	task := m.c.ws.task("TAU-A12")
	r := store.Record{Kind: store.KindWitness, Key: 1, Task: task.ID, Name: "run", Body: model.EncodeTrajectory(task.HonestTraj)}
	msg := &summariesMsg{sums: map[recordID]recordSummary{}, steps: map[recordID]int{}}
	summarizeOnce(m.c.ws, map[string]*analysis{}, map[[sha256.Size]byte]summarized{}, r, msg)
	if sum, ok := msg.sums[idOf(r)]; ok {
		t.Fatalf("a witness of a task with no goal has a verdict: %+v", sum)
	}
	if msg.steps[idOf(r)] != len(task.HonestTraj.Steps) {
		t.Fatalf("its steps are not counted: %d", msg.steps[idOf(r)])
	}
}
