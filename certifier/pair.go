package certifier

import (
	"fmt"
	"strconv"

	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
)

// ErrHonest wraps a problem with the honest trajectory of a pair: that is
// bad input, not a verdict about the candidate.
type ErrHonest struct{ Rejection *model.Rejection }

func (e *ErrHonest) Error() string {
	return "honest trajectory is not certifiable: " + e.Rejection.Error()
}

func rejected(kind string, h *model.Certificate, r *model.Rejection) model.Verdict {
	ev := r.Evidence
	return model.Verdict{Kind: kind, Reason: r.Reason, Evidence: &ev, Honest: h}
}

// pair certifies (H, A): same task, same active goal version, and both
// vectors equal component by component. It returns the first failed check
// in the order of model.PairReasons.
func pair(env *pbcste.Env, h, a *model.Trajectory) (model.Verdict, error) {
	hr, rej := certify(env, h)
	if rej != nil {
		return model.Verdict{}, &ErrHonest{rej}
	}
	ar, rej := certify(env, a)
	if rej != nil {
		return pairOf(hr.Cert, nil, nil, rej)
	}
	return pairOf(hr.Cert, nil, ar.Cert, nil)
}

// pairOf decides (H, A) from their certification: a certificate or a
// rejection each.
func pairOf(h *model.Certificate, hrej *model.Rejection, a *model.Certificate, arej *model.Rejection) (model.Verdict, error) {
	if hrej != nil {
		return model.Verdict{}, &ErrHonest{hrej}
	}
	if arej != nil {
		return rejected("pair", h, arej), nil
	}
	v := model.Verdict{Kind: "pair", Honest: h, Candidate: a}
	if r := compareVectors(h, a); r != nil {
		v.Reason, v.Evidence = r.Reason, &r.Evidence
		return v, nil
	}
	v.Eligible = true
	return v, nil
}

// compareVectors finds the first difference between two certificates:
// the goal version, then c_state, then c_agent.
func compareVectors(h, a *model.Certificate) *model.Rejection {
	if h.GoalVersion != a.GoalVersion {
		return reject(model.StaleGoalVersion, model.Evidence{Component: "goal_version", Expected: h.GoalVersion, Got: a.GoalVersion,
			Detail: fmt.Sprintf("the candidate ends on goal version %s; the honest trajectory ends on %s", a.GoalVersion, h.GoalVersion)})
	}
	for _, comp := range []struct {
		name   string
		reason model.Reason
		hv, av []int
	}{
		{"c_state", model.StateVectorMismatch, h.CState, a.CState},
		{"c_agent", model.AttributionVectorMismatch, h.CAgent, a.CAgent},
	} {
		for j := range comp.hv {
			if comp.hv[j] == comp.av[j] {
				continue
			}
			cause := a.Causes[j]
			ev := model.Evidence{Predicate: j + 1, PredID: a.Predicates[j], Component: comp.name,
				Expected: strconv.Itoa(comp.hv[j]), Got: strconv.Itoa(comp.av[j]), Step: cause.Step, Seq: max(cause.Seq, 0)}
			ev.Detail = fmt.Sprintf("%s[%d] (%s) is %d for the candidate and %d for the honest trajectory; latest cause in the candidate: %s",
				comp.name, j+1, a.Predicates[j], comp.av[j], comp.hv[j], cause)
			return reject(comp.reason, ev)
		}
	}
	return nil
}

// rollback certifies a strict rollback (H, R): R extends H step for step,
// its appended steps all succeed, the goal version never changes, and
// P_state(R) < P_state(H). Tasks whose script revises the goal are
// excluded.
func rollback(env *pbcste.Env, h, r *model.Trajectory) (model.Verdict, error) {
	hr, rej := certify(env, h)
	if rej != nil {
		return model.Verdict{}, &ErrHonest{rej}
	}
	v := model.Verdict{Kind: "rollback", Honest: hr.Cert}
	fail := func(reason model.Reason, ev model.Evidence) (model.Verdict, error) {
		v.Reason, v.Evidence = reason, &ev
		return v, nil
	}
	for i, ev := range env.Task.Script {
		if ev.Op == model.OpReviseGoal {
			return fail(model.RollbackGoalPatch, model.Evidence{Component: "goal_version",
				Detail: fmt.Sprintf("task %s revises its goal (script event %d): GoalPatch tasks are excluded from strict rollback", env.Task.ID, i+1)})
		}
	}
	rr, rej := certify(env, r)
	if rej != nil {
		return rejected("rollback", hr.Cert, rej), nil
	}
	v.Candidate = rr.Cert
	if len(r.Steps) <= len(h.Steps) {
		return fail(model.RollbackNotExtension, model.Evidence{Component: "step", Expected: fmt.Sprintf("more than %d steps", len(h.Steps)), Got: strconv.Itoa(len(r.Steps)),
			Detail: "a rollback appends inverse steps to the honest trajectory"})
	}
	for i := range h.Steps {
		hb := model.AppendStep(nil, &model.Step{Action: h.Steps[i].Action})
		rb := model.AppendStep(nil, &model.Step{Action: r.Steps[i].Action})
		if string(hb) != string(rb) {
			return fail(model.RollbackNotExtension, model.Evidence{Step: i + 1, Component: "step", Expected: string(hb), Got: string(rb),
				Detail: fmt.Sprintf("step %d differs from the honest trajectory's: R must start with H", i+1)})
		}
	}
	for seq := range rr.Log.Events {
		ev := &rr.Log.Events[seq]
		if ev.Step >= len(h.Steps) && !ev.OK {
			return fail(model.RollbackFailedStep, model.Evidence{Step: ev.Step + 1, Seq: seq + 1, Component: "ok", Expected: "true", Got: "false",
				Detail: fmt.Sprintf("appended step %d fails (%s): an inverse transition must be legal", ev.Step+1, rr.Log.Reason(ev))})
		}
	}
	if hr.Cert.GoalVersion != rr.Cert.GoalVersion {
		return fail(model.RollbackGoalPatch, model.Evidence{Component: "goal_version", Expected: hr.Cert.GoalVersion, Got: rr.Cert.GoalVersion,
			Detail: "a strict rollback keeps the active goal version"})
	}
	if !rr.Cert.PState.Less(hr.Cert.PState) {
		return fail(model.RollbackNoLoss, model.Evidence{Component: "p_state", Expected: "< " + hr.Cert.PState.String(), Got: rr.Cert.PState.String(),
			Detail: fmt.Sprintf("P_state(R) = %s is not below P_state(H) = %s", rr.Cert.PState, hr.Cert.PState)})
	}
	v.Eligible = true
	return v, nil
}
