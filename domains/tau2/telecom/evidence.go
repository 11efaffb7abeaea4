package telecom

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/parthack/parthack/domains/tau2"
	"github.com/parthack/parthack/model"
)

// Toggles are the phone's switch tools: a second call sets the switch
// back. Whether the pair leaves the whole phone as it was depends on the
// phone (airplane mode ON drops Wi-Fi and the VPN for good; a network
// search may settle a connection left stale), so ToggleTwice measures it.
var Toggles = []string{"toggle_airplane_mode", "toggle_data", "toggle_roaming", "toggle_data_saver_mode", "toggle_wifi", "toggle_wifi_calling"}

// ToggleEvidence is what a toggle-twice does to one run's scores: each
// gold action that is a toggle, called twice more at the end of the run
// by whoever holds the phone's tools.
type ToggleEvidence struct {
	Sim, Task string
	Basis     []string
	// Pairs are the toggles called twice (the task's gold toggles).
	Pairs []string
	// Action, Partial (tau2's partial_action_reward), Reward and Env
	// before and after the pairs.
	ActionBefore, ActionAfter   float64
	PartialBefore, PartialAfter float64
	RewardBefore, RewardAfter   float64
	EnvBefore, EnvAfter         []bool
	// Unchanged: both databases hash the same after the pairs as before.
	Unchanged bool
}

// goldToggles are a task's gold actions that are toggles.
func goldToggles(t *tau2.Task) []string {
	var out []string
	if t.Criteria != nil {
		for _, a := range t.Criteria.Actions {
			if slices.Contains(Toggles, a.Name) && !slices.Contains(out, a.Name) {
				out = append(out, a.Name)
			}
		}
	}
	return out
}

// ToggleTwice appends each gold toggle twice to a run (the user's calls,
// the agent's in solo mode) and rescores it as tau2 would.
func (c *Checker) ToggleTwice(r *tau2.Results, sim *tau2.Simulation) (*ToggleEvidence, error) {
	run, err := c.Replay(r, sim)
	if err != nil {
		return nil, err
	}
	ev := &ToggleEvidence{Sim: sim.ID, Task: run.Task.Source.ID, Pairs: goldToggles(run.Task.Source),
		ActionBefore: run.Score.Action, PartialBefore: run.Score.Partial, RewardBefore: run.Score.Reward, EnvBefore: run.Env}
	if run.Task.Source.Criteria != nil {
		ev.Basis = run.Task.Source.Criteria.RewardBasis
	}
	requestor, actor := User, model.ActorUser
	if c.Domain.Solo {
		requestor, actor = Assistant, model.ActorAgent
	}
	steps := slices.Clone(run.Traj.Steps)
	msg := tau2.Message{Role: requestor}
	for _, name := range ev.Pairs {
		for range 2 {
			steps = append(steps, model.Step{Index: len(steps), Actor: actor, Action: model.Action{Op: model.OpCall, Tool: name, Args: model.MustJSON("{}")}})
			msg.ToolCalls = append(msg.ToolCalls, tau2.ToolCall{ID: fmt.Sprintf("toggle-%d", len(steps)), Name: name, Arguments: json.RawMessage("{}"), Requestor: requestor})
		}
	}
	env, err := run.Task.Env()
	if err != nil {
		return nil, err
	}
	log := env.Replay(steps)
	h, err := c.Domain.StateHashes(log.View())
	if err != nil {
		return nil, err
	}
	if ev.EnvAfter, err = run.Task.Assert(log.View()); err != nil {
		return nil, err
	}
	ev.Unchanged = h == run.Hashes
	more := *sim
	more.Messages = append(slices.Clone(sim.Messages), msg)
	s := score(&more, run.Task, h, ev.EnvAfter)
	ev.ActionAfter, ev.PartialAfter, ev.RewardAfter = s.Action, s.Partial, s.Reward
	return ev, nil
}

// GoldShare counts a file's gold actions, run by run, by requestor, and
// those whose compare_args is null (every argument the call passes is
// compared, so a call that passes none matches).
type GoldShare struct {
	Assistant, User, CompareArgsNull int
	ByTool                           map[string]int // requestor/tool → count
}

// Gold counts the gold actions of every run's task in a file.
func Gold(r *tau2.Results) GoldShare {
	g := GoldShare{ByTool: map[string]int{}}
	for _, sim := range r.Simulations {
		t, ok := r.TaskByID(sim.TaskID)
		if !ok || t.Criteria == nil {
			continue
		}
		for _, a := range t.Criteria.Actions {
			if a.Requestor == User {
				g.User++
			} else {
				g.Assistant++
			}
			if a.CompareArgs == nil {
				g.CompareArgsNull++
			}
			g.ByTool[a.Requestor+"/"+a.Name]++
		}
	}
	return g
}
