package payload

import (
	"fmt"
	"slices"

	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
)

// undeclaredReason replaces the environment's reason for a failed action
// that names a type, entity, field or goal version outside the public
// task: the trusted reason could describe hidden state, and one fixed
// text cannot tell a hidden name from a name that does not exist.
const undeclaredReason = "the action names a type, entity, field or goal version the public task does not declare"

// view is the public view of a trusted task: the whitelist Build copies
// through.
type view struct {
	pub    *model.Task
	env    *pbcste.Env // compiled trusted task
	fields map[string]map[string]bool
	hidden map[[2]string]bool // trusted initial entities of public types the public snapshot leaves out
	goals  map[string]bool
	// scope, when set, limits states to these entities (a domain task's).
	scope *scope
}

// scope is a set of entities, and of types taken whole.
type scope struct {
	ents  map[[2]string]bool
	types map[string]bool
}

func (v *view) inScope(typ, id string) bool {
	return v.scope == nil || v.scope.types[typ] || v.scope.ents[[2]string{typ, id}]
}

// scopeOf is a domain trajectory's scope: the entities the public
// predicates read (a count reads its whole type) and those its events
// changed.
func scopeOf(pub *model.Task, log *pbcste.Log) *scope {
	sc := &scope{ents: map[[2]string]bool{}, types: map[string]bool{}}
	var walk func(x *model.Expr)
	walk = func(x *model.Expr) {
		switch x.Kind {
		case model.ExprCount:
			sc.types[x.Type] = true
		case model.ExprField, model.ExprAlive, model.ExprAbsent, model.ExprRef:
			sc.ents[[2]string{x.Type, x.ID}] = true
		}
		for i := range x.Args {
			walk(&x.Args[i])
		}
	}
	for _, g := range pub.Goals {
		for i := range g.Predicates {
			walk(&g.Predicates[i].Expr)
		}
	}
	for i := range log.Events {
		for _, c := range log.TypedDiff(&log.Events[i]) {
			if c.Field != model.GoalField {
				sc.ents[[2]string{c.Type, c.ID}] = true
			}
		}
	}
	return sc
}

// newView checks that pub is a public view of the trusted task and
// records what it declares: the public schema must be a restriction of
// the trusted one (same definitions for the fields it keeps), and the
// goal versions must match by name and order, with one public predicate
// per Oracle predicate, same ids in the same order.
func newView(pub *model.Task, env *pbcste.Env) (*view, error) {
	trusted := env.Task
	if pub.ID != trusted.ID {
		return nil, fmt.Errorf("payload: public task %q is not a view of trusted task %q", pub.ID, trusted.ID)
	}
	v := &view{pub: pub, env: env, fields: map[string]map[string]bool{}, hidden: map[[2]string]bool{}, goals: map[string]bool{}}
	for _, pt := range pub.Schema.Types {
		tt, ok := trusted.Schema.Type(pt.Name)
		if !ok {
			return nil, fmt.Errorf("payload: task %s: public type %s is not a type of the trusted task", pub.ID, pt.Name)
		}
		if v.fields[pt.Name] != nil {
			return nil, fmt.Errorf("payload: task %s: public type %s declared twice", pub.ID, pt.Name)
		}
		fs := map[string]bool{}
		for _, pf := range pt.Fields {
			tf, ok := tt.Field(pf.Name)
			if !ok || tf.Kind != pf.Kind || tf.Target != pf.Target || !slices.Equal(tf.Values, pf.Values) || fs[pf.Name] {
				return nil, fmt.Errorf("payload: task %s: public field %s.%s does not match a trusted field of the same definition", pub.ID, pt.Name, pf.Name)
			}
			fs[pf.Name] = true
		}
		v.fields[pt.Name] = fs
	}
	for _, pt := range pub.Schema.Types {
		for _, pf := range pt.Fields {
			if pf.Kind == model.KindRef && v.fields[pf.Target] == nil {
				return nil, fmt.Errorf("payload: task %s: public field %s.%s references type %s, which is not public", pub.ID, pt.Name, pf.Name, pf.Target)
			}
		}
	}
	tg := env.Goals()
	if len(pub.Goals) != len(tg) {
		return nil, fmt.Errorf("payload: task %s: %d public goal versions for %d trusted ones", pub.ID, len(pub.Goals), len(tg))
	}
	for i, g := range pub.Goals {
		if g.Version != tg[i].Version || len(g.Predicates) != len(tg[i].Preds) {
			return nil, fmt.Errorf("payload: task %s: public goal version %d (%s, %d predicates) does not match the trusted one (%s, %d predicates)",
				pub.ID, i+1, g.Version, len(g.Predicates), tg[i].Version, len(tg[i].Preds))
		}
		for j, p := range g.Predicates {
			if p.ID != tg[i].Preds[j].ID {
				return nil, fmt.Errorf("payload: task %s: goal %s: public predicate %d is %q, the Oracle's is %q", pub.ID, g.Version, j+1, p.ID, tg[i].Preds[j].ID)
			}
		}
		v.goals[g.Version] = true
	}
	if len(pub.Initial) == len(trusted.Initial) && (len(pub.Initial) == 0 || &pub.Initial[0] == &trusted.Initial[0]) {
		return v, nil // one snapshot, as a domain task's: nothing is hidden
	}
	public := map[[2]string]bool{}
	for _, e := range pub.Initial {
		public[[2]string{e.Type, e.ID}] = true
	}
	for _, e := range trusted.Initial {
		if k := [2]string{e.Type, e.ID}; v.fields[e.Type] != nil && !public[k] {
			v.hidden[k] = true
		}
	}
	return v, nil
}

func (v *view) entityPublic(typ, id string) bool {
	return v.fields[typ] != nil && !v.hidden[[2]string{typ, id}]
}

func (v *view) schema() []EntityType {
	out := make([]EntityType, len(v.pub.Schema.Types))
	for i, t := range v.pub.Schema.Types {
		out[i] = EntityType{Name: t.Name, Fields: make([]FieldDef, len(t.Fields))}
		for j, f := range t.Fields {
			out[i].Fields[j] = FieldDef{Name: f.Name, Kind: f.Kind, Values: slices.Clone(f.Values), Target: f.Target}
		}
	}
	return out
}

// goalSchema writes the public goal schema and reads it back through the task
// file decoder, so a payload never carries a goal a task file could not.
func (v *view) goalSchema() ([]Goal, error) {
	out := make([]Goal, len(v.pub.Goals))
	for i, g := range v.pub.Goals {
		out[i] = Goal{Version: g.Version, Predicates: make([]Predicate, len(g.Predicates))}
		for j, p := range g.Predicates {
			out[i].Predicates[j] = Predicate{ID: p.ID, Text: p.Text, Expr: Expr{raw: AppendExpr(nil, &p.Expr)}}
		}
	}
	if err := resolveGoals(out, &v.pub.Schema); err != nil {
		return nil, fmt.Errorf("payload: task %s: public goal schema: %w", v.pub.ID, err)
	}
	return out, nil
}

// state redacts a trusted snapshot: public entities, public fields.
func (v *view) state(s *pbcste.State) State {
	out := State{GoalVersion: s.GoalVersion(), Entities: []Entity{}}
	keep := func(typ, id string) bool { return v.entityPublic(typ, id) && v.inScope(typ, id) }
	for _, r := range s.EntitiesIn(keep) {
		e := Entity{Type: r.Type, ID: r.ID, Deleted: r.Deleted, Fields: Fields{}}
		for name, val := range r.Fields {
			if mv, ok := val.(model.Value); ok && v.fields[r.Type][name] {
				e.Fields = append(e.Fields, Field{Name: name, Value: mv})
			}
		}
		e.Fields.sort()
		out.Entities = append(out.Entities, e)
	}
	return out
}

// checkInitial holds the redacted trusted initial snapshot against the
// public task's own: they must be the same entities with the same values.
func (v *view) checkInitial(ents []Entity) error {
	want := map[[2]string]Entity{}
	for _, e := range ents {
		want[[2]string{e.Type, e.ID}] = e
	}
	pubInitial := v.pub.Initial
	if v.scope != nil {
		pubInitial = nil
		for _, pe := range v.pub.Initial {
			if v.inScope(pe.Type, pe.ID) {
				pubInitial = append(pubInitial, pe)
			}
		}
	}
	if len(pubInitial) != len(ents) {
		return fmt.Errorf("payload: task %s: the public initial snapshot has %d entities; the redacted trusted one has %d", v.pub.ID, len(pubInitial), len(ents))
	}
	for _, pe := range pubInitial {
		te, ok := want[[2]string{pe.Type, pe.ID}]
		same := ok && te.Deleted == pe.Deleted
		set := 0
		for _, a := range pe.Fields {
			if a.Value.IsNull() {
				continue
			}
			set++
			same = same && te.Fields.Get(a.Field).Equal(a.Value)
		}
		if !same || set != len(te.Fields) {
			return fmt.Errorf("payload: task %s: public initial entity %s %s is not the redaction of the trusted one", v.pub.ID, pe.Type, pe.ID)
		}
	}
	return nil
}

// event writes one public event from the trusted log.
// callArgs are a tool call's arguments as payload fields, sorted.
func callArgs(args model.Value) Fields {
	obj, ok := model.Members(args)
	if !ok {
		return nil
	}
	out := make(Fields, 0, len(obj))
	for _, m := range obj {
		out = append(out, Field{Name: m.Field, Value: m.Value})
	}
	out.sort()
	return out
}

func (v *view) event(log *pbcste.Log, seq int) Event {
	ev := &log.Events[seq]
	a := ev.Action
	out := Event{Seq: seq + 1, T: ev.Time(), Actor: ev.Actor, Op: a.Op, OK: ev.OK, Diff: []Cell{},
		GoalVersion: log.Env.Goals()[ev.Goal].Version}
	if ev.Step >= 0 {
		out.Step = ev.Step + 1
	}
	declared := true
	switch {
	case a.Op == model.OpReviseGoal && v.goals[a.Goal]:
		out.Goal = a.Goal
	case a.Op == model.OpCall:
		out.Tool = a.Tool
		out.Args = callArgs(a.Args)
	case a.Op != model.OpReviseGoal && v.entityPublic(a.Type, a.ID):
		out.Type, out.ID = a.Type, a.ID
		for _, f := range a.Fields {
			if !v.fields[a.Type][f.Field] {
				declared = false
				continue
			}
			if !slices.ContainsFunc(out.Args, func(g Field) bool { return g.Name == f.Field }) {
				out.Args = append(out.Args, Field{Name: f.Field, Value: f.Value})
			}
		}
		out.Args.sort()
	default:
		declared = false
	}
	if !ev.OK {
		out.Reason = ev.Reason
		if !declared {
			out.Reason = undeclaredReason
		}
	}
	for _, c := range log.TypedDiff(ev) {
		if c.Field == model.GoalField || (v.entityPublic(c.Type, c.ID) && (c.Field == model.AliveField || v.fields[c.Type][c.Field])) {
			out.Diff = append(out.Diff, Cell{Type: c.Type, ID: c.ID, Field: c.Field, Before: c.Before, After: c.After})
		}
	}
	return out
}
