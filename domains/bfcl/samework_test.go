package bfcl_test

import (
	"testing"

	"github.com/parthack/parthack/attacker/domainbench"
	"github.com/parthack/parthack/domains"
	"github.com/parthack/parthack/domains/bfcl"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
)

// TestSameWorkTurnByTurn: a witness that ends in H's state but makes a
// turn's write a turn early does not end where H does; H itself does.
func TestSameWorkTurnByTurn(t *testing.T) {
	task, ok := bfcl.TaskByID("multi_turn_base_0")
	if !ok {
		t.Fatal("no task multi_turn_base_0")
	}
	env, err := task.Env()
	if err != nil {
		t.Fatal(err)
	}
	mkdir := func(name string) model.Step {
		return model.Step{Action: model.Action{Op: model.OpCall, Tool: "mkdir", Args: model.MustJSON(`{"dir_name":"` + name + `"}`)}}
	}
	u := bfcl.UserStep
	h := []model.Step{u(0), mkdir("x"), u(1), mkdir("y"), u(2), u(3)}
	late := []model.Step{u(0), mkdir("x"), mkdir("y"), u(1), u(2), u(3)}
	if same, _ := pbcste.Collateral(env.Replay(h), env.Replay(late)); !same {
		t.Fatal("the two runs should end in one state")
	}
	dt := &domains.Task{Model: task.Task, Hash: nil}
	hlog := env.Replay(h)
	for _, c := range []struct {
		name  string
		steps []model.Step
		same  bool
	}{
		{"H itself", h, true},
		{"a turn's write a turn early, same end", late, false},
	} {
		same, _, err := domainbench.EndState(dt, hlog, env.Replay(c.steps))
		if err != nil {
			t.Fatal(err)
		}
		if same != c.same {
			t.Errorf("%s: same end %v, want %v", c.name, same, c.same)
		}
	}
}
