// Package certifier is the private certifier: it replays a trajectory,
// builds the certified vectors c_state and c_agent (latest causes as the
// environment's log defines them, pbcste.Log.Cause), and decides pair
// eligibility and strict rollback. Every verdict is double-checked
// against an independently written certifier (package
// certifier/internal/independent); any disagreement is a hard error,
// never a verdict. Only that double certification is exported
// (DoubleCertify, DoublePair, DoubleRollback). docs/definitions.md says
// where each concept of the method is defined.
package certifier

import (
	"fmt"
	"strconv"

	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
)

// Result is a certified trajectory: its certificate and the replay log.
type Result struct {
	Cert *model.Certificate
	Log  *pbcste.Log
}

func reject(reason model.Reason, ev model.Evidence) *model.Rejection {
	return &model.Rejection{Reason: reason, Evidence: ev}
}

// certify replays a trajectory and certifies it on its own: the checks
// that need no partner (schema, legality, replay claims) and the vectors.
func certify(env *pbcste.Env, tr *model.Trajectory) (*Result, *model.Rejection) {
	if tr.Task != env.Task.ID {
		return nil, reject(model.MalformedSchema, model.Evidence{Component: "task", Expected: env.Task.ID, Got: tr.Task,
			Detail: fmt.Sprintf("trajectory is for task %q, not %q", tr.Task, env.Task.ID)})
	}
	log := env.Replay(tr.Steps)
	for seq := range log.Events {
		if ev := &log.Events[seq]; ev.Illegal {
			return nil, reject(model.IllegalAction, model.Evidence{Step: ev.Step + 1, Seq: seq + 1, Component: "op", Got: string(ev.Action.Op), Detail: log.Reason(ev)})
		}
	}
	if rej := checkClaims(log, tr); rej != nil {
		return nil, rej
	}
	return &Result{Cert: certificate(log), Log: log}, nil
}

// checkClaims holds every claim of the trajectory against replay.
func checkClaims(log *pbcste.Log, tr *model.Trajectory) *model.Rejection {
	for i := range tr.Steps {
		if n := tr.Steps[i].Number; n != 0 && n != i+1 {
			return reject(model.ReplayMismatch, model.Evidence{Step: i + 1, Component: "step", Expected: strconv.Itoa(i + 1), Got: strconv.Itoa(n),
				Detail: fmt.Sprintf("step %d claims to be step %d: steps out of order", i+1, n)})
		}
	}
	// The log holds the steps in order, so the event of step i is found by
	// walking forward; steps without claims cost no look at the log.
	seq := 0
	for i := range tr.Steps {
		st := &tr.Steps[i]
		for log.Events[seq].Step != i {
			seq++
		}
		cl := &st.Claim
		if !cl.HasOK && cl.StateHash == "" && !cl.HasDiff {
			continue
		}
		ev := &log.Events[seq]
		base := model.Evidence{Step: ev.Step + 1, Seq: seq + 1}
		if cl.HasOK && cl.OK != ev.OK {
			base.Component, base.Expected, base.Got = "ok", strconv.FormatBool(ev.OK), strconv.FormatBool(cl.OK)
			base.Detail = fmt.Sprintf("step %d claims ok=%t but replay says ok=%t %s", ev.Step+1, cl.OK, ev.OK, log.Reason(ev))
			return reject(model.ReplayMismatch, base)
		}
		if cl.StateHash != "" && cl.StateHash != ev.Hash.String() {
			base.Component, base.Expected, base.Got = "state_hash", ev.Hash.String(), cl.StateHash
			base.Detail = fmt.Sprintf("step %d claims a state hash that replay does not reach", ev.Step+1)
			return reject(model.ReplayMismatch, base)
		}
		if cl.HasDiff {
			want, _ := model.Canonical(log.TypedDiff(ev))
			got, _ := model.Canonical(cl.Diff)
			if string(want) != string(got) {
				base.Component, base.Expected, base.Got = "diff", string(want), string(got)
				base.Detail = fmt.Sprintf("step %d claims a diff that replay does not produce", ev.Step+1)
				return reject(model.ReplayMismatch, base)
			}
		}
	}
	if tr.GoalClaim != "" && tr.GoalClaim != log.Goal().Version {
		return reject(model.ReplayMismatch, model.Evidence{Component: "goal_version", Expected: log.Goal().Version, Got: tr.GoalClaim,
			Detail: fmt.Sprintf("trajectory claims to end on goal version %s; replay ends on %s", tr.GoalClaim, log.Goal().Version)})
	}
	return nil
}

// certificate builds the vectors of the active goal version at
// termination. Latest causes are the log's (pbcste.Log.Cause, their one
// definition); the independent certifier finds them its own way.
func certificate(log *pbcste.Log) *model.Certificate {
	g := log.Goal()
	final := log.Final()
	m := len(g.Preds)
	causes := make([]model.Cause, m)
	for j, p := range g.Preds {
		causes[j] = log.Cause(p)
	}
	c := &model.Certificate{Task: log.Env.Task.ID, GoalVersion: g.Version, CState: make([]int, m), CAgent: make([]int, m), Causes: causes,
		Steps: log.Steps, Events: len(log.Events), FinalHash: log.FinalHash().String(), LogHash: log.LogHash()}
	for j, p := range g.Preds {
		c.Predicates = append(c.Predicates, p.ID)
		if final.Eval(p) {
			c.CState[j] = 1
			c.PState.Num++
			if causes[j].Actor == model.ActorAgent {
				c.CAgent[j] = 1
				c.PAgent.Num++
			}
		}
	}
	c.PState.Den, c.PAgent.Den = m, m
	return c
}
