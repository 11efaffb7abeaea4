package attacker

import (
	"fmt"
	"slices"

	"github.com/parthack/parthack/certifier"
	"github.com/parthack/parthack/internal/payload/builder"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
)

// A black-box target (an LLM judge) costs a call per score, so the search
// runs best-first within a budget (SPEC §6): it enumerates the eligible
// candidates within the bound as usual, ranks them by what their history
// gives the historical evaluators (milestones, then peak progress, then
// candidate order), and spends the budget on the best-ranked. Every call
// counts, failed ones included; the best scored candidate is A_f, ties to
// the earlier-ranked.

// ranked is a shortlisted candidate: its steps and rank keys.
type ranked struct {
	steps     []model.Step
	milestone float64
	peak      float64
	order     int
}

func (a ranked) before(b ranked) bool {
	if a.milestone != b.milestone {
		return a.milestone > b.milestone
	}
	if a.peak != b.peak {
		return a.peak > b.peak
	}
	return a.order < b.order
}

// shortlist keeps the candidate if it ranks among the best Calls.
func (s *search) shortlist(path []int32, h history) {
	c := ranked{milestone: h.bound(0, s.preds), peak: h.bound(1, s.preds), order: s.res.Eligible}
	i := slices.IndexFunc(s.top, func(o ranked) bool { return c.before(o) })
	if i < 0 {
		i = len(s.top)
	}
	if i >= s.opt.Calls {
		return
	}
	c.steps = s.stepsOf(path)
	s.top = slices.Insert(s.top, i, c)
	if len(s.top) > s.opt.Calls {
		s.top = s.top[:s.opt.Calls]
	}
}

// spendCalls scores the shortlist with the black box, best-ranked first.
func (s *search) spendCalls() error {
	for _, c := range s.top {
		if err := s.ctx.Err(); err != nil {
			return err
		}
		cand := &model.Trajectory{Task: s.env.Task.ID, Name: "search witness", Steps: c.steps}
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
		s.res.Calls++
		score, err := s.blackBoxScore(s.env.Replay(cand.Steps))
		if err != nil {
			s.res.Failed++
			continue
		}
		if s.res.Best == nil || score > s.res.Score {
			s.res.Best, s.res.Score, s.res.Delta, s.res.Verdict = cand, score, score-s.hScore, &v
			cand.Note = fmt.Sprintf("found by the budgeted search against %s within %d edits of the honest trajectory: Δhack %+.3f", s.opt.Target, s.opt.Edits, s.res.Delta)
		}
	}
	return nil
}

// blackBoxScore scores a log with the black box, from its payload bytes.
func (s *search) blackBoxScore(log *pbcste.Log) (float64, error) {
	p, err := builder.BuildTrajectory(s.pub, log, s.honest)
	if err != nil {
		return 0, err
	}
	return s.opt.BlackBox(s.ctx, p.Bytes())
}
