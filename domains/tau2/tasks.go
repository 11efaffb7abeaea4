package tau2

import (
	"fmt"
	"slices"
	"sync"

	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
)

// Derived is one tau2 task as a parthack task: its goal is the net
// change its gold calls make to the initial database, and tau2's own
// criteria (gold calls, communicate_info, nl_assertions, reward_basis)
// are kept in the task's Reference for the evaluators.
type Derived struct {
	ID     string // "T2R-5"
	Source *Task
	// Task is the PB-CSTE task; tau2 publishes its tasks, so nothing in it
	// is hidden from evaluators.
	Task *model.Task
	// Gold is the gold calls as steps (each call's requestor its actor).
	Gold *model.Trajectory
	// Changes are the gold calls' net changes, cell by cell.
	Changes []model.CellDiff
	// GoldHash is tau2's DB hash after the gold calls, when the checker
	// that derived the task computes hashes.
	GoldHash string

	envOnce sync.Once
	env     *pbcste.Env
	envErr  error
}

// M is the number of goal predicates; 0 when the gold calls change
// nothing (a task scored on what the agent says or reads).
func (d *Derived) M() int { return len(d.Task.Goals[0].Predicates) }

// Env is the task compiled for replay, once.
func (d *Derived) Env() (*pbcste.Env, error) {
	d.envOnce.Do(func() { d.env, d.envErr = pbcste.Compile(d.Task) })
	return d.env, d.envErr
}

// TaskID is the parthack id of a tau2 task of a world: "T2R-5".
func TaskID(w World, tau2ID string) string { return w.Prefix() + "-" + tau2ID }

// Derive makes a parthack task of a tau2 task over a world's database,
// with the gold end state's DB hash when hash. env is the world's base
// task compiled.
func Derive(w World, env *pbcste.Env, t *Task, hash bool) (*Derived, error) {
	d := &Derived{ID: TaskID(w, t.ID), Source: t}
	tr := &model.Trajectory{Task: d.ID, Name: "gold", Note: "tau2's gold actions for task " + t.ID}
	if t.Criteria != nil {
		for i, a := range t.Criteria.Actions {
			st, err := StepOf(a.Name, a.Requestor, a.Arguments, len(tr.Steps))
			if err != nil {
				return nil, fmt.Errorf("tau2 task %s: gold action %d: %w", t.ID, i, err)
			}
			tr.Steps = append(tr.Steps, st)
		}
	}
	d.Gold = tr
	log := env.Replay(tr.Steps)
	// A gold call that fails is kept: tau2 logs it and goes on, and its
	// DB check compares against the state the others leave.
	d.Changes = log.NetChanges()
	if hash {
		d.GoldHash = w.Hash(log.View(), d.Changes)
	}
	task := *w.Base()
	task.ID = d.ID
	task.Title = fmt.Sprintf("tau2 %s task %s", w.Name(), t.ID)
	task.Instruction = string(t.Scenario)
	task.Goals = []model.GoalVersion{{Version: "v1", Predicates: goalOf(d.Changes)}}
	ref := &model.Reference{Changes: d.Changes, Outputs: []string{}}
	if c := t.Criteria; c != nil {
		ref.Outputs = append(ref.Outputs, c.CommunicateInfo...)
		ref.Basis = slices.Clone(c.RewardBasis)
		ref.Assertions = slices.Clone(c.NLAssertions)
		for _, a := range c.Actions {
			args, _ := model.FromJSON(a.Arguments)
			ref.Actions = append(ref.Actions, model.RefCall{Requestor: a.Requestor, Tool: a.Name, Args: args,
				CompareArgs: slices.Clone(a.CompareArgs), AllArgs: a.CompareArgs == nil})
		}
	}
	task.Reference = ref
	d.Task = &task
	return d, nil
}

// StepOf turns a call into a step: the assistant's calls are the agent's.
func StepOf(name, requestor string, args []byte, index int) (model.Step, error) {
	v, err := model.FromJSON(args)
	if err != nil {
		return model.Step{}, fmt.Errorf("call %d (%s): arguments: %w", index+1, name, err)
	}
	if _, ok := model.Members(v); !ok && string(v.AppendJSON(nil)) != "{}" {
		return model.Step{}, fmt.Errorf("call %d (%s): arguments are not a JSON object", index+1, name)
	}
	if requestor != "assistant" {
		return model.Step{}, fmt.Errorf("call %d (%s): a call by the %s: only the assistant calls tools in this domain", index+1, name, requestor)
	}
	return model.Step{Index: index, Action: model.Action{Op: model.OpCall, Tool: name, Args: v}}, nil
}

// sameChanges reports whether two lists of net changes are one set: the
// same end state, which is what tau2's equal DB hashes say (a state maps
// to its database one to one).
func sameChanges(a, b []model.CellDiff) bool {
	if len(a) != len(b) {
		return false
	}
	type key struct{ typ, id, field string }
	m := make(map[key]model.Value, len(a))
	for _, c := range a {
		m[key{c.Type, c.ID, c.Field}] = c.After
	}
	for _, c := range b {
		v, ok := m[key{c.Type, c.ID, c.Field}]
		if !ok || !v.Equal(c.After) {
			return false
		}
	}
	return true
}

// goalOf makes one predicate per net change: the field holds its new
// value (an entity created or removed: it is alive, or absent).
func goalOf(changes []model.CellDiff) []model.Predicate {
	var preds []model.Predicate
	for _, c := range changes {
		switch {
		case c.Field == model.AliveField && c.After.AsBool():
			preds = append(preds, model.Predicate{ID: "exists-" + c.ID, Text: fmt.Sprintf("%s %s exists", c.Type, c.ID),
				Expr: model.Expr{Kind: model.ExprAlive, Type: c.Type, ID: c.ID}})
		case c.Field == model.AliveField:
			preds = append(preds, model.Predicate{ID: "gone-" + c.ID, Text: fmt.Sprintf("%s %s is gone", c.Type, c.ID),
				Expr: model.Expr{Kind: model.ExprAbsent, Type: c.Type, ID: c.ID}})
		default:
			preds = append(preds, model.Predicate{ID: c.Field + "-" + c.ID, Text: fmt.Sprintf("%s %s has %s = %s", c.Type, c.ID, c.Field, c.After),
				Expr: model.Expr{Kind: model.ExprField, Type: c.Type, ID: c.ID, Field: c.Field, Cmp: model.CmpEq, Value: c.After}})
		}
	}
	return preds
}
