package pbcste

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"unsafe"

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
func (h Hash) String() string { return string(h.AppendHex(nil)) }

// AppendHex appends the hash in hex, as String writes it.
func (h Hash) AppendHex(dst []byte) []byte {
	var b [32]byte
	for i, x := range h {
		binary.BigEndian.PutUint64(b[8*i:], x)
	}
	return hex.AppendEncode(dst, b[:])
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

// A slot is one (type, id) of the state, never reused for another:
// deletion tombstones it and keeps its fields for restore. Its record
// lives in its chunk's data, a fixed header and then the slot's encoding,
// the bytes the state hash digests (see rehash):
//
//	[0, 32)   digest: the sha256 of the encoding
//	[32, 36)  type index
//	[36, 40)  encoding length n
//	[40, 44)  room: bytes kept for the encoding (n or more)
//	[44, 48)  where the fields start in the encoding
//	[48]      flags: exists (false only in snapshots from before its
//	          creation), alive
//	[49, 49+room) the encoding: type name, 0, id, 0, alive byte, then
//	          each field by appendValue
//
// A slot is thus one run of bytes, a few lines long, and the state holds
// no pointer per slot: a write reads one index line, one offset and the
// record, and the garbage collector never scans the slots. Fields are
// decoded from the encoding when read.
const (
	recType   = 32
	recLen    = 36
	recRoom   = 40
	recFields = 44
	recFlags  = 48
	recHeader = 49

	flagExists = 1
	flagAlive  = 2
)

// rec is a slot's record, from its header to the end of its room.
type rec []byte

func (r rec) digest() Hash {
	return Hash{
		binary.LittleEndian.Uint64(r[0:]), binary.LittleEndian.Uint64(r[8:]),
		binary.LittleEndian.Uint64(r[16:]), binary.LittleEndian.Uint64(r[24:]),
	}
}

func (r rec) setDigest(h Hash) {
	for i, x := range h {
		binary.LittleEndian.PutUint64(r[8*i:], x)
	}
}

func (r rec) typ() int32    { return int32(binary.LittleEndian.Uint32(r[recType:])) }
func (r rec) n() int        { return int(binary.LittleEndian.Uint32(r[recLen:])) }
func (r rec) room() int     { return int(binary.LittleEndian.Uint32(r[recRoom:])) }
func (r rec) fieldsAt() int { return int(binary.LittleEndian.Uint32(r[recFields:])) }
func (r rec) exists() bool  { return r[recFlags]&flagExists != 0 }
func (r rec) alive() bool   { return r[recFlags]&flagAlive != 0 }
func (r rec) enc() []byte   { return r[recHeader : recHeader+r.n()] }
func (r rec) setN(n int)    { binary.LittleEndian.PutUint32(r[recLen:], uint32(n)) }
func (r rec) size() int     { return recHeader + r.room() }
func (r rec) setFlag(f byte, on bool) {
	if on {
		r[recFlags] |= f
	} else {
		r[recFlags] &^= f
	}
}

// appendRec appends a record with this encoding and room to spare.
func appendRec(data []byte, typ int32, fieldsAt int, flags byte, enc []byte, room int) []byte {
	var h [recHeader]byte
	binary.LittleEndian.PutUint32(h[recType:], uint32(typ))
	binary.LittleEndian.PutUint32(h[recLen:], uint32(len(enc)))
	binary.LittleEndian.PutUint32(h[recRoom:], uint32(room))
	binary.LittleEndian.PutUint32(h[recFields:], uint32(fieldsAt))
	h[recFlags] = flags
	data = append(data, h[:]...)
	data = append(data, enc...)
	return append(data, make([]byte, room-len(enc))...)
}

// chunk holds up to chunkSize slots: where each one's record starts, and
// the records. A chunk made from one its state shares (see own) reads
// the shared one's records in place, from base, which is never written
// again; a slot's record is copied into data when the state first writes
// it. None of the arrays holds a pointer.
type chunk struct {
	at   []uint32 // a record's offset in data, or in base with inBase set
	data []byte
	base []byte
	dead int // bytes of data that no slot's record holds any more
}

// inBase marks an offset into a chunk's base.
const inBase = 1 << 31

type entKey struct {
	typ int32
	id  string
}

// Slots live in chunks of chunkSize (the last one may hold fewer), shared
// between a state and its clones until one of them writes: cloning costs
// the number of chunks, not of entities, and a write copies its chunk's
// table of offsets (half a kilobyte) and the record it writes, so a replay
// or a search node on a 13,000-record database copies only the records it
// changes.
const (
	chunkBits = 7
	chunkSize = 1 << chunkBits
	chunkMask = chunkSize - 1
)

// encSlack is the room left after an encoding, so that a field growing
// by a few bytes (an enum value, a count's digits) is patched in place.
const encSlack = 8

// State is one snapshot of the world: entities by (type, id), the active
// goal version, and the running state hash.
type State struct {
	env    *Env
	chunks []chunk
	owned  []bool // owned[c]: chunks[c] is this state's alone
	n      int32  // slots in use
	index  *idIndex
	// sharedIndex marks an index other states also hold (see Clone): it
	// is never changed again, and slots added later go to added.
	sharedIndex bool
	added       map[entKey]int32
	goal        int
	sum         Hash
	// bare: neither sum and the slots' digests nor the count tables are
	// kept up to date (see Env.StreamEvents).
	bare    bool
	counts  []int64  // per count expression: matching alive entities
	matches [][]bool // per count expression, per slot: does it match now
	scratch []byte
	placed  []byte     // the encoding place writes (newSlot uses scratch)
	counted slotFields // the slot a count's filter reads
	strs    *strCache  // strings decoded for values kept (see decodeValue)
	hint    idHint     // the next step's id and its hash, when Replay knows them
}

func newState(env *Env) *State {
	s := &State{env: env, index: newIndex()}
	s.counts = make([]int64, len(env.counts))
	s.matches = make([][]bool, len(env.counts))
	return s
}

// rec reads a slot's record (and the chunk's bytes after it: nothing
// reads past its room).
func (s *State) rec(slot int32) rec {
	c := &s.chunks[slot>>chunkBits]
	off := c.at[slot&chunkMask]
	if off&inBase != 0 {
		return rec(c.base[off&^inBase:])
	}
	return rec(c.data[off:])
}

// mut is a slot's record to write in place: its chunk is made this
// state's first when another state shares it, and the record copied into
// the chunk's own data when it is read from the shared base.
func (s *State) mut(slot int32) rec {
	ci := slot >> chunkBits
	if !s.owned[ci] {
		s.own(ci)
	}
	c := &s.chunks[ci]
	if off := c.at[slot&chunkMask]; off&inBase != 0 {
		r := rec(c.base[off&^inBase:])
		c.at[slot&chunkMask] = uint32(len(c.data))
		c.data = append(c.data, r[:r.size()]...)
	}
	return s.rec(slot)
}

// own gives this state its own chunk c, reading the shared one's records
// where they are: its base when it has one (with the records its state
// wrote, which are its own data, copied), else its data.
func (s *State) own(c int32) {
	old := &s.chunks[c]
	if old.base != nil {
		s.chunks[c] = compacted(old, cap(old.at))
	} else {
		at := make([]uint32, len(old.at), cap(old.at))
		for i, off := range old.at {
			at[i] = off | inBase
		}
		s.chunks[c] = chunk{at: at, base: old.data}
	}
	s.owned[c] = true
}

// compacted is a copy of a chunk without its dead bytes: its own
// records side by side, its base shared.
func compacted(c *chunk, slots int) chunk {
	size := 0
	for _, off := range c.at {
		if off&inBase == 0 {
			size += rec(c.data[off:]).size()
		}
	}
	cp := chunk{at: make([]uint32, len(c.at), slots), data: make([]byte, 0, size), base: c.base}
	for i, off := range c.at {
		if off&inBase != 0 {
			cp.at[i] = off
			continue
		}
		cp.at[i] = uint32(len(cp.data))
		cp.data = append(cp.data, c.data[off:int(off)+rec(c.data[off:]).size()]...)
	}
	return cp
}

// slots is the number of slots in use.
func (s *State) slots() int32 { return s.n }

// Clone copies a state; the two share their chunks until either writes.
func (s *State) Clone() *State {
	c := &State{env: s.env, goal: s.goal, sum: s.sum, bare: s.bare, index: s.index, sharedIndex: true, n: s.n}
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

// is reports whether a slot is (typ, id).
func (s *State) is(slot, typ int32, id string) bool {
	r := s.rec(slot)
	at := recHeader + len(s.env.types[typ].name) + 1
	if r.typ() != typ || r.fieldsAt() != at-recHeader+len(id)+2 {
		return false
	}
	return string(r[at:at+len(id)]) == id
}

// idOf is a slot's id. With alias it shares the record's bytes, for a
// read that ends before the state is next written; otherwise it is a copy.
func (s *State) idOf(slot int32, alias bool) string {
	r := s.rec(slot)
	at := recHeader + len(s.env.types[r.typ()].name) + 1
	b := r[at : recHeader+r.fieldsAt()-2]
	if alias {
		return unsafe.String(unsafe.SliceData(b), len(b))
	}
	return string(b)
}

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
	return slot, ok && s.rec(slot).exists()
}

// newSlot appends a slot for (typ, id) that does not exist yet, with room
// for an encoding of size bytes.
func (s *State) newSlot(typ int32, id string, size int) int32 {
	slot := s.n
	c := slot >> chunkBits
	if int(c) == len(s.chunks) {
		s.chunks = append(s.chunks, chunk{})
		s.owned = append(s.owned, true)
	}
	if !s.owned[c] {
		s.own(c)
	}
	ch := &s.chunks[c]
	if len(ch.at) == cap(ch.at) {
		ch.at = slices.Grow(ch.at, min(max(len(ch.at), 4), chunkSize-len(ch.at)))
	}
	enc := s.env.appendHeader(s.scratch[:0], typ, id, false)
	s.scratch = enc
	ch.at = append(ch.at, uint32(len(ch.data)))
	ch.data = appendRec(ch.data, typ, len(enc), 0, enc, max(len(enc), size)+encSlack)
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

// place adds a new slot, or fills one that a snapshot knew only as
// future or that was deleted, with these fields.
func (s *State) place(typ int32, id string, alive bool, fields []model.Value) int32 {
	b := s.env.appendHeader(s.placed[:0], typ, id, alive)
	for _, v := range fields {
		b = appendValue(b, v)
	}
	s.placed = b
	slot, known := s.slotOf(typ, id)
	if !known {
		slot = s.newSlot(typ, id, len(b)) // room for b: written in place
	}
	r := s.mut(slot)
	r = s.splice(slot, r, 0, r.n(), b)
	r.setFlag(flagExists, true)
	r.setFlag(flagAlive, alive)
	s.rehash(r)
	s.recount(slot, ^uint64(0))
	return slot
}

// placeInitial adds a slot to a snapshot being built from a task's
// initial entities, none of which exists yet: enc is its encoding (fields
// from fieldsAt), h its index hash. Its record is what newSlot and place
// make of it, written once: room for enc and encSlack more, exists and
// alive set, hashed and counted. A chunk's data is sized from the chunk
// before it, so that it is made once, not grown.
func (s *State) placeInitial(typ int32, h uint64, fieldsAt int, alive bool, enc []byte) {
	slot := s.n
	c := slot >> chunkBits
	if int(c) == len(s.chunks) {
		ch := chunk{at: make([]uint32, 0, chunkSize)}
		if c > 0 {
			ch.data = make([]byte, 0, len(s.chunks[c-1].data)*9/8)
		}
		s.chunks = append(s.chunks, ch)
		s.owned = append(s.owned, true)
	}
	ch := &s.chunks[c]
	flags := byte(flagExists)
	if alive {
		flags |= flagAlive
	}
	ch.at = append(ch.at, uint32(len(ch.data)))
	ch.data = appendRec(ch.data, typ, fieldsAt, flags, enc, len(enc)+encSlack)
	s.n++
	s.index.putHashed(h, slot)
	s.index.n++
	for i := range s.matches {
		s.matches[i] = append(s.matches[i], false)
	}
	s.rehash(s.rec(slot))
	s.recount(slot, ^uint64(0))
}

// splice replaces enc[start:end] of a slot's record (its chunk owned)
// by v and returns the record: in place when its room allows, else moved
// to the end of the chunk's data with room to grow.
func (s *State) splice(slot int32, r rec, start, end int, v []byte) rec {
	n := r.n()
	m := n - (end - start) + len(v)
	if m <= r.room() {
		enc := r[recHeader : recHeader+m]
		copy(enc[start+len(v):], r[recHeader+end:recHeader+n])
		copy(enc[start:], v)
		r.setN(m)
		return r
	}
	c := &s.chunks[slot>>chunkBits]
	room := m + max(encSlack, m/4)
	off := len(c.data)
	data := slices.Grow(c.data, recHeader+room)
	data = append(data, r[:recHeader]...)
	data = append(data, r[recHeader:recHeader+start]...)
	data = append(data, v...)
	data = append(data, r[recHeader+end:recHeader+n]...)
	data = append(data, make([]byte, room-m)...)
	c.data, c.dead = data, c.dead+r.size()
	c.at[slot&chunkMask] = uint32(off)
	nr := rec(data[off : off+recHeader+room])
	nr.setN(m)
	binary.LittleEndian.PutUint32(nr[recRoom:], uint32(room))
	if c.dead > len(c.data)/2 {
		*c = compacted(c, cap(c.at))
		return s.rec(slot)
	}
	return nr
}

// rehash replaces a written slot's digest in the running sum. The
// digest is the sha256 of the slot's encoding: its type name, 0, its
// id, 0, its alive flag (one byte), then each field by appendValue.
func (s *State) rehash(r rec) {
	if s.bare {
		return
	}
	s.sum = s.sum.sub(r.digest())
	if !r.exists() {
		r.setDigest(Hash{})
		return
	}
	d := digest(r.enc())
	r.setDigest(d)
	s.sum = s.sum.add(d)
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

// fieldAt is where field fi starts in a record's encoding.
func fieldAt(r rec, fi int) int {
	enc, at := r.enc(), r.fieldsAt()
	for range fi {
		at = skipValue(enc, at)
	}
	return at
}

// fieldSpan is where field fi lies in a record's encoding.
func fieldSpan(r rec, fi int) (start, end int) {
	at := fieldAt(r, fi)
	return at, skipValue(r.enc(), at)
}

// setField writes field fi of a slot being written (see mut).
func (s *State) setField(slot int32, r rec, fi int, v model.Value) rec {
	start, end := fieldSpan(r, fi)
	s.scratch = appendValue(s.scratch[:0], v)
	return s.splice(slot, r, start, end, s.scratch)
}

// setAlive writes the alive flag of a slot being written.
func (s *State) setAlive(r rec, alive bool) {
	r.setFlag(flagAlive, alive)
	at := recHeader + r.fieldsAt() - 1
	if alive {
		r[at] = 1
	} else {
		r[at] = 0
	}
}

// field decodes field fi of a slot. With alias a string shares the
// record's bytes, for a read that ends before the state is next written
// (a predicate, a count's filter); a value kept longer (a diff's before,
// a tool's read, a rendering) is a copy.
func (s *State) field(slot int32, fi int, alias bool) model.Value {
	r := s.rec(slot)
	start := fieldAt(r, fi)
	v, _ := decodeValue(r.enc(), start, alias, nil)
	return v
}

// fields decodes copies of all fields of a slot; a slot that does not
// exist has none.
func (s *State) fields(slot int32) []model.Value {
	r := s.rec(slot)
	if !r.exists() {
		return nil
	}
	return s.appendFields(make([]model.Value, 0, len(s.env.types[r.typ()].fields)), slot, false)
}

// appendFields appends the fields of a slot that exists to dst, decoded
// as field decodes them (alias: sharing the record's bytes).
func (s *State) appendFields(dst []model.Value, slot int32, alias bool) []model.Value {
	enc := s.rec(slot).enc()
	for at := s.rec(slot).fieldsAt(); at < len(enc); {
		var v model.Value
		v, at = decodeValue(enc, at, alias, nil)
		dst = append(dst, v)
	}
	return dst
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

// strCache holds short strings decoded for values that are kept: most
// are a few enum members met again and again (a diff's before), and a
// string found here costs no allocation.
type strCache [256]string

func (c *strCache) get(b []byte) string {
	if len(b) > 32 {
		return string(b)
	}
	h := uint32(len(b))
	for _, x := range b {
		h = (h ^ uint32(x)) * 16777619
	}
	e := &c[h&255]
	if *e != string(b) {
		*e = string(b)
	}
	return *e
}

// kept is the cache of strings for the values a write keeps (a diff's
// before). Only writes use it: reading a state changes nothing in it, so
// goroutines may read one state at once.
func (s *State) kept() *strCache {
	if s.strs == nil {
		s.strs = new(strCache)
	}
	return s.strs
}

// decodeValue reads the value appendValue wrote at b[at:] and the offset
// past it. With alias its strings share b's bytes, for a read that ends
// before the state is next written; otherwise they are its own, from
// strs when it is not nil.
func decodeValue(b []byte, at int, alias bool, strs *strCache) (model.Value, int) {
	kind := model.ValueKind(b[at])
	at++
	switch kind {
	case model.StringValue, model.JSONValue:
		n, w := uvarint(b, at)
		x := bytesString(b[at+w:at+w+n], alias, strs)
		if kind == model.JSONValue {
			return model.CanonicalJSON(x), at + w + n
		}
		return model.Str(x), at + w + n
	case model.IntValue:
		i, w := binary.Varint(b[at:])
		return model.Int(i), at + w
	case model.BoolValue:
		return model.Bool(b[at] == 1), at + 1
	case model.ListValue:
		n, w := uvarint(b, at)
		at += w
		xs := make([]string, n)
		for i := range xs {
			m, w := uvarint(b, at)
			xs[i] = bytesString(b[at+w:at+w+m], alias, strs)
			at += w + m
		}
		return model.List(xs), at
	}
	return model.Null, at
}

// bytesString is decodeValue's string of x.
func bytesString(x []byte, alias bool, strs *strCache) string {
	switch {
	case alias:
		return unsafe.String(unsafe.SliceData(x), len(x))
	case strs != nil:
		return strs.get(x)
	}
	return string(x)
}

// uvarint reads the length appendValue wrote at b[at:] and its width;
// most lengths are under 128, one byte.
func uvarint(b []byte, at int) (int, int) {
	if x := b[at]; x < 0x80 {
		return int(x), 1
	}
	n, w := binary.Uvarint(b[at:])
	return int(n), w
}

// skipValue is the offset past the value appendValue wrote at b[at:].
func skipValue(b []byte, at int) int {
	kind := model.ValueKind(b[at])
	at++
	switch kind {
	case model.StringValue, model.JSONValue:
		n, w := uvarint(b, at)
		return at + w + n
	case model.IntValue:
		_, w := binary.Varint(b[at:])
		return at + w
	case model.BoolValue:
		return at + 1
	case model.ListValue:
		n, w := uvarint(b, at)
		at += w
		for range n {
			m, w := uvarint(b, at)
			at += w + m
		}
	}
	return at
}

// slotFields are a slot's fields as a count's filter reads them,
// decoded one at a time, sharing the record's bytes.
type slotFields struct{ r rec }

func (f *slotFields) Field(fi int) model.Value {
	v, _ := decodeValue(f.r.enc(), fieldAt(f.r, fi), true, nil)
	return v
}

// recount refreshes a slot's membership in every count expression that
// reads one of the cells written (bit(f) for field f, bit(aliveField)).
func (s *State) recount(slot int32, written uint64) {
	if s.bare {
		return
	}
	var r rec
	for ci, ce := range s.env.counts {
		if s.env.countReads[ci]&written == 0 {
			continue
		}
		if r == nil {
			r = s.rec(slot)
			s.counted.r = r
		}
		if ce.Type() != int(r.typ()) {
			continue
		}
		now := r.exists() && r.alive() && ce.Matches(&s.counted)
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
	alive := exists && s.rec(slot).alive()
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
				if r, ok := s.lookup(env.typeIdx[fd.Target], f.Value.AsString()); !ok || !s.rec(r).alive() {
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
				before, old = model.Bool(false), s.fields(slot)
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
		r := s.rec(slot)
		n := len(diff)
		var written uint64
		for i, f := range a.Fields {
			fi := idx[i]
			start, end := fieldSpan(r, fi)
			s.scratch = appendValue(s.scratch[:0], f.Value)
			if string(r.enc()[start:end]) == string(s.scratch) { // encodings are equal just when values are
				continue
			}
			before, _ := decodeValue(r.enc(), start, false, s.kept())
			diff = append(diff, Change{Slot: slot, Field: int16(fi), Before: before, After: f.Value})
			written |= bit(fi)
			r = s.splice(slot, s.mut(slot), start, end, s.scratch)
		}
		if len(diff) > n {
			s.rehash(r)
			s.recount(slot, written)
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
		r := s.mut(slot)
		s.setAlive(r, !want)
		s.rehash(r)
		s.recount(slot, bit(aliveField))
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
	if c.Slot >= s.n || !s.rec(c.Slot).exists() {
		for c.Slot >= s.n {
			s.newSlot(final.rec(s.n).typ(), final.idOf(s.n, false), 0)
		}
		r := s.mut(c.Slot)
		typ := r.typ()
		b := s.env.appendHeader(s.scratch[:0], typ, s.idOf(c.Slot, true), r.alive())
		for range s.env.types[typ].fields {
			b = appendValue(b, model.Null)
		}
		s.scratch = b
		r = s.splice(c.Slot, r, 0, r.n(), b)
		r.setFlag(flagExists, true)
	}
	r := s.mut(c.Slot)
	if c.Field == aliveField {
		s.setAlive(r, c.After.AsBool())
	} else {
		r = s.setField(c.Slot, r, int(c.Field), c.After)
	}
	s.rehash(r)
	s.recount(c.Slot, ^uint64(0))
}
