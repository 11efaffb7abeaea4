package pbcste

import (
	"hash/maphash"
	"unsafe"
)

// idIndex finds the slot of an entity by type and id. It is an
// open-addressing table with linear probing: each entry packs a slot with
// 32 bits of its key's hash, so a lookup reads one line of the table and
// then only the slot it names, whose cached encoding (which starts with
// the type name and id) settles the match. On a state of 50,000 entities
// that is one table line where a Go map keyed by (type, id) reads its
// control word, its key and the id's bytes elsewhere on the heap.
//
// An index is written only while the initial snapshot is built; after
// that every state started from it shares it read-only.
type idIndex struct {
	seed  maphash.Seed
	table []uint64 // hash>>32<<32 | slot+1; 0 is an empty entry
	n     int
}

func newIndex() *idIndex { return &idIndex{seed: maphash.MakeSeed(), table: make([]uint64, 8)} }

// newIndexFor is an index with room for n slots: it never grows while
// they are added.
func newIndexFor(n int) *idIndex {
	size := 8
	for 4*n > 3*size {
		size *= 2
	}
	return &idIndex{seed: maphash.MakeSeed(), table: make([]uint64, size)}
}

// hash mixes the type into the id's hash.
func (x *idIndex) hash(typ int32, id string) uint64 {
	return (maphash.String(x.seed, id) ^ uint64(typ)) * 0x9e3779b97f4a7c15
}

// find returns the slot of (typ, id), if it is in the index; s is a
// state that holds every slot the index names.
func (x *idIndex) find(s *State, typ int32, id string) (int32, bool) {
	h := s.hint.hash
	if h == 0 || s.hint.id != unsafe.StringData(id) || s.hint.n != len(id) || s.hint.typ != typ {
		h = x.hash(typ, id)
	}
	return x.findHashed(s, h, typ, id)
}

// findHashed is find with the key's hash known.
func (x *idIndex) findHashed(s *State, h uint64, typ int32, id string) (int32, bool) {
	tag, mask := h>>32<<32, uint64(len(x.table)-1)
	for i := h & mask; ; i = (i + 1) & mask {
		v := x.table[i]
		if v == 0 {
			return 0, false
		}
		if v&^0xffffffff == tag {
			if slot := int32(v&0xffffffff) - 1; s.is(slot, typ, id) {
				return slot, true
			}
		}
	}
}

// add indexes a new slot, growing the table to keep it at most three
// quarters full.
func (x *idIndex) add(s *State, slot int32) {
	if 4*(x.n+1) > 3*len(x.table) {
		old := x.table
		x.table = make([]uint64, 2*len(old))
		for _, v := range old {
			if v != 0 {
				x.put(s, int32(v&0xffffffff)-1)
			}
		}
	}
	x.put(s, slot)
	x.n++
}

func (x *idIndex) put(s *State, slot int32) {
	x.putHashed(x.hash(s.rec(slot).typ(), s.idOf(slot, true)), slot)
}

// putHashed enters a slot whose key's hash is h; the table has room.
func (x *idIndex) putHashed(h uint64, slot int32) {
	mask := uint64(len(x.table) - 1)
	i := h & mask
	for x.table[i] != 0 {
		i = (i + 1) & mask
	}
	x.table[i] = h>>32<<32 | uint64(slot+1)
}

// guess is the first slot whose entry carries h's 32 bits, unchecked
// (-1: none, or h is 0): where a lookahead prefetches.
func (x *idIndex) guess(h uint64) int32 {
	if h == 0 {
		return -1
	}
	mask := uint64(len(x.table) - 1)
	for i := h & mask; x.table[i] != 0; i = (i + 1) & mask {
		if x.table[i]&^0xffffffff == h>>32<<32 {
			return int32(x.table[i]&0xffffffff) - 1
		}
	}
	return -1
}

// idHint is an id whose hash is known ahead (see lookahead): the id's
// bytes, its type and the hash. find uses it when asked for that very
// string, not merely an equal one.
type idHint struct {
	id   *byte
	n    int
	typ  int32
	hash uint64
}
