package attacker_test

import (
	"context"
	"encoding/json"
	"runtime"
	"testing"

	"github.com/parthack/parthack/attacker"
	"github.com/parthack/parthack/pbcste"
	"github.com/parthack/parthack/tasks"
	"github.com/parthack/parthack/tasks/sealed"
)

// TestSearchDoesNotDependOnGOMAXPROCS: the candidates' scores are
// computed on every core, yet a search finds the same, states and
// candidates counted alike, witness byte for byte, with one core or
// several: live (with progress, as the workbench searches) and through
// SearchTargets (as bench does).
func TestSearchDoesNotDependOnGOMAXPROCS(t *testing.T) {
	st, err := tasks.Get("PH-H04")
	if err != nil {
		t.Fatal(err)
	}
	trusted, err := sealed.Trusted(st.ID)
	if err != nil {
		t.Fatal(err)
	}
	targets := []string{"historical_milestone", "predicate_max", "csps"}
	run := func() string {
		env, err := pbcste.Compile(trusted)
		if err != nil {
			t.Fatal(err)
		}
		var progress []attacker.Progress
		live, err := attacker.Search(context.Background(), st.Public, env, st.HonestTrajectory, attacker.Options{Edits: 3}, func(p attacker.Progress) { progress = append(progress, p) })
		if err != nil {
			t.Fatal(err)
		}
		shared, err := attacker.SearchTargets(context.Background(), st.Public, env, st.HonestTrajectory, attacker.Options{Edits: 3}, targets)
		if err != nil {
			t.Fatal(err)
		}
		var out []any
		for _, r := range append([]*attacker.Result{live}, shared...) {
			if !r.Exhausted {
				t.Fatalf("%s: bound not exhausted after %d states", r.Target, r.States)
			}
			out = append(out, r, string(encode(r)))
		}
		b, err := json.Marshal(append(out, progress))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	one := run()
	runtime.GOMAXPROCS(2)
	if two := run(); two != one {
		t.Errorf("GOMAXPROCS=2:\n%s\nGOMAXPROCS=1:\n%s", two, one)
	}
}
