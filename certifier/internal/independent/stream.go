package independent

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/parthack/parthack/model"
)

// Kinds of rejection a step can earn, in the order Finish weighs them:
// the first illegal step anywhere outweighs a misnumbered step before
// it, and both outweigh any contradicted claim.
const (
	illegalStep = iota
	misnumbered
	contradicted
	kinds
)

// Stream certifies a trajectory whose steps arrive in order, in batches.
//
// It makes one replay pass: each step is judged (legal, numbered), then
// replayed, its claims held against what it did and every predicate's
// latest cause updated, all before the next step. Of the rejections it
// meets it keeps only the first of each kind, so that Finish answers in
// Certify's order although a later step may outweigh an earlier one.
// Once a step is rejected no certificate can come out, so replay stops
// and only what could still outweigh the rejection is judged. Its memory
// is the world's entities, not the trajectory's steps.
type Stream struct {
	task   *model.Task
	w      *world
	rules  *rules
	causes *tracker
	script []int // positions in task.Script of the events that fire, in firing order
	next   int   // the first of them not fired yet
	steps  int   // agent steps added
	events int   // events scheduled, failed ones included
	first  [kinds]*model.Rejection
	// failFrom is the first agent step whose failure failed keeps:
	// Rollback asks for R's first failed step among those appended to H.
	failFrom int
	failed   *failure
	diff     []model.CellDiff // scratch: the diff of a step that claims one
	// endedBy is the tool whose call ended the episode, at step endedAt
	// (from 1); "" while the episode goes on.
	endedBy string
	endedAt int
}

// failure is a failed agent step: its log position, step and reason.
type failure struct {
	seq, step int
	why       string
}

// NewStream starts certifying a trajectory of task.
func NewStream(task *model.Task) *Stream {
	w := newWorld(task)
	s := &Stream{task: task, w: w, rules: newRules(task, w.sc), causes: newTracker(task, w.sc), failFrom: math.MaxInt}
	for i, ev := range task.Script {
		if ev.After >= 0 { // a negative After is no number of steps taken: it never fires
			s.script = append(s.script, i)
		}
	}
	slices.SortStableFunc(s.script, func(a, b int) int { return cmp.Compare(task.Script[a].After, task.Script[b].After) })
	return s
}

// Add replays the next steps (the first batch starts at step 0). It
// keeps no reference to steps after it returns unless needed for
// evidence.
func (s *Stream) Add(steps []model.Step) {
	for i := range steps {
		s.step(&steps[i])
	}
}

// Finish ends the trajectory: tr gives the header (Task, GoalClaim; its
// Steps are ignored, may be nil) and n the number of steps added. It
// returns the certificate or the rejection, with the checks in the
// primary certifier's order: task, legality of every step, step numbers,
// per-event claims (ok, state hash, diff) in log order, the goal-version
// claim. An n other than the number of steps added is the caller's bug,
// and panics.
func (s *Stream) Finish(tr *model.Trajectory, n int) (*model.Certificate, *model.Rejection) {
	if n != s.steps {
		panic(fmt.Sprintf("independent: Finish is told of %d steps; %d were added", n, s.steps))
	}
	if tr.Task != s.task.ID {
		return nil, rejection(model.MalformedSchema, model.Evidence{Component: "task", Expected: s.task.ID, Got: tr.Task,
			Detail: fmt.Sprintf("the trajectory names task %q; this is task %q", tr.Task, s.task.ID)})
	}
	for _, rej := range s.first {
		if rej != nil {
			return nil, rej
		}
	}
	s.fire()
	if tr.GoalClaim != "" && tr.GoalClaim != s.w.goal {
		return nil, rejection(model.ReplayMismatch, model.Evidence{Component: "goal_version", Expected: s.w.goal, Got: tr.GoalClaim,
			Detail: fmt.Sprintf("the trajectory claims to end on goal version %s; replay ends on %s", tr.GoalClaim, s.w.goal)})
	}
	return s.certificate(), nil
}

// replaying reports whether a certificate can still come out, so that
// replay is worth going on with.
func (s *Stream) replaying() bool { return s.first == [kinds]*model.Rejection{} }

// fire schedules the scripted events due before the next agent step, or
// at the end: those whose After is the number of agent steps taken,
// failed ones included.
func (s *Stream) fire() {
	for s.next < len(s.script) && s.task.Script[s.script[s.next]].After <= s.steps {
		ev := &s.task.Script[s.script[s.next]]
		s.next++
		seq := s.events
		s.events++
		if s.replaying() {
			s.replay(&ev.Action, ev.Actor, seq, -1, nil)
		}
	}
}

// step schedules one agent step after the scripted events due before it,
// judges it, and replays it while a certificate can still come out.
func (s *Stream) step(st *model.Step) {
	s.fire()
	seq, i := s.events, s.steps
	s.events++
	s.steps++
	s.judge(st, seq, i)
	if s.endedBy == "" && st.Op == model.OpCall && s.task.Domain != nil && s.task.Domain.EndsEpisode(st.Tool) {
		s.endedBy, s.endedAt = st.Tool, i+1
	}
	if !s.replaying() {
		return
	}
	var diff *[]model.CellDiff
	if st.Claim.HasDiff {
		s.diff = s.diff[:0]
		diff = &s.diff
	}
	actor := model.ActorAgent
	if st.Actor != "" && s.first[illegalStep] == nil {
		actor = st.Actor // judged above: an actor the domain lets author steps
	}
	why := s.replay(&st.Action, actor, seq, i, diff)
	s.hold(&st.Claim, seq, i, !why.failed())
	if why.failed() && i >= s.failFrom && s.failed == nil {
		s.failed = &failure{seq: seq, step: i, why: why.String()}
	}
}

// judge checks a step against the task's interface and its number
// against its position, keeping the first offence of each kind. After an
// illegal step nothing can outweigh it, so judging stops.
func (s *Stream) judge(st *model.Step, seq, i int) {
	if s.first[illegalStep] != nil {
		return
	}
	if why := s.rules.illegal(st); why != "" {
		s.first[illegalStep] = rejection(model.IllegalAction, model.Evidence{Step: i + 1, Seq: seq + 1, Component: "op", Got: string(st.Op), Detail: why})
		return
	}
	if s.endedBy != "" {
		got := string(st.Op) + " " + st.Type + " " + st.ID
		if st.Op == model.OpCall {
			got = "call " + st.Tool
		}
		s.first[illegalStep] = rejection(model.IllegalAction, model.Evidence{Step: i + 1, Seq: seq + 1, Component: "episode",
			Expected: fmt.Sprintf("no step after step %d", s.endedAt), Got: got,
			Detail: fmt.Sprintf("the episode ended at step %d (%s); step %d follows it", s.endedAt, s.endedBy, i+1)})
		return
	}
	if s.first[misnumbered] == nil && st.Number != 0 && st.Number != i+1 {
		s.first[misnumbered] = rejection(model.ReplayMismatch, model.Evidence{Step: i + 1, Component: "step", Expected: strconv.Itoa(i + 1), Got: strconv.Itoa(st.Number),
			Detail: fmt.Sprintf("the step at position %d is numbered %d", i+1, st.Number)})
	}
}

// replay carries out one event and, when it succeeds, makes it the
// latest cause of every predicate whose read view it changed. It returns
// why the event failed, the zero refusal when it succeeded.
func (s *Stream) replay(a *model.Action, actor model.Actor, seq, step int, diff *[]model.CellDiff) refusal {
	w := s.w
	var why refusal
	if a.Op == model.OpCall {
		var writes []model.Action
		if writes, why = w.tool(a, actor); why.failed() {
			return why
		}
		for i := range writes {
			s.causes.beforeWrite(w, &writes[i])
		}
		why = w.applyAll(a.Tool, writes, diff)
	} else {
		s.causes.beforeWrite(w, a)
		why = w.apply(a, diff)
	}
	if why.failed() {
		s.causes.forget()
		return why
	}
	s.causes.after(w, model.Cause{Actor: actor, Seq: seq + 1, Step: step + 1})
	return why
}

// hold holds one step's claims (ok, then state hash, then diff) against
// what replay just did; the first contradicted claim is kept.
func (s *Stream) hold(cl *model.Claim, seq, i int, ok bool) {
	ev := model.Evidence{Step: i + 1, Seq: seq + 1}
	hash := ""
	if cl.StateHash != "" {
		hash = s.w.hash()
	}
	switch {
	case cl.HasOK && cl.OK != ok:
		ev.Component, ev.Expected, ev.Got = "ok", strconv.FormatBool(ok), strconv.FormatBool(cl.OK)
	case cl.StateHash != "" && cl.StateHash != hash:
		ev.Component, ev.Expected, ev.Got = "state_hash", hash, cl.StateHash
	case cl.HasDiff:
		diff := s.diff
		if diff == nil {
			diff = []model.CellDiff{}
		}
		want, _ := model.Canonical(diff)
		got, _ := model.Canonical(cl.Diff)
		if string(want) == string(got) {
			return
		}
		ev.Component, ev.Expected, ev.Got = "diff", string(want), string(got)
	default:
		return
	}
	ev.Detail = fmt.Sprintf("step %d claims %s %s; replay gives %s", i+1, ev.Component, ev.Got, ev.Expected)
	s.first[contradicted] = rejection(model.ReplayMismatch, ev)
}

// certificate states the vectors of the goal version active at the end.
// LogHash stays empty: the log's hashed form is the environment's, and
// the final state hash already binds the outcome.
func (s *Stream) certificate() *model.Certificate {
	w := s.w
	c := &model.Certificate{Task: s.task.ID, GoalVersion: w.goal, Steps: s.steps, Events: s.events, FinalHash: w.hash()}
	var preds []model.Predicate
	var causes []model.Cause
	for g := range s.task.Goals {
		if s.task.Goals[g].Version == w.goal {
			preds = s.task.Goals[g].Predicates
			causes = s.causes.causes[s.causes.first[g]:]
			break
		}
	}
	m := len(preds)
	c.CState, c.CAgent, c.Causes = make([]int, m), make([]int, m), make([]model.Cause, m)
	c.PState, c.PAgent = model.Frac{Den: m}, model.Frac{Den: m}
	copy(c.Causes, causes)
	for j := range preds {
		c.Predicates = append(c.Predicates, preds[j].ID)
		if !w.holds(&preds[j].Expr) {
			continue
		}
		c.CState[j] = 1
		c.PState.Num++
		if c.Causes[j].Actor == model.ActorAgent {
			c.CAgent[j] = 1
			c.PAgent.Num++
		}
	}
	return c
}

func rejection(r model.Reason, ev model.Evidence) *model.Rejection {
	return &model.Rejection{Reason: r, Evidence: ev}
}
