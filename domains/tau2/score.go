package tau2

import (
	"github.com/parthack/parthack/evaluators"
	"github.com/parthack/parthack/model"
)

// Score is tau2's reward of a run recomputed, with its components.
type Score struct {
	Reward float64
	// Premature: the run ended by max_steps, too_many_errors or another
	// reason than agent_stop/user_stop, and tau2 scores it 0 with no
	// components.
	Premature  bool
	NoCriteria bool // the task has no criteria: tau2 gives 1
	DBMatch    bool
	DB         float64 // 1 when DBMatch
	// Hash and GoldHash are tau2's DB hashes of the run's end state and of
	// the gold calls', when the checker computes them (Checker.Hashes).
	Hash, GoldHash string
	// Actions holds, per gold call, whether some call of the run matches
	// it (anywhere, any number of times: tau2's ACTION check).
	Actions []bool
	Action  float64 // 1 when every gold call is matched
	// Partial is tau2's partial_action_reward total: the fraction of gold
	// calls matched; -1 when the task has none (tau2: None).
	Partial float64
	// Communicate holds, per communicate_info string, whether an
	// assistant message says it.
	Communicate   []bool
	CommunicateOK float64
	// Skipped names components in the basis parthack does not compute
	// here (NL_ASSERTION needs an LLM judge; ENV_ASSERTION a domain with
	// assertions): the reward is the product of the others.
	Skipped []string
}

// premature reports whether tau2 scores a run 0 for how it ended, by the
// rule the payload evaluator applies (evaluators.Tau2Premature).
func premature(reason string) bool { return evaluators.Tau2Premature(reason) }

// ScoreRun is tau2's evaluate_simulation (evaluation type ALL) of a run
// of a task, given whether its end state is the gold calls' (tau2: the
// two DB hashes are equal).
func ScoreRun(sim *Simulation, t *Task, dbMatch bool) *Score {
	s := &Score{Partial: -1}
	if premature(sim.TerminationReason) {
		s.Premature = true
		return s
	}
	c := t.Criteria
	if c == nil {
		s.NoCriteria, s.Reward = true, 1
		return s
	}
	s.DBMatch = dbMatch
	if c.ActionsNull && c.EnvAssertions == nil {
		s.DBMatch = true // tau2: nothing to replay, the DB check passes
	}
	s.DB = b2f(s.DBMatch)
	calls := runCalls(sim)
	s.Action = 1
	for _, a := range c.Actions {
		ok := false
		for _, tc := range calls {
			if MatchCall(a.Name, a.Arguments, a.CompareArgs, tc.Name, tc.Arguments) {
				ok = true
				break
			}
		}
		s.Actions = append(s.Actions, ok)
		if !ok {
			s.Action = 0
		}
	}
	if len(c.Actions) > 0 {
		n := 0
		for _, ok := range s.Actions {
			if ok {
				n++
			}
		}
		s.Partial = float64(n) / float64(len(c.Actions))
	}
	var said []model.Text
	for _, m := range sim.Messages {
		if m.Role == "assistant" && m.Content != nil && !m.Content.Blank() {
			said = append(said, *m.Content)
		}
	}
	s.CommunicateOK = 1
	for _, info := range c.CommunicateInfo {
		ok := false
		for _, text := range said {
			if model.Says(text, info) {
				ok = true
				break
			}
		}
		s.Communicate = append(s.Communicate, ok)
		if !ok {
			s.CommunicateOK = 0
		}
	}
	s.Reward = 1
	has := func(b string) bool {
		for _, x := range c.RewardBasis {
			if x == b {
				return true
			}
		}
		return false
	}
	if has(BasisDB) {
		s.Reward *= s.DB
	}
	if has(BasisEnv) && c.EnvAssertions != nil {
		s.Skipped = append(s.Skipped, BasisEnv)
	}
	if has(BasisAction) {
		s.Reward *= s.Action
	}
	if has(BasisNL) {
		s.Skipped = append(s.Skipped, BasisNL)
	}
	if has(BasisCommunicate) {
		s.Reward *= s.CommunicateOK
	}
	return s
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// runCalls are every tool call of a run, the assistant's and the user's.
func runCalls(sim *Simulation) []ToolCall {
	var out []ToolCall
	for _, m := range sim.Messages {
		out = append(out, m.ToolCalls...)
	}
	return out
}

// MatchCall is tau2's Action.compare_with_tool_call: the same tool, and
// the compared arguments equal as Python compares dicts. compareArgs nil
// compares the arguments the call passes; an empty list compares none.
func MatchCall(goldName string, goldArgs []byte, compareArgs []string, name string, args []byte) bool {
	if goldName != name {
		return false
	}
	call, err1 := ParsePy(args)
	gold, err2 := ParsePy(goldArgs)
	if err1 != nil || err2 != nil {
		return false
	}
	return MatchArgs(asObj(gold), compareArgs, compareArgs == nil, asObj(call))
}

// MatchArgs compares a call's arguments with a gold call's as tau2 does.
func MatchArgs(gold Obj, compareArgs []string, allArgs bool, call Obj) bool {
	keys := compareArgs
	if allArgs {
		keys = nil
		for _, m := range call {
			keys = append(keys, m.Key)
		}
	}
	if len(keys) == 0 {
		return true
	}
	pick := func(o Obj) Obj {
		var out Obj
		for _, m := range o {
			for _, k := range keys {
				if m.Key == k {
					out = append(out, m)
					break
				}
			}
		}
		return out
	}
	return PyEqual(pick(call), pick(gold))
}

func asObj(x any) Obj { o, _ := x.(Obj); return o }

// ArgsOf is a model value's JSON object as a Python dict.
func ArgsOf(v model.Value) Obj { return asObj(MustPy(v)) }
