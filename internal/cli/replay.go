package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/parthack/parthack/certifier"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
)

func newReplayCmd(e *env) *cobra.Command {
	var taskPath, trajPath string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "replay --task FILE --trajectory FILE",
		Short: "Replay a trajectory: event log, typed diffs, certified vectors",
		Long: "Replay a trajectory from the task's frozen initial snapshot, interleaving the task's scripted events.\n" +
			"Prints every event (logical time, actor, op, ok or failed with the reason), its typed state diff,\n" +
			"and the certified vectors at termination.\n\n" + trajectoryArgHelp,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			env, err := loadTask(taskPath)
			if err != nil {
				return err
			}
			tr, err := e.loadTrajectory("trajectory", taskPath, trajPath)
			if err != nil {
				return usage(err)
			}
			log := env.Replay(tr.Steps)
			res, rej, err := certifier.DoubleCertify(env, tr)
			if err != nil {
				return err
			}
			if asJSON {
				return writeReplayJSON(e.stdout, log, res, rej)
			}
			writeReplayText(e.stdout, log, res, rej)
			return nil
		},
	}
	cmd.Flags().StringVar(&taskPath, "task", "", "task file (JSON) or suite task id (PH-H05)")
	cmd.Flags().StringVar(&trajPath, "trajectory", "", "trajectory: a file (JSON, gzipped or not), or a stored name")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON instead of a table")
	return cmd
}

type replayJSON struct {
	Task        string               `json:"task"`
	GoalVersion string               `json:"goal_version"`
	Events      []pbcste.EventRecord `json:"events"`
	Certificate *model.Certificate   `json:"certificate,omitempty"`
	Rejection   *rejectionJSON       `json:"rejection,omitempty"`
}

type rejectionJSON struct {
	Reason   model.Reason   `json:"reason"`
	Evidence model.Evidence `json:"evidence"`
}

func writeReplayJSON(w io.Writer, log *pbcste.Log, res *certifier.Result, rej *model.Rejection) error {
	out := replayJSON{Task: log.Env.Task.ID, GoalVersion: log.Goal().Version, Events: make([]pbcste.EventRecord, len(log.Events))}
	for i := range log.Events {
		out.Events[i] = log.Record(i)
	}
	if res != nil {
		out.Certificate = res.Cert
	}
	if rej != nil {
		out.Rejection = &rejectionJSON{Reason: rej.Reason, Evidence: rej.Evidence}
	}
	return writeJSON(w, out)
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func writeReplayText(w io.Writer, log *pbcste.Log, res *certifier.Result, rej *model.Rejection) {
	fmt.Fprintf(w, "task %s   goal %s   agent steps %d   events %d\n\n", log.Env.Task.ID, log.Goal().Version, log.Steps, len(log.Events))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "seq\tt\tactor\tstep\top\ttarget\tresult")
	for i := range log.Events {
		r := log.Record(i)
		step := "-"
		if r.Step > 0 {
			step = fmt.Sprint(r.Step)
		}
		target := r.Type + " " + r.ID
		switch r.Op {
		case model.OpReviseGoal:
			target = "goal " + r.Goal
		case model.OpCall:
			target = r.Tool + r.Args.String()
			if r := []rune(target); len(r) > 100 {
				target = string(r[:99]) + "…"
			}
		}
		result := "ok"
		if !r.OK {
			result = "FAILED: " + r.Reason
		}
		fmt.Fprintf(tw, "%d\t%d\t%s\t%s\t%s\t%s\t%s\n", r.Seq, r.Time, r.Actor, step, r.Op, target, result)
		for _, d := range r.Diff {
			fmt.Fprintf(tw, "\t\t\t\t\t  %s\t%s → %s\n", describeCell(d), d.Before, d.After)
		}
	}
	tw.Flush()
	fmt.Fprintln(w)
	if rej != nil {
		fmt.Fprintf(w, "not certifiable: %s\n  %s\n", rej.Reason, describeEvidence(&rej.Evidence))
		return
	}
	writeCertificate(w, "certified", res.Cert)
}

func describeCell(d model.CellDiff) string {
	if d.Field == model.GoalField {
		return "goal version"
	}
	return fmt.Sprintf("%s %s .%s", d.Type, d.ID, strings.TrimPrefix(d.Field, "@"))
}

func vec(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprint(x)
	}
	return "[" + strings.Join(s, " ") + "]"
}

func writeCertificate(w io.Writer, label string, c *model.Certificate) {
	fmt.Fprintf(w, "%-10s goal %s   c_state %s   c_agent %s   P_state %s   P_agent %s\n", label, c.GoalVersion, vec(c.CState), vec(c.CAgent), c.PState, c.PAgent)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for j, id := range c.Predicates {
		cause := string(c.Causes[j].Actor)
		if c.Causes[j].Seq > 0 {
			cause += fmt.Sprintf(" @ event %d", c.Causes[j].Seq)
		}
		fmt.Fprintf(tw, "  g%d\t%s\tholds=%d\tagent=%d\tlatest cause: %s\n", j+1, id, c.CState[j], c.CAgent[j], cause)
	}
	tw.Flush()
	fmt.Fprintf(w, "  final state %s\n  log         %s\n", c.FinalHash, c.LogHash)
}

func describeEvidence(ev *model.Evidence) string {
	head := strings.Join(ev.Where(), ", ")
	if head == "" {
		return ev.Detail
	}
	return head + "\n  " + ev.Detail
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
