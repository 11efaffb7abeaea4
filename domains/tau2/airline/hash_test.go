package airline

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"testing"

	"github.com/parthack/parthack/model"
)

// TestReplayMatchesPython holds the port to tau2's own Python replaying
// the shipped airline runs on the same database
// (testdata/python_hashes.py): every call's tool message (by its sha256)
// and the DB hash (get_db_hash) of the initial database and of every
// run's end state.
func TestReplayMatchesPython(t *testing.T) {
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
	var outputs map[string][][]string
	if b, err = os.ReadFile("testdata/python-outputs.json"); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &outputs); err != nil {
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
	runs, calls := 0, 0
	for _, r := range shippedRuns(t) {
		if len(want.Runs[r.File]) != len(r.Simulations) {
			t.Fatalf("%s: %d hashes in testdata for %d runs", r.File, len(want.Runs[r.File]), len(r.Simulations))
		}
		for i, sim := range r.Simulations {
			rp, err := c.Replay(r, sim)
			if err != nil {
				t.Fatal(err)
			}
			if len(rp.Outputs) != len(outputs[r.File][i]) {
				t.Fatalf("%s: simulation %d: %d calls, testdata has %d", r.File, i, len(rp.Outputs), len(outputs[r.File][i]))
			}
			for k, out := range rp.Outputs {
				sum := sha256.Sum256([]byte(out))
				if got := hex.EncodeToString(sum[:8]); got != outputs[r.File][i][k] {
					t.Errorf("%s: simulation %d, call %d: the port's result %.200q is not tau2's", r.File, i, k+1, out)
				}
				calls++
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
	if runs != 220 || calls != 2224 {
		t.Errorf("compared %d runs and %d calls, the five files hold 220 and 2,224", runs, calls)
	}
}
