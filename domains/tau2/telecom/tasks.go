package telecom

import (
	"encoding/json"
	"fmt"
	"slices"
	"sync"

	"github.com/parthack/parthack/domains/tau2"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
)

// Assertion is one of a task's env assertions: a function of a side
// whose boolean result must equal AssertValue.
type Assertion struct {
	EnvCall
	AssertValue bool
	Message     string
}

// Task is one tau2 telecom task as a parthack task. Its initialization
// actions are applied before the run and make the task's initial
// snapshot (they are the benchmark's set-up, not anyone's turn: a goal
// that only they touched has latest cause "initial"); its goal is its
// env assertions as predicates.
type Task struct {
	ID     string // "T2T-[mobile_data_issue]..."
	Source *tau2.Task
	Init   []EnvCall
	Checks []Assertion
	// Task is the PB-CSTE task: the initialized state, the assertions as
	// goal predicates, tau2's criteria in its Reference.
	Task *model.Task
	// Gold is the gold calls as steps, each with its requestor's actor.
	Gold *model.Trajectory
	// GoldHashes are the DB hashes of tau2's gold environment: the
	// set-up, then the gold calls made without sync_tools after them
	// (tau2's evaluator calls make_tool_call, not get_response).
	GoldHashes Hashes
	// Changes are that gold environment's net changes to the initialized
	// state, both databases, cell by cell: the task's Reference carries
	// them, so the payload's DB check is tau2's.
	Changes []model.CellDiff
	domain  *Domain
	start   *world

	envOnce sync.Once
	env     *pbcste.Env
	envErr  error
}

// Env is the task compiled for replay, once.
func (t *Task) Env() (*pbcste.Env, error) {
	t.envOnce.Do(func() { t.env, t.envErr = pbcste.Compile(t.Task) })
	return t.env, t.envErr
}

// Derive makes a parthack task of a tau2 telecom task for a domain (its
// mode decides which tools the agent holds).
func Derive(d *Domain, t *tau2.Task) (*Task, error) {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("tau2 telecom task %s: %s", t.ID, fmt.Sprintf(format, args...))
	}
	out := &Task{ID: tau2.TaskID(d, t.ID), Source: t, domain: d}
	if t.InitialState != nil {
		var st struct {
			Data    json.RawMessage   `json:"initialization_data"`
			Actions []json.RawMessage `json:"initialization_actions"`
			History json.RawMessage   `json:"message_history"`
		}
		if err := json.Unmarshal(t.InitialState, &st); err != nil {
			return nil, fail("initial_state: %v", err)
		}
		if len(st.Data) > 0 && string(st.Data) != "null" {
			return nil, fail("initial_state.initialization_data is set; no telecom task of tau2 uses it and the port does not apply it")
		}
		if len(st.History) > 0 && string(st.History) != "null" && string(st.History) != "[]" {
			return nil, fail("initial_state.message_history is set; the port does not replay a task's history")
		}
		for i, raw := range st.Actions {
			ec, _, _, err := envCallOf(raw)
			if err != nil {
				return nil, fail("initial_state.initialization_actions[%d]: %v", i, err)
			}
			out.Init = append(out.Init, ec)
		}
	}
	if c := t.Criteria; c != nil && c.EnvAssertions != nil {
		var raws []json.RawMessage
		if err := json.Unmarshal(c.EnvAssertions, &raws); err != nil {
			return nil, fail("evaluation_criteria.env_assertions: %v", err)
		}
		for i, raw := range raws {
			ec, val, msg, err := envCallOf(raw)
			if err != nil {
				return nil, fail("evaluation_criteria.env_assertions[%d]: %v", i, err)
			}
			out.Checks = append(out.Checks, Assertion{EnvCall: ec, AssertValue: val, Message: msg})
		}
	}
	w := d.db.start.clone()
	if f := w.sync(); f != "" { // the environment syncs once when it is made
		return nil, fail("sync_tools: %s", f)
	}
	for i, ec := range out.Init {
		if _, f := runEnv(w, ec); f != "" {
			return nil, fail("initialization_actions[%d] (%s %s): %s", i, ec.EnvType, ec.FuncName, f)
		}
	}
	out.start = w
	gold := &model.Trajectory{Task: out.ID, Name: "gold", Note: "tau2's gold actions for task " + t.ID}
	gw := w.clone()
	withUser := &Domain{db: d.db} // tau2 makes the gold environment without solo mode
	if t.Criteria != nil {
		for i, a := range t.Criteria.Actions {
			st, err := StepOf(a.Name, a.Requestor, a.Arguments, len(gold.Steps))
			if err != nil {
				return nil, fail("gold action %d: %v", i, err)
			}
			if d.Solo {
				st.Actor = model.ActorAgent // no-user mode: the agent holds the phone's tools
			}
			gold.Steps = append(gold.Steps, st)
			// a failing gold call is logged by tau2 and skipped
			_, _ = withUser.respond(gw, a.Requestor, a.Name, st.Args, false)
		}
	}
	out.Gold = gold
	out.GoldHashes = gw.hashes()
	out.Changes = gw.changesFrom(w)
	task := d.task(out.ID, fmt.Sprintf("tau2 telecom task %s", t.ID), w.entities())
	task.Instruction = string(t.Scenario)
	var preds []model.Predicate
	for i, a := range out.Checks {
		if p, ok := a.Predicate(i); ok {
			preds = append(preds, p)
		}
	}
	task.Goals = []model.GoalVersion{{Version: "v1", Predicates: preds}}
	ref := &model.Reference{Changes: out.Changes, Outputs: []string{}}
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
	out.Task = task
	task.Calls = out.AgentMoves()
	return out, nil
}

// envCallOf reads an EnvFunctionCall or EnvAssertion.
func envCallOf(raw json.RawMessage) (ec EnvCall, assertValue bool, message string, err error) {
	var c struct {
		EnvType     string          `json:"env_type"`
		FuncName    string          `json:"func_name"`
		Arguments   json.RawMessage `json:"arguments"`
		AssertValue *bool           `json:"assert_value"`
		Message     *string         `json:"message"`
	}
	if err := json.Unmarshal(raw, &c); err != nil {
		return ec, false, "", err
	}
	if c.EnvType != Assistant && c.EnvType != User {
		return ec, false, "", fmt.Errorf("env_type %q: expected \"assistant\" or \"user\"", c.EnvType)
	}
	if _, ok := funcs[c.FuncName]; !ok {
		return ec, false, "", fmt.Errorf("func_name %q: telecom's %s side has no such function", c.FuncName, c.EnvType)
	}
	args := tau2.Obj{}
	if len(c.Arguments) > 0 && string(c.Arguments) != "null" {
		x, err := tau2.ParsePy(c.Arguments)
		if err != nil {
			return ec, false, "", fmt.Errorf("arguments: %v", err)
		}
		o, ok := x.(tau2.Obj)
		if !ok {
			return ec, false, "", fmt.Errorf("arguments: expected an object")
		}
		args = o
	}
	assertValue = true // EnvAssertion's default
	if c.AssertValue != nil {
		assertValue = *c.AssertValue
	}
	if c.Message != nil {
		message = *c.Message
	}
	return EnvCall{EnvType: c.EnvType, FuncName: c.FuncName, Args: args}, assertValue, message, nil
}

// StepOf turns a tau2 call into a step whose actor is its requestor's:
// the assistant's calls are the agent's, the user's the user's.
func StepOf(name, requestor string, args []byte, index int) (model.Step, error) {
	st, err := tau2.StepOf(name, Assistant, args, index)
	if err != nil {
		return st, err
	}
	switch requestor {
	case Assistant:
		st.Actor = model.ActorAgent
	case User:
		st.Actor = model.ActorUser
	default:
		return st, fmt.Errorf("call %d (%s): requestor %q: expected assistant or user", index+1, name, requestor)
	}
	return st, nil
}

// Start is the task's initialized world as a state view.
func (t *Task) Start() model.StateView { return t.start.view() }

// Assert runs the task's env assertions on a state as tau2's evaluator
// does (run_env_assertion): each is met when its function returns its
// assert_value; a function that raises fails the evaluation in tau2,
// and here returns its error.
func (t *Task) Assert(v model.StateView) ([]bool, error) {
	w, err := readWorld(v, t.domain.db.apps)
	if err != nil {
		return nil, err
	}
	out := make([]bool, len(t.Checks))
	for i, a := range t.Checks {
		res, f := runEnv(w, a.EnvCall)
		if w.err != nil {
			return nil, w.err
		}
		if f != "" {
			return nil, fmt.Errorf("env assertion %d (%s): %s", i, a.FuncName, f)
		}
		b, ok := res.(bool)
		if !ok {
			return nil, fmt.Errorf("env assertion %d (%s) returned %T instead of bool", i, a.FuncName, res)
		}
		out[i] = b == a.AssertValue
	}
	return out, nil
}
