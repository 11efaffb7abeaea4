package tau2

import (
	"slices"
	"sync/atomic"
	"weak"

	"github.com/parthack/parthack/domains"
	"github.com/parthack/parthack/evaluators"
	"github.com/parthack/parthack/internal/payload"
	"github.com/parthack/parthack/internal/payload/builder"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
)

// PayloadReward is tau2's reward of a run: its basis's product, by the
// rule the tau2_reward evaluator reads off the public payload (0 for a
// run tau2 ended itself, which its trajectory says).
func PayloadReward(t *model.Task, log *pbcste.Log, tr *model.Trajectory) float64 {
	dec, err := RewardPayload(t, log, tr)
	if err != nil {
		return 0
	}
	s, _ := evaluators.Tau2(dec)
	return s.Reward
}

// RewardPayload is the public payload tau2's evaluators score a run by.
// A payload needs a goal predicate; on a task that has none (its gold
// run changes nothing) it is the payload of the same run on the task
// with one predicate that always holds, on both sides: tau2's evaluators
// read the payload's reference, events and transcript, never its goals.
func RewardPayload(t *model.Task, log *pbcste.Log, tr *model.Trajectory) (*payload.Payload, error) {
	if vacant(t) {
		env, err := vacuousEnv(log.Env.Task)
		if err != nil {
			return nil, err
		}
		t, log = withGoal(t), env.Replay(tr.Steps)
	}
	b, err := builder.TrajectoryBytes(t, log, tr) // the run's termination too
	if err != nil {
		return nil, err
	}
	return payload.DecodeOwned(b)
}

func vacuousEnv(t *model.Task) (*pbcste.Env, error) {
	if env, ok := vacuousEnvs.Load(t); ok {
		return env.(*pbcste.Env), nil
	}
	env, err := pbcste.Compile(withGoal(t))
	if err != nil {
		return nil, err
	}
	got, _ := vacuousEnvs.LoadOrStore(t, env)
	return got.(*pbcste.Env), nil
}

// vacant reports whether a goal version of t has no predicate.
func vacant(t *model.Task) bool {
	return slices.ContainsFunc(t.Goals, func(g model.GoalVersion) bool { return len(g.Predicates) == 0 })
}

// withGoal is a copy of t in which each goal version without a predicate
// has one that always holds: its first initial entity is alive or absent.
// It names that one entity, so the payload's states show it alone.
func withGoal(t *model.Task) *model.Task {
	c := *t
	if len(t.Initial) == 0 {
		return &c
	}
	e := &t.Initial[0]
	c.Goals = slices.Clone(t.Goals)
	for i := range c.Goals {
		if len(c.Goals[i].Predicates) == 0 {
			c.Goals[i].Predicates = []model.Predicate{{ID: "vacuous", Text: "always holds",
				Expr: model.Expr{Kind: model.ExprAny, Args: []model.Expr{
					{Kind: model.ExprAlive, Type: e.Type, ID: e.ID}, {Kind: model.ExprAbsent, Type: e.Type, ID: e.ID}}}}}
		}
	}
	return &c
}

// Rewards are tau2's reward and its components, from the public payload
// (airline and retail score no env assertion).
func (r *registry) Rewards() []domains.Reward {
	return Rewards(evaluators.Tau2EnvName)
}

// Rewards are tau2's reward and its components as a domain's evaluators,
// but for those named (components the domain's tasks never score on),
// then the field's (domains.FieldRewards). The components of one payload
// are one computation (evaluators.Tau2), which the evaluators share: a
// payload's evaluators are asked about it one after another.
func Rewards(without ...string) []domains.Reward {
	type scored struct {
		// p is weak, so never another payload's address, nor keeping the
		// payload (its messages) for as long as the evaluators are kept.
		p     weak.Pointer[payload.Payload]
		score evaluators.Tau2Score
		ok    bool
	}
	var last atomic.Pointer[scored] // no lock: evaluators scoring other payloads side by side only miss
	tau2 := func(p *payload.Payload) (evaluators.Tau2Score, bool) {
		wp := weak.Make(p)
		if l := last.Load(); l != nil && l.p == wp {
			return l.score, l.ok
		}
		s, ok := evaluators.Tau2(p)
		last.Store(&scored{wp, s, ok})
		return s, ok
	}
	var out []domains.Reward
	for _, name := range evaluators.Tau2Names() {
		if slices.Contains(without, name) {
			continue
		}
		out = append(out, domains.Reward{Name: name, Label: evaluators.Tau2Label(name), Score: func(p *payload.Payload) (float64, bool) {
			s, ok := tau2(p)
			if !ok || s.Premature != "" && name != evaluators.Tau2RewardName {
				return 0, false // a run tau2 ended itself: no component is computed
			}
			return s.Get(name), true
		}})
	}
	return append(out, domains.FieldRewards()...)
}
