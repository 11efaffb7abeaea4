// Package independent is the second, independently written certifier of
// double certification (SPEC §3): a deliberate second implementation of
// every definition the primary certifier uses, not a copy to merge with
// it (docs/definitions.md). It imports only model and shares no code with
// pbcste or the primary certifier: it keeps its own state (the entities
// it wrote over a shared frozen snapshot, fields by schema position),
// applies the five operations itself, evaluates predicates itself, keeps
// its own state hash, and finds each predicate's latest cause in the one
// replay that certifies, by comparing each predicate's read view before
// and after every successful event, where the primary reads the causes
// the environment tracks over its diffs and footprint masks. The two must
// agree on every verdict; certifier.DoublePair and its siblings turn any
// disagreement into an error.
package independent

import (
	"fmt"
	"strconv"

	"github.com/parthack/parthack/model"
)

// HonestError reports that the honest trajectory of a pair or rollback
// is itself not certifiable: bad input, not a verdict on the candidate.
type HonestError struct{ Rejection *model.Rejection }

func (e *HonestError) Error() string {
	return "independent certifier: honest trajectory is not certifiable: " + e.Rejection.Error()
}

// Certify replays a trajectory and certifies it on its own: a Stream
// given all its steps at once, so a trajectory held in memory and one
// streamed in batches are certified by the same code.
func Certify(task *model.Task, tr *model.Trajectory) (*model.Certificate, *model.Rejection) {
	s := NewStream(task)
	s.Add(tr.Steps)
	return s.Finish(tr, len(tr.Steps))
}

// Pair certifies (H, A): both certifiable, the same goal version at the
// end, then c_state and c_agent equal component by component. The first
// failed check names the verdict.
func Pair(task *model.Task, h, a *model.Trajectory) (model.Verdict, error) {
	hc, rej := Certify(task, h)
	if rej != nil {
		return model.Verdict{}, &HonestError{rej}
	}
	ac, arej := Certify(task, a)
	return PairOf(hc, nil, ac, arej)
}

// PairOf decides (H, A) from their certification, a certificate or a
// rejection each, for trajectories certified as they were streamed.
func PairOf(hc *model.Certificate, hrej *model.Rejection, ac *model.Certificate, arej *model.Rejection) (model.Verdict, error) {
	if hrej != nil {
		return model.Verdict{}, &HonestError{hrej}
	}
	v := model.Verdict{Kind: "pair", Honest: hc}
	if arej != nil {
		v.Reason, v.Evidence = arej.Reason, &arej.Evidence
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
	s := NewStream(task)
	s.failFrom = len(h.Steps)
	s.Add(r.Steps)
	rc, rej := s.Finish(r, len(r.Steps))
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
	if f := s.failed; f != nil {
		return no(model.RollbackFailedStep, model.Evidence{Step: f.step + 1, Seq: f.seq + 1, Component: "ok", Expected: "true", Got: "false",
			Detail: fmt.Sprintf("appended step %d fails: %s", f.step+1, f.why)})
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
