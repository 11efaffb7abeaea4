package pbcste

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"

	"github.com/parthack/parthack/model"
)

// Hash is a state hash: the lane-wise sum modulo 2^64 of the sha256 of
// every existing entity and of the active goal version (a multiset hash).
// Changing one entity changes the sum by two digests, so hashing after
// every step costs the same whatever the state's size.
type Hash [4]uint64

func (h Hash) add(d Hash) Hash {
	return Hash{h[0] + d[0], h[1] + d[1], h[2] + d[2], h[3] + d[3]}
}

func (h Hash) sub(d Hash) Hash {
	return Hash{h[0] - d[0], h[1] - d[1], h[2] - d[2], h[3] - d[3]}
}

// String is the hash in hex, the form claims and logs use.
func (h Hash) String() string {
	var b [32]byte
	for i, x := range h {
		binary.BigEndian.PutUint64(b[8*i:], x)
	}
	return hex.EncodeToString(b[:])
}

func digest(b []byte) Hash {
	sum := sha256.Sum256(b)
	return Hash{
		binary.BigEndian.Uint64(sum[0:]), binary.BigEndian.Uint64(sum[8:]),
		binary.BigEndian.Uint64(sum[16:]), binary.BigEndian.Uint64(sum[24:]),
	}
}

func (env *Env) goalDigest(g int) Hash {
	return digest([]byte("goal\x00" + env.goals[g].Version))
}

// entity is one slot of the state. A slot is never reused for another
// (type, id): deletion tombstones it and keeps the fields for restore.
type entity struct {
	typ    int
	id     string
	exists bool // false only in snapshots from before its creation
	alive  bool
	own    bool // fields is this slot's own, not shared with another state
	fields []model.Value
	digest Hash
}

type entKey struct {
	typ int
	id  string
}

// Slots live in fixed-size chunks shared between a state and its clones
// until one of them writes: cloning costs the number of chunks, not of
// entities, so a replay or a search node on a 13,000-record database
// copies only what it changes.
const (
	chunkBits = 7
	chunkSize = 1 << chunkBits
	chunkMask = chunkSize - 1
)

type chunk [chunkSize]entity

// State is one snapshot of the world: entities by (type, id), the active
// goal version, and the running state hash.
type State struct {
	env    *Env
	chunks []*chunk
	owned  []bool // owned[c]: chunks[c] is this state's alone
	n      int32  // slots in use
	index  map[entKey]int32
	// sharedIndex marks an index other states also hold (see Clone): it
	// is never changed again, and slots added later go to added.
	sharedIndex bool
	added       map[entKey]int32
	goal        int
	sum         Hash
	counts      []int64  // per count expression: matching alive entities
	matches     [][]bool // per count expression, per slot: does it match now
	scratch     []byte
}

func newState(env *Env) *State {
	s := &State{env: env, index: map[entKey]int32{}}
	s.counts = make([]int64, len(env.counts))
	s.matches = make([][]bool, len(env.counts))
	return s
}

// ent reads a slot.
func (s *State) ent(slot int32) *entity { return &s.chunks[slot>>chunkBits][slot&chunkMask] }

// mut is a slot to write: its chunk and its fields copied first when
// another state shares them.
func (s *State) mut(slot int32) *entity {
	c := slot >> chunkBits
	if !s.owned[c] {
		cp := *s.chunks[c]
		for i := range cp {
			cp[i].own = false
		}
		s.chunks[c], s.owned[c] = &cp, true
	}
	e := &s.chunks[c][slot&chunkMask]
	if !e.own {
		e.fields = slices.Clone(e.fields)
		e.own = true
	}
	return e
}

// slots is the number of slots in use.
func (s *State) slots() int32 { return s.n }

// Clone copies a state; the two share their chunks until either writes.
func (s *State) Clone() *State {
	c := &State{env: s.env, goal: s.goal, sum: s.sum, index: s.index, sharedIndex: true, n: s.n}
	if !s.sharedIndex { // a read, not a write, for the frozen initial snapshot that goroutines share
		s.sharedIndex = true
	}
	c.chunks = slices.Clone(s.chunks)
	c.owned = make([]bool, len(s.chunks))
	for i := range s.owned {
		if s.owned[i] {
			s.owned[i] = false
		}
	}
	if len(s.added) > 0 {
		c.added = maps.Clone(s.added)
	}
	c.counts = append([]int64(nil), s.counts...)
	c.matches = make([][]bool, len(s.matches))
	for i, m := range s.matches {
		c.matches[i] = append([]bool(nil), m...)
	}
	return c
}

// Hash is the state hash.
func (s *State) Hash() Hash { return s.sum }

// Goal is the index of the active goal version.
func (s *State) Goal() int { return s.goal }

// GoalVersion names the active goal version.
func (s *State) GoalVersion() string { return s.env.goals[s.goal].Version }

// slotOf finds the slot of (typ, id), existing or future.
func (s *State) slotOf(k entKey) (int32, bool) {
	if slot, ok := s.index[k]; ok {
		return slot, true
	}
	slot, ok := s.added[k]
	return slot, ok
}

func (s *State) lookup(typ int, id string) (int32, bool) {
	slot, ok := s.slotOf(entKey{typ, id})
	return slot, ok && s.ent(slot).exists
}

// newSlot appends an empty slot for (typ, id).
func (s *State) newSlot(typ int, id string) int32 {
	slot := s.n
	if int(slot)>>chunkBits == len(s.chunks) {
		s.chunks = append(s.chunks, new(chunk))
		s.owned = append(s.owned, true)
	}
	s.n++
	k := entKey{typ, id}
	if s.sharedIndex {
		if s.added == nil {
			s.added = map[entKey]int32{}
		}
		s.added[k] = slot
	} else {
		s.index[k] = slot
	}
	e := s.mut(slot)
	*e = entity{typ: typ, id: id, own: true}
	for i := range s.matches {
		s.matches[i] = append(s.matches[i], false)
	}
	return slot
}

// place adds a new slot, or fills one that a snapshot knew only as future.
func (s *State) place(typ int, id string, alive bool, fields []model.Value) int32 {
	slot, known := s.slotOf(entKey{typ, id})
	if !known {
		slot = s.newSlot(typ, id)
	}
	e := s.mut(slot)
	e.exists, e.alive, e.fields = true, alive, fields
	s.rehash(slot)
	s.recount(slot)
	return slot
}

// rehash replaces a slot's digest in the running sum.
func (s *State) rehash(slot int32) {
	e := s.mut(slot)
	s.sum = s.sum.sub(e.digest)
	if !e.exists {
		e.digest = Hash{}
		return
	}
	b := append(s.scratch[:0], s.env.types[e.typ].name...)
	b = append(b, 0)
	b = append(b, e.id...)
	b = append(b, 0)
	if e.alive {
		b = append(b, 1)
	} else {
		b = append(b, 0)
	}
	for _, v := range e.fields {
		b = appendValue(b, v)
	}
	s.scratch = b
	e.digest = digest(b)
	s.sum = s.sum.add(e.digest)
}

// appendValue is the unambiguous binary form of a value for hashing.
func appendValue(b []byte, v model.Value) []byte {
	b = append(b, byte(v.Kind()))
	switch v.Kind() {
	case model.StringValue, model.JSONValue:
		b = binary.AppendUvarint(b, uint64(len(v.AsString())))
		b = append(b, v.AsString()...)
	case model.IntValue:
		b = binary.AppendVarint(b, v.AsInt())
	case model.BoolValue:
		if v.AsBool() {
			b = append(b, 1)
		} else {
			b = append(b, 0)
		}
	case model.ListValue:
		b = binary.AppendUvarint(b, uint64(len(v.AsList())))
		for _, x := range v.AsList() {
			b = binary.AppendUvarint(b, uint64(len(x)))
			b = append(b, x...)
		}
	}
	return b
}

// recount refreshes a slot's membership in every count expression.
func (s *State) recount(slot int32) {
	e := s.ent(slot)
	for ci, ce := range s.env.counts {
		if ce.Type() != e.typ {
			continue
		}
		now := e.exists && e.alive && ce.Matches(e.fields)
		if now != s.matches[ci][slot] {
			s.matches[ci][slot] = now
			if now {
				s.counts[ci]++
			} else {
				s.counts[ci]--
			}
		}
	}
}

// Change is one cell change of an event: a field of an entity slot, the
// slot's alive flag (Field == -1), or the goal version (Slot == -1).
type Change struct {
	Slot   int32
	Field  int16
	Before model.Value
	After  model.Value
}

// apply carries out an action on the state. It either succeeds, changing
// the state and returning the changes, or fails with a reason and leaves
// the state exactly as it was. For the agent it first enforces the
// allowlist (op, type, the op on that type, every written field); a refusal there is illegal,
// not merely failed.
func (s *State) apply(a *model.Action, diff []Change, agent bool) ([]Change, string, bool) {
	env := s.env
	if agent {
		if why := env.checkOp(a.Op); why != "" {
			return diff, why, true
		}
	}
	if a.Op == model.OpReviseGoal {
		g, ok := env.GoalIndex(a.Goal)
		if !ok {
			return diff, fmt.Sprintf("no goal version %q", a.Goal), false
		}
		if g == s.goal {
			return diff, "", false
		}
		diff = append(diff, Change{Slot: -1, Field: -1, Before: model.Str(s.GoalVersion()), After: model.Str(env.goals[g].Version)})
		s.sum = s.sum.sub(env.goalDigest(s.goal)).add(env.goalDigest(g))
		s.goal = g
		return diff, "", false
	}
	if opBit(a.Op) == 0 {
		return diff, fmt.Sprintf("unknown op %q", a.Op), false
	}
	ti, ok := env.typeIdx[a.Type]
	if !ok {
		return diff, fmt.Sprintf("unknown entity type %q", a.Type), agent
	}
	t := &env.types[ti]
	if agent && !t.allowed {
		return diff, fmt.Sprintf("entity type %s is not allowlisted for task %s", a.Type, env.Task.ID), true
	}
	if agent && t.ops&opBit(a.Op) == 0 {
		return diff, fmt.Sprintf("op %s is not allowlisted on entity type %s for task %s", a.Op, a.Type, env.Task.ID), true
	}
	var idxBuf [8]int
	idx := idxBuf[:0] // field indices, resolved once for checking and writing
	for _, f := range a.Fields {
		fi, ok := t.fieldIdx[f.Field]
		if !ok {
			return diff, fmt.Sprintf("entity type %s has no field %q", a.Type, f.Field), agent
		}
		if agent && t.writable&(1<<uint(fi)) == 0 {
			return diff, fmt.Sprintf("field %s.%s is not allowlisted for task %s", a.Type, f.Field, env.Task.ID), true
		}
		idx = append(idx, fi)
	}
	slot, exists := s.lookup(ti, a.ID)
	alive := exists && s.ent(slot).alive
	switch a.Op {
	case model.OpCreate, model.OpUpdate:
		if a.Op == model.OpCreate && alive {
			return diff, "create " + a.Type + " " + a.ID + ": it already exists", false
		}
		if a.Op == model.OpUpdate && !alive {
			if exists {
				return diff, "update " + a.Type + " " + a.ID + ": it is deleted", false
			}
			return diff, "update " + a.Type + " " + a.ID + ": no such entity", false
		}
		for i, f := range a.Fields {
			fi := idx[i]
			for _, g := range a.Fields[:i] {
				if g.Field == f.Field {
					return diff, fmt.Sprintf("field %s written twice", f.Field), false
				}
			}
			fd := &t.fields[fi]
			if msg := model.CheckValue(fd, f.Value); msg != "" {
				return diff, msg, false
			}
			if fd.Kind == model.KindRef && !f.Value.IsNull() {
				if r, ok := s.lookup(env.typeIdx[fd.Target], f.Value.AsString()); !ok || !s.ent(r).alive {
					return diff, fmt.Sprintf("field %s: no alive %s %q to reference", fd.Name, fd.Target, f.Value.AsString()), false
				}
			}
		}
		if a.Op == model.OpCreate {
			vals := make([]model.Value, len(t.fields))
			for i, f := range a.Fields {
				vals[idx[i]] = f.Value
			}
			before := model.Null
			var old []model.Value
			if exists {
				before, old = model.Bool(false), s.ent(slot).fields
			}
			slot = s.place(ti, a.ID, true, vals)
			diff = append(diff, Change{Slot: slot, Field: aliveField, Before: before, After: model.Bool(true)})
			for fi, v := range vals {
				prev := model.Null
				if old != nil {
					prev = old[fi]
				}
				if !prev.Equal(v) {
					diff = append(diff, Change{Slot: slot, Field: int16(fi), Before: prev, After: v})
				}
			}
			return diff, "", false
		}
		e := s.ent(slot)
		n := len(diff)
		for i, f := range a.Fields {
			fi := idx[i]
			if !e.fields[fi].Equal(f.Value) {
				diff = append(diff, Change{Slot: slot, Field: int16(fi), Before: e.fields[fi], After: f.Value})
				e = s.mut(slot)
				e.fields[fi] = f.Value
			}
		}
		if len(diff) > n {
			s.rehash(slot)
			s.recount(slot)
		}
		return diff, "", false
	case model.OpDelete, model.OpRestore:
		if len(a.Fields) > 0 {
			return diff, fmt.Sprintf("%s takes no fields", a.Op), false
		}
		if !exists {
			return diff, string(a.Op) + " " + a.Type + " " + a.ID + ": no such entity", false
		}
		want := a.Op == model.OpDelete
		if alive != want {
			if want {
				return diff, "delete " + a.Type + " " + a.ID + ": it is already deleted", false
			}
			return diff, "restore " + a.Type + " " + a.ID + ": it is not deleted", false
		}
		s.mut(slot).alive = !want
		s.rehash(slot)
		s.recount(slot)
		return append(diff, Change{Slot: slot, Field: aliveField, Before: model.Bool(want), After: model.Bool(!want)}), "", false
	}
	return diff, fmt.Sprintf("unknown op %q", a.Op), false
}

// redo applies a recorded change forward, to rebuild a snapshot.
func (s *State) redo(c *Change, final *State) {
	if c.Slot < 0 {
		g, _ := s.env.GoalIndex(c.After.AsString())
		s.sum = s.sum.sub(s.env.goalDigest(s.goal)).add(s.env.goalDigest(g))
		s.goal = g
		return
	}
	if c.Slot >= s.n || !s.ent(c.Slot).exists {
		fe := final.ent(c.Slot)
		for c.Slot >= s.n {
			next := final.ent(s.n)
			s.newSlot(next.typ, next.id)
		}
		e := s.mut(c.Slot)
		e.exists, e.fields = true, make([]model.Value, len(s.env.types[fe.typ].fields))
	}
	e := s.mut(c.Slot)
	if c.Field == aliveField {
		e.alive = c.After.AsBool()
	} else {
		e.fields[c.Field] = c.After
	}
	s.rehash(c.Slot)
	s.recount(c.Slot)
}
