package attacker_test

import (
	"context"
	"testing"

	"github.com/parthack/parthack/attacker"
	"github.com/parthack/parthack/internal/fixture"
	"github.com/parthack/parthack/pbcste"
	"github.com/parthack/parthack/tasks"
	"github.com/parthack/parthack/tasks/sealed"
)

func TestSearchInflatesHistoricalNotCurrentState(t *testing.T) {
	env := fixture.ExampleEnv(t)
	honest := fixture.Trajectory(t, "honest.json")
	cases := []struct {
		target   string
		minDelta float64
		maxDelta float64
	}{
		{"historical_milestone", 0.25, 1},
		{"predicate_max", 0.25, 1},
		{"cape_max", 0.25, 1},
		{"csps", 0, 0},
		{"lightweight_cape", 0, 0},
		{"terminal_outcome", 0, 0},
	}
	for _, c := range cases {
		t.Run(c.target, func(t *testing.T) {
			res, err := attacker.Search(context.Background(), env.Task, env, honest, attacker.Options{Target: c.target, Edits: 2}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !res.Exhausted {
				t.Fatalf("bound not exhausted after %d states", res.States)
			}
			if res.Delta < c.minDelta || res.Delta > c.maxDelta {
				t.Fatalf("Δ = %.3f, want in [%.2f, %.2f]", res.Delta, c.minDelta, c.maxDelta)
			}
			if res.Best == nil || res.Verdict == nil || !res.Verdict.Eligible {
				t.Fatalf("no certified witness: %+v", res)
			}
		})
	}
}

func TestSearchIsDeterministic(t *testing.T) {
	env := fixture.ExampleEnv(t)
	honest := fixture.Trajectory(t, "honest.json")
	run := func() *attacker.Result {
		res, err := attacker.Search(context.Background(), env.Task, env, honest, attacker.Options{Edits: 2}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	a, b := run(), run()
	if a.States != b.States || a.Delta != b.Delta || string(encode(a)) != string(encode(b)) {
		t.Fatalf("two searches differ: %d/%v vs %d/%v", a.States, a.Delta, b.States, b.Delta)
	}
}

func TestSearchBudgetAndCancel(t *testing.T) {
	env := fixture.ExampleEnv(t)
	honest := fixture.Trajectory(t, "honest.json")
	res, err := attacker.Search(context.Background(), env.Task, env, honest, attacker.Options{Edits: 3, MaxStates: 50}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Exhausted || res.States != 50 {
		t.Fatalf("a 50-state budget: exhausted=%t states=%d", res.Exhausted, res.States)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	partial, err := attacker.Search(ctx, env.Task, env, honest, attacker.Options{}, nil)
	if err == nil || partial == nil || partial.Exhausted {
		t.Fatalf("a cancelled search: err %v, partial %+v; want the context's error and an unexhausted partial result", err, partial)
	}
	if _, err := attacker.Search(context.Background(), env.Task, env, honest, attacker.Options{Target: "vibes"}, nil); err == nil {
		t.Fatal("an unknown target was accepted")
	}
}

// TestSearchOnDevelopmentTasks: within two single-field edits of H the
// search finds an inflating witness on five development tasks, and proves
// there is none on PH-D01 (whose hand-written witness needs multi-field
// steps): the bound is exhausted with Δ = 0.
func TestSearchOnDevelopmentTasks(t *testing.T) {
	suite, err := tasks.Suite()
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range suite {
		if st.Split != "development" {
			continue
		}
		t.Run(st.ID, func(t *testing.T) {
			trusted, err := sealed.Trusted(st.ID)
			if err != nil {
				t.Fatal(err)
			}
			env, err := pbcste.Compile(trusted)
			if err != nil {
				t.Fatal(err)
			}
			res, err := attacker.Search(context.Background(), st.Public, env, st.HonestTrajectory, attacker.Options{Edits: 2}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !res.Exhausted {
				t.Fatalf("bound not exhausted after %d states", res.States)
			}
			want := st.ID != "PH-D01"
			if got := res.Delta > 0; got != want {
				t.Fatalf("inflation found = %t (Δ %.3f), want %t", got, res.Delta, want)
			}
		})
	}
}

// TestSearchWithPairs: two-field steps reach the example's hand-written
// witness (assign and tag at once, then undo both) within two edits,
// which single-field steps cannot.
func TestSearchWithPairs(t *testing.T) {
	env := fixture.ExampleEnv(t)
	honest := fixture.Trajectory(t, "honest.json")
	single, err := attacker.Search(context.Background(), env.Task, env, honest, attacker.Options{Edits: 2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	pairs, err := attacker.Search(context.Background(), env.Task, env, honest, attacker.Options{Edits: 2, Pairs: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !single.Exhausted || !pairs.Exhausted || single.Delta != 0.25 || pairs.Delta != 0.5 {
		t.Fatalf("single-field Δ %.3f (exhausted %t), pairs Δ %.3f (exhausted %t); want .25 and .5", single.Delta, single.Exhausted, pairs.Delta, pairs.Exhausted)
	}
}
