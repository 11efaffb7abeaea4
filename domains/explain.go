package domains

import (
	"github.com/parthack/parthack/internal/payload"
	"github.com/parthack/parthack/model"
)

// A Messenger is a domain in which another actor's steps are messages to
// the agent (BFCL's user turns, each the entry's question for the turn):
// the workbench shows such a step as the message it carries, where the
// run records no conversation of its own.
type Messenger interface {
	// Message is the message a step of one of the domain's tasks
	// carries: a short name for it ("turn 1") and its text, in the
	// benchmark's words; ok is false for a step that carries none.
	Message(task string, actor model.Actor, a *model.Action) (name, text string, ok bool)
}

// An Explainer is a domain that says, check by check, why its benchmark
// scored a run as it did, read off the payload its evaluators score
// (Domain.Rewards), so that it agrees with their scores.
type Explainer interface {
	// Explain is the benchmark's checks of a payload's run; false when
	// the payload is none of the domain's tasks'.
	Explain(p *payload.Payload) (*Explanation, bool)
}

// Explanation is a benchmark's verdict of a run and its checks.
type Explanation struct {
	// Verdict is the verdict in a line ("valid",
	// "multi_turn:instance_state_mismatch at turn 1"); Pass whether the
	// run passes.
	Verdict string
	Pass    bool
	// Says is the benchmark's own sentence for a failure ("" where none).
	Says string
	// Checks are the benchmark's checks in its order, each with what
	// decided it.
	Checks []Finding
}

// Finding is one check of a run.
type Finding struct {
	Name string // "turn 1 · state"
	// Checked says the benchmark checks it (false: shown, not scored);
	// Pass whether it passes.
	Checked, Pass bool
	// Detail says what decided it, a line each.
	Detail []string
}

// A CellShower is a domain whose cells hold values in an encoding of its
// own (BFCL's: an attribute's Python value as pyval.Marshal writes it):
// ShowCell is a cell's value as the benchmark shows it to people, as
// JSON text (BFCL's state_info: the value made JSON-serializable, then
// json.dumps); ok is false for a cell it cannot read.
type CellShower interface {
	ShowCell(v model.Value) (text string, ok bool)
}
