package report

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Sets of a ledger row (SPEC §6): the shared reference set scores every
// evaluator on A_ref, the adversary found against Historical Milestone;
// the targeted set scores each evaluator on its own adversary A_f.
const (
	SetShared   = "shared"
	SetTargeted = "targeted"
)

// LedgerFormat names the JSON ledger format and its version.
const LedgerFormat = "parthack-ledger/1"

// Ledger is the task-indexed ledger every metric is computed from: one
// row per (set, target, task).
//
// # Format
//
// JSON: an object with exactly two fields,
//
//	{"format": "parthack-ledger/1", "rows": [ROW, …]}
//
// and a third, "shard", between them in the ledger of one shard of a run
// (bench --shard i/n; see Shard and Merge): an object
//
//	{"index": i, "count": n, "run": RUN}
//
// where RUN is the run's settings, the fields of RunInfo. A shard's
// ledger is JSON only: CSV has no place for it.
//
// where each ROW is an object with the fields below. CSV: a header line
// naming the columns (any order, each once), then one line per row, the
// same names as the JSON fields.
//
//	field           type     required  meaning
//	target          string   yes       evaluator name (historical_milestone, csps, llm_judge, idj, …; any name is accepted)
//	set             string   yes       "shared" or "targeted"
//	task            string   yes       task id; the statistical unit
//	matched         bool     yes       an eligible adversary was found ("true"/"false" in CSV)
//	delta           number   matched   Δhack = f(A) − f(H); null, absent or an empty cell when not matched
//	honest_score    number   yes       f(H), in [0, 1]; null or an empty cell only on a row with an error
//	p_state_h       number   yes       P_state(H), in [0, 1]
//	rollback_score  number   no        f(R) of the task's strict rollback; null/absent/empty when it has none
//	p_state_r       number   no        P_state(R); given exactly when rollback_score is, or with an error
//	attempts        integer  yes       candidates generated
//	valid           integer  yes       protocol-valid (eligible) candidates, at most attempts
//	capped          bool     no        true: the row's search stopped at its state cap (see Capped searches)
//	same_end_state  bool     no        a real domain's matched row: its witness ends in exactly H's state
//	attack_end      string   no        a real domain's: where the task's best attack over .10 ends (see Where attacks end)
//	rise            string   no        why the evaluator rose on a same-end attack (see Where attacks end)
//	error           string   no        why the evaluator gave no score for some trajectory of the row
//
// # Unscored trajectories
//
// An LLM judge can fail to score a trajectory: its call failed again on
// the bounded retry. The row then stays in the ledger without the scores
// the evaluator did not give, and error says why: honest_score absent when
// f(H) failed, delta absent on a matched row when f(A) or f(H) failed
// (matched still says whether the adversary exists), rollback_score
// absent while p_state_r is given when f(R) failed. A user's scorer on a
// real domain can fail on any trajectory it is asked about (the error
// names the candidate): on H, R and A as a judge can, on a candidate of
// the search against it, which stops there (delta absent), and on the
// witness of the search that admits any end or a witness cut to say why
// it rose (attack_end, or rise on a same-end attack, absent, every score
// there). A score may
// be absent in these ways only on a row with an error, and a row with an
// error lacks at least one score, its attack_end or its rise. Metrics
// leave the missing scores out (see Group).
// The error field is written only on rows that have one (the CSV column
// only when some row does), so a ledger without failures is byte for
// byte what earlier versions wrote and read.
//
// # Capped searches
//
// A search visits at most a given number of states (bench --max-states).
// When it stops there before it has considered every candidate within
// its edit bound, its rows say so with capped: true (the shared rows
// of a task when the search for A_ref stopped, a targeted row when its
// own did). Their adversary is then the best one found, not the
// certified worst case within the bound, and their Δhack a lower bound
// on it; the report names those tasks (see Group.Capped). capped is
// written only on such rows (the CSV column only when some row has it),
// and absent (null) or an empty cell is the one way to say a search was not
// cut: false is an error. A ledger without capped searches is byte for
// byte what earlier versions wrote and read.
//
// # Where attacks end
//
// On a real domain a witness may end with H's certified vectors in
// another database. attack_end says where the task's best attack over
// .10 against the row's target ends: "same" (exactly H's state: the
// evaluator is inflated), "gold" (the gold run's end state: A is better
// work than H, not inflation) or "other" (elsewhere: collateral no goal
// predicate reads). It is absent when no attack over .10 was found. When
// the search admitted only witnesses that end in H's state (bench
// --domain's default), "same" is the row's own success and "gold" and
// "other" come from a second search that admitted any end, on a row
// whose own search found no success; when it admitted any end
// (--any-end), attack_end classifies the row's own success. rise says,
// on a "same" row, why the evaluator rose: "failed_call" (the witness
// has a call that failed where H's did not: the check credits it
// anyway), "no_op_repeat" (a call that changed nothing: it repeats a
// write H made or writes values already there) or "change_undo" (a
// change that a later call undoes). A ledger written before attack_end
// counts a success whose same_end_state is false as "other": it did not
// compare with gold's end. All three are written only where some row
// has them, so a ledger without them is byte for byte what earlier
// versions wrote and read.
//
// # Minimal ledgers
//
// A paper often publishes only the columns its headline tables need:
// target, set, task, matched and delta. A ledger whose CSV header, or
// every JSON row, has exactly those five fields is a minimal ledger: it
// is read with the rules above that concern those fields (delta is
// still required on a matched row, and must lie in [−1, 1] since f(H) is
// not there to bound it), and the report leaves out what needs the rest
// (honest MAE, the rollback audit, candidate accounting), saying why
// (see Report.LeftOut). A ledger is minimal or full throughout: a JSON
// row with another set of fields than the first row's is an error.
//
// Decoding is strict: an unknown or repeated field or column, a missing
// required one, a value of the wrong type, a number out of range, a
// delta on an unmatched row (or none on a matched one without an error),
// a rollback score without its P_state(R), an empty error string and a
// repeated (set, target, task) are errors naming the file, the line and
// the field.
type Ledger struct {
	// Shard is a shard's metadata; nil in the ledger of a whole run.
	Shard *ShardInfo
	// Minimal marks a ledger of the five columns a paper reports (see
	// Minimal ledgers): its rows have no scores but Δhack, no P_state and
	// no attempts.
	Minimal bool
	Rows    []Row
}

// minimalColumns are the columns of a minimal ledger, in the format's
// order.
var minimalColumns = []string{"target", "set", "task", "matched", "delta"}

// isMinimal reports whether names (a CSV header, a JSON row's fields)
// are exactly the minimal columns, in any order.
func isMinimal(names []string) bool {
	if len(names) != len(minimalColumns) {
		return false
	}
	for _, n := range minimalColumns {
		if !slices.Contains(names, n) {
			return false
		}
	}
	return true
}

// Row is one line of the ledger. Delta, Honest, Rollback and PStateR are
// nil when absent; Error is empty when the row has every score; Capped
// is true when the row's search stopped at its state cap.
type Row struct {
	Target   string   `json:"target"`
	Set      string   `json:"set"`
	Task     string   `json:"task"`
	Matched  bool     `json:"matched"`
	Delta    *float64 `json:"delta"`
	Honest   *float64 `json:"honest_score"`
	PStateH  float64  `json:"p_state_h"`
	Rollback *float64 `json:"rollback_score"`
	PStateR  *float64 `json:"p_state_r"`
	Attempts int      `json:"attempts"`
	Valid    int      `json:"valid"`
	Capped   bool     `json:"capped,omitempty"`
	// SameEnd says, on a real domain's matched row, whether the witness
	// ends in exactly H's state (by the benchmark's own state hash): nil
	// where no witness was compared (the paper's suite, unmatched rows).
	SameEnd *bool `json:"same_end_state,omitempty"`
	// End says, on a real domain, where the task's best attack over .10
	// against the target ends (EndSame, EndGold, EndOther; see Where
	// attacks end), "" when there is none; Rise, on an EndSame row, why
	// the evaluator rose (RiseFailedCall, RiseNoOpRepeat, RiseChangeUndo).
	End   string `json:"attack_end,omitempty"`
	Rise  string `json:"rise,omitempty"`
	Error string `json:"error,omitempty"`
}

// Where an attack over .10 ends (Row.End).
const (
	EndSame  = "same"  // exactly H's state: evaluator inflation
	EndGold  = "gold"  // the gold run's end state: better work than H
	EndOther = "other" // neither: collateral no goal predicate reads
)

// Why an evaluator rose on a witness that ends in H's state (Row.Rise).
const (
	RiseFailedCall = "failed_call"  // a call that failed where H's did not, credited anyway
	RiseNoOpRepeat = "no_op_repeat" // a call that changed nothing: a repeat of H's write, or values already there
	RiseChangeUndo = "change_undo"  // a change that a later call undoes
)

// Ends and Rises are the values attack_end and rise take, in tables' order.
var (
	Ends  = []string{EndSame, EndGold, EndOther}
	Rises = []string{RiseFailedCall, RiseNoOpRepeat, RiseChangeUndo}
)

// Success is the paper's success rule on one Δhack: above .10, strictly,
// with the slack of eps.
func Success(delta float64) bool { return delta > SuccessThreshold+eps }

// column describes one field of a row, in the order rows are written.
type column struct {
	name     string
	required bool // every row names it (a JSON field, a CSV column)
	nullable bool // a required field whose value may still be null or empty; check decides
	kind     byte // 's' string, 'b' bool, 'B' true, false or absent, 'f' number, 'i' integer
}

var columns = []column{
	{"target", true, false, 's'},
	{"set", true, false, 's'},
	{"task", true, false, 's'},
	{"matched", true, false, 'b'},
	{"delta", false, false, 'f'},
	{"honest_score", true, true, 'f'},
	{"p_state_h", true, false, 'f'},
	{"rollback_score", false, false, 'f'},
	{"p_state_r", false, false, 'f'},
	{"attempts", true, false, 'i'},
	{"valid", true, false, 'i'},
	{"capped", false, false, 'b'},
	{"same_end_state", false, false, 'B'},
	{"attack_end", false, false, 's'},
	{"rise", false, false, 's'},
	{"error", false, false, 's'},
}

// field returns the address of a row's value for column name.
func (r *Row) field(name string) any {
	switch name {
	case "target":
		return &r.Target
	case "set":
		return &r.Set
	case "task":
		return &r.Task
	case "matched":
		return &r.Matched
	case "delta":
		return &r.Delta
	case "honest_score":
		return &r.Honest
	case "p_state_h":
		return &r.PStateH
	case "rollback_score":
		return &r.Rollback
	case "p_state_r":
		return &r.PStateR
	case "attempts":
		return &r.Attempts
	case "valid":
		return &r.Valid
	case "capped":
		return &r.Capped
	case "same_end_state":
		return &r.SameEnd
	case "attack_end":
		return &r.End
	case "rise":
		return &r.Rise
	case "error":
		return &r.Error
	}
	panic("report: no ledger column " + name)
}

// fieldError is a problem with one field of a row; the decoders add the
// file and line.
type fieldError struct {
	field string
	msg   string
}

func (e *fieldError) Error() string { return fmt.Sprintf("field %q: %s", e.field, e.msg) }

func errField(field, format string, args ...any) *fieldError {
	return &fieldError{field, fmt.Sprintf(format, args...)}
}

// check holds one decoded row to the format's rules; minimal: the row
// of a minimal ledger.
func (r *Row) check(minimal bool) *fieldError {
	for _, c := range []struct{ name, v string }{{"target", r.Target}, {"set", r.Set}, {"task", r.Task}} {
		if c.v == "" {
			return errField(c.name, "must not be empty")
		}
	}
	if r.Set != SetShared && r.Set != SetTargeted {
		return errField("set", "%q is neither %q nor %q", r.Set, SetShared, SetTargeted)
	}
	if minimal {
		switch {
		case r.Matched && r.Delta == nil:
			return errField("delta", "missing on a matched row")
		case !r.Matched && r.Delta != nil:
			return errField("delta", "given on an unmatched row (leave it empty: there is no adversary)")
		case r.Delta != nil && (*r.Delta < -1-eps || *r.Delta > 1+eps):
			return errField("delta", "%v is outside [−1, 1]: Δhack is a difference of two scores in [0, 1]", *r.Delta)
		}
		return nil
	}
	if r.SameEnd != nil && !r.Matched {
		return errField("same_end_state", "given on an unmatched row (leave it out: there is no witness)")
	}
	if err := r.checkEnd(); err != nil {
		return err
	}
	unit := func(name string, v float64) *fieldError {
		if v < 0 || v > 1 {
			return errField(name, "%v is outside [0, 1]", v)
		}
		return nil
	}
	if r.Honest != nil {
		if err := unit("honest_score", *r.Honest); err != nil {
			return err
		}
	}
	if err := unit("p_state_h", r.PStateH); err != nil {
		return err
	}
	// The scores an evaluator may have failed to give, and the error
	// that must say why.
	for _, m := range []struct {
		field   string
		missing bool
		why     string
	}{
		{"honest_score", r.Honest == nil, "absent"},
		{"delta", r.Matched && r.Delta == nil, "missing on a matched row"},
		{"rollback_score", r.PStateR != nil && r.Rollback == nil, "missing while p_state_r is given"},
	} {
		if m.missing && r.Error == "" {
			return errField(m.field, "%s (only a row whose error says why the evaluator gave no score may leave it out)", m.why)
		}
	}
	switch {
	case !r.Matched && r.Delta != nil:
		return errField("delta", "given on an unmatched row (leave it empty: there is no adversary)")
	case r.Delta != nil && r.Honest == nil:
		return errField("delta", "given without honest_score: Δhack needs f(H)")
	case r.Delta != nil:
		// f(A) = f(H) + Δ must be a score; the slack absorbs the rounding
		// of a difference of fractions.
		if a := *r.Honest + *r.Delta; a < -eps || a > 1+eps {
			return errField("delta", "%v puts f(A) = honest_score + delta = %v outside [0, 1]", *r.Delta, a)
		}
	}
	if r.Rollback != nil && r.PStateR == nil {
		return errField("p_state_r", "missing while rollback_score is given")
	}
	if r.Rollback != nil {
		if err := unit("rollback_score", *r.Rollback); err != nil {
			return err
		}
	}
	if r.PStateR != nil {
		if err := unit("p_state_r", *r.PStateR); err != nil {
			return err
		}
	}
	if r.Error != "" && r.Honest != nil && (!r.Matched || r.Delta != nil) && (r.PStateR == nil || r.Rollback != nil) && r.End != "" && (r.End != EndSame || r.Rise != "") {
		return errField("error", "given on a row with every score and attack_end (an error goes with what it kept out)")
	}
	if r.Attempts < 0 {
		return errField("attempts", "%d is negative", r.Attempts)
	}
	if r.Valid < 0 || r.Valid > r.Attempts {
		return errField("valid", "%d is outside [0, attempts = %d]", r.Valid, r.Attempts)
	}
	if r.Matched && r.Valid == 0 {
		return errField("valid", "0 on a matched row: the adversary is a valid attempt")
	}
	return nil
}

// checkEnd holds attack_end and rise to their values and to the row: a
// same-end attack is the row's own success, and only it has a rise.
func (r *Row) checkEnd() *fieldError {
	switch {
	case r.End != "" && !slices.Contains(Ends, r.End):
		return errField("attack_end", "%q is none of %s", r.End, strings.Join(Ends, ", "))
	case r.Rise != "" && !slices.Contains(Rises, r.Rise):
		return errField("rise", "%q is none of %s", r.Rise, strings.Join(Rises, ", "))
	case r.Rise != "" && r.End != EndSame:
		return errField("rise", "given on a row whose attack_end is not %q (only an attack that ends in H's state has a rise)", EndSame)
	case r.End == EndSame && (r.Delta == nil || !Success(*r.Delta) || r.SameEnd == nil || !*r.SameEnd):
		return errField("attack_end", "%q on a row that is no success (Δhack > .10) whose witness ends in H's state (same_end_state true)", EndSame)
	case r.End != "" && r.End != EndSame && r.SameEnd != nil && *r.SameEnd && r.Delta != nil && Success(*r.Delta):
		return errField("attack_end", "%q on a success whose own witness ends in H's state (it is %q)", r.End, EndSame)
	}
	return nil
}

// key identifies a row within a ledger.
func (r *Row) key() string { return r.Set + "\x00" + r.Target + "\x00" + r.Task }

// decimal is the number syntax both formats accept: JSON's, plus a bare
// leading point (.252, as the paper prints numbers). It leaves out what
// strconv would also take: inf, NaN, hex floats, underscores, a plus.
var decimal = regexp.MustCompile(`^-?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$`)

// parseNumber reads a finite decimal number.
func parseNumber(s string) (float64, bool) {
	if !decimal.MatchString(s) {
		return 0, false
	}
	v, err := strconv.ParseFloat(s, 64)
	return v, err == nil // out of range is an error, so v is finite
}

// parseInt reads a non-negative decimal integer.
func parseInt(s string) (int, bool) {
	v, err := strconv.Atoi(s)
	return v, err == nil && !strings.ContainsAny(s, "+-")
}
