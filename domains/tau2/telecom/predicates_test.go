package telecom

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/parthack/parthack/domains/tau2"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
)

// shippedTasks are tau2's 114 telecom tasks (data/telecom/tasks.json.gz).
func shippedTasks(t *testing.T) []*tau2.Task {
	t.Helper()
	src, err := tau2.Data("telecom/tasks.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	wrapped := fmt.Sprintf(`{"info": {}, "tasks": %s, "simulations": []}`, src)
	r, err := tau2.Decode("tasks.json", []byte(wrapped))
	if err != nil {
		t.Fatal(err)
	}
	return r.Tasks
}

// replayEnd replays steps (with their actors) on a task and returns the
// end state and its goal vector.
func replayEnd(t *testing.T, task *model.Task, steps []model.Step) (model.StateView, uint64, *pbcste.Log) {
	t.Helper()
	env, err := pbcste.Compile(task)
	if err != nil {
		t.Fatal(err)
	}
	log := env.Replay(steps)
	v, _ := log.InitialVectors()
	if n := len(log.Events); n > 0 {
		v = log.Events[n-1].CState
	}
	return log.View(), v, log
}

// agree holds a state's goal vector to the assertions computed.
func agree(t *testing.T, what string, task *Task, v model.StateView, cstate uint64) {
	t.Helper()
	met, err := task.Assert(v)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	for j, m := range met {
		if got := cstate&(1<<uint(j)) != 0; got != m {
			t.Errorf("%s: predicate %s is %v, the assertion %s is %v", what, task.Task.Goals[0].Predicates[j].ID, got, task.Checks[j], m)
		}
	}
}

// TestPredicatesAreAssertions holds every task's goal predicates to its
// env assertions as tau2 computes them, on its initialized state, after
// its gold calls, and at the end of every shipped run.
func TestPredicatesAreAssertions(t *testing.T) {
	db, err := Shipped()
	if err != nil {
		t.Fatal(err)
	}
	tasks := shippedTasks(t)
	if len(tasks) != 114 {
		t.Fatalf("%d tasks, want 114", len(tasks))
	}
	for _, solo := range []bool{false, true} {
		d := NewDomain(db, solo)
		for _, tt := range tasks {
			task, err := Derive(d, tt)
			if err != nil {
				t.Fatal(err)
			}
			if len(task.Task.Goals[0].Predicates) != len(task.Checks) || len(task.Checks) == 0 {
				t.Fatalf("%s: %d predicates for %d assertions", task.ID, len(task.Task.Goals[0].Predicates), len(task.Checks))
			}
			v, cs, _ := replayEnd(t, task.Task, nil)
			agree(t, task.ID+" initial", task, v, cs)
			steps := task.Gold.Steps
			if solo {
				steps = nil
				for _, st := range task.Gold.Steps {
					st.Actor = model.ActorAgent
					steps = append(steps, st)
				}
			}
			v, cs, log := replayEnd(t, task.Task, steps)
			agree(t, task.ID+" gold", task, v, cs)
			for i := range log.Events {
				if !log.Events[i].OK {
					t.Errorf("%s: gold call %d fails: %s", task.ID, i+1, log.Reason(&log.Events[i]))
				}
			}
		}
	}
	n := 0
	for _, r := range files(t) {
		c := checker(t, r)
		for _, sim := range r.Simulations {
			run, err := c.Replay(r, sim)
			if err != nil {
				t.Fatal(err)
			}
			v, _ := run.Log.InitialVectors()
			if k := len(run.Log.Events); k > 0 {
				v = run.Log.Events[k-1].CState
			}
			agree(t, r.File+" "+sim.ID, run.Task, run.Log.View(), v)
			n++
		}
	}
	if n != 100 {
		t.Errorf("%d runs, want 100", n)
	}
}

// TestGoldMeetsAssertions: tau2's gold calls, made by their requestors
// from the initialized state, meet every env assertion of all 114 tasks.
func TestGoldMeetsAssertions(t *testing.T) {
	db, err := Shipped()
	if err != nil {
		t.Fatal(err)
	}
	d := NewDomain(db, false)
	for _, tt := range shippedTasks(t) {
		task, err := Derive(d, tt)
		if err != nil {
			t.Fatal(err)
		}
		v, _, _ := replayEnd(t, task.Task, task.Gold.Steps)
		met, err := task.Assert(v)
		if err != nil {
			t.Fatal(err)
		}
		for j, m := range met {
			if !m {
				t.Errorf("%s: gold leaves %s unmet", task.ID, task.Checks[j])
			}
		}
	}
}

// TestDeriveErrors: a task the port cannot set up is refused, naming it.
func TestDeriveErrors(t *testing.T) {
	db, err := Shipped()
	if err != nil {
		t.Fatal(err)
	}
	d := NewDomain(db, false)
	for _, tc := range []struct{ init, want string }{
		{`{"initialization_actions": [{"env_type": "user", "func_name": "no_such", "arguments": {}}]}`,
			`tau2 telecom task x: initial_state.initialization_actions[0]: func_name "no_such": telecom's user side has no such function`},
		{`{"initialization_actions": [{"env_type": "robot", "func_name": "toggle_data", "arguments": {}}]}`,
			`tau2 telecom task x: initial_state.initialization_actions[0]: env_type "robot": expected "assistant" or "user"`},
		{`{"initialization_actions": [{"env_type": "assistant", "func_name": "enable_roaming", "arguments": {"customer_id": "C9", "line_id": "L1"}}]}`,
			`tau2 telecom task x: initialization_actions[0] (assistant enable_roaming): Customer with ID C9 not found`},
		{`{"initialization_actions": [{"env_type": "user", "func_name": "set_user_location", "arguments": {}}]}`,
			`tau2 telecom task x: initialization_actions[0] (user set_user_location): TelecomUserTools.set_user_location() missing 1 required positional argument: 'abroad'`},
		{`{"initialization_data": {"agent_data": {}}}`,
			`tau2 telecom task x: initial_state.initialization_data is set; no telecom task of tau2 uses it and the port does not apply it`},
	} {
		_, err := Derive(d, &tau2.Task{ID: "x", InitialState: json.RawMessage(tc.init)})
		if err == nil || err.Error() != tc.want {
			t.Errorf("init %s:\n got %v\nwant %s", tc.init, err, tc.want)
		}
	}
}
