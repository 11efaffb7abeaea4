package attacker_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"testing"

	"github.com/parthack/parthack/attacker"
	"github.com/parthack/parthack/internal/payload"
	"github.com/parthack/parthack/pbcste"
	"github.com/parthack/parthack/tasks"
	"github.com/parthack/parthack/tasks/sealed"
)

// TestSerialExtraFails: a serial extra (a user's scorer) is asked only by
// its own search, one candidate at a time, in the candidates' order
// whatever the cores; its failure on a candidate ends that search alone
// (Result.NoScore, naming the error), the other targets' results are
// those of a search without it, and on H the search does not start.
func TestSerialExtraFails(t *testing.T) {
	st, err := tasks.Get("PH-H04")
	if err != nil {
		t.Fatal(err)
	}
	trusted, err := sealed.Trusted(st.ID)
	if err != nil {
		t.Fatal(err)
	}
	targets := []string{"historical_milestone", "csps"}
	search := func(failOn int) ([]*attacker.Result, []string) {
		env, err := pbcste.Compile(trusted)
		if err != nil {
			t.Fatal(err)
		}
		var asked []string
		x := attacker.Extra{Name: "scorer", Serial: true, Score: func(p *payload.Payload) (float64, bool, error) {
			asked = append(asked, p.Hash())
			if len(asked) == failOn {
				return 0, false, fmt.Errorf("crashed on input %d", failOn)
			}
			return .5, true, nil
		}}
		ts := targets
		opt := attacker.Options{Edits: 2}
		if failOn >= 0 {
			ts, opt.Extra = append(targets, "scorer"), []attacker.Extra{x}
		}
		rs, err := attacker.SearchTargets(context.Background(), st.Public, env, st.HonestTrajectory, opt, ts)
		if err != nil {
			t.Fatal(err)
		}
		return rs, asked
	}
	without, _ := search(-1)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	_, order := search(0)
	runtime.GOMAXPROCS(2)
	if _, again := search(0); !reflect.DeepEqual(again, order) || len(order) < 3 {
		t.Fatalf("the serial extra was asked %d times on one core, %d on two, or in another order", len(order), len(again))
	}
	for _, failOn := range []int{1, 3} {
		rs, asked := search(failOn)
		for i := range targets {
			if !reflect.DeepEqual(rs[i], without[i]) {
				t.Errorf("fail on %d: %s: %+v, want the search's without the extra %+v", failOn, targets[i], rs[i], without[i])
			}
		}
		sc := rs[len(targets)]
		want := map[int]string{1: "score the honest trajectory: crashed on input 1", 3: "crashed on input 3"}[failOn]
		if sc.NoScore == nil || sc.NoScore.Error() != want || !errors.As(sc.NoScore, new(*attacker.ScoreError)) {
			t.Errorf("fail on %d: NoScore %v, want a ScoreError %q", failOn, sc.NoScore, want)
		}
		if len(asked) != failOn || sc.Exhausted {
			t.Errorf("fail on %d: asked %d times, exhausted %t: the search goes on after the failure", failOn, len(asked), sc.Exhausted)
		}
		if failOn == 3 && (sc.Eligible != 2 || !reflect.DeepEqual(asked, order[:3])) {
			t.Errorf("fail on 3: eligible %d, asked %v; want the second candidate, in order %v", sc.Eligible, asked, order[:3])
		}
	}
}
