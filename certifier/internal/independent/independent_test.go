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

// scheduled is one event in log order: an agent step or a scripted event.
type scheduled struct {
	action *model.Action
	actor  model.Actor
	step   int // 0-based agent step, -1 for a scripted event
}

// schedule lists the events of a trajectory in log order, as the task
// file format defines it: a scripted event fires once After agent steps
// have been taken, before the next agent step or at the end.
func schedule(task *model.Task, steps []model.Step) []scheduled {
	var out []scheduled
	for taken := 0; taken <= len(steps); taken++ {
		for i := range task.Script {
			if ev := &task.Script[i]; ev.After == taken {
				out = append(out, scheduled{action: &ev.Action, actor: ev.Actor, step: -1})
			}
		}
		if taken < len(steps) {
			out = append(out, scheduled{action: &steps[taken].Action, actor: model.ActorAgent, step: taken})
		}
	}
	return out
}

func hashFromScratch(w *world) lanes {
	sum := goalDigest(w.goal)
	for t := range w.sc.types {
		w.each(t, func(e *entity) { sum.plus(digestOf(encodeEntity(nil, w.sc, e))) })
	}
	return sum
}

// dump renders a world completely, to compare worlds.
func dump(w *world) string {
	s := w.goal
	for t, et := range w.sc.types {
		byID := map[string]*entity{}
		w.each(t, func(e *entity) { byID[e.id] = e })
		for _, id := range slices.Sorted(maps.Keys(byID)) {
			e := byID[id]
			s += fmt.Sprintf("|%s/%s alive=%t", et.Name, id, e.alive)
			for _, v := range e.fields {
				s += " " + v.String()
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
				w := newWorld(task)
				for _, s := range schedule(task, steps) {
					before := dump(w)
					var diff []model.CellDiff
					why := w.apply(s.action, &diff)
					if why.failed() {
						failures++
						if dump(w) != before || diff != nil {
							t.Fatalf("failed %+v (%s) changed the world", *s.action, why)
						}
					}
					if got, want := w.hash(), hashFromScratch(w).hex(); got != want {
						t.Fatalf("after %+v: running hash %s, recomputed %s", *s.action, got, want)
					}
				}
			}
			if failures == 0 {
				t.Fatal("no failed action was generated")
			}
		})
	}
}

// cell names one cell a predicate reads: a field by schema position, or
// the alive flag (field -1).
type cell struct {
	typ   int
	id    string
	field int
}

// wholeView is a predicate's full read view: every cell it reads of
// every entity that exists or that it names, with its value.
func wholeView(w *world, x *model.Expr) map[cell]model.Value {
	byType := make([][]view, len(w.sc.types))
	reads(w.sc, x, 0, byType)
	out := map[cell]model.Value{}
	visit := func(t int, id string) {
		e := w.get(t, id) // one that never existed reads as not alive, its fields null
		for _, v := range byType[t] {
			if !v.sees(id) {
				continue
			}
			if v.alive {
				out[cell{t, id, -1}] = model.Bool(e != nil && e.alive)
			}
			for _, f := range v.fields {
				val := model.Null
				if e != nil {
					val = e.fields[f]
				}
				out[cell{t, id, f}] = val
			}
		}
	}
	for t := range w.sc.types {
		w.each(t, func(e *entity) { visit(t, e.id) })
	}
	var named func(x *model.Expr)
	named = func(x *model.Expr) {
		for i := range x.Args {
			named(&x.Args[i])
		}
		if t := w.sc.typeOf(x.Type); x.ID != "" && t >= 0 {
			visit(t, x.ID)
		}
		if t := w.sc.typeOf(refTarget(w.sc, x)); x.Target != "" && t >= 0 {
			visit(t, x.Target)
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

// TestLocalViewIsTheWholeView checks the shortcut the tracker takes:
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
				st := NewStream(task)
				st.Add(steps)
				if _, rej := st.Finish(&model.Trajectory{Task: task.ID}, len(steps)); rej != nil {
					t.Fatal(rej)
				}
				for g, gv := range task.Goals {
					for j, p := range gv.Predicates {
						want := model.Cause{Actor: model.ActorInitial, Seq: -1}
						w := newWorld(task)
						before := wholeView(w, &p.Expr)
						for seq, s := range schedule(task, steps) {
							if why := w.apply(s.action, nil); why.failed() {
								continue
							}
							after := wholeView(w, &p.Expr)
							if !sameView(before, after) {
								want = model.Cause{Actor: s.actor, Seq: seq + 1, Step: s.step + 1}
							}
							before = after
						}
						if got := st.causes.causes[st.causes.first[g]+j]; got != want {
							t.Fatalf("predicate %s: latest cause %+v by the local view, %+v by the whole view", p.ID, got, want)
						}
					}
				}
			}
		})
	}
}
