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

// entity is one existing entity: alive, or tombstoned with its fields
// kept for restore. A field missing from the map reads as null.
type entity struct {
	alive  bool
	fields map[string]model.Value
	digest lanes // this entity's share of the state hash, when hashing
	// owner is the world that made this entity for its own writes: that
	// world may change it in place, as no other world and no undo record
	// holds it. Entities of the frozen initial snapshot have none.
	owner *world
}

// world is the naive state: entities by type, then id, and the active
// goal version. Entities the run has written live in ents; the others are
// read from the task's frozen initial snapshot, built once per task and
// shared, so a replay costs what it changes, not the world's size. A
// write puts a new entity in ents, or changes in place one this world
// made itself, except during a tool call, whose undo keeps the entities
// from before its first write. With
// hashing on the world also keeps the state hash, the lane-wise sum mod
// 2^64 of one sha256 per existing entity and one for the active goal
// version.
type world struct {
	task    *model.Task
	base    *frozen
	ents    map[string]map[string]*entity
	goal    string
	hashing bool
	sum     lanes
	inCall  bool // applying a tool call's writes: copy, never change in place
}

// frozen is a task's initial snapshot and its hash without the goal.
type frozen struct {
	ents map[string]map[string]*entity
	sum  lanes
}

// frozenKey identifies an initial snapshot: domain tasks share one.
type frozenKey struct {
	initial *model.Entity
	n       int
	schema  *model.EntityType
}

var frozenCache sync.Map // frozenKey → *frozen

// initialOf builds, or finds, the frozen initial snapshot of a task.
func initialOf(task *model.Task) *frozen {
	var key frozenKey
	if len(task.Initial) >= 1024 && len(task.Schema.Types) > 0 { // a domain's world, not a fuzzer's task
		key = frozenKey{&task.Initial[0], len(task.Initial), &task.Schema.Types[0]}
		if f, ok := frozenCache.Load(key); ok {
			return f.(*frozen)
		}
	}
	w := &world{task: task, base: &frozen{}, ents: map[string]map[string]*entity{}, hashing: true}
	for _, e := range task.Initial {
		fields := make(map[string]model.Value, len(e.Fields))
		for _, a := range e.Fields {
			fields[a.Field] = a.Value
		}
		w.put(e.Type, e.ID, &entity{alive: !e.Deleted, fields: fields})
	}
	f := &frozen{ents: w.ents, sum: w.sum}
	if key.initial != nil {
		frozenCache.Store(key, f)
	}
	return f
}

// newWorld starts from the task's frozen initial snapshot.
func newWorld(task *model.Task, hashing bool) *world {
	base := initialOf(task)
	w := &world{task: task, base: base, ents: map[string]map[string]*entity{}, hashing: hashing}
	if len(task.Goals) > 0 {
		w.goal = task.Goals[0].Version
	}
	if hashing {
		w.sum = base.sum
		w.sum.plus(goalDigest(w.goal))
	}
	return w
}

// put stores an entity under (typ, id), replacing any earlier one.
func (w *world) put(typ, id string, e *entity) {
	if old := w.get(typ, id); old != nil && w.hashing {
		w.sum.minus(old.digest)
	}
	byID := w.ents[typ]
	if byID == nil {
		byID = map[string]*entity{}
		w.ents[typ] = byID
	}
	byID[id] = e
	w.rehash(typ, id, e)
}

// each visits every entity of a type, written or initial.
func (w *world) each(typ string, visit func(id string, e *entity)) {
	for id, e := range w.ents[typ] {
		visit(id, e)
	}
	for id, e := range w.base.ents[typ] {
		if _, written := w.ents[typ][id]; !written {
			visit(id, e)
		}
	}
}

// types lists the entity types that have entities.
func (w *world) types() []string {
	var out []string
	for _, et := range w.task.Schema.Types {
		if len(w.ents[et.Name]) > 0 || len(w.base.ents[et.Name]) > 0 {
			out = append(out, et.Name)
		}
	}
	return out
}

// rehash refreshes an entity's share of the state hash after a change.
func (w *world) rehash(typ, id string, e *entity) {
	if !w.hashing {
		return
	}
	w.sum.minus(e.digest)
	e.digest = w.entityDigest(typ, id, e)
	w.sum.plus(e.digest)
}

// entityDigest hashes type, 0, id, 0, the alive byte, then every schema
// field in declaration order as kind byte and payload.
func (w *world) entityDigest(typ, id string, e *entity) lanes {
	b := make([]byte, 0, 64)
	b = append(b, typ...)
	b = append(b, 0)
	b = append(b, id...)
	b = append(b, 0)
	if e.alive {
		b = append(b, 1)
	} else {
		b = append(b, 0)
	}
	if et, ok := w.task.Schema.Type(typ); ok {
		for _, fd := range et.Fields {
			b = encodeValue(b, e.fields[fd.Name])
		}
	}
	return digestOf(b)
}

func goalDigest(version string) lanes { return digestOf([]byte("goal\x00" + version)) }

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

// get finds an entity, alive or tombstoned; nil when it never existed.
func (w *world) get(typ, id string) *entity {
	if e := w.ents[typ][id]; e != nil {
		return e
	}
	return w.base.ents[typ][id]
}

// copyOf is a fresh entity with e's alive flag and fields, to be changed
// and put in e's place.
func (w *world) copyOf(e *entity) *entity {
	c := &entity{owner: w, alive: e.alive, fields: make(map[string]model.Value, len(e.fields))}
	for k, v := range e.fields {
		c.fields[k] = v
	}
	return c
}

// writable reports whether e may be changed in place: this world made
// it, and no tool call's undo holds it.
func (w *world) writable(e *entity) bool { return e.owner == w && !w.inCall }

// isAlive reports whether (typ, id) exists and is not deleted.
func (w *world) isAlive(typ, id string) bool {
	e := w.get(typ, id)
	return e != nil && e.alive
}

// apply carries out one action. It checks everything first and mutates
// only once the action is known to succeed, so a failure (non-empty
// reason) leaves the world untouched. The diff lists changed cells only:
// for create the alive flag then the fields in declaration order, for
// update the written fields in the order written.
func (w *world) apply(a *model.Action) ([]model.CellDiff, string) {
	switch a.Op {
	case model.OpReviseGoal:
		if _, ok := w.task.Goal(a.Goal); !ok {
			return nil, fmt.Sprintf("revise_goal: the task has no goal version %q", a.Goal)
		}
		if a.Goal == w.goal {
			return nil, ""
		}
		d := model.CellDiff{Field: model.GoalField, Before: model.Str(w.goal), After: model.Str(a.Goal)}
		if w.hashing {
			w.sum.minus(goalDigest(w.goal))
			w.sum.plus(goalDigest(a.Goal))
		}
		w.goal = a.Goal
		return []model.CellDiff{d}, ""
	case model.OpCall:
		return w.call(a)
	case model.OpCreate, model.OpUpdate, model.OpDelete, model.OpRestore:
	default:
		return nil, fmt.Sprintf("op %q does not exist", a.Op)
	}
	et, ok := w.task.Schema.Type(a.Type)
	if !ok {
		return nil, fmt.Sprintf("type %q is not in the schema", a.Type)
	}
	cur := w.get(a.Type, a.ID)
	if a.Op == model.OpDelete || a.Op == model.OpRestore {
		switch {
		case len(a.Fields) != 0:
			return nil, fmt.Sprintf("%s writes no fields", a.Op)
		case cur == nil:
			return nil, fmt.Sprintf("%s %s/%s: never existed", a.Op, a.Type, a.ID)
		case a.Op == model.OpDelete && !cur.alive:
			return nil, fmt.Sprintf("delete %s/%s: already tombstoned", a.Type, a.ID)
		case a.Op == model.OpRestore && cur.alive:
			return nil, fmt.Sprintf("restore %s/%s: alive, nothing to restore", a.Type, a.ID)
		}
		if w.writable(cur) {
			cur.alive = !cur.alive
			w.rehash(a.Type, a.ID, cur)
		} else {
			cur = w.copyOf(cur)
			cur.alive = !cur.alive
			w.put(a.Type, a.ID, cur)
		}
		return []model.CellDiff{aliveCell(a.Type, a.ID, model.Bool(!cur.alive), model.Bool(cur.alive))}, ""
	}
	if a.Op == model.OpCreate && cur != nil && cur.alive {
		return nil, fmt.Sprintf("create %s/%s: an alive entity has that id", a.Type, a.ID)
	}
	if a.Op == model.OpUpdate && (cur == nil || !cur.alive) {
		return nil, fmt.Sprintf("update %s/%s: no alive entity has that id", a.Type, a.ID)
	}
	for i, as := range a.Fields {
		fd, ok := et.Field(as.Field)
		if !ok {
			return nil, fmt.Sprintf("%s has no field %q", a.Type, as.Field)
		}
		for _, prev := range a.Fields[:i] {
			if prev.Field == as.Field {
				return nil, fmt.Sprintf("%s: one action writes field %s twice", a.Op, as.Field)
			}
		}
		if bad := model.CheckValue(fd, as.Value); bad != "" {
			return nil, bad
		}
		if fd.Kind == model.KindRef && !as.Value.IsNull() && !w.isAlive(fd.Target, as.Value.AsString()) {
			return nil, fmt.Sprintf("%s.%s: %s %q is not alive", a.Type, as.Field, fd.Target, as.Value.AsString())
		}
	}
	var diff []model.CellDiff
	if a.Op == model.OpUpdate {
		inPlace := w.writable(cur)
		if !inPlace {
			cur = w.copyOf(cur)
		}
		for _, as := range a.Fields {
			if old := cur.fields[as.Field]; !old.Equal(as.Value) {
				diff = append(diff, model.CellDiff{Type: a.Type, ID: a.ID, Field: as.Field, Before: old, After: as.Value})
				cur.fields[as.Field] = as.Value
			}
		}
		switch {
		case len(diff) == 0:
		case inPlace:
			w.rehash(a.Type, a.ID, cur)
		default:
			w.put(a.Type, a.ID, cur)
		}
		return diff, ""
	}
	// A create on a tombstone is a recreation: a new incarnation whose
	// unwritten fields are null, diffed against the old one.
	fresh := &entity{owner: w, alive: true, fields: make(map[string]model.Value, len(a.Fields))}
	for _, as := range a.Fields {
		fresh.fields[as.Field] = as.Value
	}
	before, old := model.Null, map[string]model.Value(nil)
	if cur != nil {
		before, old = model.Bool(false), cur.fields
	}
	diff = append(diff, aliveCell(a.Type, a.ID, before, model.Bool(true)))
	for _, fd := range et.Fields {
		if v := fresh.fields[fd.Name]; !old[fd.Name].Equal(v) {
			diff = append(diff, model.CellDiff{Type: a.Type, ID: a.ID, Field: fd.Name, Before: old[fd.Name], After: v})
		}
	}
	w.put(a.Type, a.ID, fresh)
	return diff, ""
}

// aliveCell is the diff of an entity's alive flag.
func aliveCell(typ, id string, before, after model.Value) model.CellDiff {
	return model.CellDiff{Type: typ, ID: id, Field: model.AliveField, Before: before, After: after}
}
