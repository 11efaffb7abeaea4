package bfcl

import (
	"testing"

	"github.com/parthack/parthack/certifier"
)

// TestGoldPasses derives every entry's task and holds gold to it: gold's
// trajectory certifies, reaches every turn's goal, and BFCL's checker
// (bfcl_valid, from the payload) passes it.
func TestGoldPasses(t *testing.T) {
	es, err := Entries()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range es {
		task, err := Derive(e)
		if err != nil {
			t.Errorf("%s: %v", e.ID, err)
			continue
		}
		env, err := task.Env()
		if err != nil {
			t.Fatalf("%s: %v", e.ID, err)
		}
		log := env.Replay(task.Gold.Steps)
		if _, rej, err := certifier.DoubleCertify(env, task.Gold); err != nil || rej != nil {
			t.Errorf("%s: gold not certified: %v %v", e.ID, rej, err)
			continue
		}
		p, err := task.Payload(log, task.Gold)
		if err != nil {
			t.Errorf("%s: payload: %v", e.ID, err)
			continue
		}
		v, ok := PayloadVerdict(p)
		if !ok || !v.Valid {
			t.Errorf("%s: gold's verdict %+v", e.ID, v)
		}
	}
}
