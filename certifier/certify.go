// Package certifier is the private certifier: it replays a trajectory,
// builds the certified vectors c_state and c_agent (latest causes as the
// environment's log defines them, pbcste.Log.Cause), and decides pair
// eligibility and strict rollback. Every verdict is double-checked
// against an independently written certifier (package
// certifier/internal/independent); any disagreement is a hard error,
// never a verdict. Only that double certification is exported
// (DoubleCertify, DoublePair, DoubleRollback; DoubleCertifyStream, its
// Watched form, and DoublePairOf for a trajectory certified as it is
// decoded).
// docs/definitions.md says where each concept of the method is defined.
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
	s := newStream(env.Begin(len(tr.Steps)))
	s.add(tr.Steps)
	return s.finish(tr)
}

// stream certifies a trajectory as its steps arrive, in order: replay
// and every per-step check happen as each step is added, the first
// failure of each kind is kept, and finish decides in the order the
// checks have always had: the task, then the first illegal step
// anywhere, the first misnumbered step, the first contradicted claim,
// the goal-version claim. Over a streamed run (pbcste.Env.Stream) it
// keeps nothing per step.
type stream struct {
	run                    *pbcste.Run
	added                  int
	illegal, number, claim *model.Rejection
	watch                  func(*pbcste.Run, *pbcste.Event) // sees every event as it is recorded, when set
	log                    *pbcste.Log                      // the finished log, once finished
}

func newStream(run *pbcste.Run) *stream { return &stream{run: run} }

// add replays the next steps and holds each against its claims.
func (s *stream) add(steps []model.Step) {
	s.run.Expect(steps)
	for i := range steps {
		st := &steps[i]
		at := s.added
		s.added++
		if s.number == nil && st.Number != 0 && st.Number != at+1 {
			s.number = reject(model.ReplayMismatch, model.Evidence{Step: at + 1, Component: "step", Expected: strconv.Itoa(at + 1), Got: strconv.Itoa(st.Number),
				Detail: fmt.Sprintf("step %d claims to be step %d: steps out of order", at+1, st.Number)})
		}
		ended := s.run.Ended()
		s.run.Step(st)
		evs := s.run.Events()
		if s.watch != nil {
			for j := range evs {
				s.watch(s.run, &evs[j])
			}
		}
		ev := &evs[len(evs)-1] // the step's own event follows the scripted ones due before it
		if ev.Illegal && s.illegal == nil {
			s.illegal = reject(model.IllegalAction, illegalEvidence(s.run.Task(), ev, st, ended, s.run.Reason(ev)))
		}
		if s.claim == nil {
			s.claim = s.checkClaim(&st.Claim, ev)
		}
	}
}

// illegalEvidence is the evidence of an illegal step: its op, or, for a
// step of the agent after the call that ended the episode (at step
// ended, from 1), the episode's end.
func illegalEvidence(task *model.Task, ev *pbcste.Event, st *model.Step, ended int, why string) model.Evidence {
	e := model.Evidence{Step: ev.Step + 1, Seq: ev.Seq + 1, Component: "op", Got: string(ev.Action.Op), Detail: why}
	if ended > 0 && model.MayAuthor(task, st.Actor) {
		e.Component, e.Expected, e.Got = "episode", fmt.Sprintf("no step after step %d", ended), stepName(st)
	}
	return e
}

// stepName is a step as evidence names it: a call by its tool.
func stepName(st *model.Step) string {
	if st.Op == model.OpCall {
		return "call " + st.Tool
	}
	return string(st.Op) + " " + st.Type + " " + st.ID
}

// checkClaim holds one step's claims (ok, state hash, diff) against its
// event.
func (s *stream) checkClaim(cl *model.Claim, ev *pbcste.Event) *model.Rejection {
	if !cl.HasOK && cl.StateHash == "" && !cl.HasDiff {
		return nil
	}
	base := model.Evidence{Step: ev.Step + 1, Seq: ev.Seq + 1}
	if cl.HasOK && cl.OK != ev.OK {
		base.Component, base.Expected, base.Got = "ok", strconv.FormatBool(ev.OK), strconv.FormatBool(cl.OK)
		base.Detail = fmt.Sprintf("step %d claims ok=%t but replay says ok=%t %s", ev.Step+1, cl.OK, ev.OK, s.run.Reason(ev))
		return reject(model.ReplayMismatch, base)
	}
	if cl.StateHash != "" && cl.StateHash != ev.Hash.String() {
		base.Component, base.Expected, base.Got = "state_hash", ev.Hash.String(), cl.StateHash
		base.Detail = fmt.Sprintf("step %d claims a state hash that replay does not reach", ev.Step+1)
		return reject(model.ReplayMismatch, base)
	}
	if cl.HasDiff {
		want, _ := model.Canonical(s.run.TypedDiff(ev))
		got, _ := model.Canonical(cl.Diff)
		if string(want) != string(got) {
			base.Component, base.Expected, base.Got = "diff", string(want), string(got)
			base.Detail = fmt.Sprintf("step %d claims a diff that replay does not produce", ev.Step+1)
			return reject(model.ReplayMismatch, base)
		}
	}
	return nil
}

// finish ends the replay and decides; tr gives the header (task, goal
// claim), its steps are those added.
func (s *stream) finish(tr *model.Trajectory) (*Result, *model.Rejection) {
	log := s.run.Finish()
	s.log = log
	if s.watch != nil {
		for j := range log.Events {
			s.watch(s.run, &log.Events[j])
		}
	}
	env := log.Env
	if tr.Task != env.Task.ID {
		return nil, reject(model.MalformedSchema, model.Evidence{Component: "task", Expected: env.Task.ID, Got: tr.Task,
			Detail: fmt.Sprintf("trajectory is for task %q, not %q", tr.Task, env.Task.ID)})
	}
	for _, rej := range []*model.Rejection{s.illegal, s.number, s.claim} {
		if rej != nil {
			return nil, rej
		}
	}
	if tr.GoalClaim != "" && tr.GoalClaim != log.Goal().Version {
		return nil, reject(model.ReplayMismatch, model.Evidence{Component: "goal_version", Expected: log.Goal().Version, Got: tr.GoalClaim,
			Detail: fmt.Sprintf("trajectory claims to end on goal version %s; replay ends on %s", tr.GoalClaim, log.Goal().Version)})
	}
	return &Result{Cert: certificate(log), Log: log}, nil
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
		Steps: log.Steps, Events: log.Len(), FinalHash: log.FinalHash().String(), LogHash: log.LogHash()}
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
