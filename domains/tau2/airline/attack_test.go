package airline

import (
	"slices"
	"strings"
	"testing"

	"github.com/parthack/parthack/domains/tau2"
	"github.com/parthack/parthack/model"
)

// TestAttackMoves derives every task of a shipped file and checks its
// moves: each is a call of a WRITE tool that tau2's tools accept as
// given (no argument error, no refusal), gold's writing calls are among
// them, and the moves that set a reservation to its start values, run
// after gold, give that reservation its start flights, cabin,
// passengers and bags back.
func TestAttackMoves(t *testing.T) {
	c := checker(t)
	db := c.World.(World).db
	d := NewDomain(db)
	var r *tau2.Results
	for _, f := range shippedRuns(t) {
		if f.File == "runs/airline-gpt-4o.json.gz" {
			r = f
		}
	}
	candidates, restored, exact, moves := 0, 0, 0, 0
	for _, task := range r.Tasks {
		dt, err := c.Derive(task)
		if err != nil {
			t.Fatal(err)
		}
		env, err := dt.Env()
		if err != nil {
			t.Fatal(err)
		}
		goldEnd := env.Replay(dt.Gold.Steps)
		at := d.AttackTask(dt, nil, goldEnd.View())
		for _, st := range dt.Gold.Steps {
			if Writes(st.Tool) && !slices.ContainsFunc(at.Calls, func(a model.Action) bool { return a.Tool == st.Tool && a.Args.Equal(st.Args) }) {
				t.Errorf("task %s: gold's %s(%s) is not a move", task.ID, st.Tool, st.Args)
			}
		}
		for _, a := range at.Calls {
			moves++
			if !Writes(a.Tool) {
				t.Errorf("task %s: move %s is not a WRITE tool", task.ID, a.Tool)
			}
			_, out, _ := d.Call(goldEnd.View(), a.Tool, a.Args)
			if strings.Contains(out, "positional argument") || strings.Contains(out, "validation error") || strings.Contains(out, "the port refuses") {
				t.Errorf("task %s: move %s(%s) is not a call tau2 accepts: %s", task.ID, a.Tool, a.Args, out)
			}
		}
		// Set the first reservation gold changes back to its start, after gold.
		start := db.Start()
		for _, ch := range dt.Changes {
			if ch.Type != TypeReservation || !start.Alive(TypeReservation, ch.ID) {
				continue
			}
			steps := slices.Clone(dt.Gold.Steps)
			for _, a := range startMoves(at.Calls, start, ch.ID) {
				steps = append(steps, model.Step{Index: len(steps), Action: a})
			}
			end := env.Replay(steps)
			candidates++
			if sameLegs(field(end.View(), TypeReservation, ch.ID, "flights"), field(start, TypeReservation, ch.ID, "flights")) &&
				sameFields(end.View(), start, ch.ID, "cabin", "passengers", "total_baggages", "nonfree_baggages") {
				restored++
				if sameFields(end.View(), start, ch.ID, "flights") {
					exact++
				}
			}
			break
		}
	}
	// A leg tau2 does not keep (another flight or cabin) is priced anew, so
	// legs set back after a change carry today's prices, not the booked ones.
	// One move fails: task 30's 1N99U6 cannot get HAT152 back, which has
	// fewer economy seats left than its two passengers (tau2 releases no
	// seat on a change).
	t.Logf("%d tasks, %d moves; of %d reservations gold changes, %d set back to their start legs, cabin, passengers and bags, %d with the booked prices too",
		len(r.Tasks), moves, candidates, restored, exact)
	if candidates != 22 || restored != 21 || exact != 10 {
		t.Errorf("%d reservations, %d set back, %d exactly; want 22, 21, 10", candidates, restored, exact)
	}
}

// sameLegs compares two reservations' flights as calls name them:
// flight numbers and dates, in order.
func sameLegs(a, b model.Value) bool {
	x, _ := tau2.MustPy(a).([]any)
	y, _ := tau2.MustPy(b).([]any)
	if len(x) != len(y) {
		return false
	}
	for i := range x {
		l, m := x[i].(tau2.Obj), y[i].(tau2.Obj)
		if l.Str("flight_number") != m.Str("flight_number") || l.Str("date") != m.Str("date") {
			return false
		}
	}
	return true
}

func sameFields(v, w model.StateView, r string, fields ...string) bool {
	for _, f := range fields {
		if !field(v, TypeReservation, r, f).Equal(field(w, TypeReservation, r, f)) {
			return false
		}
	}
	return true
}

// startMoves are the moves that set reservation r to its start values.
func startMoves(calls []model.Action, start model.StateView, r string) []model.Action {
	var out []model.Action
	for _, a := range calls {
		args := tau2.ArgsOf(a.Args)
		if args.Str("reservation_id") != r {
			continue
		}
		switch a.Tool {
		case "update_reservation_flights":
			if args.Str("cabin") == fieldStr(start, TypeReservation, r, "cabin") && len(args) > 0 {
				if fl, _ := args.Get("flights"); len(fl.([]any)) == len(py(start, TypeReservation, r, "flights").([]any)) {
					out = append(out, a)
				}
			}
		case "update_reservation_passengers":
			if tau2.PyEqual(mustGet(args, "passengers"), orderedList(py(start, TypeReservation, r, "passengers"), passengerKeys)) {
				out = append(out, a)
			}
		case "update_reservation_baggages":
			if mustGet(args, "total_baggages") == field(start, TypeReservation, r, "total_baggages").AsInt() &&
				mustGet(args, "nonfree_baggages") == field(start, TypeReservation, r, "nonfree_baggages").AsInt() {
				out = append(out, a)
			}
		}
	}
	return out
}

// TestAttackMovesOfRun: a reservation only the run changes gets moves
// too, set to the run's end values.
func TestAttackMovesOfRun(t *testing.T) {
	c := checker(t)
	d := NewDomain(c.World.(World).db)
	r := shippedRuns(t)[0]
	checked := 0
	for _, sim := range r.Simulations {
		rp, err := c.Replay(r, sim)
		if err != nil {
			t.Fatal(err)
		}
		at := d.AttackTask(rp.Task, rp.Traj, rp.Log.View())
		for _, st := range rp.Traj.Steps {
			rid := tau2.ArgsOf(st.Args).Str("reservation_id")
			if !Writes(st.Tool) || rid == "" || !d.db.Start().Alive(TypeReservation, rid) {
				continue
			}
			want := tau2.Obj{{Key: "reservation_id", Value: rid},
				{Key: "passengers", Value: orderedList(py(rp.Log.View(), TypeReservation, rid, "passengers"), passengerKeys)}}
			if !slices.ContainsFunc(at.Calls, func(a model.Action) bool {
				return a.Tool == "update_reservation_passengers" && a.Args.Equal(valueOf(want))
			}) {
				t.Errorf("%s: simulation %d changes %s, and no move sets its passengers to the run's end", r.File, sim.Index, rid)
			}
			checked++
		}
	}
	if checked == 0 {
		t.Errorf("no run of %s changes a reservation", r.File)
	}
}
