package independent

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/parthack/parthack/model"
)

var fixtureTasks = []string{"example", "certifier/goalpatch", "certifier/attribution"}

func loadTask(t *testing.T, dir string) *model.Task {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "..", "..", "testdata", dir, "task.json"))
	if err != nil {
		t.Fatal(err)
	}
	task, err := model.DecodeTask("task.json", src)
	if err != nil {
		t.Fatal(err)
	}
	return task
}

// randomSteps draws steps over the alphabet's ids and values with every
// op, so that creations, recreations, failures and empty diffs occur.
func randomSteps(r *rand.Rand, task *model.Task, n int) []model.Step {
	ops := []model.Op{model.OpUpdate, model.OpUpdate, model.OpCreate, model.OpDelete, model.OpRestore}
	at := task.Alphabet["ticket"]
	out := make([]model.Step, n)
	for i := range out {
		a := model.Action{Op: ops[r.IntN(len(ops))], Type: "ticket", ID: at.IDs[r.IntN(len(at.IDs))]}
		if a.Op == model.OpCreate || a.Op == model.OpUpdate {
			for range 1 + r.IntN(2) {
				f := at.Fields[r.IntN(len(at.Fields))]
				a.Fields = append(a.Fields, model.Assign{Field: f.Field, Value: f.Values[r.IntN(len(f.Values))]})
			}
		}
		out[i] = model.Step{Action: a}
	}
	return out
}

func hashFromScratch(w *world) lanes {
	sum := goalDigest(w.goal)
	for _, typ := range w.types() {
		w.each(typ, func(id string, e *entity) { sum.plus(w.entityDigest(typ, id, e)) })
	}
	return sum
}

// dump renders a world completely, to compare worlds.
func dump(w *world) string {
	s := w.goal
	for _, et := range w.task.Schema.Types {
		byID := map[string]*entity{}
		w.each(et.Name, func(id string, e *entity) { byID[id] = e })
		for _, id := range slices.Sorted(maps.Keys(byID)) {
			e := byID[id]
			s += fmt.Sprintf("|%s/%s alive=%t", et.Name, id, e.alive)
			for _, fd := range et.Fields {
				s += " " + e.fields[fd.Name].String()
			}
		}
	}
	return s
}

// TestRunningHashAndFailures: after every action the running state hash
// equals a recomputation over all entities, and a failed action leaves
// the world exactly as it was.
func TestRunningHashAndFailures(t *testing.T) {
	for _, dir := range fixtureTasks {
		t.Run(dir, func(t *testing.T) {
			task := loadTask(t, dir)
			r := rand.New(rand.NewPCG(21, uint64(len(dir))))
			failures := 0
			for range 50 {
				steps := randomSteps(r, task, 1+r.IntN(20))
				w := newWorld(task, true)
				for _, s := range schedule(task, steps) {
					before := dump(w)
					diff, why := w.apply(s.action)
					if why != "" {
						failures++
						if dump(w) != before || diff != nil {
							t.Fatalf("failed %+v (%s) changed the world", *s.action, why)
						}
					}
					if w.sum != hashFromScratch(w) {
						t.Fatalf("after %+v: running hash %s, recomputed %s", *s.action, w.sum.hex(), hashFromScratch(w).hex())
					}
				}
			}
			if failures == 0 {
				t.Fatal("no failed action was generated")
			}
		})
	}
}

// wholeView is a predicate's full read view: every cell it reads of
// every entity that exists or that it names, with its value.
func wholeView(w *world, x *model.Expr) map[cell]model.Value {
	out := map[cell]model.Value{}
	visit := func(typ, id string) {
		for _, f := range w.reads(x, typ, id, nil) {
			out[cell{typ, id, f}] = w.cellValue(typ, id, f)
		}
	}
	for _, typ := range w.types() {
		w.each(typ, func(id string, _ *entity) { visit(typ, id) })
	}
	var named func(x *model.Expr)
	named = func(x *model.Expr) {
		for i := range x.Args {
			named(&x.Args[i])
		}
		if x.ID != "" {
			visit(x.Type, x.ID)
		}
		if x.Target != "" {
			visit(w.refTarget(x), x.Target)
		}
	}
	named(x)
	return out
}

func sameView(a, b map[cell]model.Value) bool {
	for c, v := range a {
		if u, ok := b[c]; ok && !u.Equal(v) {
			return false
		}
	}
	return len(a) == len(b)
}

// TestLocalViewIsTheWholeView checks the shortcut latestCause takes:
// comparing only the acted-on entity's cells finds the same latest cause
// as comparing the predicate's whole read view before and after every
// successful action.
func TestLocalViewIsTheWholeView(t *testing.T) {
	for _, dir := range fixtureTasks {
		t.Run(dir, func(t *testing.T) {
			task := loadTask(t, dir)
			r := rand.New(rand.NewPCG(22, uint64(len(dir))))
			for range 60 {
				steps := randomSteps(r, task, 1+r.IntN(15))
				tr := &trace{task: task, steps: steps}
				for _, g := range task.Goals {
					for _, p := range g.Predicates {
						want := model.Cause{Actor: model.ActorInitial, Seq: -1}
						w := newWorld(task, false)
						before := wholeView(w, &p.Expr)
						for seq, s := range schedule(task, steps) {
							if _, why := w.apply(s.action); why != "" {
								continue
							}
							after := wholeView(w, &p.Expr)
							if !sameView(before, after) {
								want = model.Cause{Actor: s.actor, Seq: seq + 1, Step: s.step + 1}
							}
							before = after
						}
						if got := tr.latestCause(&p.Expr); got != want {
							t.Fatalf("predicate %s: latest cause %+v by the local view, %+v by the whole view", p.ID, got, want)
						}
					}
				}
			}
		})
	}
}
