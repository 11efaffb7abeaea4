package pbcste_test

import (
	"testing"

	"github.com/parthack/parthack/internal/fixture"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
)

// TestCollateral: two runs that end in one state have none; a run that
// also writes cells H leaves alone lists each, with the predicates of the
// active goal that read it, in the order the runs wrote them.
func TestCollateral(t *testing.T) {
	env := fixture.ExampleEnv(t)
	h := fixture.Trajectory(t, "honest.json")
	hlog := env.Replay(h.Steps)
	if same, d := pbcste.Collateral(hlog, env.Replay(fixture.Trajectory(t, "witness.json").Steps)); !same || d != nil {
		t.Fatalf("the example witness ends where H ends, got same=%t %v", same, d)
	}
	upd := func(id, field string, v model.Value) model.Step {
		return model.Step{Action: model.Action{Op: model.OpUpdate, Type: "ticket", ID: id, Fields: []model.Assign{{Field: field, Value: v}}}}
	}
	steps := append(append([]model.Step(nil), h.Steps...),
		upd("T1", "title", model.Str("Printer fixed")),
		upd("T1", "tags", model.List([]string{"printer"})),
		upd("T2", "priority", model.Int(1)), upd("T2", "priority", model.Int(3)), // written, then back: no difference
	)
	same, d := pbcste.Collateral(hlog, env.Replay(steps))
	if same {
		t.Fatal("same end reported for a run that changes T1's title")
	}
	want := []pbcste.EndDelta{
		{Type: "ticket", ID: "T1", Field: "title", H: model.Str("Printer down"), A: model.Str("Printer fixed")},
		{Type: "ticket", ID: "T1", Field: "tags", H: model.List(nil), A: model.List([]string{"printer"}), Goal: []int{3}},
	}
	if len(d) != len(want) {
		t.Fatalf("got %d deltas %+v, want %d", len(d), d, len(want))
	}
	for i := range want {
		g, w := d[i], want[i]
		if g.Type != w.Type || g.ID != w.ID || g.Field != w.Field || !g.H.Equal(w.H) || !g.A.Equal(w.A) || len(g.Goal) != len(w.Goal) || (len(w.Goal) > 0 && g.Goal[0] != w.Goal[0]) {
			t.Errorf("delta %d: got %+v, want %+v", i, g, w)
		}
	}
	// Symmetric in which run wrote the cell: swapping H and A swaps the values.
	_, back := pbcste.Collateral(env.Replay(steps), hlog)
	if len(back) != 2 || !back[0].H.Equal(want[0].A) || !back[0].A.Equal(want[0].H) {
		t.Fatalf("swapped: %+v", back)
	}
}
