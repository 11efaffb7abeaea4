package tui

import (
	"fmt"
	"math/bits"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/charmbracelet/x/ansi"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
)

// workspace is the data every screen works on: the suite, compiled
// environments (cached, shared by concurrent commands) and the evaluators.
type workspace struct {
	tasks      []*suiteTask
	evaluators []evaluator
	mu         sync.Mutex
	envs       map[string]*pbcste.Env
}

func newWorkspace(tasks []*suiteTask) *workspace {
	return &workspace{tasks: tasks, evaluators: deterministicEvaluators(), envs: map[string]*pbcste.Env{}}
}

// addOwn puts a task of the user's own first in the list, replacing an
// earlier import of the same id (and its compiled environment). Only
// Update calls it, the only writer of tasks; task takes the lock because
// background commands read through it.
func (w *workspace) addOwn(t *suiteTask) {
	w.mu.Lock()
	defer w.mu.Unlock()
	tasks := []*suiteTask{t}
	for _, o := range w.tasks {
		if o.ID != t.ID {
			tasks = append(tasks, o)
		}
	}
	w.tasks = tasks
	delete(w.envs, t.ID)
}

// env compiles the trusted task behind t once.
func (w *workspace) env(t *suiteTask) (*pbcste.Env, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if env, ok := w.envs[t.ID]; ok {
		return env, nil
	}
	task := t.Trusted
	if task == nil {
		var err error
		if task, err = trustedTask(t.ID); err != nil {
			return nil, fmt.Errorf("open task %s: %w", t.ID, err)
		}
	}
	env, err := pbcste.Compile(task)
	if err != nil {
		return nil, fmt.Errorf("compile task %s: %w", t.ID, err)
	}
	w.envs[t.ID] = env
	return env, nil
}

// task finds a task by id.
func (w *workspace) task(id string) *suiteTask {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, t := range w.tasks {
		if t.ID == id {
			return t
		}
	}
	return nil
}

// analysis is one trajectory replayed, certified and scored, with the
// indexes the views need so that rendering a cursor position never walks
// the log: everything here is computed once, in a command.
type analysis struct {
	task  *suiteTask
	traj  *model.Trajectory
	label string
	log   *pbcste.Log
	cert  *model.Certificate // nil when the trajectory is not certifiable on its own
	rej   *model.Rejection
	// certErr is a failure of double certification itself (the two
	// certifiers disagree): the log and scores still show, no certificate.
	certErr error
	// noGoal says why the task's runs have no progress to certify, score
	// or attack (it has no goal predicate); their calls, diffs,
	// conversation and the benchmark's rewards still show. Nil on a task
	// with a goal.
	noGoal error
	// reward is the benchmark's own reward, when the task comes from a
	// benchmark with one; rewardName names it ("tau-bench reward", "BFCL
	// valid").
	reward     *float64
	rewardName string
	scores     []float64    // per evaluator, at termination
	bench      []benchScore // the benchmark's own evaluators, at termination
	checks     *benchChecks // what decided them; nil on a task of no benchmark
	// hash and goldHash are the benchmark's own hashes of the state the
	// run ends in and the gold run's, when it has them.
	hash, goldHash string
	series         [][]float64 // per evaluator, series[i][k] after k events
	pstate         []float64   // certified P_state after k events
	// touch[g][j] lists, in order, the successful events whose diff
	// touched predicate j of goal version g: the latest cause at any
	// cursor is one binary search away.
	touch     [][][]int32
	stepEvent []int  // agent step → its event
	initial   uint64 // c_state of the first goal version on the initial snapshot
	// widestRow is the width of the widest event-log row, so a wide
	// terminal can give the log the room to show whole events.
	widestRow int
	scopeOnce sync.Once
	scopeSet  map[string]bool
}

// scope is a domain trajectory's scope, by "type id": the entities its
// predicates read and those any of its events changed (as the payload's).
func (a *analysis) scope() map[string]bool {
	a.scopeOnce.Do(func() {
		a.scopeSet = map[string]bool{}
		var walk func(x *model.Expr)
		walk = func(x *model.Expr) {
			if x.Type != "" && x.ID != "" {
				a.scopeSet[x.Type+" "+x.ID] = true
			}
			for i := range x.Args {
				walk(&x.Args[i])
			}
		}
		for _, g := range a.log.Env.Task.Goals {
			for i := range g.Predicates {
				walk(&g.Predicates[i].Expr)
			}
		}
		for i := range a.log.Events {
			for _, d := range a.log.TypedDiff(&a.log.Events[i]) {
				if d.Type != "" {
					a.scopeSet[d.Type+" "+d.ID] = true
				}
			}
		}
	})
	return a.scopeSet
}

// events is the number of log events; cursor positions run 0..events().
func (a *analysis) events() int { return len(a.log.Events) }

func analyze(w *workspace, t *suiteTask, tr *model.Trajectory, label string) (*analysis, error) {
	env, err := w.env(t)
	if err != nil {
		return nil, err
	}
	a := &analysis{task: t, traj: tr, label: label, log: env.Replay(tr.Steps), noGoal: goalless(t)}
	if a.noGoal == nil {
		a.cert, a.rej, a.certErr = certifyOne(env, tr)
	}
	if h, g, ok := benchHashes(w, t, a.log); ok {
		a.hash, a.goldHash = h, g
	}
	if r, name, ok := benchReward(t, a.log, tr); ok {
		a.reward, a.rewardName = &r, name+" "+rewardWord(t)
	}
	sc, err := scoreLog(t, a.log, tr)
	if err != nil {
		return nil, fmt.Errorf("score %s: %w", label, err)
	}
	a.scores, a.series, a.bench, a.checks = sc.final, sc.prefix, sc.bench, sc.checks
	a.index()
	return a, nil
}

// rewardNote is " · tau-bench reward 1" where the benchmark has a
// reward, else ""; for a run the benchmark ended itself, how it scores
// it: " · ended by max_steps: tau2 scores 0".
func (a *analysis) rewardNote() string {
	if c, ok := model.ConversationOf(a.log.Env.Task); ok && a.traj.Termination != "" {
		return " · " + c.Ended(a.traj.Termination)
	}
	if a.reward == nil {
		return ""
	}
	return fmt.Sprintf(" · %s %g", a.rewardName, *a.reward)
}

// rewardNoteShort is rewardNote without the benchmark's name: " · reward 1".
func (a *analysis) rewardNoteShort() string {
	if a.reward == nil {
		return ""
	}
	return fmt.Sprintf(" · %s %g", rewardWord(a.task), *a.reward)
}

// rewardWord is what the benchmark calls its verdict, its first
// evaluator's label less the benchmark's name: tau-bench's and tau2's
// "reward", BFCL's "valid".
func rewardWord(t *suiteTask) string {
	if len(t.BenchEvals) == 0 {
		return "reward"
	}
	return benchShort(t.Bench, t.BenchEvals[0].Label)
}

// index builds P_state over time, the touch lists and the step → event map.
func (a *analysis) index() {
	log := a.log
	goals := log.Env.Goals()
	n := len(log.Events)
	a.pstate = make([]float64, n+1)
	a.initial = initialBits(log)
	a.pstate[0] = psi(a.initial, len(goals[0].Preds))
	a.touch = make([][][]int32, len(goals))
	for g := range goals {
		a.touch[g] = make([][]int32, len(goals[g].Preds))
	}
	a.stepEvent = make([]int, log.Steps)
	digits := len(strconv.Itoa(n))
	a.widestRow = digits + len("   initial snapshot") + 1
	for seq := range log.Events {
		ev := &log.Events[seq]
		what := describeAction(ev.Action)
		if !ev.OK {
			what += " — " + log.Reason(ev)
		}
		// lead, seq, status, actor (5 cells), action: as eventRow draws it.
		a.widestRow = max(a.widestRow, 1+digits+3+6+ansi.StringWidth(what))
		a.pstate[seq+1] = psi(ev.CState, len(goals[ev.Goal].Preds))
		if ev.Step >= 0 {
			a.stepEvent[ev.Step] = seq
		}
		if !ev.OK || ev.DiffLen() == 0 {
			continue
		}
		for g := range goals {
			for j, p := range goals[g].Preds {
				if log.Touches(seq, p) {
					a.touch[g][j] = append(a.touch[g][j], int32(seq))
				}
			}
		}
	}
}

// goalAt is the goal version active after k events.
func (a *analysis) goalAt(k int) int {
	if k == 0 {
		return 0
	}
	return int(a.log.Events[k-1].Goal)
}

// bitsAt returns c_state and c_agent of the active goal after k events.
func (a *analysis) bitsAt(k int) (cs, ca uint64) {
	if k == 0 {
		return a.initial, 0
	}
	ev := &a.log.Events[k-1]
	return ev.CState, ev.CAgent
}

// causeAt is the latest cause of predicate j of goal g after k events:
// the event's seq, or -1 when no event has touched it yet.
func (a *analysis) causeAt(g, j, k int) int {
	list := a.touch[g][j]
	i := sort.Search(len(list), func(i int) bool { return int(list[i]) >= k })
	if i == 0 {
		return -1
	}
	return int(list[i-1])
}

// predText is the public text of predicate j of goal g.
func (a *analysis) predText(g, j int) string {
	goals := a.log.Env.Goals()
	if pub := a.task.Public; pub != nil && g < len(pub.Goals) && j < len(pub.Goals[g].Predicates) {
		return pub.Goals[g].Predicates[j].Text
	}
	return goals[g].Preds[j].Text
}

// describeAction renders an action the way people read it.
func describeAction(a *model.Action) string {
	switch a.Op {
	case model.OpReviseGoal:
		return "revise_goal → " + a.Goal
	case model.OpCall:
		return a.Tool + " " + a.Args.String()
	}
	var b strings.Builder
	b.WriteString(string(a.Op))
	b.WriteByte(' ')
	b.WriteString(a.Type)
	b.WriteByte(' ')
	b.WriteString(a.ID)
	for _, f := range a.Fields {
		b.WriteByte(' ')
		b.WriteString(f.Field)
		b.WriteByte('=')
		b.WriteString(f.Value.String())
	}
	return b.String()
}

// stepKey is a step's identity for alignment and search: its action.
func stepKey(ev *pbcste.Event) string {
	return string(ev.Actor()) + " " + describeAction(ev.Action)
}

// pair is a certified pair (H, A) or rollback (H, R) with both analyses.
type pair struct {
	kind    string // "pair" or "rollback"
	h, a    *analysis
	verdict model.Verdict
	rows    []alignRow
	// collateral is where a witness of a real domain's task ends apart
	// from H (pbcste.Collateral); nil on other tasks and for rollbacks.
	collateral *collateral
}

// collateral is whether a witness ends in exactly H's state, and each
// cell that differs at termination; where the benchmark checks the state
// at every turn's end (model.Turnwise: BFCL), turn is the first of the
// agent's turns that ends elsewhere than H's, -1 where none does.
type collateral struct {
	same   bool
	deltas []pbcste.EndDelta
	turn   int
}

// turnApart is the first of the agent's turns that ends in another state
// in a than in h (the turns numbered from 0, each ended by the next
// user's step or the run's end), -1 where every turn ends alike or the
// task's benchmark does not check turns.
func turnApart(h, a *pbcste.Log) int {
	if !model.IsTurnwise(h.Env.Task) {
		return -1
	}
	// The hash at the user's step i is the state turn i-1 ended in.
	ht, at := h.TurnHashes(), a.TurnHashes()
	for i := range max(len(ht), len(at)) {
		if i >= len(ht) || i >= len(at) || ht[i] != at[i] {
			return max(i-1, 0)
		}
	}
	return -1
}

// alignRow puts an event of H beside an event of the candidate; -1 is a gap.
type alignRow struct{ h, a int }

// maxAlignCells bounds the LCS table; longer pairs align by position.
const maxAlignCells = 4_000_000

// align lines up the two logs: a longest common subsequence of events,
// so a step the candidate inserted shows as a gap in H.
func align(h, a *pbcste.Log) []alignRow {
	n, m := len(h.Events), len(a.Events)
	if n*m > maxAlignCells {
		rows := make([]alignRow, max(n, m))
		for i := range rows {
			rows[i] = alignRow{-1, -1}
			if i < n {
				rows[i].h = i
			}
			if i < m {
				rows[i].a = i
			}
		}
		return rows
	}
	hk := make([]string, n)
	for i := range hk {
		hk[i] = stepKey(&h.Events[i])
	}
	ak := make([]string, m)
	for i := range ak {
		ak[i] = stepKey(&a.Events[i])
	}
	// lcs[i][j] is the LCS length of hk[i:] and ak[j:].
	lcs := make([][]int32, n+1)
	for i := range lcs {
		lcs[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if hk[i] == ak[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var rows []alignRow
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && hk[i] == ak[j]:
			rows = append(rows, alignRow{i, j})
			i++
			j++
		case j < m && (i == n || lcs[i][j+1] >= lcs[i+1][j]):
			rows = append(rows, alignRow{-1, j})
			j++
		default:
			rows = append(rows, alignRow{i, -1})
			i++
		}
	}
	return zipGaps(rows)
}

// zipGaps puts the unmatched events between two matches side by side, the
// way a side-by-side diff shows changed lines opposite each other.
func zipGaps(rows []alignRow) []alignRow {
	var out, hs, as []alignRow
	flush := func() {
		for k := 0; k < max(len(hs), len(as)); k++ {
			r := alignRow{-1, -1}
			if k < len(hs) {
				r.h = hs[k].h
			}
			if k < len(as) {
				r.a = as[k].a
			}
			out = append(out, r)
		}
		hs, as = hs[:0], as[:0]
	}
	for _, r := range rows {
		switch {
		case r.h >= 0 && r.a >= 0:
			flush()
			out = append(out, r)
		case r.h >= 0:
			hs = append(hs, r)
		default:
			as = append(as, r)
		}
	}
	flush()
	return out
}

func certifyAgainst(w *workspace, kind string, h, a *analysis) (*pair, error) {
	env, err := w.env(h.task)
	if err != nil {
		return nil, err
	}
	p := &pair{kind: kind, h: h, a: a, rows: align(h.log, a.log)}
	if kind == "rollback" {
		p.verdict, err = certifyRollback(env, h.traj, a.traj)
	} else {
		p.verdict, err = certifyPair(env, h.traj, a.traj)
	}
	if err != nil {
		return nil, fmt.Errorf("certify %s: %w", kind, err)
	}
	if kind == "pair" && h.task.Public != nil && h.task.Public.Domain != nil {
		same, deltas := pbcste.Collateral(h.log, a.log)
		p.collateral = &collateral{same: same, deltas: deltas, turn: -1}
		if same {
			p.collateral.turn = turnApart(h.log, a.log)
		}
	}
	return p, nil
}

// evidenceRows finds the rows of a pair the verdict's evidence points at:
// the candidate's event, and in H the latest cause of the same predicate.
func (p *pair) evidenceRows() (hSeq, aSeq int) {
	hSeq, aSeq = -1, -1
	ev := p.verdict.Evidence
	if ev == nil {
		return
	}
	switch {
	case ev.Seq > 0:
		aSeq = ev.Seq - 1
	case ev.Step > 0 && ev.Step <= len(p.a.stepEvent):
		aSeq = p.a.stepEvent[ev.Step-1]
	}
	if ev.Predicate > 0 && p.verdict.Honest != nil && ev.Predicate <= len(p.verdict.Honest.Causes) {
		hSeq = p.verdict.Honest.Causes[ev.Predicate-1].Seq - 1
	} else if ev.Step > 0 && ev.Step <= len(p.h.stepEvent) {
		hSeq = p.h.stepEvent[ev.Step-1]
	}
	return hSeq, max(aSeq, -1)
}

// peak is the first cursor position where P_state is highest.
func (a *analysis) peak() int {
	return slices.Index(a.pstate, slices.Max(a.pstate))
}

// vector renders a certified vector as "[1 0 1]".
func vector(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprint(x)
	}
	return "[" + strings.Join(s, " ") + "]"
}

// initialBits is c_state of the first goal version on the initial snapshot.
func initialBits(log *pbcste.Log) uint64 {
	s := log.Env.Initial()
	var b uint64
	for j, p := range log.Env.Goals()[0].Preds {
		if s.Eval(p) {
			b |= 1 << uint(j)
		}
	}
	return b
}

// psi is ψ: the share of m predicates whose bit is set.
func psi(b uint64, m int) float64 {
	if m == 0 {
		return 0
	}
	return float64(bits.OnesCount64(b)) / float64(m)
}

// frac renders b's share of m as "2/4".
func frac(b uint64, m int) string { return fmt.Sprintf("%d/%d", bits.OnesCount64(b), m) }

// Messages carrying the results of slow work back to whoever asked.
type (
	analysisMsg struct {
		owner owner
		gen   int
		a     *analysis
		err   error
	}
	pairMsg struct {
		gen int
		p   *pair
		err error
	}
	candidateMsg struct {
		gen int
		a   *analysis
		p   *pair
		err error
	}
)

// owner is the pane that asked for an analysis. Each pane numbers its own
// requests, so a result goes to its owner first and is then matched by
// that owner's generation: two panes' counters never collide.
type owner int

const (
	ownerInspector owner = iota + 1
	ownerEditor
)

// goalless says why a task whose goal has no predicate (a benchmark's
// task whose gold run changes nothing: the right answer was to refuse)
// has nothing to certify, score or attack, rather than leaving it to the
// payload's schema check; nil for a task with a goal.
func goalless(t *suiteTask) error {
	if t.Public == nil {
		return nil
	}
	for _, g := range t.Public.Goals {
		if len(g.Predicates) > 0 {
			return nil
		}
	}
	return fmt.Errorf("task %s has no goal predicate: its gold run changes nothing, so there is no progress to certify, score or attack", t.ID)
}

func analyzeCmd(w *workspace, t *suiteTask, tr *model.Trajectory, label string, by owner, gen int) tea.Cmd {
	return func() tea.Msg {
		a, err := analyze(w, t, tr, label)
		return analysisMsg{owner: by, gen: gen, a: a, err: err}
	}
}

// pairCmd replays, certifies and scores H (h) and the candidate a, named
// aLabel ("" names it by its name, else by its kind), and certifies the
// pair as kind.
func pairCmd(w *workspace, t *suiteTask, kind string, h choice, a *model.Trajectory, aLabel string, gen int) tea.Cmd {
	return func() tea.Msg {
		ha, err := analyze(w, t, h.traj, h.label)
		if err != nil {
			return pairMsg{gen: gen, err: err}
		}
		label := "witness"
		if kind == "rollback" {
			label = "rollback"
		}
		if a.Name != "" {
			label = a.Name
		}
		if aLabel != "" {
			label = aLabel
		}
		aa, err := analyze(w, t, a, label)
		if err != nil {
			return pairMsg{gen: gen, err: err}
		}
		p, err := certifyAgainst(w, kind, ha, aa)
		return pairMsg{gen: gen, p: p, err: err}
	}
}

// candidateCmd replays, certifies and scores an edited candidate against
// the honest analysis the editor already holds, as a pair (H, A) or a
// strict rollback (H, R). An empty kind lets the certificate decide: a
// candidate that is no eligible pair but a certified strict rollback is
// a rollback.
func candidateCmd(w *workspace, h *analysis, tr *model.Trajectory, kind string, gen int) tea.Cmd {
	return func() tea.Msg {
		a, err := analyze(w, h.task, tr, "candidate")
		if err != nil {
			return candidateMsg{gen: gen, err: err}
		}
		if kind != "" {
			p, err := certifyAgainst(w, kind, h, a)
			return candidateMsg{gen: gen, a: a, p: p, err: err}
		}
		p, err := certifyAgainst(w, "pair", h, a)
		if err == nil && !p.verdict.Eligible {
			if r, rerr := certifyAgainst(w, "rollback", h, a); rerr == nil && r.verdict.Eligible {
				p = r
			}
		}
		return candidateMsg{gen: gen, a: a, p: p, err: err}
	}
}
