package evaluators

import (
	"fmt"
	"slices"

	"github.com/parthack/parthack/internal/payload"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/predicate"
)

// engine rebuilds the public states of a payload one event at a time and
// keeps every public predicate's truth and latest cause current. An event
// re-evaluates only the predicates whose footprint its diff touches, so a
// step costs the same however long the log is.
//
// The latest cause here is the environment's definition (pbcste.Log.Cause,
// see docs/definitions.md) computed again, on purpose, from the payload's
// public diffs and provenance: evaluators may not import pbcste, and must
// score what the payload says, not what the trusted log holds.
type engine struct {
	types   []etype
	typeIdx map[string]int
	ents    []ent
	counts  []*predicate.Expr // count expressions, each with a running total
	total   []int64           // total[c]: alive entities matching counts[c]
	preds   []pred            // every predicate of every goal version
	vers    []version
	active  int // goal version active now

	// footprint watchers, keyed by entity and by type; a new slot takes
	// the union when it is created.
	named  map[entKey][]watch
	byType [][]watch

	stamp   []int // stamp[p] == event+1 when p is already queued for this event
	touched []int
	dirty   []int32
}

type etype struct {
	name     string
	fieldIdx map[string]int
	targets  []int // per field: the referenced type, -1 for a field that is not a reference
	slots    map[string]int32
	counts   []int // count expressions over this type
}

type entKey struct {
	typ int
	id  string
}

// ent is one entity slot; slots are never reused, so a slot index found
// once stays valid.
type ent struct {
	typ     int
	exists  bool
	alive   bool
	fields  []model.Value
	watch   []watch
	matches []bool // per count expression of its type (etype.counts order)
}

// watch says predicate pred reads the cells of mask (bit 0: the alive
// flag, bit f+1: field f).
type watch struct {
	pred int
	mask uint64
}

// pred is one public predicate with its running truth and attribution.
type pred struct {
	expr    *predicate.Expr
	version int
	truth   bool
	agent   bool // latest cause is an agent event (false: initial or another actor)
	ever    bool // held at some step while its version was active
}

// version holds a goal version's running counts.
type version struct {
	name   string
	preds  []int
	nTrue  int // predicates that hold now
	nAgent int // predicates that hold now and were last touched by the agent
	nEver  int // predicates that held at some step while this version was active
}

// aliveBit is predicate.Bit(predicate.AliveField): bit 0.
const aliveBit = 1

func fieldBit(f int) uint64 { return predicate.Bit(f) }

// newEngine compiles a payload's public schema and goals and loads its
// initial state.
func newEngine(p *payload.Payload) (*engine, error) {
	e := &engine{typeIdx: map[string]int{}, named: map[entKey][]watch{}}
	for i, t := range p.Schema {
		if len(t.Fields) > 63 {
			return nil, fmt.Errorf("type %s: more than 63 fields", t.Name)
		}
		et := etype{name: t.Name, fieldIdx: map[string]int{}, slots: map[string]int32{}}
		for j, f := range t.Fields {
			et.fieldIdx[f.Name] = j
		}
		e.types = append(e.types, et)
		e.typeIdx[t.Name] = i
	}
	for i, t := range p.Schema {
		for _, f := range t.Fields {
			target := -1
			if f.Kind == model.KindRef {
				ti, ok := e.typeIdx[f.Target]
				if !ok {
					return nil, fmt.Errorf("field %s.%s references undeclared type %q", t.Name, f.Name, f.Target)
				}
				target = ti
			}
			e.types[i].targets = append(e.types[i].targets, target)
		}
	}
	e.byType = make([][]watch, len(e.types))
	for vi, g := range p.Goals {
		v := version{name: g.Version}
		if len(g.Predicates) == 0 {
			return nil, fmt.Errorf("goal %s has no predicates", g.Version)
		}
		for _, pr := range g.Predicates {
			c, err := e.compile(&pr.Expr.Expr)
			if err != nil {
				return nil, fmt.Errorf("goal %s: predicate %s: %w", g.Version, pr.ID, err)
			}
			idx := len(e.preds)
			fp := c.Footprint()
			for k, m := range fp.Cells {
				e.named[entKey{k.Type, k.ID}] = append(e.named[entKey{k.Type, k.ID}], watch{idx, m})
			}
			for t, m := range fp.ByType {
				e.byType[t] = append(e.byType[t], watch{idx, m})
			}
			e.preds = append(e.preds, pred{expr: c, version: vi})
			v.preds = append(v.preds, idx)
		}
		e.vers = append(e.vers, v)
	}
	e.stamp = make([]int, len(e.preds))
	for _, ent := range p.Initial.Entities {
		slot, err := e.slot(ent.Type, ent.ID)
		if err != nil {
			return nil, fmt.Errorf("initial: %w", err)
		}
		s := &e.ents[slot]
		if s.exists {
			return nil, fmt.Errorf("initial: entity %s %s listed twice", ent.Type, ent.ID)
		}
		s.exists, s.alive = true, !ent.Deleted
		for _, f := range ent.Fields {
			fi, ok := e.types[s.typ].fieldIdx[f.Name]
			if !ok {
				return nil, fmt.Errorf("initial: type %s has no field %q", ent.Type, f.Name)
			}
			s.fields[fi] = f.Value
		}
		e.recount(slot)
	}
	active, ok := e.versionIdx(p.Initial.GoalVersion)
	if !ok {
		return nil, fmt.Errorf("initial: undeclared goal version %q", p.Initial.GoalVersion)
	}
	e.active = active
	for i := range e.preds {
		e.preds[i].truth = e.preds[i].expr.Eval(e)
		if e.preds[i].truth {
			e.vers[e.preds[i].version].nTrue++
		}
	}
	e.markEver(e.vers[e.active].preds)
	return e, nil
}

func (e *engine) versionIdx(name string) (int, bool) {
	for i := range e.vers {
		if e.vers[i].name == name {
			return i, true
		}
	}
	return 0, false
}

// slot finds or makes the slot of (type, id). A new slot does not exist
// yet: it is a place for an entity a later create brings to life.
func (e *engine) slot(typ, id string) (int32, error) {
	ti, ok := e.typeIdx[typ]
	if !ok {
		return 0, fmt.Errorf("undeclared type %q", typ)
	}
	t := &e.types[ti]
	if s, ok := t.slots[id]; ok {
		return s, nil
	}
	s := int32(len(e.ents))
	k := entKey{ti, id}
	w := append(slices.Clip(e.named[k]), e.byType[ti]...)
	e.ents = append(e.ents, ent{typ: ti, fields: make([]model.Value, len(t.fieldIdx)), watch: w, matches: make([]bool, len(t.counts))})
	t.slots[id] = s
	return s, nil
}

// lookup finds an existing entity's slot.
func (e *engine) lookup(typ int, id string) (int32, bool) {
	s, ok := e.types[typ].slots[id]
	return s, ok && e.ents[s].exists
}

// recount refreshes a slot's membership in the count expressions of its type.
func (e *engine) recount(slot int32) {
	s := &e.ents[slot]
	for i, c := range e.types[s.typ].counts {
		now := s.exists && s.alive && e.counts[c].Matches(predicate.Values(s.fields))
		if now != s.matches[i] {
			s.matches[i] = now
			if now {
				e.total[c]++
			} else {
				e.total[c]--
			}
		}
	}
}

// markEver credits Historical Milestone with the predicates of the active
// version that hold now.
func (e *engine) markEver(ps []int) {
	v := &e.vers[e.active]
	for _, p := range ps {
		pr := &e.preds[p]
		if pr.version == e.active && pr.truth && !pr.ever {
			pr.ever = true
			v.nEver++
		}
	}
}

// apply carries one public event into the state. It checks the event
// against the state it rebuilds: every cell's before value must be the
// current one, and the goal version after the event must be the one the
// event states.
func (e *engine) apply(ev *payload.Event, agent bool, n int) error {
	if !ev.OK && len(ev.Diff) > 0 {
		return fmt.Errorf("a failed event has a diff")
	}
	e.touched, e.dirty = e.touched[:0], e.dirty[:0]
	goalChanged := false
	for i := range ev.Diff {
		c := &ev.Diff[i]
		if c.Field == model.GoalField {
			if c.Before.AsString() != e.vers[e.active].name {
				return fmt.Errorf("diff[%d]: goal changes from %s, but %s is active", i, c.Before, e.vers[e.active].name)
			}
			v, ok := e.versionIdx(c.After.AsString())
			if !ok {
				return fmt.Errorf("diff[%d]: undeclared goal version %s", i, c.After)
			}
			e.active, goalChanged = v, true
			continue
		}
		if c.Before.Equal(c.After) {
			return fmt.Errorf("diff[%d]: before equals after", i)
		}
		slot, err := e.slot(c.Type, c.ID)
		if err != nil {
			return fmt.Errorf("diff[%d]: %w", i, err)
		}
		s := &e.ents[slot]
		var bit uint64
		if c.Field == model.AliveField {
			cur := model.Null
			if s.exists {
				cur = model.Bool(s.alive)
			}
			if !cur.Equal(c.Before) || c.After.Kind() != model.BoolValue {
				return fmt.Errorf("diff[%d]: %s %s alive flag is %s, the diff says %s → %s", i, c.Type, c.ID, cur, c.Before, c.After)
			}
			s.exists, s.alive, bit = true, c.After.AsBool(), aliveBit
		} else {
			fi, ok := e.types[s.typ].fieldIdx[c.Field]
			if !ok {
				return fmt.Errorf("diff[%d]: type %s has no field %q", i, c.Type, c.Field)
			}
			if !s.exists || !s.fields[fi].Equal(c.Before) {
				return fmt.Errorf("diff[%d]: %s %s .%s is %s, the diff says %s → %s", i, c.Type, c.ID, c.Field, s.fields[fi], c.Before, c.After)
			}
			s.fields[fi], bit = c.After, fieldBit(fi)
		}
		if len(e.dirty) == 0 || e.dirty[len(e.dirty)-1] != slot {
			e.dirty = append(e.dirty, slot)
		}
		for _, w := range s.watch {
			if w.mask&bit != 0 && e.stamp[w.pred] != n {
				e.stamp[w.pred] = n
				e.touched = append(e.touched, w.pred)
			}
		}
	}
	for _, slot := range e.dirty {
		e.recount(slot)
	}
	for _, p := range e.touched {
		pr := &e.preds[p]
		v := &e.vers[pr.version]
		if pr.truth {
			v.nTrue--
			if pr.agent {
				v.nAgent--
			}
		}
		pr.truth, pr.agent = pr.expr.Eval(e), agent
		if pr.truth {
			v.nTrue++
			if pr.agent {
				v.nAgent++
			}
		}
	}
	if goalChanged {
		e.markEver(e.vers[e.active].preds)
	} else {
		e.markEver(e.touched)
	}
	if ev.GoalVersion != e.vers[e.active].name {
		return fmt.Errorf("the event says goal version %s is active after it; the diffs give %s", ev.GoalVersion, e.vers[e.active].name)
	}
	return nil
}

// checkTerminal holds the rebuilt state against the payload's terminal
// state: the same entities with the same values and the same goal version.
func (e *engine) checkTerminal(t *payload.State) error {
	if t.GoalVersion != e.vers[e.active].name {
		return fmt.Errorf("terminal: goal version %s, the log ends on %s", t.GoalVersion, e.vers[e.active].name)
	}
	exist := 0
	for i := range e.ents {
		if e.ents[i].exists {
			exist++
		}
	}
	if exist != len(t.Entities) {
		return fmt.Errorf("terminal: %d entities, the log rebuilds %d", len(t.Entities), exist)
	}
	for _, te := range t.Entities {
		ti, ok := e.typeIdx[te.Type]
		if !ok {
			return fmt.Errorf("terminal: undeclared type %q", te.Type)
		}
		slot, ok := e.lookup(ti, te.ID)
		if !ok || e.ents[slot].alive == te.Deleted {
			return fmt.Errorf("terminal: entity %s %s is not as the log leaves it", te.Type, te.ID)
		}
		s := &e.ents[slot]
		set := 0
		for _, v := range s.fields {
			if !v.IsNull() {
				set++
			}
		}
		for _, f := range te.Fields {
			fi, ok := e.types[ti].fieldIdx[f.Name]
			if !ok || !s.fields[fi].Equal(f.Value) {
				return fmt.Errorf("terminal: %s %s .%s is not as the log leaves it", te.Type, te.ID, f.Name)
			}
		}
		if set != len(te.Fields) {
			return fmt.Errorf("terminal: entity %s %s has fields the log does not leave set", te.Type, te.ID)
		}
	}
	return nil
}
