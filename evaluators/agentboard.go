package evaluators

import (
	"github.com/parthack/parthack/internal/payload"
	"github.com/parthack/parthack/model"
)

// AgentBoardProgressName is AgentBoard's progress rate as a target.
const AgentBoardProgressName = "agentboard_progress"

// AgentBoardProgress is AgentBoard's progress rate (hkust-nlp/AgentBoard,
// commit bb7255e2daf1989069a186dad9e53f70680961db), computed from the
// public payload: PDDL.constraint_satisfaction_metric and PDDL.step in
// agentboard/environment/pddl_env/pddl_env.py (the fraction of goal
// literals the state holds, kept as a running maximum: reward =
// max(self.reward, metric) after each action) and AcademiaEnv.update in
// agentboard/environment/academia_env.py (the same maximum over the
// fraction of subgoals met). The goal literals are the payload's goal
// predicates, under the goal version active at each step. As in
// PDDL.step, the maximum starts at 0 and moves only after an event that
// changes the state: the initial state is never scored (reset sets the
// reward to 0), and an event that changes nothing — a failed call, a
// read — is "silently ignored" and leaves the maximum where it was.
func AgentBoardProgress(p *payload.Payload) (float64, bool) {
	e, err := start(p)
	if err != nil {
		return 0, false
	}
	best := 0.0
	for i := range p.Events {
		ev := &p.Events[i]
		if err := e.apply(ev, ev.Actor == model.ActorAgent, i+1); err != nil {
			return 0, false
		}
		if len(ev.Diff) == 0 {
			continue
		}
		v := &e.vers[e.active]
		best = max(best, float64(v.nTrue)/float64(len(v.preds)))
	}
	return best, true
}
