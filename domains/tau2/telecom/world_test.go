package telecom

import (
	"reflect"
	"testing"

	"github.com/parthack/parthack/model"
)

// TestTouchedWrites: a call's writes from the records it touched, each
// field compared only where it differs from its copy as read, are the
// writes of reading every record and comparing every field with the
// state, and the call answers alike; on every call of every shipped run
// (each from the state the run had reached) and every move of every
// task from its initialized state.
func TestTouchedWrites(t *testing.T) {
	calls := 0
	check := func(d *Domain, where string, state entityView, st model.Step) {
		t.Helper()
		requestor := Assistant
		if st.Actor == model.ActorUser {
			requestor = User
		}
		touched, err := readWorld(state, d.db.apps)
		if err != nil {
			t.Fatal(err)
		}
		out, f := d.respond(touched, requestor, st.Tool, st.Args, true)
		whole, err := readFull(state, d.db.apps)
		if err != nil {
			t.Fatal(err)
		}
		whole.read = nil // every field compared with the state
		wholeOut, wholeF := d.respond(whole, requestor, st.Tool, st.Args, true)
		calls++
		if touched.err != nil || out != wholeOut || f != wholeF {
			t.Fatalf("%s: %s(%s): %q %q (%v), reading every record %q %q", where, st.Tool, st.Args, out, f, touched.err, wholeOut, wholeF)
		}
		if f != "" {
			return
		}
		got, want := touched.writesFrom(state), whole.writesFrom(state)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: %s(%s): writes\n%v\nreading every record\n%v", where, st.Tool, st.Args, got, want)
		}
		if err := state.apply(got); err != nil {
			t.Fatal(err)
		}
	}
	for _, r := range files(t) {
		c := checker(t, r)
		for _, sim := range r.Simulations {
			tt, _ := r.TaskByID(sim.TaskID)
			task, err := c.Derive(tt)
			if err != nil {
				t.Fatal(err)
			}
			tr, _, err := Trajectory(c.Domain, r, sim, task)
			if err != nil {
				t.Fatal(err)
			}
			state := task.start.view().(entityView)
			for _, st := range tr.Steps {
				check(c.Domain, r.File+" "+sim.ID, state, st)
			}
			for _, st := range task.Moves() {
				check(c.Domain, task.ID+" move", task.start.view().(entityView), st)
			}
		}
	}
	if calls < 1530 {
		t.Errorf("%d calls checked, want at least the runs' 1,530", calls)
	}
}
