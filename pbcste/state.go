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
	typ    int32
	exists bool // false only in snapshots from before its creation
	alive  bool
	own    bool // fields and enc are this slot's own, not shared with another state
	id     string
	fields []model.Value
	// enc is the slot's encoding as the state hash digests it (see
	// rehash), kept up to date by every write: a write re-encodes the
	// one field it changes, and the digest reads these contiguous bytes
	// instead of every field's strings and lists wherever they lie.
	enc    []byte
	digest Hash
}

// is reports whether the slot is (typ, id); its encoding starts with the
// type name and id, and is the line a write reads next anyway.
func (e *entity) is(env *Env, typ int32, id string) bool {
	if e.typ != typ || len(e.id) != len(id) {
		return false
	}
	at := len(env.types[typ].name) + 1
	return string(e.enc[at:at+len(id)]) == id
}

type entKey struct {
	typ int32
	id  string
}

// Slots live in chunks of chunkSize (the last one may hold fewer), shared
// between a state and its clones until one of them writes: cloning costs
// the number of chunks, not of entities, so a replay or a search node on
// a 13,000-record database copies only what it changes, and one on a
// task of four entities copies four.
const (
	chunkBits = 7
	chunkSize = 1 << chunkBits
	chunkMask = chunkSize - 1
)

// encSlack is the room left after a copied encoding, so that a field
// growing by a few bytes (an enum value, a count's digits) is patched in
// place.
const encSlack = 8

// State is one snapshot of the world: entities by (type, id), the active
// goal version, and the running state hash.
type State struct {
	env    *Env
	chunks [][]entity
	owned  []bool // owned[c]: chunks[c] is this state's alone
	n      int32  // slots in use
	index  *idIndex
	// sharedIndex marks an index other states also hold (see Clone): it
	// is never changed again, and slots added later go to added.
	sharedIndex bool
	added       map[entKey]int32
	goal        int
	sum         Hash
	counts      []int64  // per count expression: matching alive entities
	matches     [][]bool // per count expression, per slot: does it match now
	scratch     []byte
	warmed      uint64 // what warm read, kept so that its reads are not dropped
}

func newState(env *Env) *State {
	s := &State{env: env, index: newIndex()}
	s.counts = make([]int64, len(env.counts))
	s.matches = make([][]bool, len(env.counts))
	return s
}

// ent reads a slot.
func (s *State) ent(slot int32) *entity { return &s.chunks[slot>>chunkBits][slot&chunkMask] }

// mut is a slot to write, written in place: its chunk, and then its
// fields and encoding, copied first when another state shares them. A
// search node that writes one slot of a 13,000-record database copies
// one chunk of slots and that slot's values, not the chunk's.
func (s *State) mut(slot int32) *entity {
	c := slot >> chunkBits
	if !s.owned[c] {
		s.own(c)
	}
	e := &s.chunks[c][slot&chunkMask]
	if !e.own {
		e.fields = slices.Clone(e.fields)
		e.enc = append(make([]byte, 0, len(e.enc)+encSlack), e.enc...)
		e.own = true
	}
	return e
}

// own gives this state its own copy of chunk c, whose slots still share
// their values with the chunk it copies.
func (s *State) own(c int32) {
	cp := slices.Clone(s.chunks[c])
	for i := range cp {
		cp[i].own = false
	}
	s.chunks[c], s.owned[c] = cp, true
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
func (s *State) slotOf(typ int32, id string) (int32, bool) {
	if slot, ok := s.index.find(s, typ, id); ok {
		return slot, true
	}
	slot, ok := s.added[entKey{typ, id}]
	return slot, ok
}

func (s *State) lookup(typ int, id string) (int32, bool) {
	slot, ok := s.slotOf(int32(typ), id)
	return slot, ok && s.ent(slot).exists
}

// newSlot appends an empty slot for (typ, id).
func (s *State) newSlot(typ int32, id string) int32 {
	slot := s.n
	c := slot >> chunkBits
	if int(c) == len(s.chunks) {
		s.chunks = append(s.chunks, nil)
		s.owned = append(s.owned, true)
	}
	if !s.owned[c] {
		s.own(c)
	}
	if ch := s.chunks[c]; len(ch) == cap(ch) {
		s.chunks[c] = slices.Grow(ch, min(max(len(ch), 4), chunkSize-len(ch)))
	}
	s.chunks[c] = append(s.chunks[c], entity{typ: typ, id: id, own: true, enc: s.env.appendHeader(nil, typ, id, false)})
	s.n++
	if s.sharedIndex {
		if s.added == nil {
			s.added = map[entKey]int32{}
		}
		s.added[entKey{typ, id}] = slot
	} else {
		s.index.add(s, slot)
	}
	for i := range s.matches {
		s.matches[i] = append(s.matches[i], false)
	}
	return slot
}

// place adds a new slot, or fills one that a snapshot knew only as future.
func (s *State) place(typ int32, id string, alive bool, fields []model.Value) int32 {
	slot, known := s.slotOf(typ, id)
	if !known {
		slot = s.newSlot(typ, id)
	}
	e := s.mut(slot)
	e.exists, e.alive, e.fields = true, alive, fields
	s.encode(e)
	s.rehash(e)
	s.recount(slot)
	return slot
}

// rehash replaces a written slot's digest in the running sum. The
// digest is the sha256 of the slot's encoding: its type name, 0, its
// id, 0, its alive flag (one byte), then each field by appendValue.
func (s *State) rehash(e *entity) {
	s.sum = s.sum.sub(e.digest)
	if !e.exists {
		e.digest = Hash{}
		return
	}
	e.digest = digest(e.enc)
	s.sum = s.sum.add(e.digest)
}

// appendHeader appends the encoding of a slot up to its fields.
func (env *Env) appendHeader(b []byte, typ int32, id string, alive bool) []byte {
	b = append(b, env.types[typ].name...)
	b = append(b, 0)
	b = append(b, id...)
	b = append(b, 0)
	if alive {
		return append(b, 1)
	}
	return append(b, 0)
}

// encode writes a slot's encoding afresh.
func (s *State) encode(e *entity) {
	b := s.env.appendHeader(s.scratch[:0], e.typ, e.id, e.alive)
	for _, v := range e.fields {
		b = appendValue(b, v)
	}
	s.scratch = b
	e.enc = splice(e.enc, 0, len(e.enc), b)
}

// setField writes field fi of a slot being written and re-encodes it.
func (s *State) setField(e *entity, fi int, v model.Value) {
	e.fields[fi] = v
	at := len(s.env.types[e.typ].name) + len(e.id) + 3
	for range fi {
		at = skipValue(e.enc, at)
	}
	s.scratch = appendValue(s.scratch[:0], v)
	e.enc = splice(e.enc, at, skipValue(e.enc, at), s.scratch)
}

// setAlive writes the alive flag of a slot being written.
func (s *State) setAlive(e *entity, alive bool) {
	e.alive = alive
	at := len(s.env.types[e.typ].name) + len(e.id) + 2
	if alive {
		e.enc[at] = 1
	} else {
		e.enc[at] = 0
	}
}

// splice replaces b[start:end] by v, in place when b has the room (b is
// a slot's own encoding: see mut).
func splice(b []byte, start, end int, v []byte) []byte {
	n := len(b) - (end - start) + len(v)
	if n > cap(b) {
		out := make([]byte, n, n+encSlack)
		copy(out, b[:start])
		copy(out[start+len(v):], b[end:])
		copy(out[start:], v)
		return out
	}
	out := b[:n]
	copy(out[start+len(v):], b[end:])
	copy(out[start:], v)
	return out
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

// skipValue is the offset past the value appendValue wrote at b[at:].
func skipValue(b []byte, at int) int {
	kind := model.ValueKind(b[at])
	at++
	switch kind {
	case model.StringValue, model.JSONValue:
		n, w := binary.Uvarint(b[at:])
		return at + w + int(n)
	case model.IntValue:
		_, w := binary.Varint(b[at:])
		return at + w
	case model.BoolValue:
		return at + 1
	case model.ListValue:
		n, w := binary.Uvarint(b[at:])
		at += w
		for range n {
			m, w := binary.Uvarint(b[at:])
			at += w + int(m)
		}
	}
	return at
}

// recount refreshes a slot's membership in every count expression.
func (s *State) recount(slot int32) {
	e := s.ent(slot)
	for ci, ce := range s.env.counts {
		if ce.Type() != int(e.typ) {
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
			slot = s.place(int32(ti), a.ID, true, vals)
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
				s.setField(e, fi, f.Value)
			}
		}
		if len(diff) > n {
			s.rehash(e)
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
		e := s.mut(slot)
		s.setAlive(e, !want)
		s.rehash(e)
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
		s.encode(e)
	}
	e := s.mut(c.Slot)
	if c.Field == aliveField {
		s.setAlive(e, c.After.AsBool())
	} else {
		s.setField(e, int(c.Field), c.After)
	}
	s.rehash(e)
	s.recount(c.Slot)
}

// warmAhead is how many steps State.warm reads ahead for.
const warmAhead = 16

// warmFrom is the number of slots from which Replay reads ahead: a
// smaller state (under 2 MB or so) stays in a core's caches, and reading
// ahead would only cost.
const warmFrom = 1 << 12

// warm reads, for steps about to be applied, the lines their writes will
// read: the index entry, the slot, its encoding and fields. On a state
// larger than the caches each of these is a miss to memory, and a step
// meets them one after another, each address known only from the line
// before; read here for many steps at once, in one pass per link of that
// chain, the misses of different steps overlap. It changes nothing.
func (s *State) warm(steps []model.Step) {
	var (
		h    [warmAhead]uint64
		slot [warmAhead]int32
		sink uint64
	)
	for i := range steps {
		a := &steps[i].Action
		t, ok := s.env.typeIdx[a.Type]
		if opBit(a.Op) != 0 && ok {
			h[i] = s.index.hash(int32(t), a.ID)
			sink += s.index.table[h[i]&uint64(len(s.index.table)-1)]
		}
	}
	for i := range steps {
		slot[i] = s.index.guess(h[i])
		if slot[i] >= 0 { // both ends of the slot: it may straddle two lines
			e := s.ent(slot[i])
			sink += uint64(e.typ) + e.digest[3]
		}
	}
	for i := range steps {
		if slot[i] < 0 {
			continue
		}
		e := s.ent(slot[i])
		for j := 0; j < len(e.enc); j += 64 {
			sink += uint64(e.enc[j])
		}
		for j := 0; j < len(e.fields); j += 2 {
			sink += uint64(e.fields[j].Kind())
		}
	}
	s.warmed = sink
}
