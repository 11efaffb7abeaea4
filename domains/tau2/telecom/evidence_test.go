package telecom

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/parthack/parthack/domains/tau2"
)

// TestToggleTwice measures, on every shipped run, what calling each gold
// toggle twice more does: tau2's ACTION check then matches every gold
// toggle, the reward on an ENV_ASSERTION-only basis cannot move, and the
// phone is left as it was (counted; see Toggles).
func TestToggleTwice(t *testing.T) {
	// runs with gold toggles, ACTION raised, partial credit raised, both
	// databases unchanged, an env assertion changed, reward raised
	want := map[string][6]int{
		"telecom-gpt-4.1.json.gz":         {25, 8, 14, 25, 0, 0},
		"telecom-gpt-4o.json.gz":          {6, 1, 2, 6, 0, 0},
		"telecom-no-user-gpt-4.1.json.gz": {25, 3, 6, 25, 0, 0},
	}
	for _, r := range files(t) {
		c := checker(t, r)
		var runs, withToggles, actionBasis, raised, partialUp, unchanged, rewardUp, envChanged int
		for _, sim := range r.Simulations {
			ev, err := c.ToggleTwice(r, sim)
			if err != nil {
				t.Fatal(err)
			}
			runs++
			if len(ev.Pairs) == 0 {
				if ev.ActionAfter != ev.ActionBefore || ev.RewardAfter != ev.RewardBefore || !ev.Unchanged {
					t.Errorf("%s: no toggle called, yet the scores or state moved", ev.Sim)
				}
				continue
			}
			withToggles++
			if slices.Contains(ev.Basis, tau2.BasisAction) {
				actionBasis++
			}
			if ev.ActionAfter > ev.ActionBefore {
				raised++
			}
			if ev.PartialAfter > ev.PartialBefore {
				partialUp++
			}
			if ev.ActionAfter < ev.ActionBefore || ev.PartialAfter < ev.PartialBefore {
				t.Errorf("%s: calling toggles lowered ACTION", ev.Sim)
			}
			if ev.Unchanged {
				unchanged++
				if !slices.Equal(ev.EnvBefore, ev.EnvAfter) {
					t.Errorf("%s: same databases, different env assertions", ev.Sim)
				}
			}
			if !slices.Equal(ev.EnvBefore, ev.EnvAfter) {
				envChanged++
			}
			if ev.RewardAfter > ev.RewardBefore {
				rewardUp++
			}
		}
		if got := [6]int{withToggles, raised, partialUp, unchanged, envChanged, rewardUp}; got != want[r.File] {
			t.Errorf("%s: %v, want %v", r.File, got, want[r.File])
		}
		t.Logf("%s: %d runs, %d with gold toggles (%d of them scored on ACTION); toggle-twice raises ACTION in %d and partial action credit in %d, leaves both databases as they were in %d, changes an env assertion in %d, raises the reward in %d",
			r.File, runs, withToggles, actionBasis, raised, partialUp, unchanged, envChanged, rewardUp)
	}
}

// TestGoldShare tabulates the gold actions of the runs' tasks by
// requestor and compare_args.
func TestGoldShare(t *testing.T) {
	for _, r := range files(t) {
		g := Gold(r)
		if g.Assistant+g.User == 0 {
			t.Fatalf("%s: no gold actions", r.File)
		}
		var tools []string
		for k, n := range g.ByTool {
			tools = append(tools, fmt.Sprintf("%s %d", k, n))
		}
		sort.Strings(tools)
		t.Logf("%s: %d gold actions, %d the user's (%.0f%%), %d with compare_args null; %s", r.File, g.Assistant+g.User, g.User,
			100*float64(g.User)/float64(g.Assistant+g.User), g.CompareArgsNull, strings.Join(tools, ", "))
	}
}

// TestEmptyCallMatches: compare_args null compares the arguments the
// call passes, so a call of the gold tool with none — which fails —
// matches the gold action.
func TestEmptyCallMatches(t *testing.T) {
	gold := []byte(`{"customer_id": "C1001", "line_id": "L1002", "gb_amount": 2.0}`)
	for _, tc := range []struct {
		args string
		want bool
	}{{`{}`, true}, {`{"customer_id": "C1001"}`, true}, {`{"customer_id": "C1002"}`, false}, {`{"customer_id": "C1001", "line_id": "L1002", "gb_amount": 2}`, true}} {
		if got := tau2.MatchCall("refuel_data", gold, nil, "refuel_data", []byte(tc.args)); got != tc.want {
			t.Errorf("refuel_data(%s) matches: %v, want %v", tc.args, got, tc.want)
		}
	}
}
