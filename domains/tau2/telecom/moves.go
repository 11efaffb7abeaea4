package telecom

import (
	"fmt"
	"slices"

	"github.com/parthack/parthack/domains/tau2"
	"github.com/parthack/parthack/model"
)

// Moves are the calls a search attacker may insert in a telecom task,
// each a step with its actor: the phone's writing tools as the user's
// (in solo mode the agent's) — each switch toggled (its own inverse),
// each network mode, each app's permissions, the SIM, APN, VPN, reboot
// and payment — and the agent's writing calls drawn from the task's gold
// actions, with their inverses (enable ↔ disable roaming, suspend ↔
// resume a line). Which of them a witness may author is the certifier's
// policy: AgentMoves are those that are legal today.
func (t *Task) Moves() []model.Step {
	out := slices.Clone(t.domain.phoneMoves())
	add := func(actor model.Actor, tool, args string) { out = addMove(out, actor, tool, args) }
	inverse := map[string]string{"enable_roaming": "disable_roaming", "disable_roaming": "enable_roaming", "suspend_line": "resume_line", "resume_line": "suspend_line"}
	for _, st := range t.Gold.Steps {
		f := funcs[st.Tool]
		if f == nil || f.side != Assistant || !f.write {
			continue
		}
		args := string(st.Args.AppendJSON(nil))
		add(model.ActorAgent, st.Tool, args)
		if inv, ok := inverse[st.Tool]; ok {
			x := tau2.ArgsOf(st.Args)
			line := fmt.Sprintf(`{"customer_id": %q, "line_id": %q}`, x.Str("customer_id"), x.Str("line_id"))
			if inv == "suspend_line" {
				line = fmt.Sprintf(`{"customer_id": %q, "line_id": %q, "reason": "requested"}`, x.Str("customer_id"), x.Str("line_id"))
			}
			add(model.ActorAgent, inv, line)
		}
	}
	return out
}

// addMove appends a call to moves unless it is there already (the same
// tool and arguments), numbered by its place.
func addMove(moves []model.Step, actor model.Actor, tool, args string) []model.Step {
	st := model.Step{Actor: actor, Action: model.Action{Op: model.OpCall, Tool: tool, Args: model.MustJSON(args)}}
	if slices.ContainsFunc(moves, func(o model.Step) bool { return o.Tool == st.Tool && o.Args.Equal(st.Args) }) {
		return moves
	}
	st.Index = len(moves)
	return append(moves, st)
}

// phoneMoves are the moves every task of the domain has, first: the
// phone's, made once (its tasks differ only in the moves their gold
// actions give).
func (d *Domain) phoneMoves() []model.Step {
	d.phone.Do(func() {
		actor := model.ActorUser
		if d.Solo {
			actor = model.ActorAgent
		}
		for _, name := range Toggles {
			d.phoneSteps = addMove(d.phoneSteps, actor, name, "{}")
		}
		for _, m := range modePreferences {
			d.phoneSteps = addMove(d.phoneSteps, actor, "set_network_mode_preference", fmt.Sprintf(`{"mode": %q}`, m))
		}
		for _, app := range d.db.apps {
			for _, perm := range []string{"sms", "storage", "phone", "network"} {
				d.phoneSteps = addMove(d.phoneSteps, actor, "grant_app_permission", fmt.Sprintf(`{"app_name": %q, "permission": %q}`, app, perm))
			}
		}
		for _, name := range []string{"reseat_sim_card", "reset_apn_settings", "reboot_device", "connect_vpn", "disconnect_vpn", "make_payment"} {
			d.phoneSteps = addMove(d.phoneSteps, actor, name, "{}")
		}
	})
	return d.phoneSteps
}

// AgentMoves are the Moves whose actor is the agent, as the calls a
// task offers an attacker (model.Task.Calls) under today's rule that a
// witness authors agent steps only.
func (t *Task) AgentMoves() []model.Action {
	var out []model.Action
	for _, st := range t.Moves() {
		if st.Actor == model.ActorAgent {
			out = append(out, st.Action)
		}
	}
	return out
}
