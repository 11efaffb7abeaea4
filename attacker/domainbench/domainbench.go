// Package domainbench runs the benchmark on a real benchmark's runs: every
// run of a registered domain (domains) whose task has a goal is an honest
// trajectory H, and the search attacker looks for the certified worst
// case against each evaluator within a bound of edits, inserting calls
// from the task's attack alphabet (domains.Task.AttackTask) and keeping
// the domain's episode rule. Failed runs are the benchmark; successful
// ones are the control. The ledger rows are the suite's (report.Row), one
// task per run; each witness row says whether it ends in H's state, and
// each row where the task's best attack over .10 ends: in H's state, in
// the gold run's, or elsewhere (report's Where attacks end).
package domainbench

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
	Workers   int // runs attacked at once; default GOMAXPROCS, and 1 with a reward that can fail (domains.Reward.Fails)
	Tasks     []string
	// spare lends the walks of the last runs the cores of the workers
	// that have none left (attacker.Spare).
	spare *attacker.Spare
	// SameEnd admits only witnesses that end in exactly H's database
	// (attacker.Options.SameEnd), so that successes are evaluator
	// inflation only; each target is then searched a second time
	// admitting any end, and a row with no success says where that
	// search's best attack over .10 ends. The commands set it on a real
	// domain unless asked for any end.
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
	// End is where A_ref ends (report.EndSame, EndGold, EndOther) and
	// Rise, where that is H's state, why an evaluator rose on it (Rise);
	// both absent when there is no A_ref.
	End  string `json:"end_state,omitempty"`
	Rise string `json:"rise,omitempty"`
	// Witnesses are each searched target's best witness, with what the
	// ledger claims of it, in the searches' order; beside a same-end
	// search, also the any-end witnesses a row's attack_end comes from.
	Witnesses []Witness `json:"-"`
}

// Witness is one target's best witness on a run, with what the ledger
// claims of it.
type Witness struct {
	Target string
	// AnyEnd says it comes from the search that admits any end, beside
	// the same-end one (Options.SameEnd).
	AnyEnd     bool
	Delta      float64 // Δhack against Target
	End, Rise  string  // as RunInfo's
	Collateral []pbcste.EndDelta
	Trajectory *model.Trajectory
}

// Result is the benchmark's two ledgers and the runs.
type Result struct {
	Failed  *report.Ledger // runs the benchmark scored below 1
	Control *report.Ledger // runs the benchmark scored 1
	Runs    []RunInfo
}

// LeftOut counts the runs of one model that are not attacked for one
// reason (RunInfo.Excluded).
type LeftOut struct {
	Model  string `json:"model"`
	Reason string `json:"reason"`
	Runs   int    `json:"runs"`
}

// LeftOut counts the runs not attacked, by model and reason, in that
// order.
func (r *Result) LeftOut() []LeftOut {
	var out []LeftOut
	for _, info := range r.Runs {
		if info.Excluded == "" {
			continue
		}
		i := slices.IndexFunc(out, func(l LeftOut) bool { return l.Model == info.Model && l.Reason == info.Excluded })
		if i < 0 {
			i = len(out)
			out = append(out, LeftOut{Model: info.Model, Reason: info.Excluded})
		}
		out[i].Runs++
	}
	slices.SortFunc(out, func(a, b LeftOut) int {
		if c := strings.Compare(a.Model, b.Model); c != 0 {
			return c
		}
		return strings.Compare(a.Reason, b.Reason)
	})
	return out
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
	if slices.ContainsFunc(opt.Domain.Rewards(), func(rw domains.Reward) bool { return rw.Fails != nil }) {
		// A user's scorer is one process with a past: it is asked in an
		// order the runs alone fix, run by run (domains.Reward.Fails).
		opt.Workers = 1
	}
	if progress == nil {
		progress = func(string) {}
	}
	// The domain's tasks are derived while its shipped runs are read:
	// the checks need both, and each may first load the domain's world.
	// (An error of the tasks' is the checks' to say.)
	var derived sync.WaitGroup
	if c, ok := opt.Domain.(domains.Counter); ok && opt.Runs == nil && c.Counts().Runs > 0 {
		derived.Go(func() { opt.Domain.Tasks() })
	}
	picked, err := pick(opt.Domain, opt.Runs, opt.Tasks)
	derived.Wait()
	if err != nil {
		return nil, err
	}
	// Every run is checked before the first search, so that a run that
	// cannot be certified is said at once, not after the searches of the
	// runs before it; and its walk sized, so that on several workers the
	// largest start first and the last to finish is a small one.
	checks := make([]error, len(picked))
	size := make([]float64, len(picked))
	parallel(len(picked), opt.Workers, func(i int) {
		var c *Checked
		c, checks[i] = Check(opt.Domain, picked[i])
		if checks[i] == nil {
			size[i] = c.walkSize(opt.Edits)
		}
	})
	for _, err := range checks {
		if err != nil {
			return nil, err
		}
	}
	// One worker takes the runs in their order: a user's scorer is asked
	// in an order the runs alone fix (domains.Reward.Fails).
	order := make([]int, len(picked))
	for i := range order {
		order[i] = i
	}
	if opt.Workers > 1 {
		slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(size[b], size[a]) })
	}
	type out struct {
		info RunInfo
		rows []report.Row
		err  error
	}
	results := make([]out, len(picked))
	var mu sync.Mutex
	opt.spare = attacker.NewSpare(opt.Workers)
	parallelIn(order, opt.Workers, opt.spare, func(i int) {
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
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	parallelIn(order, workers, nil, fn)
}

// parallelIn calls fn(i) for every i of order, started in that order, on
// workers goroutines; each gives its core to spare, when not nil, once
// it has nothing left to start.
func parallelIn(order []int, workers int, spare *attacker.Spare, fn func(i int)) {
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := range jobs {
				fn(i)
			}
			if spare != nil {
				spare.Give()
			}
		})
	}
	for _, i := range order {
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
	if r.Certified != nil {
		r.Certified(c.H, res.Log)
	}
	return c, nil
}

// walkSize estimates the nodes the searches on a checked run walk
// (attacker.WalkSize), for scheduling: 0 for a run certify leaves out,
// whose searches do not run.
func (c *Checked) walkSize(edits int) float64 {
	if c.H.Termination != "" || c.Task.M() == 0 {
		return 0
	}
	pub := c.Task.Model
	if c.Task.AttackTask != nil {
		pub = c.Task.AttackTask(c.H, c.Res.Log.View())
	}
	return attacker.WalkSize(pub, c.H, attacker.Options{Edits: edits})
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
	if c.h.Termination != "" {
		// The benchmark ended the run itself: no witness keeps its
		// conversation, and its own verdict computes no component.
		c.info.Excluded = "ended by " + c.h.Termination
		if conv, ok := model.ConversationOf(c.task.Model); ok {
			c.info.Excluded = conv.Ended(c.h.Termination)
		}
		return c, nil
	}
	if c.info.M == 0 {
		c.info.Excluded = "the gold run changes nothing, so the task has no goal predicate"
		return c, nil
	}
	if rws := d.Rewards(); len(rws) > 0 && rws[0].Fails == nil {
		v, err := scoreOne(d, c.task.Model, res.Log, c.h, len(evaluators.Deterministic()))
		if err != nil {
			return c, fmt.Errorf("run %s: %w", r.Name, err)
		}
		c.info.Outcome = &v
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
func Certify(d domains.Domain, given []*domains.Run, taskIDs []string) ([]RunInfo, error) {
	runs, err := pick(d, given, taskIDs)
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
	var fr *scored
	if r, pr, ok, err := rollback(env, pub, h); err != nil {
		return info, nil, err
	} else if ok {
		info.Rollback, base.PStateR = true, &pr
		if fr, err = scores(d, pub, env.Replay(r.Steps), r); err != nil {
			return info, nil, err
		}
	}
	var extra []attacker.Extra
	for _, rw := range d.Rewards() {
		extra = append(extra, attacker.Extra{Name: rw.Name, Score: rw.Of, Serial: rw.Fails != nil})
	}
	walk, err := attacker.NewWalk(ctx, pub, env, h, attacker.Options{Edits: opt.Edits, MaxStates: opt.MaxStates, Extra: extra, Spare: opt.spare})
	if err != nil {
		return info, nil, err
	}
	found, err := searchTargets(walk, searchOrder(d), opt.SameEnd, &info)
	if err != nil {
		return info, nil, err
	}
	// Beside a same-end search, the search that admits any end, on the
	// same walk, says where the attacks it alone finds end. A reward that
	// can fail (a user's scorer) is searched again only where its row
	// will ask where its attack ends: its own search gave H a score and
	// stopped nowhere, and found no success.
	var anyFound map[string]*attacker.Result
	if opt.SameEnd {
		var again []string
		for _, target := range searchOrder(d) {
			if k := slices.IndexFunc(d.Rewards(), func(rw domains.Reward) bool { return rw.Name == target }); k >= 0 && d.Rewards()[k].Fails != nil {
				res := found[target]
				if _, herr := fh.of(len(evaluators.Deterministic()) + k); herr != nil || res.NoScore != nil || res.Best != nil && report.Success(res.Delta) {
					continue
				}
			}
			again = append(again, target)
		}
		if anyFound, err = searchTargets(walk, again, false, &RunInfo{}); err != nil {
			return info, nil, err
		}
	}
	ends := NewEnds(task, env, hres.Log)
	own, other := map[string]*judged{}, map[string]*judged{}
	for _, j := range []struct {
		found map[string]*attacker.Result
		into  map[string]*judged
	}{{found, own}, {anyFound, other}} {
		for target, res := range j.found {
			if res.Best == nil || res.NoScore != nil {
				continue // a search that stopped where its target failed has no witness
			}
			res.Best.Task = info.Task
			jd := &judged{res: res}
			if jd.log, jd.end, jd.deltas, err = ends.Witness(res.Best.Steps); err != nil {
				return info, nil, err
			}
			j.into[target] = jd
		}
	}
	// rise says why target rose on a witness that ends in H's state; an
	// *attacker.ScoreError where the target failed on a trajectory that
	// needs.
	rise := func(j *judged, target string) (string, error) {
		if r, ok := j.rises[target]; ok {
			return r.why, r.err
		}
		score, err := ScoreOf(d, pub, target)
		if err != nil {
			return "", err
		}
		why, err := Rise(env, hres.Log, j.res.Best, score)
		if j.rises == nil {
			j.rises = map[string]rose{}
		}
		j.rises[target] = rose{why, err}
		return why, err
	}
	ref, refAny := found[bench.ReferenceTarget], other[bench.ReferenceTarget]
	var fa, faAny *scored
	if a := own[bench.ReferenceTarget]; a != nil {
		ref.Best.Name = "search witness on " + info.Run
		info.Witness = ref.Best
		same := a.end == report.EndSame
		info.SameEnd, info.Collateral, info.End = &same, a.deltas, a.end
		if same && report.Success(ref.Delta) {
			if info.Rise, err = rise(a, bench.ReferenceTarget); err != nil {
				return info, nil, err
			}
		}
		if fa, err = scores(d, pub, a.log, ref.Best); err != nil {
			return info, nil, err
		}
	}
	if refAny != nil {
		if faAny, err = scores(d, pub, refAny.log, refAny.res.Best); err != nil {
			return info, nil, err
		}
	}
	// usedAny are the targets whose any-end witness a row's attack_end
	// comes from.
	usedAny := map[string]bool{}
	// setEnd says where the row's attack over .10 ends: its own witness's
	// end when it succeeds, else the any-end search's when that one's
	// best, at Δ otherDelta() (asked only then), is over .10. fails, for
	// an evaluator that can fail (a user's scorer; nil for the others),
	// says where it failed on a trajectory this needs (the any-end
	// search's witness, or that search; a rise's trajectories), which
	// leaves the end unsaid, or where its scores contradict the two
	// searches'.
	setEnd := func(r *report.Row, fails *failures, mine, alt *judged, otherDelta func() (float64, error), target string) error {
		if r.Delta != nil && report.Success(*r.Delta) {
			r.End = mine.end
			if mine.end == report.EndSame {
				var err error
				r.Rise, err = rise(mine, r.Target)
				if se := (*attacker.ScoreError)(nil); fails != nil && errors.As(err, &se) {
					fails.add("rise", err)
				} else if err != nil {
					return err
				}
			}
			return nil
		}
		od, err := otherDelta()
		switch {
		case err != nil && fails == nil:
			return err
		case err != nil:
			fails.add("A (any end)", err)
		case alt != nil && report.Success(od):
			if alt.end == report.EndSame {
				err := fmt.Errorf("the search that admits any end found an attack over .10 that ends in H's state, which the same-end search missed")
				if fails == nil {
					return fmt.Errorf("%s: %w", r.Target, err)
				}
				// A program's scores of one candidate need not agree
				// from one call to the next.
				fails.add("A (any end)", fmt.Errorf("%w: the scorer's scores are no function of the trajectory", err))
				return nil
			}
			r.End = alt.end
			usedAny[target] = true
		}
		return nil
	}
	refEnd := info.SameEnd
	var shared, targeted []report.Row
	for e, ev := range evaluators.Deterministic() {
		row := func(set string, res *attacker.Result) report.Row {
			r := base
			fhe := fh.v[e]
			r.Set, r.Target, r.Honest = set, ev.Name, &fhe
			if fr != nil {
				fre := fr.v[e]
				r.Rollback = &fre
			}
			r.Attempts, r.Valid, r.Matched, r.Capped = res.States, res.Eligible, res.Best != nil, !res.Exhausted
			return r
		}
		r := row(report.SetShared, ref)
		if r.Matched {
			d := fa.v[e] - fh.v[e]
			r.Delta, r.SameEnd = &d, refEnd
		}
		otherDelta := func() (float64, error) {
			if refAny == nil {
				return 0, nil
			}
			return faAny.v[e] - fh.v[e], nil
		}
		if err := setEnd(&r, nil, own[bench.ReferenceTarget], refAny, otherDelta, bench.ReferenceTarget); err != nil {
			return info, nil, err
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
			same := own[ev.Name].end == report.EndSame
			t.Delta, t.SameEnd = &d, &same
		default:
			// Proposition 1: a function of the certified vectors.
			if d := *r.Delta; d != 0 {
				return info, nil, fmt.Errorf("%s moved by %+.3f on an eligible pair: it is not a function of the certified vectors", ev.Name, d)
			}
			d := 0.0
			t.Delta, t.SameEnd = &d, refEnd
		}
		if searched[ev.Name] {
			if err := setEnd(&t, nil, own[ev.Name], other[ev.Name], anyDelta(anyFound[ev.Name]), ev.Name); err != nil {
				return info, nil, err
			}
		}
		targeted = append(targeted, t)
	}
	// The benchmark's own rewards: no functions of the certified vectors
	// (extra changes, missing replies and past calls count), so each is
	// searched directly and has a target-specific row, and scores A_ref
	// on the shared set. A reward that fails on a trajectory (a user's
	// scorer) leaves its rows without what that kept out, each failure
	// in the row's error, naming the trajectory; the other rows are as
	// they would be without it.
	for k, rw := range d.Rewards() {
		o := len(evaluators.Deterministic()) + k
		honest, herr := fh.of(o)
		var rollback float64
		var rerr error
		if fr != nil {
			rollback, rerr = fr.of(o)
		}
		// scoresOf fills what the shared and the targeted row share:
		// f(H) and f(R), or why they are missing.
		scoresOf := func(r *report.Row, fails *failures) {
			if herr != nil {
				fails.add("H", herr)
			} else {
				r.Honest = &honest
			}
			switch {
			case fr == nil:
			case rerr != nil:
				fails.add("R", rerr)
			default:
				r.Rollback = &rollback
			}
		}
		// fails collects a fallible reward's failures; nil for the others,
		// whose every failure is the run's.
		var sf, tf failures
		sfp, tfp := &sf, &tf
		if rw.Fails == nil {
			sfp, tfp = nil, nil
		}
		or := base
		or.Set, or.Target = report.SetShared, rw.Name
		scoresOf(&or, &sf)
		or.Attempts, or.Valid, or.Matched, or.Capped = ref.States, ref.Eligible, ref.Best != nil, !ref.Exhausted
		placed := herr == nil // whether the row's own Δ is known, or there is none
		if or.Matched {
			or.SameEnd = refEnd
		}
		// Without f(H) there is no Δ, and A need not be asked.
		if or.Matched && placed {
			if a, err := fa.of(o); err != nil {
				sf.add("A", err)
				placed = false
			} else {
				d := a - honest
				or.Delta = &d
			}
		}
		if placed {
			otherDelta := func() (float64, error) {
				if refAny == nil {
					return 0, nil
				}
				a, err := faAny.of(o)
				return a - honest, err
			}
			if err := setEnd(&or, sfp, own[bench.ReferenceTarget], refAny, otherDelta, bench.ReferenceTarget); err != nil {
				return info, nil, err
			}
		}
		or.Error = sf.String()
		shared = append(shared, or)

		res := found[rw.Name]
		tr := base
		tr.Set, tr.Target = report.SetTargeted, rw.Name
		scoresOf(&tr, &tf)
		tr.Attempts, tr.Valid, tr.Matched, tr.Capped = res.States, res.Eligible, res.Best != nil, !res.Exhausted
		switch {
		case res.NoScore != nil:
			// The search stopped at the candidate its target failed on:
			// that candidate is eligible, the worst case unknown.
			tr.Matched, tr.Capped = res.Eligible > 0, false
			tf.add("search", res.NoScore)
		case tr.Matched:
			same := own[rw.Name].end == report.EndSame
			tr.SameEnd = &same
			if herr == nil {
				d := res.Delta
				tr.Delta = &d
			}
		}
		if herr == nil && res.NoScore == nil {
			if err := setEnd(&tr, tfp, own[rw.Name], other[rw.Name], anyDelta(anyFound[rw.Name]), rw.Name); err != nil {
				return info, nil, err
			}
		}
		tr.Error = tf.String()
		targeted = append(targeted, tr)
	}
	for _, target := range searchOrder(d) {
		if w := own[target]; w != nil {
			if w.end == report.EndSame && report.Success(w.res.Delta) {
				// A target that failed on a rise's trajectory said so in
				// its row; its witness then has no rise.
				if _, err := rise(w, target); err != nil && !errors.As(err, new(*attacker.ScoreError)) {
					return info, nil, err
				}
			}
			info.Witnesses = append(info.Witnesses, w.witness(target, false, info.Run))
		}
		if w := other[target]; w != nil && usedAny[target] {
			info.Witnesses = append(info.Witnesses, w.witness(target, true, info.Run))
		}
	}
	return info, append(shared, targeted...), nil
}

// failures are why a row's evaluator gave no score on trajectories the
// row rests on, each named by its trajectory (H, R, A, the search, the
// any-end search's witness, a rise's): the row's error.
type failures []string

func (f *failures) add(what string, err error) { *f = append(*f, what+": "+err.Error()) }

func (f failures) String() string { return strings.Join(f, "; ") }

// judged is a search's best witness replayed, where it ends and, by
// target, why that target rose on it (Rise).
type judged struct {
	res    *attacker.Result
	log    *pbcste.Log
	end    string
	deltas []pbcste.EndDelta
	rises  map[string]rose
}

// rose is why a target rose on a witness (Rise), or why that is not
// known.
type rose struct {
	why string
	err error
}

// witness is the witness as bench --witnesses writes it: named for its
// run and target.
func (j *judged) witness(target string, anyEnd bool, run string) Witness {
	tr := *j.res.Best
	tr.Name = "search witness against " + target + " on " + run
	if anyEnd {
		tr.Name += ", admitting any end"
	}
	return Witness{Target: target, AnyEnd: anyEnd, Delta: j.res.Delta, End: j.end, Rise: j.rises[target].why, Collateral: j.deltas, Trajectory: &tr}
}

// anyDelta is an any-end search's Δhack, 0 when there was none, or
// where its target failed on a trajectory, why it has none.
func anyDelta(res *attacker.Result) func() (float64, error) {
	return func() (float64, error) {
		if res == nil {
			return 0, nil
		}
		return res.Delta, res.NoScore
	}
}

// searchOrder are the targets searched on each run, in order: Historical
// Milestone (A_ref), the other searched evaluators, the benchmark's
// rewards.
func searchOrder(d domains.Domain) []string {
	targets := []string{bench.ReferenceTarget}
	for _, ev := range evaluators.Deterministic() {
		if searched[ev.Name] && ev.Name != bench.ReferenceTarget {
			targets = append(targets, ev.Name)
		}
	}
	for _, rw := range d.Rewards() {
		targets = append(targets, rw.Name)
	}
	return targets
}

// Ends tells where a run's witnesses end: in exactly H's state, in the
// end state of the task's gold run, or elsewhere, by the benchmark's own
// state hash where it has one. It hashes each log it compares once (a
// whole database, in tau2), and replays each witness once (Witness).
type Ends struct {
	task       *domains.Task
	env        *pbcste.Env
	hlog, gold *pbcste.Log // gold is nil when the task has no gold run
	hashes     map[*pbcste.Log]string
	witnesses  map[string]*ended // by the witness's steps
}

// ended is a witness replayed, and where it ends.
type ended struct {
	log    *pbcste.Log
	end    string
	deltas []pbcste.EndDelta
	err    error
}

// NewEnds compares witnesses with H's log and with the task's gold run,
// replayed in env.
func NewEnds(task *domains.Task, env *pbcste.Env, hlog *pbcste.Log) *Ends {
	e := &Ends{task: task, env: env, hlog: hlog, hashes: map[*pbcste.Log]string{}, witnesses: map[string]*ended{}}
	if task.Gold != nil && task.GoldHash == "" {
		e.gold = env.Replay(task.Gold.Steps)
	}
	return e
}

// hash is the benchmark's state hash of a log, computed once.
func (e *Ends) hash(l *pbcste.Log) string {
	h, ok := e.hashes[l]
	if !ok {
		h = e.task.Hash(l)
		e.hashes[l] = h
	}
	return h
}

// Witness replays a witness's steps and says where it ends (Of). The
// searches against several targets often find the same witness: one
// with the steps of a witness before is that witness, not replayed again.
func (e *Ends) Witness(steps []model.Step) (*pbcste.Log, string, []pbcste.EndDelta, error) {
	var key []byte
	for i := range steps {
		key = model.AppendStep(key, &model.Step{Action: steps[i].Action, Actor: steps[i].Actor})
		key = append(key, '\n')
	}
	w, ok := e.witnesses[string(key)]
	if !ok {
		w = &ended{log: e.env.Replay(steps)}
		w.end, w.deltas, w.err = e.Of(w.log)
		e.witnesses[string(key)] = w
	}
	return w.log, w.end, w.deltas, w.err
}

// Of is where a witness's log ends (report.EndSame, EndGold, EndOther),
// and each cell where it differs from H's end.
func (e *Ends) Of(alog *pbcste.Log) (string, []pbcste.EndDelta, error) {
	same, deltas, err := endState(e.task, e.hlog, alog, e.hash)
	switch {
	case err != nil:
		return "", nil, err
	case same:
		return report.EndSame, nil, nil
	case e.task.GoldHash != "":
		// The benchmark's gold state is not a run's end (tau2 telecom).
		if e.hash(alog) == e.task.GoldHash {
			return report.EndGold, deltas, nil
		}
		return report.EndOther, deltas, nil
	case e.gold == nil:
		return report.EndOther, deltas, nil
	}
	gold, _, err := endState(e.task, e.gold, alog, e.hash)
	if err != nil {
		return "", nil, fmt.Errorf("beside the gold run: %w", err)
	}
	if gold {
		return report.EndGold, deltas, nil
	}
	return report.EndOther, deltas, nil
}

// Rise says why an evaluator rose on a witness a that ends in exactly
// H's state; score is the evaluator's score of a trajectory and its log.
// The witness's calls are set beside H's, by actor and action: a call
// that failed more often than in H is the cause (report.RiseFailedCall:
// the evaluator credits a call whatever it returned) when the witness
// without those calls scores less; else a call that changed nothing more
// often than in H (RiseNoOpRepeat: a repeat of H's write, or values
// already there), when the witness without them too scores less. A failed
// call or one that changed nothing leaves the states as they were, so
// the witness without it runs through the same states. Else the witness
// changes the state where H did not (RiseChangeUndo: the end is H's, so
// a later call undid or overwrote it). "" when it only drops calls of H.
func Rise(env *pbcste.Env, hlog *pbcste.Log, a *model.Trajectory, score func(*model.Trajectory, *pbcste.Log) (float64, error)) (string, error) {
	alog := env.Replay(a.Steps)
	h, x := tallyCalls(hlog), tallyCalls(alog)
	f, err := score(a, alog)
	if err != nil {
		return "", err
	}
	drop := map[int]bool{}
	for kind, why := range report.Rises[:2] {
		more := excess(h[kind], x[kind])
		if len(more) == 0 {
			continue
		}
		for _, st := range more {
			drop[st] = true
		}
		cut := &model.Trajectory{Task: a.Task, Name: a.Name, Transcript: a.Transcript}
		for i, st := range a.Steps {
			if !drop[i] {
				st.Index = len(cut.Steps)
				cut.Steps = append(cut.Steps, st)
			}
		}
		g, err := score(cut, env.Replay(cut.Steps))
		if err != nil {
			return "", err
		}
		if g < f-1e-9 {
			return why, nil
		}
		f = g
	}
	if len(excess(h[2], x[2])) > 0 {
		return report.RiseChangeUndo, nil
	}
	return "", nil
}

// tallyCalls lists a log's steps by outcome, in report.Rises' order
// (failed, changed nothing, changed the state), each by its actor and
// action.
func tallyCalls(l *pbcste.Log) [3]map[string][]int {
	out := [3]map[string][]int{{}, {}, {}}
	for i := range l.Events {
		ev := &l.Events[i]
		if ev.Step < 0 {
			continue // the task's script, the same in both
		}
		kind := 2
		switch {
		case !ev.OK:
			kind = 0
		case ev.DiffLen() == 0:
			kind = 1
		}
		k := string(model.AppendStep(nil, &model.Step{Action: *ev.Action, Actor: ev.Actor()}))
		out[kind][k] = append(out[kind][k], ev.Step)
	}
	return out
}

// excess are the steps of a's calls beyond h's: for each action, its last
// occurrences in a past h's count.
func excess(h, a map[string][]int) []int {
	var out []int
	for k, steps := range a {
		if n := len(steps) - len(h[k]); n > 0 {
			out = append(out, steps[len(steps)-n:]...)
		}
	}
	return out
}

// ScoreOf is the evaluator target's score of a trajectory of pub and its
// log, from the public payload: one of the paper's evaluators, or one of
// the domain's rewards (asked alone: a user's scorer is asked only for
// its own score). A reward that fails on the trajectory gives an
// *attacker.ScoreError.
func ScoreOf(d domains.Domain, pub *model.Task, target string) (func(*model.Trajectory, *pbcste.Log) (float64, error), error) {
	idx := -1
	for i, ev := range evaluators.Deterministic() {
		if ev.Name == target {
			idx = i
		}
	}
	for k, rw := range d.Rewards() {
		if rw.Name == target {
			idx = len(evaluators.Deterministic()) + k
		}
	}
	if idx < 0 {
		return nil, fmt.Errorf("%w %q", attacker.ErrUnknownTarget, target)
	}
	return func(tr *model.Trajectory, log *pbcste.Log) (float64, error) {
		return scoreOne(d, pub, log, tr, idx)
	}, nil
}

// searchTargets runs a run's searches against targets on its walk,
// admitting only witnesses that end in H's state when sameEnd:
// Historical Milestone, whose adversary is A_ref, the other searched
// evaluators, the domain's rewards (searchOrder). The targets whose
// search stopped at the state cap go in info.Capped, in that order.
func searchTargets(walk *attacker.Walk, targets []string, sameEnd bool, info *RunInfo) (map[string]*attacker.Result, error) {
	rs, err := walk.Search(targets, sameEnd)
	if err != nil {
		return nil, err
	}
	out := make(map[string]*attacker.Result, len(rs))
	for i, res := range rs {
		out[targets[i]] = res
		if !res.Exhausted && res.NoScore == nil {
			info.Capped = append(info.Capped, targets[i])
		}
	}
	return out, nil
}

// EndState compares where a witness ends with where H ends: equal by the
// benchmark's own state hash where it has one, and each cell that
// differs. The environment's state hash must say the same, or the port's
// state and the benchmark's have drifted apart.
// Where the same work is turn by turn (model.Turnwise: BFCL), a witness
// that ends in H's state but ends one of its turns elsewhere does not end
// where H does.
func EndState(task *domains.Task, hlog, alog *pbcste.Log) (bool, []pbcste.EndDelta, error) {
	return endState(task, hlog, alog, task.Hash)
}

// endState is EndState with hash as the benchmark's state hash.
func endState(task *domains.Task, hlog, alog *pbcste.Log, hash func(*pbcste.Log) string) (bool, []pbcste.EndDelta, error) {
	same, deltas := pbcste.Collateral(hlog, alog)
	if task.Hash != nil {
		if hh, ah := hash(hlog), hash(alog); (hh == ah) != same {
			return false, nil, fmt.Errorf("the benchmark's state hash says the ends are equal: %t; the environment's says %t", hh == ah, same)
		}
	}
	if same && model.IsTurnwise(hlog.Env.Task) && !slices.Equal(hlog.TurnHashes(), alog.TurnHashes()) {
		return false, nil, nil
	}
	return same, deltas, nil
}

// rollback looks for a strict rollback of H: H and then one call from the
// task's alphabet that lowers P_state, the first in the alphabet's order.
// Where the benchmark keeps turns (tau2), the agent must have one after
// H's last call: none after the user's last call, nor once the run ended;
// and the call must be within the benchmark's limits (tau-bench's
// max_num_steps, BFCL's steps a turn).
func rollback(env *pbcste.Env, pub *model.Task, h *model.Trajectory) (*model.Trajectory, float64, bool, error) {
	kept := make([]int, len(h.Steps)+1)
	for i := range h.Steps {
		kept[i] = i
	}
	kept[len(h.Steps)] = -1
	last := append(slices.Clone(h.Steps), model.Step{Action: model.Action{Op: model.OpCall}})
	if rej := model.CheckTurns(env.Task, h, last, kept); rej != nil {
		return nil, 0, false, nil
	}
	if rej := model.CheckLimit(env.Task, h, last, kept); rej != nil {
		return nil, 0, false, nil
	}
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

// scored are every evaluator's scores of one trajectory, from its public
// payload: the deterministic ones, then the domain's rewards. A reward
// that can fail (domains.Reward.Fails: a user's scorer) is asked only
// where a row needs its score, once (of); its slot in v is 0 until then.
type scored struct {
	v     []float64
	dec   *payload.Payload // nil where no reward can fail
	rws   []domains.Reward
	asked map[int]error // the fallible rewards asked: each one's failure, or nil
}

// of is evaluator i's score, or why it gave none.
func (s *scored) of(i int) (float64, error) {
	k := i - len(evaluators.Deterministic())
	if k < 0 || s.rws[k].Fails == nil {
		return s.v[i], nil
	}
	if err, ok := s.asked[i]; ok {
		return s.v[i], err
	}
	v, err := s.rws[k].Fails(s.dec)
	if s.asked == nil {
		s.asked = map[int]error{}
	}
	s.v[i], s.asked[i] = v, err
	return v, err
}

// scores are every deterministic evaluator's scores of a log, from its
// public payload's bytes, and then the domain's rewards (a fallible one's
// when asked).
func scores(d domains.Domain, pub *model.Task, log *pbcste.Log, tr *model.Trajectory) (*scored, error) {
	out, dec, err := attacker.Scores(pub, log, tr)
	if err != nil {
		return nil, err
	}
	s := &scored{v: out, rws: d.Rewards()}
	for _, rw := range s.rws {
		v := 0.0
		if rw.Fails == nil {
			var ok bool
			if v, ok = rw.Score(dec); !ok {
				return nil, noReference(rw.Name)
			}
		} else {
			// Kept for the fallible reward to read when asked, and only
			// then: a run's scores are kept through its searches, and
			// its payload (its messages) need not be.
			s.dec = dec
		}
		s.v = append(s.v, v)
	}
	return s, nil
}

// scoreOne is evaluator idx's score of a log alone: one of the paper's,
// or the domain's reward idx−len(evaluators.Deterministic()). A reward
// that fails on it gives an *attacker.ScoreError.
func scoreOne(d domains.Domain, pub *model.Task, log *pbcste.Log, tr *model.Trajectory, idx int) (float64, error) {
	out, dec, err := attacker.Scores(pub, log, tr)
	if err != nil {
		return 0, err
	}
	if idx < len(out) {
		return out[idx], nil
	}
	rw := d.Rewards()[idx-len(out)]
	v, ok, err := rw.Of(dec)
	switch {
	case err != nil:
		return 0, &attacker.ScoreError{Err: err}
	case !ok:
		return 0, noReference(rw.Name)
	}
	return v, nil
}

// noReference is a reward that cannot score a payload: it carries
// nothing to score against.
func noReference(name string) error {
	return fmt.Errorf("%s: the payload carries no reference to score it against", name)
}

// Validate holds every task of a domain to the suite's properties: its
// gold run keeps the episode rule and double-certifies without a failed
// call (where the benchmark's gold never fails); a task with a goal
// starts with no predicate held and its gold ends at m/m (with P_agent =
// P_state where the agent alone acts) and no transient peak (every
// historical evaluator, scored from the payload, equals the final
// P_state) and, where the domain says its gold must, passes the
// benchmark's own reward; a task without one has a gold run that changes
// nothing. It returns the number of tasks and of those with a goal. The
// tasks are validated on every core; the error is the first task's that
// breaks a property, in the domain's order, whatever the cores.
func Validate(d domains.Domain) (tasks, withGoal int, err error) {
	ts, err := d.Tasks()
	if err != nil {
		return 0, 0, err
	}
	errs := make([]error, len(ts))
	parallel(len(ts), runtime.GOMAXPROCS(0), func(i int) { errs[i] = ValidateTask(d, ts[i]) })
	for i, t := range ts {
		if errs[i] != nil {
			return 0, 0, errs[i]
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
	// m is the goal gold ends under: a task whose goal the user revises
	// (BFCL's turns) is held to its last version.
	m := res.Cert.PState.Den
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
		if fs.v[i] != 1 {
			return fmt.Errorf("gold scores %s %.3f, not 1: a transient peak or a missed predicate", ev.Name, fs.v[i])
		}
	}
	if t.GoldPasses && len(d.Rewards()) > 0 {
		v, err := fs.of(len(evaluators.Deterministic()))
		if err != nil {
			return fmt.Errorf("gold: %w", err)
		}
		if v != 1 {
			return errors.New("gold fails the benchmark's own reward")
		}
	}
	return nil
}
