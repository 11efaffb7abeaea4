package pbcste

import (
	"slices"

	"github.com/parthack/parthack/model"
)

// EndDelta is one cell whose value at termination differs between two
// runs of a task: a witness's collateral, what it leaves changed that H
// does not (a second refund, a bag charge never refunded), or the other
// way round. Field is model.AliveField for the entity's existence.
type EndDelta struct {
	Type  string      `json:"type"`
	ID    string      `json:"id"`
	Field string      `json:"field"`
	H     model.Value `json:"h"` // null where the entity is missing or deleted
	A     model.Value `json:"a"`
	// Goal lists the active goal's predicates (from 1) whose footprint
	// reads the cell; empty for a cell no goal predicate reads.
	Goal []int `json:"goal,omitempty"`
}

// Collateral compares where two runs of one environment end: whether
// their final states are equal, and each cell that differs, in the order
// the runs first wrote them (h's, then a's). Both start from the task's
// initial snapshot, so only a cell one of them wrote can differ; the cost
// is the runs' diffs, not the state's size.
func Collateral(h, a *Log) (same bool, deltas []EndDelta) {
	if h.final.sum == a.final.sum {
		return true, nil
	}
	type key struct{ typ, id, field string }
	seen := map[key]int{} // → 1 + index in deltas, or 0 while unseen
	for _, l := range []*Log{h, a} {
		goal := l.Env.goals[l.final.goal]
		for i := range l.Events {
			ev := &l.Events[i]
			diff := l.Diff(ev)
			typed := appendTypedDiff(nil, l.final, diff)
			for j := range typed {
				c := &typed[j]
				if c.Field == model.GoalField {
					continue
				}
				k := key{c.Type, c.ID, c.Field}
				at, ok := seen[k]
				if !ok {
					d, differs := endDelta(h.final, a.final, c.Type, c.ID, c.Field)
					if !differs {
						seen[k] = -1
						continue
					}
					deltas = append(deltas, d)
					at = len(deltas)
					seen[k] = at
				}
				if at < 0 {
					continue
				}
				d := &deltas[at-1]
				row := l.maskRow(l.final, diff[j].Slot)
				for p := range goal.Preds {
					if pr := goal.Preds[p]; row[pr.all]&bit(int(diff[j].Field)) != 0 && !slices.Contains(d.Goal, p+1) {
						d.Goal = append(d.Goal, p+1)
					}
				}
			}
		}
	}
	for i := range deltas {
		slices.Sort(deltas[i].Goal)
	}
	return false, deltas
}

// endDelta reads one cell in both final states.
func endDelta(h, a *State, typ, id, field string) (EndDelta, bool) {
	d := EndDelta{Type: typ, ID: id, Field: field, H: model.Null, A: model.Null}
	hv, av := view{h}, view{a}
	if field == model.AliveField {
		ha, aa := hv.Alive(typ, id), av.Alive(typ, id)
		d.H, d.A = model.Bool(ha), model.Bool(aa)
		return d, ha != aa
	}
	if !hv.Alive(typ, id) || !av.Alive(typ, id) {
		return d, false // the entity's existence differs: its alive cell says so
	}
	d.H, _ = hv.Field(typ, id, field)
	d.A, _ = av.Field(typ, id, field)
	return d, !d.H.Equal(d.A)
}

// NetChanges are the cells whose value at the end of the log differs
// from the initial one, in the order they were first changed, each with
// its initial value and its last: what a benchmark's gold run did, as a
// goal to derive predicates from.
func (l *Log) NetChanges() []model.CellDiff {
	type key struct{ typ, id, field string }
	first := map[key]int{}
	var cells []model.CellDiff
	for i := range l.Events {
		for _, c := range l.TypedDiff(&l.Events[i]) {
			k := key{c.Type, c.ID, c.Field}
			if j, ok := first[k]; ok {
				cells[j].After = c.After
				continue
			}
			first[k] = len(cells)
			cells = append(cells, c)
		}
	}
	return slices.DeleteFunc(cells, func(c model.CellDiff) bool { return c.Before.Equal(c.After) })
}
