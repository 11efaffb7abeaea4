package tau2

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/parthack/parthack/internal/mapfile"
	"github.com/parthack/parthack/model"
)

// Results is one tau2 "Results" file as `tau2 run` writes it:
// {timestamp, info, tasks, simulations}. Only what parthack reads is
// kept; every other field a tau2 version writes is accepted and left.
type Results struct {
	File        string
	Timestamp   string
	Info        Info
	Tasks       []*Task
	Simulations []*Simulation
	byID        map[string]*Task
	// at places the values errors about the whole file point at (the
	// domain's name, the simulations), by path.
	at map[string]Place
	// checker replays and scores the file's runs for its domain's
	// runner and conformer alike (registry.checker).
	checker *Checker
}

// Place is where a value is in its file: its JSON path, line and column
// (0 when not known).
type Place struct {
	Path      string
	Line, Col int
}

// Info is the part of a file's info that parthack reads.
type Info struct {
	GitCommit string // the tau2 commit that made the file
	Domain    string // environment_info.domain_name
	AgentLLM  string // agent_info.llm
	UserLLM   string // user_info.llm
	AgentImpl string // agent_info.implementation: "llm_agent", "llm_agent_solo", …
	UserImpl  string // user_info.implementation: "user_simulator", "dummy_user"
	NumTrials int
	MaxSteps  int
	MaxErrors int
}

// Task is one tau2 task as a Results file embeds it.
type Task struct {
	ID string
	// Raw is the task as the file has it (JSON): tau2's tasks are
	// public, and an evaluator of its own reads them whole.
	Raw json.RawMessage
	// Scenario is the user's instructions as the file has them (JSON),
	// shown to people, never scored.
	Scenario json.RawMessage
	// InitialState is the task's initial_state (JSON), nil when null.
	InitialState json.RawMessage
	Criteria     *Criteria // nil when the task has no evaluation criteria
}

// Criteria are a task's evaluation_criteria.
type Criteria struct {
	Actions         []Action // the gold calls; nil when null
	ActionsNull     bool     // tau2 tells a null list from an empty one
	EnvAssertions   json.RawMessage
	CommunicateInfo []string
	NLAssertions    []string
	RewardBasis     []string // DB, ENV_ASSERTION, COMMUNICATE, ACTION, NL_ASSERTION
}

// Action is one gold call of a task.
type Action struct {
	ActionID  string
	Requestor string // assistant or user
	Name      string
	Arguments json.RawMessage // a JSON object
	// CompareArgs names the arguments the ACTION check compares; nil
	// (JSON null) compares every argument of the call.
	CompareArgs []string
}

// Simulation is one run: a task, a trial, its messages and tau2's scores.
type Simulation struct {
	Index             int // position in the file, from 0
	ID                string
	TaskID            string
	Trial             int
	TerminationReason string
	Messages          []Message
	RewardInfo        *RewardInfo // nil when null
	// Recorded are the members tau2 records of a run besides what it
	// said and how it scored (timestamp, start_time, end_time, duration,
	// seed), as the file has them.
	Recorded map[string]json.RawMessage
	// At places the run in its file and CallsAt each of its tool calls,
	// in order (its trajectory's steps), for errors.
	At      Place
	CallsAt []Place
}

// Message is one message of a run.
type Message struct {
	Role      string      // assistant, user or tool
	Content   *model.Text // nil: null
	ToolCalls []ToolCall
	ID        string // a tool message: the call it answers
	Requestor string // a tool message: who called
	Error     bool   // a tool message: the tool failed
}

// ToolCall is one call in an assistant's or user's message.
type ToolCall struct {
	ID        string
	Name      string
	Arguments json.RawMessage // a JSON object
	Requestor string          // assistant or user
}

// RewardInfo is tau2's scoring of a run as the file records it.
type RewardInfo struct {
	Reward            float64
	DBCheck           *DBCheck
	EnvAssertions     []EnvAssertionCheck
	ActionChecks      []ActionCheck
	CommunicateChecks []CommunicateCheck
	RewardBasis       []string // nil when null (a run ended early)
	RewardBreakdown   map[string]float64
}

// DBCheck is the DB component's outcome.
type DBCheck struct {
	DBMatch  bool
	DBReward float64
}

// EnvAssertionCheck is one env assertion's outcome.
type EnvAssertionCheck struct{ Met bool }

// ActionCheck is one gold call's ACTION outcome.
type ActionCheck struct {
	Action      Action
	ActionMatch bool
}

// CommunicateCheck is one communicate_info string's outcome.
type CommunicateCheck struct {
	Info string
	Met  bool
}

// Errorf is an error about the value of the file at path (one of those
// the file's reading placed: "info.environment_info.domain_name",
// "simulations"), located.
func (r *Results) Errorf(path, format string, args ...any) *Error {
	p := r.at[path]
	return &Error{File: r.File, Line: p.Line, Col: p.Col, Path: path, Message: fmt.Sprintf(format, args...)}
}

// TaskByID finds an embedded task.
func (r *Results) TaskByID(id string) (*Task, bool) { t, ok := r.byID[id]; return t, ok }

// Calls counts the tool calls of every run.
func (r *Results) Calls() int {
	n := 0
	for _, s := range r.Simulations {
		for _, m := range s.Messages {
			n += len(m.ToolCalls)
		}
	}
	return n
}

// Error is bad input, located: the file, the JSON path and, inside a
// run, its index, id and message.
type Error struct {
	File      string
	Line, Col int    // of the value at Path, when known (from 1)
	Path      string // e.g. simulations[3].messages[12].tool_calls[0].arguments
	SimID     string // the run's id, when inside one
	Message   string
}

func (e *Error) Error() string {
	where := e.File
	if e.Line > 0 {
		where = fmt.Sprintf("%s:%d:%d", e.File, e.Line, e.Col)
	}
	if e.Path != "" {
		where += ": " + e.Path
	}
	if e.SimID != "" {
		where += " (simulation " + e.SimID + ")"
	}
	return where + ": " + e.Message
}

// Decode reads a tau2 Results file, plain JSON or gzipped (told by the
// gzip magic bytes, not the name), whole. Every error is an *Error naming
// where the input went wrong; a file is read whole or not at all.
func Decode(file string, src []byte) (*Results, error) {
	src, err := mapfile.Unpack(src)
	if err != nil {
		return nil, &Error{File: file, Message: err.Error()}
	}
	var res *Results
	err = StreamResults(file, bytes.NewReader(src), func(r *Results) error { res = r; return nil },
		func(s *Simulation) error { res.Simulations = append(res.Simulations, s); return nil })
	if err != nil {
		return nil, err
	}
	return res, nil
}

// StreamResults reads a tau2 Results file (plain JSON) from r as
// strictly as every file parthack reads (model.StreamJSONObject: UTF-8,
// no byte order mark, no duplicate key, nothing after the value), member
// by member and run by run: head gets the file with its timestamp, info
// and tasks (Simulations nil) before each gets its first simulation; each
// gets every simulation, in order, checked against the tasks. The runs
// are never all held, except in a file whose simulations come before its
// info or tasks (tau2 writes them after), whose runs wait until those are
// read. Every error is an *Error naming where the input went wrong.
func StreamResults(file string, r io.Reader, head func(*Results) error, each func(*Simulation) error) error {
	d := &decoder{file: file}
	res := &Results{File: file, byID: map[string]*Task{}, at: map[string]Place{}}
	have := map[string]bool{}
	started := false
	start := func() error {
		for _, k := range []string{"info", "tasks"} {
			if !have[k] {
				return &Error{File: file, Message: fmt.Sprintf("not a tau2 Results file: no %q (a Results file has timestamp, info, tasks, simulations)", k)}
			}
		}
		started = true
		return head(res)
	}
	// Runs read before the info or the tasks wait, kept with their
	// place in the file.
	var held []model.JSON
	run := func(i int, v model.JSON) error {
		if t, ok := v.Member("ticks"); ok && !t.IsNull() {
			return d.fail(fmt.Sprintf("simulations[%d].ticks", i), "%s", fullDuplex)
		}
		s, ok := d.fastSimulation(i, v)
		if !ok {
			var err error
			if s, err = d.simulation(i, v.Raw()); err != nil {
				return err
			}
			d.placeCalls(i, s)
		}
		if _, ok := res.byID[s.TaskID]; !ok {
			d.simID = s.ID
			return d.fail(fmt.Sprintf("simulations[%d].task_id", i), "task %q is not among the file's %d tasks", s.TaskID, len(res.Tasks))
		}
		return each(s)
	}
	member := func(key string, v model.JSON) error {
		have[key] = true
		d.base, d.at, d.simID = key, v, ""
		switch key {
		case "timestamp":
			if !v.IsNull() {
				return d.into("timestamp", v.Raw(), &res.Timestamp)
			}
		case "info":
			res.at[domainPath] = d.placed(domainPath)
			return d.info(v.Raw(), &res.Info)
		case "tasks":
			add := func(i int, t *Task) error {
				if _, dup := res.byID[t.ID]; dup {
					return d.fail(fmt.Sprintf("tasks[%d].id", i), "task %q appears twice", t.ID)
				}
				res.byID[t.ID] = t
				res.Tasks = append(res.Tasks, t)
				return nil
			}
			if tasks, ok := fastTasks(v); ok {
				for i, t := range tasks {
					if err := add(i, t); err != nil {
						return err
					}
				}
				return nil
			}
			var tasks []json.RawMessage
			if err := d.into("tasks", v.Raw(), &tasks); err != nil {
				return err
			}
			for i, raw := range tasks {
				t, err := d.task(fmt.Sprintf("tasks[%d]", i), raw)
				if err != nil {
					return err
				}
				if err := add(i, t); err != nil {
					return err
				}
			}
		case "simulations":
			res.at["simulations"] = d.placed("simulations")
			if v.Kind() == "array" {
				return nil // a list: its runs follow, one by one
			}
			var sims []json.RawMessage
			return d.into("simulations", v.Raw(), &sims)
		}
		return nil
	}
	element := func(_ string, i int, v model.JSON) error {
		have["simulations"] = true
		if !started {
			if !have["info"] || !have["tasks"] {
				held = append(held, v.Clone())
				return nil
			}
			if err := start(); err != nil {
				return err
			}
		}
		d.base, d.at = fmt.Sprintf("simulations[%d]", i), v
		return run(i, v)
	}
	if err := model.StreamJSONObject(file, r, []string{"simulations"}, member, element); err != nil {
		var de *model.DecodeError
		if !errors.As(err, &de) {
			return err
		}
		e := &Error{File: file, Line: de.Line, Col: de.Col, Path: strings.TrimPrefix(strings.TrimPrefix(de.Path, "$"), "."), SimID: d.simID, Message: de.Msg}
		if de.Path == "$" && strings.HasPrefix(de.Msg, "expected an object") {
			e.Message = "not a tau2 Results file (a JSON object {timestamp, info, tasks, simulations}): " + de.Msg
		}
		return e
	}
	if !have["simulations"] {
		return &Error{File: file, Message: `not a tau2 Results file: no "simulations" (a Results file has timestamp, info, tasks, simulations)`}
	}
	if !started {
		if err := start(); err != nil {
			return err
		}
	}
	for i, h := range held {
		held[i] = model.JSON{}
		d.base, d.at, d.simID = fmt.Sprintf("simulations[%d]", i), h, ""
		if err := run(i, h); err != nil {
			return err
		}
	}
	return nil
}

type decoder struct {
	file  string
	base  string     // the path of at: "info", "tasks", "simulations[3]"
	at    model.JSON // the member or run being decoded, to place errors on
	simID string
}

func (d *decoder) fail(path, format string, args ...any) error {
	line, col := d.place(path)
	return &Error{File: d.file, Line: line, Col: col, Path: path, SimID: d.simID, Message: fmt.Sprintf(format, args...)}
}

// fullDuplex refuses a run of tau2's audio-native (full-duplex) mode:
// its conversation is ticks, its max_steps counts ticks, and its turns are
// not the half-duplex orchestrator's, whose rule every witness is held to.
const fullDuplex = "a run of tau2's audio-native (full-duplex) mode, kept as ticks: parthack reads half-duplex runs, whose turns, steps and limits are the ones it holds a witness to"

// domainPath is where a Results file names its domain.
const domainPath = "info.environment_info.domain_name"

// placed is the place of the value at path (see place).
func (d *decoder) placed(path string) Place {
	line, col := d.place(path)
	return Place{Path: path, Line: line, Col: col}
}

// placeCalls places the i-th run and each of its tool calls.
func (d *decoder) placeCalls(i int, s *Simulation) {
	s.At = d.placed(fmt.Sprintf("simulations[%d]", i))
	for j, m := range s.Messages {
		for k := range m.ToolCalls {
			s.CallsAt = append(s.CallsAt, d.placed(fmt.Sprintf("simulations[%d].messages[%d].tool_calls[%d]", i, j, k)))
		}
	}
}

// place is the line and column of the value at path
// ("simulations[3].messages[12].content"), or of the deepest value on
// the way to it that the member or run being decoded has.
func (d *decoder) place(path string) (line, col int) {
	rest, ok := strings.CutPrefix(path, d.base)
	if !ok || d.base == "" || rest != "" && rest[0] != '.' && rest[0] != '[' {
		return 0, 0
	}
	at := d.at
	for _, seg := range strings.Split(strings.TrimPrefix(rest, "."), ".") {
		key, rest, _ := strings.Cut(seg, "[")
		next, ok := at, true
		if key != "" {
			next, ok = at.Member(key)
		}
		for ok && rest != "" {
			var idx string
			idx, rest, _ = strings.Cut(rest, "]")
			rest = strings.TrimPrefix(rest, "[")
			i, err := strconv.Atoi(idx)
			if err != nil {
				ok = false
				break
			}
			next, ok = next.Item(i)
		}
		if !ok {
			break
		}
		at = next
	}
	return at.Pos()
}

func isNull(raw json.RawMessage) bool { return len(raw) == 0 || string(raw) == "null" }

// into decodes raw into dst, saying what was expected where.
func (d *decoder) into(path string, raw json.RawMessage, dst any) error {
	if err := json.Unmarshal(raw, dst); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			p := path
			if te.Field != "" {
				p += "." + te.Field
			}
			return d.fail(p, "expected %s, got JSON %s", kindName(te.Type.Kind().String()), te.Value)
		}
		return d.fail(path, "%v", err)
	}
	return nil
}

func kindName(k string) string {
	switch k {
	case "string":
		return "a string"
	case "int", "int64":
		return "an integer"
	case "float64":
		return "a number"
	case "bool":
		return "a boolean"
	case "slice":
		return "a list"
	case "map":
		return "an object"
	}
	return k
}

// object splits a JSON object into its members, refusing anything else.
func (d *decoder) object(path string, raw json.RawMessage) (map[string]json.RawMessage, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return nil, d.fail(path, "expected an object, got %s", brief(raw))
	}
	return m, nil
}

// brief is a short quote of some JSON, for messages.
func brief(raw json.RawMessage) string {
	s := strings.Join(strings.Fields(string(raw)), " ") // on one line, as an error's text is
	if s == "" {
		return "nothing"
	}
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	return s
}

// need reads a required member into dst.
func (d *decoder) need(path string, m map[string]json.RawMessage, key string, dst any) error {
	raw, ok := m[key]
	if !ok {
		return d.fail(path, "missing %q", key)
	}
	return d.into(path+"."+key, raw, dst)
}

// opt reads an optional member into dst; absent or null leaves dst alone.
func (d *decoder) opt(path string, m map[string]json.RawMessage, key string, dst any) error {
	raw, ok := m[key]
	if !ok || isNull(raw) {
		return nil
	}
	return d.into(path+"."+key, raw, dst)
}

func (d *decoder) info(raw json.RawMessage, out *Info) error {
	m, err := d.object("info", raw)
	if err != nil {
		return err
	}
	if raw, ok := m["audio_native_config"]; ok && !isNull(raw) {
		return d.fail("info.audio_native_config", "%s", fullDuplex)
	}
	for _, f := range []struct {
		key string
		dst any
	}{{"git_commit", &out.GitCommit}, {"num_trials", &out.NumTrials}, {"max_steps", &out.MaxSteps}, {"max_errors", &out.MaxErrors}} {
		if err := d.opt("info", m, f.key, f.dst); err != nil {
			return err
		}
	}
	for _, f := range []struct {
		key, inner string
		dst        *string
	}{{"environment_info", "domain_name", &out.Domain}, {"agent_info", "llm", &out.AgentLLM}, {"user_info", "llm", &out.UserLLM},
		{"agent_info", "implementation", &out.AgentImpl}, {"user_info", "implementation", &out.UserImpl}} {
		raw, ok := m[f.key]
		if !ok || isNull(raw) {
			continue
		}
		sub, err := d.object("info."+f.key, raw)
		if err != nil {
			return err
		}
		if err := d.opt("info."+f.key, sub, f.inner, f.dst); err != nil {
			return err
		}
	}
	return nil
}

func (d *decoder) task(path string, raw json.RawMessage) (*Task, error) {
	m, err := d.object(path, raw)
	if err != nil {
		return nil, err
	}
	t := &Task{Raw: raw}
	if err := d.need(path, m, "id", &t.ID); err != nil {
		return nil, err
	}
	t.Scenario = m["user_scenario"]
	if raw := m["initial_state"]; !isNull(raw) {
		t.InitialState = raw
	}
	raw, ok := m["evaluation_criteria"]
	if !ok || isNull(raw) {
		return t, nil
	}
	path += ".evaluation_criteria"
	cm, err := d.object(path, raw)
	if err != nil {
		return nil, err
	}
	c := &Criteria{}
	var actions []json.RawMessage
	if err := d.opt(path, cm, "actions", &actions); err != nil {
		return nil, err
	}
	c.ActionsNull = isNull(cm["actions"])
	for i, a := range actions {
		act, err := d.action(fmt.Sprintf("%s.actions[%d]", path, i), a)
		if err != nil {
			return nil, err
		}
		c.Actions = append(c.Actions, act)
	}
	if raw := cm["env_assertions"]; !isNull(raw) {
		c.EnvAssertions = raw
	}
	for _, f := range []struct {
		key string
		dst *[]string
	}{{"communicate_info", &c.CommunicateInfo}, {"nl_assertions", &c.NLAssertions}, {"reward_basis", &c.RewardBasis}} {
		if err := d.opt(path, cm, f.key, f.dst); err != nil {
			return nil, err
		}
	}
	for i, b := range c.RewardBasis {
		if !knownBasis(b) {
			return nil, d.fail(fmt.Sprintf("%s.reward_basis[%d]", path, i), "unknown reward type %q (tau2 has DB, ENV_ASSERTION, COMMUNICATE, ACTION, NL_ASSERTION)", b)
		}
	}
	t.Criteria = c
	return t, nil
}

// The reward types of a task's basis.
const (
	BasisDB          = "DB"
	BasisEnv         = "ENV_ASSERTION"
	BasisCommunicate = "COMMUNICATE"
	BasisAction      = "ACTION"
	BasisNL          = "NL_ASSERTION"
)

func knownBasis(b string) bool {
	switch b {
	case BasisDB, BasisEnv, BasisCommunicate, BasisAction, BasisNL:
		return true
	}
	return false
}

func (d *decoder) action(path string, raw json.RawMessage) (Action, error) {
	var a Action
	m, err := d.object(path, raw)
	if err != nil {
		return a, err
	}
	if err := d.need(path, m, "name", &a.Name); err != nil {
		return a, err
	}
	if err := d.opt(path, m, "action_id", &a.ActionID); err != nil {
		return a, err
	}
	a.Requestor = "assistant"
	if err := d.requestor(path, m, &a.Requestor); err != nil {
		return a, err
	}
	if a.Arguments, err = d.arguments(path, m); err != nil {
		return a, err
	}
	if raw := m["compare_args"]; !isNull(raw) {
		a.CompareArgs = []string{}
		if err := d.into(path+".compare_args", raw, &a.CompareArgs); err != nil {
			return a, err
		}
	}
	return a, nil
}

func (d *decoder) requestor(path string, m map[string]json.RawMessage, dst *string) error {
	if err := d.opt(path, m, "requestor", dst); err != nil {
		return err
	}
	if *dst != "assistant" && *dst != "user" {
		return d.fail(path+".requestor", "expected \"assistant\" or \"user\", got %q", *dst)
	}
	return nil
}

// arguments reads a call's arguments: a JSON object (absent or null is
// the empty one, as tau2's model default).
func (d *decoder) arguments(path string, m map[string]json.RawMessage) (json.RawMessage, error) {
	raw, ok := m["arguments"]
	if !ok || isNull(raw) {
		return json.RawMessage("{}"), nil
	}
	if _, err := d.object(path+".arguments", raw); err != nil {
		return nil, err
	}
	return raw, nil
}

func (d *decoder) simulation(i int, raw json.RawMessage) (*Simulation, error) {
	path := fmt.Sprintf("simulations[%d]", i)
	d.simID = ""
	m, err := d.object(path, raw)
	if err != nil {
		return nil, err
	}
	s := &Simulation{Index: i}
	if err := d.need(path, m, "id", &s.ID); err != nil {
		return nil, err
	}
	d.simID = s.ID
	if err := d.need(path, m, "task_id", &s.TaskID); err != nil {
		return nil, err
	}
	if err := d.opt(path, m, "trial", &s.Trial); err != nil {
		return nil, err
	}
	if err := d.need(path, m, "termination_reason", &s.TerminationReason); err != nil {
		return nil, err
	}
	for _, k := range recordedKeys {
		if raw, ok := m[k]; ok {
			if s.Recorded == nil {
				s.Recorded = map[string]json.RawMessage{}
			}
			s.Recorded[k] = raw
		}
	}
	var msgs []json.RawMessage
	if err := d.need(path, m, "messages", &msgs); err != nil {
		return nil, err
	}
	for j, mr := range msgs {
		msg, err := d.message(fmt.Sprintf("%s.messages[%d]", path, j), mr)
		if err != nil {
			return nil, err
		}
		s.Messages = append(s.Messages, msg)
	}
	// tau2's set_state refuses a conversation whose calls and results do
	// not pair by position; so does the decoder, at the message.
	if _, err := Pair(s.Messages); err != nil {
		var pe *PairError
		if errors.As(err, &pe) {
			return nil, d.fail(path+"."+pe.Path(), "%s", pe.Message)
		}
		return nil, err
	}
	if raw := m["reward_info"]; !isNull(raw) {
		if s.RewardInfo, err = d.rewardInfo(path+".reward_info", raw); err != nil {
			return nil, err
		}
	}
	d.simID = ""
	return s, nil
}

func (d *decoder) message(path string, raw json.RawMessage) (Message, error) {
	var msg Message
	m, err := d.object(path, raw)
	if err != nil {
		return msg, err
	}
	if err := d.need(path, m, "role", &msg.Role); err != nil {
		return msg, err
	}
	if err := d.opt(path, m, "content", &msg.Content); err != nil {
		return msg, err
	}
	switch msg.Role {
	case "assistant", "user":
		var calls []json.RawMessage
		if err := d.opt(path, m, "tool_calls", &calls); err != nil {
			return msg, err
		}
		for k, cr := range calls {
			cp := fmt.Sprintf("%s.tool_calls[%d]", path, k)
			cm, err := d.object(cp, cr)
			if err != nil {
				return msg, err
			}
			tc := ToolCall{Requestor: "assistant"}
			if err := d.opt(cp, cm, "id", &tc.ID); err != nil {
				return msg, err
			}
			if err := d.need(cp, cm, "name", &tc.Name); err != nil {
				return msg, err
			}
			if err := d.requestor(cp, cm, &tc.Requestor); err != nil {
				return msg, err
			}
			if tc.Arguments, err = d.arguments(cp, cm); err != nil {
				return msg, err
			}
			msg.ToolCalls = append(msg.ToolCalls, tc)
		}
	case "tool":
		if err := d.need(path, m, "id", &msg.ID); err != nil {
			return msg, err
		}
		if msg.Content == nil {
			return msg, d.fail(path+".content", "a tool message needs its result string")
		}
		msg.Requestor = "assistant"
		if err := d.requestor(path, m, &msg.Requestor); err != nil {
			return msg, err
		}
		if err := d.opt(path, m, "error", &msg.Error); err != nil {
			return msg, err
		}
	default:
		return msg, d.fail(path+".role", "unknown role %q (tau2 has assistant, user, tool)", msg.Role)
	}
	return msg, nil
}

func (d *decoder) rewardInfo(path string, raw json.RawMessage) (*RewardInfo, error) {
	m, err := d.object(path, raw)
	if err != nil {
		return nil, err
	}
	ri := &RewardInfo{}
	if err := d.need(path, m, "reward", &ri.Reward); err != nil {
		return nil, err
	}
	if raw := m["db_check"]; !isNull(raw) {
		dm, err := d.object(path+".db_check", raw)
		if err != nil {
			return nil, err
		}
		ri.DBCheck = &DBCheck{}
		if err := d.need(path+".db_check", dm, "db_match", &ri.DBCheck.DBMatch); err != nil {
			return nil, err
		}
		if err := d.opt(path+".db_check", dm, "db_reward", &ri.DBCheck.DBReward); err != nil {
			return nil, err
		}
	}
	var checks []json.RawMessage
	if err := d.opt(path, m, "action_checks", &checks); err != nil {
		return nil, err
	}
	for i, cr := range checks {
		cp := fmt.Sprintf("%s.action_checks[%d]", path, i)
		cm, err := d.object(cp, cr)
		if err != nil {
			return nil, err
		}
		var ac ActionCheck
		ar, ok := cm["action"]
		if !ok {
			return nil, d.fail(cp, "missing %q", "action")
		}
		if ac.Action, err = d.action(cp+".action", ar); err != nil {
			return nil, err
		}
		if err := d.need(cp, cm, "action_match", &ac.ActionMatch); err != nil {
			return nil, err
		}
		ri.ActionChecks = append(ri.ActionChecks, ac)
	}
	checks = nil
	if err := d.opt(path, m, "communicate_checks", &checks); err != nil {
		return nil, err
	}
	for i, cr := range checks {
		cp := fmt.Sprintf("%s.communicate_checks[%d]", path, i)
		cm, err := d.object(cp, cr)
		if err != nil {
			return nil, err
		}
		var cc CommunicateCheck
		if err := d.need(cp, cm, "info", &cc.Info); err != nil {
			return nil, err
		}
		if err := d.need(cp, cm, "met", &cc.Met); err != nil {
			return nil, err
		}
		ri.CommunicateChecks = append(ri.CommunicateChecks, cc)
	}
	checks = nil
	if err := d.opt(path, m, "env_assertions", &checks); err != nil {
		return nil, err
	}
	for i, cr := range checks {
		cp := fmt.Sprintf("%s.env_assertions[%d]", path, i)
		cm, err := d.object(cp, cr)
		if err != nil {
			return nil, err
		}
		var ec EnvAssertionCheck
		if err := d.need(cp, cm, "met", &ec.Met); err != nil {
			return nil, err
		}
		ri.EnvAssertions = append(ri.EnvAssertions, ec)
	}
	if err := d.opt(path, m, "reward_basis", &ri.RewardBasis); err != nil {
		return nil, err
	}
	if err := d.opt(path, m, "reward_breakdown", &ri.RewardBreakdown); err != nil {
		return nil, err
	}
	return ri, nil
}
