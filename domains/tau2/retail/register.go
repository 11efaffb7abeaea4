package retail

import (
	_ "embed"

	"github.com/parthack/parthack/domains"
	"github.com/parthack/parthack/domains/tau2"
	"github.com/parthack/parthack/model"
)

// taskRows are the rows of the tasks (domains.Lister), as domains/all's
// TestTaskRows writes them.
//
//go:embed taskrows.json
var taskRows []byte

func init() {
	tau2.Register(tau2.Domain{Name: DomainName, Tau2Name: "retail", Title: "tau2-bench retail", Prefix: "T2R",
		Rows: taskRows, RowsFile: "domains/tau2/retail/taskrows.json",
		Counts: domains.Counts{Tasks: 114, Runs: 154},
		World: func() (tau2.World, error) {
			db, err := Shipped()
			if err != nil {
				return nil, err
			}
			return NewDomain(db), nil
		},
		Attack: func(t *tau2.Derived, h *model.Trajectory, final model.StateView) *model.Task {
			db, _ := Shipped() // loaded once already: the world was made before any task
			return NewDomain(db).AttackTask(t, h, final)
		},
		// A failed run of GPT-4.1 whose partial-action credit a witness
		// ending in exactly its state inflates.
		Showcase: &domains.Showcase{Task: "T2R-101", Run: "gpt-4.1-trial0", Target: "tau2_partial_action", Edits: 2}})
}
