package tau2

import (
	"fmt"

	"github.com/parthack/parthack/evaluators"
	"github.com/parthack/parthack/model"
)

// Orchestrator is tau2's rule for a run's conversation, as its
// orchestrator holds one (model.Conversation): the agent acts only on
// its own turns (after a user's message to it, or after its own calls'
// results come back), never between the calls of a user's message nor
// after the user stopped; the run ends at max_steps or at max_errors
// failed calls, and then scores 0. Every tau2 domain embeds it, so a
// witness of any tau2 run is held to this one rule.
type Orchestrator struct{}

// Greeting is the message tau2's orchestrator opens a conversation with
// on the agent's behalf (DEFAULT_FIRST_AGENT_MESSAGE): no turn of the
// agent's.
const Greeting = "Hi! How can I help you today?"

// DefaultMaxErrors is tau2's max_errors where a run does not record it.
const DefaultMaxErrors = 10

// Ended says how tau2 scores a run it ended itself.
func (Orchestrator) Ended(reason string) string {
	if !evaluators.Tau2Premature(reason) {
		return "ended by " + reason
	}
	return "ended by " + reason + ": tau2 scores 0"
}

// OrchestratorSteps is the steps tau2's orchestrator counts for a run
// against its max_steps: one for each message but the first, which its
// initialize makes (the greeting; in a no-user run, the agent's first
// message), and one for each batch of tool results, which answers a
// message's calls. The shipped runs hold to it: the five a file records
// as ended by max_steps (200) took 201 (the check is skipped while
// results are awaited), and every other took fewer than its max_steps.
func OrchestratorSteps(sim *Simulation) int {
	n := 0
	for i, m := range sim.Messages {
		if m.Role != "user" && m.Role != "assistant" {
			continue
		}
		if i > 0 {
			n++
		}
		if len(m.ToolCalls) > 0 {
			n++
		}
	}
	return n
}

// Limit refuses a witness whose run tau2's orchestrator would stop at
// max_steps: each call the witness adds is a message of the agent's and
// its result, two steps more than H took. A call it drops takes away
// steps only where its message loses every call, which H's trajectory
// does not record: the count is of H's steps and the added calls', an
// upper bound.
func (Orchestrator) Limit(h *model.Trajectory, a []model.Step, kept []int) string {
	if h.MaxSteps == 0 {
		return ""
	}
	added := 0
	for _, k := range kept {
		if k < 0 {
			added++
		}
	}
	if n := h.BenchmarkSteps + 2*added; n >= h.MaxSteps {
		return fmt.Sprintf("the witness's run takes %d of tau2's orchestrator steps (H's %d, and 2 for each of the %d calls it adds), and tau2 stops a run at max_steps (%d): termination max_steps, scored 0", n, h.BenchmarkSteps, added, h.MaxSteps)
	}
	return ""
}

// MaxErrors is the run's max_errors, tau2's default where it has none.
func (Orchestrator) MaxErrors(h *model.Trajectory) int {
	if h.MaxErrors > 0 {
		return h.MaxErrors
	}
	return DefaultMaxErrors
}

// Turns places the agent's turns among h's steps by its conversation
// (the transcript a tau2 run's trajectory keeps, each call's result
// tied to its step): the agent has a turn before its own call, after
// its own call's result, and wherever it says something between two
// calls of the user's; nil when h keeps no such conversation.
func (Orchestrator) Turns(h *model.Trajectory) []string {
	n := len(h.Steps)
	at := make([]int, n) // each step's result in the transcript
	found := 0
	for i, t := range h.Transcript {
		if t.Role == "tool" && t.Step > 0 && t.Step <= n {
			at[t.Step-1] = i
			found++
		}
	}
	if found != n || len(h.Transcript) == 0 {
		return nil
	}
	agent := func(k int) bool { return h.Steps[k].Actor == "" || h.Steps[k].Actor == model.ActorAgent }
	// spoke reports whether the agent says something between two turns
	// of the transcript: a turn of its own, the greeting aside.
	spoke := func(from, to int) bool {
		for i := from + 1; i < to; i++ {
			if t := h.Transcript[i]; t.Role == "assistant" && !(i == 0 && t.Content.Equal(Greeting)) {
				return true
			}
		}
		return false
	}
	out := make([]string, n+1)
	for k := range out {
		from, to := -1, len(h.Transcript)
		if k > 0 {
			from = at[k-1]
		}
		if k < n {
			to = at[k]
		}
		switch {
		case k < n && agent(k), k > 0 && agent(k-1), spoke(from, to):
		case n == 0:
			out[k] = "the agent never had a turn in H: the user ended the run after tau2's greeting"
		case k == 0:
			out[k] = "H's step 1 is the user's call, before the agent has had a turn"
		case k == n:
			out[k] = fmt.Sprintf("H's last step, %d, is the user's call, and the user ended the run before the agent's next turn", n)
		default:
			out[k] = fmt.Sprintf("H's steps %d and %d are both the user's calls, with no turn of the agent's between them", k, k+1)
		}
	}
	return out
}
