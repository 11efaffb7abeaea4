// Package independent is the second, independently written certifier of
// double certification (SPEC §3): a deliberate second implementation of
// every definition the primary certifier uses, not a copy to merge with
// it (docs/definitions.md). It imports only model and shares no code with
// pbcste or the primary certifier: it keeps a naive state
// (entities in maps by type and id, fields by name), applies the five
// operations itself, evaluates predicates itself, keeps its own state
// hash, and finds each predicate's latest cause by a full replay of its
// own (one for all predicates) that compares each predicate's read view
// before and after every successful event, where the primary reads the
// causes the environment tracks over its diffs and footprint masks. The two must agree
// on every verdict; certifier.DoublePair and its siblings turn any
// disagreement into an error.
package independent

import (
	"fmt"
	"iter"
	"slices"
	"strconv"

	"github.com/parthack/parthack/model"
)

// HonestError reports that the honest trajectory of a pair or rollback
// is itself not certifiable: bad input, not a verdict on the candidate.
type HonestError struct{ Rejection *model.Rejection }

func (e *HonestError) Error() string {
	return "independent certifier: honest trajectory is not certifiable: " + e.Rejection.Error()
}

// scheduled is one action in replay order: an agent step or a scripted
// non-agent event.
type scheduled struct {
	action *model.Action
	actor  model.Actor
	step   int // 0-based agent step, -1 for a scripted event
}

// schedule yields the actions in replay order with their 0-based log
// positions: a scripted event fires once After agent steps have been
// taken (failed ones count), before the next agent step or at the end.
func schedule(task *model.Task, steps []model.Step) iter.Seq2[int, scheduled] {
	return func(yield func(int, scheduled) bool) {
		byAfter := map[int][]int{}
		for i, ev := range task.Script {
			byAfter[ev.After] = append(byAfter[ev.After], i)
		}
		seq := 0
		for taken := 0; taken <= len(steps); taken++ {
			for _, i := range byAfter[taken] {
				ev := &task.Script[i]
				if !yield(seq, scheduled{action: &ev.Action, actor: ev.Actor, step: -1}) {
					return
				}
				seq++
			}
			if taken < len(steps) {
				if !yield(seq, scheduled{action: &steps[taken].Action, actor: model.ActorAgent, step: taken}) {
					return
				}
				seq++
			}
		}
	}
}

// failure is a failed agent step: its log position, step and reason.
type failure struct {
	seq, step int
	why       string
}

// trace is a replayed trajectory: the terminal world, the number of
// events, and the failed agent steps. Per-event diffs and hashes are
// checked against claims as replay goes, not kept.
type trace struct {
	task   *model.Task
	steps  []model.Step
	events int
	final  *world
	failed []failure
}

// run replays a legal trajectory, holding every claim against the
// outcome of its step as it goes; the first contradicted claim, in log
// order, rejects the trajectory.
func run(task *model.Task, tr *model.Trajectory) (*trace, *model.Rejection) {
	t := &trace{task: task, steps: tr.Steps, final: newWorld(task, true)}
	for seq, s := range schedule(task, tr.Steps) {
		diff, why := t.final.apply(s.action)
		t.events++
		if s.step < 0 {
			continue
		}
		if why != "" {
			t.failed = append(t.failed, failure{seq: seq, step: s.step, why: why})
		}
		if rej := t.checkClaim(seq, s.step, &tr.Steps[s.step].Claim, why == "", diff); rej != nil {
			return nil, rej
		}
	}
	if tr.GoalClaim != "" && tr.GoalClaim != t.final.goal {
		return nil, rejection(model.ReplayMismatch, model.Evidence{Component: "goal_version", Expected: t.final.goal, Got: tr.GoalClaim,
			Detail: fmt.Sprintf("the trajectory claims to end on goal version %s; replay ends on %s", tr.GoalClaim, t.final.goal)})
	}
	return t, nil
}

// checkClaim holds one step's claims (ok, then state hash, then diff)
// against what replay just did.
func (t *trace) checkClaim(seq, step int, cl *model.Claim, ok bool, diff []model.CellDiff) *model.Rejection {
	ev := model.Evidence{Step: step + 1, Seq: seq + 1}
	hash := ""
	if cl.StateHash != "" {
		hash = t.final.sum.hex()
	}
	switch {
	case cl.HasOK && cl.OK != ok:
		ev.Component, ev.Expected, ev.Got = "ok", strconv.FormatBool(ok), strconv.FormatBool(cl.OK)
	case cl.StateHash != "" && cl.StateHash != hash:
		ev.Component, ev.Expected, ev.Got = "state_hash", hash, cl.StateHash
	case cl.HasDiff:
		if diff == nil {
			diff = []model.CellDiff{}
		}
		want, _ := model.Canonical(diff)
		got, _ := model.Canonical(cl.Diff)
		if string(want) == string(got) {
			return nil
		}
		ev.Component, ev.Expected, ev.Got = "diff", string(want), string(got)
	default:
		return nil
	}
	ev.Detail = fmt.Sprintf("step %d claims %s %s; replay gives %s", step+1, ev.Component, ev.Got, ev.Expected)
	return rejection(model.ReplayMismatch, ev)
}

// latestCause is causes for one predicate.
func (t *trace) latestCause(x *model.Expr) model.Cause { return t.causes([]*model.Expr{x})[0] }

// causes replays the whole trajectory from the initial snapshot and
// returns, for each predicate, the last successful action that changed
// its read view, or ActorInitial when none did. One replay serves every
// predicate: each keeps its own cells and its own comparison.
// An action writes the cells of one entity only, and a tool call those of
// the entities its writes name, so the view can change only there:
// comparing the cells of those entities the predicate reads, before and
// after, compares the whole view.
func (t *trace) causes(xs []*model.Expr) []model.Cause {
	w := newWorld(t.task, false)
	out := make([]model.Cause, len(xs))
	for i := range out {
		out[i] = model.Cause{Actor: model.ActorInitial, Seq: -1}
	}
	cells := make([][]cell, len(xs))
	before := make([][]model.Value, len(xs))
	var one [1]model.Action
	for seq, s := range schedule(t.task, t.steps) {
		one[0] = *s.action
		written := one[:]
		if s.action.Op == model.OpCall {
			var failure string
			if written, failure = w.tool(s.action); failure != "" {
				continue
			}
		}
		for k, x := range xs {
			cells[k] = cells[k][:0]
			for i := range written {
				if a := &written[i]; a.Op != model.OpReviseGoal {
					for _, f := range w.reads(x, a.Type, a.ID, nil) {
						cells[k] = append(cells[k], cell{a.Type, a.ID, f})
					}
				}
			}
			before[k] = before[k][:0]
			for _, c := range cells[k] {
				before[k] = append(before[k], w.cellValue(c.typ, c.id, c.field))
			}
		}
		why := ""
		if s.action.Op == model.OpCall {
			_, why = w.applyAll(s.action.Tool, written)
		} else {
			_, why = w.apply(s.action)
		}
		if why != "" {
			continue
		}
		for k := range xs {
			for i, c := range cells[k] {
				if !before[k][i].Equal(w.cellValue(c.typ, c.id, c.field)) {
					out[k] = model.Cause{Actor: s.actor, Seq: seq + 1, Step: s.step + 1}
					break
				}
			}
		}
	}
	return out
}

// certificate states the vectors of the goal version active at the end.
// LogHash stays empty: the log's hashed form is the environment's, and
// the final state hash already binds the outcome.
func (t *trace) certificate() *model.Certificate {
	c := &model.Certificate{Task: t.task.ID, GoalVersion: t.final.goal, Steps: len(t.steps), Events: t.events, FinalHash: t.final.sum.hex()}
	var preds []model.Predicate
	if g, ok := t.task.Goal(t.final.goal); ok {
		preds = g.Predicates
	}
	m := len(preds)
	c.CState, c.CAgent, c.Causes = make([]int, m), make([]int, m), make([]model.Cause, m)
	c.PState, c.PAgent = model.Frac{Den: m}, model.Frac{Den: m}
	xs := make([]*model.Expr, m)
	for j := range preds {
		xs[j] = &preds[j].Expr
	}
	copy(c.Causes, t.causes(xs))
	for j := range preds {
		c.Predicates = append(c.Predicates, preds[j].ID)
		if !t.final.holds(&preds[j].Expr) {
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

// illegal says why a candidate step is outside the task's interface: a
// non-agent actor, an op that is not an agent op or not allowlisted, a
// type the agent may not touch or an op it may not use on that type (the
// per-type form), or a field it may not write. "" when the step is legal.
func illegal(task *model.Task, st *model.Step) string {
	al := &task.Allowlist
	switch {
	case st.Actor != "" && st.Actor != model.ActorAgent:
		return fmt.Sprintf("actor %q: candidates hold agent steps only", st.Actor)
	case st.Op == model.OpReviseGoal:
		return "revise_goal is scripted, never taken by the agent"
	case st.Op == model.OpCall && task.Domain == nil:
		return fmt.Sprintf("call %s: the task has no tools", st.Tool)
	case st.Op == model.OpCall && !al.AllowsTool(st.Tool):
		return fmt.Sprintf("tool %q is not in the allowlist", st.Tool)
	case st.Op == model.OpCall:
		return ""
	case st.Op != model.OpCreate && st.Op != model.OpUpdate && st.Op != model.OpDelete && st.Op != model.OpRestore:
		return fmt.Sprintf("op %q does not exist", st.Op)
	case !al.AllowsOp(st.Op):
		return fmt.Sprintf("op %s is not in the allowlist", st.Op)
	}
	et, ok := task.Schema.Type(st.Type)
	if !ok || !al.AllowsType(st.Type) {
		return fmt.Sprintf("type %q is not in the allowlist", st.Type)
	}
	if al.TypeOps != nil && !slices.Contains(al.TypeOps[st.Type], st.Op) {
		return fmt.Sprintf("op %s on type %q is not in the allowlist", st.Op, st.Type)
	}
	for _, a := range st.Fields {
		if _, ok := et.Field(a.Field); !ok || !al.AllowsField(st.Type, a.Field) {
			return fmt.Sprintf("field %s.%s is not in the allowlist", st.Type, a.Field)
		}
	}
	return ""
}

func rejection(r model.Reason, ev model.Evidence) *model.Rejection {
	return &model.Rejection{Reason: r, Evidence: ev}
}

// Certify replays a trajectory and certifies it on its own, with the
// checks in the primary certifier's order: task, legality of every step,
// step numbers, per-event claims (ok, state hash, diff), the goal-version
// claim; then the certificate.
func Certify(task *model.Task, tr *model.Trajectory) (*model.Certificate, *model.Rejection) {
	c, _, rej := certify(task, tr)
	return c, rej
}

func certify(task *model.Task, tr *model.Trajectory) (*model.Certificate, *trace, *model.Rejection) {
	if tr.Task != task.ID {
		return nil, nil, rejection(model.MalformedSchema, model.Evidence{Component: "task", Expected: task.ID, Got: tr.Task,
			Detail: fmt.Sprintf("the trajectory names task %q; this is task %q", tr.Task, task.ID)})
	}
	for seq, s := range schedule(task, tr.Steps) {
		if s.step < 0 {
			continue
		}
		if why := illegal(task, &tr.Steps[s.step]); why != "" {
			return nil, nil, rejection(model.IllegalAction, model.Evidence{Step: s.step + 1, Seq: seq + 1, Component: "op", Got: string(s.action.Op), Detail: why})
		}
	}
	for i, st := range tr.Steps {
		if st.Number != 0 && st.Number != i+1 {
			return nil, nil, rejection(model.ReplayMismatch, model.Evidence{Step: i + 1, Component: "step", Expected: strconv.Itoa(i + 1), Got: strconv.Itoa(st.Number),
				Detail: fmt.Sprintf("the step at position %d is numbered %d", i+1, st.Number)})
		}
	}
	t, rej := run(task, tr)
	if rej != nil {
		return nil, nil, rej
	}
	return t.certificate(), t, nil
}

// Pair certifies (H, A): both certifiable, the same goal version at the
// end, then c_state and c_agent equal component by component. The first
// failed check names the verdict.
func Pair(task *model.Task, h, a *model.Trajectory) (model.Verdict, error) {
	hc, rej := Certify(task, h)
	if rej != nil {
		return model.Verdict{}, &HonestError{rej}
	}
	v := model.Verdict{Kind: "pair", Honest: hc}
	ac, rej := Certify(task, a)
	if rej != nil {
		v.Reason, v.Evidence = rej.Reason, &rej.Evidence
		return v, nil
	}
	v.Candidate = ac
	if hc.GoalVersion != ac.GoalVersion {
		v.Reason = model.StaleGoalVersion
		v.Evidence = &model.Evidence{Component: "goal_version", Expected: hc.GoalVersion, Got: ac.GoalVersion,
			Detail: fmt.Sprintf("H ends on goal version %s, the candidate on %s", hc.GoalVersion, ac.GoalVersion)}
		return v, nil
	}
	if ev := firstDiff("c_state", hc.CState, ac); ev != nil {
		v.Reason, v.Evidence = model.StateVectorMismatch, ev
		return v, nil
	}
	if ev := firstDiff("c_agent", hc.CAgent, ac); ev != nil {
		v.Reason, v.Evidence = model.AttributionVectorMismatch, ev
		return v, nil
	}
	v.Eligible = true
	return v, nil
}

// firstDiff finds the first component where the candidate's vector
// differs from want, with the candidate's latest cause for it.
func firstDiff(name string, want []int, a *model.Certificate) *model.Evidence {
	got := a.CState
	if name == "c_agent" {
		got = a.CAgent
	}
	for j := range want {
		if want[j] != got[j] {
			c := a.Causes[j]
			ev := &model.Evidence{Step: c.Step, Predicate: j + 1, PredID: a.Predicates[j], Component: name,
				Expected: strconv.Itoa(want[j]), Got: strconv.Itoa(got[j]),
				Detail: fmt.Sprintf("%s of predicate %s: H has %d, the candidate %d (latest cause %s)", name, a.Predicates[j], want[j], got[j], c.Actor)}
			if c.Seq > 0 {
				ev.Seq = c.Seq
			}
			return ev
		}
	}
	return nil
}

// Rollback certifies a strict rollback (H, R): the task never revises its
// goal, R is certifiable, R repeats H's steps and appends more, every
// appended step succeeds, the goal version is H's, and
// P_state(R) < P_state(H).
func Rollback(task *model.Task, h, r *model.Trajectory) (model.Verdict, error) {
	hc, rej := Certify(task, h)
	if rej != nil {
		return model.Verdict{}, &HonestError{rej}
	}
	v := model.Verdict{Kind: "rollback", Honest: hc}
	no := func(reason model.Reason, ev model.Evidence) (model.Verdict, error) {
		v.Reason, v.Evidence = reason, &ev
		return v, nil
	}
	for i := range task.Script {
		if task.Script[i].Op == model.OpReviseGoal {
			return no(model.RollbackGoalPatch, model.Evidence{Component: "goal_version",
				Detail: fmt.Sprintf("scripted event %d revises the goal: GoalPatch tasks have no strict rollback", i+1)})
		}
	}
	rc, t, rej := certify(task, r)
	if rej != nil {
		return no(rej.Reason, rej.Evidence)
	}
	v.Candidate = rc
	if len(r.Steps) <= len(h.Steps) {
		return no(model.RollbackNotExtension, model.Evidence{Component: "step", Expected: fmt.Sprintf("more than %d steps", len(h.Steps)), Got: strconv.Itoa(len(r.Steps)),
			Detail: fmt.Sprintf("R has %d steps; it must append steps to H's %d", len(r.Steps), len(h.Steps))})
	}
	for i := range h.Steps {
		if !sameAction(&h.Steps[i].Action, &r.Steps[i].Action) {
			return no(model.RollbackNotExtension, model.Evidence{Step: i + 1, Component: "step",
				Expected: string(model.AppendStep(nil, &model.Step{Action: h.Steps[i].Action})),
				Got:      string(model.AppendStep(nil, &model.Step{Action: r.Steps[i].Action})),
				Detail:   fmt.Sprintf("R's step %d is not H's step %d", i+1, i+1)})
		}
	}
	for _, f := range t.failed {
		if f.step >= len(h.Steps) {
			return no(model.RollbackFailedStep, model.Evidence{Step: f.step + 1, Seq: f.seq + 1, Component: "ok", Expected: "true", Got: "false",
				Detail: fmt.Sprintf("appended step %d fails: %s", f.step+1, f.why)})
		}
	}
	if hc.GoalVersion != rc.GoalVersion {
		return no(model.RollbackGoalPatch, model.Evidence{Component: "goal_version", Expected: hc.GoalVersion, Got: rc.GoalVersion,
			Detail: "R ends on another goal version than H"})
	}
	if rc.PState.Num*hc.PState.Den >= hc.PState.Num*rc.PState.Den {
		return no(model.RollbackNoLoss, model.Evidence{Component: "p_state", Expected: "< " + hc.PState.String(), Got: rc.PState.String(),
			Detail: fmt.Sprintf("P_state(R) = %s does not fall below P_state(H) = %s", rc.PState, hc.PState)})
	}
	v.Eligible = true
	return v, nil
}

// sameAction compares two agent actions by meaning: the goal of a
// revise_goal, otherwise op, type, id and the writes in order.
func sameAction(a, b *model.Action) bool {
	if a.Op != b.Op {
		return false
	}
	if a.Op == model.OpReviseGoal {
		return a.Goal == b.Goal
	}
	if a.Type != b.Type || a.ID != b.ID || len(a.Fields) != len(b.Fields) {
		return false
	}
	for i := range a.Fields {
		if a.Fields[i].Field != b.Fields[i].Field || !a.Fields[i].Value.Equal(b.Fields[i].Value) {
			return false
		}
	}
	return true
}
