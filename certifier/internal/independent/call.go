package independent

import (
	"fmt"

	"github.com/parthack/parthack/model"
)

// worldView is the read-only view a domain's tools get of a world.
type worldView struct{ w *world }

func (v worldView) Alive(typ, id string) bool { return v.w.isAlive(typ, id) }

func (v worldView) Field(typ, id, field string) (model.Value, bool) {
	e := v.w.get(typ, id)
	if e == nil || !e.alive {
		return model.Null, false
	}
	return e.fields[field], true
}

// tool asks the task's domain what a call writes; failure is the tool's
// own error text.
func (w *world) tool(a *model.Action) (writes []model.Action, failure string) {
	if w.task.Domain == nil {
		return nil, fmt.Sprintf("call %s: the task has no domain", a.Tool)
	}
	writes, _, failure = w.task.Domain.Call(worldView{w}, a.Tool, a.Args)
	return writes, failure
}

// call carries out a tool call: its writes in order, all or none.
func (w *world) call(a *model.Action) ([]model.CellDiff, string) {
	writes, failure := w.tool(a)
	if failure != "" {
		return nil, failure
	}
	return w.applyAll(a.Tool, writes)
}

// applyAll applies primitive writes in order; if one is refused, the
// world goes back to how it was before the first.
func (w *world) applyAll(tool string, writes []model.Action) ([]model.CellDiff, string) {
	type saved struct {
		typ, id string
		prev    *entity // the written entity before, nil when it was not
	}
	var undo []saved
	sum := w.sum
	var diff []model.CellDiff
	w.inCall = true
	defer func() { w.inCall = false }()
	for i := range writes {
		wr := &writes[i]
		undo = append(undo, saved{wr.Type, wr.ID, w.ents[wr.Type][wr.ID]})
		d, why := w.apply(wr)
		if why != "" {
			for j := len(undo) - 1; j >= 0; j-- {
				u := undo[j]
				if u.prev == nil {
					delete(w.ents[u.typ], u.id)
				} else {
					w.ents[u.typ][u.id] = u.prev
				}
			}
			w.sum = sum
			return nil, fmt.Sprintf("%s: write %d refused: %s", tool, i+1, why)
		}
		diff = append(diff, d...)
	}
	return diff, ""
}
