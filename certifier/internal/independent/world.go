package independent

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"sync"

	"github.com/parthack/parthack/model"
)

// lanes is a sha256 digest read as four big-endian uint64 lanes, or a
// lane-wise sum of such digests.
type lanes [4]uint64

func digestOf(b []byte) lanes {
	d := sha256.Sum256(b)
	var l lanes
	for i := range l {
		l[i] = binary.BigEndian.Uint64(d[8*i:])
	}
	return l
}

func (l *lanes) plus(d lanes) {
	for i := range l {
		l[i] += d[i]
	}
}

func (l *lanes) minus(d lanes) {
	for i := range l {
		l[i] -= d[i]
	}
}

func (l lanes) hex() string {
	out := make([]byte, 0, 32)
	for _, x := range l {
		out = binary.BigEndian.AppendUint64(out, x)
	}
	return hex.EncodeToString(out)
}

// schema is a task's schema with its names resolved once: replay finds a
// type or a field by its position, so an entity keeps its fields in a
// slice and no step looks a name up in a map.
type schema struct {
	types []*model.EntityType
}

func newSchema(s *model.Schema) *schema {
	sc := &schema{types: make([]*model.EntityType, len(s.Types))}
	for i := range s.Types {
		sc.types[i] = &s.Types[i]
	}
	return sc
}

// typeOf is the position of an entity type, -1 when the schema has none
// of that name. Schemas have a handful of types: a scan beats hashing.
func (sc *schema) typeOf(name string) int {
	for i, et := range sc.types {
		if et.Name == name {
			return i
		}
	}
	return -1
}

// fieldOf is the position of a field of type t, -1 when it has none.
func (sc *schema) fieldOf(t int, name string) int {
	for i := range sc.types[t].Fields {
		if sc.types[t].Fields[i].Name == name {
			return i
		}
	}
	return -1
}

// entity is one existing entity: alive, or tombstoned with its fields
// kept for restore.
type entity struct {
	typ    int
	id     string
	alive  bool
	fields []model.Value // by schema position; null when unset
	// digest is this entity's share of the world's sum as last hashed;
	// stale says it was written since, and is listed in world.stale.
	digest lanes
	stale  bool
	// shared marks an entity of the frozen initial snapshot, which every
	// world of the task reads: a world writes its own copy instead.
	shared bool
}

// value reads field f; null for a field the schema does not have.
func (e *entity) value(f int) model.Value {
	if f < 0 {
		return model.Null
	}
	return e.fields[f]
}

// frozen is a task's initial snapshot and its hash without the goal.
type frozen struct {
	sc   *schema
	ents []map[string]*entity // by type position, then id
	sum  lanes
}

// frozenKey identifies an initial snapshot: domain tasks share one.
type frozenKey struct {
	initial *model.Entity
	n       int
	schema  *model.EntityType
}

var frozenCache sync.Map // frozenKey → *frozen

// initialOf builds, or finds, the frozen initial snapshot of a task. A
// domain's world is large and shared by all its tasks, so it is built
// once; a small task's costs less to build than to look up safely.
func initialOf(task *model.Task) *frozen {
	var key frozenKey
	if len(task.Initial) >= 1024 && len(task.Schema.Types) > 0 { // a domain's world, not a fuzzer's task
		key = frozenKey{&task.Initial[0], len(task.Initial), &task.Schema.Types[0]}
		if f, ok := frozenCache.Load(key); ok {
			return f.(*frozen)
		}
	}
	sc := newSchema(&task.Schema)
	f := &frozen{sc: sc, ents: make([]map[string]*entity, len(sc.types))}
	// The entities, their fields and the maps are sized first and made
	// from one slab each: a domain's 13,000 entities cost a few
	// allocations, not two each and the maps' growing.
	per, nfields := make([]int, len(sc.types)), 0
	for _, in := range task.Initial {
		if t := sc.typeOf(in.Type); t >= 0 {
			per[t]++
			nfields += len(sc.types[t].Fields)
		}
	}
	for t := range f.ents {
		f.ents[t] = make(map[string]*entity, per[t])
	}
	ents, values := make([]entity, 0, len(task.Initial)), make([]model.Value, nfields)
	var buf []byte
	for _, in := range task.Initial {
		t := sc.typeOf(in.Type)
		if t < 0 {
			continue // the decoder admits no such entity; nothing could read it
		}
		n := len(sc.types[t].Fields)
		ents = append(ents, entity{typ: t, id: in.ID, alive: !in.Deleted, fields: values[:n:n], shared: true})
		e := &ents[len(ents)-1]
		values = values[n:]
		next := 0 // fields mostly come in the schema's order
		for _, a := range in.Fields {
			fi := next
			if fi >= n || sc.types[t].Fields[fi].Name != a.Field {
				fi = sc.fieldOf(t, a.Field)
			}
			if fi >= 0 {
				e.fields[fi], next = a.Value, fi+1
			}
		}
		buf = encodeEntity(buf[:0], sc, e)
		e.digest = digestOf(buf)
		if old := f.ents[t][in.ID]; old != nil {
			f.sum.minus(old.digest)
		}
		f.ents[t][in.ID] = e
		f.sum.plus(e.digest)
	}
	if key.initial != nil {
		frozenCache.Store(key, f)
	}
	return f
}

// world is the certifier's state: the entities this replay has written,
// by type position and id, over the task's frozen initial snapshot, and
// the active goal version. A replay costs what it changes, not the
// snapshot's size.
//
// The state hash is the lane-wise sum mod 2^64 of one sha256 per existing
// entity and one for the active goal version. It is kept incrementally
// but lazily: a write only marks its entity stale, and hash rehashes the
// stale entities when a claim or the certificate asks for the hash, so a
// long trajectory pays one sha256 per entity it wrote, not per event.
type world struct {
	task  *model.Task
	sc    *schema
	base  *frozen
	ents  []map[string]*entity // written entities; nil maps until a type is written
	goal  string
	sum   lanes     // the entities' digests as last hashed
	stale []*entity // entities written since they were last hashed
	buf   []byte    // scratch for entity encodings
	// last is the entity get found last, (lastTyp, lastID): an event
	// looks its entity up to write it, and to hold it before and after,
	// and in a large world each lookup is a few misses to memory.
	last    *entity
	lastTyp int
	lastID  string
}

// newWorld starts from the task's frozen initial snapshot.
func newWorld(task *model.Task) *world {
	base := initialOf(task)
	w := &world{task: task, sc: base.sc, base: base, ents: make([]map[string]*entity, len(base.sc.types)), sum: base.sum}
	if len(task.Goals) > 0 {
		w.goal = task.Goals[0].Version
	}
	return w
}

// get finds an entity, alive or tombstoned; nil when it never existed.
func (w *world) get(t int, id string) *entity {
	if w.last != nil && w.lastTyp == t && w.lastID == id {
		return w.last
	}
	e := w.ents[t][id]
	if e == nil {
		e = w.base.ents[t][id]
	}
	if e != nil {
		w.last, w.lastTyp, w.lastID = e, t, id
	}
	return e
}

// find is get by type name.
func (w *world) find(typ, id string) *entity {
	if t := w.sc.typeOf(typ); t >= 0 {
		return w.get(t, id)
	}
	return nil
}

// isAlive reports whether (typ, id) exists and is not deleted.
func (w *world) isAlive(typ, id string) bool {
	e := w.find(typ, id)
	return e != nil && e.alive
}

// each visits every entity of type t, written or initial.
func (w *world) each(t int, visit func(e *entity)) {
	for _, e := range w.ents[t] {
		visit(e)
	}
	for id, e := range w.base.ents[t] {
		if _, written := w.ents[t][id]; !written {
			visit(e)
		}
	}
}

// own returns the entity (t, id) this world may write, cur being what it
// reads there now: cur itself when this world made it, else a copy of
// cur (or a new, not yet existing entity) put in its place.
func (w *world) own(t int, id string, cur *entity) *entity {
	if cur != nil && !cur.shared {
		return cur
	}
	e := &entity{typ: t, id: id}
	if cur != nil {
		e.alive, e.fields, e.digest = cur.alive, append([]model.Value(nil), cur.fields...), cur.digest
	} else {
		e.fields = make([]model.Value, len(w.sc.types[t].Fields))
	}
	if w.ents[t] == nil {
		w.ents[t] = map[string]*entity{}
	}
	w.ents[t][id] = e
	w.last, w.lastTyp, w.lastID = e, t, id
	return e
}

// touch marks a written entity for rehashing.
func (w *world) touch(e *entity) {
	if !e.stale {
		e.stale = true
		w.stale = append(w.stale, e)
	}
}

// hash brings the sum up to date and returns the state hash. An entity a
// tool call's undo took out of the world is no longer in it and is
// skipped: its digest was never added.
func (w *world) hash() string {
	for _, e := range w.stale {
		e.stale = false
		if w.ents[e.typ][e.id] != e {
			continue
		}
		w.sum.minus(e.digest)
		w.buf = encodeEntity(w.buf[:0], w.sc, e)
		e.digest = digestOf(w.buf)
		w.sum.plus(e.digest)
	}
	w.stale = w.stale[:0]
	sum := w.sum
	sum.plus(goalDigest(w.goal))
	return sum.hex()
}

func goalDigest(version string) lanes { return digestOf([]byte("goal\x00" + version)) }

// encodeEntity appends type, 0, id, 0, the alive byte, then every schema
// field in declaration order as kind byte and payload.
func encodeEntity(b []byte, sc *schema, e *entity) []byte {
	b = append(b, sc.types[e.typ].Name...)
	b = append(b, 0)
	b = append(b, e.id...)
	b = append(b, 0)
	if e.alive {
		b = append(b, 1)
	} else {
		b = append(b, 0)
	}
	for _, v := range e.fields {
		b = encodeValue(b, v)
	}
	return b
}

// encodeValue writes a value's kind byte and payload, length-prefixed so
// that no two values share an encoding: string as uvarint length and
// bytes, int as zigzag varint, bool as one byte, list as uvarint count
// then each element as a string, null as nothing.
func encodeValue(b []byte, v model.Value) []byte {
	b = append(b, byte(v.Kind()))
	switch v.Kind() {
	case model.StringValue, model.JSONValue:
		return appendBytes(b, v.AsString())
	case model.IntValue:
		return binary.AppendVarint(b, v.AsInt())
	case model.BoolValue:
		if v.AsBool() {
			return append(b, 1)
		}
		return append(b, 0)
	case model.ListValue:
		b = binary.AppendUvarint(b, uint64(len(v.AsList())))
		for _, s := range v.AsList() {
			b = appendBytes(b, s)
		}
	}
	return b
}

func appendBytes(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

// refusal says why a write or an event failed; the zero refusal is none.
// It is formatted only when read: a long trajectory may fail many of its
// steps, and only the reason of Rollback's first failed appended step is
// ever shown, so a failure costs no allocation.
type refusal struct {
	format string
	args   [4]string
	n      int
}

// refuse is a refusal of format, whose operands are all strings.
func refuse(format string, args ...string) refusal {
	r := refusal{format: format}
	r.n = copy(r.args[:], args)
	return r
}

// failed reports whether there is a refusal at all.
func (r refusal) failed() bool { return r.format != "" }

func (r refusal) String() string {
	a := make([]any, r.n)
	for i := range a {
		a[i] = r.args[i]
	}
	return fmt.Sprintf(r.format, a...)
}

// apply carries out one primitive write (create, update, delete, restore
// or revise_goal). It checks everything first and changes the world only
// once the write is known to succeed, so a refusal leaves the world
// untouched. diff, when not nil, receives the changed
// cells: for create the alive flag then the fields in declaration order,
// for update the written fields in the order written.
func (w *world) apply(a *model.Action, diff *[]model.CellDiff) refusal {
	switch a.Op {
	case model.OpReviseGoal:
		return w.revise(a.Goal, diff)
	case model.OpCreate, model.OpUpdate, model.OpDelete, model.OpRestore:
	default:
		return refuse("op %q does not exist", string(a.Op))
	}
	t := w.sc.typeOf(a.Type)
	if t < 0 {
		return refuse("type %q is not in the schema", a.Type)
	}
	cur := w.get(t, a.ID)
	if a.Op == model.OpDelete || a.Op == model.OpRestore {
		return w.toggle(a, t, cur, diff)
	}
	if a.Op == model.OpCreate && cur != nil && cur.alive {
		return refuse("create %s/%s: an alive entity has that id", a.Type, a.ID)
	}
	if a.Op == model.OpUpdate && (cur == nil || !cur.alive) {
		return refuse("update %s/%s: no alive entity has that id", a.Type, a.ID)
	}
	if why := w.checkFields(a, t); why.failed() {
		return why
	}
	if a.Op == model.OpUpdate {
		w.update(a, t, cur, diff)
	} else {
		w.create(a, t, cur, diff)
	}
	return refusal{}
}

// revise makes version the active goal; a version the task lacks is refused.
func (w *world) revise(version string, diff *[]model.CellDiff) refusal {
	if _, ok := w.task.Goal(version); !ok {
		return refuse("revise_goal: the task has no goal version %q", version)
	}
	if version == w.goal {
		return refusal{}
	}
	if diff != nil {
		*diff = append(*diff, model.CellDiff{Field: model.GoalField, Before: model.Str(w.goal), After: model.Str(version)})
	}
	w.goal = version
	return refusal{}
}

// toggle deletes or restores an entity.
func (w *world) toggle(a *model.Action, t int, cur *entity, diff *[]model.CellDiff) refusal {
	switch {
	case len(a.Fields) != 0:
		return refuse("%s writes no fields", string(a.Op))
	case cur == nil:
		return refuse("%s %s/%s: never existed", string(a.Op), a.Type, a.ID)
	case a.Op == model.OpDelete && !cur.alive:
		return refuse("delete %s/%s: already tombstoned", a.Type, a.ID)
	case a.Op == model.OpRestore && cur.alive:
		return refuse("restore %s/%s: alive, nothing to restore", a.Type, a.ID)
	}
	e := w.own(t, a.ID, cur)
	e.alive = !e.alive
	w.touch(e)
	if diff != nil {
		*diff = append(*diff, aliveCell(a.Type, a.ID, model.Bool(!e.alive), model.Bool(e.alive)))
	}
	return refusal{}
}

// checkFields checks a create's or update's writes: fields of the type,
// each written once, values of the field's kind, references to alive
// entities.
func (w *world) checkFields(a *model.Action, t int) refusal {
	et := w.sc.types[t]
	for i, as := range a.Fields {
		fi := w.sc.fieldOf(t, as.Field)
		if fi < 0 {
			return refuse("%s has no field %q", a.Type, as.Field)
		}
		for _, prev := range a.Fields[:i] {
			if prev.Field == as.Field {
				return refuse("%s: one action writes field %s twice", string(a.Op), as.Field)
			}
		}
		fd := &et.Fields[fi]
		if bad := model.CheckValue(fd, as.Value); bad != "" {
			return refuse("%s", bad)
		}
		if fd.Kind == model.KindRef && !as.Value.IsNull() && !w.isAlive(fd.Target, as.Value.AsString()) {
			return refuse("%s.%s: %s %q is not alive", a.Type, as.Field, fd.Target, as.Value.AsString())
		}
	}
	return refusal{}
}

// update writes the fields of an alive entity; writing a field's own
// value changes nothing.
func (w *world) update(a *model.Action, t int, cur *entity, diff *[]model.CellDiff) {
	var e *entity
	for _, as := range a.Fields {
		fi := w.sc.fieldOf(t, as.Field)
		old := cur.fields[fi]
		if old.Equal(as.Value) {
			continue
		}
		if e == nil {
			e = w.own(t, a.ID, cur)
			w.touch(e)
		}
		e.fields[fi] = as.Value
		if diff != nil {
			*diff = append(*diff, model.CellDiff{Type: a.Type, ID: a.ID, Field: as.Field, Before: old, After: as.Value})
		}
	}
}

// create makes an entity alive with the written fields, the others null.
// A create on a tombstone is a recreation: a new incarnation, diffed
// against the old one.
func (w *world) create(a *model.Action, t int, cur *entity, diff *[]model.CellDiff) {
	e := w.own(t, a.ID, cur)
	if diff != nil {
		before := model.Null
		if cur != nil {
			before = model.Bool(false)
		}
		*diff = append(*diff, aliveCell(a.Type, a.ID, before, model.Bool(true)))
	}
	var old []model.Value // the old incarnation's fields, for the diff only
	if diff != nil {
		old = append(old, e.fields...)
	}
	clear(e.fields)
	for _, as := range a.Fields {
		e.fields[w.sc.fieldOf(t, as.Field)] = as.Value
	}
	e.alive = true
	w.touch(e)
	if diff != nil {
		for fi, fd := range w.sc.types[t].Fields {
			if !old[fi].Equal(e.fields[fi]) {
				*diff = append(*diff, model.CellDiff{Type: a.Type, ID: a.ID, Field: fd.Name, Before: old[fi], After: e.fields[fi]})
			}
		}
	}
}

// aliveCell is the diff of an entity's alive flag.
func aliveCell(typ, id string, before, after model.Value) model.CellDiff {
	return model.CellDiff{Type: typ, ID: id, Field: model.AliveField, Before: before, After: after}
}
