package independent

import (
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/parthack/parthack/domains/tauair"
	"github.com/parthack/parthack/internal/fixture"
	"github.com/parthack/parthack/model"
)

// streamed certifies tr through a Stream in batches of size batch (all
// at once when batch is 0). Each batch is copied into one buffer that is
// cleared after Add returns, as a streaming decoder reuses its memory, so
// a Stream that kept a step would certify garbage. Finish gets only the
// header.
func streamed(task *model.Task, tr *model.Trajectory, batch int) (*model.Certificate, *model.Rejection) {
	if batch == 0 {
		batch = max(len(tr.Steps), 1)
	}
	s := NewStream(task)
	var buf []model.Step
	for from := 0; from < len(tr.Steps); from += batch {
		buf = append(buf[:0], tr.Steps[from:min(from+batch, len(tr.Steps))]...)
		s.Add(buf)
		clear(buf)
	}
	return s.Finish(&model.Trajectory{Task: tr.Task, GoalClaim: tr.GoalClaim}, len(tr.Steps))
}

// sameAsCertify checks that every batch split gives exactly Certify's
// certificate or rejection, and returns it.
func sameAsCertify(t *testing.T, task *model.Task, tr *model.Trajectory) (*model.Certificate, *model.Rejection) {
	t.Helper()
	want, wantRej := Certify(task, tr)
	for _, batch := range []int{1, 7, 0} {
		got, gotRej := streamed(task, tr, batch)
		if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotRej, wantRej) {
			t.Fatalf("batches of %d: %+v %v; Certify: %+v %v", batch, got, gotRej, want, wantRej)
		}
	}
	return want, wantRej
}

func loadTrajectory(t *testing.T, dir, name string) *model.Trajectory {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "..", "..", "testdata", dir, name))
	if err != nil {
		t.Fatal(err)
	}
	tr, err := model.DecodeTrajectory(name, src)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestStreamExamples: the example and fixture trajectories certify alike
// however they are split.
func TestStreamExamples(t *testing.T) {
	for _, c := range [][2]string{
		{"example", "honest.json"}, {"example", "witness.json"}, {"example", "rollback.json"},
		{"certifier/goalpatch", "honest.json"}, {"certifier/attribution", "honest.json"},
		{"certifier/accessreview", "honest.json"}, {"certifier/accessreview", "witness.json"}, {"certifier/accessreview", "rollback.json"},
	} {
		t.Run(c[0]+"/"+c[1], func(t *testing.T) {
			if _, rej := sameAsCertify(t, loadTask(t, c[0]), loadTrajectory(t, c[0], c[1])); rej != nil {
				t.Fatal(rej)
			}
		})
	}
}

// TestStreamFiresAtTheEnd: a scripted event due after the last step fires
// in Finish, whatever the batches: goalpatch's H takes two steps and the
// revision to v2 comes after them (its note: under v2, 2/3).
func TestStreamFiresAtTheEnd(t *testing.T) {
	cert, rej := sameAsCertify(t, loadTask(t, "certifier/goalpatch"), loadTrajectory(t, "certifier/goalpatch", "honest.json"))
	if rej != nil || cert.GoalVersion != "v2" || cert.Events != 3 || cert.PState != (model.Frac{Num: 2, Den: 3}) {
		t.Fatalf("%+v %v: want v2 after 3 events, P_state 2/3", cert, rej)
	}
}

// TestStreamTrueClaims: a trajectory claiming, at every step, what replay
// does (ok, state hash, diff) and its final goal version certifies,
// however split.
func TestStreamTrueClaims(t *testing.T) {
	task := loadTask(t, "example")
	tr := fixture.Trajectory(t, "witness.json")
	tr.Steps = append(tr.Steps, model.Step{Action: model.Action{Op: model.OpUpdate, Type: "ticket", ID: "T9", Fields: []model.Assign{{Field: "priority", Value: model.Int(1)}}}})
	w := newWorld(task)
	for i := range tr.Steps {
		var diff []model.CellDiff
		why := w.apply(&tr.Steps[i].Action, &diff)
		if diff == nil {
			diff = []model.CellDiff{}
		}
		tr.Steps[i].Number = i + 1
		tr.Steps[i].Claim = model.Claim{HasOK: true, OK: !why.failed(), StateHash: w.hash(), HasDiff: true, Diff: diff}
	}
	tr.GoalClaim = w.goal
	if _, rej := sameAsCertify(t, task, tr); rej != nil {
		t.Fatal(rej)
	}
}

// TestStreamRejections: every kind of rejection, alone and against the
// others, comes out as Certify gives it however the steps are split: the
// task first, then the first illegal step anywhere, then the first
// misnumbered step, then the first contradicted claim in log order
// (ok, state hash, diff), then the goal-version claim.
func TestStreamRejections(t *testing.T) {
	badOK := func(i int) func(*model.Trajectory) {
		return func(tr *model.Trajectory) { tr.Steps[i].Claim = model.Claim{HasOK: true, OK: false} }
	}
	badHash := func(i int) func(*model.Trajectory) {
		return func(tr *model.Trajectory) { tr.Steps[i].Claim = model.Claim{StateHash: strings.Repeat("0", 64)} }
	}
	badDiff := func(i int) func(*model.Trajectory) {
		return func(tr *model.Trajectory) { tr.Steps[i].Claim = model.Claim{HasDiff: true, Diff: []model.CellDiff{}} }
	}
	illegal := func(i int) func(*model.Trajectory) {
		return func(tr *model.Trajectory) { tr.Steps[i].Actor = model.ActorUser }
	}
	misnumber := func(i int) func(*model.Trajectory) {
		return func(tr *model.Trajectory) { tr.Steps[i].Number = 9 }
	}
	wrongTask := func(tr *model.Trajectory) { tr.Task = "EX-99" }
	wrongGoal := func(tr *model.Trajectory) { tr.GoalClaim = "v9" }
	for _, c := range []struct {
		name      string
		dir       string
		mutate    []func(*model.Trajectory)
		reason    model.Reason
		component string
		step, seq int
	}{
		{"task", "example", mut(wrongTask), model.MalformedSchema, "task", 0, 0},
		{"illegal", "example", mut(illegal(2)), model.IllegalAction, "op", 3, 3},
		{"misnumbered", "example", mut(misnumber(1)), model.ReplayMismatch, "step", 2, 0},
		{"ok claim", "example", mut(badOK(1)), model.ReplayMismatch, "ok", 2, 2},
		{"state hash claim", "example", mut(badHash(2)), model.ReplayMismatch, "state_hash", 3, 3},
		{"diff claim", "example", mut(badDiff(0)), model.ReplayMismatch, "diff", 1, 1},
		{"goal claim", "example", mut(wrongGoal), model.ReplayMismatch, "goal_version", 0, 0},
		{"task before illegal", "example", mut(illegal(0), wrongTask), model.MalformedSchema, "task", 0, 0},
		{"later illegal before misnumbered", "example", mut(misnumber(0), illegal(3)), model.IllegalAction, "op", 4, 4},
		{"later illegal before claim", "example", mut(badOK(0), illegal(3)), model.IllegalAction, "op", 4, 4},
		{"later misnumbered before claim", "example", mut(badDiff(0), misnumber(3)), model.ReplayMismatch, "step", 4, 0},
		{"first claim in log order", "example", mut(badHash(3), badOK(1)), model.ReplayMismatch, "ok", 2, 2},
		{"claim before goal", "example", mut(badDiff(3), wrongGoal), model.ReplayMismatch, "diff", 4, 4},
		{"illegal after a scripted event", "certifier/goalpatch", mut(illegal(3)), model.IllegalAction, "op", 4, 5},
		{"goal claim after the last scripted event", "certifier/goalpatch", mut(func(tr *model.Trajectory) { tr.GoalClaim = "v1" }), model.ReplayMismatch, "goal_version", 0, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			task := loadTask(t, c.dir)
			tr := fixture.Trajectory(t, "witness.json")
			tr.Task = task.ID
			for _, m := range c.mutate {
				m(tr)
			}
			_, rej := sameAsCertify(t, task, tr)
			if rej == nil || rej.Reason != c.reason || rej.Evidence.Component != c.component || rej.Evidence.Step != c.step || rej.Evidence.Seq != c.seq {
				t.Fatalf("rejection %+v; want %s on %s at step %d, event %d", rej, c.reason, c.component, c.step, c.seq)
			}
		})
	}
}

func mut(fs ...func(*model.Trajectory)) []func(*model.Trajectory) { return fs }

// TestStreamTauRuns: tau-bench's recorded GPT-4o runs, tool calls that
// fail and calls that write, certify alike however they are split.
func TestStreamTauRuns(t *testing.T) {
	runs, err := tauair.AgentRuns()
	if err != nil {
		t.Fatal(err)
	}
	failed, wrote := 0, 0
	for i := range runs {
		task, err := tauair.ByID(tauair.TaskID(runs[i].TaskID))
		if err != nil {
			t.Fatal(err)
		}
		tr, err := runs[i].Trajectory()
		if err != nil {
			t.Fatal(err)
		}
		cert, rej := sameAsCertify(t, task.Task, tr)
		if rej != nil {
			t.Fatalf("%s: %v", runs[i].Name(), rej)
		}
		if slices.ContainsFunc(cert.Causes, func(c model.Cause) bool { return c.Actor == model.ActorAgent }) {
			wrote++
		}
		s := NewStream(task.Task)
		s.failFrom = 0 // keep the first failed call
		s.Add(tr.Steps)
		if s.failed != nil {
			failed++
		}
	}
	if failed == 0 || wrote == 0 {
		t.Fatalf("of %d runs, %d have a failed call and %d an agent cause: the corpus no longer covers both", len(runs), failed, wrote)
	}
}

// TestStreamMemoryIsFlat: a Stream's memory does not grow with the number
// of steps it has replayed.
func TestStreamMemoryIsFlat(t *testing.T) {
	task := loadTask(t, "example")
	batch := fixture.Churn(1000)
	s := NewStream(task)
	heap := func(batches int) uint64 {
		for range batches {
			s.Add(batch)
		}
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	early := heap(20)
	late := heap(300)
	if late > early+64<<10 {
		t.Fatalf("heap %d B after 20,000 steps, %d B after 320,000", early, late)
	}
	runtime.KeepAlive(s)
}
