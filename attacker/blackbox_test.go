package attacker_test

import (
	"context"
	"errors"
	"testing"

	"github.com/parthack/parthack/attacker"
	"github.com/parthack/parthack/evaluators"
	"github.com/parthack/parthack/internal/fixture"
	"github.com/parthack/parthack/internal/payload"
)

// milestone is a black box that happens to be Historical Milestone.
func milestone(calls *int, failFirst bool) func(context.Context, []byte) (float64, error) {
	return func(_ context.Context, b []byte) (float64, error) {
		*calls++
		if failFirst && *calls == 2 { // the first candidate's call (H's is the first)
			return 0, errors.New("judge: no answer")
		}
		p, err := payload.Decode(b)
		if err != nil {
			return 0, err
		}
		scores, err := evaluators.ScoreAll(p)
		if err != nil {
			return 0, err
		}
		return scores[0].Value, nil
	}
}

// TestBlackBoxSearch: the budgeted search spends exactly its calls on the
// best-ranked eligible candidates, counts failed calls, and finds the
// inflation a black box that scores like Historical Milestone gives.
func TestBlackBoxSearch(t *testing.T) {
	env := fixture.ExampleEnv(t)
	honest := fixture.Trajectory(t, "honest.json")
	var calls int
	res, err := attacker.Search(context.Background(), env.Task, env, honest, attacker.Options{Target: "judge", Edits: 2, Calls: 3, BlackBox: milestone(&calls, false)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Calls != 3 || calls != 4 || res.Failed != 0 {
		t.Fatalf("%d candidate calls (%d in all), %d failed; want 3 (4 with H's), 0", res.Calls, calls, res.Failed)
	}
	if res.Best == nil || res.Delta != 0.25 || !res.Verdict.Eligible {
		t.Fatalf("Δ %.3f, want the .25 inflation within 2 edits", res.Delta)
	}
	calls = 0
	res, err = attacker.Search(context.Background(), env.Task, env, honest, attacker.Options{Target: "judge", Edits: 2, Calls: 2, BlackBox: milestone(&calls, true)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Calls != 2 || res.Failed != 1 || res.Best == nil {
		t.Fatalf("calls %d, failed %d, best %v; want 2 calls, 1 failed, a witness from the other", res.Calls, res.Failed, res.Best != nil)
	}
}
