package telecom

import (
	"fmt"
	"testing"

	"github.com/parthack/parthack/model"
)

// TestAttribution reads who made the goal progress of every shipped run:
// with a user, the phone's fixes are the user's, so strict c_agent is
// far below c_state; solo, the agent made all that the set-up did not.
func TestAttribution(t *testing.T) {
	want := map[string]string{ // mean P_state, P_agent, P_user, initial, P_directed
		"telecom-gpt-4.1.json.gz":         "0.562 0.079 0.208 0.275 0.287",
		"telecom-gpt-4o.json.gz":          "0.775 0.000 0.550 0.225 0.550",
		"telecom-no-user-gpt-4.1.json.gz": "0.733 0.433 0.000 0.300 0.433",
	}
	for _, r := range files(t) {
		c := checker(t, r)
		var state, agent, user, initial, directed float64
		userCalls, directedCalls := 0, 0
		for _, sim := range r.Simulations {
			run, err := c.Replay(r, sim)
			if err != nil {
				t.Fatal(err)
			}
			a := Attribute(run.Log, run.Directed)
			state += P(a.State)
			agent += P(a.Agent)
			user += P(a.User)
			initial += P(a.Initial)
			directed += P(a.Directed)
			for i, st := range run.Traj.Steps {
				if st.Actor == model.ActorUser {
					userCalls++
					if run.Directed[i] {
						directedCalls++
					}
				}
			}
			for j := range a.State {
				n := 0
				for _, b := range []bool{a.Agent[j], a.User[j], a.Initial[j]} {
					if b {
						n++
					}
				}
				if a.State[j] != (n == 1) || n > 1 || a.Directed[j] && !a.State[j] || a.Agent[j] && !a.Directed[j] {
					t.Fatalf("%s: predicate %d: inconsistent attribution %+v", sim.ID, j, a)
				}
			}
		}
		n := float64(len(r.Simulations))
		t.Logf("%s: mean P_state %.3f = P_agent %.3f + P_user %.3f + initial %.3f; P_directed %.3f; %d of %d user calls directed",
			r.File, state/n, agent/n, user/n, initial/n, directed/n, directedCalls, userCalls)
		if got := fmt.Sprintf("%.3f %.3f %.3f %.3f %.3f", state/n, agent/n, user/n, initial/n, directed/n); got != want[r.File] {
			t.Errorf("%s: %s, want %s", r.File, got, want[r.File])
		}
		if Solo(r) && (user != 0 || directed != agent) {
			t.Errorf("%s: solo, yet P_user %.3f, P_directed %.3f ≠ P_agent %.3f", r.File, user/n, directed/n, agent/n)
		}
		if !Solo(r) && user == 0 {
			t.Errorf("%s: no progress credited to the user", r.File)
		}
	}
}
