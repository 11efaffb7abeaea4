// Package bench is the trusted benchmark runner: it certifies each task's
// honest trajectory (and strict rollback) by double certification, runs
// the search attacker against every deterministic evaluator (and the LLM
// judges it is given), scores H, A and R from their public payloads'
// bytes, and writes the rows of a ledger. It reads the sealed suite;
// package report turns its ledger into tables and never runs anything.
package bench

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/parthack/parthack/attacker"
	"github.com/parthack/parthack/certifier"
	"github.com/parthack/parthack/evaluators"
	"github.com/parthack/parthack/internal/llmclient"
	"github.com/parthack/parthack/internal/payload"
	"github.com/parthack/parthack/internal/payload/builder"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
	"github.com/parthack/parthack/report"
	"github.com/parthack/parthack/tasks"
	"github.com/parthack/parthack/tasks/sealed"
)

// ReferenceTarget is the evaluator whose adversaries form the shared
// reference set A_ref (SPEC §6).
const ReferenceTarget = "historical_milestone"

// RunOptions bounds the searches of a benchmark run (attacker.Options
// without the target: every deterministic evaluator is a target) and
// names the LLM judges to score the shared reference set with.
type RunOptions struct {
	Edits     int     // at most this many edits of H; default 2
	MaxStates int     // search nodes per task and target; default attacker.DefaultMaxStates
	Workers   int     // tasks searched at once; default GOMAXPROCS
	Judges    []Judge // black-box evaluators, the LLM judges; none by default
	// JudgeCalls, when positive, gives every judge a target-specific run
	// too: a budgeted best-first search that spends this many calls on
	// candidates (the paper's K is 3). Zero: shared-set rows only.
	JudgeCalls int
	// Shard, when its Count is positive, runs only that shard's slice of
	// the (task, target) pairs (see report.Shard); the zero Shard runs them all.
	Shard report.Shard
}

// Judge is a black-box evaluator, an LLM judge, as Run uses it: a ledger
// target and a function that scores one trajectory given as its public
// payload's bytes.
type Judge struct {
	Target string // report.TargetJudge or report.TargetIDJ
	// Score scores the payload. An error wrapping llmclient.ErrTransport or
	// llmclient.ErrSchema is a call that failed after its retry: the row leaves
	// that score out and says why (see report.Ledger). Any other error (a
	// cancelled run, a recording that cannot be written or lacks the
	// request) stops the run, since the ledger would not be the judge's.
	Score func(ctx context.Context, payloadBytes []byte) (float64, error)
}

// Run benchmarks every deterministic evaluator on the tasks and returns
// the ledger. Per task: the search attacker against Historical Milestone
// gives A_ref, and every evaluator gets a shared row, Δhack = f(A_ref) −
// f(H); then each evaluator gets a targeted row from its own search
// (Historical Milestone's is the same search). Every row carries f(H) and
// the certified P_state(H) and, for a task with a strict rollback R, f(R)
// and the certified P_state(R); scores are computed from the public
// payload's bytes, as every evaluator sees a trajectory. A search's
// attempts are the nodes it visited, its valid attempts the eligible
// candidates it met.
//
// Each of opt.Judges scores H, A_ref (when there is one) and R (when the
// task has one) and gets a shared row like the deterministic evaluators'.
// With opt.JudgeCalls, each judge is also attacked directly by the
// budgeted best-first search of SPEC §6 (attacker.Options.BlackBox) for a
// targeted row. A task's judge calls run one at a time, in that order, so
// a recording of them replays the same way whatever order the tasks
// finish in.
//
// Rows come shared set first (the deterministic evaluators, then the
// judges), then targeted (the deterministic evaluators, then the judges);
// within that, by evaluator, then task.
//
// With opt.Shard, Run does only that shard's (task, target) pairs and
// returns their rows, in the same order; the rows of every shard,
// merged, are the unsharded ledger (see report.Shard and report.Merge).
//
// Tasks are searched in parallel, largest walk first, and the ledger does
// not depend on the order they start or finish in. progress, when not nil, gets one line per search,
// from one goroutine at a time.
func Run(ctx context.Context, ts []*tasks.Task, opt RunOptions, progress func(string)) (*report.Ledger, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var mu sync.Mutex
	say := func(line string) {
		if progress != nil {
			mu.Lock()
			defer mu.Unlock()
			progress(line)
		}
	}
	evs := evaluators.Deterministic()
	var ids, evNames, judges []string
	for _, t := range ts {
		ids = append(ids, t.ID)
	}
	for _, ev := range evs {
		evNames = append(evNames, ev.Name)
	}
	for _, j := range opt.Judges {
		judges = append(judges, j.Target)
	}
	slice := opt.Shard.Slice(report.Pairs(ids, append(slices.Clone(evNames), judges...)))
	owned := map[report.Pair]bool{}
	var work []int // indexes in ts of the tasks with a pair in the slice
	for _, p := range slice {
		owned[p] = true
		if i := slices.Index(ids, p.Task); len(work) == 0 || work[len(work)-1] != i {
			work = append(work, i)
		}
	}
	results := make([][]report.Row, len(ts))
	var firstErr error // the failure that stopped the run, not the cancellations it caused
	next := make(chan int)
	var wg sync.WaitGroup
	// A worker with no task left lends its core to the walks still going.
	spare := attacker.NewSpare(min(workers, len(work)))
	for range min(workers, len(work)) {
		wg.Go(func() {
			defer spare.Give()
			for i := range next {
				owns := func(target string) bool { return owned[report.Pair{Task: ts[i].ID, Target: target}] }
				shared, judged, targeted, judgedTargeted, err := runTask(ctx, ts[i], opt, owns, spare, say)
				results[i] = slices.Concat(shared, judged, targeted, judgedTargeted)
				if err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = fmt.Errorf("%s: %w", ts[i].ID, err)
					}
					mu.Unlock()
					cancel()
				}
			}
		})
	}
	for _, i := range largestFirst(ts, work, opt.Edits) {
		next <- i
	}
	close(next)
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	rows := map[report.RowKey]report.Row{}
	for _, rs := range results {
		for _, r := range rs {
			rows[report.RowKey{Set: r.Set, Target: r.Target, Task: r.Task}] = r
		}
	}
	l := &report.Ledger{}
	for _, k := range report.RowOrder(ids, evNames, judges, opt.JudgeCalls, slice) {
		r, ok := rows[k]
		if !ok {
			return nil, fmt.Errorf("bench: the run made no row %s", k)
		}
		l.Rows = append(l.Rows, r)
	}
	return l, nil
}

// largestFirst orders the tasks to search by the size of their walks,
// largest first (attacker.WalkSize), so that the longest does not start
// last and leave the other workers idle: the ledger does not depend on
// the order.
func largestFirst(ts []*tasks.Task, work []int, edits int) []int {
	size := make(map[int]float64, len(work))
	for _, i := range work {
		size[i] = attacker.WalkSize(ts[i].Public, ts[i].HonestTrajectory, attacker.Options{Edits: edits})
	}
	out := slices.Clone(work)
	slices.SortStableFunc(out, func(a, b int) int { return cmp.Compare(size[b], size[a]) })
	return out
}

// runTask produces one task's shared, judged and targeted rows, in
// evaluator (or judge) order, for the targets it owns (the pairs of the
// run's shard). The search against Historical Milestone runs whatever the
// targets: every shared row needs A_ref.
func runTask(ctx context.Context, t *tasks.Task, opt RunOptions, owns func(target string) bool, spare *attacker.Spare, progress func(string)) (shared, judged, targeted, judgedTargeted []report.Row, err error) {
	trusted, err := sealed.Trusted(t.ID)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	env, err := pbcste.Compile(trusted)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	h := t.HonestTrajectory
	hres, rej, err := certifier.DoubleCertify(env, h)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	if rej != nil {
		return nil, nil, nil, nil, fmt.Errorf("honest trajectory is not certifiable: %s", rej.Error())
	}
	hb, err := payloadBytes(t.Public, env, h)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	fh, err := scores(hb)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	base := report.Row{Task: t.ID, PStateH: hres.Cert.PState.Float()}
	var rb []byte // R's payload, when the task has a strict rollback
	var fr []float64
	if r := t.RollbackTrajectory; r != nil {
		v, err := certifier.DoubleRollback(env, h, r)
		if err != nil {
			return nil, nil, nil, nil, err
		}
		if !v.Eligible {
			return nil, nil, nil, nil, fmt.Errorf("the stored rollback is not a strict rollback: %s", v.Reason)
		}
		if rb, err = payloadBytes(t.Public, env, r); err != nil {
			return nil, nil, nil, nil, err
		}
		if fr, err = scores(rb); err != nil {
			return nil, nil, nil, nil, err
		}
		pr := v.Candidate.PState.Float()
		base.PStateR = &pr
	}
	row := func(set string, e int, target string) report.Row {
		r := base
		fhe := fh[e]
		r.Set, r.Target, r.Honest = set, target, &fhe
		if fr != nil {
			fre := fr[e]
			r.Rollback = &fre
		}
		return r
	}
	searched, err := searchTargets(ctx, t, env, opt, owns, spare, progress)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	ref := searched[ReferenceTarget]
	var ab []byte // A_ref's payload, when the search found one
	var fa []float64
	if ref.Best != nil {
		if ab, err = payloadBytes(t.Public, env, ref.Best); err != nil {
			return nil, nil, nil, nil, err
		}
		if fa, err = scores(ab); err != nil {
			return nil, nil, nil, nil, err
		}
	}
	for e, ev := range evaluators.Deterministic() {
		if !owns(ev.Name) {
			continue
		}
		r := row(report.SetShared, e, ev.Name)
		r.Attempts, r.Valid, r.Matched, r.Capped = ref.States, ref.Eligible, ref.Best != nil, !ref.Exhausted
		if r.Matched {
			d := fa[e] - fh[e]
			r.Delta = &d
		}
		shared = append(shared, r)

		res := searched[ev.Name]
		r = row(report.SetTargeted, e, ev.Name)
		r.Attempts, r.Valid, r.Matched, r.Capped = res.States, res.Eligible, res.Best != nil, !res.Exhausted
		if r.Matched {
			d := res.Delta
			r.Delta = &d
		}
		targeted = append(targeted, r)
	}

	for _, j := range opt.Judges {
		if !owns(j.Target) {
			continue
		}
		r := base
		r.Set, r.Target = report.SetShared, j.Target
		r.Attempts, r.Valid, r.Matched, r.Capped = ref.States, ref.Eligible, ref.Best != nil, !ref.Exhausted
		var failed []string
		// score asks the judge about one trajectory; nil is no score.
		score := func(name string, b []byte) (*float64, error) {
			v, err := j.Score(ctx, b)
			switch {
			case errors.Is(err, llmclient.ErrTransport) || errors.Is(err, llmclient.ErrSchema):
				failed = append(failed, name+": "+err.Error())
				return nil, nil
			case err != nil:
				return nil, fmt.Errorf("%s scoring %s: %w", j.Target, name, err)
			case v < 0 || v > 1:
				return nil, fmt.Errorf("%s scored %s %v, outside [0, 1]", j.Target, name, v)
			}
			return &v, nil
		}
		if r.Honest, err = score("H", hb); err != nil {
			return nil, nil, nil, nil, err
		}
		var a *float64
		if ab != nil {
			if a, err = score("A", ab); err != nil {
				return nil, nil, nil, nil, err
			}
			if a != nil && r.Honest != nil {
				d := *a - *r.Honest
				r.Delta = &d
			}
		}
		if rb != nil {
			if r.Rollback, err = score("R", rb); err != nil {
				return nil, nil, nil, nil, err
			}
		}
		r.Error = strings.Join(failed, "; ")
		progress(judgeLine(&r, a))
		judged = append(judged, r)

		if opt.JudgeCalls > 0 {
			tr, err := judgeTargeted(ctx, t, env, h, j, opt, r)
			if err != nil {
				return nil, nil, nil, nil, err
			}
			var a *float64
			if tr.Delta != nil {
				fa := *tr.Honest + *tr.Delta
				a = &fa
			}
			progress(judgeLine(&tr, a))
			judgedTargeted = append(judgedTargeted, tr)
		}
	}
	return shared, judged, targeted, judgedTargeted, nil
}

// searchTargets runs a task's searches, walking its bound once: against
// Historical Milestone, whose adversary is A_ref, whatever the targets,
// and against every other deterministic evaluator the run owns. progress
// gets a line per search, in that order.
func searchTargets(ctx context.Context, t *tasks.Task, env *pbcste.Env, opt RunOptions, owns func(target string) bool, spare *attacker.Spare, progress func(string)) (map[string]*attacker.Result, error) {
	targets := []string{ReferenceTarget}
	for _, ev := range evaluators.Deterministic() {
		if ev.Name != ReferenceTarget && owns(ev.Name) {
			targets = append(targets, ev.Name)
		}
	}
	rs, err := attacker.SearchTargets(ctx, t.Public, env, t.HonestTrajectory, attacker.Options{Edits: opt.Edits, MaxStates: opt.MaxStates, Spare: spare}, targets)
	if err != nil {
		return nil, err
	}
	out := make(map[string]*attacker.Result, len(rs))
	for i, res := range rs {
		progress(searchLine(res))
		out[targets[i]] = res
	}
	return out, nil
}

// judgeTargeted attacks a black-box judge directly: the budgeted
// best-first search (attacker.Options.BlackBox) spends opt.JudgeCalls
// calls on the best-ranked eligible candidates. Its row takes f(H) and
// f(R) from the judge's shared row; a call that fails after its retry
// counts as an attempt without a score, and the row says so.
func judgeTargeted(ctx context.Context, t *tasks.Task, env *pbcste.Env, h *model.Trajectory, j Judge, opt RunOptions, shared report.Row) (report.Row, error) {
	r := shared
	r.Set, r.Delta, r.Error, r.Capped = report.SetTargeted, nil, "", false
	var fatal error
	box := func(ctx context.Context, b []byte) (float64, error) {
		v, err := j.Score(ctx, b)
		switch {
		case errors.Is(err, llmclient.ErrTransport) || errors.Is(err, llmclient.ErrSchema):
			return 0, err
		case err != nil:
			fatal = fmt.Errorf("%s: %w", j.Target, err)
			return 0, fatal
		case v < 0 || v > 1:
			fatal = fmt.Errorf("%s scored %v, outside [0, 1]", j.Target, v)
			return 0, fatal
		}
		return v, nil
	}
	res, err := attacker.Search(ctx, t.Public, env, h, attacker.Options{Target: j.Target, Edits: opt.Edits, MaxStates: opt.MaxStates, BlackBox: box, Calls: opt.JudgeCalls}, nil)
	switch {
	case fatal != nil:
		return r, fatal
	case err != nil && (errors.Is(err, llmclient.ErrTransport) || errors.Is(err, llmclient.ErrSchema)):
		r.Honest, r.Matched, r.Attempts, r.Valid, r.Error = nil, false, 0, 0, "H: "+err.Error()
		return r, nil
	case err != nil:
		return r, err
	}
	honest := res.Honest
	r.Honest, r.Attempts, r.Valid, r.Capped = &honest, res.Calls, res.Calls-res.Failed, !res.Exhausted
	r.Matched = res.Calls > 0
	if res.Best != nil {
		d := res.Delta
		r.Delta = &d
	}
	if r.Matched && res.Best == nil {
		r.Error = fmt.Sprintf("A: no score in %d call(s)", res.Calls)
	}
	if r.Rollback == nil && r.PStateR != nil && shared.Error == "" {
		return r, fmt.Errorf("%s: the shared row lacks f(R)", j.Target)
	}
	if r.Rollback == nil && r.PStateR != nil && r.Error == "" {
		r.Error = "R: " + shared.Error
	}
	return r, nil
}

// payloadBytes replays a trajectory on the trusted environment and
// serializes its public payload: the bytes every evaluator is given.
func payloadBytes(pub *model.Task, env *pbcste.Env, tr *model.Trajectory) ([]byte, error) {
	p, err := builder.BuildTrajectory(pub, env.Replay(tr.Steps), tr)
	if err != nil {
		return nil, err
	}
	return p.Bytes(), nil
}

// scores scores payload bytes with every deterministic evaluator.
func scores(b []byte) ([]float64, error) {
	dec, err := payload.Decode(b)
	if err != nil {
		return nil, err
	}
	ss, err := evaluators.ScoreAll(dec)
	if err != nil {
		return nil, err
	}
	out := make([]float64, len(ss))
	for i, s := range ss {
		out[i] = s.Value
	}
	return out, nil
}

// judgeLine is the progress line of a judge's row; a is f(A), nil when
// there is no adversary or no score for it.
func judgeLine(r *report.Row, a *float64) string {
	f := func(x *float64) string {
		if x == nil {
			return "no score"
		}
		return fmt.Sprintf("%.3f", *x)
	}
	target := r.Target
	if r.Set == report.SetTargeted {
		target += " (targeted)"
	}
	line := fmt.Sprintf("%s  %-20s  f(H) %s", r.Task, target, f(r.Honest))
	if r.Matched {
		line += "  f(A) " + f(a)
	} else {
		line += "  no adversary"
	}
	if r.PStateR != nil {
		line += "  f(R) " + f(r.Rollback)
	}
	if r.Error != "" {
		line += "  (" + strings.Join(strings.Fields(r.Error), " ") + ")" // on one line
	}
	return line
}

func searchLine(r *attacker.Result) string {
	found := "no adversary"
	if r.Best != nil {
		found = fmt.Sprintf("Δhack %+.3f", r.Delta)
	}
	bound := "exhausted"
	if !r.Exhausted {
		bound = "NOT exhausted (state budget spent)"
	}
	return fmt.Sprintf("%s  %-20s  %s  %d states, %d eligible, %s", r.Task, r.Target, found, r.States, r.Eligible, bound)
}
