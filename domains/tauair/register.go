package tauair

import (
	_ "embed"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/parthack/parthack/domains"
	"github.com/parthack/parthack/evaluators"
	"github.com/parthack/parthack/model"
)

func init() {
	domains.Register(airline{})
	domains.RegisterFormat(domains.Format{Name: "tau-bench", Stream: streamFormat,
		Help: "the JSON list of {task_id, reward, info, traj, trial} that tau-bench's run script writes (e.g. historical_trajectories/gpt-4o-airline.json)"})
}

// airline is tau-bench's airline domain as the registry knows it.
type airline struct{}

func (airline) Name() string  { return DomainName }
func (airline) Title() string { return "tau-bench airline" }

func (airline) Owns(id string) bool { return strings.HasPrefix(id, "TAU-A") }

func (airline) Format() string { return "tau-bench" }

var registryTasks = sync.OnceValues(func() ([]*domains.Task, error) {
	ts, err := Tasks()
	if err != nil {
		return nil, err
	}
	out := make([]*domains.Task, len(ts))
	for i, t := range ts {
		summary := "user " + t.Gold.UserID
		if len(t.Gold.Outputs) > 0 {
			summary += "; outputs " + strings.Join(t.Gold.Outputs, ", ")
		}
		out[i] = &domains.Task{ID: t.ID, Title: t.Task.Title, Family: "airline (tau-bench)", Summary: summary, Model: t.Task, Gold: t.GoldTrajectory,
			Env: t.Env, AttackTask: func(_ *model.Trajectory, final model.StateView) *model.Task { return t.AttackTask(final) }, Hash: t.DataHash, Reward: t.Reward,
			// The corpus keeps gold's calls, not its replies: only a task
			// that asks for no output can be held to the whole reward.
			GoldPasses: len(t.Gold.Outputs) == 0}
	}
	return out, nil
})

func (airline) Tasks() ([]*domains.Task, error) { return registryTasks() }

var registryRuns = sync.OnceValues(func() ([]*domains.Run, error) {
	runs, err := AgentRuns()
	if err != nil {
		return nil, err
	}
	out := make([]*domains.Run, len(runs))
	for i := range runs {
		out[i] = registryRun(&runs[i], runs[i].Name())
	}
	return out, nil
})

// Runs are the corpus' 200 GPT-4o runs.
func (airline) Runs() ([]*domains.Run, error) { return registryRuns() }

// taskRows are the rows of the tasks (domains.Lister), as domains/all's
// TestTaskRows writes them.
//
//go:embed taskrows.json
var taskRows []byte

const rowsFile = "domains/tauair/taskrows.json"

var statedRows = domains.StatedRows(rowsFile, taskRows)

func (airline) TaskRows() ([]domains.TaskRow, error) { return statedRows() }
func (airline) RowsFile() string                     { return rowsFile }

// Counts are how many tasks and runs the corpus holds (see
// domains.Counter): a gold run for each task, and the GPT-4o runs.
func (airline) Counts() domains.Counts { return domains.Counts{Tasks: 50, Runs: 200} }

func registryRun(r *Run, name string) *domains.Run {
	return &domains.Run{Domain: DomainName, Name: name, Short: fmt.Sprintf("trial%d", r.Trial), Task: TaskID(r.TaskID), Model: "gpt-4o",
		Reward: r.Reward, Trajectory: r.Trajectory, EvaluatorInput: r.EvaluatorInput}
}

// streamFormat reads tau-bench's run format run by run; a run is named
// after the file (ImportedName) and its errors are located by RunError.
func streamFormat(file string, in io.Reader, each func(int, *domains.Run) error) error {
	return StreamRuns(file, in, func(i int, r *Run) error {
		name := ImportedName(file, r)
		dr := registryRun(r, name)
		dr.Locate = func(step int, err error) error {
			re := &RunError{File: file, Index: i, Name: name, Message: -1, Err: err}
			if step >= 0 {
				var m int
				m, re.CallIndex, re.Call = r.CallAt(step)
				re.At(r, m)
			}
			return re
		}
		return each(i, dr)
	})
}

func (airline) Tools() []domains.Tool {
	var out []domains.Tool
	for _, name := range ToolNames() {
		t := tools[name]
		dt := domains.Tool{Name: name, Writes: t.write}
		for _, p := range t.params {
			dt.Params = append(dt.Params, domains.Param{Name: p.name, Kind: p.kind, Required: true})
		}
		out = append(out, dt)
	}
	return out
}

// Rewards is tau-bench's reward, from the public payload, then the
// field's evaluators (domains.FieldRewards).
func (airline) Rewards() []domains.Reward {
	return append([]domains.Reward{{Name: evaluators.OutcomeName, Label: "tau-bench reward", Score: evaluators.Outcome}}, domains.FieldRewards()...)
}

// Export writes the corpus' runs in tau-bench's run format.
func (airline) Export() (string, int, []byte, error) {
	runs, err := AgentRuns()
	if err != nil {
		return "", 0, nil, err
	}
	b, err := EncodeRuns(runs)
	return "tau-bench", len(runs), b, err
}
