package independent

import (
	"math/rand/v2"
	"testing"

	"github.com/parthack/parthack/model"
)

// cannedDomain's tools make fixed writes, whatever the state.
type cannedDomain map[string][]model.Action

func (d cannedDomain) Name() string            { return "canned" }
func (d cannedDomain) EndsEpisode(string) bool { return false }

func (d cannedDomain) Call(_ model.StateView, tool string, _ model.Value) ([]model.Action, string, string) {
	return d[tool], "", ""
}

func update(id, field string, v model.Value) model.Action {
	return model.Action{Op: model.OpUpdate, Type: "ticket", ID: id, Fields: []model.Assign{{Field: field, Value: v}}}
}

// TestRefusedCallIsUndone: a call whose later write is refused leaves no
// trace, in the state, its hash or the latest causes, though its earlier
// writes copied an initial entity, created one, and wrote one entity
// twice; the hash then comes out right whether it was asked after every
// call or only at the end.
func TestRefusedCallIsUndone(t *testing.T) {
	refused := update("T2", "no_such_field", model.Int(1))
	created := model.Action{Op: model.OpCreate, Type: "ticket", ID: "T7", Fields: []model.Assign{{Field: "status", Value: model.Str("open")}}}
	d := cannedDomain{
		"half":  {update("T1", "priority", model.Int(5)), created, refused},
		"twice": {update("T2", "status", model.Str("closed")), update("T2", "status", model.Str("pending")), refused},
		"fine":  {update("T2", "priority", model.Int(7)), {Op: model.OpCreate, Type: "ticket", ID: "T8"}},
	}
	task := *loadTask(t, "example")
	task.Domain, task.Allowlist.Tools = d, []string{"half", "twice", "fine"}
	call := func(tools ...string) []model.Step {
		var out []model.Step
		for _, tool := range tools {
			out = append(out, model.Step{Action: model.Action{Op: model.OpCall, Tool: tool, Args: model.Null}})
		}
		return out
	}
	only := NewStream(&task)
	only.Add(call("fine"))
	want, rej := only.Finish(&model.Trajectory{Task: task.ID}, 1)
	if rej != nil {
		t.Fatal(rej)
	}
	for _, claimEvery := range []bool{false, true} {
		steps := call("half", "twice", "fine", "twice", "half")
		for i := range steps {
			if claimEvery {
				steps[i].Claim.HasOK = true
				steps[i].Claim.OK = steps[i].Tool == "fine"
			}
		}
		s := NewStream(&task)
		for i := range steps {
			s.Add(steps[i : i+1])
			if claimEvery {
				s.w.hash()
			}
		}
		got, rej := s.Finish(&model.Trajectory{Task: task.ID}, len(steps))
		switch {
		case rej != nil:
			t.Fatal(rej)
		case dump(s.w) != dump(only.w):
			t.Fatalf("state after refused calls:\n%s\nwant\n%s", dump(s.w), dump(only.w))
		case got.FinalHash != want.FinalHash || got.FinalHash != hashFromScratch(s.w).hex():
			t.Fatalf("hash %s; want %s (from scratch %s)", got.FinalHash, want.FinalHash, hashFromScratch(s.w).hex())
		}
		agent := 0
		for j, c := range got.Causes {
			w := want.Causes[j] // caused by step 1 there, by step 3 here
			if w.Actor == model.ActorAgent {
				agent++
				w.Seq, w.Step = 3, 3
			}
			if c != w {
				t.Fatalf("predicate %s: latest cause %+v, want %+v: only step 3 succeeded", got.Predicates[j], c, w)
			}
		}
		if agent == 0 {
			t.Fatal("step 3 causes no predicate: the test lost its point")
		}
	}
}

// TestFieldsReadsEachField: a tool reading a record whole (the world's
// model.RecordView) reads what it reads field by field, after random
// writes on every fixture task; a missing or deleted entity reads as
// none, and the values read are the tool's to keep.
func TestFieldsReadsEachField(t *testing.T) {
	for _, dir := range fixtureTasks {
		task := loadTask(t, dir)
		r := rand.New(rand.NewPCG(4, uint64(len(dir))))
		w := newWorld(task)
		for _, s := range schedule(task, randomSteps(r, task, 40)) {
			var diff []model.CellDiff
			w.apply(s.action, &diff)
		}
		v := worldView{w}
		for ti, et := range w.sc.types {
			ids := []string{"no-such-entity"}
			w.each(ti, func(e *entity) { ids = append(ids, e.id) })
			for _, id := range ids {
				vals, ok := v.Fields(et.Name, id)
				if ok != v.Alive(et.Name, id) || ok && len(vals) != len(et.Fields) {
					t.Fatalf("%s: %s %s: Fields %v (%d values), Alive %v", dir, et.Name, id, ok, len(vals), v.Alive(et.Name, id))
				}
				for j, fd := range et.Fields {
					if want, _ := v.Field(et.Name, id, fd.Name); ok && !vals[j].Equal(want) {
						t.Fatalf("%s: %s %s.%s: Fields reads %v, Field %v", dir, et.Name, id, fd.Name, vals[j], want)
					}
				}
				if ok && len(vals) > 0 {
					before, _ := v.Field(et.Name, id, et.Fields[0].Name)
					vals[0] = model.Str("kept by the tool")
					if after, _ := v.Field(et.Name, id, et.Fields[0].Name); !after.Equal(before) {
						t.Fatalf("%s: %s %s: the values read were the world's own", dir, et.Name, id)
					}
				}
			}
		}
	}
}
