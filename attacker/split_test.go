package attacker

import (
	"context"
	"fmt"
	"runtime"
	"testing"

	"github.com/parthack/parthack/domains"
	"github.com/parthack/parthack/internal/fixture"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
	"github.com/parthack/parthack/tasks"
	"github.com/parthack/parthack/tasks/sealed"
)

// TestSplitWalkIsTheWalk: a walk with helpers on spare cores visits,
// counts and keeps what the walk on one core does, candidate by
// candidate (its steps, the states met before it, its past and end), on
// the example task, a suite task whose bound within 3 edits has tens of
// thousands of states, a tau2 telecom run (a conversation: turns, a
// user's steps, the failed calls in the key), and with a state cap that
// stops the walk halfway.
func TestSplitWalkIsTheWalk(t *testing.T) {
	type walkCase struct {
		name   string
		pub    *model.Task
		env    *pbcste.Env
		honest *model.Trajectory
		opt    Options
	}
	env := fixture.ExampleEnv(t)
	honest := fixture.Trajectory(t, "honest.json")
	cases := []walkCase{
		{"example, 2 edits", env.Task, env, honest, Options{Edits: 2}},
		{"example, 3 edits", env.Task, env, honest, Options{Edits: 3}},
	}
	st, err := tasks.Get("PH-H04")
	if err != nil {
		t.Fatal(err)
	}
	trusted, err := sealed.Trusted(st.ID)
	if err != nil {
		t.Fatal(err)
	}
	senv, err := pbcste.Compile(trusted)
	if err != nil {
		t.Fatal(err)
	}
	cases = append(cases,
		walkCase{"PH-H04, 3 edits", st.Public, senv, st.HonestTrajectory, Options{Edits: 3}},
		walkCase{"PH-H04, 3 edits, capped", st.Public, senv, st.HonestTrajectory, Options{Edits: 3, MaxStates: 5000}})
	d, err := domains.Lookup("tau2-telecom")
	if err != nil {
		t.Fatal(err)
	}
	runs, err := d.Runs()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range runs {
		if r.Model != "gpt-4o" || r.Embedded.M() == 0 {
			continue
		}
		h, err := r.Trajectory()
		if err != nil {
			t.Fatal(err)
		}
		if h.Termination != "" {
			continue
		}
		tenv, err := r.Embedded.Env()
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, walkCase{"telecom " + r.Name, r.Embedded.AttackTask(h, tenv.Replay(h.Steps).View()), tenv, h, Options{Edits: 2}})
		break
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			walk := func(spare *Spare) string {
				hlog, err := certifyHonest(c.env, c.honest)
				if err != nil {
					t.Fatal(err)
				}
				o := c.opt
				o.Spare = spare
				s, err := newSearch(context.Background(), c.pub, c.env, c.honest, o, nil, hlog, nil)
				if err != nil {
					t.Fatal(err)
				}
				ex := s.walkAll()
				out := fmt.Sprintf("%d states, done %t, err %v, %d candidates\n", ex.states, ex.done, ex.err, len(ex.cands))
				for _, cd := range ex.cands {
					out += fmt.Sprintf("%v %d %v %t\n", cd.path, cd.states, cd.h, cd.sameEnd)
				}
				return out
			}
			one := walk(nil)
			spare := NewSpare(1) // 3 of the 4 cores lent
			if split := walk(spare); split != one {
				t.Errorf("with helpers:\n%s\non one core:\n%s", head(split), head(one))
			}
			if len(spare.cores) != 3 {
				t.Errorf("the helpers kept %d of the 3 cores lent", 3-len(spare.cores))
			}
		})
	}
}

// TestFollowWalksWhatAHelperPruned: where a helper's table pruned a node
// the walk's table does not, the walk walks it from there: helpers
// whose tables already hold every node of the bound prune each part at
// its first node, and the walk, following them, walks every part itself
// from that node, and meets what the walk on one core does.
func TestFollowWalksWhatAHelperPruned(t *testing.T) {
	env := fixture.ExampleEnv(t)
	honest := fixture.Trajectory(t, "honest.json")
	for _, edits := range []int{2, 3} {
		hlog, err := certifyHonest(env, honest)
		if err != nil {
			t.Fatal(err)
		}
		s, err := newSearch(context.Background(), env.Task, env, honest, Options{Edits: edits}, nil, hlog, nil)
		if err != nil {
			t.Fatal(err)
		}
		one := s.walker()
		if err := one.walk(env.Begin(len(honest.Steps)+edits), newHistory(env), 0, 0, false); err != nil {
			t.Fatal(err)
		}
		w := s.walker()
		spine, parts, err := w.spineOf(env.Begin(len(honest.Steps)+edits), newHistory(env))
		if err != nil {
			t.Fatal(err)
		}
		pruned := 0
		for _, p := range parts {
			helper := s.walker()
			helper.seen, helper.ahead = one.seen, &aheadWalk{}
			helper.ahead.complete = helper.walkPart(spine, p) == nil
			for _, e := range helper.ahead.events {
				if !e.pruned {
					t.Fatalf("a helper holding every node let one through: %+v", e)
				}
				pruned++
			}
			if err := w.follow(helper.ahead); err != nil {
				t.Fatal(err)
			}
		}
		text := func(x *search) string {
			out := fmt.Sprintf("%d states, %d candidates\n", x.res.States, len(x.cands))
			for _, c := range x.cands {
				out += fmt.Sprintf("%v %d %v %t\n", c.path, c.states, c.h, c.sameEnd)
			}
			return out
		}
		if pruned == 0 || text(w) != text(one) {
			t.Errorf("%d edits, %d parts pruned at their first node, followed:\n%s\non one core:\n%s", edits, pruned, head(text(w)), head(text(one)))
		}
	}
}

// head is a walk's text's first lines.
func head(s string) string {
	const n = 2000
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
