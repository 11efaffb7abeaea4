package airline

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
	tau2.Register(tau2.Domain{Name: DomainName, Tau2Name: "airline", Title: "tau2-bench airline", Prefix: "T2A",
		Rows: taskRows, RowsFile: "domains/tau2/airline/taskrows.json",
		Counts: domains.Counts{Tasks: 50, Runs: 220},
		World: func() (tau2.World, error) {
			db, err := Load()
			if err != nil {
				return nil, err
			}
			return NewWorld(db), nil
		},
		Attack: func(t *tau2.Derived, h *model.Trajectory, final model.StateView) *model.Task {
			db, _ := Load() // loaded once already: the world was made before any task
			return NewDomain(db).AttackTask(t, h, final)
		}})
}
