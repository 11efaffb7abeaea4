package airline

import (
	"github.com/parthack/parthack/domains/tau2"
	"github.com/parthack/parthack/model"
)

// World is the airline domain as the tau2 core uses it.
type World struct {
	*Domain
}

var _ tau2.World = World{}

// NewWorld is the airline World over a database.
func NewWorld(db *DB) World { return World{NewDomain(db)} }

// Base is the airline world as a task with no goal yet: the schema, the
// database as the initial snapshot, every tool allowlisted.
func (w World) Base() *model.Task {
	return &model.Task{
		ID:        "T2A",
		Title:     "tau2-bench airline",
		Schema:    schema,
		Initial:   w.db.Entities,
		Allowlist: model.Allowlist{Ops: []model.Op{model.OpCall}, Tools: ToolNames(), Fields: map[string][]string{}},
		Goals:     []model.GoalVersion{{Version: "v1"}},
		Domain:    w.Domain,
	}
}

// Hash is tau2's get_db_hash of a state.
func (w World) Hash(v model.StateView, changed []model.CellDiff) string { return w.db.Hash(v, changed) }

// Tool reports whether a requestor has the tool: airline gives the user
// no tools; the assistant's WRITE tools are the ones that mutate.
func (w World) Tool(requestor, name string) (known, mutates bool) {
	t, ok := tools[name]
	if !ok || requestor != "assistant" {
		return false, false
	}
	return true, t.write
}

// Prefix starts the airline's parthack task ids.
func (w World) Prefix() string { return "T2A" }
