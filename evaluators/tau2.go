package evaluators

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/parthack/parthack/internal/payload"
	"github.com/parthack/parthack/model"
)

// tau2-bench's evaluators, as parthack targets, computed from the public
// payload of a tau2 task (its reference carries tau2's reward basis and
// gold calls).
const (
	Tau2RewardName        = "tau2_reward"         // the product over the task's reward basis: tau2's verdict
	Tau2DBName            = "tau2_db"             // the end state equals the gold calls' end state
	Tau2CommunicateName   = "tau2_communicate"    // every communicate_info string said by the agent
	Tau2ActionName        = "tau2_action"         // every gold call matched by some call
	Tau2PartialActionName = "tau2_partial_action" // the fraction of gold calls matched
	Tau2EnvName           = "tau2_env_assertion"  // every env assertion holds at the end (telecom)
	// Tau2NLName is every NL assertion met, as an LLM judge reads the
	// transcript (evaluators/llm.NLAssertions): not a deterministic
	// evaluator, so not among Tau2Names.
	Tau2NLName = "tau2_nl_assertion"
)

// Tau2NLBasis is the reward-basis component an LLM judge decides.
const Tau2NLBasis = "NL_ASSERTION"

// Tau2Names lists tau2's evaluators in report order.
func Tau2Names() []string {
	return []string{Tau2RewardName, Tau2DBName, Tau2EnvName, Tau2CommunicateName, Tau2ActionName, Tau2PartialActionName}
}

// Tau2Label is an evaluator's label in tables, "" for a name that is not
// one of tau2's.
func Tau2Label(name string) string {
	return map[string]string{Tau2RewardName: "tau2 reward", Tau2DBName: "tau2 DB", Tau2CommunicateName: "tau2 COMMUNICATE",
		Tau2ActionName: "tau2 ACTION", Tau2PartialActionName: "tau2 partial ACTION", Tau2EnvName: "tau2 ENV_ASSERTION",
		Tau2NLName: "tau2 NL_ASSERTION"}[name]
}

// Tau2Score is tau2's scoring of one payload.
type Tau2Score struct {
	Reward, DB, Env, Communicate, Action, PartialAction float64
	// Skipped names the basis components not computed: NL_ASSERTION (an
	// LLM judge's); Reward is the product of the others.
	Skipped []string
	// Premature is the termination reason of a run tau2 ended itself
	// (Tau2Premature): it scores 0 and no component is computed.
	Premature string
}

// Tau2Premature reports whether tau2 scores a run 0, computing no
// component, for how it ended: any termination reason but agent_stop
// and user_stop (max_steps, too_many_errors, agent_error, …), as tau2's
// evaluate_simulation does; "" is a run its conversation ended.
func Tau2Premature(reason string) bool {
	return reason != "" && reason != "agent_stop" && reason != "user_stop"
}

// Get is one evaluator's score by name.
func (s *Tau2Score) Get(name string) float64 {
	switch name {
	case Tau2RewardName:
		return s.Reward
	case Tau2DBName:
		return s.DB
	case Tau2CommunicateName:
		return s.Communicate
	case Tau2ActionName:
		return s.Action
	case Tau2EnvName:
		return s.Env
	}
	return s.PartialAction
}

// Tau2 scores a payload as tau2's evaluator (evaluation type ALL) scores
// a run that ended normally: DB, the trajectory ends in the reference's
// database, its net changes being exactly the reference's as a database
// shows them (tau2 compares the two end states' hashes; the reference is
// tau2's gold environment: the initial state, then the gold calls);
// COMMUNICATE, each communicate_info string is in some message of the
// agent, lower-cased and without commas; ACTION, each gold call is
// matched by some call anywhere in the trajectory, by anyone, whatever it
// returned (compare_args: the named arguments equal as Python compares
// them; null: every argument the call passes) — historical, so a call
// undone later still counts; the partial action credit is the fraction
// matched (1 when the task has no gold call). ok is false when the
// payload has no tau2 reference (no reward basis). A run tau2 ended
// itself (the payload's termination_reason, Tau2Premature) scores 0 with
// every component left at 0 and not computed (Premature says why).
func Tau2(p *payload.Payload) (s Tau2Score, ok bool) {
	var err error
	ref := p.Reference
	if ref == nil || len(ref.Basis) == 0 {
		return s, false
	}
	if Tau2Premature(p.Termination) {
		s.Premature = p.Termination
		return s, true
	}
	s.DB = b2f(sameNet(p))
	s.Communicate = b2f(model.SaidAll(tau2Replies(p), ref.Outputs))
	matched := 0
	for i := range ref.Actions {
		if goldMatch(&ref.Actions[i], p.Events) >= 0 {
			matched++
		}
	}
	s.Action, s.PartialAction = 1, 1
	if n := len(ref.Actions); n > 0 {
		s.Action = b2f(matched == n)
		s.PartialAction = float64(matched) / float64(n)
	}
	// A task scored on ENV_ASSERTION has its assertions as its goal
	// predicates (telecom's), so they all hold at the end exactly when
	// Terminal Outcome is 1.
	s.Env = 1
	if slices.Contains(ref.Basis, "ENV_ASSERTION") {
		if s.Env, err = terminalOutcome(p); err != nil {
			return s, false
		}
	}
	s.Reward = 1
	for _, b := range ref.Basis {
		switch b {
		case "DB":
			s.Reward *= s.DB
		case "ENV_ASSERTION":
			s.Reward *= s.Env
		case "COMMUNICATE":
			s.Reward *= s.Communicate
		case "ACTION":
			s.Reward *= s.Action
		default:
			s.Skipped = append(s.Skipped, b)
		}
	}
	return s, true
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// sameNet reports whether a payload's net changes to the initial state
// are exactly its reference's, as the database shows them (inDatabase):
// the same cells, the same values, none more.
func sameNet(p *payload.Payload) bool {
	net, gold := netChanges{}, netChanges{}
	for i := range p.Events {
		for _, c := range p.Events[i].Diff {
			k := cellKey{c.Type, c.ID, c.Field}
			if prev, seen := net[k]; seen {
				net[k] = change{prev.before, c.After}
			} else {
				net[k] = change{c.Before, c.After}
			}
		}
	}
	for _, r := range p.Reference.Changes {
		gold[cellKey{r.Type, r.ID, r.Field}] = change{r.Before, r.After}
	}
	got, want := net.inDatabase(), gold.inDatabase()
	if len(got) != len(want) {
		return false
	}
	for k, c := range want {
		g, seen := got[k]
		if !seen || !g.after.Equal(c.after) || !g.before.Equal(c.before) {
			return false
		}
	}
	return true
}

type cellKey struct{ typ, id, field string }

type change struct{ before, after model.Value }

// netChanges are cells with their initial and final values.
type netChanges map[cellKey]change

// inDatabase are the changes a database shows, as tau2's hash of it
// sees them: a cell whose value changed, but none of a record that is
// not alive at the end, and that record's alive cell only when it was
// alive at the start (one made and deleted again is no change).
func (n netChanges) inDatabase() netChanges {
	dead := map[[2]string]bool{}
	for k, c := range n {
		if k.field == model.AliveField && !c.after.AsBool() {
			dead[[2]string{k.typ, k.id}] = true
		}
	}
	out := netChanges{}
	for k, c := range n {
		if c.before.Equal(c.after) || dead[[2]string{k.typ, k.id}] && (k.field != model.AliveField || !c.before.AsBool()) {
			continue
		}
		out[k] = c
	}
	return out
}

// tau2Replies are the agent's messages COMMUNICATE reads: its
// non-empty assistant turns.
func tau2Replies(p *payload.Payload) []string {
	var replies []string
	for _, t := range p.Transcript {
		if t.Role == "assistant" && strings.TrimSpace(t.Content) != "" {
			replies = append(replies, t.Content)
		}
	}
	return replies
}

// goldMatch is the first event of the log whose call matches a gold
// call, or -1.
func goldMatch(g *payload.RefCall, events []payload.Event) int {
	gold, _ := pyObject(g.Args.AppendJSON(nil))
	for i := range events {
		call, ok := callArgs(&events[i], g.Tool)
		if !ok {
			continue
		}
		if keys := compared(g, call); len(keys) == 0 || pyEqual(pick(call, keys), pick(gold, keys)) {
			return i
		}
	}
	return -1
}

// callArgs are an event's call arguments when it is a call of tool.
func callArgs(ev *payload.Event, tool string) (map[string]any, bool) {
	if ev.Op != model.OpCall || ev.Tool != tool {
		return nil, false
	}
	args, _ := ev.Args.MarshalJSON()
	return pyObject(args)
}

// compared are the arguments a call must equal the gold call in: its
// compare_args, or every argument the call passes (compare_args null).
func compared(g *payload.RefCall, call map[string]any) []string {
	if !g.AllArgs {
		return g.CompareArgs
	}
	keys := make([]string, 0, len(call))
	for k := range call {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// Tau2Gold is one gold call of a tau2 task checked against a run as the
// ACTION check checks it: the first event whose call matches it, or why
// none does.
type Tau2Gold struct {
	Ref   payload.RefCall
	Event int    // the matching event, from 1; 0 when none matches
	Why   string // when none matches: no call of the tool, or the arguments that differ
}

// Tau2Golds checks each gold call of a payload's reference against its
// events (goldMatch, the ACTION check's match). A gold call no event
// matches is missing when no call of its tool was made, else it names
// the call of that tool whose compared arguments differ least and each
// argument that differs, the call's value and the gold one's.
func Tau2Golds(p *payload.Payload) []Tau2Gold {
	if p.Reference == nil {
		return nil
	}
	var out []Tau2Gold
	for i := range p.Reference.Actions {
		g := &p.Reference.Actions[i]
		res := Tau2Gold{Ref: *g}
		if at := goldMatch(g, p.Events); at >= 0 {
			res.Event = at + 1
			out = append(out, res)
			continue
		}
		gold, _ := pyObject(g.Args.AppendJSON(nil))
		best, bestDiff := -1, []string(nil)
		for j := range p.Events {
			call, ok := callArgs(&p.Events[j], g.Tool)
			if !ok {
				continue
			}
			var diff []string
			for _, k := range compared(g, call) {
				if !pyEqual(pick(call, []string{k}), pick(gold, []string{k})) {
					diff = append(diff, fmt.Sprintf("%s %s (gold %s)", k, pyShow(call, k), pyShow(gold, k)))
				}
			}
			if best < 0 || len(diff) < len(bestDiff) {
				best, bestDiff = j, diff
			}
		}
		if best < 0 {
			res.Why = "missing: no call of " + g.Tool
		} else {
			res.Why = fmt.Sprintf("wrong arguments: the call at event %d has %s", best+1, strings.Join(bestDiff, ", "))
		}
		out = append(out, res)
	}
	return out
}

// pyShow is an argument's value as JSON, or "nothing" when it is not
// passed.
func pyShow(o map[string]any, k string) string {
	v, ok := o[k]
	if !ok {
		return "nothing"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// OutputsSaid says, for each output a payload's reference requires
// (tau2's communicate_info strings, tau-bench's outputs), whether some
// message of the agent says it: the COMMUNICATE check, output by output.
func OutputsSaid(p *payload.Payload) []bool {
	if p.Reference == nil {
		return nil
	}
	replies := tau2Replies(p)
	out := make([]bool, len(p.Reference.Outputs))
	for i, info := range p.Reference.Outputs {
		out[i] = model.SaidAll(replies, []string{info})
	}
	return out
}

func pick(o map[string]any, keys []string) map[string]any {
	out := map[string]any{}
	for _, k := range keys {
		if v, ok := o[k]; ok {
			out[k] = v
		}
	}
	return out
}

// pyObject loads a JSON object as Python would, numbers kept exact.
func pyObject(b []byte) (map[string]any, bool) {
	if string(b) == "null" || len(b) == 0 {
		return map[string]any{}, true
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, false
	}
	return m, m != nil
}

// pyEqual is Python's == on loaded JSON: numbers and booleans compare by
// value (1 == 1.0 == True), dicts regardless of key order.
func pyEqual(a, b any) bool {
	if x, ok := pyNum(a); ok {
		y, ok := pyNum(b)
		return ok && x == y
	}
	switch v := a.(type) {
	case []any:
		w, ok := b.([]any)
		if !ok || len(v) != len(w) {
			return false
		}
		for i := range v {
			if !pyEqual(v[i], w[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		w, ok := b.(map[string]any)
		if !ok || len(v) != len(w) {
			return false
		}
		for k, x := range v {
			y, ok := w[k]
			if !ok || !pyEqual(x, y) {
				return false
			}
		}
		return true
	}
	return a == b
}

func pyNum(x any) (float64, bool) {
	switch v := x.(type) {
	case json.Number:
		f, err := v.Float64()
		return f, err == nil
	case bool:
		return b2f(v), true
	}
	return 0, false
}

// terminalOutcome is the Terminal Outcome evaluator's score of a payload.
func terminalOutcome(p *payload.Payload) (float64, error) {
	scores, err := ScoreAll(p)
	if err != nil {
		return 0, err
	}
	for _, sc := range scores {
		if sc.Name == "terminal_outcome" {
			return sc.Value, nil
		}
	}
	return 0, fmt.Errorf("no terminal_outcome evaluator")
}
