package tauair

import (
	"fmt"

	"github.com/parthack/parthack/model"
)

// BaseTask is the airline world as a task with no goal yet: the schema,
// the database as the initial snapshot, and every tool allowlisted. Tasks
// derived from the gold runs add their goals to a copy.
func BaseTask(db *DB) *model.Task {
	return &model.Task{
		ID:        "TAU-AIRLINE",
		Title:     "tau-bench airline",
		Schema:    schema,
		Initial:   db.Entities,
		Allowlist: model.Allowlist{Ops: []model.Op{model.OpCall}, Tools: ToolNames(), Fields: map[string][]string{}},
		Goals:     []model.GoalVersion{{Version: "v1"}},
		Domain:    NewDomain(db),
	}
}

// StepOf turns a recorded call into an agent step.
func StepOf(c *Call, index int) (model.Step, error) {
	args, err := model.FromJSON(c.Kwargs)
	if err != nil {
		return model.Step{}, fmt.Errorf("call %d (%s): arguments: %w", index+1, c.Name, err)
	}
	if args.Kind() != model.JSONValue || args.AsString()[0] != '{' {
		return model.Step{}, fmt.Errorf("call %d (%s): arguments are not a JSON object", index+1, c.Name)
	}
	return model.Step{Index: index, Action: model.Action{Op: model.OpCall, Tool: c.Name, Args: args}}, nil
}
