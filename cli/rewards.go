package cli

import (
	"fmt"
	"io"
	"slices"

	"github.com/parthack/parthack/domains"
	"github.com/parthack/parthack/evaluators"
	"github.com/parthack/parthack/internal/payload"
)

// rewardRow is one of a domain's own evaluators (domains.Domain.Rewards)
// on a payload, for the score command. The first is the benchmark's
// verdict; Judged and NotComputed name the components of its basis an
// LLM judge decides that it includes, or leaves out.
type rewardRow struct {
	Name        string   `json:"name"`
	Label       string   `json:"label"`
	Value       float64  `json:"value"`
	Judged      []string `json:"judged,omitempty"`
	NotComputed []string `json:"not_computed,omitempty"`
}

// cellLabel is the row's label in the score table, saying what the
// verdict rests on besides the deterministic components.
func (r *rewardRow) cellLabel() string {
	switch {
	case len(r.Judged) > 0:
		return r.Label + " (with " + r.Judged[0] + " judge)"
	case len(r.NotComputed) > 0:
		return r.Label + " (without " + r.NotComputed[0] + ")"
	}
	return r.Label
}

// domainRewards scores the payload's bytes with a domain's rewards: those
// the payload carries a reference for. nl reports whether the payload's
// reward basis holds NL_ASSERTION, which an LLM judge decides.
func domainRewards(rewards []domains.Reward, b []byte) (rows []rewardRow, nl bool, err error) {
	p, err := payload.Decode(b)
	if err != nil {
		return nil, false, err
	}
	for _, rw := range rewards {
		if v, ok := rw.Score(p); ok {
			rows = append(rows, rewardRow{Name: rw.Name, Label: rw.Label, Value: v})
		}
	}
	nl = len(rows) > 0 && p.Reference != nil && slices.Contains(p.Reference.Basis, evaluators.Tau2NLBasis)
	return rows, nl, nil
}

// withJudge multiplies the NL_ASSERTION judge's score, when it gave one,
// into the verdict, the first row, as the benchmark does; else the
// verdict stays the product of the other components and says so.
func withJudge(rows []rewardRow, judged []judgeRow) {
	for _, j := range judged {
		if j.Name == evaluators.Tau2NLName && j.Value != nil {
			rows[0].Value *= *j.Value
			rows[0].Judged = []string{evaluators.Tau2NLBasis}
			return
		}
	}
	rows[0].NotComputed = []string{evaluators.Tau2NLBasis}
}

// writeNLNote says once that the verdict leaves out NL_ASSERTION: why,
// when the judge was asked for (its row's state), else how to ask it.
func writeNLNote(w io.Writer, rows []rewardRow, judged []judgeRow, judging bool) {
	if len(rows) == 0 || len(rows[0].NotComputed) == 0 {
		return
	}
	why := "; --judge with an endpoint (--judge-base-url and --judge-model, or PARTHACK_JUDGE_BASE_URL and PARTHACK_JUDGE_MODEL) has the judge decide it"
	for _, j := range judged {
		if judging && j.Name == evaluators.Tau2NLName {
			why = " (" + j.Label + ": " + j.State + ")"
		}
	}
	fmt.Fprintf(w, "note: %s is the product of the other components of the task's reward basis: %s, an LLM judge's verdict, was not computed%s\n",
		rows[0].Label, rows[0].NotComputed[0], why)
}
