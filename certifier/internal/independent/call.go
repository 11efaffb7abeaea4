package independent

import (
	"strconv"

	"github.com/parthack/parthack/model"
)

// worldView is the read-only view a domain's tools get of a world.
type worldView struct{ w *world }

func (v worldView) Alive(typ, id string) bool { return v.w.isAlive(typ, id) }

func (v worldView) Field(typ, id, field string) (model.Value, bool) {
	e := v.w.find(typ, id)
	if e == nil || !e.alive {
		return model.Null, false
	}
	return e.value(v.w.sc.fieldOf(e.typ, field)), true
}

// Fields reads every field of an alive entity (model.RecordView): a
// copy of its values, which the world keeps.
func (v worldView) Fields(typ, id string) ([]model.Value, bool) {
	e := v.w.find(typ, id)
	if e == nil || !e.alive {
		return nil, false
	}
	return append([]model.Value(nil), e.fields...), true
}

// FieldsAlias is Fields appended to dst (model.AliasView): the world's
// values are strings it never changes, so only the slice is new.
func (v worldView) FieldsAlias(dst []model.Value, typ, id string) ([]model.Value, bool) {
	e := v.w.find(typ, id)
	if e == nil || !e.alive {
		return dst, false
	}
	return append(dst, e.fields...), true
}

// tool asks the task's domain what a call writes; a failure is the
// tool's own error text.
func (w *world) tool(a *model.Action, actor model.Actor) ([]model.Action, refusal) {
	if w.task.Domain == nil {
		return nil, refuse("call %s: the task has no domain", a.Tool)
	}
	var writes []model.Action
	var failure string
	if au, ok := w.task.Domain.(model.Authoring); ok {
		writes, _, failure = au.CallAs(worldView{w}, actor, a.Tool, a.Args)
	} else {
		writes, _, failure = w.task.Domain.Call(worldView{w}, a.Tool, a.Args)
	}
	if failure != "" {
		return nil, refuse("%s", failure)
	}
	return writes, refusal{}
}

// saved is an entity as it was before a tool call's writes.
type saved struct {
	typ    int
	id     string
	own    *entity // the entity this world had written there, nil when none
	alive  bool
	fields []model.Value
}

// applyAll applies a tool's primitive writes in order, all or none: if
// one is refused, the entities the call wrote and the goal go back to
// how they were before the first, and diff to its length before.
func (w *world) applyAll(tool string, writes []model.Action, diff *[]model.CellDiff) refusal {
	undo := w.save(writes)
	goal, n := w.goal, 0
	if diff != nil {
		n = len(*diff)
	}
	for i := range writes {
		if why := w.apply(&writes[i], diff); why.failed() {
			w.restore(undo)
			w.goal = goal
			if diff != nil {
				*diff = (*diff)[:n]
			}
			return refuse("%s: write %s refused: %s", tool, strconv.Itoa(i+1), why.String())
		}
	}
	return refusal{}
}

// save keeps, for each entity the writes name, what undoing them needs.
// An entity this world has not written needs nothing kept: undo takes
// the world's copy out again, and the snapshot's shows through.
func (w *world) save(writes []model.Action) []saved {
	var out []saved
	for i := range writes {
		t := w.sc.typeOf(writes[i].Type)
		if t < 0 || writes[i].Op == model.OpReviseGoal {
			continue
		}
		s := saved{typ: t, id: writes[i].ID, own: w.ents[t][writes[i].ID]}
		if s.own != nil {
			s.alive, s.fields = s.own.alive, append([]model.Value(nil), s.own.fields...)
		}
		out = append(out, s)
	}
	return out
}

// restore undoes the writes of a refused call. Every entry was saved
// before the first write, so an entity written twice is saved twice alike.
func (w *world) restore(undo []saved) {
	w.last = nil
	for i := range undo {
		s := &undo[i]
		if s.own == nil {
			delete(w.ents[s.typ], s.id)
			continue
		}
		s.own.alive = s.alive
		copy(s.own.fields, s.fields)
	}
}
