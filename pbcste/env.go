// Package pbcste is the PB-CSTE environment: typed entities changed by
// five allowlisted operations, failed actions that change nothing, an
// append-only event log with typed diffs and a state hash per event,
// snapshots rebuilt on demand from checkpoints, and deterministic replay.
// It also evaluates the predicate DSL and derives each predicate's
// footprint. Replay is a pure function of the task and the steps.
package pbcste

import (
	"fmt"
	"slices"
	"sync"

	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/predicate"
)

// maxFields bounds fields per type: footprints are 64-bit masks with bit 0
// for the alive flag.
const maxFields = 63

// aliveField is the field index of the alive flag in diffs and footprints.
const aliveField = predicate.AliveField

// Env is a compiled task: name lookups resolved to indices, predicates
// compiled with their footprints, the initial snapshot built once.
type Env struct {
	Task    *model.Task
	types   []typeInfo
	typeIdx map[string]int
	goals   []*Goal
	preds   []*Pred // every predicate of every goal version, in order
	counts  []*predicate.Expr
	// countReads[i] are the cells counts[i] reads of an entity of its
	// type (bit(f), bit(aliveField)): a write to none of them leaves its
	// membership as it was.
	countReads []uint64
	initial    *State
	// initialTruth starts every replay: the predicates' values on the
	// initial snapshot.
	initialTruth []bool
	// Footprint masks, one per predicate in a row (see Log.maskRow):
	// typeMasks[t*len(preds):] for any entity of type t, named for the
	// entities a predicate names by id (their type's masks included),
	// initialRows for those of the initial snapshot by slot, which
	// initialNamed marks (bit slot%64 of word slot/64).
	typeMasks    []uint64
	named        map[entKey][]uint64
	initialRows  map[int32][]uint64
	initialNamed []uint64
	ops          uint8 // allowlisted ops, by opBit
	maxDiff      int   // the most changes one event can make: the alive flag and every field of a type
}

type typeInfo struct {
	name     string
	fields   []model.FieldDef
	fieldIdx map[string]int
	allowed  bool   // the agent may act on this type
	ops      uint8  // the ops the agent may use on this type, by opBit
	writable uint64 // bit f: the agent may write field f
}

// Goal is a compiled goal version.
type Goal struct {
	Index   int
	Version string
	Preds   []*Pred
}

// Pred is a compiled predicate with its footprint.
type Pred struct {
	model.Predicate
	Goal  int // index of its goal version
	Index int // position within its goal version
	all   int // position in Env.preds
	expr  *predicate.Expr
	foot  predicate.Footprint
}

// Compile checks a decoded task against the environment's rules and
// prepares it for replay.
func Compile(t *model.Task) (*Env, error) {
	env := &Env{Task: t, typeIdx: map[string]int{}}
	for _, op := range t.Allowlist.Ops {
		env.ops |= opBit(op)
	}
	for i, ev := range t.Script {
		if c := actorCode(ev.Actor); c == 0 || c == actorCode(model.ActorAgent) {
			return nil, fmt.Errorf("task %s: scripted event %d: actor %q; a scripted event's actor is user, environment or system", t.ID, i+1, ev.Actor)
		}
	}
	for i, et := range t.Schema.Types {
		if len(et.Fields) > maxFields {
			return nil, fmt.Errorf("task %s: type %s has %d fields; at most %d are supported", t.ID, et.Name, len(et.Fields), maxFields)
		}
		env.maxDiff = max(env.maxDiff, 1+len(et.Fields))
		ti := typeInfo{name: et.Name, fields: et.Fields, fieldIdx: map[string]int{}, allowed: t.Allowlist.AllowsType(et.Name)}
		for _, op := range t.Allowlist.OpsOn(et.Name) {
			ti.ops |= opBit(op)
		}
		for j, fd := range et.Fields {
			ti.fieldIdx[fd.Name] = j
			if t.Allowlist.AllowsField(et.Name, fd.Name) {
				ti.writable |= 1 << uint(j)
			}
		}
		env.types = append(env.types, ti)
		env.typeIdx[et.Name] = i
	}
	names := predicate.SchemaOf(&t.Schema)
	for gi, g := range t.Goals {
		if len(g.Predicates) > 64 {
			return nil, fmt.Errorf("task %s: goal %s has %d predicates; at most 64 are supported", t.ID, g.Version, len(g.Predicates))
		}
		cg := &Goal{Index: gi, Version: g.Version}
		for pi, p := range g.Predicates {
			e, err := env.compileExpr(names, &p.Expr)
			if err != nil {
				return nil, fmt.Errorf("task %s: goal %s: predicate %s: %w", t.ID, g.Version, p.ID, err)
			}
			cp := &Pred{Predicate: p, Goal: gi, Index: pi, all: len(env.preds), expr: e}
			cp.foot = e.Footprint()
			cg.Preds = append(cg.Preds, cp)
			env.preds = append(env.preds, cp)
		}
		env.goals = append(env.goals, cg)
	}
	s, err := env.buildInitial()
	if err != nil {
		return nil, err
	}
	env.initial = s
	s.sharedIndex = true // frozen: every replay starts from a clone that shares its index
	for _, p := range env.preds {
		env.initialTruth = append(env.initialTruth, s.Eval(p))
	}
	env.compileMasks()
	return env, nil
}

// compileMasks derives the footprint masks from the predicates'
// footprints and the initial snapshot.
func (env *Env) compileMasks() {
	np := len(env.preds)
	env.typeMasks = make([]uint64, len(env.types)*np)
	env.named = map[entKey][]uint64{}
	for p, pr := range env.preds {
		for t, m := range pr.foot.ByType {
			env.typeMasks[t*np+p] |= m
		}
		for k, m := range pr.foot.Cells {
			key := entKey{int32(k.Type), k.ID}
			if env.named[key] == nil {
				env.named[key] = make([]uint64, np)
			}
			env.named[key][p] |= m
		}
	}
	env.initialRows = map[int32][]uint64{}
	env.initialNamed = make([]uint64, (env.initial.n+63)/64)
	for k, row := range env.named {
		for p := range row {
			row[p] |= env.typeMasks[int(k.typ)*np+p]
		}
		if slot, ok := env.initial.slotOf(k.typ, k.id); ok {
			env.initialRows[slot] = row
			env.initialNamed[slot>>6] |= 1 << (slot & 63)
		}
	}
}

// Goals lists the compiled goal versions; the first is active at the start.
func (env *Env) Goals() []*Goal { return env.goals }

// GoalIndex finds a goal version by name.
func (env *Env) GoalIndex(version string) (int, bool) {
	for _, g := range env.goals {
		if g.Version == version {
			return g.Index, true
		}
	}
	return 0, false
}

// Initial returns a fresh copy of the frozen initial snapshot.
func (env *Env) Initial() *State { return env.initial.Clone() }

// frozenKey identifies an initial snapshot and the schema it is read
// with: the tasks of a domain share one, built once.
type frozenKey struct {
	initial *model.Entity
	n       int
	schema  *model.EntityType
}

// frozen is a built initial snapshot without its goal version: its
// chunks, index and hash, never written again.
type frozen struct {
	chunks []chunk
	n      int32
	index  *idIndex
	sum    Hash
}

var frozenCache sync.Map // frozenKey → *frozen

// shareFrom is the size from which an initial snapshot is shared: a
// domain's world, not a small synthetic task a fuzzer makes by the
// thousand.
const shareFrom = 1024

func (env *Env) buildInitial() (*State, error) {
	t := env.Task
	var key frozenKey
	if len(t.Initial) >= shareFrom && len(t.Schema.Types) > 0 {
		key = frozenKey{&t.Initial[0], len(t.Initial), &t.Schema.Types[0]}
		if f, ok := frozenCache.Load(key); ok {
			return env.fromFrozen(f.(*frozen)), nil
		}
	}
	s, err := env.build()
	if err != nil {
		return nil, err
	}
	if key.initial == nil {
		s.sum = s.sum.add(env.goalDigest(0))
		return s, nil
	}
	f := &frozen{chunks: s.chunks, n: s.n, index: s.index, sum: s.sum}
	frozenCache.Store(key, f)
	return env.fromFrozen(f), nil
}

// fromFrozen is the env's initial snapshot on a shared frozen one: the
// chunks and index shared, the counts its own.
func (env *Env) fromFrozen(f *frozen) *State {
	s := newState(env)
	s.chunks, s.owned, s.n = slices.Clone(f.chunks), make([]bool, len(f.chunks)), f.n
	s.index, s.sharedIndex, s.sum = f.index, true, f.sum
	if len(env.counts) > 0 {
		for i := range s.matches {
			s.matches[i] = make([]bool, s.n)
		}
		for slot := range s.n {
			s.recount(slot, ^uint64(0))
		}
	}
	s.sum = s.sum.add(env.goalDigest(0))
	return s
}

func (env *Env) build() (*State, error) {
	s := newState(env)
	s.index = newIndexFor(len(env.Task.Initial))
	most := 0
	for _, ti := range env.types {
		most = max(most, len(ti.fields))
	}
	vals := make([]model.Value, most)
	var b []byte
	for _, e := range env.Task.Initial {
		ti, ok := env.typeIdx[e.Type]
		if !ok {
			return nil, fmt.Errorf("task %s: initial entity %s %s: unknown type", env.Task.ID, e.Type, e.ID)
		}
		t := &env.types[ti]
		fields := vals[:len(t.fields)]
		clear(fields)
		next := 0 // entities keep their fields in the schema's order, or near it
		for _, a := range e.Fields {
			fi := next
			if fi >= len(t.fields) || t.fields[fi].Name != a.Field {
				if fi, ok = t.fieldIdx[a.Field]; !ok {
					return nil, fmt.Errorf("task %s: initial entity %s %s: unknown field %s", env.Task.ID, e.Type, e.ID, a.Field)
				}
			}
			fields[fi], next = a.Value, fi+1
		}
		h := s.index.hash(int32(ti), e.ID)
		if _, exists := s.index.findHashed(s, h, int32(ti), e.ID); exists {
			return nil, fmt.Errorf("task %s: initial entity %s %s appears twice", env.Task.ID, e.Type, e.ID)
		}
		b = env.appendHeader(b[:0], int32(ti), e.ID, !e.Deleted)
		fieldsAt := len(b)
		for _, v := range fields {
			b = appendValue(b, v)
		}
		s.placeInitial(int32(ti), h, fieldsAt, !e.Deleted, b)
	}
	return s, nil
}

// typeIndex is typeIdx[name]: a scan of a schema's few types, which a
// domain's tools name on every read, costs less than hashing the name.
// The last of a name is typeIdx's.
func (env *Env) typeIndex(name string) (int, bool) {
	if len(env.types) > 8 {
		i, ok := env.typeIdx[name]
		return i, ok
	}
	for i := len(env.types) - 1; i >= 0; i-- {
		if env.types[i].name == name {
			return i, true
		}
	}
	return 0, false
}

// fieldIndex is fieldIdx[name], scanned as typeIndex scans types.
func (t *typeInfo) fieldIndex(name string) (int, bool) {
	if len(t.fields) > 16 {
		i, ok := t.fieldIdx[name]
		return i, ok
	}
	for i := len(t.fields) - 1; i >= 0; i-- {
		if t.fields[i].Name == name {
			return i, true
		}
	}
	return 0, false
}

// TypeName and FieldName turn indices back into the schema's names.
func (env *Env) TypeName(t int) string { return env.types[t].name }

// FieldName names field f of type t; aliveField is model.AliveField.
func (env *Env) FieldName(t, f int) string {
	if f == aliveField {
		return model.AliveField
	}
	return env.types[t].fields[f].Name
}

// opBit is an op's bit in Env.ops; revise_goal and unknown ops have none.
func opBit(op model.Op) uint8 {
	switch op {
	case model.OpCreate:
		return 1
	case model.OpUpdate:
		return 2
	case model.OpDelete:
		return 4
	case model.OpRestore:
		return 8
	}
	return 0
}

// checkOp says why the agent may not use an op, or "".
func (env *Env) checkOp(op model.Op) string {
	b := opBit(op)
	switch {
	case op == model.OpReviseGoal:
		return "revise_goal is never an agent action"
	case b == 0:
		return fmt.Sprintf("unknown op %q (PB-CSTE has create, update, delete, restore, revise_goal)", op)
	case env.ops&b == 0:
		return fmt.Sprintf("op %s is not allowlisted for task %s", op, env.Task.ID)
	}
	return ""
}
