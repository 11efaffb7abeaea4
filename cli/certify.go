package cli

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/parthack/parthack/certifier"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
)

func newCertifyCmd(e *env) *cobra.Command {
	var taskPath, honestArg, candPath, rollbackPath string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "certify --task FILE --honest H.json (--candidate A.json | --rollback R.json)",
		Short: "Certify an equal-progress pair (H, A) or a strict rollback (H, R)",
		Long: "Certify a candidate against the honest trajectory. A pair is eligible only when both end on the same goal\n" +
			"version with equal c_state and c_agent, component by component; otherwise the one rejection reason is\n" +
			"printed with its evidence. --rollback certifies a strict rollback instead. Without --honest, a candidate that\n" +
			"names its H (its \"honest\" member: the workbench writes the run it was made against) is certified against\n" +
			"that trajectory.\n\n" +
			trajectoryArgHelp + "\n\n" +
			"Exit codes: 0 eligible or certified, 1 rejected, 2 bad input or usage.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if (candPath == "") == (rollbackPath == "") {
				return usageErr("give exactly one of --candidate and --rollback")
			}
			env, err := loadTask(taskPath)
			if err != nil {
				return err
			}
			why := ""
			if honestArg == "" && candPath != "" {
				// A witness names the run it is a witness of; one that
				// does not load is certifyPair's to report.
				if a, err := e.loadTrajectory("candidate", taskPath, candPath); err == nil && a.Honest != "" {
					honestArg, why = a.Honest, "the run the candidate names"
				}
			}
			if honestArg == "" {
				if honestArg, err = honestPath(taskPath, ""); err != nil {
					return err
				}
				if honestArg != "" {
					why = "the task's default H"
				}
			}
			var v model.Verdict
			if rollbackPath != "" {
				v, err = e.certifyRollback(env, taskPath, honestArg, rollbackPath)
			} else {
				v, err = e.certifyPair(env, taskPath, honestArg, candPath)
			}
			if err != nil {
				return err
			}
			if asJSON {
				if err := writeJSON(e.stdout, certifyJSON{&v, honestArg, why}); err != nil {
					return err
				}
			} else {
				writeVerdict(e, &v, honestArg, why)
			}
			if !v.Eligible {
				return errRejected
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&taskPath, "task", "", "task file (JSON) or suite task id (PH-H05)")
	cmd.Flags().StringVar(&honestArg, "honest", "", "honest trajectory H: a file (JSON), or a stored name (see below); defaults to the candidate's \"honest\" member, else the task's own H: a suite task's, a domain task's default run (its first run its benchmark scores below 1, else its first, else gold)")
	cmd.Flags().StringVar(&candPath, "candidate", "", "candidate trajectory A: a file (JSON), or a stored name")
	cmd.Flags().StringVar(&rollbackPath, "rollback", "", "rollback trajectory R: a file (JSON), or a stored name")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the verdict as JSON")
	return cmd
}

// certifyPair certifies (H, A), each as it is decoded from its file.
func (e *env) certifyPair(env *pbcste.Env, taskPath, honestArg, candPath string) (model.Verdict, error) {
	hp, err := honestPath(taskPath, honestArg)
	if err != nil {
		return model.Verdict{}, err
	}
	hc, hrej, err := e.certifyInput(env, "honest", taskPath, hp)
	if err != nil {
		return model.Verdict{}, usage(err)
	}
	ac, arej, err := e.certifyInput(env, "candidate", taskPath, candPath)
	if de := (*model.DecodeError)(nil); errors.As(err, &de) {
		// A candidate that does not decode is a verdict, not bad usage.
		return model.Verdict{Kind: "pair", Reason: model.MalformedSchema, Evidence: &model.Evidence{Detail: de.Error()}}, nil
	}
	if err != nil {
		return model.Verdict{}, usage(err)
	}
	v, err := certifier.DoublePairOf(hc, hrej, ac, arej)
	if err != nil {
		return v, usage(err)
	}
	if _, ok := model.ConversationOf(env.Task); ok && v.Eligible {
		// The domain's conversation rule reads H and A whole (tau2's
		// runs are a few hundred calls): DoublePair holds them to it.
		h, err := e.loadHonest(taskPath, honestArg)
		if err != nil {
			return v, usage(err)
		}
		a, err := e.loadTrajectory("candidate", taskPath, candPath)
		if err != nil {
			return v, usage(err)
		}
		if v, err = certifier.DoublePair(env, h, a); err != nil {
			return v, usage(err)
		}
	}
	return v, nil
}

// certifyRollback certifies a strict rollback (H, R); R is compared
// with H step by step, so both are decoded whole.
func (e *env) certifyRollback(env *pbcste.Env, taskPath, honestArg, rollbackPath string) (model.Verdict, error) {
	h, err := e.loadHonest(taskPath, honestArg)
	if err != nil {
		return model.Verdict{}, usage(err)
	}
	r, err := e.loadTrajectory("rollback", taskPath, rollbackPath)
	if de := (*model.DecodeError)(nil); errors.As(err, &de) {
		return model.Verdict{Kind: "rollback", Reason: model.MalformedSchema, Evidence: &model.Evidence{Detail: de.Error()}}, nil
	}
	if err != nil {
		return model.Verdict{}, err
	}
	v, err := certifier.DoubleRollback(env, h, r)
	if err != nil {
		return v, usage(err)
	}
	return v, nil
}

// certifyJSON is certify's JSON: the verdict, and H as named and, where
// --honest did not name it, why it is H.
type certifyJSON struct {
	*model.Verdict
	HonestName string `json:"honest_name,omitempty"`
	HonestWhy  string `json:"honest_why,omitempty"`
}

// writeVerdict prints a verdict, H named as given (h) and, where it was
// not given, why it is H.
func writeVerdict(e *env, v *model.Verdict, h, why string) {
	w := e.stdout
	if v.Eligible {
		what := "eligible: equal certified progress, Δhack is measurable"
		if v.Kind == "rollback" {
			what = "certified strict rollback"
		}
		fmt.Fprintf(w, "verdict  %s (%s)\n\n", what, v.Kind)
	} else {
		fmt.Fprintf(w, "verdict  rejected: %s (%s)\n  %s\n\n", v.Reason, v.Kind, describeEvidence(v.Evidence))
	}
	if h != "" {
		if why != "" {
			h += " (" + why + ")"
		}
		fmt.Fprintf(w, "H        %s\n\n", h)
	}
	if v.Honest != nil {
		writeCertificate(w, "honest", v.Honest)
	}
	if v.Candidate != nil {
		fmt.Fprintln(w)
		writeCertificate(w, "candidate", v.Candidate)
	}
}
