// Package builder is the trusted half of the payload (SPEC §4): Build
// replays nothing itself but turns the log of a trajectory replayed on the
// trusted task (hidden fields, Oracle goals) into the public payload,
// field by field, keeping only what the public task declares. It imports
// pbcste and sees the sealed task; evaluators must never import it (the
// isolation test in evaluators says so). The public reader, the payload's
// types, canonical encoding and strict decoder, is package payload.
package builder

import (
	"fmt"
	"slices"
	"sync"

	"github.com/parthack/parthack/internal/payload"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
)

// Build writes the public payload of a trajectory. log comes from
// replaying the trajectory on the trusted task; pub is the public view of
// the same task: its schema declares the public fields (every other field
// is hidden), its initial snapshot is the redacted one, and its goal
// versions hold the public predicates, one per Oracle predicate. Build
// checks that pub is such a view of the trusted task and fails otherwise.
//
// transcript is the agent's conversation when there is one; nil builds
// one assistant turn per agent action from the public events.
func Build(pub *model.Task, log *pbcste.Log, transcript []payload.Turn) (*payload.Payload, error) {
	v, err := newView(pub, log.Env)
	if err != nil {
		return nil, err
	}
	p := &payload.Payload{Version: payload.Version, Task: pub.ID, Title: pub.Title, Instruction: pub.Instruction}
	if err := v.head(p); err != nil {
		return nil, err
	}
	if log.Env.Task.Domain != nil {
		v.scope = scopeOf(pub, log)
	}
	initial := log.Env.Initial()
	p.Initial = v.state(initial)
	if err := v.checkInitial(p.Initial.Entities); err != nil {
		return nil, err
	}
	p.Events = make([]payload.Event, len(log.Events))
	p.Provenance = make([]payload.Provenance, len(log.Events))
	for seq := range log.Events {
		v.event(&p.Events[seq], log, &log.Events[seq])
		p.Provenance[seq] = payload.Provenance{Seq: seq + 1, Actor: log.Events[seq].Actor()}
	}
	p.Terminal = v.state(log.Final())
	if transcript == nil {
		transcript = actionTranscript(p.Events)
	}
	p.Transcript = append([]payload.Turn{}, transcript...)
	return p, nil
}

// BuildTrajectory is Build of a trajectory's own record: its
// conversation as the transcript (none: Build's action transcript) and
// the benchmark's reason for ending it, where it ended it itself.
func BuildTrajectory(pub *model.Task, log *pbcste.Log, tr *model.Trajectory) (*payload.Payload, error) {
	p, err := Build(pub, log, TurnsOf(tr))
	if err == nil && tr != nil {
		p.Termination = tr.Termination
	}
	return p, err
}

// TrajectoryBytes is the canonical bytes of BuildTrajectory's payload,
// the conversation's texts read into them a piece at a time
// (payload.TextBytes): a long message is held once, in the bytes, and not
// also as a string (nor read whole from its spill file).
func TrajectoryBytes(pub *model.Task, log *pbcste.Log, tr *model.Trajectory) ([]byte, error) {
	if tr == nil || len(tr.Transcript) == 0 {
		p, err := BuildTrajectory(pub, log, tr)
		if err != nil {
			return nil, err
		}
		return p.Bytes(), nil
	}
	p, err := Build(pub, log, []payload.Turn{})
	if err != nil {
		return nil, err
	}
	p.Termination = tr.Termination
	return p.TextBytes(tr.Transcript)
}

// actionTranscript is the transcript of a trajectory that has no
// conversation: one assistant turn per agent action, written from the
// public event alone.
func actionTranscript(events []payload.Event) []payload.Turn {
	out := []payload.Turn{}
	for i := range events {
		if events[i].Actor == model.ActorAgent {
			out = append(out, actionTurn(&events[i]))
		}
	}
	return out
}

// actionTurn is the assistant turn of one agent action's public event.
func actionTurn(ev *payload.Event) payload.Turn {
	return payload.Turn{Role: "assistant", Content: string(appendActionText(nil, ev))}
}

// appendActionText writes what an agent action's public event says it
// did: its op and goal, or its op, target and arguments.
func appendActionText(b []byte, ev *payload.Event) []byte {
	b = append(b, ev.Op...)
	switch {
	case ev.Op == model.OpReviseGoal:
		return append(append(b, ' '), ev.Goal...)
	case ev.Type == "":
		return append(b, " (a target the task does not declare)"...)
	}
	b = append(append(append(append(b, ' '), ev.Type...), ' '), ev.ID...)
	if len(ev.Args) > 0 {
		b = ev.Args.AppendJSON(append(b, ' '))
	}
	return b
}

// TurnsOf is a trajectory's recorded conversation as payload turns; nil
// when it has none, so Build writes the action transcript instead.
func TurnsOf(tr *model.Trajectory) []payload.Turn {
	if tr == nil || len(tr.Transcript) == 0 {
		return nil
	}
	out := make([]payload.Turn, len(tr.Transcript))
	for i, t := range tr.Transcript {
		out[i] = payload.Turn{Role: t.Role, Content: t.Content.String()}
	}
	return out
}

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
	cells []model.CellDiff // an event's named cells, reused event to event
}

// scope is a set of entities, and of types taken whole.
type scope struct {
	ents  map[[2]string]bool
	types map[string]bool
	cells []model.CellDiff // as view's
}

func (v *view) inScope(typ, id string) bool {
	return v.scope == nil || v.scope.types[typ] || v.scope.ents[[2]string{typ, id}]
}

// scopeOf is a domain trajectory's scope: the entities the public
// predicates read (a count reads its whole type) and those its events
// changed.
func scopeOf(pub *model.Task, log *pbcste.Log) *scope {
	sc := predicateScope(pub)
	for i := range log.Events {
		sc.add(log, &log.Events[i])
	}
	return sc
}

// predicateScope is the scope the public predicates read.
func predicateScope(pub *model.Task) *scope {
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
	return sc
}

// add puts the entities an event changed in the scope.
func (sc *scope) add(r recorder, ev *pbcste.Event) {
	if ev.DiffLen() == 0 {
		return
	}
	sc.cells = r.AppendTypedDiff(sc.cells[:0], ev)
	for _, c := range sc.cells {
		if c.Field != model.GoalField {
			sc.ents[[2]string{c.Type, c.ID}] = true
		}
	}
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
	return v.fields[typ] != nil && (len(v.hidden) == 0 || !v.hidden[[2]string{typ, id}])
}

func (v *view) schema() []payload.EntityType {
	out := make([]payload.EntityType, len(v.pub.Schema.Types))
	for i, t := range v.pub.Schema.Types {
		out[i] = payload.EntityType{Name: t.Name, Fields: make([]payload.FieldDef, len(t.Fields))}
		for j, f := range t.Fields {
			out[i].Fields[j] = payload.FieldDef{Name: f.Name, Kind: f.Kind, Values: slices.Clone(f.Values), Target: f.Target}
		}
	}
	return out
}

// state redacts a trusted snapshot: public entities, public fields.
func (v *view) state(s *pbcste.State) payload.State {
	out := payload.State{GoalVersion: s.GoalVersion(), Entities: []payload.Entity{}}
	var ents []pbcste.EntityRecord
	if v.scope != nil && len(v.scope.types) == 0 { // a few named entities of a large world: look them up
		names := make([][2]string, 0, len(v.scope.ents))
		for k := range v.scope.ents {
			if v.entityPublic(k[0], k[1]) {
				names = append(names, k)
			}
		}
		ents = s.EntitiesNamed(names)
	} else {
		ents = s.EntitiesIn(func(typ, id string) bool { return v.entityPublic(typ, id) && v.inScope(typ, id) })
	}
	for _, r := range ents {
		e := payload.Entity{Type: r.Type, ID: r.ID, Deleted: r.Deleted, Fields: payload.Fields{}}
		for name, val := range r.Fields {
			if mv, ok := val.(model.Value); ok && v.fields[r.Type][name] {
				e.Fields = append(e.Fields, payload.Field{Name: name, Value: mv})
			}
		}
		e.Fields.Sort()
		out.Entities = append(out.Entities, e)
	}
	return out
}

// checkInitial holds the redacted trusted initial snapshot against the
// public task's own: they must be the same entities with the same values.
func (v *view) checkInitial(ents []payload.Entity) error {
	want := map[[2]string]payload.Entity{}
	for _, e := range ents {
		want[[2]string{e.Type, e.ID}] = e
	}
	pubInitial := v.scopedInitial()
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

// scopedInitial are the public initial entities in the scope, in the
// snapshot's order: a domain task's few named entities are looked up in
// an index of its large snapshot, which its tasks share, not found by
// reading every entity.
func (v *view) scopedInitial() []model.Entity {
	if v.scope == nil {
		return v.pub.Initial
	}
	if idx := initialIndex(v.pub.Initial); idx != nil && len(v.scope.types) == 0 {
		at := make([]int, 0, len(v.scope.ents))
		for k := range v.scope.ents {
			if i, ok := idx[k]; ok {
				at = append(at, i)
			}
		}
		slices.Sort(at)
		out := make([]model.Entity, len(at))
		for j, i := range at {
			out[j] = v.pub.Initial[i]
		}
		return out
	}
	var out []model.Entity
	for _, pe := range v.pub.Initial {
		if v.inScope(pe.Type, pe.ID) {
			out = append(out, pe)
		}
	}
	return out
}

// initialIndexes are the indexes of large initial snapshots (a domain's,
// which all its tasks share), by the snapshot's first entity and length:
// each entity's position by type and id.
var initialIndexes sync.Map // indexKey → map[[2]string]int

type indexKey struct {
	first *model.Entity
	n     int
}

// initialIndex is the index of a large snapshot, made once; nil for a
// small one (reading it costs less than an index) or one that holds an
// entity twice.
func initialIndex(ents []model.Entity) map[[2]string]int {
	if len(ents) < 1024 {
		return nil
	}
	key := indexKey{&ents[0], len(ents)}
	if idx, ok := initialIndexes.Load(key); ok {
		return idx.(map[[2]string]int)
	}
	idx := make(map[[2]string]int, len(ents))
	for i, e := range ents {
		k := [2]string{e.Type, e.ID}
		if _, twice := idx[k]; twice {
			idx = nil
			break
		}
		idx[k] = i
	}
	got, _ := initialIndexes.LoadOrStore(key, idx)
	return got.(map[[2]string]int)
}

// event writes one public event from the trusted log.
// callArgs appends a tool call's arguments to out as payload fields,
// sorted; nil when they are not an object.
func callArgs(out payload.Fields, args model.Value) payload.Fields {
	obj, ok := model.Members(args)
	if !ok {
		return nil
	}
	for _, m := range obj {
		out = append(out, payload.Field{Name: m.Field, Value: m.Value})
	}
	out.Sort()
	return out
}

// recorder is what recorded an event, a replay's log or a streamed run:
// it holds the event's diff and failure reason.
type recorder interface {
	AppendTypedDiff(dst []model.CellDiff, ev *pbcste.Event) []model.CellDiff
	Reason(ev *pbcste.Event) string
}

// event writes into out the public event of a trusted one r recorded.
func (v *view) event(out *payload.Event, r recorder, ev *pbcste.Event) {
	a := ev.Action
	*out = payload.Event{Seq: ev.Seq + 1, T: ev.Time(), Actor: ev.Actor(), OK: ev.OK, Diff: out.Diff[:0], Args: out.Args[:0],
		GoalVersion: v.env.Goals()[ev.Goal].Version}
	if out.Diff == nil {
		out.Diff = []payload.Cell{}
	}
	if ev.Step >= 0 {
		out.Step = ev.Step + 1
	}
	declared := v.action(out, a)
	if !ev.OK {
		out.Reason = r.Reason(ev)
		if !declared {
			out.Reason = undeclaredReason
		}
	}
	if ev.DiffLen() == 0 {
		return
	}
	v.cells = r.AppendTypedDiff(v.cells[:0], ev)
	for _, c := range v.cells {
		if c.Field == model.GoalField || (v.entityPublic(c.Type, c.ID) && (c.Field == model.AliveField || v.fields[c.Type][c.Field])) {
			out.Diff = append(out.Diff, payload.Cell{Type: c.Type, ID: c.ID, Field: c.Field, Before: c.Before, After: c.After})
		}
	}
}

// action writes the public part of an action into out: its op, and the
// goal, tool, target and arguments the public task declares. declared is
// false when the action names anything else.
func (v *view) action(out *payload.Event, a *model.Action) (declared bool) {
	out.Op = a.Op
	declared = true
	switch {
	case a.Op == model.OpReviseGoal && v.goals[a.Goal]:
		out.Goal = a.Goal
	case a.Op == model.OpCall:
		out.Tool = a.Tool
		out.Args = callArgs(out.Args, a.Args)
	case a.Op != model.OpReviseGoal && v.entityPublic(a.Type, a.ID):
		out.Type, out.ID = a.Type, a.ID
		for _, f := range a.Fields {
			if !v.fields[a.Type][f.Field] {
				declared = false
				continue
			}
			if !slices.ContainsFunc(out.Args, func(g payload.Field) bool { return g.Name == f.Field }) {
				out.Args = append(out.Args, payload.Field{Name: f.Field, Value: f.Value})
			}
		}
		out.Args.Sort()
	default:
		declared = false
	}
	return declared
}
