package bfcl

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/parthack/parthack/domains/bfcl/classes"
	"github.com/parthack/parthack/domains/bfcl/pyval"
	"github.com/parthack/parthack/model"
)

// UserTurn is the user's step that starts a turn: BFCL's next fixed user
// message (the question's turn), which revises the goal to that turn's.
// It is the user's, never a tool of the agent's: an agent's call of the
// name fails as BFCL fails a name no class has.
const UserTurn = "user_turn"

// World is an entry's involved classes as a PB-CSTE domain: BFCL's
// executor over typed cells. An instance is one entity (its type and id
// are the class's name), each attribute one cell holding the attribute as
// pyval.Marshal encodes it, so that a call reads back exactly the Python
// value it left (int or float, a dict's order and key types). Cells are
// equal when their texts are: stricter than Python's == (1 and 1.0 are
// two values), which BFCL's own state check (the checker's port) applies.
type World struct {
	// session is the entry's instances as BFCL loads them: each call runs
	// on a copy of it whose attributes are read from the state's cells.
	session *classes.Session
	// attrs names each stateful class's attributes in the order its
	// _load_scenario leaves them: the entity's fields.
	attrs map[string][]string
	// owner maps a method name to the class BFCL's executor runs it on.
	owner map[string]*classes.Class
	// offered holds, for a function miss_func withholds, the turn from
	// which it is offered to the model.
	offered map[string]int
	// read holds attributes already decoded, by their cell's text: a
	// call takes a deep copy (cheaper than decoding again, and the call
	// may change it in place). At most maxRead are kept.
	read     sync.Map // string → pyval.Value
	readSize atomic.Int64
}

// maxRead bounds the decoded attributes a world keeps.
const maxRead = 4096

// executorModel is the model name the world's instances are named after
// in the call text BFCL evaluates (InstanceName); no result shows it.
const executorModel = "parthack"

// errorPrefix starts the result BFCL's executor writes for a call that
// raised.
const errorPrefix = "Error during execution: "

// NewWorld is the world of an entry's involved classes, with the entity of
// each stateful one loaded from initial_config as BFCL loads it, and the
// entity schema they make.
func NewWorld(entryID string, involved []string, config *pyval.Dict) (*World, model.Schema, []model.Entity, error) {
	var schema model.Schema
	s, err := classes.NewSession(config, involved, executorModel, entryID)
	if err != nil {
		return nil, schema, nil, err
	}
	w := &World{session: s, attrs: map[string][]string{}, owner: map[string]*classes.Class{}}
	var initial []model.Entity
	for _, in := range s.Instances {
		c := in.Class
		for m := range c.Methods {
			w.owner[m] = c
		}
		if c.Stateless {
			continue
		}
		et := model.EntityType{Name: c.Name}
		e := model.Entity{Type: c.Name, ID: c.Name}
		for _, a := range in.Attrs {
			w.attrs[c.Name] = append(w.attrs[c.Name], a.Name)
			et.Fields = append(et.Fields, model.FieldDef{Name: a.Name, Kind: model.KindString})
			v, err := cell(a.Value)
			if err != nil {
				return nil, schema, nil, fmt.Errorf("%s.%s: %w", c.Name, a.Name, err)
			}
			e.Fields = append(e.Fields, model.Assign{Field: a.Name, Value: v})
		}
		schema.Types = append(schema.Types, et)
		initial = append(initial, e)
	}
	return w, schema, initial, nil
}

// cell is the cell value of an attribute.
func cell(v pyval.Value) (model.Value, error) {
	b, err := pyval.Marshal(v)
	if err != nil {
		return model.Null, err
	}
	return model.Str(string(b)), nil
}

// Value reads an attribute back from its cell.
func Value(v model.Value) (pyval.Value, error) { return pyval.Unmarshal([]byte(v.AsString())) }

// value reads an attribute back from its cell, a copy of its own.
func (w *World) value(f model.Value) (pyval.Value, error) {
	if x, ok := w.read.Load(f.AsString()); ok {
		return pyval.DeepCopy(x), nil
	}
	x, err := Value(f)
	if err != nil {
		return nil, err
	}
	if w.readSize.Load() < maxRead {
		w.readSize.Add(1)
		w.read.Store(f.AsString(), pyval.DeepCopy(x))
	}
	return x, nil
}

// Name is the domain's id.
func (w *World) Name() string { return DomainName }

// EndsEpisode: no call ends a BFCL entry. A turn ends when the model
// answers without a call, the entry when its last turn does (or BFCL
// force-quits it past 20 steps of one turn).
func (w *World) EndsEpisode(string) bool { return false }

// OpenTools: BFCL evaluates whatever name the model calls.
func (w *World) OpenTools() bool { return true }

// Authors: the user, whose fixed messages start the turns.
func (w *World) Authors() []model.Actor { return []model.Actor{model.ActorUser} }

// Call is the agent's call.
func (w *World) Call(v model.StateView, tool string, args model.Value) ([]model.Action, string, string) {
	return w.CallAs(v, model.ActorAgent, tool, args)
}

// CallAs runs a call as BFCL's executor runs a decoded call string
// (CallString): on the instances as the state holds them, its result as
// BFCL writes it. A call that answers "Error during execution: …" and
// changed nothing is a failed call with that text; a Python exception
// raised after part of the state changed keeps those changes, as Python
// does, and answers the same text. The user's step is the next turn's
// message.
func (w *World) CallAs(v model.StateView, actor model.Actor, tool string, args model.Value) ([]model.Action, string, string) {
	if actor == model.ActorUser {
		return w.userTurn(tool, args)
	}
	s := w.session.Clone()
	before := map[string][]string{}
	for _, in := range s.Instances {
		c := in.Class
		if c.Stateless {
			continue
		}
		in.Attrs = in.Attrs[:0]
		for _, name := range w.attrs[c.Name] {
			f, _ := v.Field(c.Name, c.Name, name)
			x, err := w.value(f)
			if err != nil {
				return nil, "", fmt.Sprintf("%s.%s: cell unreadable: %v", c.Name, name, err)
			}
			in.Attrs = append(in.Attrs, classes.Attr{Name: name, Value: x})
			before[c.Name] = append(before[c.Name], f.AsString())
		}
	}
	res := s.Execute([]string{CallString(tool, args.AppendJSON(nil))})[0]
	var writes []model.Action
	for _, in := range s.Instances {
		c := in.Class
		if c.Stateless {
			continue
		}
		if len(in.Attrs) != len(before[c.Name]) {
			return nil, "", fmt.Sprintf("%s: the call set an attribute the class did not have after _load_scenario", c.Name)
		}
		var fields []model.Assign
		for i, a := range in.Attrs {
			nv, err := cell(a.Value)
			if err != nil {
				return nil, "", fmt.Sprintf("%s.%s: %v", c.Name, a.Name, err)
			}
			if nv.AsString() != before[c.Name][i] {
				fields = append(fields, model.Assign{Field: a.Name, Value: nv})
			}
		}
		if len(fields) > 0 {
			writes = append(writes, model.Action{Op: model.OpUpdate, Type: c.Name, ID: c.Name, Fields: fields})
		}
	}
	if len(writes) == 0 && strings.HasPrefix(res, errorPrefix) {
		return nil, "", res
	}
	return writes, res, ""
}

// userTurn is the user's message that starts turn args.turn.
func (w *World) userTurn(tool string, args model.Value) ([]model.Action, string, string) {
	if tool != UserTurn {
		return nil, "", fmt.Sprintf("the user sends the next turn's message (%s), never calls %s", UserTurn, tool)
	}
	turn, ok := turnArg(args)
	if !ok {
		return nil, "", fmt.Sprintf(`%s takes {"turn": N}, N the turn's index from 0`, UserTurn)
	}
	return []model.Action{{Op: model.OpReviseGoal, Goal: GoalVersion(turn)}}, "", ""
}

// turnArg reads {"turn": N}.
func turnArg(args model.Value) (int, bool) {
	ms, _ := model.Members(args)
	if len(ms) != 1 || ms[0].Field != "turn" || ms[0].Value.Kind() != model.IntValue || ms[0].Value.AsInt() < 0 {
		return 0, false
	}
	return int(ms[0].Value.AsInt()), true
}

// GoalVersion names the goal of turn i (BFCL's turn index, from 0).
func GoalVersion(turn int) string { return "turn-" + strconv.Itoa(turn) }
