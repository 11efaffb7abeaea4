// Package taubench runs the benchmark on real agent runs: every GPT-4o
// run of tau-bench's airline domain whose task has a goal is an honest
// trajectory H, and the search attacker looks for the certified worst
// case against each evaluator within a bound of edits, inserting calls
// from the task's attack alphabet (tauair.Task.AttackTask). Failed runs
// are the benchmark; successful ones are the control. The ledger rows
// are the suite's (report.Row), one task per run.
package taubench

import (
	"context"
	"fmt"
	"maps"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/parthack/parthack/attacker"
	"github.com/parthack/parthack/attacker/bench"
	"github.com/parthack/parthack/certifier"
	"github.com/parthack/parthack/evaluators"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
	"github.com/parthack/parthack/report"
	"github.com/parthack/parthack/tasks/tauair"
)

// Options bound the searches.
type Options struct {
	Edits     int // edits of H per search; default 2
	MaxStates int // search nodes per search; default attacker.DefaultMaxStates
	Workers   int // runs attacked at once; default GOMAXPROCS
	Tasks     []string
	// SameEnd admits only witnesses that end in exactly H's database
	// (attacker.Options.SameEnd).
	SameEnd bool
}

// RunInfo is one run's outcome, for the runs table.
type RunInfo struct {
	Run    string  `json:"run"`
	Task   string  `json:"task"`
	Reward float64 `json:"reward"` // tau-bench's, as recorded
	// Outcome is tau-bench's reward recomputed from the run's public
	// payload (evaluators.Outcome), for a task with a goal; HashReward is
	// it recomputed as tau-bench does, from the data hash. Both equal
	// Reward on every corpus run.
	Outcome    *float64   `json:"outcome,omitempty"`
	HashReward float64    `json:"hash_reward"`
	Calls      int        `json:"calls"`
	Failed     int        `json:"failed_calls"`
	M          int        `json:"m"`
	PState     model.Frac `json:"p_state"`
	PAgent     model.Frac `json:"p_agent"`
	Control    bool       `json:"control"`            // tau-bench's reward is 1
	Capped     []string   `json:"capped,omitempty"`   // targets whose search hit MaxStates
	Rollback   bool       `json:"rollback"`           // a strict rollback of H was found
	Excluded   string     `json:"excluded,omitempty"` // why the run is not attacked
	// Witness is A_ref, the adversary the search against Historical
	// Milestone found (nil when none is eligible within the bound).
	Witness *model.Trajectory `json:"-"`
	// SameEnd says whether A_ref ends in exactly H's database, by
	// tau-bench's data hash; Collateral lists each cell where the two
	// ends differ, with H's value and A_ref's (a second refund, a bag
	// charge never refunded). Both absent when there is no A_ref.
	SameEnd    *bool             `json:"same_end_state,omitempty"`
	Collateral []pbcste.EndDelta `json:"collateral,omitempty"`
}

// Result is the benchmark's two ledgers and the runs.
type Result struct {
	Failed  *report.Ledger // runs tau-bench scored 0
	Control *report.Ledger // runs tau-bench scored 1
	Runs    []RunInfo
}

// searched are the evaluators that get their own search; the others are
// functions of the certified vectors on this domain (its public
// predicates are the Oracle's), so by Proposition 1 every eligible
// candidate leaves them unchanged, and their targeted row is the shared
// search's with Δ checked to be 0.
var searched = map[string]bool{"historical_milestone": true, "predicate_max": true, "cape_max": true}

// Run attacks every run. Results do not depend on Workers.
func Run(ctx context.Context, opt Options, progress func(string)) (*Result, error) {
	if opt.Edits <= 0 {
		opt.Edits = 2
	}
	if opt.MaxStates <= 0 {
		opt.MaxStates = attacker.DefaultMaxStates
	}
	if opt.Workers <= 0 {
		opt.Workers = runtime.GOMAXPROCS(0)
	}
	if progress == nil {
		progress = func(string) {}
	}
	picked, err := pick(opt.Tasks)
	if err != nil {
		return nil, err
	}
	type out struct {
		info RunInfo
		rows []report.Row
		err  error
	}
	results := make([]out, len(picked))
	jobs := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	for w := 0; w < opt.Workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				info, rows, err := attackRun(ctx, picked[i], opt)
				results[i] = out{info, rows, err}
				mu.Lock()
				progress(line(&info))
				mu.Unlock()
			}
		}()
	}
	for i := range picked {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	res := &Result{Failed: &report.Ledger{}, Control: &report.Ledger{}}
	for _, o := range results {
		if o.err != nil {
			return nil, fmt.Errorf("%s: %w", o.info.Run, o.err)
		}
		res.Runs = append(res.Runs, o.info)
		if o.info.Control {
			res.Control.Rows = append(res.Control.Rows, o.rows...)
		} else {
			res.Failed.Rows = append(res.Failed.Rows, o.rows...)
		}
	}
	sortRows(res.Failed.Rows)
	sortRows(res.Control.Rows)
	return res, ctx.Err()
}

// line is the progress line of one attacked run.
func line(info *RunInfo) string {
	if info.Excluded != "" {
		return fmt.Sprintf("%-20s %s  excluded: %s", info.Run, info.Task, info.Excluded)
	}
	return fmt.Sprintf("%-20s %s  reward %g  P_state %s  P_agent %s", info.Run, info.Task, info.Reward, info.PState, info.PAgent)
}

// certified is one run replayed and double-certified.
type certified struct {
	info RunInfo
	task *tauair.Task
	env  *pbcste.Env
	h    *model.Trajectory
	res  *certifier.Result
}

// certify replays and double-certifies one run.
func certify(r *tauair.Run) (*certified, error) {
	c := &certified{info: RunInfo{Run: r.Name(), Task: tauair.TaskID(r.TaskID), Reward: r.Reward, Calls: len(r.Steps), Control: r.Reward == 1}}
	var err error
	if c.task, err = tauair.ByID(c.info.Task); err != nil {
		return c, err
	}
	c.info.M = c.task.M()
	if c.h, err = r.Trajectory(); err != nil {
		return c, err
	}
	if c.env, err = c.task.Env(); err != nil {
		return c, err
	}
	res, rej, err := certifier.DoubleCertify(c.env, c.h)
	if err != nil {
		return c, err
	}
	if rej != nil {
		return c, fmt.Errorf("the run is not certifiable: %s", rej.Error())
	}
	c.res = res
	for i := range res.Log.Events {
		if !res.Log.Events[i].OK {
			c.info.Failed++
		}
	}
	c.info.PState, c.info.PAgent = res.Cert.PState, res.Cert.PAgent
	c.info.HashReward = c.task.Reward(res.Log, c.h)
	if c.info.M == 0 {
		c.info.Excluded = "the gold run changes nothing, so the task has no goal predicate"
		return c, nil
	}
	fh, err := scores(c.task.Task, res.Log, c.h)
	if err != nil {
		return c, err
	}
	c.info.Outcome = &fh[len(fh)-1]
	return c, nil
}

// Certify replays and double-certifies the runs of the given tasks (all
// when none), in the corpus' order.
func Certify(taskIDs []string) ([]RunInfo, error) {
	runs, err := pick(taskIDs)
	if err != nil {
		return nil, err
	}
	out := make([]RunInfo, len(runs))
	for i, r := range runs {
		c, err := certify(r)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", r.Name(), err)
		}
		out[i] = c.info
	}
	return out, nil
}

// pick lists the corpus runs of the given tasks (all when none).
func pick(taskIDs []string) ([]*tauair.Run, error) {
	for _, id := range taskIDs {
		if _, err := tauair.ByID(id); err != nil {
			return nil, err
		}
	}
	runs, err := tauair.AgentRuns()
	if err != nil {
		return nil, err
	}
	var out []*tauair.Run
	for i := range runs {
		if len(taskIDs) == 0 || slices.Contains(taskIDs, tauair.TaskID(runs[i].TaskID)) {
			out = append(out, &runs[i])
		}
	}
	return out, nil
}

// attackRun certifies one run and runs its searches.
func attackRun(ctx context.Context, r *tauair.Run, opt Options) (RunInfo, []report.Row, error) {
	c, err := certify(r)
	if err != nil || c.info.Excluded != "" {
		return c.info, nil, err
	}
	info, task, env, h, hres := c.info, c.task, c.env, c.h, c.res
	pub := task.AttackTask(hres.Log.View())
	fh, err := scores(pub, hres.Log, h)
	if err != nil {
		return info, nil, err
	}
	base := report.Row{Task: info.Run, PStateH: hres.Cert.PState.Float()}
	var fr []float64
	if r, pr, ok, err := rollback(env, pub, h); err != nil {
		return info, nil, err
	} else if ok {
		info.Rollback, base.PStateR = true, &pr
		if fr, err = scores(pub, env.Replay(r.Steps), r); err != nil {
			return info, nil, err
		}
	}
	found, err := searchTargets(ctx, pub, env, h, opt, &info)
	if err != nil {
		return info, nil, err
	}
	ref := found[bench.ReferenceTarget]
	if ref.Best != nil {
		ref.Best.Task, ref.Best.Name = info.Task, "search witness on "+info.Run
		info.Witness = ref.Best
	}
	var fa []float64
	sameEnd := map[string]*bool{} // by target: whether its witness ends in H's database
	for _, target := range slices.Sorted(maps.Keys(found)) {
		res := found[target]
		if res.Best == nil {
			continue
		}
		alog := env.Replay(res.Best.Steps)
		same, deltas, err := endState(task, hres.Log, alog)
		if err != nil {
			return info, nil, err
		}
		sameEnd[target] = &same
		if target == bench.ReferenceTarget {
			info.SameEnd, info.Collateral = &same, deltas
			if fa, err = scores(pub, alog, ref.Best); err != nil {
				return info, nil, err
			}
		}
	}
	refEnd := sameEnd[bench.ReferenceTarget]
	var shared, targeted []report.Row
	for e, ev := range evaluators.Deterministic() {
		row := func(set string, res *attacker.Result) report.Row {
			r := base
			fhe := fh[e]
			r.Set, r.Target, r.Honest = set, ev.Name, &fhe
			if fr != nil {
				fre := fr[e]
				r.Rollback = &fre
			}
			r.Attempts, r.Valid, r.Matched, r.Capped = res.States, res.Eligible, res.Best != nil, !res.Exhausted
			return r
		}
		r := row(report.SetShared, ref)
		if r.Matched {
			d := fa[e] - fh[e]
			r.Delta, r.SameEnd = &d, refEnd
		}
		shared = append(shared, r)
		res := ref
		if searched[ev.Name] {
			res = found[ev.Name]
		}
		t := row(report.SetTargeted, res)
		switch {
		case !t.Matched:
		case searched[ev.Name]:
			d := res.Delta
			t.Delta, t.SameEnd = &d, sameEnd[ev.Name]
		default:
			// Proposition 1: a function of the certified vectors.
			if d := *r.Delta; d != 0 {
				return info, nil, fmt.Errorf("%s moved by %+.3f on an eligible pair: it is not a function of the certified vectors", ev.Name, d)
			}
			d := 0.0
			t.Delta, t.SameEnd = &d, refEnd
		}
		targeted = append(targeted, t)
	}
	// The benchmark's own reward, on the shared set: it is no function of
	// the certified vectors (extra changes and missing replies count), so
	// it gets no Proposition 1 row of its own.
	o := len(fh) - 1
	or := base
	fho := fh[o]
	or.Set, or.Target, or.Honest = report.SetShared, evaluators.OutcomeName, &fho
	if fr != nil {
		fro := fr[o]
		or.Rollback = &fro
	}
	or.Attempts, or.Valid, or.Matched, or.Capped = ref.States, ref.Eligible, ref.Best != nil, !ref.Exhausted
	if or.Matched {
		d := fa[o] - fh[o]
		or.Delta, or.SameEnd = &d, refEnd
	}
	shared = append(shared, or)
	return info, append(shared, targeted...), nil
}

// searchTargets runs a run's searches, walking its bound once: against
// Historical Milestone, whose adversary is A_ref, and against the other
// searched evaluators. The targets whose search stopped at the state
// cap go in info.Capped, in that order.
func searchTargets(ctx context.Context, pub *model.Task, env *pbcste.Env, h *model.Trajectory, opt Options, info *RunInfo) (map[string]*attacker.Result, error) {
	targets := []string{bench.ReferenceTarget}
	for _, ev := range evaluators.Deterministic() {
		if searched[ev.Name] && ev.Name != bench.ReferenceTarget {
			targets = append(targets, ev.Name)
		}
	}
	rs, err := attacker.SearchTargets(ctx, pub, env, h, attacker.Options{Edits: opt.Edits, MaxStates: opt.MaxStates, SameEnd: opt.SameEnd}, targets)
	if err != nil {
		return nil, err
	}
	out := make(map[string]*attacker.Result, len(rs))
	for i, res := range rs {
		out[targets[i]] = res
		if !res.Exhausted {
			info.Capped = append(info.Capped, targets[i])
		}
	}
	return out, nil
}

// endState compares where a witness ends with where H ends: equal by
// tau-bench's own data hash, and each cell that differs. The environment's
// state hash must say the same, or the port's state and tau-bench's
// database have drifted apart.
func endState(task *tauair.Task, hlog, alog *pbcste.Log) (bool, []pbcste.EndDelta, error) {
	same, deltas := pbcste.Collateral(hlog, alog)
	hh, ah := task.DataHash(hlog), task.DataHash(alog)
	if (hh == ah) != same {
		return false, nil, fmt.Errorf("tau-bench's data hash says the ends are equal: %t; the state hash says %t", hh == ah, same)
	}
	return same, deltas, nil
}

// rollback looks for a strict rollback of H: H and then one call from the
// task's alphabet that lowers P_state, the first in the alphabet's order.
func rollback(env *pbcste.Env, pub *model.Task, h *model.Trajectory) (*model.Trajectory, float64, bool, error) {
	for _, c := range pub.Calls {
		r := &model.Trajectory{Task: h.Task, Name: "strict rollback", Steps: append(slices.Clone(h.Steps), model.Step{Action: c}), Transcript: h.Transcript}
		for i := range r.Steps {
			r.Steps[i].Index = i
		}
		v, err := certifier.DoubleRollback(env, h, r)
		if err != nil {
			return nil, 0, false, err
		}
		if v.Eligible {
			return r, v.Candidate.PState.Float(), true, nil
		}
	}
	return nil, 0, false, nil
}

// sortRows orders a ledger as bench does: set, then target in the
// evaluators' order, then run.
func sortRows(rows []report.Row) {
	order := map[string]int{evaluators.OutcomeName: len(evaluators.Deterministic())}
	for i, e := range evaluators.Deterministic() {
		order[e.Name] = i
	}
	slices.SortStableFunc(rows, func(a, b report.Row) int {
		if a.Set != b.Set {
			return strings.Compare(b.Set, a.Set) // targeted before shared
		}
		if order[a.Target] != order[b.Target] {
			return order[a.Target] - order[b.Target]
		}
		return strings.Compare(a.Task, b.Task)
	})
}

// scores are every deterministic evaluator's scores of a log, from its
// public payload's bytes, and then the benchmark's own reward.
func scores(pub *model.Task, log *pbcste.Log, tr *model.Trajectory) ([]float64, error) {
	out, dec, err := attacker.Scores(pub, log, tr)
	if err != nil {
		return nil, err
	}
	if o, ok := evaluators.Outcome(dec); ok {
		out = append(out, o)
	}
	return out, nil
}

// Validate holds every task of the domain to the suite's properties: its
// gold run keeps the episode rule (no call after a transfer) and
// double-certifies without a failed call; a task with a goal
// starts with no predicate held and its gold ends at m/m with P_state =
// P_agent and no transient peak (every historical evaluator, scored from
// the payload, equals the final P_state) and passes the benchmark's own
// reward when it asks for no output; a task without one has a gold run
// that changes nothing. It returns the number of tasks with a goal.
func Validate() (int, error) {
	ts, err := tauair.Tasks()
	if err != nil {
		return 0, err
	}
	withGoal := 0
	for _, t := range ts {
		env, err := t.Env()
		if err != nil {
			return 0, fmt.Errorf("%s: %w", t.ID, err)
		}
		if err := model.CheckEpisode(t.Task, t.GoldTrajectory.Steps); err != nil {
			return 0, fmt.Errorf("%s: gold: %w", t.ID, err)
		}
		res, rej, err := certifier.DoubleCertify(env, t.GoldTrajectory)
		if err != nil {
			return 0, fmt.Errorf("%s: gold: %w", t.ID, err)
		}
		if rej != nil {
			return 0, fmt.Errorf("%s: gold is not certifiable: %s", t.ID, rej.Error())
		}
		for i := range res.Log.Events {
			if ev := &res.Log.Events[i]; !ev.OK {
				return 0, fmt.Errorf("%s: gold call %d fails: %s", t.ID, i+1, res.Log.Reason(ev))
			}
		}
		m := t.M()
		if m == 0 {
			if len(t.Changes) != 0 {
				return 0, fmt.Errorf("%s: no goal predicate, yet gold changes %d cells", t.ID, len(t.Changes))
			}
			continue
		}
		withGoal++
		if cs, _ := res.Log.InitialVectors(); cs != 0 {
			return 0, fmt.Errorf("%s: predicates hold at the start (c_state %b)", t.ID, cs)
		}
		if res.Cert.PState.Num != m || res.Cert.PAgent.Num != m {
			return 0, fmt.Errorf("%s: gold ends at P_state %s, P_agent %s, not %d/%d", t.ID, res.Cert.PState, res.Cert.PAgent, m, m)
		}
		fs, err := scores(t.Task, res.Log, t.GoldTrajectory)
		if err != nil {
			return 0, fmt.Errorf("%s: gold: %w", t.ID, err)
		}
		for i, ev := range evaluators.Deterministic() {
			if fs[i] != 1 {
				return 0, fmt.Errorf("%s: gold scores %s %.3f, not 1: a transient peak or a missed predicate", t.ID, ev.Name, fs[i])
			}
		}
		// The corpus keeps gold's tool calls, not its replies, so only a
		// task that asks for no output can be held to the whole reward.
		if len(t.Gold.Outputs) == 0 && fs[len(fs)-1] != 1 {
			return 0, fmt.Errorf("%s: gold fails the benchmark's own reward", t.ID)
		}
	}
	return withGoal, nil
}
