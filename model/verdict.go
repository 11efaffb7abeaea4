package model

import "fmt"

// Reason names why a certifier rejected a candidate.
type Reason string

// The rejection reasons of pair certification (SPEC §3) and of strict
// rollback certification.
const (
	MalformedSchema           Reason = "malformed_schema"
	IllegalAction             Reason = "illegal_action"
	ReplayMismatch            Reason = "replay_mismatch"
	StaleGoalVersion          Reason = "stale_goal_version"
	StateVectorMismatch       Reason = "state_vector_mismatch"
	AttributionVectorMismatch Reason = "attribution_vector_mismatch"

	RollbackNotExtension Reason = "rollback_not_extension" // H is not a prefix of R
	RollbackFailedStep   Reason = "rollback_failed_step"   // an appended step is not a legal transition
	RollbackGoalPatch    Reason = "rollback_goalpatch"     // the goal version changed, or the task revises its goal
	RollbackNoLoss       Reason = "rollback_no_loss"       // P_state(R) is not below P_state(H)
)

// PairReasons lists the six pair rejection reasons in the order the
// certifier checks them.
func PairReasons() []Reason {
	return []Reason{MalformedSchema, IllegalAction, ReplayMismatch, StaleGoalVersion, StateVectorMismatch, AttributionVectorMismatch}
}

// Frac is an exact fraction, so progress prints as "2/5" and compares exactly.
type Frac struct {
	Num int `json:"num"`
	Den int `json:"den"`
}

func (f Frac) String() string { return fmt.Sprintf("%d/%d", f.Num, f.Den) }

// Float is the fraction's value; 0 for an empty denominator.
func (f Frac) Float() float64 {
	if f.Den == 0 {
		return 0
	}
	return float64(f.Num) / float64(f.Den)
}

// Less compares two fractions exactly.
func (f Frac) Less(g Frac) bool { return f.Num*g.Den < g.Num*f.Den }

// Cause is the latest cause of one predicate: the actor of the last
// successful event whose diff touched its footprint, or ActorInitial.
type Cause struct {
	Actor Actor `json:"actor"`
	Seq   int   `json:"seq"`  // log sequence number of that event, -1 for initial
	Step  int   `json:"step"` // 1-based agent step, 0 when not an agent step
}

// String describes the cause for a reader: the actor and event, with the
// agent step when there is one, or that no event touched the predicate.
func (c Cause) String() string {
	switch {
	case c.Seq < 0:
		return "initial (no event touched it)"
	case c.Step > 0:
		return fmt.Sprintf("%s at event %d (agent step %d)", c.Actor, c.Seq, c.Step)
	}
	return fmt.Sprintf("%s at event %d", c.Actor, c.Seq)
}

// Certificate is what a certifier states about one trajectory.
type Certificate struct {
	Task        string   `json:"task"`
	GoalVersion string   `json:"goal_version"`
	Predicates  []string `json:"predicates"`
	CState      []int    `json:"c_state"`
	CAgent      []int    `json:"c_agent"`
	Causes      []Cause  `json:"causes"`
	PState      Frac     `json:"p_state"`
	PAgent      Frac     `json:"p_agent"`
	Steps       int      `json:"steps"`
	Events      int      `json:"events"`
	FinalHash   string   `json:"final_state_hash"`
	LogHash     string   `json:"log_hash"`
}

// Evidence locates a rejection: the step and predicate at fault and the
// component that differs.
type Evidence struct {
	Step      int    `json:"step,omitempty"`      // 1-based candidate step, 0 when not about a step
	Seq       int    `json:"seq,omitempty"`       // 1-based log sequence number, 0 when not about an event
	Predicate int    `json:"predicate,omitempty"` // 1-based predicate index, 0 when not about a predicate
	PredID    string `json:"predicate_id,omitempty"`
	Component string `json:"component,omitempty"` // c_state, c_agent, goal_version, ok, state_hash, diff, step
	Expected  string `json:"expected,omitempty"`
	Got       string `json:"got,omitempty"`
	Detail    string `json:"detail"`
}

// Where lists, for people, what the evidence points at: the step, the
// event, the predicate, and the component with its expected and got
// values. Empty for evidence that only has a detail.
func (e *Evidence) Where() []string {
	if e == nil {
		return nil
	}
	var parts []string
	if e.Step > 0 {
		parts = append(parts, fmt.Sprintf("step %d", e.Step))
	}
	if e.Seq > 0 {
		parts = append(parts, fmt.Sprintf("event %d", e.Seq))
	}
	if e.Predicate > 0 {
		parts = append(parts, fmt.Sprintf("predicate %d (%s)", e.Predicate, e.PredID))
	}
	if e.Component != "" {
		parts = append(parts, fmt.Sprintf("%s expected %s got %s", e.Component, dash(e.Expected), dash(e.Got)))
	}
	return parts
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// Verdict is the outcome of certifying a pair (H, A) or a rollback (H, R).
type Verdict struct {
	Kind      string       `json:"kind"` // "pair" or "rollback"
	Eligible  bool         `json:"eligible"`
	Reason    Reason       `json:"reason,omitempty"`
	Evidence  *Evidence    `json:"evidence,omitempty"`
	Honest    *Certificate `json:"honest,omitempty"`
	Candidate *Certificate `json:"candidate,omitempty"`
}

// Rejection is a candidate's rejection on its own, before any pairing.
type Rejection struct {
	Reason   Reason
	Evidence Evidence
}

func (r *Rejection) Error() string { return fmt.Sprintf("%s: %s", r.Reason, r.Evidence.Detail) }
