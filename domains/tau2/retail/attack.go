package retail

import (
	"slices"

	"github.com/parthack/parthack/domains/tau2"
	"github.com/parthack/parthack/model"
)

// AttackTask is a derived task with the calls an attacker may insert
// into a run h that ends in state final: the writing calls of gold and
// of h as they were made (each a call tau2's agent made or was meant to
// make), and, for every order and user whose address gold or h changes,
// the address set back to its start, to gold's and to h's final value.
// Cancellations, returns, exchanges and item changes have no inverse
// among retail's tools, so only addresses can be set back. No retail
// call ends an episode (tau2.EndsEpisode), so the domain puts no bound
// on where a call goes.
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
	type target struct{ typ, id string }
	var targets []target
	note := func(typ, id string) {
		if (typ == TypeOrder || typ == TypeUser) && !slices.Contains(targets, target{typ, id}) {
			targets = append(targets, target{typ, id})
		}
	}
	steps := slices.Clone(t.Gold.Steps)
	if h != nil {
		steps = append(steps, h.Steps...)
	}
	for _, st := range steps {
		tool, ok := tools[st.Tool]
		if !ok || !tool.write {
			continue
		}
		add(st.Tool, st.Args)
		args := tau2.ArgsOf(st.Args)
		if id := args.Str("order_id"); id != "" {
			note(TypeOrder, id)
		}
		if id := args.Str("user_id"); id != "" {
			note(TypeUser, id)
		}
	}
	start := d.db.Start()
	gold := model.Changed(start, t.Changes)
	for _, tg := range targets {
		if !start.Alive(tg.typ, tg.id) {
			continue
		}
		for _, v := range []model.StateView{start, gold, final} {
			if v == nil {
				continue
			}
			addr, _ := v.Field(tg.typ, tg.id, "address")
			if addr.IsNull() {
				continue
			}
			args := tau2.Obj{}
			if tg.typ == TypeOrder {
				args = append(args, tau2.Member{Key: "order_id", Value: tg.id})
			} else {
				args = append(args, tau2.Member{Key: "user_id", Value: tg.id})
			}
			a := tau2.ArgsOf(addr)
			for _, k := range addressParams {
				args = append(args, tau2.Member{Key: k, Value: a.Str(k)})
			}
			tool := "modify_user_address"
			if tg.typ == TypeOrder {
				tool = "modify_pending_order_address"
			}
			add(tool, valueOf(args))
		}
	}
	return out
}
