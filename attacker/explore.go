package attacker

import (
	"errors"
	"fmt"
	"runtime"
	"sync"

	"github.com/parthack/parthack/certifier"
	"github.com/parthack/parthack/model"
)

// An exploration is the target-independent half of a search: the walk of
// every edit of H within the bound, and the eligible candidates it met,
// in candidate order. What the walk visits does not depend on the target
// (only scoring does), so the searches of one task against several
// targets (SearchTargets) walk once and share it: each then offers the
// candidates to its target in the same order a search of its own would
// have, stopping where that search would have stopped. Results are the
// same, byte for byte.
type exploration struct {
	cands  []*candidate
	states int   // states visited by the whole walk
	done   bool  // the walk finished: every candidate within the bound was met
	err    error // the context's error when the walk was cancelled
}

// candidate is an eligible candidate met by the walk.
type candidate struct {
	path    []int32 // its steps, as indexes in search.steps
	h       history
	states  int  // states visited when it was met
	sameEnd bool // it ends in exactly H's state (Options.SameEnd)

	once   sync.Once
	scores []float64 // every evaluator's score but a serial extra's, from the public payload
	err    error
}

// scoresOf scores a candidate once, whatever the number of searches (or
// goroutines) asking.
func (s *search) scoresOf(c *candidate) ([]float64, error) {
	c.once.Do(func() {
		c.scores, c.err = s.scoreAll(s.env.Replay(s.stepsOf(c.path)))
	})
	return c.scores, c.err
}

// targetScore is the target's score of a candidate: a serial extra's
// asked now, as this search offers it (Extra.Serial), else read off
// every evaluator's scores.
func (s *search) targetScore(c *candidate) (float64, error) {
	if x := s.serial(); x != nil {
		return s.scoreSerial(x, s.env.Replay(s.stepsOf(c.path)))
	}
	scores, err := s.scoresOf(c)
	if err != nil {
		return 0, err
	}
	return scores[s.target], nil
}

// offer gives the target an eligible candidate, the idx-th met, as
// consider always did: it becomes the best when it scores strictly
// higher; errOptimal when the target's maximum is reached.
func (s *search) offer(c *candidate, idx int) error {
	s.res.Eligible = idx + 1
	if s.opt.BlackBox != nil {
		s.shortlist(c.path, c.h)
		return nil
	}
	if s.res.Best != nil && c.h.bound(s.target, s.preds) <= s.res.Score {
		return nil // its history cannot beat the best: skip the payload
	}
	score, err := s.targetScore(c)
	if err != nil {
		return err
	}
	if s.res.Best != nil && score <= s.res.Score {
		return nil
	}
	cand := &model.Trajectory{Task: s.env.Task.ID, Name: "search witness", Steps: s.stepsOf(c.path), Transcript: unlinked(s.honest.Transcript)}
	for k := range cand.Steps {
		cand.Steps[k].Index = k
	}
	v, err := certifier.DoublePair(s.env, s.honest, cand)
	if err != nil {
		return err
	}
	if !v.Eligible {
		return fmt.Errorf("attacker: the replay's vectors say eligible but the certifier says %s: %s", v.Reason, v.Evidence.Detail)
	}
	s.res.Best, s.res.Score, s.res.Delta, s.res.Verdict = cand, score, score-s.hScore, &v
	cand.Note = fmt.Sprintf("found by the search attacker against %s within %d edits of the honest trajectory: Δhack %+.3f", s.opt.Target, s.opt.Edits, s.res.Delta)
	if score >= 1 {
		return errOptimal
	}
	return nil
}

// replay offers an exploration's candidates to the search's target, in
// order. A target whose bound never prunes (a current-state evaluator)
// needs every candidate's score, so those are computed first on every
// core; the scores are pure, so the result does not depend on how many.
// A serial extra (Extra.Serial) is none of those: it is asked about each
// candidate as it is offered, in order.
func (s *search) replay(ex *exploration) error {
	if s.target >= 3 && s.serial() == nil {
		var wg sync.WaitGroup
		next := make(chan *candidate)
		for range min(runtime.GOMAXPROCS(0), len(ex.cands)) {
			wg.Go(func() {
				for c := range next {
					if s.ctx.Err() == nil {
						s.scoresOf(c)
					}
				}
			})
		}
		for _, c := range ex.cands {
			next <- c
		}
		close(next)
		wg.Wait()
		if err := s.ctx.Err(); err != nil {
			return err
		}
	}
	for idx, c := range ex.cands {
		s.res.States = c.states
		if err := s.offer(c, idx); err != nil {
			return err
		}
	}
	s.res.States, s.res.Eligible = ex.states, len(ex.cands)
	switch {
	case ex.err != nil:
		return ex.err
	case !ex.done:
		return errBudget
	}
	return nil
}

// walker is a copy of the search that walks the bound afresh, recording
// every candidate whatever its end.
func (s *search) walker() *search {
	w := *s
	w.opt.SameEnd = false
	w.res = &Result{}
	w.seen = newTable()
	w.path = nil
	w.record = true
	w.cands = nil
	return &w
}

// admitted is the exploration as a search that admits only candidates
// that end in H's state (sameEnd) or any would have made it: the same
// walk, and those of its candidates.
func (ex *exploration) admitted(sameEnd bool) *exploration {
	if !sameEnd {
		return ex
	}
	out := *ex
	out.cands = nil
	for _, c := range ex.cands {
		if c.sameEnd {
			out.cands = append(out.cands, c)
		}
	}
	return &out
}

// walkAll walks every edit of H within the bound, offering nothing, and
// records every candidate whatever its end (exploration.admitted picks).
func (s *search) walkAll() *exploration {
	w := s.walker()
	root := s.env.Begin(len(s.honest.Steps) + s.opt.Edits)
	var err error
	if s.opt.Spare != nil {
		err = w.walkSplit(root, newHistory(s.env))
	} else {
		err = w.walk(root, newHistory(s.env), 0, 0, false)
	}
	ex := &exploration{cands: w.cands, states: w.res.States, done: err == nil}
	if err != nil && !errors.Is(err, errBudget) {
		ex.err = err
	}
	return ex
}
