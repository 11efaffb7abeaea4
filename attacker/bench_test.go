package attacker_test

import (
	"context"
	"testing"

	"github.com/parthack/parthack/attacker"
	"github.com/parthack/parthack/pbcste"
	"github.com/parthack/parthack/tasks"
	"github.com/parthack/parthack/tasks/sealed"
)

// BenchmarkSearch runs the exhaustive search on PH-H04 within three edits
// of H and reports search states (transpositions not counted) per second.
func BenchmarkSearch(b *testing.B) {
	st, err := tasks.Get("PH-H04")
	if err != nil {
		b.Fatal(err)
	}
	trusted, err := sealed.Trusted(st.ID)
	if err != nil {
		b.Fatal(err)
	}
	states := 0
	for b.Loop() {
		// A fresh environment each time: searches sharing one share their
		// walk, and this measures the walk.
		env, err := pbcste.Compile(trusted)
		if err != nil {
			b.Fatal(err)
		}
		res, err := attacker.Search(context.Background(), st.Public, env, st.HonestTrajectory, attacker.Options{Edits: 3}, nil)
		if err != nil {
			b.Fatal(err)
		}
		states += res.States
	}
	b.ReportMetric(float64(states)/b.Elapsed().Seconds(), "states/s")
}
