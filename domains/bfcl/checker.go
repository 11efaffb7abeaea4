package bfcl

import (
	"fmt"
	"strings"

	"github.com/parthack/parthack/domains/bfcl/classes"
	"github.com/parthack/parthack/domains/bfcl/pyval"
)

// Verdict is BFCL's multi-turn verdict of one entry, as its eval_runner
// and multi_turn_checker (gorilla 8db0b7ca) give it, and every turn's
// checks, computed for all turns, past the first that fails.
type Verdict struct {
	Valid        bool
	ErrorType    string // "multi_turn:instance_state_mismatch", ...; "" when valid
	ErrorMessage string // BFCL's sentence for it
	// Turn is the turn the verdict failed at; -1 when valid, or when the
	// entry failed as a whole (force_terminated, inference_error).
	Turn int
	// Class and Differences name, for instance_state_mismatch, the class
	// whose instance differs (the first, in involved_classes order) and
	// its public attributes that differ.
	Class       string
	Differences []string
	// Missing are, for execution_response_mismatch, the gold results not
	// found among the model's.
	Missing []string
	// Turns are the checks of every gold turn, in order.
	Turns []TurnCheck
}

// TurnCheck is one turn's checks.
type TurnCheck struct {
	// Ran says the run reached the turn (false past a force-termination:
	// the turn is then checked as if the model made no call).
	Ran bool
	// Checked says BFCL checks the turn: its gold has calls. A turn
	// without is where the model should find it cannot act (miss_func,
	// miss_param); its calls still change the state later turns see.
	Checked bool
	// Empty says the model made no call in the turn (BFCL's
	// empty_turn_model_response, when the turn is checked).
	Empty bool
	// StateEqual says every involved instance's public attributes equal
	// gold's after the turn (BFCL's state check).
	StateEqual bool
	// StateDiffers are the classes whose instance differs, in
	// involved_classes order.
	StateDiffers []StateDiff
	// ModelResults are the results of the model's calls, per step;
	// GoldResults those of the turn's gold calls.
	ModelResults [][]string
	GoldResults  []string
	// Found counts the gold results matched among the model's results of
	// all turns so far, each model result matching one gold result at
	// most (BFCL's response check, _is_subsequence_unordered); Missing
	// are the others. The response check passes when Found is
	// len(GoldResults).
	Found   int
	Missing []string
}

// StateDiff is one class whose instance differs from gold's, and its
// public attributes that differ, in gold's order.
type StateDiff struct {
	Class string
	Attrs []string
}

// Passed says the turn passes both of BFCL's checks (a turn BFCL does
// not check passes).
func (t *TurnCheck) Passed() bool {
	return !t.Checked || !t.Empty && t.StateEqual && t.Found == len(t.GoldResults)
}

// BFCL's error types.
const (
	ErrInferenceError   = "multi_turn:inference_error"
	ErrForceTerminated  = "multi_turn:force_terminated"
	ErrEmptyTurn        = "multi_turn:empty_turn_model_response"
	ErrStateMismatch    = "multi_turn:instance_state_mismatch"
	ErrResponseMismatch = "multi_turn:execution_response_mismatch"
)

// Checker checks entries as BFCL's checker does for one model. BFCL names
// each instance after the model (ModelName) and the entry, and writes
// those names into a call's text wherever a method's name is followed by
// "(", string literals included; a state holding such text holds the
// name. The checker runs the model's calls under ModelName+"_eval", the
// gold calls under ModelName+"_ground_truth_eval", as BFCL does.
type Checker struct {
	ModelName string
}

// Check is Checker{}.Check.
func Check(e *Entry, modelTurns [][][]string) Verdict { return Checker{}.Check(e, modelTurns) }

// Score is BFCL's verdict of a result entry: an inference error is
// multi_turn:inference_error; otherwise the calls BFCL decodes
// (Result.ModelTurns) are checked.
func (c Checker) Score(e *Entry, r *Result) Verdict {
	if r.Failed {
		v := c.Check(e, nil)
		v.ErrorType = ErrInferenceError
		v.ErrorMessage = "Error during inference phase. Model did not output a list of model responses."
		return v
	}
	return c.Check(e, r.ModelTurns())
}

// Check runs the model's calls of each turn (per step, each step's
// decoded call strings) and the entry's gold calls on two sets of
// instances that persist across turns, and checks each turn as BFCL's
// multi_turn_checker does: a turn whose gold has no calls is not checked;
// a checked turn fails if the model made no call in it
// (empty_turn_model_response), else if an instance's state differs from
// gold's (instance_state_mismatch), else if a gold result is not among
// the model's results so far (execution_response_mismatch). The verdict
// is BFCL's: fewer turns than the gold's is force_terminated, else the
// first failing turn decides. Every turn is checked all the same.
func (c Checker) Check(e *Entry, modelTurns [][][]string) Verdict {
	v := Verdict{Valid: true, Turn: -1}
	if len(modelTurns) != len(e.GroundTruth) {
		v.Valid = false
		v.ErrorType = ErrForceTerminated
		v.ErrorMessage = fmt.Sprintf("Model was force-terminated during inference phase. The length of the model result turns (%d) does not match the length of the ground truth turns (%d).", len(modelTurns), len(e.GroundTruth))
	}
	model, err := classes.NewSession(e.InitialConfig, e.InvolvedClasses, c.ModelName+"_eval", e.ID)
	if err != nil {
		return c.broken(v, err)
	}
	gold, err := classes.NewSession(e.InitialConfig, e.InvolvedClasses, c.ModelName+"_ground_truth_eval", e.ID)
	if err != nil {
		return c.broken(v, err)
	}
	var all []string // the model's results of every turn so far
	for t, goldCalls := range e.GroundTruth {
		tc := TurnCheck{Ran: t < len(modelTurns), Checked: len(goldCalls) > 0}
		var steps [][]string
		if tc.Ran {
			steps = modelTurns[t]
		}
		for _, step := range steps {
			res := model.Execute(step)
			tc.ModelResults = append(tc.ModelResults, res)
			all = append(all, res...)
		}
		tc.GoldResults = gold.Execute(goldCalls)
		tc.Empty = len(steps) == 0 || len(steps) == 1 && len(steps[0]) == 0
		tc.StateDiffers = StateDiffers(model, gold)
		tc.StateEqual = len(tc.StateDiffers) == 0
		tc.Missing = unmatched(tc.GoldResults, all)
		tc.Found = len(tc.GoldResults) - len(tc.Missing)
		if v.Valid && tc.Checked {
			switch {
			case tc.Empty:
				v.Valid, v.Turn, v.ErrorType = false, t, ErrEmptyTurn
				v.ErrorMessage = fmt.Sprintf("Model response list is empty for turn %d", t)
			case !tc.StateEqual:
				v.Valid, v.Turn, v.ErrorType = false, t, ErrStateMismatch
				v.Class, v.Differences = tc.StateDiffers[0].Class, tc.StateDiffers[0].Attrs
				v.ErrorMessage = fmt.Sprintf("Model instance for %s does not match the state with ground truth instance.", v.Class)
			case len(tc.Missing) > 0:
				v.Valid, v.Turn, v.ErrorType = false, t, ErrResponseMismatch
				v.Missing = tc.Missing
				v.ErrorMessage = fmt.Sprintf("Model response execution results so far does not contain all the ground truth response execution results for turn %d.", t)
			}
		}
		v.Turns = append(v.Turns, tc)
	}
	return v
}

// broken is the verdict when the entry's instances cannot be made (an
// initial_config the classes refuse): BFCL's checker raises there, so the
// entry has no verdict of its own; it is failed with the reason.
func (c Checker) broken(v Verdict, err error) Verdict {
	v.Valid, v.Turn = false, -1
	if v.ErrorType == "" {
		v.ErrorType = "parthack:instantiation_error"
		v.ErrorMessage = err.Error()
	}
	return v
}

// StateDiffers is BFCL's state check (state_checker): for each instance
// of gold, in involved order, its public attributes (in its own order)
// compared with model's instance of the class by Python's !=; nil when
// every instance is equal. Any two runs of one entry compare so (a
// witness's turn end with H's).
func StateDiffers(model, gold *classes.Session) []StateDiff {
	var out []StateDiff
	for _, g := range gold.Snapshot() {
		m, _ := model.Instance(g.Class)
		d := StateDiff{Class: g.Class}
		for _, a := range g.Attrs {
			mv, ok := m.Get(a.Name)
			if !ok || !pyval.Equal(mv, a.Value) {
				d.Attrs = append(d.Attrs, a.Name)
			}
		}
		if len(d.Attrs) > 0 {
			out = append(out, d)
		}
	}
	return out
}

// unmatched is what _is_subsequence_unordered(gold, model) reports
// missing: each gold result removes one equal result from a copy of the
// model's, and those it finds none for are missing.
func unmatched(gold, model []string) []string {
	left := map[string]int{}
	for _, r := range model {
		left[r]++
	}
	var missing []string
	for _, g := range gold {
		if left[g] > 0 {
			left[g]--
		} else {
			missing = append(missing, g)
		}
	}
	return missing
}

// String is the verdict in a line: "valid", or the error type and turn.
func (v Verdict) String() string {
	if v.Valid {
		return "valid"
	}
	var b strings.Builder
	b.WriteString(v.ErrorType)
	if v.Turn >= 0 {
		fmt.Fprintf(&b, " at turn %d", v.Turn)
	}
	return b.String()
}
