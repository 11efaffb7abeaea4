package report

import (
	"context"
	"fmt"
	"runtime"
	"sync"

	"github.com/parthack/parthack/attacker"
	"github.com/parthack/parthack/certifier"
	"github.com/parthack/parthack/evaluators"
	"github.com/parthack/parthack/internal/payload"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
	"github.com/parthack/parthack/tasks"
	"github.com/parthack/parthack/tasks/sealed"
)

// ReferenceTarget is the evaluator whose adversaries form the shared
// reference set A_ref (SPEC §6).
const ReferenceTarget = "historical_milestone"

// RunOptions bounds the searches of a benchmark run (attacker.Options
// without the target: every deterministic evaluator is a target).
type RunOptions struct {
	Edits     int // at most this many edits of H; default 2
	MaxStates int // search nodes per task and target; default 200,000
	Workers   int // tasks searched at once; default GOMAXPROCS
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
// candidates it met. Rows come shared set first, then targeted; within a
// set by evaluator, then task.
//
// Tasks are searched in parallel, and the ledger does not depend on the
// order they finish in. progress, when not nil, gets one line per search,
// from one goroutine at a time.
func Run(ctx context.Context, ts []*tasks.Task, opt RunOptions, progress func(string)) (*Ledger, error) {
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
	type result struct{ shared, targeted []Row }
	results := make([]result, len(ts))
	var firstErr error // the failure that stopped the run, not the cancellations it caused
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(workers, len(ts)) {
		wg.Go(func() {
			for i := range next {
				r := &results[i]
				var err error
				if r.shared, r.targeted, err = runTask(ctx, ts[i], opt, say); err != nil {
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
	for i := range ts {
		next <- i
	}
	close(next)
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	evs := evaluators.Deterministic()
	// rows[set][evaluator] lists that set's rows for the evaluator, by task.
	rows := [2][][]Row{make([][]Row, len(evs)), make([][]Row, len(evs))}
	for _, r := range results {
		for e := range evs {
			rows[0][e] = append(rows[0][e], r.shared[e])
			rows[1][e] = append(rows[1][e], r.targeted[e])
		}
	}
	l := &Ledger{}
	for _, set := range rows {
		for _, rs := range set {
			l.Rows = append(l.Rows, rs...)
		}
	}
	return l, nil
}

// runTask produces one task's shared and targeted rows, in evaluator order.
func runTask(ctx context.Context, t *tasks.Task, opt RunOptions, progress func(string)) (shared, targeted []Row, err error) {
	trusted, err := sealed.Trusted(t.ID)
	if err != nil {
		return nil, nil, err
	}
	env, err := pbcste.Compile(trusted)
	if err != nil {
		return nil, nil, err
	}
	h := t.HonestTrajectory
	hres, rej, err := certifier.DoubleCertify(env, h)
	if err != nil {
		return nil, nil, err
	}
	if rej != nil {
		return nil, nil, fmt.Errorf("honest trajectory is not certifiable: %s", rej.Error())
	}
	fh, err := scores(t.Public, env, h)
	if err != nil {
		return nil, nil, err
	}
	base := Row{Task: t.ID, PStateH: hres.Cert.PState.Float()}
	var fr []float64
	var pr float64
	if r := t.RollbackTrajectory; r != nil {
		v, err := certifier.DoubleRollback(env, h, r)
		if err != nil {
			return nil, nil, err
		}
		if !v.Eligible {
			return nil, nil, fmt.Errorf("the stored rollback is not a strict rollback: %s", v.Reason)
		}
		if fr, err = scores(t.Public, env, r); err != nil {
			return nil, nil, err
		}
		pr = v.Candidate.PState.Float()
	}
	row := func(set string, e int, target string) Row {
		r := base
		r.Set, r.Target, r.Honest = set, target, fh[e]
		if fr != nil {
			fre, p := fr[e], pr
			r.Rollback, r.PStateR = &fre, &p
		}
		return r
	}
	search := func(target string) (*attacker.Result, error) {
		res, err := attacker.Search(ctx, t.Public, env, h, attacker.Options{Target: target, Edits: opt.Edits, MaxStates: opt.MaxStates}, nil)
		if err != nil {
			return nil, err
		}
		progress(searchLine(res))
		return res, nil
	}

	ref, err := search(ReferenceTarget)
	if err != nil {
		return nil, nil, err
	}
	var fa []float64
	if ref.Best != nil {
		if fa, err = scores(t.Public, env, ref.Best); err != nil {
			return nil, nil, err
		}
	}
	for e, ev := range evaluators.Deterministic() {
		r := row(SetShared, e, ev.Name)
		r.Attempts, r.Valid, r.Matched = ref.States, ref.Eligible, ref.Best != nil
		if r.Matched {
			d := fa[e] - fh[e]
			r.Delta = &d
		}
		shared = append(shared, r)

		res := ref
		if ev.Name != ReferenceTarget {
			if res, err = search(ev.Name); err != nil {
				return nil, nil, err
			}
		}
		r = row(SetTargeted, e, ev.Name)
		r.Attempts, r.Valid, r.Matched = res.States, res.Eligible, res.Best != nil
		if r.Matched {
			d := res.Delta
			r.Delta = &d
		}
		targeted = append(targeted, r)
	}
	return shared, targeted, nil
}

// scores replays a trajectory on the trusted environment and scores its
// public payload's bytes with every deterministic evaluator.
func scores(pub *model.Task, env *pbcste.Env, tr *model.Trajectory) ([]float64, error) {
	p, err := payload.Build(pub, env.Replay(tr.Steps), nil)
	if err != nil {
		return nil, err
	}
	dec, err := payload.Decode(p.Bytes())
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
