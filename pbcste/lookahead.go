package pbcste

import (
	"unsafe"

	"github.com/parthack/parthack/model"
)

// A write to one of 50,000 entities meets three memory misses one after
// another, each address known only from the line before: the index
// entry names the slot, the chunk's offsets place its record, and the
// record holds the fields. A run told its next steps (Run.Expect, as
// Replay and the certifier do) hides them with a lookahead that walks
// that chain for steps yet to come, one link per batch of steps: while
// batch b is applied, it prefetches the index lines of batch b+3, reads
// batch b+2's (fetched a batch ago) and prefetches their offsets, and
// reads batch b+1's offsets and prefetches their records. A prefetch
// reads nothing and waits for nothing, so the misses complete while the
// processor applies the steps before them.
const (
	batchSteps = 16 // steps per lookahead batch
	depth      = 4  // batches in flight: being applied, and three ahead
	recLines   = 4  // lines of a record prefetched: one of a few fields spans three or four
)

// lookaheadFrom is the number of slots from which a run looks ahead: a
// smaller state (under a megabyte of records) stays in a core's caches, and
// looking ahead would only cost.
const lookaheadFrom = 1 << 12

// lookahead is the chain walked so far for the batches in flight,
// batch b's in row b%depth.
type lookahead struct {
	s     *State
	steps []model.Step
	next  int                       // the step to be taken next
	hash  [depth][batchSteps]uint64 // 0: the step writes no known type
	typ   [depth][batchSteps]int32
	slot  [depth][batchSteps]int32 // -1: no slot guessed
	addrs []uintptr
	// the type last named, and its index: a trajectory names few types
	// and mostly one over and over, which a string compare finds
	// sooner than a map.
	lastType string
	lastTyp  int32
	lastOK   bool
}

func newLookahead(s *State, steps []model.Step) *lookahead {
	return &lookahead{s: s, steps: steps, addrs: make([]uintptr, 0, batchSteps*recLines)}
}

// before is called before step i is taken: at the start of its batch
// it advances, and it hands the step's id hash to its lookup.
func (la *lookahead) before(i int) {
	if i%batchSteps == 0 {
		la.advance(i / batchSteps)
	}
	la.s.hint = la.hint(i)
}

// hint is what the lookahead knows of step i's entity: its id's hash,
// which the step's lookup need not compute again.
func (la *lookahead) hint(i int) idHint {
	b, k := i/batchSteps%depth, i%batchSteps
	id := la.steps[i].Action.ID
	return idHint{id: unsafe.StringData(id), n: len(id), typ: la.typ[b][k], hash: la.hash[b][k]}
}

// advance is called before batch b is applied (every batchSteps steps,
// b from 0): it does each link for the batch that link is due for, and at
// the start, for the batches that no earlier call covered.
func (la *lookahead) advance(b int) {
	from := b
	if b == 0 {
		from = 1 - depth
	}
	for p := from; p <= b; p++ {
		la.prefetchIndex(p + 3)
		la.prefetchOffsets(p + 2)
		la.prefetchRecords(p + 1)
	}
}

// batch is the steps of batch b (none past the end or before the start).
func (la *lookahead) batch(b int) []model.Step {
	lo := b * batchSteps
	if lo < 0 || lo >= len(la.steps) {
		return nil
	}
	return la.steps[lo:min(lo+batchSteps, len(la.steps))]
}

func (la *lookahead) prefetchIndex(b int) {
	steps, s := la.batch(b), la.s
	if len(steps) == 0 {
		return
	}
	hs, ts, addrs := &la.hash[b%depth], &la.typ[b%depth], la.addrs[:0]
	mask := uint64(len(s.index.table) - 1)
	for i := range steps {
		a := &steps[i].Action
		if a.Type != la.lastType {
			t, ok := s.env.typeIdx[a.Type]
			la.lastType, la.lastTyp, la.lastOK = a.Type, int32(t), ok
		}
		hs[i], ts[i] = 0, la.lastTyp
		if la.lastOK && opBit(a.Op) != 0 {
			hs[i] = s.index.hash(la.lastTyp, a.ID)
			addrs = append(addrs, uintptr(unsafe.Pointer(&s.index.table[hs[i]&mask])))
		}
	}
	prefetch(addrs)
}

func (la *lookahead) prefetchOffsets(b int) {
	steps, s := la.batch(b), la.s
	if len(steps) == 0 {
		return
	}
	hs, slots, addrs := &la.hash[b%depth], &la.slot[b%depth], la.addrs[:0]
	for i := range steps {
		slots[i] = s.index.guess(hs[i])
		if slot := slots[i]; slot >= 0 && slot < s.n {
			addrs = append(addrs, uintptr(unsafe.Pointer(&s.chunks[slot>>chunkBits].at[slot&chunkMask])))
		}
	}
	prefetch(addrs)
}

func (la *lookahead) prefetchRecords(b int) {
	steps, s := la.batch(b), la.s
	if len(steps) == 0 {
		return
	}
	slots, addrs := &la.slot[b%depth], la.addrs[:0]
	for i := range steps {
		slot := slots[i]
		if slot < 0 || slot >= s.n {
			continue
		}
		c := &s.chunks[slot>>chunkBits]
		start, data := int(c.at[slot&chunkMask]), c.data
		if start&inBase != 0 {
			start, data = start&^inBase, c.base
		}
		for off := start; off < len(data) && off < start+recLines*64; off += 64 {
			addrs = append(addrs, uintptr(unsafe.Pointer(&data[off])))
		}
	}
	prefetch(addrs)
}
