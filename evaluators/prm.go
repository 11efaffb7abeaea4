package evaluators

import (
	"github.com/parthack/parthack/internal/payload"
	"github.com/parthack/parthack/model"
)

// PRMPartialActionName is tau2-bench's pull request #151's partial
// credit for tool calling as a target.
const PRMPartialActionName = "tau2_prm_partial_action"

// PRMPartialAction is the ACTION reward of tau2-bench pull request #151
// ("[AgentBeats] Tau2 partial match", github.com/sierra-research/tau2-bench,
// head 96ecefa045f88d466b1f127ae6d9e91057465dd1), computed from the public
// payload: Action.compare_with_tool_call in src/tau2/data_model/tasks.py,
// _check_actions and ActionEvaluator.calculate_reward in
// src/tau2/evaluator/evaluator_action.py. It is the mean over the gold
// calls of each one's best match among every call of the run, by anyone,
// whatever it returned: 1 for the gold call's name and arguments, 0.5 for
// its name alone, 0 for no call of that name. The arguments compared are
// compare_args of both when the gold call names them; when it names none
// (compare_args null), every argument of the gold call against every
// argument of the call, and a call that shares no argument name with the
// gold call matches it in full, as the pull request's code has it (its
// empty intersection returns 1.0). Arguments equal as Python's == on
// loaded JSON (1 == 1.0). A task with no gold call scores 1.
//
// The 0.5 is the pull request's allow_partial_match, a per-action field
// that defaults to off; the shipped tasks predate it and the pull
// request's own example tasks set it on every action, so here every gold
// call allows it. ok is false when the payload carries no reference,
// and for a run tau2 ended itself: the pull request scores inside
// evaluate_simulation, which computes no component of such a run.
func PRMPartialAction(p *payload.Payload) (float64, bool) {
	ref := p.Reference
	if ref == nil || Tau2Premature(p.Termination) {
		return 0, false
	}
	if len(ref.Actions) == 0 {
		return 1, true
	}
	type call struct {
		tool string
		args map[string]any
	}
	var calls []call
	for i := range p.Events {
		ev := &p.Events[i]
		if ev.Op != model.OpCall {
			continue
		}
		b, _ := ev.Args.MarshalJSON()
		args, ok := pyObject(b)
		if !ok {
			continue
		}
		calls = append(calls, call{ev.Tool, args})
	}
	sum := 0.0
	for i := range ref.Actions {
		g := &ref.Actions[i]
		gold, _ := pyObject(g.Args.AppendJSON(nil))
		best := 0.0
		for _, c := range calls {
			if c.tool != g.Tool {
				continue
			}
			best = max(best, prmReward(g, gold, c.args))
			if best == 1 {
				break
			}
		}
		sum += best
	}
	return sum / float64(len(ref.Actions)), true
}

// prmReward is compare_with_tool_call's reward for a call of the gold
// call's name, partial match allowed.
func prmReward(g *payload.RefCall, gold, call map[string]any) float64 {
	goldKeys, callKeys := g.CompareArgs, g.CompareArgs
	if g.AllArgs {
		goldKeys, callKeys = keysOf(gold), keysOf(call)
	}
	if len(goldKeys) == 0 && len(callKeys) == 0 {
		return 1
	}
	shared := false
	for _, k := range callKeys {
		for _, j := range goldKeys {
			shared = shared || k == j
		}
	}
	if !shared {
		return 1
	}
	if pyEqual(pick(call, callKeys), pick(gold, goldKeys)) {
		return 1
	}
	return 0.5
}

func keysOf(o map[string]any) []string {
	out := make([]string, 0, len(o))
	for k := range o {
		out = append(out, k)
	}
	return out
}
