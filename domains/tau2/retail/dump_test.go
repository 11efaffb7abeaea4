package retail

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/parthack/parthack/domains/tau2"
)

// TestDump writes the port's replay of the shipped retail runs as JSON
// for scripts/tau2-differential.sh, when TAU2_DUMP names the file: per
// run, the task it was scored against, each call's result string and
// the DB hashes of its end state and of its task's gold end state.
func TestDump(t *testing.T) {
	path := os.Getenv("TAU2_DUMP")
	if path == "" {
		t.Skip("TAU2_DUMP is not set (scripts/tau2-differential.sh sets it)")
	}
	type run struct {
		ID       string   `json:"id"`
		Task     string   `json:"task"`
		Outputs  []string `json:"outputs"`
		Hash     string   `json:"hash"`
		GoldHash string   `json:"gold_hash"`
	}
	c := checker(t)
	c.Hashes = true
	out := map[string][]run{}
	for _, name := range tau2.RunFiles("retail") {
		src, _ := tau2.RunFile(name)
		r, err := tau2.Decode(name, src)
		if err != nil {
			t.Fatal(err)
		}
		for _, sim := range r.Simulations {
			rp, err := c.Replay(r, sim)
			if err != nil {
				t.Fatal(err)
			}
			out[name] = append(out[name], run{sim.ID, rp.Task.Source.ID, rp.Outputs, rp.Score.Hash, rp.Score.GoldHash})
		}
	}
	b, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
