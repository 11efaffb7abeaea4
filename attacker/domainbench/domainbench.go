// Package domainbench runs the benchmark on a real benchmark's runs: every
// run of a registered domain (domains) whose task has a goal is an honest
// trajectory H, and the search attacker looks for the certified worst
// case against each evaluator within a bound of edits, inserting calls
// from the task's attack alphabet (domains.Task.AttackTask) and keeping
// the domain's episode rule. Failed runs are the benchmark; successful
// ones are the control. The ledger rows are the suite's (report.Row), one
// task per run, and each witness row says whether it ends in H's state.
package domainbench

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/parthack/parthack/attacker"
	"github.com/parthack/parthack/attacker/bench"
	"github.com/parthack/parthack/certifier"
	"github.com/parthack/parthack/domains"
	"github.com/parthack/parthack/evaluators"
	"github.com/parthack/parthack/internal/payload"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
	"github.com/parthack/parthack/report"
)

// Options say which runs to attack and bound the searches.
type Options struct {
	Domain domains.Domain
	// Runs are the runs to attack; nil: the runs the domain ships.
	Runs      []*domains.Run
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
	Model  string  `json:"model"`
	Reward float64 `json:"reward"` // the benchmark's, as recorded
	// Outcome is the benchmark's reward recomputed from the run's public
	// payload (the domain's first Reward), for a task with a goal;
	// Recomputed is it recomputed as the benchmark does, on the trusted
	// side (from its state hash).
	Outcome    *float64   `json:"outcome,omitempty"`
	Recomputed float64    `json:"recomputed_reward"`
	Calls      int        `json:"calls"`
	Failed     int        `json:"failed_calls"`
	M          int        `json:"m"`
	PState     model.Frac `json:"p_state"`
	PAgent     model.Frac `json:"p_agent"`
	// PUser and PDirected, where another actor acts on the agent's words
	// (tau2 telecom's user), are the fractions of predicates that hold at
	// the end and were last made so by that actor, and by the agent or a
	// step of that actor the agent directed (the directed view beside
	// P_agent's strict one).
	PUser     *model.Frac `json:"p_user,omitempty"`
	PDirected *model.Frac `json:"p_directed,omitempty"`
	Control   bool        `json:"control"`            // the benchmark's reward is 1
	Capped    []string    `json:"capped,omitempty"`   // targets whose search hit MaxStates
	Rollback  bool        `json:"rollback"`           // a strict rollback of H was found
	Excluded  string      `json:"excluded,omitempty"` // why the run is not attacked
	// Witness is A_ref, the adversary the search against Historical
	// Milestone found (nil when none is eligible within the bound).
	Witness *model.Trajectory `json:"-"`
	// SameEnd says whether A_ref ends in exactly H's state, by the
	// benchmark's own state hash; Collateral lists each cell where the two
	// ends differ, with H's value and A_ref's (a second refund, a bag
	// charge never refunded). Both absent when there is no A_ref.
	SameEnd    *bool             `json:"same_end_state,omitempty"`
	Collateral []pbcste.EndDelta `json:"collateral,omitempty"`
}

// Result is the benchmark's two ledgers and the runs.
type Result struct {
	Failed  *report.Ledger // runs the benchmark scored below 1
	Control *report.Ledger // runs the benchmark scored 1
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
	picked, err := pick(opt.Domain, opt.Runs, opt.Tasks)
	if err != nil {
		return nil, err
	}
	// Every run is checked before the first search, so that a run that
	// cannot be certified is said at once, not after the searches of the
	// runs before it.
	checks := make([]error, len(picked))
	parallel(len(picked), opt.Workers, func(i int) {
		_, checks[i] = Check(opt.Domain, picked[i])
	})
	for _, err := range checks {
		if err != nil {
			return nil, err
		}
	}
	type out struct {
		info RunInfo
		rows []report.Row
		err  error
	}
	results := make([]out, len(picked))
	var mu sync.Mutex
	parallel(len(picked), opt.Workers, func(i int) {
		info, rows, err := attackRun(ctx, opt.Domain, picked[i], opt)
		results[i] = out{info, rows, err}
		mu.Lock()
		progress(line(&info))
		mu.Unlock()
	})
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
	sortRows(opt.Domain, res.Failed.Rows)
	sortRows(opt.Domain, res.Control.Rows)
	return res, ctx.Err()
}

// parallel calls fn(i) for every i below n, on workers goroutines.
func parallel(n, workers int, fn func(i int)) {
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := range jobs {
				fn(i)
			}
		})
	}
	for i := range n {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
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
	task *domains.Task
	env  *pbcste.Env
	h    *model.Trajectory
	res  *certifier.Result
}

// Checked is one run replayed and double-certified.
type Checked struct {
	Task *domains.Task
	Env  *pbcste.Env
	H    *model.Trajectory // the run's calls as a trajectory of its task
	Res  *certifier.Result
}

// Check replays and double-certifies one run as its benchmark would have
// it: its calls keep the domain's episode rule and certify. An error is
// placed by the run (domains.Run.Locate: where it came from a file, the
// file, line, column and JSON path of its call), else named by it; a
// call of a tool the domain lacks lists its tools, closest first.
func Check(d domains.Domain, r *domains.Run) (*Checked, error) {
	fail := func(step int, err error) error {
		switch {
		case r.Locate != nil:
			return r.Locate(step, err)
		case step >= 0:
			return fmt.Errorf("run %s, step %d: %w", r.Name, step+1, err)
		}
		return fmt.Errorf("run %s: %w", r.Name, err)
	}
	c := &Checked{Task: r.Embedded}
	var err error
	if c.Task == nil {
		if c.Task, err = domains.TaskOf(d, r.Task); err != nil {
			return nil, fail(-1, err)
		}
	}
	if c.H, err = r.Trajectory(); err != nil {
		return nil, fail(-1, err)
	}
	if c.Env, err = c.Task.Env(); err != nil {
		return nil, fail(-1, err)
	}
	if err := model.CheckEpisode(c.Env.Task, c.H.Steps); err != nil {
		step := -1
		if ee := (*model.EpisodeError)(nil); errors.As(err, &ee) {
			step = ee.Step - 1
		}
		return nil, fail(step, fmt.Errorf("not certifiable: illegal_action: %w", err))
	}
	res, rej, err := certifier.DoubleCertify(c.Env, c.H)
	if err != nil {
		return nil, fail(-1, err)
	}
	if rej != nil {
		step := rej.Evidence.Step - 1
		msg := "not certifiable: " + rej.Error()
		if step >= 0 && step < len(c.H.Steps) && c.H.Steps[step].Op == model.OpCall {
			var tools []string
			for _, t := range d.Tools() {
				tools = append(tools, t.Name)
			}
			if tool := c.H.Steps[step].Tool; !slices.Contains(tools, tool) {
				msg += fmt.Sprintf(" (%s has no tool %q; its tools, closest first: %s)", d.Name(), tool, strings.Join(closest(tool, tools), ", "))
			}
		}
		return nil, fail(step, errors.New(msg))
	}
	c.Res = res
	return c, nil
}

// certify replays and double-certifies one run, and reads its outcome.
func certify(d domains.Domain, r *domains.Run) (*certified, error) {
	c := &certified{info: RunInfo{Run: r.Name, Task: r.Task, Model: r.Model, Reward: r.Reward, Control: r.Reward == 1}}
	ck, err := Check(d, r)
	if err != nil {
		return c, err
	}
	c.task, c.env, c.h, c.res = ck.Task, ck.Env, ck.H, ck.Res
	c.info.M = c.task.M()
	c.info.Calls = len(c.h.Steps)
	res := c.res
	for i := range res.Log.Events {
		if !res.Log.Events[i].OK {
			c.info.Failed++
		}
	}
	c.info.PState, c.info.PAgent = res.Cert.PState, res.Cert.PAgent
	if r.Directed != nil {
		directed, err := r.Directed()
		if err != nil {
			return c, fmt.Errorf("run %s: %w", r.Name, err)
		}
		c.info.PUser, c.info.PDirected = directedView(res.Log, directed)
	}
	if c.task.Reward != nil {
		c.info.Recomputed = c.task.Reward(res.Log, c.h)
	}
	if c.info.M == 0 {
		c.info.Excluded = "the gold run changes nothing, so the task has no goal predicate"
		return c, nil
	}
	fh, err := scores(d, c.task.Model, res.Log, c.h)
	if err != nil {
		return c, fmt.Errorf("run %s: %w", r.Name, err)
	}
	if len(fh) > len(evaluators.Deterministic()) {
		c.info.Outcome = &fh[len(evaluators.Deterministic())]
	}
	return c, nil
}

// directedView reads, beside P_agent, who made the progress a run ends
// with: the share of predicates holding at the end whose latest cause is
// the other actor's step, and the share whose latest cause is the
// agent's or a step of the other actor the agent directed.
func directedView(log *pbcste.Log, directed []bool) (user, dir *model.Frac) {
	cs, _ := log.InitialVectors()
	if n := len(log.Events); n > 0 {
		cs = log.Events[n-1].CState
	}
	g := log.Goal()
	u, d := model.Frac{Den: len(g.Preds)}, model.Frac{Den: len(g.Preds)}
	for j, p := range g.Preds {
		if cs&(1<<uint(j)) == 0 {
			continue
		}
		c := log.Cause(p)
		switch {
		case c.Actor == model.ActorAgent:
			d.Num++
		case c.Actor == model.ActorUser && c.Step > 0:
			u.Num++
			if c.Step-1 < len(directed) && directed[c.Step-1] {
				d.Num++
			}
		}
	}
	return &u, &d
}

// Certify replays and double-certifies the domain's runs of the given
// tasks (all when none), in the domain's order.
func Certify(d domains.Domain, taskIDs []string) ([]RunInfo, error) {
	runs, err := pick(d, nil, taskIDs)
	if err != nil {
		return nil, err
	}
	out := make([]RunInfo, len(runs))
	for i, r := range runs {
		c, err := certify(d, r)
		if err != nil {
			return nil, err
		}
		out[i] = c.info
	}
	return out, nil
}

// pick lists the runs (the domain's own when runs is nil) of the given
// tasks (all when none).
func pick(d domains.Domain, runs []*domains.Run, taskIDs []string) ([]*domains.Run, error) {
	if d == nil {
		return nil, fmt.Errorf("no domain given")
	}
	for _, id := range taskIDs {
		if _, err := domains.TaskOf(d, id); err != nil {
			return nil, err
		}
	}
	if runs == nil {
		var err error
		if runs, err = d.Runs(); err != nil {
			return nil, err
		}
	}
	var out []*domains.Run
	for _, r := range runs {
		if len(taskIDs) == 0 || slices.Contains(taskIDs, r.Task) {
			out = append(out, r)
		}
	}
	return out, nil
}

// attackRun certifies one run and runs its searches.
func attackRun(ctx context.Context, d domains.Domain, r *domains.Run, opt Options) (RunInfo, []report.Row, error) {
	c, err := certify(d, r)
	if err != nil || c.info.Excluded != "" {
		return c.info, nil, err
	}
	info, task, env, h, hres := c.info, c.task, c.env, c.h, c.res
	pub := task.Model
	if task.AttackTask != nil {
		pub = task.AttackTask(h, hres.Log.View())
	}
	fh, err := scores(d, pub, hres.Log, h)
	if err != nil {
		return info, nil, err
	}
	base := report.Row{Task: info.Run, PStateH: hres.Cert.PState.Float()}
	var fr []float64
	if r, pr, ok, err := rollback(env, pub, h); err != nil {
		return info, nil, err
	} else if ok {
		info.Rollback, base.PStateR = true, &pr
		if fr, err = scores(d, pub, env.Replay(r.Steps), r); err != nil {
			return info, nil, err
		}
	}
	found, err := searchTargets(ctx, d, pub, env, h, opt, &info)
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
		same, deltas, err := EndState(task, hres.Log, alog)
		if err != nil {
			return info, nil, err
		}
		sameEnd[target] = &same
		if target == bench.ReferenceTarget {
			info.SameEnd, info.Collateral = &same, deltas
			if fa, err = scores(d, pub, alog, ref.Best); err != nil {
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
	// The benchmark's own rewards: no functions of the certified vectors
	// (extra changes, missing replies and past calls count), so each is
	// searched directly and has a target-specific row, and scores A_ref
	// on the shared set.
	for k, rw := range d.Rewards() {
		o := len(evaluators.Deterministic()) + k
		or := base
		fho := fh[o]
		or.Set, or.Target, or.Honest = report.SetShared, rw.Name, &fho
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
		res := found[rw.Name]
		tr := base
		tr.Set, tr.Target, tr.Honest = report.SetTargeted, rw.Name, &fho
		if fr != nil {
			fro := fr[o]
			tr.Rollback = &fro
		}
		tr.Attempts, tr.Valid, tr.Matched, tr.Capped = res.States, res.Eligible, res.Best != nil, !res.Exhausted
		if tr.Matched {
			d := res.Delta
			tr.Delta, tr.SameEnd = &d, sameEnd[rw.Name]
		}
		targeted = append(targeted, tr)
	}
	return info, append(shared, targeted...), nil
}

// searchTargets runs a run's searches, walking its bound once: against
// Historical Milestone, whose adversary is A_ref, and against the other
// searched evaluators. The targets whose search stopped at the state
// cap go in info.Capped, in that order.
func searchTargets(ctx context.Context, d domains.Domain, pub *model.Task, env *pbcste.Env, h *model.Trajectory, opt Options, info *RunInfo) (map[string]*attacker.Result, error) {
	targets := []string{bench.ReferenceTarget}
	for _, ev := range evaluators.Deterministic() {
		if searched[ev.Name] && ev.Name != bench.ReferenceTarget {
			targets = append(targets, ev.Name)
		}
	}
	var extra []attacker.Extra
	for _, rw := range d.Rewards() {
		targets = append(targets, rw.Name)
		extra = append(extra, attacker.Extra{Name: rw.Name, Score: rw.Score})
	}
	rs, err := attacker.SearchTargets(ctx, pub, env, h, attacker.Options{Edits: opt.Edits, MaxStates: opt.MaxStates, SameEnd: opt.SameEnd, Extra: extra}, targets)
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

// EndState compares where a witness ends with where H ends: equal by the
// benchmark's own state hash where it has one, and each cell that
// differs. The environment's state hash must say the same, or the port's
// state and the benchmark's have drifted apart.
func EndState(task *domains.Task, hlog, alog *pbcste.Log) (bool, []pbcste.EndDelta, error) {
	same, deltas := pbcste.Collateral(hlog, alog)
	if task.Hash == nil {
		return same, deltas, nil
	}
	if hh, ah := task.Hash(hlog), task.Hash(alog); (hh == ah) != same {
		return false, nil, fmt.Errorf("the benchmark's state hash says the ends are equal: %t; the environment's says %t", hh == ah, same)
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
func sortRows(d domains.Domain, rows []report.Row) {
	order := map[string]int{}
	for i, e := range evaluators.Deterministic() {
		order[e.Name] = i
	}
	for k, rw := range d.Rewards() {
		order[rw.Name] = len(evaluators.Deterministic()) + k
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
// public payload's bytes, and then the benchmark's own rewards.
func scores(d domains.Domain, pub *model.Task, log *pbcste.Log, tr *model.Trajectory) ([]float64, error) {
	out, dec, err := attacker.Scores(pub, log, tr)
	if err != nil {
		return nil, err
	}
	return appendRewards(d, out, dec)
}

// appendRewards appends the domain's rewards of a decoded payload.
func appendRewards(d domains.Domain, out []float64, dec *payload.Payload) ([]float64, error) {
	for _, rw := range d.Rewards() {
		v, ok := rw.Score(dec)
		if !ok {
			return nil, fmt.Errorf("%s: the payload carries no reference to score it against", rw.Name)
		}
		out = append(out, v)
	}
	return out, nil
}

// Validate holds every task of a domain to the suite's properties: its
// gold run keeps the episode rule and double-certifies without a failed
// call (where the benchmark's gold never fails); a task with a goal
// starts with no predicate held and its gold ends at m/m (with P_agent =
// P_state where the agent alone acts) and no transient peak (every
// historical evaluator, scored from the payload, equals the final
// P_state) and, where the domain says its gold must, passes the
// benchmark's own reward; a task without one has a gold run that changes
// nothing. It returns the number of tasks and of those with a goal.
func Validate(d domains.Domain) (tasks, withGoal int, err error) {
	ts, err := d.Tasks()
	if err != nil {
		return 0, 0, err
	}
	for _, t := range ts {
		if err := ValidateTask(d, t); err != nil {
			return 0, 0, err
		}
		if t.M() > 0 {
			withGoal++
		}
	}
	return len(ts), withGoal, nil
}

// ValidateTask holds one task of a domain to what Validate holds every
// task to; its error names the task.
func ValidateTask(d domains.Domain, t *domains.Task) error {
	if err := validate(d, t); err != nil {
		return fmt.Errorf("%s: %w", t.ID, err)
	}
	return nil
}

func validate(d domains.Domain, t *domains.Task) error {
	if t.Gold == nil {
		return errors.New("no gold run")
	}
	env, err := t.Env()
	if err != nil {
		return err
	}
	if err := model.CheckEpisode(t.Model, t.Gold.Steps); err != nil {
		return fmt.Errorf("gold: %w", err)
	}
	res, rej, err := certifier.DoubleCertify(env, t.Gold)
	if err != nil {
		return fmt.Errorf("gold: %w", err)
	}
	if rej != nil {
		return fmt.Errorf("gold is not certifiable: %s", rej.Error())
	}
	for i := range res.Log.Events {
		if ev := &res.Log.Events[i]; !ev.OK && !t.GoldMayFail {
			return fmt.Errorf("gold call %d fails: %s", i+1, res.Log.Reason(ev))
		}
	}
	m := t.M()
	if m == 0 {
		if same, deltas := pbcste.Collateral(env.Replay(nil), res.Log); !same {
			return fmt.Errorf("no goal predicate, yet gold changes %d cells", len(deltas))
		}
		return nil
	}
	if cs, _ := res.Log.InitialVectors(); cs != 0 && !t.GoalMayHoldAtStart {
		return fmt.Errorf("predicates hold at the start (c_state %b)", cs)
	}
	// Gold's progress is all the agent's unless another actor acts in it
	// (tau2 telecom's user) or part of it held from the start.
	agentOnly := !t.GoalMayHoldAtStart && !slices.ContainsFunc(t.Gold.Steps, func(st model.Step) bool { return st.Actor != "" && st.Actor != model.ActorAgent })
	switch {
	case res.Cert.PState.Num != m:
		return fmt.Errorf("gold ends at P_state %s, not %d/%d", res.Cert.PState, m, m)
	case agentOnly && res.Cert.PAgent.Num != m:
		return fmt.Errorf("gold ends at P_state %s, P_agent %s, not %d/%d", res.Cert.PState, res.Cert.PAgent, m, m)
	}
	fs, err := scores(d, t.Model, res.Log, t.Gold)
	if err != nil {
		return fmt.Errorf("gold: %w", err)
	}
	for i, ev := range evaluators.Deterministic() {
		if !agentOnly && ev.AgentCredit {
			continue // gold's progress may be partly not the agent's
		}
		if fs[i] != 1 {
			return fmt.Errorf("gold scores %s %.3f, not 1: a transient peak or a missed predicate", ev.Name, fs[i])
		}
	}
	if t.GoldPasses && len(d.Rewards()) > 0 && fs[len(evaluators.Deterministic())] != 1 {
		return errors.New("gold fails the benchmark's own reward")
	}
	return nil
}
