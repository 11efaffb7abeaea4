package certifier

import (
	"errors"
	"fmt"
	"slices"

	"github.com/parthack/parthack/certifier/internal/independent"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
)

// ErrDisagreement is returned, wrapped with both sides, when the primary
// and the independent certifier reach different outcomes. It is never a
// verdict: one of the two certifiers is wrong, and no score may rest on
// either.
var ErrDisagreement = errors.New("the primary and the independent certifier disagree")

// disagree builds the ErrDisagreement error for one difference.
func disagree(what string, primary, indep any) error {
	p, _ := model.Canonical(primary)
	i, _ := model.Canonical(indep)
	return fmt.Errorf("%w on %s\n  primary:     %s\n  independent: %s", ErrDisagreement, what, p, i)
}

// DoubleCertify certifies a trajectory with both certifiers and returns
// the primary's outcome only when the independent one agrees on it. The
// two run side by side, each on its own state; they share only the
// read-only task and trajectory.
func DoubleCertify(env *pbcste.Env, tr *model.Trajectory) (*Result, *model.Rejection, error) {
	var (
		icert *model.Certificate
		irej  *model.Rejection
		done  = make(chan struct{})
	)
	go func() {
		defer close(done)
		icert, irej = independent.Certify(env.Task, tr)
	}()
	res, rej := certify(env, tr)
	<-done
	if err := sameRejection(rej, irej); err != nil {
		return nil, nil, err
	}
	if res != nil {
		if err := sameCertificate("certificate", res.Cert, icert); err != nil {
			return nil, nil, err
		}
	}
	return res, rej, nil
}

// DoublePair certifies (H, A) with both certifiers; see pair. A pair
// both find eligible is then held, once, to the rule of a domain whose
// benchmark holds conversations (see conversation).
func DoublePair(env *pbcste.Env, h, a *model.Trajectory) (model.Verdict, error) {
	v, err := pair(env, h, a)
	iv, ierr := independent.Pair(env.Task, h, a)
	if v, err = agree(v, err, iv, ierr); err == nil && v.Eligible {
		conversation(env, h, a, &v)
	}
	return v, err
}

// conversation holds an eligible pair (H, A) to the rule of a domain
// whose benchmark holds each episode as a conversation (a
// model.Conversation, tau2's): A's steps aligned with H's (model.Kept),
// both replayed, model.CheckWitness's refusal makes v ineligible with
// its reason and evidence. Elsewhere v is left as it is.
func conversation(env *pbcste.Env, h, a *model.Trajectory, v *model.Verdict) {
	if _, ok := model.ConversationOf(env.Task); !ok {
		return
	}
	kept := model.Kept(h.Steps, a.Steps)
	if rej := model.CheckWitness(env.Task, h, a.Steps, kept, env.Replay(h.Steps).Outcomes(), env.Replay(a.Steps).Outcomes()); rej != nil {
		v.Eligible, v.Reason, v.Evidence = false, rej.Reason, &rej.Evidence
	}
}

// DoubleRollback certifies a strict rollback (H, R) with both
// certifiers; see rollback.
func DoubleRollback(env *pbcste.Env, h, r *model.Trajectory) (model.Verdict, error) {
	v, err := rollback(env, h, r)
	iv, ierr := independent.Rollback(env.Task, h, r)
	return agree(v, err, iv, ierr)
}

// agree returns the primary's verdict or error once the independent
// certifier is found to say the same.
func agree(v model.Verdict, err error, iv model.Verdict, ierr error) (model.Verdict, error) {
	if err != nil || ierr != nil {
		var he *ErrHonest
		var ihe *independent.HonestError
		switch {
		case errors.As(err, &he) && errors.As(ierr, &ihe):
			if derr := sameRejection(he.Rejection, ihe.Rejection); derr != nil {
				return model.Verdict{}, fmt.Errorf("honest trajectory: %w", derr)
			}
			return model.Verdict{}, err
		case err == nil || ierr == nil:
			return model.Verdict{}, disagree("whether the input is certifiable", errText(err), errText(ierr))
		}
		return model.Verdict{}, err
	}
	switch {
	case v.Kind != iv.Kind || v.Eligible != iv.Eligible || v.Reason != iv.Reason:
		return model.Verdict{}, disagree("the verdict", verdictHead(v), verdictHead(iv))
	case (v.Evidence == nil) != (iv.Evidence == nil):
		return model.Verdict{}, disagree("the evidence", v.Evidence, iv.Evidence)
	case v.Evidence != nil && !sameEvidence(v.Evidence, iv.Evidence):
		return model.Verdict{}, disagree("the evidence", v.Evidence, iv.Evidence)
	}
	if err := sameCertificate("the honest certificate", v.Honest, iv.Honest); err != nil {
		return model.Verdict{}, err
	}
	if err := sameCertificate("the candidate certificate", v.Candidate, iv.Candidate); err != nil {
		return model.Verdict{}, err
	}
	return v, nil
}

func errText(err error) string {
	if err == nil {
		return "no error"
	}
	return err.Error()
}

// verdictHead is the part of a verdict both certifiers must state alike,
// printed when they do not.
func verdictHead(v model.Verdict) map[string]any {
	return map[string]any{"kind": v.Kind, "eligible": v.Eligible, "reason": v.Reason, "evidence": v.Evidence}
}

func sameRejection(p, i *model.Rejection) error {
	switch {
	case p == nil && i == nil:
		return nil
	case p == nil || i == nil || p.Reason != i.Reason || !sameEvidence(&p.Evidence, &i.Evidence):
		return disagree("the rejection", p, i)
	}
	return nil
}

// sameEvidence compares everything but the free-text detail, which each
// certifier words its own way.
func sameEvidence(p, i *model.Evidence) bool {
	return p.Step == i.Step && p.Seq == i.Seq && p.Predicate == i.Predicate && p.PredID == i.PredID &&
		p.Component == i.Component && p.Expected == i.Expected && p.Got == i.Got
}

// sameCertificate compares the certified content of two certificates.
// The log hash is the primary's alone: the canonical log is pbcste's
// format, and the final state hash binds the outcome for both.
func sameCertificate(what string, p, i *model.Certificate) error {
	if p == nil && i == nil {
		return nil
	}
	if p == nil || i == nil ||
		p.Task != i.Task || p.GoalVersion != i.GoalVersion || !slices.Equal(p.Predicates, i.Predicates) ||
		!slices.Equal(p.CState, i.CState) || !slices.Equal(p.CAgent, i.CAgent) || !slices.Equal(p.Causes, i.Causes) ||
		p.PState != i.PState || p.PAgent != i.PAgent || p.Steps != i.Steps || p.Events != i.Events || p.FinalHash != i.FinalHash {
		return disagree(what, p, i)
	}
	return nil
}
