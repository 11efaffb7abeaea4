package telecom

import (
	_ "embed"
	"fmt"
	"strings"
	"sync"

	"github.com/parthack/parthack/domains"
	"github.com/parthack/parthack/domains/tau2"
	"github.com/parthack/parthack/internal/payload"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
)

func init() {
	r := &registry{checkers: map[bool]*Checker{}}
	r.shipped = tau2.NewShipped("telecom", r)
	domains.Register(r)
	tau2.RegisterReader("telecom", r)
}

// registry is tau2's telecom domain as parthack's registry knows it: the
// runs of its shipped files (with a user, and in no-user mode), each
// scored against the task as its file embeds it.
type registry struct {
	mu       sync.Mutex
	checkers map[bool]*Checker // by solo
	shipped  *tau2.Shipped
}

func (r *registry) Name() string        { return DomainName }
func (r *registry) Title() string       { return "tau2-bench telecom" }
func (r *registry) Owns(id string) bool { return strings.HasPrefix(id, "T2T-") }
func (r *registry) Format() string      { return "tau2" }

// Counts are how many tasks and runs the shipped files hold (see
// domains.Counter): three files, with a user and in no-user mode.
func (r *registry) Counts() domains.Counts { return domains.Counts{Tasks: 100, Runs: 100} }

// taskRows are the rows of the tasks (domains.Lister), as domains/all's
// TestTaskRows writes them.
//
//go:embed taskrows.json
var taskRows []byte

const rowsFile = "domains/tau2/telecom/taskrows.json"

var statedRows = domains.StatedRows(rowsFile, taskRows)

func (r *registry) TaskRows() ([]domains.TaskRow, error) { return statedRows() }
func (r *registry) RowsFile() string                     { return rowsFile }

func (r *registry) Tasks() ([]*domains.Task, error) { return r.shipped.Tasks() }
func (r *registry) Runs() ([]*domains.Run, error)   { return r.shipped.Runs() }

// Tools are the agent's tools and the user's, for editors.
func (r *registry) Tools() []domains.Tool { return describe() }

// Rewards are tau2's reward and every component, ENV_ASSERTION included.
func (r *registry) Rewards() []domains.Reward { return tau2.Rewards() }

// checker is the checker of one mode, made once.
func (r *registry) checker(solo bool) (*Checker, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if c := r.checkers[solo]; c != nil {
		return c, nil
	}
	c, err := NewChecker(solo)
	if err != nil {
		return nil, err
	}
	r.checkers[solo] = c
	return c, nil
}

// Runner turns a Results file's simulations into runs: every call a step
// of its requestor (the user's calls the user's), in the file's mode.
func (r *registry) Runner(res *tau2.Results) (func(*tau2.Simulation) (*domains.Run, error), []*domains.Task, error) {
	solo := Solo(res)
	c, err := r.checker(solo)
	if err != nil {
		return nil, nil, err
	}
	var tasks []*domains.Task
	byTask := map[*Task]*domains.Task{}
	taskOf := func(t *tau2.Task) (*Task, *domains.Task, error) {
		task, err := c.Derive(t)
		if err != nil {
			return nil, nil, err
		}
		if dt, ok := byTask[task]; ok {
			return task, dt, nil
		}
		dt := r.task(c.Domain, task)
		byTask[task] = dt
		tasks = append(tasks, dt)
		return task, dt, nil
	}
	for _, t := range res.Tasks {
		if _, _, err := taskOf(t); err != nil {
			return nil, nil, fmt.Errorf("%s: %w", res.File, err)
		}
	}
	agent := res.Info.AgentLLM
	if i := strings.LastIndexByte(agent, '/'); i >= 0 {
		agent = agent[i+1:]
	}
	mode := agent
	if solo {
		mode += "-no-user"
	}
	run := func(sim *tau2.Simulation) (*domains.Run, error) {
		t, ok := res.TaskByID(sim.TaskID)
		if !ok {
			return nil, fmt.Errorf("%s: simulation %s: task %q is not in the file", res.File, sim.ID, sim.TaskID)
		}
		task, dt, err := taskOf(t)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", res.File, err)
		}
		reward := 0.0
		if sim.RewardInfo != nil {
			reward = sim.RewardInfo.Reward
		}
		short := fmt.Sprintf("%s-trial%d", mode, sim.Trial)
		return &domains.Run{Domain: DomainName, Name: dt.ID + "-" + short, Short: short, Task: dt.ID, Model: mode,
			Reward: reward, Embedded: dt,
			Trajectory: func() (*model.Trajectory, error) {
				tr, _, err := Trajectory(c.Domain, res, sim, task)
				if err == nil {
					tr.Name = dt.ID + "-" + short
					tr.Termination, tr.MaxErrors = tau2.Termination(sim), res.Info.MaxErrors
					if res.Info.MaxSteps > 0 {
						tr.MaxSteps, tr.BenchmarkSteps = res.Info.MaxSteps, tau2.OrchestratorSteps(sim)
					}
				}
				return tr, err
			},
			Directed: func() ([]bool, error) {
				_, directed, err := Trajectory(c.Domain, res, sim, task)
				return directed, err
			},
			Record:         tau2.Recorder(res, sim, t, dt.Env),
			EvaluatorInput: tau2.EvaluatorInput(res, sim, t, dt.Env),
			Locate:         tau2.Locator(res, sim)}, nil
	}
	return run, tasks, nil
}

// task is a derived telecom task as the registry knows it. A witness's
// moves are the agent's (AgentMoves): in no-user mode the phone's tools
// are the agent's too; with a user, the user's steps of H stay as they
// are and no move is the user's.
func (r *registry) task(d *Domain, t *Task) *domains.Task {
	summary := ""
	if c := t.Source.Criteria; c != nil {
		summary = "basis " + strings.Join(c.RewardBasis, "+")
	}
	return &domains.Task{ID: t.ID, Title: t.Task.Title, Family: "tau2-bench telecom", Summary: summary, Model: t.Task, Gold: t.Gold, Env: t.Env, GoldMayFail: true, GoalMayHoldAtStart: true,
		GoldHash: t.GoldHashes.String(),
		Hash: func(log *pbcste.Log) string {
			h, err := d.StateHashes(log.View())
			if err != nil {
				return ""
			}
			return h.String()
		},
		Reward: func(log *pbcste.Log, tr *model.Trajectory) float64 { return tau2.PayloadReward(t.Task, log, tr) },
		Payload: func(log *pbcste.Log, tr *model.Trajectory) (*payload.Payload, error) {
			return tau2.RewardPayload(t.Task, log, tr)
		},
		AttackTask: func(_ *model.Trajectory, _ model.StateView) *model.Task {
			out := *t.Task
			out.Calls = t.AgentMoves()
			return &out
		},
	}
}

// Conformer holds a Results file to what tau2 recorded, run by run: the
// core's checks, and the env assertions one by one.
func (r *registry) Conformer(res *tau2.Results) (func(*tau2.Simulation) error, func() *domains.Conformance, error) {
	c, err := r.checker(Solo(res))
	if err != nil {
		return nil, nil, err
	}
	rep := NewReport(res)
	return func(sim *tau2.Simulation) error { return c.ConformRun(rep, res, sim) },
		func() *domains.Conformance {
			return tau2.ConformanceOf(DomainName, &rep.Report, domains.Check{Name: "env_assertion", Recorded: rep.EnvChecks, Equal: rep.EnvEqual})
		}, nil
}
