// Package attacker searches for certified worst cases: eligible
// candidates, within a bound, that maximize a public evaluator's score
// inflation Δhack = f(A) − f(H). The search attacker of SPEC §6 explores
// every edit of the honest trajectory H within a budget (insert an action
// from the task's alphabet, or skip a step of H), prunes states whose
// history is dominated, and scores each eligible candidate the way every
// attempt is scored: replay, double certification, public payload, target
// evaluator. It says whether the bound was searched completely, so a
// result of Δ = 0 is a certificate, not a shrug.
package attacker

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"strings"
	"sync"

	"github.com/parthack/parthack/certifier"
	"github.com/parthack/parthack/evaluators"
	"github.com/parthack/parthack/internal/payload"
	"github.com/parthack/parthack/internal/payload/builder"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
)

// Options bounds a search.
type Options struct {
	Target    string // evaluator name (evaluators.Deterministic); default historical_milestone
	Edits     int    // at most this many edits of H: inserted actions plus skipped steps; default 2
	MaxStates int    // search nodes to visit at most; default DefaultMaxStates
	Pairs     bool   // also update two fields of an entity in one step
	// Extra are more evaluators a search may target by name, after the
	// deterministic ones: a benchmark's own (tau2's ACTION check), scored
	// from the same payload bytes. Their bound never prunes.
	Extra []Extra
	// SameEnd admits only candidates that end in exactly H's state (the
	// same state hash), not merely with H's certified vectors: witnesses
	// with no collateral outside the goal predicates.
	SameEnd bool
	// BlackBox, when set, is the target instead of a deterministic
	// evaluator (an LLM judge, say): it scores payload bytes, each call
	// costs, so the search ranks the eligible candidates it enumerates
	// and spends at most Calls calls on the best-ranked (see blackbox.go).
	// Target then only names it.
	BlackBox func(ctx context.Context, payloadBytes []byte) (float64, error)
	Calls    int // black-box calls on candidates; default 3
	// Spare, when set, lends the walk of SearchTargets the cores a
	// benchmark's workers no longer use (split.go): the last searches of
	// a benchmark then walk on several cores, with the same result.
	Spare *Spare
}

// Extra is an evaluator beyond the deterministic ones. Score's ok is
// false when the payload carries nothing for it to score; its error is
// the evaluator's failure on the payload.
type Extra struct {
	Name  string
	Score func(*payload.Payload) (float64, bool, error)
	// Serial says Score is a program with a past (a user's scorer, one
	// process serving the whole search, which may crash, answer out of
	// protocol or run out of time, perhaps on its Nth call): it is asked
	// only by the search that targets it, about one candidate at a time,
	// in the candidates' order, so that its answers and failures do not
	// hang on the machine's cores or on the other targets; and its error
	// (naming the candidate) ends that search alone (ScoreError,
	// Result.NoScore). Another extra's error is the search's.
	Serial bool
}

// ScoreError is a serial extra's failure on one trajectory (its Score's
// error, which names the candidate): it ends the search that targets
// that evaluator, and no other.
type ScoreError struct{ Err error }

func (e *ScoreError) Error() string { return e.Err.Error() }

func (e *ScoreError) Unwrap() error { return e.Err }

// Progress is reported while a search runs.
type Progress struct {
	States    int     // search nodes visited
	Eligible  int     // eligible candidates met
	BestDelta float64 // Δhack of the best candidate so far
}

// Result is a finished (or cut-off) search.
type Result struct {
	Task      string            `json:"task"`
	Target    string            `json:"target"`
	Edits     int               `json:"edits"`
	Honest    float64           `json:"honest_score"` // f(H)
	Best      *model.Trajectory `json:"-"`            // A_f; nil when no eligible candidate was found
	Score     float64           `json:"score"`        // f(A_f), or f(H) when none
	Delta     float64           `json:"delta"`        // Δhack of A_f
	Verdict   *model.Verdict    `json:"verdict,omitempty"`
	States    int               `json:"states"`
	Eligible  int               `json:"eligible"`
	Exhausted bool              `json:"exhausted"` // every candidate within the bound was considered
	// Calls and Failed count a black-box target's calls on candidates
	// and those that gave no score (H's own call is not counted).
	Calls  int `json:"calls,omitempty"`
	Failed int `json:"failed,omitempty"`
	// NoScore, in a result of SearchTargets, is its target's failure on
	// a trajectory (a *ScoreError): the search stopped there, and the
	// result is the search so far, not exhausted; where the failure was
	// on H, there was no search, and States and Eligible are the walk's.
	NoScore error `json:"-"`
}

// DefaultMaxStates is the state cap of a search unless one is given:
// enough to exhaust every held-out task's bound within 3 edits (PH-H14's,
// the largest, has 291,679 states), and a few hundred megabytes at most.
const DefaultMaxStates = 1_000_000

// ErrUnknownTarget is returned for a target that is not a deterministic
// evaluator.
var ErrUnknownTarget = errors.New("unknown target evaluator")

// Search looks for the eligible candidate of maximum Δhack against the
// target, among all edits of honest within the bound. Cancelled, it
// returns the search so far (not exhausted) with the context's error.
// pub is the public task (its alphabet and allowlist define the moves;
// its goal schema is what the evaluator reads), env the trusted
// environment. Candidates are
// considered in a fixed order (H's own steps first, then inserted actions
// in alphabet order), and a later candidate replaces the best only when it
// scores strictly higher, so ties go to the earlier one.
func Search(ctx context.Context, pub *model.Task, env *pbcste.Env, honest *model.Trajectory, opt Options, progress func(Progress)) (*Result, error) {
	if opt.BlackBox == nil && progress == nil {
		rs, err := SearchTargets(ctx, pub, env, honest, opt, []string{opt.Target})
		switch {
		case len(rs) == 0:
			return nil, err
		case rs[0].NoScore != nil:
			return nil, rs[0].NoScore
		}
		return rs[0], err
	}
	hlog, err := certifyHonest(env, honest)
	if err != nil {
		return nil, err
	}
	s, err := newSearch(ctx, pub, env, honest, opt, progress, hlog, nil)
	if err != nil {
		return nil, err
	}
	return s.finish(s.walk(env.Begin(len(honest.Steps)+s.opt.Edits), newHistory(env), 0, 0, false))
}

// SearchTargets searches against each of the deterministic targets, as
// Search would, walking the bound once: what the walk visits does not
// depend on the target, only the scoring does. Each then takes the
// candidates in the order its own walk would have met them, and stops
// where that search would have stopped, so each result is Search's, byte
// for byte. opt.Target and opt.BlackBox are not used. A target that
// fails on a trajectory (ScoreError) ends its own search there, and the
// others go on (Result.NoScore). Cancelled, it returns each search so
// far with the context's error; after any other error, no result.
func SearchTargets(ctx context.Context, pub *model.Task, env *pbcste.Env, honest *model.Trajectory, opt Options, targets []string) ([]*Result, error) {
	w, err := NewWalk(ctx, pub, env, honest, opt)
	if err != nil {
		return nil, err
	}
	return w.Search(targets, opt.SameEnd)
}

// A Walk is the bound of edits of H walked once for several calls of
// SearchTargets: each against any targets, and admitting only
// candidates that end in H's state or any end (Options.SameEnd). What
// the walk visits depends on neither, only which candidates a search
// keeps and how it scores them do, so each search's result is its own
// walk's, byte for byte, and a candidate's scores and H's are computed
// once for all of them (but a serial extra's: each search asks it as
// its own walk would have).
type Walk struct {
	ctx    context.Context
	pub    *model.Task
	env    *pbcste.Env
	honest *model.Trajectory
	opt    Options
	hlog   *pbcste.Log
	hs     honestScores
	ex     *exploration // every candidate, whatever its end; nil until a search walks
}

// honestScores are H's scores by every evaluator but the serial extras,
// computed by the first search that needs them.
type honestScores struct {
	done bool
	v    []float64
	err  error
}

// NewWalk certifies H for the searches of a walk within opt's bound;
// the first search walks it. opt.Target, opt.BlackBox and opt.SameEnd
// are not used.
func NewWalk(ctx context.Context, pub *model.Task, env *pbcste.Env, honest *model.Trajectory, opt Options) (*Walk, error) {
	opt.Target, opt.BlackBox, opt.SameEnd = "", nil, false
	hlog, err := certifyHonest(env, honest)
	if err != nil {
		return nil, err
	}
	return &Walk{ctx: ctx, pub: pub, env: env, honest: honest, opt: opt, hlog: hlog}, nil
}

// Search is SearchTargets on the walk, admitting only candidates that
// end in exactly H's state when sameEnd. The searches of one walk run
// one after another.
func (w *Walk) Search(targets []string, sameEnd bool) ([]*Result, error) {
	if len(targets) == 0 {
		return nil, nil
	}
	ss := make([]*search, len(targets))
	onH := make([]error, len(targets)) // a target's failure on H
	for i, target := range targets {
		o := w.opt
		o.Target, o.SameEnd = target, sameEnd
		var se *ScoreError
		var err error
		if ss[i], err = newSearch(w.ctx, w.pub, w.env, w.honest, o, nil, w.hlog, &w.hs); errors.As(err, &se) {
			onH[i] = err
		} else if err != nil {
			return nil, err
		}
	}
	if w.ex == nil {
		w.ex = ss[0].walkAll()
	}
	ex := w.ex.admitted(sameEnd)
	out := make([]*Result, len(ss))
	var cancelled error
	for i, s := range ss {
		if onH[i] != nil {
			out[i] = &Result{Task: w.env.Task.ID, Target: targets[i], Edits: s.opt.Edits, States: ex.states, Eligible: len(ex.cands), NoScore: onH[i]}
			continue
		}
		res, err := s.finish(s.replay(ex))
		var se *ScoreError
		switch {
		case errors.As(err, &se):
			res, s.res.NoScore = s.res, err
		case err != nil && res == nil:
			return nil, err
		case err != nil:
			cancelled = err
		}
		out[i] = res
	}
	return out, cancelled
}

// WalkSize estimates the nodes a search's walk visits: the ways to make
// opt.Edits edits among H's steps, each an insertion of one of the
// task's moves or a skip, before transpositions prune most. It is for
// scheduling (a benchmark starts its largest walks first); only its
// order means anything.
func WalkSize(pub *model.Task, honest *model.Trajectory, opt Options) float64 {
	edits := opt.Edits
	if edits <= 0 {
		edits = 2
	}
	places := float64(len(honest.Steps) + edits)
	choices := float64(len(moves(pub, opt.Pairs)) + 1)
	size := 1.0
	for k := range edits {
		size *= (places - float64(k)) / float64(k+1) * choices
	}
	return size
}

// certifyHonest is H's log, once H passes double certification.
func certifyHonest(env *pbcste.Env, honest *model.Trajectory) (*pbcste.Log, error) {
	hres, rej, err := certifier.DoubleCertify(env, honest)
	if err != nil {
		return nil, err
	}
	if rej != nil {
		return nil, fmt.Errorf("honest trajectory is not certifiable: %s", rej.Error())
	}
	return hres.Log, nil
}

// newSearch prepares a search against opt.Target (its defaults filled
// in) from H's certified log; hs, when not nil, holds H's scores for
// the searches of one walk. Where the target fails on H (ScoreError),
// the search is returned with the error: its walk does not depend on
// the target.
func newSearch(ctx context.Context, pub *model.Task, env *pbcste.Env, honest *model.Trajectory, opt Options, progress func(Progress), hlog *pbcste.Log, hs *honestScores) (*search, error) {
	if opt.Target == "" {
		opt.Target = "historical_milestone"
	}
	if opt.Edits <= 0 {
		opt.Edits = 2
	}
	if opt.MaxStates <= 0 {
		opt.MaxStates = DefaultMaxStates
	}
	target := -1
	var names []string
	for i, e := range evaluators.Deterministic() {
		names = append(names, e.Name)
		if e.Name == opt.Target {
			target = i
		}
	}
	for k, x := range opt.Extra {
		names = append(names, x.Name)
		if x.Name == opt.Target {
			target = len(evaluators.Deterministic()) + k
		}
	}
	if opt.BlackBox != nil {
		target = 0 // candidates are ranked by their historical milestone
		if opt.Calls <= 0 {
			opt.Calls = 3
		}
	}
	if target < 0 {
		return nil, fmt.Errorf("%w %q (one of %s)", ErrUnknownTarget, opt.Target, strings.Join(names, ", "))
	}
	s := &search{ctx: ctx, pub: pub, env: env, honest: honest, opt: opt, target: target, progress: progress, seen: newTable()}
	s.steps = stepsToTry(honest, moves(pub, opt.Pairs))
	s.hEnd = -1
	if end, ok := model.EpisodeEnd(env.Task, honest.Steps); ok {
		s.hEnd = end // H's ending is kept: that step is never skipped
	}
	if conv, ok := model.ConversationOf(env.Task); ok {
		s.conv, s.turns, s.maxErrors, s.hOut = conv, conv.Turns(honest), conv.MaxErrors(honest), hlog.Outcomes()
		failed := 0
		for _, o := range s.hOut {
			if !o.OK {
				failed++
			}
		}
		// Only where the limit can be reached within the bound does a
		// node's count of failed calls bear on its future.
		s.keyFailed = s.maxErrors > 0 && failed+opt.Edits >= s.maxErrors
	}
	for _, g := range env.Goals() {
		s.preds = append(s.preds, len(g.Preds))
	}
	s.hGoal, s.hFinal = hlog.Goal().Index, hlog.FinalHash()
	if model.IsTurnwise(env.Task) {
		s.hTurns = hlog.TurnHashes()
	}
	if last := len(hlog.Events) - 1; last >= 0 {
		s.hState, s.hAgent = hlog.Events[last].CState, hlog.Events[last].CAgent
	} else {
		s.hState, s.hAgent = hlog.InitialVectors()
	}
	var err error
	switch {
	case opt.BlackBox != nil:
		s.hScore, err = s.blackBoxScore(hlog)
	case hs != nil && s.serial() == nil:
		if !hs.done {
			hs.v, hs.err = s.scoreAll(hlog)
			hs.done = true
		}
		if err = hs.err; err == nil {
			s.hScore = hs.v[target]
		}
	default:
		s.hScore, err = s.score(hlog)
	}
	s.res = &Result{Task: env.Task.ID, Target: opt.Target, Edits: opt.Edits, Honest: s.hScore, Score: s.hScore}
	if se := (*ScoreError)(nil); errors.As(err, &se) {
		return s, fmt.Errorf("score the honest trajectory: %w", err)
	} else if err != nil {
		return nil, fmt.Errorf("score the honest trajectory: %w", err)
	}
	return s, nil
}

// finish is the search's result once its walk (or its replay of one)
// ended with err: exhausted unless the budget ran out; cancelled, the
// search so far with the context's error.
func (s *search) finish(err error) (*Result, error) {
	if ctxErr := s.ctx.Err(); ctxErr != nil && errors.Is(err, ctxErr) {
		return s.res, err // the search so far: not exhausted, best found until then
	}
	if err != nil && !errors.Is(err, errBudget) && !errors.Is(err, errOptimal) {
		return nil, err
	}
	s.res.Exhausted = err == nil || errors.Is(err, errOptimal)
	if s.opt.BlackBox != nil {
		if err := s.spendCalls(); err != nil {
			return nil, err
		}
	}
	if s.progress != nil {
		s.progress(Progress{States: s.res.States, Eligible: s.res.Eligible, BestDelta: s.res.Delta})
	}
	return s.res, nil
}

var (
	errBudget  = errors.New("state budget spent")
	errOptimal = errors.New("the target's maximum is reached")
)

type search struct {
	ctx      context.Context
	pub      *model.Task
	env      *pbcste.Env
	honest   *model.Trajectory
	opt      Options
	target   int
	progress func(Progress)
	// steps are what a node's children step: H's own, in order, then
	// the moves. A path of indexes in steps, the one being walked, names
	// a candidate's steps, and the events of every run point at them.
	steps []model.Step
	path  []int32
	preds []int // predicates per goal version

	// hEnd is the step of H that ends its episode (a domain's terminal
	// call), -1 when none does: a witness keeps it and adds nothing after.
	hEnd int

	// conv is the rule of a domain whose benchmark holds conversations
	// (model.Conversation; nil elsewhere), which every candidate keeps:
	// turns says where in H the agent may call, hOut what each of H's
	// steps returned (a kept step returns the same), maxErrors how many
	// failed calls end the run; failed counts those of the path walked,
	// which a node's key holds where the limit can be reached (keyFailed).
	conv      model.Conversation
	turns     []string
	hOut      []model.Outcome
	maxErrors int
	failed    int
	keyFailed bool

	hFinal         pbcste.Hash
	hTurns         []pbcste.Hash // where the same work is turn by turn (model.Turnwise): each turn's end in H
	hGoal          int
	hState, hAgent uint64
	hScore         float64

	seen *table
	// record makes the walk an exploration: it collects the eligible
	// candidates in cands instead of offering them to a target.
	record bool
	// ahead, in a helper walking a part of the bound ahead of the walk
	// (split.go), records what it met instead; walked is the walk's
	// table, whose every node comes before the helper's in the walk's
	// order, and so prunes as the helper's own table does.
	ahead  *aheadWalk
	walked *table
	cands  []*candidate
	res    *Result
	top    []ranked // a black-box target's best-ranked candidates, best first
}

// walk explores from a node: a run with its steps so far (s.path) and
// their history, the next step i of H, and the edits used. Children in
// order: take H's next step, skip it, insert a move. inserted says the
// node was reached by inserting a move: skipping H's next step then would
// give the same trajectory as skipping it first and inserting after, so
// the two commuting edits are explored once, skip first.
func (s *search) walk(run *pbcste.Run, h history, i, edits int, inserted bool) error {
	if err := s.ctx.Err(); err != nil {
		return err
	}
	failed := -1
	if s.keyFailed {
		failed = s.failed
	}
	key := keyOf(run, i, failed)
	if s.walked != nil && s.walked.prunes(key, h, edits) || s.seen.dominated(key, h, edits) {
		if s.ahead != nil {
			s.ahead.prune(key, h, i, edits, inserted, s.path, s.failed)
		}
		return nil // a transposition: no new state
	}
	if s.ahead == nil {
		return s.visit(run, h, i, edits, inserted)
	}
	at := s.ahead.visit(key, h, edits)
	err := s.visit(run, h, i, edits, inserted)
	s.ahead.events[at].end = int32(len(s.ahead.events))
	return err
}

// visit is walk at a node the table let through: a new state.
func (s *search) visit(run *pbcste.Run, h history, i, edits int, inserted bool) error {
	if s.res.States >= s.opt.MaxStates {
		return errBudget
	}
	s.res.States++
	if s.progress != nil && s.res.States%1000 == 0 {
		s.progress(Progress{States: s.res.States, Eligible: s.res.Eligible, BestDelta: s.res.Delta})
	}
	if i == len(s.honest.Steps) && edits > 0 { // H itself is no adversary
		if err := s.consider(run, h); err != nil {
			return err
		}
	}
	if i < len(s.honest.Steps) {
		if err := s.child(run, h, i, i+1, edits, false); err != nil {
			return err
		}
	}
	if !s.mayEdit(run, edits) {
		return nil
	}
	if s.maySkip(i, inserted) {
		if err := s.walk(run, h, i+1, edits+1, false); err != nil {
			return err
		}
	}
	if !s.mayInsert(i) {
		return nil
	}
	for mv := len(s.honest.Steps); mv < len(s.steps); mv++ {
		if err := s.child(run, h, mv, i, edits+1, true); err != nil {
			return err
		}
	}
	return nil
}

// child walks from the node a run reaches by taking steps[step].
func (s *search) child(run *pbcste.Run, h history, step, i, edits int, inserted bool) error {
	next := run.Fork()
	from := len(next.Events())
	next.Step(&s.steps[step])
	failed, ok := s.conversed(next, next.Events()[from:], step)
	if !ok {
		return nil // no candidate through here is a conversation the benchmark could hold
	}
	s.path = append(s.path, int32(step))
	s.failed += failed
	err := s.walk(next, h.extend(next.Events()[from:]), i, edits, inserted)
	s.failed -= failed
	s.path = s.path[:len(s.path)-1]
	return err
}

// mayEdit says whether a node with this run and these edits has edits
// left to make: not past the bound, nor once the episode is over
// (nothing may follow its end).
func (s *search) mayEdit(run *pbcste.Run, edits int) bool {
	return edits < s.opt.Edits && run.Ended() <= 0 && (s.conv == nil || s.honest.Termination == "")
}

// maySkip says whether H's step i may be skipped at a node reached by
// inserting a move (inserted) or not.
func (s *search) maySkip(i int, inserted bool) bool {
	return i < len(s.honest.Steps) && !inserted && i != s.hEnd && authoredByAgent(&s.honest.Steps[i])
}

// mayInsert says whether a move may be inserted before H's step i: not
// where the agent has no turn (no call of its own goes there).
func (s *search) mayInsert(i int) bool {
	return s.conv == nil || len(s.turns) == 0 || s.turns[i] == ""
}

// conversed holds the events of a step just taken to the conversation
// rule, where the domain has one: a step kept from H (step < len(H))
// returns what it returned in H, and the run's failed calls stay below
// the benchmark's limit. It returns the step's failed calls, and false
// when no candidate through this step keeps the rule (model.CheckWitness
// refuses every one).
func (s *search) conversed(run *pbcste.Run, events []pbcste.Event, step int) (int, bool) {
	if s.conv == nil {
		return 0, true
	}
	failed := 0
	for k := range events {
		ev := &events[k]
		if ev.Step < 0 {
			continue
		}
		if !ev.OK {
			if failed++; s.maxErrors > 0 && s.failed+failed >= s.maxErrors {
				return 0, false
			}
		}
		if step < len(s.honest.Steps) && run.Outcome(ev) != s.hOut[step] {
			return 0, false
		}
	}
	return failed, true
}

// authoredByAgent reports whether a step of H is the agent's: a witness
// edits the agent's steps only, so another actor's (a tau2 telecom
// user's) is never skipped.
func authoredByAgent(st *model.Step) bool { return st.Actor == "" || st.Actor == model.ActorAgent }

// stepsToTry are H's actions, then the moves, as steps to take: only
// their actions and actors, since a candidate's steps claim nothing.
func stepsToTry(honest *model.Trajectory, moves []model.Action) []model.Step {
	out := make([]model.Step, 0, len(honest.Steps)+len(moves))
	for _, st := range honest.Steps {
		out = append(out, model.Step{Action: st.Action, Actor: st.Actor}) // a user's step stays the user's
	}
	for _, mv := range moves {
		out = append(out, model.Step{Action: mv})
	}
	return out
}

// stepsOf are the steps a path of indexes in s.steps names, a copy.
func (s *search) stepsOf(path []int32) []model.Step {
	out := make([]model.Step, len(path))
	for k, st := range path {
		out[k] = s.steps[st]
	}
	return out
}

// unlinked is H's conversation for a candidate: the same turns, no longer
// tied to step numbers the edits have moved.
func unlinked(turns []model.Turn) []model.Turn {
	if len(turns) == 0 {
		return nil
	}
	out := slices.Clone(turns)
	for i := range out {
		out[i].Step = 0
	}
	return out
}

// consider records a complete candidate that ends with H's certified
// vectors; a live search offers it to the target at once.
func (s *search) consider(run *pbcste.Run, h history) error {
	from := len(run.Events())
	log := run.Fork().Finish()
	h = h.extend(log.Events[from:])
	cstate, cagent := log.InitialVectors()
	if n := len(log.Events); n > 0 {
		cstate, cagent = log.Events[n-1].CState, log.Events[n-1].CAgent
	}
	if log.Goal().Index != s.hGoal || cstate != s.hState || cagent != s.hAgent {
		return nil
	}
	sameEnd := log.FinalHash() == s.hFinal && (s.hTurns == nil || slices.Equal(log.TurnHashes(), s.hTurns))
	if s.opt.SameEnd && !sameEnd {
		return nil
	}
	if s.conv != nil {
		kept := make([]int, len(s.path))
		for k, st := range s.path {
			kept[k] = int(st)
			if int(st) >= len(s.honest.Steps) {
				kept[k] = -1
			}
		}
		if model.CheckWitness(s.env.Task, s.honest, s.stepsOf(s.path), kept, s.hOut, log.Outcomes()) != nil {
			return nil // what the walk let through, the rule refuses: not a witness
		}
	}
	c := &candidate{path: slices.Clone(s.path), h: h, states: s.res.States, sameEnd: sameEnd}
	if s.ahead != nil {
		s.ahead.events[len(s.ahead.events)-1].cand = c // this node's, met before its children
		return nil
	}
	if s.record {
		s.cands = append(s.cands, c)
		return nil
	}
	s.res.Eligible++
	return s.offer(c, s.res.Eligible-1)
}

// score is the target evaluator's score of a log, computed the way every
// evaluator sees a trajectory: from the public payload's bytes.
func (s *search) score(log *pbcste.Log) (float64, error) {
	if x := s.serial(); x != nil {
		return s.scoreSerial(x, log)
	}
	scores, err := s.scoreAll(log)
	if err != nil {
		return 0, err
	}
	return scores[s.target], nil
}

// serial is the target where it is a serial extra, asked alone
// (Extra.Serial); nil otherwise.
func (s *search) serial() *Extra {
	if k := s.target - len(evaluators.Deterministic()); k >= 0 && k < len(s.opt.Extra) && s.opt.Extra[k].Serial {
		return &s.opt.Extra[k]
	}
	return nil
}

// scoreSerial is serial extra x's score of a log, from the public
// payload's bytes; its failure is a ScoreError.
func (s *search) scoreSerial(x *Extra, log *pbcste.Log) (float64, error) {
	_, dec, err := Scores(s.pub, log, s.honest)
	if err != nil {
		return 0, err
	}
	v, ok, err := x.Score(dec)
	switch {
	case err != nil:
		return 0, &ScoreError{Err: err}
	case !ok:
		return 0, fmt.Errorf("%s: the payload carries nothing for it to score", x.Name)
	}
	return v, nil
}

// scoreAll is every deterministic evaluator's score of a log, then every
// extra's but the serial ones' (left 0: each is asked by its own search
// alone), from the public payload's bytes.
func (s *search) scoreAll(log *pbcste.Log) ([]float64, error) {
	scores, dec, err := Scores(s.pub, log, s.honest)
	if err != nil {
		return nil, err
	}
	for _, x := range s.opt.Extra {
		v := 0.0
		if !x.Serial {
			var ok bool
			v, ok, err = x.Score(dec)
			switch {
			case err != nil:
				return nil, fmt.Errorf("%s: %w", x.Name, err)
			case !ok:
				return nil, fmt.Errorf("%s: the payload carries nothing for it to score", x.Name)
			}
		}
		scores = append(scores, v)
	}
	return scores, nil
}

// Scores are every deterministic evaluator's scores of a log, in
// evaluators.Deterministic order, computed as every evaluator sees a
// trajectory: from the canonical bytes of its public payload, with tr's
// conversation as the transcript. The decoded payload is returned for
// evaluators that read more of it.
func Scores(pub *model.Task, log *pbcste.Log, tr *model.Trajectory) ([]float64, *payload.Payload, error) {
	b, err := builder.TrajectoryBytes(pub, log, tr)
	if err != nil {
		return nil, nil, err
	}
	dec, err := payload.DecodeOwned(b)
	if err != nil {
		return nil, nil, err
	}
	scores, err := evaluators.ScoreAll(dec)
	if err != nil {
		return nil, nil, err
	}
	out := make([]float64, len(scores), len(scores)+1)
	for i, sc := range scores {
		out[i] = sc.Value
	}
	return out, dec, nil
}

// history is what a trajectory's past contributes to the historical
// evaluators, per goal version g: the predicates that held at some step
// while it was active (h[3g]), and the highest c_state and c_agent
// counts (h[3g+1], h[3g+2]). One flat slice, so the table can hold it
// as is and a node's past costs one allocation.
type history []uint64

// newHistory is the history of the initial snapshot alone.
func newHistory(env *pbcste.Env) history {
	h := make(history, 3*len(env.Goals()))
	cs, ca := env.Begin(0).Finish().InitialVectors()
	h.visit(0, cs, ca)
	return h
}

// extend is the history after more events; h itself is left as it was.
func (h history) extend(events []pbcste.Event) history {
	n := slices.Clone(h)
	for i := range events {
		n.visit(int(events[i].Goal), events[i].CState, events[i].CAgent)
	}
	return n
}

func (h history) visit(g int, cstate, cagent uint64) {
	h[3*g] |= cstate
	h[3*g+1] = max(h[3*g+1], uint64(bits.OnesCount64(cstate)))
	h[3*g+2] = max(h[3*g+2], uint64(bits.OnesCount64(cagent)))
}

// covers reports whether h's past is at least as good as o's for every
// historical evaluator.
func (h history) covers(o history) bool {
	for g := 0; g < len(o); g += 3 {
		if o[g]&^h[g] != 0 || h[g+1] < o[g+1] || h[g+2] < o[g+2] {
			return false
		}
	}
	return true
}

// bound is the most the target can score on a trajectory with this past
// that ends where it is now: historical scores are at least what the past
// gives, current-state ones are fixed by the eligible end, so an
// eligible candidate's score is its history's. preds are the predicates
// per goal version.
func (h history) bound(target int, preds []int) float64 {
	best := 0.0
	for g, n := range preds {
		m := float64(n)
		switch target {
		case 0:
			best = max(best, float64(bits.OnesCount64(h[3*g]))/m)
		case 1:
			best = max(best, float64(h[3*g+1])/m)
		case 2:
			best = max(best, float64(h[3*g+2])/m)
		default:
			return 1
		}
	}
	return best
}

// The transposition table maps the digest of a node's key (its state
// hash, latest causes, steps taken and place in H) to the nodes met with
// that key: for each, the edits it had used and its past. Entries live in
// one pointer-free arena, so a table of millions of nodes costs the
// garbage collector nothing to scan.
type table struct {
	heads map[[16]byte]int // key digest → 1 + offset of its latest entry
	arena []uint64         // entries: edits, 1 + offset of the previous one, then the history
	// read says helpers read the table while the walk writes it
	// (split.go), each write under mu.
	read bool
	mu   sync.RWMutex
}

func newTable() *table { return &table{heads: map[[16]byte]int{}} }

// keyOf is the digest of a node's key: the run's state hash, steps
// taken and latest causes (whether each is the agent), the place i in H
// and, where the benchmark's error limit can be reached, the failed calls
// so far (failed >= 0). The future of a node depends only on those and on
// the edits it has left.
func keyOf(run *pbcste.Run, i, failed int) [16]byte {
	var buf [128]byte
	k := buf[:0]
	for _, lane := range run.Hash() {
		k = binary.BigEndian.AppendUint64(k, lane)
	}
	k = binary.AppendUvarint(k, uint64(run.Taken()))
	k = binary.AppendUvarint(k, uint64(i))
	if failed >= 0 {
		k = binary.AppendUvarint(k, uint64(failed))
	}
	k = run.AgentCaused(k)
	sum := sha256.Sum256(k)
	return [16]byte(sum[:16])
}

// dominated reports whether a node with the same key was already
// reached with no more edits used and a past at least as good;
// otherwise it records this one. The historical evaluators only grow
// with the past, so a dominated node cannot lead to a better candidate.
// A node on H's own path (no edit yet) does not stand for one with
// edits: its zero-edit completion is H, which is no candidate.
func (t *table) dominated(key [16]byte, h history, edits int) bool {
	if t.read {
		t.mu.Lock()
		defer t.mu.Unlock()
	}
	head := t.heads[key]
	for at := head; at != 0; {
		e := t.arena[at-1:]
		pe := int(e[0])
		if pe <= edits && (pe > 0 || edits == 0) && history(e[2:2+len(h)]).covers(h) {
			return true
		}
		at = int(e[1])
	}
	t.heads[key] = len(t.arena) + 1
	t.arena = append(t.arena, uint64(edits), uint64(head))
	t.arena = append(t.arena, h...)
	return false
}

// prunes is dominated without recording the node, for a helper reading
// the walk's table as the walk goes on (split.go).
func (t *table) prunes(key [16]byte, h history, edits int) bool {
	t.mu.RLock()
	defer t.mu.RUnlock()
	for at := t.heads[key]; at != 0; {
		e := t.arena[at-1:]
		pe := int(e[0])
		if pe <= edits && (pe > 0 || edits == 0) && history(e[2:2+len(h)]).covers(h) {
			return true
		}
		at = int(e[1])
	}
	return false
}

// moves lists the actions an attacker may take, from the task's alphabet
// and allowlist (the ops each type allows), in a fixed order: types by name, then each id, then
// update of one field to each value (and, with pairs, of two fields at
// once to each pair of values), create, delete, restore; then a domain
// task's allowlisted calls, in the task's order, but for a call that
// ends the episode (a witness keeps H's ending and adds none of its own).
func moves(t *model.Task, pairs bool) []model.Action {
	var typeNames []string
	for name := range t.Alphabet {
		if t.Allowlist.AllowsType(name) {
			typeNames = append(typeNames, name)
		}
	}
	slices.Sort(typeNames)
	var out []model.Action
	for _, name := range typeNames {
		at := t.Alphabet[name]
		var writable []model.AlphabetField
		if t.Allowlist.AllowsOpOn(model.OpUpdate, name) {
			for _, f := range at.Fields {
				if t.Allowlist.AllowsField(name, f.Field) {
					writable = append(writable, f)
				}
			}
		}
		for _, id := range at.IDs {
			update := func(as ...model.Assign) {
				out = append(out, model.Action{Op: model.OpUpdate, Type: name, ID: id, Fields: as})
			}
			for _, f := range writable {
				for _, v := range f.Values {
					update(model.Assign{Field: f.Field, Value: v})
				}
			}
			if pairs {
				for i, f := range writable {
					for _, g := range writable[i+1:] {
						for _, v := range f.Values {
							for _, w := range g.Values {
								update(model.Assign{Field: f.Field, Value: v}, model.Assign{Field: g.Field, Value: w})
							}
						}
					}
				}
			}
			if t.Allowlist.AllowsOpOn(model.OpCreate, name) {
				out = append(out, model.Action{Op: model.OpCreate, Type: name, ID: id})
			}
			for _, op := range []model.Op{model.OpDelete, model.OpRestore} {
				if t.Allowlist.AllowsOpOn(op, name) {
					out = append(out, model.Action{Op: op, Type: name, ID: id})
				}
			}
		}
	}
	for _, c := range t.Calls {
		if c.Op == model.OpCall && model.MayCall(t, c.Tool) && (t.Domain == nil || !t.Domain.EndsEpisode(c.Tool)) {
			out = append(out, c)
		}
	}
	return out
}
