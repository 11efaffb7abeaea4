package attacker

import (
	"context"
	"runtime"
	"slices"
	"sync"

	"github.com/parthack/parthack/pbcste"
)

// A walk on several cores. The walk is depth first, and the transposition
// table makes what it visits depend on the order: a node is pruned by
// one met before it. So the walk is split, not shared: below H's own
// steps (the spine, no edit yet), each first edit roots a part (skip
// H's step i, or insert a move before it), and the walk meets the parts
// one after another, the deepest place first. Helpers on spare cores walk
// the parts just ahead of the walk, each part with a table of its own
// and reading the walk's (every node there comes before the part's in
// the walk's order), and record what they meet; the walk then takes each
// part in its turn, holding every node a helper met to its own table, in
// the order the helper met them: a node its table prunes is skipped with
// what the helper met below it; a node the helper pruned and its table
// does not (the node that pruned it was pruned here) is walked here, from
// there. A part no helper took is walked here. Every node is so decided
// by the walk's own table, in the walk's own order: what it visits,
// counts and keeps is the walk on one core's, whatever the helpers. The
// helpers' parts cost 1.3 to 1.8 times the walk alone on the suite's
// four largest bounds (they lack the nodes of the parts walked beside
// theirs), and following them costs the walk about a thirtieth of
// walking.

// Spare is a pool of cores a benchmark's workers no longer use, which
// the walks still going may borrow (Options.Spare).
type Spare struct{ cores chan struct{} }

// NewSpare is a pool of at most GOMAXPROCS cores, holding those that
// workers workers leave idle from the start.
func NewSpare(workers int) *Spare {
	p := &Spare{cores: make(chan struct{}, runtime.GOMAXPROCS(0))}
	for range runtime.GOMAXPROCS(0) - workers {
		p.Give()
	}
	return p
}

// Give lends a core to the pool: a worker calls it when it has no work
// left.
func (p *Spare) Give() {
	select {
	case p.cores <- struct{}{}:
	default: // the pool is full
	}
}

// part is a part of the bound: the first edit at spine node k, skipping
// H's step k (move < 0) or inserting steps[move] before it.
type part struct{ k, move int }

// spineNode is a node of H's own path: its run, history and failed
// calls so far.
type spineNode struct {
	run    *pbcste.Run
	h      history
	failed int
}

// aheadWalk is what a helper met in one part, in the order it met it:
// each node its table let through (with the end of what it met below
// it) or pruned.
type aheadWalk struct {
	events   []aheadEvent
	complete bool // the part was walked to its end, within the budget
}

// aheadEvent is a node a helper met.
type aheadEvent struct {
	key   [16]byte
	h     history
	edits int32
	end   int32      // a node let through: the index after the events below it
	cand  *candidate // a node let through that is a candidate
	// pruned says the helper's table pruned the node; to walk it here,
	// where it is, and with what.
	pruned   bool
	i        int32
	inserted bool
	path     []int32
	failed   int
}

func (a *aheadWalk) visit(key [16]byte, h history, edits int) int {
	a.events = append(a.events, aheadEvent{key: key, h: h, edits: int32(edits)})
	return len(a.events) - 1
}

func (a *aheadWalk) prune(key [16]byte, h history, i, edits int, inserted bool, path []int32, failed int) {
	a.events = append(a.events, aheadEvent{key: key, h: h, edits: int32(edits), pruned: true,
		i: int32(i), inserted: inserted, path: slices.Clone(path), failed: failed})
}

// split coordinates the walk and its helpers over the parts.
type split struct {
	mu    sync.Mutex
	cond  sync.Cond
	taken []bool       // a part a helper or the walk has taken
	ahead []*aheadWalk // a helper's, once done
	at    int          // the part the walk is at
	stop  bool
}

// window is how many parts past the walk's the helpers take at most:
// what they met waits in memory until the walk gets there.
const window = 64

// walkSplit walks the bound from the root as walk does, with helpers on
// the cores opt.Spare lends (see above).
func (s *search) walkSplit(root *pbcste.Run, h history) error {
	spine, parts, err := s.spineOf(root, h)
	if err != nil {
		return err
	}
	// A run forked once is only read by its next forks, so the helpers
	// may fork the spine's runs side by side.
	for _, n := range spine {
		n.run.Fork()
	}
	sp := &split{taken: make([]bool, len(parts)), ahead: make([]*aheadWalk, len(parts))}
	sp.cond.L = &sp.mu
	s.seen.read = true
	ctx, cancel := context.WithCancel(s.ctx)
	var helpers sync.WaitGroup
	defer func() {
		sp.mu.Lock()
		sp.stop = true
		sp.cond.Broadcast()
		sp.mu.Unlock()
		cancel()
		helpers.Wait()
	}()
	tmpl := *s // what a helper starts from: the walk's own fields change as it goes
	helpers.Go(func() { tmpl.recruit(ctx, sp, spine, parts, &helpers) })
	for p := range parts {
		sp.mu.Lock()
		for sp.taken[p] && sp.ahead[p] == nil {
			sp.cond.Wait()
		}
		sp.taken[p] = true
		a := sp.ahead[p]
		sp.ahead[p] = nil
		sp.mu.Unlock()
		var err error
		if a != nil && a.complete {
			err = s.follow(a)
		} else {
			err = s.walkPart(spine, parts[p])
		}
		if err != nil {
			return err
		}
		sp.mu.Lock()
		sp.at = p + 1
		sp.cond.Broadcast()
		sp.mu.Unlock()
	}
	return nil
}

// spineOf walks the spine as walk meets it (each node, then its child
// taking H's next step, before any edit), and lists the parts in the
// walk's order: the deepest spine node's first.
func (s *search) spineOf(root *pbcste.Run, h history) ([]spineNode, []part, error) {
	var spine []spineNode
	run := root
	for i := 0; ; i++ {
		if err := s.ctx.Err(); err != nil {
			return nil, nil, err
		}
		failed := -1
		if s.keyFailed {
			failed = s.failed
		}
		if s.seen.dominated(keyOf(run, i, failed), h, 0) {
			break
		}
		if s.res.States >= s.opt.MaxStates {
			return nil, nil, errBudget
		}
		s.res.States++
		spine = append(spine, spineNode{run, h, s.failed})
		if i == len(s.honest.Steps) {
			break
		}
		next := run.Fork()
		from := len(next.Events())
		next.Step(&s.steps[i])
		f, ok := s.conversed(next, next.Events()[from:], i)
		if !ok {
			break
		}
		s.failed += f
		run, h = next, h.extend(next.Events()[from:])
	}
	var parts []part
	for k := len(spine) - 1; k >= 0; k-- {
		if !s.mayEdit(spine[k].run, 0) {
			continue
		}
		if s.maySkip(k, false) {
			parts = append(parts, part{k, -1})
		}
		if s.mayInsert(k) {
			for mv := len(s.honest.Steps); mv < len(s.steps); mv++ {
				parts = append(parts, part{k, mv})
			}
		}
	}
	return spine, parts, nil
}

// recruit starts a helper for each core the pool lends, up to one fewer
// than the cores, until the walk ends; each gives its core back. s is a
// copy of the walk's search, which the helpers only read.
func (s *search) recruit(ctx context.Context, sp *split, spine []spineNode, parts []part, helpers *sync.WaitGroup) {
	for range runtime.GOMAXPROCS(0) - 1 {
		select {
		case <-s.opt.Spare.cores:
		case <-ctx.Done():
			return
		}
		helpers.Go(func() {
			defer s.opt.Spare.Give()
			s.help(ctx, sp, spine, parts)
		})
	}
}

// help walks parts ahead of the walk, each alone, until none is left
// within the window or the walk ends.
func (s *search) help(ctx context.Context, sp *split, spine []spineNode, parts []part) {
	for {
		sp.mu.Lock()
		p := -1
		for !sp.stop {
			if p = sp.next(); p >= 0 || sp.at+1+window >= len(parts) {
				break
			}
			sp.cond.Wait()
		}
		if sp.stop || p < 0 {
			sp.mu.Unlock()
			return
		}
		sp.taken[p] = true
		sp.mu.Unlock()
		h := *s
		h.ctx = ctx
		h.walked, h.seen = s.seen, newTable()
		h.res = &Result{}
		h.cands = nil
		h.ahead = &aheadWalk{}
		h.progress = nil
		err := h.walkPart(spine, parts[p])
		h.ahead.complete = err == nil
		sp.mu.Lock()
		sp.ahead[p] = h.ahead
		sp.cond.Broadcast()
		sp.mu.Unlock()
	}
}

// next is the first part after the walk's, within the window, that
// nobody has taken; -1 when none. Called with mu held.
func (sp *split) next() int {
	for p := sp.at + 1; p < len(sp.taken) && p <= sp.at+window; p++ {
		if !sp.taken[p] {
			return p
		}
	}
	return -1
}

// walkPart walks one part from its spine node, as walk would there.
func (s *search) walkPart(spine []spineNode, p part) error {
	n := spine[p.k]
	s.path = make([]int32, p.k, p.k+s.opt.Edits+1)
	for i := range s.path {
		s.path[i] = int32(i)
	}
	s.failed = n.failed
	if p.move < 0 {
		return s.walk(n.run, n.h, p.k+1, 1, false)
	}
	return s.child(n.run, n.h, p.move, p.k, 1, true)
}

// follow takes what a helper met in a part, node by node in its order,
// as the walk would have met it with its own table (see above).
func (s *search) follow(a *aheadWalk) error {
	for x := 0; x < len(a.events); {
		if err := s.ctx.Err(); err != nil {
			return err
		}
		e := &a.events[x]
		if s.seen.dominated(e.key, e.h, int(e.edits)) {
			if e.pruned {
				x++
			} else {
				x = int(e.end)
			}
			continue
		}
		if e.pruned {
			// Pruned there by a node this table pruned: walked here.
			run := s.env.Begin(len(s.honest.Steps) + s.opt.Edits)
			for _, st := range e.path {
				run.Step(&s.steps[st])
			}
			s.path, s.failed = slices.Clone(e.path), e.failed
			if err := s.visit(run, e.h, int(e.i), int(e.edits), e.inserted); err != nil {
				return err
			}
			x++
			continue
		}
		if s.res.States >= s.opt.MaxStates {
			return errBudget
		}
		s.res.States++
		if e.cand != nil {
			e.cand.states = s.res.States
			s.cands = append(s.cands, e.cand)
		}
		x++
	}
	return nil
}
