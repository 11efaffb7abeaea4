package airline

import (
	"slices"

	"github.com/parthack/parthack/domains/tau2"
	"github.com/parthack/parthack/model"
)

// AttackTask is a derived task with the calls an attacker may insert
// into a run h that ends in state final: gold's writing calls as gold
// made them (its bookings, cancellations, certificates and changes),
// and, for every reservation that existed at the start and that gold or
// h changes, its flights (with the cabin), passengers and bags set to
// what they were at the start, what gold leaves and what h leaves. A
// change is paid with the payment method gold paid that reservation's
// change with, else the user's first credit card, which tau2 always
// accepts. No call ends a tau2 episode, so the domain puts no bound on
// where a call goes.
func (d *Domain) AttackTask(t *tau2.Derived, h *model.Trajectory, final model.StateView) *model.Task {
	out := *t.Task
	out.Calls = d.attackCalls(t, h, final)
	return &out
}

func (d *Domain) attackCalls(t *tau2.Derived, h *model.Trajectory, final model.StateView) []model.Action {
	var out []model.Action
	add := func(tool string, args model.Value) {
		a := model.Action{Op: model.OpCall, Tool: tool, Args: args}
		if !slices.ContainsFunc(out, func(b model.Action) bool { return b.Tool == a.Tool && b.Args.Equal(a.Args) }) {
			out = append(out, a)
		}
	}
	start := d.db.Start()
	var reservations []string
	note := func(id string) {
		if id != "" && start.Alive(TypeReservation, id) && !slices.Contains(reservations, id) {
			reservations = append(reservations, id)
		}
	}
	paidWith := map[string]string{} // reservation → the payment method gold changed it with
	for _, st := range t.Gold.Steps {
		if !Writes(st.Tool) {
			continue
		}
		add(st.Tool, st.Args)
		args := tau2.ArgsOf(st.Args)
		if pm := args.Str("payment_id"); pm != "" {
			paidWith[args.Str("reservation_id")] = pm
		}
	}
	for _, c := range t.Changes {
		if c.Type == TypeReservation {
			note(c.ID)
		}
	}
	if h != nil {
		for _, st := range h.Steps {
			if Writes(st.Tool) {
				note(tau2.ArgsOf(st.Args).Str("reservation_id"))
			}
		}
	}
	gold := model.Changed(start, t.Changes)
	views := []model.StateView{start, gold}
	if final != nil {
		views = append(views, final)
	}
	for _, r := range reservations {
		pm := paidWith[r]
		if pm == "" {
			pm = d.firstCard(start, fieldStr(start, TypeReservation, r, "user_id"))
		}
		for _, v := range views {
			if !v.Alive(TypeReservation, r) {
				continue
			}
			if legs, ok := py(v, TypeReservation, r, "flights").([]any); ok && pm != "" {
				infos := make([]any, len(legs))
				for i, x := range legs {
					leg, _ := x.(tau2.Obj)
					infos[i] = tau2.Obj{{Key: "flight_number", Value: leg.Str("flight_number")}, {Key: "date", Value: leg.Str("date")}}
				}
				add("update_reservation_flights", valueOf(tau2.Obj{{Key: "reservation_id", Value: r},
					{Key: "cabin", Value: fieldStr(v, TypeReservation, r, "cabin")}, {Key: "flights", Value: infos}, {Key: "payment_id", Value: pm}}))
			}
			if ps, ok := py(v, TypeReservation, r, "passengers").([]any); ok {
				add("update_reservation_passengers", valueOf(tau2.Obj{{Key: "reservation_id", Value: r},
					{Key: "passengers", Value: orderedList(ps, passengerKeys)}}))
			}
			if pm != "" {
				add("update_reservation_baggages", valueOf(tau2.Obj{{Key: "reservation_id", Value: r},
					{Key: "total_baggages", Value: field(v, TypeReservation, r, "total_baggages").AsInt()},
					{Key: "nonfree_baggages", Value: field(v, TypeReservation, r, "nonfree_baggages").AsInt()}, {Key: "payment_id", Value: pm}}))
			}
		}
	}
	return out
}

// firstCard is a user's first credit card in their payment methods'
// order, "" when they have none.
func (d *Domain) firstCard(v model.StateView, user string) string {
	for _, pm := range d.db.userPMs(v, user) {
		if fieldStr(v, TypePaymentMethod, user+"/"+pm, "source") == "credit_card" {
			return pm
		}
	}
	return ""
}
