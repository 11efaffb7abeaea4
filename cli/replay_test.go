package cli

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/parthack/parthack/certifier"
	"github.com/parthack/parthack/domains/tauair"
	"github.com/parthack/parthack/internal/fixture"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
	"github.com/parthack/parthack/tasks"
	"github.com/parthack/parthack/tasks/sealed"
)

// TestReplayTableIsTabwriters: the replay table written line by line is
// byte for byte the one tabwriter lays out holding it whole, for every
// stored trajectory of the suite, tau-bench runs and a long churn.
func TestReplayTableIsTabwriters(t *testing.T) {
	type input struct {
		name string
		env  *pbcste.Env
		tr   *model.Trajectory
	}
	var inputs []input
	ids, err := tasks.IDs()
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		st, err := tasks.Get(id)
		if err != nil {
			t.Fatal(err)
		}
		trusted, err := sealed.Trusted(id)
		if err != nil {
			t.Fatal(err)
		}
		env, err := pbcste.Compile(trusted)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range st.Trajectories() {
			inputs = append(inputs, input{id + "/" + n.File, env, n.Trajectory})
		}
	}
	runs, err := tauair.AgentRuns()
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < len(runs); i += 23 {
		task, err := tauair.ByID(tauair.TaskID(runs[i].TaskID))
		if err != nil {
			t.Fatal(err)
		}
		env, err := task.Env()
		if err != nil {
			t.Fatal(err)
		}
		tr, err := runs[i].Trajectory()
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, input{runs[i].Name(), env, tr})
	}
	ex := fixture.ExampleEnv(t)
	inputs = append(inputs, input{"churn", ex, &model.Trajectory{Task: ex.Task.ID, Steps: fixture.Churn(3000)}})
	// A tab or a line break in a failure's reason alone, or in a target,
	// is laid out by tabwriter itself.
	for _, id := range []string{"T\t9", "T\n9", "T\v9", "T\f9"} {
		bad := model.Step{Action: model.Action{Op: model.OpUpdate, Type: "ticket", ID: id, Fields: []model.Assign{{Field: "priority", Value: model.Int(1)}}}}
		inputs = append(inputs, input{"id " + strconv.Quote(id), ex, &model.Trajectory{Task: ex.Task.ID, Steps: append(fixture.Churn(20), bad)}})
	}
	revise := model.Step{Action: model.Action{Op: model.OpReviseGoal, Goal: "v\t9"}}
	inputs = append(inputs, input{"goal with a tab", ex, &model.Trajectory{Task: ex.Task.ID, Steps: append(fixture.Churn(20), revise)}})
	inputs = append(inputs, input{"no step", ex, &model.Trajectory{Task: ex.Task.ID}})
	tmp, missing := os.Getenv("TMPDIR"), filepath.Join(t.TempDir(), "missing")
	for _, in := range inputs {
		steps := func(each func([]model.Step)) (*model.Trajectory, int, error) {
			if len(in.tr.Steps) > 0 {
				each(in.tr.Steps)
			}
			return in.tr, len(in.tr.Steps), nil
		}
		var lined, whole bytes.Buffer
		if err := writeReplay(&lined, in.env, steps, false); err != nil {
			t.Fatalf("%s: %v", in.name, err)
		}
		// Where no spool can be made, the lines come from a second
		// replay, the same bytes.
		t.Setenv("TMPDIR", missing)
		var replayed bytes.Buffer
		if err := writeReplay(&replayed, in.env, steps, false); err != nil {
			t.Fatalf("%s without a spool: %v", in.name, err)
		}
		t.Setenv("TMPDIR", tmp)
		if replayed.String() != lined.String() {
			t.Errorf("%s: the table printed from a second replay differs from the spooled one", in.name)
		}
		cert, rej, err := certifier.DoubleCertifyStream(in.env, steps)
		if err != nil {
			t.Fatal(err)
		}
		log, _, _, err := replayEvents(in.env, steps, func(*pbcste.Run, *pbcste.Event) {})
		if err != nil {
			t.Fatal(err)
		}
		if err := writeReplayText(&whole, in.env, steps, log, cert, rej); err != nil {
			t.Fatal(err)
		}
		if lined.String() != whole.String() {
			t.Errorf("%s: the table written line by line differs from tabwriter's:\n%s\n---\n%s", in.name, lined.String(), whole.String())
		}
		var buf bytes.Buffer
		bw := bufio.NewWriter(&buf)
		if err := writeReplayJSON(bw, in.env, steps, log, cert, rej, in.tr.Termination); err != nil {
			t.Fatal(err)
		}
		bw.Flush()
		full := in.env.Replay(in.tr.Steps)
		var want bytes.Buffer
		out := replayJSON{Task: in.env.Task.ID, GoalVersion: full.Goal().Version, Events: make([]pbcste.EventRecord, len(full.Events)), Certificate: cert, Termination: in.tr.Termination}
		for i := range full.Events {
			out.Events[i] = full.Record(i)
		}
		if rej != nil {
			out.Rejection = &rejectionJSON{Reason: rej.Reason, Evidence: rej.Evidence}
		}
		if err := writeJSON(&want, out); err != nil {
			t.Fatal(err)
		}
		if buf.String() != want.String() {
			t.Errorf("%s: streamed replay JSON differs from the whole document's", in.name)
		}
	}
	t.Logf("%d trajectories", len(inputs))
}
