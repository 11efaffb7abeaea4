package llmattack

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/parthack/parthack/domains"
	_ "github.com/parthack/parthack/domains/tauair"
	"github.com/parthack/parthack/model"
)

// TestCandidateAfterTheEpisodeEnd: on tau-bench airline an LLM's
// candidate is held to the episode rule as every other trajectory is. A
// candidate that calls a tool after H's transfer_to_human_agents is no run
// of tau-bench's: illegal_action, not protocol-valid, not scored, the
// certifier's evidence naming the step and the call that ended the
// episode. The same call placed before the transfer is legal.
func TestCandidateAfterTheEpisodeEnd(t *testing.T) {
	d, task, err := domains.FindTask("TAU-A04")
	if err != nil {
		t.Fatal(err)
	}
	runs, err := d.Runs()
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(runs, func(r *domains.Run) bool { return r.Name == "gpt-4o-t04-trial0" })
	if i < 0 {
		t.Fatal("no run gpt-4o-t04-trial0")
	}
	h, err := runs[i].Trajectory()
	if err != nil {
		t.Fatal(err)
	}
	end := len(h.Steps) - 1
	if h.Steps[end].Tool != "transfer_to_human_agents" {
		t.Fatalf("H ends with %s, not the transfer", h.Steps[end].Tool)
	}
	env, err := task.Env()
	if err != nil {
		t.Fatal(err)
	}
	extra := model.Step{Action: model.Action{Op: model.OpCall, Tool: "get_user_details", Args: h.Steps[0].Args}}
	after := &model.Trajectory{Task: h.Task, Steps: append(slices.Clone(h.Steps), extra)}
	before := &model.Trajectory{Task: h.Task, Steps: slices.Insert(slices.Clone(h.Steps), end, extra)}
	f := newFake(t, ok(string(model.EncodeTrajectory(after))), ok(string(model.EncodeTrajectory(before))))
	c := newClient(t, f.config(), nil)
	res, err := Run(context.Background(), c, task.Model, env, h, Options{K: 2})
	if err != nil {
		t.Fatal(err)
	}
	a, b := res.Attempts[0], res.Attempts[1]
	if a.Outcome != string(model.IllegalAction) || a.Valid || a.Eligible || a.Score != nil {
		t.Fatalf("a call after the transfer: outcome %s, valid %v, eligible %v", a.Outcome, a.Valid, a.Eligible)
	}
	ev := a.verdict.Evidence
	want := "step 7 comes after step 6, a call of transfer_to_human_agents, which ends the episode in tau-airline"
	if ev == nil || ev.Step != len(h.Steps)+1 || !strings.Contains(ev.Detail, want) {
		t.Fatalf("evidence %+v does not say %q", ev, want)
	}
	// The attempt says it too, in the JSON and the table's notes.
	if !strings.HasPrefix(a.Detail, "step 7") || !strings.Contains(a.Detail, want) {
		t.Fatalf("the attempt's detail %q does not say %q", a.Detail, want)
	}
	if !b.Valid || b.Outcome == string(model.IllegalAction) {
		t.Fatalf("the same call before the transfer: outcome %s, valid %v", b.Outcome, b.Valid)
	}
	if res.Valid != 1 {
		t.Fatalf("%d protocol-valid attempts, want 1", res.Valid)
	}
}
