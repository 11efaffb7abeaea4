package independent

import "github.com/parthack/parthack/model"

// view is part of one predicate's read view: cells it reads of one
// entity, or of every entity of a type.
type view struct {
	pred   int  // the predicate, by its position among the tracked ones
	any    bool // every entity of the type, whatever its id
	id     string
	alive  bool  // the alive flag
	fields []int // fields by schema position
}

// reads lists the views of x by entity type, for predicate pred. A field
// comparison reads its entity's alive flag and field; alive and absent
// the flag; a ref the referring entity's flag and field and its target's
// flag (every entity of the target type when no target id is named,
// since which one is read depends on the state); a count, for every
// entity of its type, the flag and the fields of the filter. Names the
// schema lacks read nothing that could change.
func reads(sc *schema, x *model.Expr, pred int, byType [][]view) {
	switch x.Kind {
	case model.ExprAll, model.ExprAny, model.ExprNot:
		for i := range x.Args {
			reads(sc, &x.Args[i], pred, byType)
		}
		return
	}
	t := sc.typeOf(x.Type)
	if t < 0 {
		return
	}
	switch x.Kind {
	case model.ExprAlive, model.ExprAbsent:
		byType[t] = append(byType[t], view{pred: pred, id: x.ID, alive: true})
	case model.ExprField, model.ExprRef:
		v := view{pred: pred, id: x.ID, alive: true}
		if f := sc.fieldOf(t, x.Field); f >= 0 {
			v.fields = []int{f}
		}
		byType[t] = append(byType[t], v)
		if tt := sc.typeOf(refTarget(sc, x)); x.Kind == model.ExprRef && tt >= 0 {
			byType[tt] = append(byType[tt], view{pred: pred, any: x.Target == "", id: x.Target, alive: true})
		}
	case model.ExprCount:
		v := view{pred: pred, any: true, alive: true}
		for _, c := range x.Where {
			if f := sc.fieldOf(t, c.Field); f >= 0 {
				v.fields = append(v.fields, f)
			}
		}
		byType[t] = append(byType[t], v)
	}
}

// sees reports whether the view covers entity id of its type.
func (v *view) sees(id string) bool { return v.any || v.id == id }

// tracker finds the latest cause of every predicate of every goal
// version in the replay that certifies, since which version is active at
// the end is known only then. Before each event it reads, for each
// entity the event will write, the cells each predicate's view has
// there; after a successful event it reads them again, and a predicate
// whose cells changed has this event as its latest cause. An event
// writes the cells of the entities it names only, so the view can change
// only there: comparing those cells, before and after, compares the
// whole view.
type tracker struct {
	byType [][]view
	causes []model.Cause
	first  []int // per goal version, the position of its first predicate
	held   []heldEntity
	vals   []model.Value // the cells read before the event, in view order
}

// heldEntity is an entity read before the event: its cells start at off.
type heldEntity struct {
	typ int
	id  string
	off int
}

func newTracker(task *model.Task, sc *schema) *tracker {
	tr := &tracker{byType: make([][]view, len(sc.types))}
	for _, g := range task.Goals {
		tr.first = append(tr.first, len(tr.causes))
		for i := range g.Predicates {
			reads(sc, &g.Predicates[i].Expr, len(tr.causes), tr.byType)
			tr.causes = append(tr.causes, model.Cause{Actor: model.ActorInitial, Seq: -1})
		}
	}
	return tr
}

// beforeWrite reads, ahead of a primitive write, the viewed cells of the
// entity it names. A goal revision names none, and no predicate reads
// the goal.
func (tr *tracker) beforeWrite(w *world, a *model.Action) {
	if a.Op == model.OpReviseGoal {
		return
	}
	if t := w.sc.typeOf(a.Type); t >= 0 {
		tr.before(w, t, a.ID)
	}
}

// before reads the viewed cells of entity (t, id) ahead of an event that
// writes it. Reading an entity twice is harmless: both reads hold its
// cells before the event.
func (tr *tracker) before(w *world, t int, id string) {
	e := w.get(t, id)
	tr.held = append(tr.held, heldEntity{typ: t, id: id, off: len(tr.vals)})
	for i := range tr.byType[t] {
		v := &tr.byType[t][i]
		if !v.sees(id) {
			continue
		}
		if v.alive {
			tr.vals = append(tr.vals, aliveOf(e))
		}
		for _, f := range v.fields {
			tr.vals = append(tr.vals, cellOf(e, f))
		}
	}
}

// after compares the cells read before the event with the world after
// it and makes the event the latest cause of every predicate whose cells
// changed. A failed event calls forget instead: it changed nothing.
func (tr *tracker) after(w *world, cause model.Cause) {
	for _, h := range tr.held {
		e, k := w.get(h.typ, h.id), h.off
		for i := range tr.byType[h.typ] {
			v := &tr.byType[h.typ][i]
			if !v.sees(h.id) {
				continue
			}
			changed := false
			if v.alive {
				changed = !tr.vals[k].Equal(aliveOf(e))
				k++
			}
			for _, f := range v.fields {
				changed = changed || !tr.vals[k].Equal(cellOf(e, f))
				k++
			}
			if changed {
				tr.causes[v.pred] = cause
			}
		}
	}
	tr.forget()
}

// forget drops the cells read before an event.
func (tr *tracker) forget() {
	tr.held, tr.vals = tr.held[:0], tr.vals[:0]
}

// aliveOf reads an entity's alive flag: false for one that never existed.
func aliveOf(e *entity) model.Value { return model.Bool(e != nil && e.alive) }

// cellOf reads a field: null for an entity that never existed; a
// tombstone keeps its fields.
func cellOf(e *entity, f int) model.Value {
	if e == nil {
		return model.Null
	}
	return e.value(f)
}
