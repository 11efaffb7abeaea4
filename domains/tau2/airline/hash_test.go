package airline

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/parthack/parthack/model"
)

// TestHashMatchesPython holds the port's DB hash to tau2's own
// get_db_hash, computed by tau2's Python on the same database
// (testdata/python_hashes.py): of the initial database, and of the end
// state of every shipped airline run replayed on it.
func TestHashMatchesPython(t *testing.T) {
	var want struct {
		Initial string              `json:"initial"`
		Runs    map[string][]string `json:"runs"`
	}
	b, err := os.ReadFile("testdata/python-hashes.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	db, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if got := db.Hash(db.Start(), nil); got != want.Initial {
		t.Errorf("initial database: hash %s, tau2's Python %s", got, want.Initial)
	}
	c := checker(t)
	runs := 0
	for _, r := range shippedRuns(t) {
		if len(want.Runs[r.File]) != len(r.Simulations) {
			t.Fatalf("%s: %d hashes in testdata for %d runs", r.File, len(want.Runs[r.File]), len(r.Simulations))
		}
		for i, sim := range r.Simulations {
			rp, err := c.Replay(r, sim)
			if err != nil {
				t.Fatal(err)
			}
			var changed []model.CellDiff
			for j := range rp.Log.Events {
				changed = append(changed, rp.Log.TypedDiff(&rp.Log.Events[j])...)
			}
			if got := db.Hash(rp.Log.View(), changed); got != want.Runs[r.File][i] {
				t.Errorf("%s: simulation %d: end state hash %s, tau2's Python %s", r.File, i, got, want.Runs[r.File][i])
			}
			runs++
		}
	}
	if runs != 220 {
		t.Errorf("compared %d runs, the five files hold 220", runs)
	}
}
