package builder_test

import (
	"bytes"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	_ "github.com/parthack/parthack/domains/all"

	"github.com/parthack/parthack/domains"
	"github.com/parthack/parthack/internal/fixture"
	"github.com/parthack/parthack/internal/payload"
	"github.com/parthack/parthack/internal/payload/builder"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
	"github.com/parthack/parthack/tasks"
	"github.com/parthack/parthack/tasks/sealed"
)

// stepsOf streams an in-memory trajectory in batches of batch steps.
func stepsOf(tr *model.Trajectory, batch int) builder.Steps {
	return func(each func([]model.Step)) (*model.Trajectory, int, error) {
		for i := 0; i < len(tr.Steps); i += batch {
			each(tr.Steps[i:min(i+batch, len(tr.Steps))])
		}
		head := *tr
		head.Steps = nil
		return &head, len(tr.Steps), nil
	}
}

// sameBytes holds the streamed payload and projection of a trajectory to
// BuildTrajectory's, byte for byte.
func sameBytes(t *testing.T, name string, pub *model.Task, env *pbcste.Env, tr *model.Trajectory) {
	t.Helper()
	p, err := builder.BuildTrajectory(pub, env.Replay(tr.Steps), tr)
	if err != nil {
		// A task Build refuses (a tau-bench task with no goal predicate)
		// is refused alike.
		serr := builder.Stream(pub, env, stepsOf(tr, 3), payload.NewEncoder(&bytes.Buffer{}))
		if serr == nil || serr.Error() != err.Error() {
			t.Errorf("%s: Build: %v; Stream: %v", name, err, serr)
		}
		return
	}
	q, err := payload.Project(p)
	if err != nil {
		t.Fatal(err)
	}
	aside := spilled(t, tr)
	differs := func(what string, got, want []byte) {
		t.Helper()
		if !bytes.Equal(got, want) {
			i := 0
			for i < min(len(got), len(want)) && got[i] == want[i] {
				i++
			}
			t.Errorf("%s: %s differs from Build's at byte %d:\n%s\n%s", name, what, i,
				got[max(0, i-80):min(len(got), i+80)], want[max(0, i-80):min(len(want), i+80)])
		}
	}
	for _, c := range []struct {
		what string
		enc  func(*bytes.Buffer) *payload.Encoder
		want []byte
	}{
		{"payload", func(b *bytes.Buffer) *payload.Encoder { return payload.NewEncoder(b) }, p.Bytes()},
		{"projection", func(b *bytes.Buffer) *payload.Encoder { return payload.NewProjectionEncoder(b) }, q.Bytes()},
	} {
		for _, x := range []struct {
			how string
			tr  *model.Trajectory
		}{{"", tr}, {" (texts set aside)", aside}} {
			var got bytes.Buffer
			if err := builder.Stream(pub, env, stepsOf(x.tr, 3), c.enc(&got)); err != nil {
				t.Fatalf("%s: %s%s: %v", name, c.what, x.how, err)
			}
			differs("streamed "+c.what+x.how, got.Bytes(), c.want)
		}
	}
	for _, x := range []struct {
		how string
		tr  *model.Trajectory
	}{{"", tr}, {" (texts set aside)", aside}} {
		got, err := builder.TrajectoryBytes(pub, env.Replay(tr.Steps), x.tr)
		if err != nil {
			t.Fatalf("%s: TrajectoryBytes%s: %v", name, x.how, err)
		}
		differs("TrajectoryBytes"+x.how, got, p.Bytes())
	}
}

// spilled is tr with its turns' texts set aside as a stream sets aside a
// long string (model.SpillShortStrings), each read back in pieces.
func spilled(t *testing.T, tr *model.Trajectory) *model.Trajectory {
	t.Helper()
	if len(tr.Transcript) == 0 {
		return tr
	}
	src := []byte{'['}
	for i, turn := range tr.Transcript {
		if i > 0 {
			src = append(src, ',')
		}
		b, err := turn.Content.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		src = append(src, b...)
	}
	out := *tr
	out.Transcript = slices.Clone(tr.Transcript)
	restore := model.SpillShortStrings(8)
	err := model.StreamJSONArray("turns.json", bytes.NewReader(append(src, ']')), nil, func(i int, v model.JSON) error {
		var err error
		out.Transcript[i].Content, err = v.Text()
		return err
	})
	if n := restore(); err == nil && n == 0 && len(src) > 2+len(tr.Transcript)*11 {
		t.Fatal("no text set aside")
	}
	if err != nil {
		t.Fatal(err)
	}
	return &out
}

// TestStreamIsBuild: the streamed payload of every stored trajectory of
// the suite, of the example task, and of every domain task's gold run and
// shipped runs (tau-bench's and tau2's) is Build's, byte for byte.
func TestStreamIsBuild(t *testing.T) {
	env := fixture.ExampleEnv(t)
	for _, name := range []string{"honest.json", "witness.json", "rollback.json"} {
		sameBytes(t, "EX-01 "+name, env.Task, env, fixture.Trajectory(t, name))
	}
	sameBytes(t, "EX-01 churn", env.Task, env, &model.Trajectory{Task: "EX-01", Steps: fixture.Churn(500)})
	sameBytes(t, "EX-01 illegal actor", env.Task, env, illegalActor())
	suite, err := tasks.Suite()
	if err != nil {
		t.Fatal(err)
	}
	for _, task := range suite {
		trusted, err := sealed.Trusted(task.ID)
		if err != nil {
			t.Fatal(err)
		}
		env, err := pbcste.Compile(trusted)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range task.Trajectories() {
			sameBytes(t, task.ID+" "+n.File, task.Public, env, n.Trajectory)
		}
	}
	for _, d := range domains.All() {
		ts, err := d.Tasks()
		if err != nil {
			t.Fatal(err)
		}
		byID := map[string]*domains.Task{}
		for _, task := range ts {
			byID[task.ID] = task
			if task.Gold == nil {
				continue
			}
			env, err := task.Env()
			if err != nil {
				t.Fatal(err)
			}
			sameBytes(t, task.ID+" gold", task.Model, env, task.Gold)
		}
		runs, err := d.Runs()
		if err != nil {
			t.Fatal(err)
		}
		if c, _ := domains.CountsOf(d); len(runs) == 0 && c.Runs > 0 {
			t.Errorf("%s: no runs to compare", d.Name()) // a domain that ships none (BFCL) says so
		}
		for _, r := range runs {
			task := byID[r.Task]
			if r.Embedded != nil {
				task = r.Embedded
			}
			if task == nil {
				t.Fatalf("%s: run %s of unknown task %s", d.Name(), r.Name, r.Task)
			}
			tr, err := r.Trajectory()
			if err != nil {
				t.Fatal(err)
			}
			env, err := task.Env()
			if err != nil {
				t.Fatal(err)
			}
			sameBytes(t, fmt.Sprintf("%s %s", d.Name(), r.Name), task.Model, env, tr)
		}
	}
}

// countingWriter counts bytes and keeps none.
type countingWriter struct{ n int }

func (w *countingWriter) Write(b []byte) (int, error) { w.n += len(b); return len(b), nil }

// TestStreamHoldsNoEvents: streaming the payload of 200,000 steps grows
// the live heap by far less than one event's worth per step, where Build
// holds every event (hundreds of bytes each) and the bytes besides.
func TestStreamHoldsNoEvents(t *testing.T) {
	if testing.Short() {
		t.Skip("200,000 steps")
	}
	env := fixture.ExampleEnv(t)
	const n = 200_000
	tr := &model.Trajectory{Task: "EX-01", Steps: fixture.Churn(n)}
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	var peak uint64
	batches := 0
	steps := func(each func([]model.Step)) (*model.Trajectory, int, error) {
		for i := 0; i < n; i += 4096 {
			each(tr.Steps[i:min(i+4096, n)])
			if batches++; batches%8 == 0 {
				var m runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&m)
				peak = max(peak, m.HeapAlloc)
			}
		}
		return &model.Trajectory{Task: "EX-01"}, n, nil
	}
	var w countingWriter
	if err := builder.Stream(env.Task, env, steps, payload.NewEncoder(&w)); err != nil {
		t.Fatal(err)
	}
	grown := int64(peak) - int64(before.HeapAlloc)
	if per := float64(grown) / n; per > 16 {
		t.Errorf("the live heap grew %d bytes while streaming %d steps (%.1f B/step): events are held", grown, n, per)
	}
	if w.n < 300*n/10 {
		t.Errorf("wrote %d bytes for %d steps", w.n, n)
	}
}

// illegalActor is a churn with a step a candidate may not author (an
// actor other than the agent): its event is the agent's, refused, and it
// is an assistant turn of the action transcript as Build writes it.
func illegalActor() *model.Trajectory {
	steps := fixture.Churn(30)
	steps[11].Actor = "system"
	return &model.Trajectory{Task: "EX-01", Steps: steps}
}

// TestStreamWithoutSpool: where no spool can be made (TMPDIR cannot be
// written), the action transcript is written from a second replay, the
// bytes still Build's.
func TestStreamWithoutSpool(t *testing.T) {
	t.Setenv("TMPDIR", filepath.Join(t.TempDir(), "missing"))
	env := fixture.ExampleEnv(t)
	sameBytes(t, "EX-01 churn", env.Task, env, &model.Trajectory{Task: "EX-01", Steps: fixture.Churn(500)})
	sameBytes(t, "EX-01 illegal actor", env.Task, env, illegalActor())
	sameBytes(t, "EX-01 honest", env.Task, env, fixture.Trajectory(t, "honest.json"))
}
