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

// TestClone: a clone of the shipped world is the same world, and shares
// nothing with it: changing every kind of field of the clone in place
// (a string, a list's item, a nested record's, a pointer's target)
// leaves the original as it was.
func TestClone(t *testing.T) {
	db, err := Shipped()
	if err != nil {
		t.Fatal(err)
	}
	w := db.start
	before := w.entities()
	c := w.clone()
	if !reflect.DeepEqual(c.entities(), before) || c.hashes() != w.hashes() {
		t.Fatal("the clone is another world")
	}
	for _, cu := range c.customers {
		cu.FullName += "x"
		cu.Address.City += "x"
		for i := range cu.LineIDs {
			cu.LineIDs[i] += "x"
		}
		for i := range cu.PaymentMethods {
			cu.PaymentMethods[i].AccountLast4 += "x"
		}
	}
	for _, b := range c.bills {
		for i := range b.LineItems {
			b.LineItems[i].Amount++
		}
	}
	for _, d := range c.devices {
		if d.IMEI != nil {
			*d.IMEI += "x"
		}
	}
	c.books.Plans[0] += "x"
	c.apps[0].SMS = !c.apps[0].SMS
	*c.apn.MMSAPN += "x"
	c.sur.Signal.G2 += "x"
	if !reflect.DeepEqual(w.entities(), before) {
		t.Error("changing the clone changed the original")
	}
	if reflect.DeepEqual(c.entities(), before) {
		t.Error("the changes did not change the clone")
	}
}

// TestMemoChangesNothing: every shipped task derived from the shipped
// databases, whose unchanged records share their entities and texts
// (memoOf), is the task derived from the same databases without the
// memo, record by record: its initial snapshot, its gold's net changes
// and tau2's hashes of its gold environment.
func TestMemoChangesNothing(t *testing.T) {
	db, err := Shipped()
	if err != nil {
		t.Fatal(err)
	}
	bare := *db
	bare.start = db.start.clone()
	bare.start.orig, bare.start.memo = nil, nil
	for _, solo := range []bool{false, true} {
		for _, tt := range shippedTasks(t) {
			got, err := Derive(NewDomain(db, solo), tt)
			if err != nil {
				t.Fatal(err)
			}
			want, err := Derive(NewDomain(&bare, solo), tt)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got.Task.Initial, want.Task.Initial) || !reflect.DeepEqual(got.Changes, want.Changes) || got.GoldHashes != want.GoldHashes {
				t.Fatalf("%s: derived with the memo, its initial snapshot, gold changes or gold hashes (%s) differ from those without (%s)", got.ID, got.GoldHashes, want.GoldHashes)
			}
		}
	}
}
