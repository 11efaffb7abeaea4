package telecom

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/parthack/parthack/domains/tau2"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
)

// Checker replays tau2 telecom runs of one mode (with a user, or solo)
// and scores them as tau2 does.
type Checker struct {
	Domain *Domain
	mu     sync.Mutex // a mode's files are read side by side
	tasks  map[*tau2.Task]*Task
}

// NewChecker is a checker over the shipped databases; solo is tau2's
// no-user mode.
func NewChecker(solo bool) (*Checker, error) {
	db, err := Shipped()
	if err != nil {
		return nil, err
	}
	return &Checker{Domain: NewDomain(db, solo), tasks: map[*tau2.Task]*Task{}}, nil
}

// Solo reports whether a Results file was run in tau2's no-user mode, as
// its info says before any run is read: a solo agent (llm_agent_solo)
// facing tau2's dummy user, who never speaks.
func Solo(r *tau2.Results) bool {
	return r.Info.UserImpl == "dummy_user" || strings.HasSuffix(r.Info.AgentImpl, "_solo")
}

// Derive is the task derived from a tau2 task, once per task.
func (c *Checker) Derive(t *tau2.Task) (*Task, error) {
	c.mu.Lock()
	d, ok := c.tasks[t]
	c.mu.Unlock()
	if ok {
		return d, nil
	}
	d, err := Derive(c.Domain, t)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.tasks[t] = d
	c.mu.Unlock()
	return d, nil
}

// Run is one run replayed and scored.
type Run struct {
	Sim  *tau2.Simulation
	Task *Task
	// Traj is every call of the run as a step with its requestor's
	// actor, the conversation beside it.
	Traj *model.Trajectory
	// Directed says, per step, whether it is a user step the agent
	// directed: the agent has spoken since the user last did.
	Directed []bool
	Log      *pbcste.Log
	Outputs  []string // each call's result string, as the port returns it
	Recorded []string // and as tau2 recorded it
	Hashes   Hashes   // both databases at the end
	Env      []bool   // each env assertion met at the end
	// Score is tau2's reward with every component: DB (both databases),
	// ACTION, COMMUNICATE from package tau2, ENV_ASSERTION from Env.
	Score *tau2.Score
}

// Trajectory is a run as a trajectory of its task: every tool call a
// step whose actor is its requestor's (every call the agent's in solo
// mode), the conversation beside it; directed marks the user steps made
// in answer to the agent.
func Trajectory(d *Domain, r *tau2.Results, sim *tau2.Simulation, task *Task) (*model.Trajectory, []bool, error) {
	tr := &model.Trajectory{Task: task.ID, Name: sim.ID, File: r.File,
		Note: fmt.Sprintf("%s run of tau2 telecom task %s, trial %d (%s)", r.Info.AgentLLM, task.Source.ID, sim.Trial, sim.TerminationReason)}
	results, err := tau2.Recorded(r, sim)
	if err != nil {
		return nil, nil, err
	}
	var directed []bool
	agentSpoke := false
	for j, m := range sim.Messages {
		said := m.Content != nil && !m.Content.Blank()
		if m.Role != "tool" && said {
			tr.Transcript = append(tr.Transcript, model.Turn{Role: m.Role, Content: *m.Content})
		}
		for k, tc := range m.ToolCalls {
			requestor := tc.Requestor
			fail := func(msg string) error {
				line, col := sim.CallPlace(len(tr.Steps))
				return &tau2.Error{File: r.File, Line: line, Col: col, Path: fmt.Sprintf("simulations[%d].messages[%d].tool_calls[%d]", sim.Index, j, k), SimID: sim.ID, Message: msg}
			}
			if d.Solo && requestor != Assistant {
				return nil, nil, fail("a call by the user in a no-user run")
			}
			st, err := StepOf(tc.Name, requestor, tc.Arguments, len(tr.Steps))
			if err != nil {
				return nil, nil, fail(err.Error())
			}
			tr.Steps = append(tr.Steps, st)
			directed = append(directed, requestor == User && agentSpoke)
			tr.Transcript = append(tr.Transcript, model.Turn{Role: "tool", Content: model.TextOf(fmt.Sprintf("%s(%s) → %s", tc.Name, tc.Arguments, results[len(tr.Steps)-1])), Step: len(tr.Steps)})
		}
		switch {
		case m.Role == "assistant" && said:
			agentSpoke = true
		case m.Role == "user" && said:
			agentSpoke = false
		}
	}
	return tr, directed, nil
}

// Replay replays a run from its task's initialized state and scores it.
func (c *Checker) Replay(r *tau2.Results, sim *tau2.Simulation) (*Run, error) {
	t, ok := r.TaskByID(sim.TaskID)
	if !ok {
		return nil, fmt.Errorf("%s: simulation %s: task %q is not in the file", r.File, sim.ID, sim.TaskID)
	}
	task, err := c.Derive(t)
	if err != nil {
		return nil, err
	}
	tr, directed, err := Trajectory(c.Domain, r, sim, task)
	if err != nil {
		return nil, err
	}
	env, err := task.Env()
	if err != nil {
		return nil, fmt.Errorf("%s: simulation %s: %w", r.File, sim.ID, err)
	}
	log := env.Replay(tr.Steps) // the user's calls are the user's steps (Domain.Authors)
	out := &Run{Sim: sim, Task: task, Traj: tr, Directed: directed, Log: log}
	if out.Recorded, err = tau2.Recorded(r, sim); err != nil {
		return nil, err
	}
	for i := range log.Events {
		ev := &log.Events[i]
		text := log.Output(ev)
		if text == "" && !ev.OK {
			text = log.Reason(ev)
		}
		out.Outputs = append(out.Outputs, text)
	}
	if out.Hashes, err = c.Domain.StateHashes(log.View()); err != nil {
		return nil, fmt.Errorf("%s: simulation %s: %w", r.File, sim.ID, err)
	}
	if out.Env, err = task.Assert(log.View()); err != nil {
		return nil, fmt.Errorf("%s: simulation %s: %w", r.File, sim.ID, err)
	}
	out.Score = score(sim, task, out.Hashes, out.Env)
	return out, nil
}

// score is tau2's evaluate_simulation of a run: package tau2's score
// (DB over both databases, ACTION, COMMUNICATE), times ENV_ASSERTION.
func score(sim *tau2.Simulation, task *Task, h Hashes, env []bool) *tau2.Score {
	s := tau2.ScoreRun(sim, task.Source, h == task.GoldHashes)
	if s.Premature || s.NoCriteria {
		return s
	}
	if i := slices.Index(s.Skipped, tau2.BasisEnv); i >= 0 {
		s.Skipped = slices.Delete(s.Skipped, i, i+1)
		if slices.Contains(env, false) {
			s.Reward = 0
		}
	}
	return s
}

// Report is a file's conformance: package tau2's figures, plus the env
// assertions and the user's calls.
type Report struct {
	tau2.Report
	UserCalls int `json:"user_calls"`
	EnvChecks int `json:"env_checks"`
	EnvEqual  int `json:"env_equal"`
}

// Conform replays every run of a file and holds each call's result
// string, each env assertion, db_match, each action check and the reward
// to the recorded ones.
func (c *Checker) Conform(r *tau2.Results) (*Report, error) {
	rep := NewReport(r)
	for _, sim := range r.Simulations {
		if err := c.ConformRun(rep, r, sim); err != nil {
			return nil, err
		}
	}
	return rep, nil
}

// NewReport is the empty conformance report of a file, for ConformRun
// to fill in run by run.
func NewReport(r *tau2.Results) *Report {
	return &Report{Report: tau2.Report{File: r.File, Domain: DomainName, Commit: r.Info.GitCommit, Disagreements: []tau2.Disagreement{}}}
}

// ConformRun replays one run of a file and adds to rep how its calls'
// result strings, env assertions and recomputed scores compare with the
// recorded ones, each disagreement with its measured cause.
func (c *Checker) ConformRun(rep *Report, r *tau2.Results, sim *tau2.Simulation) error {
	rep.Runs++
	run, err := c.Replay(r, sim)
	if err != nil {
		return err
	}
	add := func(call int, what, got, want, why string) {
		rep.Disagreements = append(rep.Disagreements, tau2.Disagreement{Sim: sim.ID, Index: sim.Index, Call: call, What: what, Got: got, Want: want, Cause: why})
	}
	for i, out := range run.Outputs {
		rep.Calls++
		if run.Traj.Steps[i].Actor == model.ActorUser {
			rep.UserCalls++
		}
		if out == run.Recorded[i] {
			rep.CallsEqual++
		} else {
			add(i+1, "call "+run.Traj.Steps[i].Tool, out, run.Recorded[i], tau2.Apart(out, run.Recorded[i]))
		}
	}
	ri, s, t := sim.RewardInfo, run.Score, run.Task.Source
	if ri == nil {
		return nil
	}
	if s.Reward == ri.Reward {
		rep.RewardsEqual++
	} else {
		add(0, "reward", fmt.Sprint(s.Reward), fmt.Sprint(ri.Reward), tau2.RewardDecided(sim, t, s, envDecided(run)))
	}
	if ri.DBCheck != nil {
		rep.DBChecks++
		switch {
		case s.Premature:
			add(0, "db_match", "none", fmt.Sprint(ri.DBCheck.DBMatch), tau2.RewardDecided(sim, t, s, ""))
		case s.DBMatch == ri.DBCheck.DBMatch:
			rep.DBEqual++
		default:
			add(0, "db_match", fmt.Sprint(s.DBMatch), fmt.Sprint(ri.DBCheck.DBMatch), hashesApart(run.Hashes, run.Task.GoldHashes))
		}
	}
	for i, e := range ri.EnvAssertions {
		rep.EnvChecks++
		if i < len(run.Env) && run.Env[i] == e.Met {
			rep.EnvEqual++
		} else {
			add(0, fmt.Sprintf("env_assertion %d", i), fmt.Sprint(i < len(run.Env) && run.Env[i]), fmt.Sprint(e.Met), assertionDecided(run, i))
		}
	}
	rep.ConformChecks(sim, t, s, add)
	return nil
}

// hashesApart says which of the two databases a run's end state and
// gold's differ in, by tau2's DB hashes.
func hashesApart(run, gold Hashes) string {
	var apart []string
	if run.Agent != gold.Agent {
		apart = append(apart, fmt.Sprintf("the agent's database (hash %.12s…, gold's %.12s…)", run.Agent, gold.Agent))
	}
	if run.User != gold.User {
		apart = append(apart, fmt.Sprintf("the user's phone (hash %.12s…, gold's %.12s…)", run.User, gold.User))
	}
	if len(apart) == 0 {
		return "both databases' hashes equal gold's"
	}
	return "the end state differs from gold's in " + strings.Join(apart, " and ")
}

// assertionDecided says what decided one env assertion of a run: its
// function, the side it reads, and whether it holds at the end.
func assertionDecided(run *Run, i int) string {
	if i >= len(run.Task.Checks) {
		return fmt.Sprintf("the task scored has %d env assertions", len(run.Task.Checks))
	}
	a := run.Task.Checks[i]
	verdict := "met"
	if !run.Env[i] {
		verdict = "not met"
	}
	return fmt.Sprintf("%s(%s) on the %s's side, asserted to return %t: %s at the end", a.FuncName, tau2.Dumps(a.Args, false), a.EnvType, a.AssertValue, verdict)
}

// envDecided is the ENV_ASSERTION term of a run's reward.
func envDecided(run *Run) string {
	for i, ok := range run.Env {
		if !ok {
			return fmt.Sprintf("ENV_ASSERTION 0 (env assertion %d not met)", i)
		}
	}
	return "ENV_ASSERTION 1"
}
