package certifier

import (
	"errors"
	"strings"
	"testing"

	"github.com/parthack/parthack/certifier/internal/independent"
	"github.com/parthack/parthack/model"
)

// TestDisagreementIsAnError shows that the double check can fail: any
// difference between the two outcomes, in the verdict, the evidence or
// a certified field, is ErrDisagreement and never a verdict.
func TestDisagreementIsAnError(t *testing.T) {
	env := fixtureEnv(t, exampleDir)
	h := fixtureTrajectory(t, exampleDir, "honest.json")
	a := steps(t, "EX-01", closeT2, urgentT1, tagT1) // state_vector_mismatch at predicate 3
	base, err := DoublePair(env, h, a)
	if err != nil || base.Reason != model.StateVectorMismatch {
		t.Fatalf("base verdict %+v %v", base, err)
	}
	clone := func(v model.Verdict) model.Verdict {
		ev, hc, ac := *v.Evidence, *v.Honest, *v.Candidate
		hc.Causes = append([]model.Cause(nil), hc.Causes...)
		ac.CAgent = append([]int(nil), ac.CAgent...)
		v.Evidence, v.Honest, v.Candidate = &ev, &hc, &ac
		return v
	}
	cases := []struct {
		name   string
		mutate func(v *model.Verdict)
	}{
		{"eligibility", func(v *model.Verdict) { v.Eligible, v.Reason, v.Evidence = true, "", nil }},
		{"reason", func(v *model.Verdict) { v.Reason = model.AttributionVectorMismatch }},
		{"evidence step", func(v *model.Verdict) { v.Evidence.Step++ }},
		{"evidence seq", func(v *model.Verdict) { v.Evidence.Seq++ }},
		{"evidence predicate", func(v *model.Verdict) { v.Evidence.Predicate++ }},
		{"evidence component", func(v *model.Verdict) { v.Evidence.Component = "c_agent" }},
		{"evidence expected", func(v *model.Verdict) { v.Evidence.Expected = "1" }},
		{"evidence got", func(v *model.Verdict) { v.Evidence.Got = "0" }},
		{"goal version", func(v *model.Verdict) { v.Honest.GoalVersion = "v2" }},
		{"a cause", func(v *model.Verdict) { v.Honest.Causes[0].Seq++ }},
		{"c_agent", func(v *model.Verdict) { v.Candidate.CAgent[1] = 1 }},
		{"p_agent", func(v *model.Verdict) { v.Candidate.PAgent.Num++ }},
		{"final hash", func(v *model.Verdict) { v.Candidate.FinalHash = strings.Repeat("0", 64) }},
		{"a missing certificate", func(v *model.Verdict) { v.Candidate = nil }},
	}
	for _, tc := range cases {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			iv := clone(base)
			tc.mutate(&iv)
			if _, err := agree(base, nil, iv, nil); !errors.Is(err, ErrDisagreement) {
				t.Fatalf("got %v, want ErrDisagreement", err)
			}
		})
	}
	t.Run("detail_text_may_differ", func(t *testing.T) {
		iv := clone(base)
		iv.Evidence.Detail = "worded otherwise"
		if _, err := agree(base, nil, iv, nil); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("only_one_side_errs", func(t *testing.T) {
		herr := &independent.HonestError{Rejection: &model.Rejection{Reason: model.IllegalAction}}
		if _, err := agree(base, nil, model.Verdict{}, herr); !errors.Is(err, ErrDisagreement) {
			t.Fatalf("got %v, want ErrDisagreement", err)
		}
	})
	t.Run("honest_rejections_differ", func(t *testing.T) {
		perr := &ErrHonest{Rejection: &model.Rejection{Reason: model.IllegalAction, Evidence: model.Evidence{Step: 1}}}
		ierr := &independent.HonestError{Rejection: &model.Rejection{Reason: model.IllegalAction, Evidence: model.Evidence{Step: 2}}}
		if _, err := agree(model.Verdict{}, perr, model.Verdict{}, ierr); !errors.Is(err, ErrDisagreement) {
			t.Fatalf("got %v, want ErrDisagreement", err)
		}
	})
	t.Run("certify_rejections_differ", func(t *testing.T) {
		p := &model.Rejection{Reason: model.ReplayMismatch, Evidence: model.Evidence{Step: 2, Component: "ok"}}
		i := &model.Rejection{Reason: model.ReplayMismatch, Evidence: model.Evidence{Step: 2, Component: "state_hash"}}
		if err := sameRejection(p, i); !errors.Is(err, ErrDisagreement) {
			t.Fatalf("got %v, want ErrDisagreement", err)
		}
		if err := sameRejection(p, nil); !errors.Is(err, ErrDisagreement) {
			t.Fatalf("got %v, want ErrDisagreement", err)
		}
	})
}
