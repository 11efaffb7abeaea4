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

// changed compares the view's cells of one entity before an event (its
// alive flag and fields then) and after it (e, which exists: the event
// wrote it and succeeded).
func (v *view) changed(alive bool, before []model.Value, e *entity) bool {
	if v.alive && alive != e.alive {
		return true
	}
	for _, f := range v.fields {
		if !before[f].Equal(e.fields[f]) {
			return true
		}
	}
	return false
}

// tracker finds the latest cause of every predicate of every goal
// version in the replay that certifies, since which version is active at
// the end is known only then. Before each event it copies each entity
// the event will write; after a successful event each predicate's view
// compares the cells it reads there, before and after, and a predicate
// whose cells changed has this event as its latest cause. An event
// writes the cells of the entities it names only, so the view can change
// only there: comparing those cells, before and after, compares the
// whole view.
type tracker struct {
	byType [][]view
	causes []model.Cause
	first  []int // per goal version, the position of its first predicate
	held   []heldEntity
	vals   []model.Value // the held entities' fields before the event
}

// heldEntity is an entity as it was before the event: its alive flag,
// and its fields at vals[off:], by schema position (null when it did not
// exist).
type heldEntity struct {
	typ   int
	id    string
	alive bool
	off   int
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

// beforeWrite holds, ahead of a primitive write, the entity it names. A
// goal revision names none, and no predicate reads the goal.
func (tr *tracker) beforeWrite(w *world, a *model.Action) {
	if a.Op == model.OpReviseGoal {
		return
	}
	if t := w.sc.typeOf(a.Type); t >= 0 {
		tr.before(w, t, a.ID)
	}
}

// before holds entity (t, id) ahead of an event that writes it, when a
// predicate reads that type at all. Holding an entity twice is harmless:
// both copies are of it before the event.
func (tr *tracker) before(w *world, t int, id string) {
	if len(tr.byType[t]) == 0 {
		return
	}
	h := heldEntity{typ: t, id: id, off: len(tr.vals)}
	if e := w.get(t, id); e != nil {
		h.alive = e.alive
		tr.vals = append(tr.vals, e.fields...)
	} else {
		tr.vals = append(tr.vals, make([]model.Value, len(w.sc.types[t].Fields))...)
	}
	tr.held = append(tr.held, h)
}

// after lets every view of a held entity compare its cells with the
// world after the event, and makes the event the latest cause of every
// predicate whose cells changed. A failed event calls forget instead: it
// changed nothing.
func (tr *tracker) after(w *world, cause model.Cause) {
	for _, h := range tr.held {
		e, before := w.get(h.typ, h.id), tr.vals[h.off:]
		for i := range tr.byType[h.typ] {
			if v := &tr.byType[h.typ][i]; v.sees(h.id) && v.changed(h.alive, before, e) {
				tr.causes[v.pred] = cause
			}
		}
	}
	tr.forget()
}

// forget drops the entities held before an event.
func (tr *tracker) forget() {
	tr.held, tr.vals = tr.held[:0], tr.vals[:0]
}
