package all_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/parthack/parthack/domains"
	"github.com/parthack/parthack/model"
)

// TestEvaluatorInput: what a benchmark's own evaluator reads of a run,
// H as its own witness and H less one of the agent's calls, in the shape
// of the benchmark's run format: the task and the run, every call of the
// trajectory and no other, and none of H's scores.
func TestEvaluatorInput(t *testing.T) {
	for _, d := range domains.All() {
		runs, err := d.Runs()
		if err != nil {
			t.Fatal(err)
		}
		if len(runs) == 0 {
			continue // a domain that ships no run (BFCL's carry no licence)
		}
		checked := 0
		for _, r := range runs {
			if r.EvaluatorInput == nil || checked == 5 {
				continue
			}
			h, err := r.Trajectory()
			if err != nil {
				t.Fatal(err)
			}
			skip := slices.IndexFunc(h.Steps, func(s model.Step) bool { return s.Actor == "" || s.Actor == model.ActorAgent })
			if skip < 0 {
				continue
			}
			checked++
			less := &model.Trajectory{Task: h.Task, Steps: slices.Delete(slices.Clone(h.Steps), skip, skip+1)}
			for i := range less.Steps {
				less.Steps[i].Index = i
			}
			for _, a := range []*model.Trajectory{h, less} {
				b, err := r.EvaluatorInput(a)
				if err != nil {
					t.Fatalf("%s: %v", r.Name, err)
				}
				if got := callsIn(t, d.Format(), b, r.Name); got != len(a.Steps) {
					t.Errorf("%s: %d calls in the evaluator's input, the trajectory has %d", r.Name, got, len(a.Steps))
				}
			}
		}
		if checked == 0 {
			t.Errorf("%s: no run gives an evaluator's input", d.Name())
		}
	}
}

// callsIn checks an evaluator's input's shape and counts its calls.
func callsIn(t *testing.T, format string, b []byte, run string) int {
	t.Helper()
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("%s: %v", run, err)
	}
	type call struct{}
	type message struct {
		Role      string `json:"role"`
		ToolCalls []call `json:"tool_calls"`
	}
	var msgs []message
	switch format {
	case "tau2":
		var task struct {
			ID       string          `json:"id"`
			Criteria json.RawMessage `json:"evaluation_criteria"`
		}
		var sim map[string]json.RawMessage
		if len(doc) != 2 || json.Unmarshal(doc["task"], &task) != nil || json.Unmarshal(doc["simulation"], &sim) != nil {
			t.Fatalf("%s: not {task, simulation}: %.300s", run, b)
		}
		for _, k := range []string{"id", "task_id", "start_time", "end_time", "duration", "termination_reason", "messages"} {
			if _, ok := sim[k]; !ok {
				t.Errorf("%s: the simulation has no %s (tau2's SimulationRun requires it)", run, k)
			}
		}
		if string(sim["reward_info"]) != "null" || sim["agent_cost"] != nil || string(sim["task_id"]) != `"`+task.ID+`"` || task.Criteria == nil {
			t.Errorf("%s: reward_info %s, agent_cost %s, task_id %s for task %s, criteria %s", run, sim["reward_info"], sim["agent_cost"], sim["task_id"], task.ID, task.Criteria)
		}
		json.Unmarshal(sim["messages"], &msgs)
	case "tau-bench":
		var task map[string]json.RawMessage
		if len(doc) != 2 || json.Unmarshal(doc["task"], &task) != nil || json.Unmarshal(doc["traj"], &msgs) != nil {
			t.Fatalf("%s: not {task, traj}: %.300s", run, b)
		}
		for _, k := range []string{"user_id", "actions", "instruction", "outputs"} {
			if _, ok := task[k]; !ok {
				t.Errorf("%s: the task has no %s", run, k)
			}
		}
	default:
		t.Fatalf("%s: format %s", run, format)
	}
	n := 0
	for _, m := range msgs {
		n += len(m.ToolCalls)
	}
	return n
}
