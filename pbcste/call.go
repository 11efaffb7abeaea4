package pbcste

import (
	"fmt"

	"github.com/parthack/parthack/model"
)

// view is the read-only StateView a domain's tools get of a state.
type view struct{ s *State }

func (v view) Alive(typ, id string) bool {
	ti, ok := v.s.env.typeIndex(typ)
	if !ok {
		return false
	}
	slot, ok := v.s.lookup(ti, id)
	return ok && v.s.rec(slot).alive()
}

func (v view) Field(typ, id, field string) (model.Value, bool) {
	ti, ok := v.s.env.typeIndex(typ)
	if !ok {
		return model.Null, false
	}
	fi, ok := v.s.env.types[ti].fieldIndex(field)
	if !ok {
		return model.Null, false
	}
	slot, ok := v.s.lookup(ti, id)
	if !ok || !v.s.rec(slot).alive() {
		return model.Null, false
	}
	return v.s.field(slot, fi, false), true
}

// Fields reads every field of an alive entity, decoded in one pass over
// its record (model.RecordView).
func (v view) Fields(typ, id string) ([]model.Value, bool) {
	ti, ok := v.s.env.typeIndex(typ)
	if !ok {
		return nil, false
	}
	slot, ok := v.s.lookup(ti, id)
	if !ok || !v.s.rec(slot).alive() {
		return nil, false
	}
	return v.s.fields(slot), true
}

// FieldsAlias is Fields appended to dst, its strings sharing the record's
// bytes (model.AliasView): a state writes a record's bytes in place, so
// they hold only until the state is next written.
func (v view) FieldsAlias(dst []model.Value, typ, id string) ([]model.Value, bool) {
	ti, ok := v.s.env.typeIndex(typ)
	if !ok {
		return dst, false
	}
	slot, ok := v.s.lookup(ti, id)
	if !ok || !v.s.rec(slot).alive() {
		return dst, false
	}
	return v.s.appendFields(dst, slot, true), true
}

// View is read-only access to the state, as a domain's tools have it.
func (s *State) View() model.StateView { return view{s} }

// call runs a domain tool for a step of actor. An agent's call of a tool
// the allowlist refuses is illegal; a tool that fails changes nothing; a tool that succeeds has its writes
// applied as one event, whose diff is theirs in order. A write the
// environment refuses is the domain's bug: the event fails and every
// write before it is undone.
func (s *State) call(a *model.Action, diff []Change, actor model.Actor) (out []Change, output, reason string, illegal bool) {
	env := s.env
	agent := actor == model.ActorAgent
	switch {
	case env.Task.Domain == nil:
		return diff, "", fmt.Sprintf("task %s has no tools: call needs a domain task", env.Task.ID), agent
	case agent && !model.MayCall(env.Task, a.Tool):
		return diff, "", fmt.Sprintf("tool %q is not allowlisted for task %s", a.Tool, env.Task.ID), true
	}
	var writes []model.Action
	var failure string
	if au, ok := env.Task.Domain.(model.Authoring); ok {
		// The benchmark tells its actors' tools apart: a user's call of
		// the agent's tool fails as it fails there.
		writes, output, failure = au.CallAs(view{s}, actor, a.Tool, a.Args)
	} else {
		writes, output, failure = env.Task.Domain.Call(view{s}, a.Tool, a.Args)
	}
	if failure != "" {
		return diff, output, failure, false
	}
	n := len(diff)
	for i := range writes {
		var why string
		diff, why, _ = s.apply(&writes[i], diff, false)
		if why != "" {
			s.undo(diff[n:])
			return diff[:n], output, fmt.Sprintf("tool %s: write %d (%s %s %s) refused: %s", a.Tool, i+1, writes[i].Op, writes[i].Type, writes[i].ID, why), false
		}
	}
	return diff, output, "", false
}

// undo reverts changes just applied, last first.
func (s *State) undo(changes []Change) {
	for i := len(changes) - 1; i >= 0; i-- {
		c := &changes[i]
		r := s.mut(c.Slot)
		switch {
		case c.Field != aliveField:
			r = s.setField(c.Slot, r, int(c.Field), c.Before)
		case c.Before.IsNull(): // a first creation: the slot goes back to not existing
			r.setFlag(flagExists, false)
			s.setAlive(r, false)
		default:
			s.setAlive(r, c.Before.AsBool())
		}
		s.rehash(r)
		s.recount(c.Slot, ^uint64(0))
	}
}

// View is read-only access to the run's current state.
func (r *Run) View() model.StateView { return view{r.state} }

// View is read-only access to the state at termination.
func (l *Log) View() model.StateView { return view{l.final} }
