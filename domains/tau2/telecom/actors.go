package telecom

import (
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
)

// Two actors on one world. A tau2 telecom trajectory holds the agent's
// calls and the user's, each step's Actor its requestor's. pbcste today
// takes agent steps from a trajectory and other actors' events from the
// task's script only (Run.Step marks a non-agent step illegal), so until
// a domain can declare that users author steps too, Split lays a
// trajectory out the way pbcste already replays: the agent's steps as
// the trajectory, the user's calls as scripted events of actor user,
// each due after the agent steps that came before it. The log is the
// same either way: the same calls in the same order, each event with its
// actor, so latest causes credit the user's changes to the user.

// Split makes the task and agent steps pbcste replays for a trajectory
// whose steps carry their actors: the user's steps become the task's
// script (the task is a copy; its own script must be empty). userStep
// maps each scripted event to its step's index in steps.
func Split(task *model.Task, steps []model.Step) (run *model.Task, agent []model.Step, userStep []int) {
	cp := *task
	cp.Script = nil
	for i := range steps {
		st := steps[i]
		if st.Actor == model.ActorUser {
			cp.Script = append(cp.Script, model.ScriptedEvent{After: len(agent), Actor: model.ActorUser, Action: st.Action})
			userStep = append(userStep, i)
			continue
		}
		st.Index = len(agent)
		agent = append(agent, st)
	}
	return &cp, agent, userStep
}

// Attribution is who made a run's goal progress, predicate by
// predicate, under three readings of "the agent's":
//   - State: the predicate holds at the end (PB-CSTE's c_state);
//   - Agent: and its latest cause is an agent step (c_agent, strict);
//   - User: and its latest cause is a user step;
//   - Initial: and no event touched it since the task's set-up;
//   - Directed: and its latest cause is an agent step or a user step
//     the agent directed (the user acting on the agent's words: see
//     Directed).
type Attribution struct {
	State, Agent, User, Initial, Directed []bool
}

// P is the mean of a vector, 0 for none.
func P(v []bool) float64 {
	if len(v) == 0 {
		return 0
	}
	n := 0
	for _, b := range v {
		if b {
			n++
		}
	}
	return float64(n) / float64(len(v))
}

// Attribute reads a replayed log's goal vector and latest causes.
// userStep maps the log's scripted events to trajectory steps (Split's),
// directed says which trajectory steps the agent directed.
func Attribute(log *pbcste.Log, userStep []int, directed []bool) Attribution {
	g := log.Goal()
	var a Attribution
	cstate, _ := log.InitialVectors()
	if n := len(log.Events); n > 0 {
		cstate = log.Events[n-1].CState
	}
	for j, p := range g.Preds {
		holds := cstate&(1<<uint(j)) != 0
		c := log.Cause(p)
		byUser, byDirected := false, false
		if c.Actor == model.ActorUser && c.Seq > 0 {
			byUser = true
			if ev := &log.Events[c.Seq-1]; ev.Script >= 0 && int(ev.Script) < len(userStep) {
				i := userStep[ev.Script]
				byDirected = i < len(directed) && directed[i]
			}
		}
		a.State = append(a.State, holds)
		a.Agent = append(a.Agent, holds && c.Actor == model.ActorAgent)
		a.User = append(a.User, holds && byUser)
		a.Initial = append(a.Initial, holds && c.Actor == model.ActorInitial)
		a.Directed = append(a.Directed, holds && (c.Actor == model.ActorAgent || byDirected))
	}
	return a
}
