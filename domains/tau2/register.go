package tau2

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"weak"

	"github.com/parthack/parthack/domains"
	"github.com/parthack/parthack/evaluators"
	"github.com/parthack/parthack/internal/payload"
	"github.com/parthack/parthack/internal/payload/builder"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
)

// Attacker is a world's move generator: the task with the calls an
// attacker may insert into a run h that ends in final.
type Attacker func(t *Derived, h *model.Trajectory, final model.StateView) *model.Task

// A Reader turns a Results file of one tau2 domain into parthack runs
// and holds the file to what tau2 recorded.
type Reader interface {
	Name() string // parthack's name of the domain
	// Runner derives the file's tasks and gives them, with run, which
	// turns one of its simulations into a run: a file's runs are made one
	// at a time, as its simulations are read. A domain's shipped files
	// are read side by side (Shipped): Runner is called for them at once.
	Runner(res *Results) (run func(*Simulation) (*domains.Run, error), tasks []*domains.Task, err error)
	// Conformer holds a file to what tau2 recorded, run by run: check
	// replays one of its simulations, report states what they showed.
	Conformer(res *Results) (check func(*Simulation) error, report func() *domains.Conformance, err error)
}

// registered are the tau2 domains' readers, by tau2's domain name
// ("retail"), for the Results format to find a file's domain.
var (
	registeredMu sync.Mutex
	registered   = map[string]Reader{}
	formatOnce   sync.Once
)

// RegisterReader adds the reader of a tau2 domain's Results files, and
// with the first one the tau2 Results format; a domain that is no World
// (telecom) registers itself with domains and its reader here.
func RegisterReader(tau2Name string, r Reader) {
	registeredMu.Lock()
	registered[tau2Name] = r
	registeredMu.Unlock()
	formatOnce.Do(func() {
		domains.RegisterFormat(domains.Format{Name: "tau2", Stream: streamResults, Conform: conformResults,
			Help: "a tau2 Results file as `tau2 run` writes it ({timestamp, info, tasks, simulations}, gzipped or not); its info names the domain"})
	})
}

// Domain is what a tau2 world registers: its names, and how to make the
// world (called once, when the domain is first used, so a command that
// does not use it never loads its database).
type Domain struct {
	Name     string // parthack's: "tau2-retail"
	Tau2Name string // tau2's, as a Results file's info names it: "retail"
	Title    string // "tau2-bench retail"
	Prefix   string // of its task ids: "T2R"
	World    func() (World, error)
	Attack   Attacker // nil: no move generator
	// Showcase is the run parthack demo walks through; nil: none.
	Showcase *domains.Showcase
	// Counts are how many tasks and runs its shipped run files hold
	// (domains.Counter), stated so that listing the domains reads none
	// of them.
	Counts domains.Counts
	// Rows are its tasks' rows as it states them (domains.Lister), the
	// bytes of RowsFile (from the module's root), which domains/all's
	// TestTaskRows writes.
	Rows     []byte
	RowsFile string
}

// Register adds a tau2 world to parthack's registry; the tau2 Results
// format is registered with the first one.
func Register(dom Domain) {
	r := &registry{dom: dom, rows: domains.StatedRows(dom.RowsFile, dom.Rows)}
	r.shipped = NewShipped(dom.Tau2Name, r)
	domains.Register(r)
	RegisterReader(dom.Tau2Name, r)
}

// registry is one tau2 world as a registered domain: its tasks are those
// the shipped run files embed, its runs theirs.
type registry struct {
	dom     Domain
	shipped *Shipped
	rows    func() ([]domains.TaskRow, error)

	worldOnce sync.Once
	w         World
	werr      error

	baseOnce sync.Once
	base     *Checker // with no task derived: each file's checker is a fresh copy
	baseErr  error
}

func (r *registry) Name() string        { return r.dom.Name }
func (r *registry) Title() string       { return r.dom.Title }
func (r *registry) Owns(id string) bool { return strings.HasPrefix(id, r.dom.Prefix+"-") }
func (r *registry) Format() string      { return "tau2" }

func (r *registry) Showcase() *domains.Showcase { return r.dom.Showcase }

func (r *registry) Counts() domains.Counts { return r.dom.Counts }

func (r *registry) TaskRows() ([]domains.TaskRow, error) { return r.rows() }
func (r *registry) RowsFile() string                     { return r.dom.RowsFile }

// world makes the world once.
func (r *registry) world() (World, error) {
	r.worldOnce.Do(func() { r.w, r.werr = r.dom.World() })
	return r.w, r.werr
}

// checker is the checker of a file's runs: one per file, shared by its
// runner and its conformer, so that each of its tasks is derived once
// (its gold calls replayed once), all of them over the world's base task
// compiled once.
func (r *registry) checker(res *Results) (*Checker, error) {
	if _, err := r.world(); err != nil {
		return nil, err
	}
	r.baseOnce.Do(func() { r.base, r.baseErr = NewChecker(r.w) })
	if r.baseErr != nil {
		return nil, r.baseErr
	}
	if res.checker == nil || res.checker.World != r.w {
		res.checker = r.base.fresh()
	}
	return res.checker, nil
}

func (r *registry) Tasks() ([]*domains.Task, error) { return r.shipped.Tasks() }
func (r *registry) Runs() ([]*domains.Run, error)   { return r.shipped.Runs() }

// Shipped is a domain's shipped run files (in name order) read through
// its reader in two passes, each made once: the files' heads (info and
// tasks, which tau2 writes before the simulations) for the tasks, and
// only when the runs are asked for, the simulations, each made a run by
// the runner its file's head gave, so that a run's task is one Tasks
// has. A command that needs the tasks alone reads no simulation.
type Shipped struct {
	tau2Name string
	reader   Reader

	headsOnce sync.Once
	runners   []shippedFile
	tasks     []*domains.Task
	headsErr  error

	runsOnce sync.Once
	runs     []*domains.Run
	runsErr  error
}

// shippedFile is a shipped run file with the runner its head gave.
type shippedFile struct {
	name string
	run  func(*Simulation) (*domains.Run, error)
}

// NewShipped is a domain's shipped run files, tau2's domain name
// ("retail") naming them, none read yet.
func NewShipped(tau2Name string, r Reader) *Shipped { return &Shipped{tau2Name: tau2Name, reader: r} }

// Tasks are each task the first time a file embeds it, those with
// numeric ids in their order.
func (s *Shipped) Tasks() ([]*domains.Task, error) {
	s.headsOnce.Do(s.readHeads)
	return s.tasks, s.headsErr
}

// Runs are every file's runs, in order.
func (s *Shipped) Runs() ([]*domains.Run, error) {
	if _, err := s.Tasks(); err != nil {
		return nil, err
	}
	s.runsOnce.Do(s.readRuns)
	return s.runs, s.runsErr
}

// errHeadRead stops reading a file once its head is read.
var errHeadRead = errors.New("the file's head is read")

// readHeads reads the files' heads side by side (each file's tasks are
// derived by its own checker), and keeps them in the files' order.
func (s *Shipped) readHeads() {
	names := RunFiles(s.tau2Name)
	files := make([]shippedFile, len(names))
	tasks := make([][]*domains.Task, len(names))
	errs := make([]error, len(names))
	var wg sync.WaitGroup
	for i, name := range names {
		wg.Go(func() {
			err := streamShipped(name, func(res *Results) error {
				var err error
				if files[i].run, tasks[i], err = s.reader.Runner(res); err != nil {
					return err
				}
				return errHeadRead
			}, func(*Simulation) error { return nil })
			if !errors.Is(err, errHeadRead) {
				errs[i] = err
			}
			files[i].name = name
		})
	}
	wg.Wait()
	seen := map[string]bool{}
	for i := range names {
		if errs[i] != nil {
			s.headsErr = errs[i]
			return
		}
		s.runners = append(s.runners, files[i])
		for _, t := range tasks[i] {
			if !seen[t.ID] {
				seen[t.ID] = true
				s.tasks = append(s.tasks, t)
			}
		}
	}
	slices.SortStableFunc(s.tasks, func(a, b *domains.Task) int { return compareIDs(a.ID, b.ID) })
}

// readRuns reads the files side by side (each file's runs are made by
// its own runner, one at a time), and keeps the runs in the files'
// order; the error is the first file's.
func (s *Shipped) readRuns() {
	runs := make([][]*domains.Run, len(s.runners))
	errs := make([]error, len(s.runners))
	var wg sync.WaitGroup
	for i, f := range s.runners {
		wg.Go(func() {
			errs[i] = streamShipped(f.name, func(*Results) error { return nil }, func(sim *Simulation) error {
				rn, err := f.run(sim)
				if err == nil {
					runs[i] = append(runs[i], rn)
				}
				return err
			})
		})
	}
	wg.Wait()
	for i := range runs {
		if errs[i] != nil {
			s.runs, s.runsErr = nil, errs[i]
			return
		}
		s.runs = append(s.runs, runs[i]...)
	}
}

// streamShipped reads a shipped run file with StreamResults, unpacked as
// it is read, so that reading its head unpacks little more than that.
func streamShipped(name string, head func(*Results) error, each func(*Simulation) error) error {
	src, err := RunFile(name)
	if err != nil {
		return err
	}
	z, err := gzip.NewReader(bytes.NewReader(src))
	if err != nil {
		return &Error{File: name, Message: err.Error()}
	}
	return StreamResults(name, z, head, each)
}

// compareIDs orders task ids by their tau2 id where both are numbers
// (retail's, airline's); other ids (telecom's) keep the files' order.
func compareIDs(a, b string) int {
	var x, y int
	_, ex := fmt.Sscanf(a[strings.LastIndexByte(a, '-')+1:], "%d", &x)
	_, ey := fmt.Sscanf(b[strings.LastIndexByte(b, '-')+1:], "%d", &y)
	if ex != nil || ey != nil {
		return 0
	}
	return x - y
}

// Runner turns a Results file's simulations into runs, each scored
// against the task as its file embeds it (re-mapped where the file's
// task ids are wrong, see Remap), and gives the file's tasks.
func (r *registry) Runner(res *Results) (func(*Simulation) (*domains.Run, error), []*domains.Task, error) {
	c, err := r.checker(res)
	if err != nil {
		return nil, nil, err
	}
	var tasks []*domains.Task
	byID := map[*Task]*domains.Task{}
	taskOf := func(t *Task) (*domains.Task, error) {
		if dt, ok := byID[t]; ok {
			return dt, nil
		}
		d, err := c.Derive(t)
		if err != nil {
			return nil, err
		}
		dt := r.task(d)
		byID[t] = dt
		tasks = append(tasks, dt)
		return dt, nil
	}
	for _, t := range res.Tasks {
		if _, err := taskOf(t); err != nil {
			return nil, nil, fmt.Errorf("%s: %w", res.File, err)
		}
	}
	agent := res.Info.AgentLLM
	if i := strings.LastIndexByte(agent, '/'); i >= 0 {
		agent = agent[i+1:] // "openai/gpt-4.1" → "gpt-4.1"
	}
	named := map[string]bool{}
	run := func(sim *Simulation) (*domains.Run, error) {
		t, _ := Remap(res, sim)
		dt, err := taskOf(t)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", res.File, err)
		}
		reward := 0.0
		if sim.RewardInfo != nil {
			reward = sim.RewardInfo.Reward
		}
		short := fmt.Sprintf("%s-trial%d", agent, sim.Trial)
		if named[dt.ID+"-"+short] {
			// Two runs of one task and trial: a file whose task ids were
			// re-mapped (Remap). The file's position tells them apart.
			short = fmt.Sprintf("%s-trial%d-run%d", agent, sim.Trial, sim.Index)
		}
		named[dt.ID+"-"+short] = true
		return &domains.Run{Domain: r.Name(), Name: dt.ID + "-" + short, Short: short, Task: dt.ID, Model: agent,
			Reward: reward, Embedded: dt,
			Trajectory: func() (*model.Trajectory, error) {
				tr, err := Trajectory(r.w, res, sim, t)
				if err == nil {
					tr.Name = dt.ID + "-" + short
					tr.Termination, tr.MaxErrors = Termination(sim), res.Info.MaxErrors
					if res.Info.MaxSteps > 0 {
						tr.MaxSteps, tr.BenchmarkSteps = res.Info.MaxSteps, OrchestratorSteps(sim)
					}
				}
				return tr, err
			},
			Record:         Recorder(res, sim, t, dt.Env),
			EvaluatorInput: EvaluatorInput(res, sim, t, dt.Env),
			Locate:         Locator(res, sim),
			Certified:      func(h *model.Trajectory, log *pbcste.Log) { c.keep(sim, h, log) }}, nil
	}
	return run, tasks, nil
}

// Recorder writes a witness of a run as tau2 would have recorded it
// (Witness), indented JSON.
func Recorder(res *Results, sim *Simulation, t *Task, env func() (*pbcste.Env, error)) func(*model.Trajectory) ([]byte, error) {
	return func(a *model.Trajectory) ([]byte, error) {
		w, err := witnessIn(res, sim, t, env, a)
		if err != nil {
			return nil, err
		}
		return json.MarshalIndent(w, "", " ")
	}
}

// Locator places an error about a run on its file and simulation, and
// on its call when step (from 0) is one: the line, column and JSON path
// of the simulation or the call. An error already placed (an *Error)
// stays as it is.
func Locator(res *Results, sim *Simulation) func(step int, err error) error {
	return func(step int, err error) error {
		if e := (*Error)(nil); errors.As(err, &e) {
			return err
		}
		at, msg := sim.At, err.Error()
		if step >= 0 {
			msg = fmt.Sprintf("call %d: %v", step+1, err)
			if step < len(sim.CallsAt) {
				at = sim.CallsAt[step]
			}
		}
		if at.Path == "" {
			at.Path = fmt.Sprintf("simulations[%d]", sim.Index)
		}
		return &Error{File: res.File, Line: at.Line, Col: at.Col, Path: at.Path, SimID: sim.ID, Message: msg}
	}
}

// CallPlace is the line and column of a run's step-th call (from 0) in
// its file; 0, 0 when not known.
func (s *Simulation) CallPlace(step int) (line, col int) {
	if step < 0 || step >= len(s.CallsAt) {
		return 0, 0
	}
	return s.CallsAt[step].Line, s.CallsAt[step].Col
}

// Termination is how a run ended as its trajectory and payload say it:
// tau2's termination reason where tau2 ended the run itself and scores
// it 0, "" where the conversation ended it.
func Termination(sim *Simulation) string {
	if premature(sim.TerminationReason) {
		return sim.TerminationReason
	}
	return ""
}

// PayloadReward is tau2's reward of a run: its basis's product, by the
// rule the tau2_reward evaluator reads off the public payload (0 for a
// run tau2 ended itself, which its trajectory says).
func PayloadReward(t *model.Task, log *pbcste.Log, tr *model.Trajectory) float64 {
	dec, err := RewardPayload(t, log, tr)
	if err != nil {
		return 0
	}
	s, _ := evaluators.Tau2(dec)
	return s.Reward
}

// RewardPayload is the public payload tau2's evaluators score a run by.
// A payload needs a goal predicate; on a task that has none (its gold
// run changes nothing) it is the payload of the same run on the task
// with one predicate that always holds, on both sides: tau2's evaluators
// read the payload's reference, events and transcript, never its goals.
func RewardPayload(t *model.Task, log *pbcste.Log, tr *model.Trajectory) (*payload.Payload, error) {
	if vacant(t) {
		env, err := vacuousEnv(log.Env.Task)
		if err != nil {
			return nil, err
		}
		t, log = withGoal(t), env.Replay(tr.Steps)
	}
	b, err := builder.TrajectoryBytes(t, log, tr) // the run's termination too
	if err != nil {
		return nil, err
	}
	return payload.DecodeOwned(b)
}

// vacuousEnvs holds, per trusted task with no predicate, its
// environment with one that always holds: compiled once, as a domain's
// runs are scored many to a task.
var vacuousEnvs sync.Map // *model.Task → *pbcste.Env

func vacuousEnv(t *model.Task) (*pbcste.Env, error) {
	if env, ok := vacuousEnvs.Load(t); ok {
		return env.(*pbcste.Env), nil
	}
	env, err := pbcste.Compile(withGoal(t))
	if err != nil {
		return nil, err
	}
	got, _ := vacuousEnvs.LoadOrStore(t, env)
	return got.(*pbcste.Env), nil
}

// vacant reports whether a goal version of t has no predicate.
func vacant(t *model.Task) bool {
	return slices.ContainsFunc(t.Goals, func(g model.GoalVersion) bool { return len(g.Predicates) == 0 })
}

// withGoal is a copy of t in which each goal version without a predicate
// has one that always holds: its first initial entity is alive or absent.
// It names that one entity, so the payload's states show it alone.
func withGoal(t *model.Task) *model.Task {
	c := *t
	if len(t.Initial) == 0 {
		return &c
	}
	e := &t.Initial[0]
	c.Goals = slices.Clone(t.Goals)
	for i := range c.Goals {
		if len(c.Goals[i].Predicates) == 0 {
			c.Goals[i].Predicates = []model.Predicate{{ID: "vacuous", Text: "always holds",
				Expr: model.Expr{Kind: model.ExprAny, Args: []model.Expr{
					{Kind: model.ExprAlive, Type: e.Type, ID: e.ID}, {Kind: model.ExprAbsent, Type: e.Type, ID: e.ID}}}}}
		}
	}
	return &c
}

// task is a derived tau2 task as the registry knows it.
func (r *registry) task(d *Derived) *domains.Task {
	summary := ""
	if c := d.Source.Criteria; c != nil {
		summary = "basis " + strings.Join(c.RewardBasis, "+")
		if len(c.CommunicateInfo) > 0 {
			summary += "; communicate " + strings.Join(c.CommunicateInfo, ", ")
		}
	}
	t := &domains.Task{ID: d.ID, Title: d.Task.Title, Family: r.dom.Title, Summary: summary, Model: d.Task, Gold: d.Gold, Env: d.Env,
		Hash:   func(log *pbcste.Log) string { return r.w.Hash(log.View(), log.NetChanges()) },
		Reward: func(log *pbcste.Log, tr *model.Trajectory) float64 { return PayloadReward(d.Task, log, tr) },
		Payload: func(log *pbcste.Log, tr *model.Trajectory) (*payload.Payload, error) {
			return RewardPayload(d.Task, log, tr)
		},

		// The gold calls are kept, the agent's replies are not: only a
		// task scored on the database alone is held to the whole reward.
		GoldPasses:  d.Source.Criteria != nil && slices.Equal(d.Source.Criteria.RewardBasis, []string{"DB"}),
		GoldMayFail: true,
	}
	if r.dom.Attack != nil {
		t.AttackTask = func(h *model.Trajectory, final model.StateView) *model.Task { return r.dom.Attack(d, h, final) }
	}
	return t
}

func (r *registry) Tools() []domains.Tool {
	w, err := r.world()
	if err != nil {
		return nil
	}
	if x, ok := w.(interface{ Tools() []domains.Tool }); ok {
		return x.Tools()
	}
	return nil
}

// Rewards are tau2's reward and its components, from the public payload
// (airline and retail score no env assertion).
func (r *registry) Rewards() []domains.Reward {
	return Rewards(evaluators.Tau2EnvName)
}

// Rewards are tau2's reward and its components as a domain's evaluators,
// but for those named (components the domain's tasks never score on),
// then the field's (domains.FieldRewards). The components of one payload
// are one computation (evaluators.Tau2), which the evaluators share: a
// payload's evaluators are asked about it one after another.
func Rewards(without ...string) []domains.Reward {
	type scored struct {
		// p is weak, so never another payload's address, nor keeping the
		// payload (its messages) for as long as the evaluators are kept.
		p     weak.Pointer[payload.Payload]
		score evaluators.Tau2Score
		ok    bool
	}
	var last atomic.Pointer[scored] // no lock: evaluators scoring other payloads side by side only miss
	tau2 := func(p *payload.Payload) (evaluators.Tau2Score, bool) {
		wp := weak.Make(p)
		if l := last.Load(); l != nil && l.p == wp {
			return l.score, l.ok
		}
		s, ok := evaluators.Tau2(p)
		last.Store(&scored{wp, s, ok})
		return s, ok
	}
	var out []domains.Reward
	for _, name := range evaluators.Tau2Names() {
		if slices.Contains(without, name) {
			continue
		}
		out = append(out, domains.Reward{Name: name, Label: evaluators.Tau2Label(name), Score: func(p *payload.Payload) (float64, bool) {
			s, ok := tau2(p)
			if !ok || s.Premature != "" && name != evaluators.Tau2RewardName {
				return 0, false // a run tau2 ended itself: no component is computed
			}
			return s.Get(name), true
		}})
	}
	return append(out, domains.FieldRewards()...)
}

// conformResults reads a Results file's runs as streamResults does and
// holds each to what tau2 recorded as it is read, by its domain's reader.
func conformResults(file string, in io.Reader, each func(int, *domains.Run) error) (*domains.Conformance, error) {
	var check func(*Simulation) error
	var report func() *domains.Conformance
	err := readRuns(file, in, func(res *Results, r Reader) error {
		var err error
		check, report, err = r.Conformer(res)
		return err
	}, func(i int, sim *Simulation, run *domains.Run) error {
		if err := each(i, run); err != nil {
			return err
		}
		return check(sim)
	})
	if err != nil {
		return nil, err
	}
	return report(), nil
}

// Conformer holds a Results file to what tau2 recorded (Checker.ConformRun).
func (r *registry) Conformer(res *Results) (func(*Simulation) error, func() *domains.Conformance, error) {
	c, err := r.checker(res)
	if err != nil {
		return nil, nil, err
	}
	rep := c.NewReport(res)
	c.conforming = true
	return func(sim *Simulation) error { return c.ConformRun(rep, res, sim) },
		func() *domains.Conformance { return ConformanceOf(r.Name(), rep) }, nil
}

// ConformanceOf is a conformance report as the registry states it; more
// are checks a domain counts beside the core's.
func ConformanceOf(domain string, rep *Report, more ...domains.Check) *domains.Conformance {
	out := &domains.Conformance{File: rep.File, Domain: domain, Commit: short(rep.Commit), Runs: rep.Runs, Calls: rep.Calls, CallsEqual: rep.CallsEqual,
		RewardsEqual: rep.RewardsEqual, Remapped: rep.Remapped, Disagreements: []domains.Disagreement{},
		Checks: append([]domains.Check{{Name: "db_match", Recorded: rep.DBChecks, Equal: rep.DBEqual}, {Name: "action", Recorded: rep.ActionChecks, Equal: rep.ActionEqual},
			{Name: "communicate", Recorded: rep.CommunicateChecks, Equal: rep.CommunicateEqual}}, more...)}
	if rep.Skipped > 0 {
		out.Notes = append(out.Notes, fmt.Sprintf("%d runs score on %s, an LLM judge's verdict, which is not computed: their reward here is the product of the other components", rep.Skipped, BasisNL))
	}
	for _, d := range rep.Disagreements {
		out.Disagreements = append(out.Disagreements, domains.Disagreement{Run: d.Sim, Index: d.Index, Call: d.Call, What: d.What, Got: d.Got, Want: d.Want, Cause: d.Cause})
	}
	return out
}

// registeredFor is the reader of the domain a Results file's info names.
func registeredFor(res *Results) (Reader, error) {
	registeredMu.Lock()
	defer registeredMu.Unlock()
	r, ok := registered[res.Info.Domain]
	if !ok {
		var names []string
		for n := range registered {
			names = append(names, n)
		}
		slices.Sort(names)
		return nil, res.Errorf(domainPath, "%q is not a tau2 domain parthack has (it has %s)", res.Info.Domain, strings.Join(names, ", "))
	}
	return r, nil
}

// streamResults reads a tau2 Results file's runs.
func streamResults(file string, in io.Reader, each func(int, *domains.Run) error) error {
	return readRuns(file, in, func(*Results, Reader) error { return nil },
		func(i int, _ *Simulation, run *domains.Run) error { return each(i, run) })
}

// readRuns reads a tau2 Results file run by run as its simulations
// arrive (StreamResults), so that a file is held no more than a run at a
// time: head learns the file's domain reader once its info and tasks are
// read, each gets every simulation with its run. A file with no
// simulation is an error: there is nothing to read from it.
func readRuns(file string, in io.Reader, head func(*Results, Reader) error, each func(int, *Simulation, *domains.Run) error) error {
	var run func(*Simulation) (*domains.Run, error)
	var results *Results
	i := 0
	err := StreamResults(file, in, func(res *Results) error {
		results = res
		r, err := registeredFor(res)
		if err != nil {
			return err
		}
		if run, _, err = r.Runner(res); err != nil {
			return err
		}
		return head(res, r)
	}, func(sim *Simulation) error {
		rn, err := run(sim)
		if err != nil {
			return err
		}
		i++
		return each(i-1, sim, rn)
	})
	if err == nil && i == 0 {
		return results.Errorf("simulations", "the file holds no run (expected a list of at least one simulation)")
	}
	return err
}
