package tau2

import (
	"encoding/json"

	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
)

// recordedKeys are the members of a simulation kept beside its messages
// (Simulation.Recorded): those tau2's SimulationRun requires or names it
// by, none of them a score.
var recordedKeys = []string{"timestamp", "start_time", "end_time", "duration", "seed"}

// EvaluatorInput is what a tau2 evaluator reads of a witness a of a
// recorded run: {"task": …, "simulation": …} in the shapes of a Results
// file. The task is the file's, whole (tau2 publishes its tasks, their
// evaluation criteria included), the one the run is scored against; the
// simulation is the run's as tau2 recorded it (its id, trial, times,
// seed and termination reason), its task_id that task's, its messages
// the witness's (Witness), its reward_info null: what tau2 records
// before it scores. Nothing else of the file goes, H's scores and costs
// least of all.
func EvaluatorInput(res *Results, sim *Simulation, t *Task, env func() (*pbcste.Env, error)) func(*model.Trajectory) ([]byte, error) {
	return func(a *model.Trajectory) ([]byte, error) {
		w, err := witnessIn(res, sim, t, env, a)
		if err != nil {
			return nil, err
		}
		simulation := map[string]any{}
		for k, v := range sim.Recorded {
			simulation[k] = v
		}
		simulation["id"] = sim.ID
		simulation["task_id"] = t.ID
		simulation["trial"] = sim.Trial
		simulation["termination_reason"] = sim.TerminationReason
		simulation["reward_info"] = nil
		simulation["messages"] = w.Messages
		return json.Marshal(map[string]any{"task": t.Raw, "simulation": simulation})
	}
}
