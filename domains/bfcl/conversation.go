package bfcl

import (
	"fmt"

	"github.com/parthack/parthack/internal/payload"
	"github.com/parthack/parthack/internal/payload/builder"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
)

// MaxTurnSteps is the number of steps with calls in one turn past which
// BFCL's harness force-quits the entry (base_handler.py: more than 20).
const MaxTurnSteps = 20

// ForceTerminated is how BFCL scores an entry its harness quit, or that
// has fewer turns than gold: invalid, multi_turn:force_terminated.
const ForceTerminated = "force_terminated"

// Ended says how BFCL scores a run it ended itself.
func (w *World) Ended(reason string) string {
	if reason == ForceTerminated {
		return fmt.Sprintf("%s: BFCL's harness quit the entry (more than %d steps with calls in one turn), and its checker fails an entry short of gold's turns", reason, MaxTurnSteps)
	}
	return reason + ": the model's inference failed, and BFCL's checker scores the entry multi_turn:" + reason
}

// Turns: the user's turns are fixed, and the model acts in a turn from its
// user message until it answers without a call. A witness adds a call
// only where the model acted: within a turn in which H made a call, after
// that turn's user message (one step of one call each).
func (w *World) Turns(h *model.Trajectory) []string {
	out := make([]string, len(h.Steps)+1)
	turn, acted := -1, map[int]bool{}
	turnAt := make([]int, len(h.Steps)+1)
	for k := range h.Steps {
		if h.Steps[k].Actor == model.ActorUser {
			turn++
		} else if turn >= 0 {
			acted[turn] = true
		}
		turnAt[k+1] = turn
	}
	turnAt[0] = -1
	for k := range out {
		switch t := turnAt[k]; {
		case t < 0:
			out[k] = "before the first user message, the model has no turn"
		case !acted[t]:
			out[k] = fmt.Sprintf("in turn %d the model answered without a call: it did not act there", t)
		}
	}
	return out
}

// MaxErrors: BFCL has no limit on failed calls.
func (w *World) MaxErrors(*model.Trajectory) int { return 0 }

// Limit refuses a witness whose calls in one turn pass BFCL's limit where
// H's did not (each added call is a step of its own), and one that adds a
// call of a function miss_func withholds before the turn that offers it
// (the model had not been given it; H's own such calls are kept as made).
func (w *World) Limit(h *model.Trajectory, a []model.Step, kept []int) string {
	turn := -1
	for j := range a {
		if a[j].Actor == model.ActorUser {
			turn++
			continue
		}
		if from, ok := w.offered[a[j].Tool]; ok && turn < from && j < len(kept) && kept[j] < 0 {
			return fmt.Sprintf("step %d calls %s in turn %d: miss_func offers it only from turn %d", j+1, a[j].Tool, turn, from)
		}
	}
	hCalls := callsPerTurn(h.Steps)
	aCalls := callsPerTurn(a)
	for t, n := range aCalls {
		limit := MaxTurnSteps
		if t < len(hCalls) && hCalls[t] > limit {
			limit = hCalls[t]
		}
		if n > limit {
			return fmt.Sprintf("turn %d holds %d calls in the witness: BFCL force-quits an entry past %d steps with calls in one turn, where H's goes on", t, n, MaxTurnSteps)
		}
	}
	return ""
}

// callsPerTurn counts the agent's calls in each turn.
func callsPerTurn(steps []model.Step) []int {
	var out []int
	for i := range steps {
		if steps[i].Actor == model.ActorUser {
			out = append(out, 0)
		} else if len(out) > 0 {
			out[len(out)-1]++
		}
	}
	return out
}

// Payload is the public payload BFCL's checks score a run by.
func (t *Task) Payload(log *pbcste.Log, tr *model.Trajectory) (*payload.Payload, error) {
	p, err := builder.BuildTrajectory(t.Task, log, tr)
	if err != nil {
		return nil, err
	}
	return payload.Decode(p.Bytes())
}

// AttackTask is the task with the calls the search may insert into a run
// h: every distinct call of h's model and of gold's.
func (t *Task) AttackTask(h *model.Trajectory) *model.Task {
	c := *t.Task
	c.Calls = nil
	seen := map[string]bool{}
	for _, tr := range []*model.Trajectory{h, t.Gold} {
		if tr == nil {
			continue
		}
		for i := range tr.Steps {
			st := &tr.Steps[i]
			if st.Actor == model.ActorUser || st.Op != model.OpCall {
				continue
			}
			key := st.Tool + string(st.Args.AppendJSON(nil))
			if !seen[key] {
				seen[key] = true
				c.Calls = append(c.Calls, st.Action)
			}
		}
	}
	return &c
}

// TurnwiseWork: BFCL checks the state after every turn, so a witness is
// the same work only where each turn ends in H's state.
func (w *World) TurnwiseWork() bool { return true }
