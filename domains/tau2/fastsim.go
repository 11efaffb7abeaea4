package tau2

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/parthack/parthack/model"
)

// A simulation, and a file's tasks, are decoded from the node tree the
// strict parser already built of them (model.JSON), their strings shared
// with that tree and only a call's arguments, a task's text and the
// recorded members copied out as text: no second parse of their text, no
// copy of a long message. Anything that reads otherwise than the common
// shape (a member of another type, a null where a value was expected, an
// unknown role, calls and results that do not pair) is decoded again by
// the exact path (decoder.simulation, decoder.task), which words the
// error or, where encoding/json accepts it, decodes it: the fast path
// accepts a subset of what the exact one does, and decodes it to the same
// values.

// fastTasks decodes a file's tasks from their tree, as decoder.task does
// from their text; false when the exact path must decode them.
func fastTasks(v model.JSON) ([]*Task, bool) {
	if v.IsNull() {
		return nil, true
	}
	if v.Kind() != "array" {
		return nil, false
	}
	items, _ := v.Array()
	out := make([]*Task, 0, len(items))
	for _, tv := range items {
		t, ok := fastTask(tv)
		if !ok {
			return nil, false
		}
		out = append(out, t)
	}
	return out, true
}

// fastTask decodes one task, its text kept whole (Task.Raw) and the
// members parthack reads besides.
func fastTask(v model.JSON) (*Task, bool) {
	if v.Kind() != "object" {
		return nil, false
	}
	t := &Task{Raw: bytes.Clone(v.Raw())}
	var ok bool
	if t.ID, ok = needStr(v, "id"); !ok {
		return nil, false
	}
	if sc, present := v.Member("user_scenario"); present {
		t.Scenario = bytes.Clone(sc.Raw())
	}
	if is, present := v.Member("initial_state"); present && !is.IsNull() {
		t.InitialState = bytes.Clone(is.Raw())
	}
	cv, present := v.Member("evaluation_criteria")
	if !present || cv.IsNull() {
		return t, true
	}
	if cv.Kind() != "object" {
		return nil, false
	}
	c := &Criteria{}
	actions, ok := optList(cv, "actions")
	if !ok {
		return nil, false
	}
	av, present := cv.Member("actions")
	c.ActionsNull = !present || av.IsNull()
	for _, a := range actions {
		act, ok := fastAction(a)
		if !ok {
			return nil, false
		}
		c.Actions = append(c.Actions, act)
	}
	if ea, present := cv.Member("env_assertions"); present && !ea.IsNull() {
		c.EnvAssertions = bytes.Clone(ea.Raw())
	}
	if !optStrs(cv, "communicate_info", &c.CommunicateInfo) || !optStrs(cv, "nl_assertions", &c.NLAssertions) ||
		!optStrs(cv, "reward_basis", &c.RewardBasis) {
		return nil, false
	}
	for _, b := range c.RewardBasis {
		if !knownBasis(b) {
			return nil, false
		}
	}
	t.Criteria = c
	return t, true
}

// fastSimulation decodes the i-th simulation from its tree, placed in its
// file; false when the exact path must decode it.
func (d *decoder) fastSimulation(i int, v model.JSON) (*Simulation, bool) {
	if v.Kind() != "object" {
		return nil, false
	}
	s := &Simulation{Index: i}
	var ok bool
	if s.ID, ok = needStr(v, "id"); !ok {
		return nil, false
	}
	if s.TaskID, ok = needStr(v, "task_id"); !ok {
		return nil, false
	}
	if t, present := v.Member("trial"); present && !t.IsNull() {
		n, err := t.Int()
		if err != nil {
			return nil, false
		}
		s.Trial = int(n)
	}
	if s.TerminationReason, ok = needStr(v, "termination_reason"); !ok {
		return nil, false
	}
	for _, k := range recordedKeys {
		if x, present := v.Member(k); present {
			if s.Recorded == nil {
				s.Recorded = map[string]json.RawMessage{}
			}
			s.Recorded[k] = bytes.Clone(x.Raw())
		}
	}
	msgs, present := v.Member("messages")
	if !present || msgs.Kind() != "array" {
		return nil, false
	}
	items, _ := msgs.Array()
	s.Messages = make([]Message, 0, len(items))
	var calls []model.JSON // every call's node, in order, to place it
	for _, mv := range items {
		msg, ok := fastMessage(mv, &calls)
		if !ok {
			return nil, false
		}
		s.Messages = append(s.Messages, msg)
	}
	if len(s.Messages) == 0 {
		s.Messages = nil // as the exact path leaves an empty list
	}
	if _, err := Pair(s.Messages); err != nil {
		return nil, false
	}
	if ri, present := v.Member("reward_info"); present && !ri.IsNull() {
		if s.RewardInfo, ok = fastRewardInfo(ri); !ok {
			return nil, false
		}
	}
	s.At = d.placedAt(fmt.Sprintf("simulations[%d]", i), v)
	if len(calls) > 0 {
		s.CallsAt = make([]Place, 0, len(calls))
	}
	k := 0
	for j, m := range s.Messages {
		for c := range m.ToolCalls {
			s.CallsAt = append(s.CallsAt, d.placedAt(fmt.Sprintf("simulations[%d].messages[%d].tool_calls[%d]", i, j, c), calls[k]))
			k++
		}
	}
	return s, true
}

// placedAt is the place of a value of the run being decoded.
func (d *decoder) placedAt(path string, v model.JSON) Place {
	line, col := v.Pos()
	return Place{Path: path, Line: line, Col: col}
}

// needStr is a required string member; false when it is absent or no
// string.
func needStr(v model.JSON, key string) (string, bool) {
	x, ok := v.Member(key)
	if !ok || x.Kind() != "string" {
		return "", false
	}
	s, _ := x.Str()
	return s, true
}

// optStr reads an optional string member into dst: absent or null
// leaves dst alone; false when it is of another type.
func optStr(v model.JSON, key string, dst *string) bool {
	x, ok := v.Member(key)
	switch {
	case !ok || x.IsNull():
		return true
	case x.Kind() != "string":
		return false
	}
	*dst, _ = x.Str()
	return true
}

// needBool is a required boolean member.
func needBool(v model.JSON, key string) (bool, bool) {
	x, ok := v.Member(key)
	if !ok || x.Kind() != "boolean" {
		return false, false
	}
	b, _ := x.Bool()
	return b, true
}

// optFloat reads an optional number member into dst.
func optFloat(v model.JSON, key string, dst *float64) bool {
	x, ok := v.Member(key)
	switch {
	case !ok || x.IsNull():
		return true
	case x.Kind() != "number":
		return false
	}
	f, err := x.Float()
	*dst = f
	return err == nil
}

// optList is an optional list member's items: nil for absent or null;
// false when it is of another type.
func optList(v model.JSON, key string) ([]model.JSON, bool) {
	x, ok := v.Member(key)
	switch {
	case !ok || x.IsNull():
		return nil, true
	case x.Kind() != "array":
		return nil, false
	}
	items, _ := x.Array()
	return items, true
}

// optStrs reads an optional list of strings into dst, an empty list
// as an empty slice and absent or null leaving dst alone.
func optStrs(v model.JSON, key string, dst *[]string) bool {
	x, ok := v.Member(key)
	if !ok || x.IsNull() {
		return true
	}
	items, ok := optList(v, key)
	if !ok {
		return false
	}
	out := make([]string, len(items))
	for i, it := range items {
		if it.Kind() != "string" {
			return false
		}
		out[i], _ = it.Str()
	}
	*dst = out
	return true
}

// fastRequestor reads a call's requestor, "assistant" when absent.
func fastRequestor(v model.JSON, dst *string) bool {
	*dst = "assistant"
	return optStr(v, "requestor", dst) && (*dst == "assistant" || *dst == "user")
}

// fastArguments is a call's arguments as the file writes them, "{}"
// when absent or null.
func fastArguments(v model.JSON) (json.RawMessage, bool) {
	x, ok := v.Member("arguments")
	switch {
	case !ok || x.IsNull():
		return json.RawMessage("{}"), true
	case x.Kind() != "object":
		return nil, false
	}
	return bytes.Clone(x.Raw()), true
}

// fastMessage decodes one message, adding each of its calls' nodes to
// calls.
func fastMessage(v model.JSON, calls *[]model.JSON) (Message, bool) {
	var msg Message
	if v.Kind() != "object" {
		return msg, false
	}
	var ok bool
	if msg.Role, ok = needStr(v, "role"); !ok {
		return msg, false
	}
	if c, present := v.Member("content"); present && !c.IsNull() {
		if c.Kind() != "string" {
			return msg, false
		}
		text, _ := c.Text()
		msg.Content = &text
	}
	switch msg.Role {
	case "assistant", "user":
		items, ok := optList(v, "tool_calls")
		if !ok {
			return msg, false
		}
		for _, cv := range items {
			if cv.Kind() != "object" {
				return msg, false
			}
			tc := ToolCall{}
			if !optStr(cv, "id", &tc.ID) {
				return msg, false
			}
			if tc.Name, ok = needStr(cv, "name"); !ok || !fastRequestor(cv, &tc.Requestor) {
				return msg, false
			}
			if tc.Arguments, ok = fastArguments(cv); !ok {
				return msg, false
			}
			msg.ToolCalls = append(msg.ToolCalls, tc)
			*calls = append(*calls, cv)
		}
	case "tool":
		if msg.ID, ok = needStr(v, "id"); !ok || msg.Content == nil || !fastRequestor(v, &msg.Requestor) {
			return msg, false
		}
		if e, present := v.Member("error"); present && !e.IsNull() {
			if e.Kind() != "boolean" {
				return msg, false
			}
			msg.Error, _ = e.Bool()
		}
	default:
		return msg, false
	}
	return msg, true
}

// fastAction decodes a gold call named in an action check.
func fastAction(v model.JSON) (Action, bool) {
	var a Action
	if v.Kind() != "object" {
		return a, false
	}
	var ok bool
	if a.Name, ok = needStr(v, "name"); !ok || !optStr(v, "action_id", &a.ActionID) || !fastRequestor(v, &a.Requestor) {
		return a, false
	}
	if a.Arguments, ok = fastArguments(v); !ok {
		return a, false
	}
	return a, optStrs(v, "compare_args", &a.CompareArgs)
}

// fastRewardInfo decodes tau2's scoring of a run.
func fastRewardInfo(v model.JSON) (*RewardInfo, bool) {
	if v.Kind() != "object" {
		return nil, false
	}
	ri := &RewardInfo{}
	x, ok := v.Member("reward")
	if !ok || x.Kind() != "number" {
		return nil, false
	}
	var err error
	if ri.Reward, err = x.Float(); err != nil {
		return nil, false
	}
	if db, present := v.Member("db_check"); present && !db.IsNull() {
		if db.Kind() != "object" {
			return nil, false
		}
		ri.DBCheck = &DBCheck{}
		if ri.DBCheck.DBMatch, ok = needBool(db, "db_match"); !ok || !optFloat(db, "db_reward", &ri.DBCheck.DBReward) {
			return nil, false
		}
	}
	items, ok := optList(v, "action_checks")
	if !ok {
		return nil, false
	}
	for _, cv := range items {
		if cv.Kind() != "object" {
			return nil, false
		}
		var ac ActionCheck
		av, present := cv.Member("action")
		if !present {
			return nil, false
		}
		if ac.Action, ok = fastAction(av); !ok {
			return nil, false
		}
		if ac.ActionMatch, ok = needBool(cv, "action_match"); !ok {
			return nil, false
		}
		ri.ActionChecks = append(ri.ActionChecks, ac)
	}
	if items, ok = optList(v, "communicate_checks"); !ok {
		return nil, false
	}
	for _, cv := range items {
		if cv.Kind() != "object" {
			return nil, false
		}
		var cc CommunicateCheck
		if cc.Info, ok = needStr(cv, "info"); !ok {
			return nil, false
		}
		if cc.Met, ok = needBool(cv, "met"); !ok {
			return nil, false
		}
		ri.CommunicateChecks = append(ri.CommunicateChecks, cc)
	}
	if items, ok = optList(v, "env_assertions"); !ok {
		return nil, false
	}
	for _, cv := range items {
		if cv.Kind() != "object" {
			return nil, false
		}
		var ec EnvAssertionCheck
		if ec.Met, ok = needBool(cv, "met"); !ok {
			return nil, false
		}
		ri.EnvAssertions = append(ri.EnvAssertions, ec)
	}
	if !optStrs(v, "reward_basis", &ri.RewardBasis) {
		return nil, false
	}
	if b, present := v.Member("reward_breakdown"); present && !b.IsNull() {
		keys, vals, err := b.Entries()
		if err != nil {
			return nil, false
		}
		ri.RewardBreakdown = make(map[string]float64, len(keys))
		for i, k := range keys {
			if vals[i].Kind() != "number" {
				return nil, false
			}
			f, err := vals[i].Float()
			if err != nil {
				return nil, false
			}
			ri.RewardBreakdown[k] = f
		}
	}
	return ri, true
}
