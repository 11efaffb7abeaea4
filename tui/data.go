package tui

import (
	"context"
	"fmt"
	"math/bits"
	"path/filepath"
	"slices"
	"strings"

	"github.com/parthack/parthack/attacker"
	"github.com/parthack/parthack/certifier"
	"github.com/parthack/parthack/domains"
	"github.com/parthack/parthack/evaluators"
	"github.com/parthack/parthack/internal/payload"
	"github.com/parthack/parthack/internal/payload/builder"
	"github.com/parthack/parthack/internal/taskfile"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
	"github.com/parthack/parthack/tasks"
	"github.com/parthack/parthack/tasks/sealed"
)

// This file is the workbench's only contact with the task suite, the
// sealed tasks, the public payload, the evaluators, the certifiers and
// the search attacker:
// everything else in the package works on the types below.

// suiteTask is one task of the suite as the workbench shows it. Public is
// what evaluators may see (its predicate texts are the public goal
// schema); the environment always runs the trusted task.
type suiteTask struct {
	ID, Title, Split, Family, Domain, RollbackMetric string
	M                                                int
	Honest                                           model.Frac
	Tags                                             []string
	Public                                           *model.Task
	HonestTraj, Witness, Rollback, Attribution       *model.Trajectory
	// Runs are a real benchmark's recorded runs of the task (its gold run
	// and its agents' runs), when it comes from one, or the trajectory
	// files of a task of the user's own.
	Runs []choice
	// Trusted is the task the environment runs when it is not the suite's
	// or a domain's: a task file of the user's own (File), which is its
	// own public and trusted view.
	Trusted *model.Task
	File    string
	// Rewards are the benchmark's own recorded rewards of Runs, by
	// label, when it records them (tau-bench's run files do).
	Rewards map[string]float64
	// Bench names the benchmark whose rewards they are ("tau-bench").
	Bench string
	// Models are the agents' models of Runs, each once, in the runs'
	// order: Browse lists a benchmark's tasks by them.
	Models []string
	// BenchEvals are the benchmark's own evaluators (its reward and the
	// reward's components: domains.Domain.Rewards), scored from the
	// public payload beside the paper's; nil on tasks of no benchmark.
	BenchEvals []domains.Reward
	// messages says what another actor's step says to the agent, where
	// the task's domain is a domains.Messenger (BFCL's user turns); nil
	// elsewhere.
	messages domains.Messenger
	// explain says the benchmark's checks of a payload's run, where its
	// domain is a domains.Explainer; nil elsewhere.
	explain domains.Explainer
	// cells shows a cell's value as the benchmark shows it, where its
	// domain keeps cells in an encoding of its own (BFCL's Python
	// values); nil elsewhere.
	cells domains.CellShower
}

// cellText is a cell's value as JSON text, as the task's benchmark shows
// it to people where it shows it otherwise than it stores it.
func (t *suiteTask) cellText(v model.Value) string {
	if t != nil && t.cells != nil {
		if text, ok := t.cells.ShowCell(v); ok {
			return text
		}
	}
	return v.String()
}

// message is the message step a carries from actor to the agent (BFCL's
// user turn: "turn 1" and the turn's question); ok is false for a step
// that carries none.
func (t *suiteTask) message(actor model.Actor, a *model.Action) (name, text string, ok bool) {
	if t == nil || t.messages == nil || isAgent(actor) {
		return "", "", false
	}
	return t.messages.Message(t.ID, actor, a)
}

// describeStep renders a step the way people read it: a message as its
// name and words ("turn 1: Perform a detailed search…"), any other
// action as describeAction does.
func (t *suiteTask) describeStep(actor model.Actor, a *model.Action) string {
	if name, text, ok := t.message(actor, a); ok {
		return name + ": " + strings.Join(strings.Fields(text), " ")
	}
	return describeAction(a)
}

// stored lists the task's stored trajectories, in the order t cycles them.
func (t *suiteTask) stored() []choice {
	if t.Runs != nil {
		return t.Runs
	}
	var out []choice
	for _, ch := range []choice{{"honest", t.HonestTraj}, {"witness", t.Witness}, {"rollback", t.Rollback}, {"attribution control", t.Attribution}} {
		if ch.traj != nil {
			out = append(out, ch)
		}
	}
	return out
}

// honest is the task's H as one of its stored trajectories: the one S,
// e and c take as H unless another run is on screen or marked (see
// inspector.honest).
func (t *suiteTask) honest() choice {
	for _, ch := range t.stored() {
		if ch.traj == t.HonestTraj {
			return ch
		}
	}
	return choice{"honest", t.HonestTraj}
}

// witnessOf is H for a saved or imported witness: the run of the task
// its honest member names, else the task's H; note says why, when the
// member names a run the task does not have ("" otherwise).
func (t *suiteTask) witnessOf(w *model.Trajectory) (h choice, note string) {
	if w.Honest == "" {
		return t.honest(), ""
	}
	for _, ch := range t.stored() {
		if ch.label == w.Honest {
			return ch, ""
		}
	}
	h = t.honest()
	return h, fmt.Sprintf("%s is a witness of %s, which %s has no run of: H is the task's, %s", orDefault(w.Name, "the witness"), w.Honest, t.ID, h.label)
}

// orHonest is h, or the task's H when h names none.
func (t *suiteTask) orHonest(h choice) choice {
	if h.traj == nil {
		return t.honest()
	}
	return h
}

// isRun reports whether tr is one of the task's runs, any of which may be
// H: a stored trajectory other than its witness, rollback and
// attribution control (a benchmark's gold and agents' runs, the suite's
// honest run), not one opened from elsewhere (a saved witness, the
// search's).
func (t *suiteTask) isRun(tr *model.Trajectory) bool {
	if tr == nil || tr == t.Witness || tr == t.Rollback || tr == t.Attribution {
		return false
	}
	for _, ch := range t.stored() {
		if ch.traj == tr {
			return true
		}
	}
	return false
}

// evaluator names one deterministic evaluator, in the order scores are
// listed everywhere.
type evaluator struct{ Name, Label string }

// loadSuite returns the public suite.
func loadSuite() ([]*suiteTask, error) {
	all, err := tasks.Suite()
	if err != nil {
		return nil, err
	}
	out := make([]*suiteTask, len(all))
	for i, t := range all {
		out[i] = &suiteTask{ID: t.ID, Title: t.Public.Title, Split: t.Split, Family: t.Family, Domain: t.Domain,
			RollbackMetric: t.RollbackMetric, M: t.M, Honest: t.Honest, Tags: t.Tags, Public: t.Public,
			HonestTraj: t.HonestTrajectory, Witness: t.Witness, Rollback: t.RollbackTrajectory, Attribution: t.AttributionControl}
	}
	return out, nil
}

// loadDomain returns a registered domain's tasks as the workbench shows
// them: each with its gold run and its real runs, H the first run that
// failed (else the first). Given runs (the user's files'), they are the
// runs instead of the domain's, and only the tasks they are runs of are
// listed.
func loadDomain(name string, given []*domains.Run) ([]*suiteTask, error) {
	d, err := domains.Lookup(name)
	if err != nil {
		return nil, err
	}
	ts, err := d.Tasks()
	if err != nil {
		return nil, err
	}
	runs := given
	if runs == nil {
		if runs, err = d.Runs(); err != nil {
			return nil, err
		}
	}
	ran := map[string]bool{}
	for _, r := range given {
		ran[r.Task] = true
	}
	var out []*suiteTask
	for _, t := range ts {
		if given != nil && !ran[t.ID] {
			continue
		}
		st, err := domainTask(d, t, runs, "")
		if err != nil {
			return nil, err
		}
		if st != nil {
			out = append(out, st)
		}
	}
	return out, nil
}

// domainTask is one of a domain's tasks as the workbench shows it, with
// its gold run and its runs among runs: H is the run named honest, else
// the task's default (domains.DefaultHonest), else gold. Nil when the
// task has no run.
func domainTask(d domains.Domain, t *domains.Task, runs []*domains.Run, honest string) (*suiteTask, error) {
	st := &suiteTask{ID: t.ID, Title: t.Title, Split: d.Title(), Family: t.Family,
		RollbackMetric: model.RollbackIncluded, M: t.M(), Public: t.Model, Bench: benchName(d), BenchEvals: d.Rewards()}
	st.messages, _ = d.(domains.Messenger)
	st.explain, _ = d.(domains.Explainer)
	st.cells, _ = d.(domains.CellShower)
	if t.Gold != nil {
		st.Runs = append(st.Runs, choice{"gold", t.Gold})
	}
	def := domains.DefaultHonest(runs, t.ID)
	var deflt, named *model.Trajectory
	for _, r := range runs {
		if r.Task != t.ID {
			continue
		}
		tr, err := r.Trajectory()
		if err != nil {
			return nil, err
		}
		st.Runs = append(st.Runs, choice{r.Short, tr})
		if r.Model != "" && !slices.Contains(st.Models, r.Model) {
			st.Models = append(st.Models, r.Model)
		}
		if st.Rewards == nil {
			st.Rewards = map[string]float64{}
		}
		st.Rewards[r.Short] = r.Reward
		if r == def {
			deflt = tr
		}
		if honest != "" && r.Short == honest {
			named = tr
		}
	}
	if len(st.Runs) == 0 {
		return nil, nil // nothing to step through
	}
	if honest != "" && named == nil {
		return nil, fmt.Errorf("%s has no run %q", t.ID, honest)
	}
	if t.M() == 0 {
		st.Tags = []string{"no goal"}
	}
	switch {
	case named != nil:
		st.HonestTraj = named
	case deflt != nil:
		st.HonestTraj = deflt
	default:
		st.HonestTraj = t.Gold
	}
	env, err := t.Env()
	if err != nil {
		return nil, err
	}
	if t.M() > 0 {
		// m and H's progress are of the goal version H ends in, as the
		// suite's are: a task whose user revises the goal turn by turn
		// (BFCL's) has as many versions as turns.
		log := env.Replay(st.HonestTraj.Steps)
		st.M = len(log.Goal().Preds)
		st.Honest = model.Frac{Num: bits.OnesCount64(lastBits(log)), Den: st.M}
	}
	return st, nil
}

// benchReward is the benchmark's own reward of a replayed trajectory of
// a real benchmark's task, computed by its rule on the trusted side
// (tau-bench's: the final database's data hash and the required outputs
// in the agent's replies); ok is false for tasks of no benchmark with a
// reward. name names the benchmark.
func benchReward(t *suiteTask, log *pbcste.Log, tr *model.Trajectory) (reward float64, name string, ok bool) {
	if t.Runs == nil || t.Trusted != nil {
		return 0, "", false
	}
	d, tt, err := domains.FindTask(t.ID)
	if err != nil || tt.Reward == nil {
		return 0, "", false
	}
	return tt.Reward(log, tr), benchName(d), true
}

// benchHashes are the benchmark's own hashes of the state a replayed
// run ends in and of the state its gold run ends in (tau2's DB hash,
// tau-bench's data hash); ok is false where the benchmark has none.
func benchHashes(w *workspace, t *suiteTask, log *pbcste.Log) (run, gold string, ok bool) {
	if t.Runs == nil || t.Trusted != nil {
		return "", "", false
	}
	_, tt, err := domains.FindTask(t.ID)
	if err != nil || tt.Hash == nil || tt.Gold == nil {
		return "", "", false
	}
	env, err := w.env(t)
	if err != nil {
		return "", "", false
	}
	run, gold = tt.Hash(log), tt.Hash(env.Replay(tt.Gold.Steps))
	return run, gold, run != "" && gold != ""
}

// benchName is the benchmark a domain's title names first: "tau-bench"
// for "tau-bench airline".
func benchName(d domains.Domain) string {
	name, _, _ := strings.Cut(d.Title(), " ")
	return name
}

// lastBits is a log's c_state at termination.
func lastBits(log *pbcste.Log) uint64 {
	if n := len(log.Events); n > 0 {
		return log.Events[n-1].CState
	}
	cs, _ := log.InitialVectors()
	return cs
}

// ownSplit is the split a task of the user's own shows under.
const ownSplit = "own"

// loadTaskFile reads a task file of the user's own with its trajectories
// (the files next to it, their roles from their names: package
// taskfile), as the workbench shows it. Without an honest*.json, H is the
// empty trajectory.
func loadTaskFile(path string) (*suiteTask, error) {
	b, err := taskfile.Load(path, nil)
	if err != nil {
		return nil, err
	}
	if _, err := trustedTask(b.Task.ID); err == nil || strings.HasPrefix(b.Task.ID, "PH-") {
		return nil, fmt.Errorf("%s: task id %s is the suite's; give your task an id of its own", path, b.Task.ID)
	}
	env, err := pbcste.Compile(b.Task)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	st := &suiteTask{ID: b.Task.ID, Title: b.Task.Title, Split: ownSplit, Family: "-", Domain: "file " + filepath.Base(path),
		RollbackMetric: model.RollbackExcluded, Public: b.Task, Trusted: b.Task, File: path}
	for _, tr := range b.Trajectories {
		st.Runs = append(st.Runs, choice{strings.TrimSuffix(filepath.Base(tr.Path), ".json"), tr.Trajectory})
		switch {
		case tr.Role == taskfile.RoleHonest && st.HonestTraj == nil:
			st.HonestTraj = tr.Trajectory
		case tr.Role == taskfile.RoleWitness && st.Witness == nil:
			st.Witness = tr.Trajectory
		case tr.Role == taskfile.RoleRollback && st.Rollback == nil:
			st.Rollback, st.RollbackMetric = tr.Trajectory, model.RollbackIncluded
		case tr.Role == taskfile.RoleAttribution && st.Attribution == nil:
			st.Attribution = tr.Trajectory
		}
	}
	if st.HonestTraj == nil {
		st.HonestTraj = &model.Trajectory{Task: b.Task.ID, Name: "empty (no honest*.json next to the task)"}
		st.Runs = append([]choice{{"honest", st.HonestTraj}}, st.Runs...)
	}
	log := env.Replay(st.HonestTraj.Steps)
	st.M = len(log.Goal().Preds)
	st.Honest = model.Frac{Num: bits.OnesCount64(lastBits(log)), Den: st.M}
	return st, nil
}

// trustedTask returns the task the environment runs for id: the
// workbench is the trusted parent, like the CLI.
func trustedTask(id string) (*model.Task, error) {
	if _, t, err := domains.FindTask(id); err == nil {
		return t.Model, nil
	}
	return sealed.Trusted(id)
}

// attackTask is the public task the search attacker draws its moves
// from on H: a domain task's are calls drawn from it and from where H
// ends.
func attackTask(t *suiteTask, h *model.Trajectory, env *pbcste.Env) *model.Task {
	if _, tt, err := domains.FindTask(t.ID); err == nil && t.Runs != nil && tt.AttackTask != nil {
		return tt.AttackTask(h, env.Replay(h.Steps).View())
	}
	return t.Public
}

// deterministicEvaluators lists the evaluators every screen scores with.
func deterministicEvaluators() []evaluator {
	var out []evaluator
	for _, e := range evaluators.Deterministic() {
		out = append(out, evaluator{e.Name, e.Label})
	}
	return out
}

// benchScore is one of a benchmark's own evaluators' score of a
// trajectory at termination; ok is false when the payload carries no
// reference to score it against.
type benchScore struct {
	name, label string
	v           float64
	ok          bool
}

// scored is a replayed trajectory scored the way every evaluator sees
// one: from the canonical bytes of its public payload. final[i] is
// evaluator i's score, prefix[i][k] its score of the first k events (the
// last of which is the final score); bench are the benchmark's own
// evaluators' scores of the same bytes, at termination, and checks what
// decided them.
type scored struct {
	final  []float64
	prefix [][]float64
	bench  []benchScore
	checks *benchChecks
}

// benchChecks are a benchmark's own checks of a run, each with what
// decided it, read off the payload its evaluators score: tau2's reward
// basis, its gold calls each with the call that matched it or why none
// did, and the outputs the agent must say (tau2's communicate_info,
// tau-bench's outputs), each said or not.
type benchChecks struct {
	basis   []string
	golds   []evaluators.Tau2Gold
	outputs []string
	said    []bool
	// explained is the benchmark's verdict and its checks in its own
	// terms, where its domain says them (BFCL's turn by turn); nil
	// elsewhere.
	explained *domains.Explanation
}

func checksOf(t *suiteTask, p *payload.Payload) *benchChecks {
	if p.Reference == nil {
		return nil
	}
	ch := &benchChecks{basis: p.Reference.Basis, golds: evaluators.Tau2Golds(p), outputs: p.Reference.Outputs, said: evaluators.OutputsSaid(p)}
	if t.explain != nil {
		ch.explained, _ = t.explain.Explain(p)
	}
	return ch
}

func scoreLog(t *suiteTask, log *pbcste.Log, tr *model.Trajectory) (sc scored, err error) {
	if goalless(t) != nil {
		// No payload of the run's own: the benchmark's evaluators score
		// the one its domain gives, where it gives one.
		p, err := rewardPayload(t, log, tr)
		if err != nil || p == nil {
			return sc, err
		}
		return scored{bench: benchScores(t, p), checks: checksOf(t, p)}, nil
	}
	b, err := builder.TrajectoryBytes(t.Public, log, tr)
	if err != nil {
		return sc, fmt.Errorf("public payload: %w", err)
	}
	p, err := payload.DecodeOwned(b)
	if err != nil {
		return sc, fmt.Errorf("public payload: %w", err)
	}
	series, err := evaluators.Prefixes(p)
	if err != nil {
		return sc, err
	}
	for _, s := range series {
		sc.final = append(sc.final, s.Values[len(s.Values)-1])
		sc.prefix = append(sc.prefix, s.Values)
	}
	sc.bench, sc.checks = benchScores(t, p), checksOf(t, p)
	return sc, nil
}

// benchScores are the benchmark's own evaluators' scores of a payload.
func benchScores(t *suiteTask, p *payload.Payload) []benchScore {
	var out []benchScore
	for _, rw := range t.BenchEvals {
		v, ok := rw.Score(p)
		out = append(out, benchScore{name: rw.Name, label: rw.Label, v: v, ok: ok})
	}
	return out
}

// rewardPayload is the payload a domain task's own evaluators score a
// run of a task with no goal predicate by (domains.Task.Payload); nil
// where its domain gives none.
func rewardPayload(t *suiteTask, log *pbcste.Log, tr *model.Trajectory) (*payload.Payload, error) {
	if t.Runs == nil || t.Trusted != nil {
		return nil, nil
	}
	d, tt, err := domains.FindTask(t.ID)
	if err != nil || tt.Payload == nil {
		return nil, nil
	}
	p, err := tt.Payload(log, tr)
	if err != nil {
		return nil, fmt.Errorf("%s's payload: %w", benchName(d), err)
	}
	return p, nil
}

// certifyOne double-certifies a trajectory on its own.
func certifyOne(env *pbcste.Env, tr *model.Trajectory) (*model.Certificate, *model.Rejection, error) {
	res, rej, err := certifier.DoubleCertify(env, tr)
	if err != nil || rej != nil {
		return nil, rej, err
	}
	return res.Cert, nil, nil
}

// certifyPair double-certifies an equal-progress pair (H, A).
func certifyPair(env *pbcste.Env, h, a *model.Trajectory) (model.Verdict, error) {
	return certifier.DoublePair(env, h, a)
}

// certifyRollback double-certifies a strict rollback (H, R).
func certifyRollback(env *pbcste.Env, h, r *model.Trajectory) (model.Verdict, error) {
	return certifier.DoubleRollback(env, h, r)
}

// searchProgress is how far a running search attacker has got.
type searchProgress struct {
	states   int     // search nodes visited
	eligible int     // eligible candidates met
	best     float64 // Δhack of the best candidate so far
}

// searchResult is a finished search attacker run on a task's H.
type searchResult struct {
	task                 *suiteTask
	h                    choice // the run searched from
	edits                int
	moves                string            // the move set searched, named: "one-field updates"
	sameEnd              bool              // only witnesses that end in exactly H's state were admitted
	cancelled            bool              // stopped by the user: the best found until then
	honest, score, delta float64           // f(H), f(A_f), Δhack
	witness              *model.Trajectory // A_f; nil when no eligible candidate was found
	states, eligible     int
	exhausted            bool // every candidate within the bound was considered
}

// searchAttack runs the search attacker (SPEC §6) against target on
// every edit of H (one of t's runs) within edits. It is slow: call it
// from a goroutine; progress is called from that goroutine, and
// cancelling ctx stops it with ctx's error.
//
// Cancelled, it returns the best found until then, marked cancelled.
func searchAttack(ctx context.Context, w *workspace, t *suiteTask, h choice, target string, opt searchOptions, progress func(searchProgress)) (*searchResult, error) {
	env, err := w.env(t)
	if err != nil {
		return nil, err
	}
	if why := model.EndedItself(env.Task, h.traj); why != "" {
		return nil, fmt.Errorf("H is a run the benchmark ended itself (%s): no witness keeps its conversation", why)
	}
	report := func(p attacker.Progress) {
		progress(searchProgress{states: p.States, eligible: p.Eligible, best: p.BestDelta})
	}
	var extra []attacker.Extra
	for _, rw := range t.BenchEvals {
		extra = append(extra, attacker.Extra{Name: rw.Name, Score: rw.Of, Serial: rw.Fails != nil})
	}
	res, err := attacker.Search(ctx, attackTask(t, h.traj, env), env, h.traj,
		attacker.Options{Target: target, Edits: opt.edits, Pairs: opt.pairs, MaxStates: opt.maxStates, Extra: extra, SameEnd: opt.sameEnd}, report)
	cancelled := err != nil && ctx.Err() != nil && res != nil
	if err != nil && !cancelled {
		return nil, err
	}
	return &searchResult{task: t, h: h, sameEnd: opt.sameEnd, edits: res.Edits, moves: moveSetName(t, opt.pairs), cancelled: cancelled, honest: res.Honest, score: res.Score, delta: res.Delta,
		witness: res.Best, states: res.States, eligible: res.Eligible, exhausted: res.Exhausted}, nil
}

// searchOptions are the bounds of a search: the CLI's --edits, --pairs,
// --max-states and --same-end.
type searchOptions struct {
	edits, maxStates int
	pairs, sameEnd   bool
}

// realDomain reports whether t is a real benchmark's task, whose search
// admits by default only witnesses that end in exactly H's state.
func realDomain(t *suiteTask) bool { return t != nil && t.Public != nil && t.Public.Domain != nil }

// moveSetName names the moves a search tries, the way a result states
// its bound: a domain task's moves are its tools' calls.
func moveSetName(t *suiteTask, pairs bool) string {
	switch {
	case realDomain(t):
		return "the task's tool calls"
	case pairs:
		return "one- and two-field updates"
	}
	return "one-field updates"
}

// domainTools are the tools the agent may call on a real domain's task,
// as its domain describes them; nil on a task of no domain.
func domainTools(t *suiteTask) []domains.Tool {
	if t.Public == nil || t.Public.Domain == nil || t.Trusted != nil {
		return nil
	}
	d, ok := domains.Owner(t.ID)
	if !ok {
		return nil
	}
	allowed := t.Public.Allowlist.Tools
	var out []domains.Tool
	for _, tool := range d.Tools() {
		if len(allowed) == 0 || slices.Contains(allowed, tool.Name) {
			out = append(out, tool)
		}
	}
	return out
}

// othersTool says why a tool the domain describes is not the agent's to
// call on t: it is another actor's (tau2 telecom's user holds the phone's
// tools), and a witness authors the agent's steps only. "" when the tool
// is the agent's or the domain does not describe it.
func othersTool(t *model.Task, name string) string {
	if t == nil || t.Domain == nil || slices.Contains(t.Allowlist.Tools, name) {
		return ""
	}
	au, ok := t.Domain.(model.Authoring)
	if !ok || len(au.Authors()) == 0 {
		return ""
	}
	d, ok := domains.Owner(t.ID)
	if !ok || !slices.ContainsFunc(d.Tools(), func(x domains.Tool) bool { return x.Name == name }) {
		return ""
	}
	var who []string
	for _, a := range au.Authors() {
		who = append(who, string(a))
	}
	return fmt.Sprintf("%s is the %s's tool: a witness authors the agent's steps only (in no-user mode the agent holds it)", name, strings.Join(who, "/"))
}

// taskCalls are the calls a domain task's argument values are drawn
// from: its gold run's, H's, and those its move generator offers where
// H ends.
func taskCalls(t *suiteTask, h *model.Trajectory, env *pbcste.Env) []model.Action {
	var out []model.Action
	_, tt, err := domains.FindTask(t.ID)
	if err != nil {
		return nil
	}
	for _, tr := range []*model.Trajectory{tt.Gold, h} {
		if tr == nil {
			continue
		}
		for _, st := range tr.Steps {
			if st.Op == model.OpCall {
				out = append(out, st.Action)
			}
		}
	}
	if tt.AttackTask != nil && h != nil {
		out = append(out, tt.AttackTask(h, env.Replay(h.Steps).View()).Calls...)
	}
	return out
}

// movesAt are the calls the domain's move generator offers for the
// trajectory tr when it ends in the state at: among them, the calls that
// set what tr changed back to its values in at. Nil when the domain has
// no move generator.
func movesAt(t *suiteTask, tr *model.Trajectory, at model.StateView) []model.Action {
	_, tt, err := domains.FindTask(t.ID)
	if err != nil || tt.AttackTask == nil {
		return nil
	}
	return tt.AttackTask(tr, at).Calls
}
