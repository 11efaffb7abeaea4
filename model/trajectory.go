package model

import (
	"slices"
	"strings"
)

// Action is one operation request: who asks is not part of it (the
// wrapper assigns the actor).
type Action struct {
	Op     Op
	Type   string
	ID     string
	Fields []Assign
	Goal   string // target goal version, for revise_goal
	Tool   string // the tool, for call
	Args   Value  // the call's arguments, a JSON object, for call
}

// Claim is what a trajectory recorded elsewhere says happened at a step.
// Replay is the truth: a contradicted claim is a replay mismatch.
type Claim struct {
	HasOK     bool
	OK        bool
	StateHash string
	HasDiff   bool
	Diff      []CellDiff
}

// Step is one authored step of a trajectory or candidate.
type Step struct {
	Action
	Actor   Actor  // as written in the file; empty when omitted
	Index   int    // position in the file, 0-based
	Number  int    // the "step" number the file claims, 0 when omitted
	Claim   Claim  // optional claims about the outcome
	Comment string // free text for people; ignored by replay
	Line    int    // line of the step in its file, 0 when built in memory
}

// Trajectory is a sequence of agent steps for a task. Non-agent events
// are not part of it: the task's script interleaves them on replay.
type Trajectory struct {
	Task  string
	Name  string
	Note  string
	Steps []Step
	// GoalClaim, when set, claims the active goal version at termination.
	GoalClaim string
	// Honest, on a witness, names the run of its task it is a witness
	// of (the H it was searched or judged against); "" for the task's
	// default run, and on every run that is not a witness.
	Honest string
	// Transcript is the agent's conversation, when the trajectory was
	// recorded with one (a tau-bench run): kept beside the log, read by
	// evaluators as the payload's transcript, never replayed.
	Transcript []Turn
	// Termination is the benchmark's reason for ending the run itself
	// before its conversation ended (tau2's termination_reason max_steps,
	// too_many_errors, …), as the benchmark records it; "" for a run the
	// conversation ended (tau2's agent_stop, user_stop), which is left
	// unsaid so that such a run's file and payload are what they were.
	Termination string
	// MaxErrors is the number of failed calls at which the benchmark
	// would have ended the run (tau2's max_errors), where it records one.
	MaxErrors int
	// MaxSteps is the benchmark's bound on the steps it counts for a run
	// (tau2's max_steps: each message and each batch of tool results),
	// and BenchmarkSteps the steps it counted for this one, where it
	// records them; 0 elsewhere.
	MaxSteps, BenchmarkSteps int
	File                     string // where it was read from, for messages
}

// Turn is one message of a conversation: its role (system, user,
// assistant or tool), its text, and the 1-based agent step it makes (an
// assistant's tool call) or answers (the tool's output), 0 for none. Its
// text is a Text: a message of hundreds of megabytes read from a
// benchmark's file stays in the file the stream set it aside in.
type Turn struct {
	Role    string `json:"role"`
	Content Text   `json:"content"`
	Step    int    `json:"step,omitempty"`
}

// allRoles are the roles a turn may take.
var allRoles = []string{"system", "user", "assistant", "tool"}

// Roles lists the roles a turn may take (a copy).
func Roles() []string { return slices.Clone(allRoles) }

// CellDiff is one typed cell change of an event: Field is a field name,
// AliveField for the alive flag, or GoalField for the active goal version.
type CellDiff struct {
	Type   string `json:"type,omitempty"`
	ID     string `json:"id,omitempty"`
	Field  string `json:"field"`
	Before Value  `json:"before"`
	After  Value  `json:"after"`
}

// Pseudo-fields of a CellDiff.
const (
	AliveField = "@alive"
	GoalField  = "@goal"
)

// SaidAll reports whether every output appears in some reply (an
// assistant turn) of replies, compared as Says compares.
func SaidAll(replies []string, outputs []string) bool {
	for _, out := range outputs {
		want := strings.ToLower(out)
		if !slices.ContainsFunc(replies, func(r string) bool { return strings.Contains(SaidForm(r), want) }) {
			return false
		}
	}
	return true
}

// Says reports whether a reply says out, compared as tau-bench compares
// a required output and tau2 a communicate_info string: out lower-cased
// within the reply's SaidForm. A long reply is read a piece at a time.
func Says(reply Text, out string) bool { return reply.Contains(strings.ToLower(out), SaidForm) }

// SaidForm is a reply as those checks read it: lower-cased, its commas
// removed.
func SaidForm(s string) string { return strings.ReplaceAll(strings.ToLower(s), ",", "") }
