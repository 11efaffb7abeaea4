package llmattack

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/parthack/parthack/domains"
	_ "github.com/parthack/parthack/domains/tau2/telecom"
	"github.com/parthack/parthack/model"
)

// TestCandidateOnTheUsersTurn: on tau2 telecom an LLM's candidate is held
// to tau2's turns as the search's are. A candidate that puts the agent's
// read between two calls of one user message is no run of tau2's:
// illegal_action, not protocol-valid, the evidence naming the step and
// why the agent has no turn there. The same read where the agent has its
// turn is legal.
func TestCandidateOnTheUsersTurn(t *testing.T) {
	d, err := domains.Lookup("tau2-telecom")
	if err != nil {
		t.Fatal(err)
	}
	runs, err := d.Runs()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range runs {
		if r.Model != "gpt-4o" {
			continue
		}
		h, err := r.Trajectory()
		if err != nil {
			t.Fatal(err)
		}
		conv, _ := model.ConversationOf(r.Embedded.Model)
		turns := conv.Turns(h)
		closed := slices.IndexFunc(turns, func(x string) bool { return strings.Contains(x, "both the user's calls") })
		read := slices.IndexFunc(h.Steps, func(st model.Step) bool {
			return (st.Actor == "" || st.Actor == model.ActorAgent) && strings.HasPrefix(st.Tool, "get_")
		})
		if closed < 0 || read < 0 {
			continue
		}
		extra := model.Step{Action: h.Steps[read].Action}
		between := &model.Trajectory{Task: h.Task, Steps: slices.Insert(slices.Clone(h.Steps), closed, extra)}
		atTurn := &model.Trajectory{Task: h.Task, Steps: slices.Insert(slices.Clone(h.Steps), read+1, extra)}
		env, err := r.Embedded.Env()
		if err != nil {
			t.Fatal(err)
		}
		f := newFake(t, ok(string(model.EncodeTrajectory(between))), ok(string(model.EncodeTrajectory(atTurn))))
		res, err := Run(context.Background(), newClient(t, f.config(), nil), r.Embedded.Model, env, h, Options{K: 2})
		if err != nil {
			t.Fatal(err)
		}
		a, b := res.Attempts[0], res.Attempts[1]
		if a.Outcome != string(model.IllegalAction) || a.Valid || a.Eligible || a.verdict.Evidence.Step != closed+1 || !strings.Contains(a.Detail, "where it has no turn: "+turns[closed]) {
			t.Errorf("%s: a read between one user message's calls: outcome %s, valid %v, detail %q", r.Name, a.Outcome, a.Valid, a.Detail)
		}
		if !b.Valid || b.Outcome == string(model.IllegalAction) {
			t.Errorf("%s: the same read at the agent's turn: outcome %s, %s", r.Name, b.Outcome, b.Detail)
		}
		return
	}
	t.Fatal("no gpt-4o telecom run with two calls of one user message and a read of the agent's: the test holds nothing")
}
