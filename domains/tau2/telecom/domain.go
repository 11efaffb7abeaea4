// Package telecom is tau2-bench's telecom domain as a PB-CSTE domain
// (github.com/sierra-research/tau2-bench, MIT, data and tools of commit
// a2c0247): two databases on one world — the agent's books (customers,
// lines, plans, bills, devices; db.toml) and the user's phone and
// surroundings (user_db.toml) — as typed entities; the agent's 13 tools
// and the user's 30 phone tools ported with tau2's argument checks,
// result strings and error texts; the environment's sync_tools after
// every call; the task set-up functions (initialization_actions) and
// the env assertions, both as domain functions and, where the DSL
// reaches, as goal predicates; tau2's DB hash of both sides; and
// no-user ("solo") mode, where the agent holds both tool sets.
//
// A call has an actor: tau2's requestor, the assistant (parthack's
// agent) or the user. See actors.go for how a user's call is an event of
// actor user in a trajectory.
package telecom

import (
	"fmt"
	"sync"

	"github.com/parthack/parthack/domains/tau2"
	"github.com/parthack/parthack/model"
)

// DomainName is the domain's id in task files, ledgers and the CLI.
const DomainName = "tau2-telecom"

// Domain is tau2's telecom tools over a PB-CSTE state. Solo is tau2's
// no-user mode: the agent holds the user's tools too, and the user calls
// none.
type Domain struct {
	tau2.Orchestrator // tau2's turns and limits: the witness rule
	db                *DB
	Solo              bool

	phone      sync.Once // phoneSteps are made once
	phoneSteps []model.Step
}

// NewDomain is the telecom domain over loaded databases.
func NewDomain(db *DB, solo bool) *Domain { return &Domain{db: db, Solo: solo} }

// Name is the domain's id.
func (d *Domain) Name() string { return DomainName }

// Prefix starts the ids of telecom tasks: T2T-<tau2 id>.
func (d *Domain) Prefix() string {
	if d.Solo {
		// A no-user task gives the agent both tool sets: another task
		// than the same tau2 task with a user, so another id.
		return "T2T-solo"
	}
	return "T2T"
}

// EndsEpisode is tau2's episode rule: no call ends an episode.
func (d *Domain) EndsEpisode(tool string) bool { return tau2.EndsEpisode(tool) }

// AgentTools are the tools the agent may call: its own, and in solo mode
// the user's too.
func (d *Domain) AgentTools() []string {
	out := ToolNames(Assistant)
	if d.Solo {
		out = append(out, ToolNames(User)...)
	}
	return out
}

// Base is the telecom world as a task with no goal: both databases as
// shipped, before any task's set-up.
func (d *Domain) Base() *model.Task {
	return d.task("TAU2-TELECOM", "tau2-bench telecom", d.db.start.entities())
}

func (d *Domain) task(id, title string, initial []model.Entity) *model.Task {
	return &model.Task{
		ID:        id,
		Title:     title,
		Schema:    schema,
		Initial:   initial,
		Allowlist: model.Allowlist{Ops: []model.Op{model.OpCall}, Tools: d.AgentTools(), Fields: map[string][]string{}},
		Goals:     []model.GoalVersion{{Version: "v1"}},
		Domain:    d,
	}
}

// Tool reports whether a requestor has the tool in this mode, and
// whether tau2 counts it as mutating state.
func (d *Domain) Tool(requestor, name string) (known, mutates bool) {
	f, ok := funcs[name]
	if !ok || !f.tool {
		return false, false
	}
	switch {
	case requestor == Assistant && (f.side == Assistant || d.Solo):
	case requestor == User && f.side == User && !d.Solo:
	default:
		return false, false
	}
	return true, f.write
}

// Side is the toolkit a tool or function belongs to (Assistant or
// User), "" when telecom has none of that name.
func Side(name string) string {
	if f, ok := funcs[name]; ok {
		return f.side
	}
	return ""
}

// Call runs one tool for the requestor whose tool it is: tau2's tool
// names do not overlap between the sides, so the tool tells the side.
// In solo mode every call is the assistant's. CallBy is the call with
// its requestor said (CallBy).
func (d *Domain) Call(v model.StateView, tool string, args model.Value) ([]model.Action, string, string) {
	requestor := Assistant
	if !d.Solo && Side(tool) == User {
		requestor = User
	}
	return d.CallBy(v, requestor, tool, args)
}

// Authors are the actors besides the agent who call tools in a run: the
// user, on their phone; none in solo mode, where the agent holds both
// tool sets.
func (d *Domain) Authors() []model.Actor {
	if d.Solo {
		return nil
	}
	return []model.Actor{model.ActorUser}
}

// Side puts the phone's records (the device, its APN, VPN and apps, the
// surroundings and a pending payment request: tau2's user database) on a
// side of their own: the user's phone, or in solo mode, where there is
// no user and the agent calls the phone's tools, the phone.
func (d *Domain) Side(entityType string) string {
	switch entityType {
	case TypePhone, TypeAPN, TypeVPN, TypeApp, TypeSurroundings, TypePayment:
		if d.Solo {
			return "the phone (no user: the agent's)"
		}
		return "the user's phone"
	}
	return ""
}

// CallAs is CallBy for an actor: the agent is tau2's assistant, the user
// its user.
func (d *Domain) CallAs(v model.StateView, actor model.Actor, tool string, args model.Value) ([]model.Action, string, string) {
	requestor := Assistant
	if actor == model.ActorUser {
		requestor = User
	}
	return d.CallBy(v, requestor, tool, args)
}

// CallBy runs a tool call as tau2's environment answers it
// (get_response): the requestor's toolkit runs the tool, sync_tools
// follows, the tool's return value becomes the result string, and an
// exception becomes "Error: <its message>" with nothing changed.
func (d *Domain) CallBy(v model.StateView, requestor, tool string, args model.Value) ([]model.Action, string, string) {
	w, err := readWorld(v, d.db.apps)
	if err != nil {
		msg := "Error: " + err.Error()
		return nil, msg, msg
	}
	out, f := d.respond(w, requestor, tool, args, true)
	if w.err != nil {
		msg := "Error: " + w.err.Error()
		return nil, msg, msg
	}
	if f != "" {
		msg := "Error: " + string(f)
		return nil, msg, msg
	}
	return w.writesFrom(v), out, ""
}

// respond is make_tool_call, then sync_tools when sync, on a world.
func (d *Domain) respond(w *world, requestor, tool string, args model.Value, sync bool) (string, failure) {
	f, ok := funcs[tool]
	switch {
	case requestor == User && d.Solo:
		return "", "User tool calls are not allowed in solo mode"
	case !ok || !f.tool:
		return "", failure(fmt.Sprintf("Tool '%s' not found.", tool))
	case requestor == User && f.side != User:
		return "", failure(fmt.Sprintf("Tool '%s' not found.", tool))
	case requestor == Assistant && f.side == User && !d.Solo:
		return "", failure(fmt.Sprintf("Tool '%s' not found.", tool))
	}
	x, err := tau2.ParsePy(args.AppendJSON(nil))
	obj, isObj := x.(tau2.Obj)
	if err != nil || !isObj {
		return "", "arguments are not a JSON object"
	}
	if fl := checkArgs(tool, f, obj); fl != "" {
		return "", fl
	}
	out, fl := f.run(&call{w: w, args: obj})
	if fl != "" {
		return "", fl
	}
	if sync {
		if fl := w.sync(); fl != "" {
			return "", fl
		}
	}
	return out, ""
}

// EnvCall is one of a task's env function calls (an initialization
// action or an env assertion): the side's function and its arguments.
type EnvCall struct {
	EnvType  string // assistant or user
	FuncName string
	Args     tau2.Obj
}

// runEnv is run_env_function_call: the side's function (a tool or not),
// then sync_tools. A failure is tau2's exception, which stops a task's
// set-up.
func runEnv(w *world, ec EnvCall) (any, failure) {
	f, ok := funcs[ec.FuncName]
	if !ok || f.side != ec.EnvType {
		return nil, failure(fmt.Sprintf("Function %s not found in %s tools", ec.FuncName, ec.EnvType))
	}
	if fl := checkArgs(ec.FuncName, f, ec.Args); fl != "" {
		return nil, fl
	}
	c := &call{w: w, args: ec.Args}
	var (
		res any
		fl  failure
	)
	if f.tool {
		res, fl = f.run(c)
	} else {
		res, fl = f.env(c)
	}
	if fl != "" {
		return nil, fl
	}
	if fl := w.sync(); fl != "" {
		return nil, fl
	}
	return res, ""
}

// Hash is tau2's DB hash of both sides of a state, "agent/user" (see
// Hashes); changed is not needed, the databases being small.
func (d *Domain) Hash(v model.StateView, _ []model.CellDiff) string {
	w, err := readFull(v, d.db.apps)
	if err != nil {
		return "unreadable state: " + err.Error()
	}
	return w.hashes().String()
}

// StateHashes are tau2's DB hashes of a state's two databases.
func (d *Domain) StateHashes(v model.StateView) (Hashes, error) {
	w, err := readFull(v, d.db.apps)
	if err != nil {
		return Hashes{}, err
	}
	return w.hashes(), nil
}

var _ tau2.World = (*Domain)(nil)
