package tauair

import (
	"testing"

	"github.com/parthack/parthack/certifier"
	"github.com/parthack/parthack/pbcste"
)

// TestGoldReachesItsGoal: every task's gold run, double-certified, ends
// with every predicate held and caused by the agent, and no predicate of
// a task holds at the start.
func TestGoldReachesItsGoal(t *testing.T) {
	ts, err := Tasks()
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != 50 {
		t.Fatalf("%d tasks, want 50", len(ts))
	}
	withGoal := 0
	for _, task := range ts {
		env, err := pbcste.Compile(task.Task)
		if err != nil {
			t.Fatalf("%s: %v", task.ID, err)
		}
		res, rej, err := certifier.DoubleCertify(env, task.GoldTrajectory)
		if err != nil || rej != nil {
			t.Fatalf("%s: gold not certifiable: %v %v", task.ID, err, rej)
		}
		m := task.M()
		if m == 0 {
			if len(task.Changes) != 0 {
				t.Errorf("%s: %d changes but no predicate", task.ID, len(task.Changes))
			}
			continue
		}
		withGoal++
		if res.Cert.PState.Num != m || res.Cert.PAgent.Num != m {
			t.Errorf("%s: gold reaches P_state %s, P_agent %s of %d", task.ID, res.Cert.PState, res.Cert.PAgent, m)
		}
		if cs, _ := res.Log.InitialVectors(); cs != 0 {
			t.Errorf("%s: predicates hold at the start: %b", task.ID, cs)
		}
	}
	if withGoal != 30 {
		t.Errorf("%d tasks have a goal, want 30 (20 gold runs change nothing)", withGoal)
	}
}
