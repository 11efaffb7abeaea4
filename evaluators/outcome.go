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
	type key struct{ typ, id, field string }
	type change struct{ before, after model.Value }
	net := map[key]change{}
	for i := range p.Events {
		for _, c := range p.Events[i].Diff {
			k := key{c.Type, c.ID, c.Field}
			if prev, seen := net[k]; seen {
				net[k] = change{prev.before, c.After}
			} else {
				net[k] = change{c.Before, c.After}
			}
		}
	}
	changed := 0
	for _, c := range net {
		if !c.before.Equal(c.after) {
			changed++
		}
	}
	if changed != len(p.Reference.Changes) {
		return 0, true
	}
	for _, r := range p.Reference.Changes {
		c, seen := net[key{r.Type, r.ID, r.Field}]
		if !seen || !c.after.Equal(r.After) || !c.before.Equal(r.Before) {
			return 0, true
		}
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
