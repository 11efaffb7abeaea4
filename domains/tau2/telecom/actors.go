package telecom

import (
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
)

// Two actors on one world. A tau2 telecom trajectory holds the agent's
// calls and the user's, each step's Actor its requestor's: the domain
// names the user among the actors who author steps (Domain.Authors), so
// pbcste runs a user's step as the user's call and latest causes credit
// the user's changes to the user.

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

// Attribute reads a replayed log's goal vector and latest causes;
// directed says which trajectory steps the agent directed.
func Attribute(log *pbcste.Log, directed []bool) Attribution {
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
		if c.Actor == model.ActorUser && c.Step > 0 {
			byUser = true
			byDirected = c.Step-1 < len(directed) && directed[c.Step-1]
		}
		a.State = append(a.State, holds)
		a.Agent = append(a.Agent, holds && c.Actor == model.ActorAgent)
		a.User = append(a.User, holds && byUser)
		a.Initial = append(a.Initial, holds && c.Actor == model.ActorInitial)
		a.Directed = append(a.Directed, holds && (c.Actor == model.ActorAgent || byDirected))
	}
	return a
}
