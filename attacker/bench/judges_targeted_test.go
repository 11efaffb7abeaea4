package bench

import (
	"context"
	"fmt"
	"testing"

	"github.com/parthack/parthack/internal/llmclient"
	"github.com/parthack/parthack/internal/payload"
	"github.com/parthack/parthack/report"
)

// TestRunJudgesTargeted: with JudgeCalls, every judge also gets a
// target-specific row from the budgeted best-first search, spending
// exactly its calls; a judge that scores like Historical Milestone finds
// that evaluator's inflation, a twin of CSPS finds none, and a judge
// whose candidate calls fail leaves Δhack out and says why.
func TestRunJudgesTargeted(t *testing.T) {
	ts := judgeTasks(t)
	hist, csps := twin(evaluatorIndex(t, "historical_milestone")), twin(evaluatorIndex(t, "csps"))
	opt := RunOptions{Edits: 2, Workers: 2, JudgeCalls: 3, Judges: []Judge{hist.judge(report.TargetJudge), csps.judge(report.TargetIDJ)}}
	l, err := Run(context.Background(), ts, opt, nil)
	if err != nil {
		t.Fatal(err)
	}
	targeted := map[string]report.Row{}
	for _, r := range l.Rows {
		if r.Set == report.SetTargeted {
			targeted[r.Target+" "+r.Task] = r
		}
	}
	for _, task := range []string{"PH-H01", "PH-H04", "PH-H05"} {
		h, c := targeted[report.TargetJudge+" "+task], targeted[report.TargetIDJ+" "+task]
		ref := targeted["historical_milestone "+task]
		if !h.Matched || h.Attempts != 3 || h.Valid != 3 || h.Delta == nil || *h.Delta != *ref.Delta {
			t.Errorf("%s: judge row %+v; want 3 calls and Historical Milestone's Δhack %v", task, h, *ref.Delta)
		}
		if !c.Matched || c.Delta == nil || *c.Delta != 0 {
			t.Errorf("%s: CSPS twin row %+v; want Δhack 0", task, c)
		}
	}

	// H, A_ref and R of the shared row, H of the targeted run, then
	// every candidate's call fails.
	failing := &fakeJudge{fn: func(_ string, call int, _ *payload.Payload) (float64, error) {
		if call > 4 {
			return 0, fmt.Errorf("%w: HTTP 503", llmclient.ErrTransport)
		}
		return 0.5, nil
	}}
	l, err = Run(context.Background(), ts[1:2], RunOptions{Edits: 1, JudgeCalls: 2, Judges: []Judge{failing.judge(report.TargetJudge)}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range l.Rows {
		if r.Set == report.SetTargeted && r.Target == report.TargetJudge {
			if !r.Matched || r.Delta != nil || r.Error == "" || r.Attempts != 2 || r.Valid != 0 {
				t.Errorf("failed candidate calls: %+v", r)
			}
		}
	}
}
