package tauair

import (
	"slices"

	"github.com/parthack/parthack/model"
)

// AttackTask is the task with the calls an attacker may insert into a
// run h that ends in state final: for every reservation the gold run
// changes, its flights, passengers and bags set to what they were at the
// start, what gold leaves and what h leaves (paid with the payment method
// gold used there, else the user's first card), gold's cancellations and
// bookings as gold made them, and gold's certificates.
func (t *Task) AttackTask(final model.StateView) *model.Task {
	out := *t.Task
	out.Calls = t.calls(final)
	return &out
}

func (t *Task) calls(final model.StateView) []model.Action {
	db, _ := Load()
	start := db.Start()
	var out []model.Action
	add := func(tool string, args map[string]any) {
		a := model.Action{Op: model.OpCall, Tool: tool, Args: valueOf(args)}
		if !slices.ContainsFunc(out, func(b model.Action) bool { return b.Tool == a.Tool && b.Args.Equal(a.Args) }) {
			out = append(out, a)
		}
	}
	goldPM := map[string]string{} // reservation → payment method gold paid its change with
	for i := range t.Gold.Steps {
		c := &t.Gold.Steps[i]
		args, _ := decode(string(c.Kwargs))
		m, _ := args.(map[string]any)
		switch c.Name {
		case "book_reservation", "send_certificate", "cancel_reservation":
			add(c.Name, m)
		case "update_reservation_flights", "update_reservation_baggages":
			if r, ok := m["reservation_id"].(string); ok {
				goldPM[r], _ = m["payment_id"].(string)
			}
		}
	}
	gold := model.Changed(start, t.Changes)
	var reservations []string
	for _, c := range t.Changes {
		if c.Type == TypeReservation && !slices.Contains(reservations, c.ID) && start.Alive(TypeReservation, c.ID) {
			reservations = append(reservations, c.ID)
		}
	}
	for _, r := range reservations {
		user := field(start, TypeReservation, r, "user_id").AsString()
		pm := goldPM[r]
		if pm == "" {
			pm = firstCard(db, start, user)
		}
		cabin := field(final, TypeReservation, r, "cabin").AsString()
		for _, v := range []model.StateView{start, gold, final} {
			if legs := legsOf(field(v, TypeReservation, r, "flights")); legs != nil && pm != "" {
				add("update_reservation_flights", map[string]any{"reservation_id": r, "cabin": cabin, "flights": legs, "payment_id": pm})
			}
		}
		for _, v := range []model.StateView{start, gold, final} {
			if ps, ok := jsonOf(field(v, TypeReservation, r, "passengers")).([]any); ok {
				add("update_reservation_passengers", map[string]any{"reservation_id": r, "passengers": ps})
			}
		}
		for _, v := range []model.StateView{start, gold, final} {
			total, nonfree := field(v, TypeReservation, r, "total_baggages"), field(v, TypeReservation, r, "nonfree_baggages")
			if !total.IsNull() && !nonfree.IsNull() && pm != "" {
				add("update_reservation_baggages", map[string]any{"reservation_id": r, "total_baggages": intNum(total.AsInt()),
					"nonfree_baggages": intNum(nonfree.AsInt()), "payment_id": pm})
			}
		}
	}
	return out
}

func field(v model.StateView, typ, id, f string) model.Value { x, _ := v.Field(typ, id, f); return x }

// legsOf is a reservation's flights as a call names them.
func legsOf(v model.Value) []any {
	fl, ok := jsonOf(v).([]any)
	if !ok {
		return nil
	}
	out := make([]any, 0, len(fl))
	for _, x := range fl {
		m, _ := x.(map[string]any)
		out = append(out, map[string]any{"flight_number": m["flight_number"], "date": m["date"]})
	}
	return out
}

// firstCard is a user's first credit card by id, "" when they have none.
func firstCard(db *DB, v model.StateView, user string) string {
	for _, pm := range db.pms[user] {
		if field(v, TypePaymentMethod, user+"/"+pm, "source").AsString() == "credit_card" {
			return pm
		}
	}
	return ""
}
