package tau2

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/parthack/parthack/domains"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
)

// Runner turns a Results file's simulations into runs, each scored
// against the task as its file embeds it (re-mapped where the file's
// task ids are wrong, see Remap), and gives the file's tasks.
func (r *registry) Runner(res *Results) (func(*Simulation) (*domains.Run, error), []*domains.Task, error) {
	c, err := r.checker(res)
	if err != nil {
		return nil, nil, err
	}
	var tasks []*domains.Task
	byID := map[*Task]*domains.Task{}
	taskOf := func(t *Task) (*domains.Task, error) {
		if dt, ok := byID[t]; ok {
			return dt, nil
		}
		d, err := c.Derive(t)
		if err != nil {
			return nil, err
		}
		dt := r.task(d)
		byID[t] = dt
		tasks = append(tasks, dt)
		return dt, nil
	}
	for _, t := range res.Tasks {
		if _, err := taskOf(t); err != nil {
			return nil, nil, fmt.Errorf("%s: %w", res.File, err)
		}
	}
	agent := res.Info.AgentLLM
	if i := strings.LastIndexByte(agent, '/'); i >= 0 {
		agent = agent[i+1:] // "openai/gpt-4.1" → "gpt-4.1"
	}
	named := map[string]bool{}
	run := func(sim *Simulation) (*domains.Run, error) {
		t, _ := Remap(res, sim)
		dt, err := taskOf(t)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", res.File, err)
		}
		reward := 0.0
		if sim.RewardInfo != nil {
			reward = sim.RewardInfo.Reward
		}
		short := fmt.Sprintf("%s-trial%d", agent, sim.Trial)
		if named[dt.ID+"-"+short] {
			// Two runs of one task and trial: a file whose task ids were
			// re-mapped (Remap). The file's position tells them apart.
			short = fmt.Sprintf("%s-trial%d-run%d", agent, sim.Trial, sim.Index)
		}
		named[dt.ID+"-"+short] = true
		return &domains.Run{Domain: r.Name(), Name: dt.ID + "-" + short, Short: short, Task: dt.ID, Model: agent,
			Reward: reward, Embedded: dt,
			Trajectory: func() (*model.Trajectory, error) {
				tr, err := Trajectory(r.w, res, sim, t)
				if err == nil {
					tr.Name = dt.ID + "-" + short
					tr.Termination, tr.MaxErrors = Termination(sim), res.Info.MaxErrors
					if res.Info.MaxSteps > 0 {
						tr.MaxSteps, tr.BenchmarkSteps = res.Info.MaxSteps, OrchestratorSteps(sim)
					}
				}
				return tr, err
			},
			Record:         Recorder(res, sim, t, dt.Env),
			EvaluatorInput: EvaluatorInput(res, sim, t, dt.Env),
			Locate:         Locator(res, sim),
			Certified:      func(h *model.Trajectory, log *pbcste.Log) { c.keep(sim, h, log) }}, nil
	}
	return run, tasks, nil
}

// Recorder writes a witness of a run as tau2 would have recorded it
// (Witness), indented JSON.
func Recorder(res *Results, sim *Simulation, t *Task, env func() (*pbcste.Env, error)) func(*model.Trajectory) ([]byte, error) {
	return func(a *model.Trajectory) ([]byte, error) {
		w, err := witnessIn(res, sim, t, env, a)
		if err != nil {
			return nil, err
		}
		return json.MarshalIndent(w, "", " ")
	}
}

// Locator places an error about a run on its file and simulation, and
// on its call when step (from 0) is one: the line, column and JSON path
// of the simulation or the call. An error already placed (an *Error)
// stays as it is.
func Locator(res *Results, sim *Simulation) func(step int, err error) error {
	return func(step int, err error) error {
		if e := (*Error)(nil); errors.As(err, &e) {
			return err
		}
		at, msg := sim.At, err.Error()
		if step >= 0 {
			msg = fmt.Sprintf("call %d: %v", step+1, err)
			if step < len(sim.CallsAt) {
				at = sim.CallsAt[step]
			}
		}
		if at.Path == "" {
			at.Path = fmt.Sprintf("simulations[%d]", sim.Index)
		}
		return &Error{File: res.File, Line: at.Line, Col: at.Col, Path: at.Path, SimID: sim.ID, Message: msg}
	}
}

// CallPlace is the line and column of a run's step-th call (from 0) in
// its file; 0, 0 when not known.
func (s *Simulation) CallPlace(step int) (line, col int) {
	if step < 0 || step >= len(s.CallsAt) {
		return 0, 0
	}
	return s.CallsAt[step].Line, s.CallsAt[step].Col
}

// Termination is how a run ended as its trajectory and payload say it:
// tau2's termination reason where tau2 ended the run itself and scores
// it 0, "" where the conversation ended it.
func Termination(sim *Simulation) string {
	if premature(sim.TerminationReason) {
		return sim.TerminationReason
	}
	return ""
}

// registeredFor is the reader of the domain a Results file's info names.
func registeredFor(res *Results) (Reader, error) {
	registeredMu.Lock()
	defer registeredMu.Unlock()
	r, ok := registered[res.Info.Domain]
	if !ok {
		var names []string
		for n := range registered {
			names = append(names, n)
		}
		slices.Sort(names)
		return nil, res.Errorf(domainPath, "%q is not a tau2 domain parthack has (it has %s)", res.Info.Domain, strings.Join(names, ", "))
	}
	return r, nil
}

// streamResults reads a tau2 Results file's runs.
func streamResults(file string, in io.Reader, each func(int, *domains.Run) error) error {
	return readRuns(file, in, func(*Results, Reader) error { return nil },
		func(i int, _ *Simulation, run *domains.Run) error { return each(i, run) })
}

// readRuns reads a tau2 Results file run by run as its simulations
// arrive (StreamResults), so that a file is held no more than a run at a
// time: head learns the file's domain reader once its info and tasks are
// read, each gets every simulation with its run. A file with no
// simulation is an error: there is nothing to read from it.
func readRuns(file string, in io.Reader, head func(*Results, Reader) error, each func(int, *Simulation, *domains.Run) error) error {
	var run func(*Simulation) (*domains.Run, error)
	var results *Results
	i := 0
	err := StreamResults(file, in, func(res *Results) error {
		results = res
		r, err := registeredFor(res)
		if err != nil {
			return err
		}
		if run, _, err = r.Runner(res); err != nil {
			return err
		}
		return head(res, r)
	}, func(sim *Simulation) error {
		rn, err := run(sim)
		if err != nil {
			return err
		}
		i++
		return each(i-1, sim, rn)
	})
	if err == nil && i == 0 {
		return results.Errorf("simulations", "the file holds no run (expected a list of at least one simulation)")
	}
	return err
}
