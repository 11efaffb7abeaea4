package evaluators

import (
	"github.com/parthack/parthack/internal/payload"
	"github.com/parthack/parthack/model"
)

// OutcomeName names the benchmark's own outcome check as a target.
const OutcomeName = "benchmark_reward"

// Outcome is a benchmark's own all-or-nothing check, for a payload that
// carries the benchmark's reference (tau-bench's reward): 1 when the
// trajectory's net changes to the initial state are exactly the
// reference's — the same cells with the same values, none more — and
// every required output appears in some reply of the agent (lower-cased,
// commas removed, as tau-bench compares), else 0. ok is false when the
// payload has no reference.
func Outcome(p *payload.Payload) (score float64, ok bool) {
	if p.Reference == nil {
		return 0, false
	}
	if !sameNet(p) {
		return 0, true
	}
	var replies []string
	for _, t := range p.Transcript {
		if t.Role == "assistant" {
			replies = append(replies, t.Content)
		}
	}
	if !model.SaidAll(replies, p.Reference.Outputs) {
		return 0, true
	}
	return 1, true
}
