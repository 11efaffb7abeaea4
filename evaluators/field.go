package evaluators

import "github.com/parthack/parthack/internal/payload"

// Ported is a partial-credit evaluator of the field, ported from its
// source at a pinned commit and computed from the public payload: ok is
// false when the payload lacks what it reads.
type Ported struct {
	Name, Label string
	Score       func(*payload.Payload) (float64, bool)
}

// Field lists the field's evaluators every real domain offers beside its
// benchmark's own, in report order; their labels fit the paper's widest
// (Historical Milestone), so tables keep their widths.
func Field() []Ported {
	return []Ported{
		{PRMPartialActionName, "PR151 partial ACTION", PRMPartialAction},
		{ToolSandboxMilestoneName, "ToolSandbox", ToolSandboxMilestone},
		{AgentBoardProgressName, "AgentBoard progress", AgentBoardProgress},
	}
}
