package tauair

import (
	"fmt"

	"github.com/parthack/parthack/model"
)

// MaxNumSteps is tau-bench's max_num_steps: its agent's loop
// (ToolCallingAgent.solve) takes at most this many actions, a call or a
// reply to the user each, and a run that has not ended by then (a
// transfer_to_human_agents call, or a user's ###STOP###) stops there
// with reward 0. 30 is the run script's default, with which the
// historical GPT-4o runs were made: 7 of the 200 take exactly 30
// actions, 5 of them without ending, and none takes more.
const MaxNumSteps = 30

// TerminationMaxNumSteps is the Termination of a run tau-bench's loop
// stopped at MaxNumSteps.
const TerminationMaxNumSteps = "max_num_steps"

// stopMarker is what tau-bench's user simulator says to end the
// conversation (Env.step: done when the user's reply holds it).
const stopMarker = "###STOP###"

// Ended says how tau-bench scores a run it stopped itself.
func (d *Domain) Ended(reason string) string {
	if reason == TerminationMaxNumSteps {
		return fmt.Sprintf("stopped by tau-bench's loop at max_num_steps (%d actions) before the episode ended: tau-bench scores 0", MaxNumSteps)
	}
	return "ended by " + reason
}

// Turns: tau-bench's agent acts on every step of its loop, and the user
// only answers its replies, so the agent may call wherever H's steps
// stand (the episode's end is EndsEpisode's). nil for a trajectory
// without a conversation (a task's gold run).
func (d *Domain) Turns(h *model.Trajectory) []string {
	if len(h.Transcript) == 0 {
		return nil
	}
	return make([]string, len(h.Steps)+1)
}

// MaxErrors: tau-bench ends no run for its failed calls.
func (d *Domain) MaxErrors(*model.Trajectory) int { return 0 }

// Limit refuses a witness whose run takes more actions than tau-bench's
// loop allows: its calls and H's replies to the user, which it keeps.
func (d *Domain) Limit(h *model.Trajectory, a []model.Step, _ []int) string {
	if len(h.Transcript) == 0 {
		return ""
	}
	replies := Replies(h)
	if n := len(a) + replies; n > MaxNumSteps {
		return fmt.Sprintf("the witness takes %d actions (%d calls and H's %d replies to the user), and tau-bench's loop stops at max_num_steps (%d) before the episode's end, scoring 0", n, len(a), replies, MaxNumSteps)
	}
	return ""
}

// Replies counts the agent's replies to the user in a run's conversation:
// its messages without a call, each one action of tau-bench's loop.
func Replies(h *model.Trajectory) int {
	n := 0
	for _, t := range h.Transcript {
		if t.Role == "assistant" {
			n++
		}
	}
	return n
}

// termination is how tau-bench's loop ended a run: "" where the episode
// ended (a transfer_to_human_agents call, or the user's ###STOP### after
// a reply), TerminationMaxNumSteps where the loop ran out of actions.
func (r *Run) termination() string {
	actions := 0
	for _, m := range r.Messages {
		if m.Role == "assistant" {
			actions++
		}
	}
	if actions < MaxNumSteps || len(r.Messages) == 0 {
		return ""
	}
	last := r.Messages[len(r.Messages)-1]
	if last.Role == "user" && last.Content != nil && last.Content.Contains(stopMarker, nil) {
		return ""
	}
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if m := r.Messages[i]; m.Role == "assistant" {
			if len(m.ToolCalls) > 0 && m.ToolCalls[0].Function.Name == "transfer_to_human_agents" {
				return ""
			}
			break
		}
	}
	return TerminationMaxNumSteps
}
