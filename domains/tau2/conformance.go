package tau2

import (
	"fmt"
	"io"
	"sync"

	"github.com/parthack/parthack/domains"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
)

// Checker replays runs of one world and scores them as tau2 does.
type Checker struct {
	World World
	Env   *pbcste.Env // the world's base task, compiled once
	// Hashes makes the checker compute tau2's DB hashes of end states and
	// decide db_match by them, as tau2 does; otherwise db_match is the
	// equality of the two end states' net changes, which is the same
	// verdict (a state maps to its database one to one) without writing
	// the whole database out twice per run.
	Hashes bool
	// Explained are the causes of the calls the port is known to answer
	// otherwise than a shipped file records (a World's Explainer), said
	// beside where the two results differ (Apart).
	Explained map[Explained]string
	gold      map[*Task]*Derived
	// texts are the tasks derived by this checker and those made from it
	// (fresh), by their text: the run files of a domain embed the same
	// tasks, each derived once.
	texts *derivedTexts
	// certified holds, while a file's runs are held to what tau2 recorded
	// (conforming), each run's trajectory and replay as its certification
	// made them (domains.Run.Certified), until Replay reads them.
	conforming bool
	certified  map[*Simulation]certifiedRun
}

// certifiedRun is a run's trajectory and its replay by its certification.
type certifiedRun struct {
	h   *model.Trajectory
	log *pbcste.Log
}

// keep keeps a run's certified trajectory and replay for Replay, when
// the checker's file is being held to what tau2 recorded.
func (c *Checker) keep(sim *Simulation, h *model.Trajectory, log *pbcste.Log) {
	if !c.conforming || log == nil {
		return
	}
	if c.certified == nil {
		c.certified = map[*Simulation]certifiedRun{}
	}
	c.certified[sim] = certifiedRun{h, log}
}

// derivedTexts are derived tasks by their text in a file (Task.Raw).
type derivedTexts struct {
	mu sync.Mutex
	m  map[string]*Derived
}

// Explained names one call of a recorded run: its simulation's id, the
// call's number from 1.
type Explained struct {
	Sim  string
	Call int
}

// An Explainer is a World that knows why the port answers some recorded
// calls otherwise than tau2 did: causes the recorded runs themselves show.
type Explainer interface {
	Explained() map[Explained]string
}

// NewChecker compiles a world's base task.
func NewChecker(w World) (*Checker, error) {
	env, err := pbcste.Compile(w.Base())
	if err != nil {
		return nil, fmt.Errorf("tau2 %s: %w", w.Name(), err)
	}
	c := &Checker{World: w, Env: env, gold: map[*Task]*Derived{}, texts: &derivedTexts{m: map[string]*Derived{}}}
	if e, ok := w.(Explainer); ok {
		c.Explained = e.Explained()
	}
	return c, nil
}

// fresh is a checker of the same world and settings for another file:
// its base task shared, and the tasks derived from the same text.
func (c *Checker) fresh() *Checker {
	f := *c
	f.gold, f.conforming, f.certified = map[*Task]*Derived{}, false, nil
	return &f
}

// Derive is the task derived from a tau2 task, once per task, and once
// per text among the files of the checkers made from one (fresh): a task
// is derived from its text alone, so a task another file embeds in the
// same words is that file's derived task, its Source that file's Task.
func (c *Checker) Derive(t *Task) (*Derived, error) {
	if d, ok := c.gold[t]; ok {
		return d, nil
	}
	c.texts.mu.Lock()
	d, ok := c.texts.m[string(t.Raw)]
	c.texts.mu.Unlock()
	if !ok {
		var err error
		if d, err = Derive(c.World, c.Env, t, c.Hashes); err != nil {
			return nil, err
		}
		// Files are read side by side: a text another file's checker
		// derived meanwhile keeps that derivation, so a task stays one.
		c.texts.mu.Lock()
		if first, ok := c.texts.m[string(t.Raw)]; ok {
			d = first
		} else {
			c.texts.m[string(t.Raw)] = d
		}
		c.texts.mu.Unlock()
	}
	c.gold[t] = d
	return d, nil
}

// Trajectory is a run as a trajectory of its task: every tool call a
// step, the conversation beside it, each call's result tied to its step.
func Trajectory(w World, r *Results, sim *Simulation, task *Task) (*model.Trajectory, error) {
	tr := &model.Trajectory{Task: TaskID(w, task.ID), Name: sim.ID, File: r.File,
		Note: fmt.Sprintf("%s run of tau2 %s task %s, trial %d (%s)", r.Info.AgentLLM, w.Name(), task.ID, sim.Trial, sim.TerminationReason)}
	results, err := Recorded(r, sim)
	if err != nil {
		return nil, err
	}
	for j, m := range sim.Messages {
		var content model.Text
		if m.Content != nil {
			content = *m.Content
		}
		switch {
		case m.Role == "tool":
		case len(m.ToolCalls) > 0:
			for k, tc := range m.ToolCalls {
				st, err := StepOf(tc.Name, tc.Requestor, tc.Arguments, len(tr.Steps))
				if err != nil {
					line, col := sim.CallPlace(len(tr.Steps))
					return nil, &Error{File: r.File, Line: line, Col: col, Path: fmt.Sprintf("simulations[%d].messages[%d].tool_calls[%d]", sim.Index, j, k), SimID: sim.ID, Message: err.Error()}
				}
				tr.Steps = append(tr.Steps, st)
				if k == 0 && !content.Blank() {
					// tau2's COMMUNICATE check reads the text beside calls too.
					tr.Transcript = append(tr.Transcript, model.Turn{Role: m.Role, Content: content})
				}
				text := fmt.Sprintf("%s(%s) → %s", tc.Name, tc.Arguments, results[len(tr.Steps)-1])
				tr.Transcript = append(tr.Transcript, model.Turn{Role: "tool", Content: model.TextOf(text), Step: len(tr.Steps)})
			}
		default:
			tr.Transcript = append(tr.Transcript, model.Turn{Role: m.Role, Content: content})
		}
	}
	return tr, nil
}

// Remap is the task a run was scored against: the task it names, unless
// its stored checks (the gold calls of its action checks, the strings of
// its communicate checks, none when tau2 found nothing to check; a run
// ended early has no checks and keeps its task) are not that task's (the ade3949 files' wrong
// task_ids), and then the first task of the file whose they are. Tasks
// with the same gold calls and communicate_info score a run alike, so
// the choice among them does not change a score. remapped says whether
// the task differs from the named one.
func Remap(r *Results, sim *Simulation) (task *Task, remapped bool) {
	named, _ := r.TaskByID(sim.TaskID)
	ri := sim.RewardInfo
	if ri == nil || ri.RewardBasis == nil || sameChecks(named, ri) {
		return named, false
	}
	for _, t := range r.Tasks {
		if sameChecks(t, ri) {
			return t, true
		}
	}
	return named, false
}

// sameChecks reports whether a run's stored checks are a task's.
func sameChecks(t *Task, ri *RewardInfo) bool {
	if !sameGold(t, ri.ActionChecks) || len(ri.CommunicateChecks) != len(t.Criteria.CommunicateInfo) {
		return false
	}
	for i, cc := range ri.CommunicateChecks {
		if cc.Info != t.Criteria.CommunicateInfo[i] {
			return false
		}
	}
	return true
}

// sameGold reports whether a task's gold calls are the checks' calls.
func sameGold(t *Task, checks []ActionCheck) bool {
	if t.Criteria == nil || len(t.Criteria.Actions) != len(checks) {
		return false
	}
	for i, a := range t.Criteria.Actions {
		b := checks[i].Action
		if a.Name != b.Name || !MatchArgs(asObj(mustArgs(a.Arguments)), nil, true, asObj(mustArgs(b.Arguments))) ||
			!MatchArgs(asObj(mustArgs(b.Arguments)), nil, true, asObj(mustArgs(a.Arguments))) {
			return false
		}
	}
	return true
}

// mustArgs is a call's arguments read, for reading only: each text is
// parsed once (pyCache), as Remap compares every run's stored checks with
// the tasks' gold calls.
func mustArgs(b []byte) any {
	if x, ok := pyCache.Load(string(b)); ok {
		return x
	}
	x, _ := ParsePy(b)
	if x != nil && pyCached.Load() < maxPyCache {
		if _, had := pyCache.LoadOrStore(string(b), x); !had {
			pyCached.Add(1)
		}
	}
	return x
}

// Replayed is one run replayed and scored.
type Replayed struct {
	Sim      *Simulation
	Task     *Derived
	Remapped bool
	Traj     *model.Trajectory
	Log      *pbcste.Log
	Outputs  []string // each call's result string, as the port returns it
	Recorded []string // and as tau2 recorded it
	Score    *Score
}

// Replay replays a run on the world's database and scores it; a run its
// certification replayed (keep) is read from that replay: the same
// calls on the same database, whose results and end state are those of
// the world's base task, the goals aside.
func (c *Checker) Replay(r *Results, sim *Simulation) (*Replayed, error) {
	t, remapped := Remap(r, sim)
	d, err := c.Derive(t)
	if err != nil {
		return nil, err
	}
	var tr *model.Trajectory
	var log *pbcste.Log
	if cr, ok := c.certified[sim]; ok {
		delete(c.certified, sim)
		tr, log = cr.h, cr.log
	} else {
		if tr, err = Trajectory(c.World, r, sim, t); err != nil {
			return nil, err
		}
		log = c.Env.Replay(tr.Steps)
	}
	out := &Replayed{Sim: sim, Task: d, Remapped: remapped, Traj: tr, Log: log}
	if out.Recorded, err = Recorded(r, sim); err != nil {
		return nil, err
	}
	for i := range log.Events {
		ev := &log.Events[i]
		text := log.Output(ev)
		if text == "" && !ev.OK {
			text = log.Reason(ev)
		}
		out.Outputs = append(out.Outputs, text)
	}
	changes := log.NetChanges()
	match := sameChanges(changes, d.Changes)
	var hash string
	if c.Hashes {
		hash = c.World.Hash(log.View(), changes)
		match = hash == d.GoldHash
	}
	out.Score = ScoreRun(sim, t, match)
	out.Score.Hash, out.Score.GoldHash = hash, d.GoldHash
	return out, nil
}

// Report is a file's conformance: how much of what tau2 recorded the
// port reproduces, and every disagreement.
type Report struct {
	File         string `json:"file"`
	Domain       string `json:"domain"`
	Commit       string `json:"git_commit"`
	Runs         int    `json:"runs"`
	Calls        int    `json:"calls"`
	CallsEqual   int    `json:"calls_equal"`
	RewardsEqual int    `json:"rewards_equal"`
	// DB: runs with a recorded db_check, and those whose recomputed
	// db_match equals it.
	DBChecks int `json:"db_checks"`
	DBEqual  int `json:"db_equal"`
	// Action and communicate checks recorded, and those reproduced.
	ActionChecks      int `json:"action_checks"`
	ActionEqual       int `json:"action_equal"`
	CommunicateChecks int `json:"communicate_checks"`
	CommunicateEqual  int `json:"communicate_equal"`
	// Remapped counts runs scored against another task than their
	// task_id names (see Remap).
	Remapped int `json:"remapped"`
	// Skipped counts runs whose basis holds a component not computed
	// (NL_ASSERTION), said once here.
	Skipped       int            `json:"skipped"`
	Disagreements []Disagreement `json:"disagreements"`
}

// Disagreement is one thing the port computes differently from the file.
type Disagreement struct {
	Sim   string `json:"simulation"`
	Index int    `json:"index"` // the simulation's position in the file
	Call  int    `json:"call,omitempty"`
	What  string `json:"what"` // call, reward, db_match, action_check, communicate_check
	Got   string `json:"got"`
	Want  string `json:"want"`
	Cause string `json:"cause"`
}

// Conform replays every run of a file and holds each call's result
// string and each recomputed score to the recorded ones.
func (c *Checker) Conform(r *Results) (*Report, error) {
	rep := c.NewReport(r)
	for _, sim := range r.Simulations {
		if err := c.ConformRun(rep, r, sim); err != nil {
			return nil, err
		}
	}
	return rep, nil
}

// NewReport is the empty conformance report of a file, for ConformRun
// to fill in run by run.
func (c *Checker) NewReport(r *Results) *Report {
	return &Report{File: r.File, Domain: c.World.Name(), Commit: r.Info.GitCommit, Disagreements: []Disagreement{}}
}

// ConformRun replays one run of a file and adds to rep how its calls'
// result strings and its recomputed scores compare with the recorded ones,
// each disagreement with its measured cause (cause.go).
func (c *Checker) ConformRun(rep *Report, r *Results, sim *Simulation) error {
	rep.Runs++
	rp, err := c.Replay(r, sim)
	if err != nil {
		return err
	}
	if rp.Remapped {
		rep.Remapped++
	}
	if len(rp.Score.Skipped) > 0 {
		rep.Skipped++
	}
	add := func(call int, what, got, want, why string) {
		rep.Disagreements = append(rep.Disagreements, Disagreement{Sim: sim.ID, Index: sim.Index, Call: call, What: what, Got: got, Want: want, Cause: why})
	}
	for i, out := range rp.Outputs {
		rep.Calls++
		if out == rp.Recorded[i] {
			rep.CallsEqual++
			continue
		}
		why := Apart(out, rp.Recorded[i])
		if e, ok := c.Explained[Explained{sim.ID, i + 1}]; ok {
			why += "; " + e
		}
		add(i+1, "call "+rp.Traj.Steps[i].Tool, out, rp.Recorded[i], why)
	}
	ri, s, t := sim.RewardInfo, rp.Score, rp.Task.Source
	if ri == nil {
		return nil
	}
	if s.Reward == ri.Reward {
		rep.RewardsEqual++
	} else {
		add(0, "reward", fmt.Sprint(s.Reward), fmt.Sprint(ri.Reward), RewardDecided(sim, t, s, ""))
	}
	if ri.DBCheck != nil {
		rep.DBChecks++
		switch {
		case s.Premature:
			add(0, "db_match", "none", fmt.Sprint(ri.DBCheck.DBMatch), RewardDecided(sim, t, s, ""))
		case s.DBMatch == ri.DBCheck.DBMatch:
			rep.DBEqual++
		default:
			add(0, "db_match", fmt.Sprint(s.DBMatch), fmt.Sprint(ri.DBCheck.DBMatch), DBDecided(t, s, rp.Log.NetChanges(), rp.Task.Changes))
		}
	}
	rep.ConformChecks(sim, t, s, add)
	return nil
}

// ConformChecks adds to rep how a run's recorded action and communicate
// checks compare with the recomputed ones (s), each disagreement through
// add with what decided the port's verdict.
func (rep *Report) ConformChecks(sim *Simulation, t *Task, s *Score, add func(call int, what, got, want, why string)) {
	ri := sim.RewardInfo
	for i, ac := range ri.ActionChecks {
		rep.ActionChecks++
		got := i < len(s.Actions) && s.Actions[i]
		if i < len(s.Actions) && got == ac.ActionMatch {
			rep.ActionEqual++
			continue
		}
		why := ActionDecided(sim, ac.Action)
		if s.Premature || s.NoCriteria {
			why = RewardDecided(sim, t, s, "")
		} else if i >= len(s.Actions) {
			why = fmt.Sprintf("the task scored has %d gold calls", len(s.Actions))
		}
		add(0, fmt.Sprintf("action_check %d (%s)", i, ac.Action.Name), fmt.Sprint(got), fmt.Sprint(ac.ActionMatch), why)
	}
	for i, cc := range ri.CommunicateChecks {
		rep.CommunicateChecks++
		got := i < len(s.Communicate) && s.Communicate[i]
		if i < len(s.Communicate) && got == cc.Met {
			rep.CommunicateEqual++
			continue
		}
		why := CommunicateDecided(sim, cc.Info)
		if s.Premature || s.NoCriteria {
			why = RewardDecided(sim, t, s, "")
		} else if i >= len(s.Communicate) {
			why = fmt.Sprintf("the task scored has %d communicate_info strings", len(s.Communicate))
		}
		add(0, fmt.Sprintf("communicate_check %d (%q)", i, cc.Info), fmt.Sprint(got), fmt.Sprint(cc.Met), why)
	}
}

func short(commit string) string {
	if len(commit) > 7 {
		return commit[:7]
	}
	return commit
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
