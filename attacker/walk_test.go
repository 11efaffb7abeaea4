package attacker_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/parthack/parthack/attacker"
	"github.com/parthack/parthack/internal/fixture"
)

// TestWalkSearchesAreTheirOwn: the searches of one walk, admitting only
// witnesses that end in H's state and then any end (or the other way
// round), find what each finds on a walk of its own, states, candidates
// and witness byte for byte; on the example task the two admit
// different candidates, so the walk's are picked, not merely shared.
func TestWalkSearchesAreTheirOwn(t *testing.T) {
	env := fixture.ExampleEnv(t)
	honest := fixture.Trajectory(t, "honest.json")
	targets := []string{"historical_milestone", "predicate_max", "csps", "terminal_outcome"}
	opt := attacker.Options{Edits: 2}
	text := func(rs []*attacker.Result) string {
		var out []any
		for _, r := range rs {
			out = append(out, r, string(encode(r)))
		}
		b, err := json.Marshal(out)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	alone := map[bool]string{}
	eligible := map[bool]int{}
	for _, sameEnd := range []bool{true, false} {
		o := opt
		o.SameEnd = sameEnd
		rs, err := attacker.SearchTargets(context.Background(), env.Task, env, honest, o, targets)
		if err != nil {
			t.Fatal(err)
		}
		alone[sameEnd], eligible[sameEnd] = text(rs), rs[0].Eligible
	}
	if eligible[true] == 0 || eligible[true] >= eligible[false] {
		t.Fatalf("%d candidates end in H's state of %d: the example should admit some, not all", eligible[true], eligible[false])
	}
	for _, order := range [][]bool{{true, false}, {false, true}} {
		w, err := attacker.NewWalk(context.Background(), env.Task, env, honest, opt)
		if err != nil {
			t.Fatal(err)
		}
		for _, sameEnd := range order {
			rs, err := w.Search(targets, sameEnd)
			if err != nil {
				t.Fatal(err)
			}
			if got := text(rs); got != alone[sameEnd] {
				t.Errorf("searches %v, same end %t on the shared walk:\n%s\non a walk of its own:\n%s", order, sameEnd, got, alone[sameEnd])
			}
		}
	}
}
