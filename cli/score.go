package cli

import (
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/parthack/parthack/evaluators"
	"github.com/parthack/parthack/internal/payload"
	"github.com/parthack/parthack/internal/payload/builder"
	"github.com/parthack/parthack/model"
)

// The score and payload commands are the trusted parent of SPEC §4: they
// replay on the trusted task, build the public payload, and from then on
// handle only its bytes.

func newScoreCmd(e *env) *cobra.Command {
	var taskArg, trajPath string
	var steps, asJSON bool
	var jf judgeFlags
	var sf scorerFlags
	cmd := &cobra.Command{
		Use:   "score --task ID|FILE --trajectory FILE [--steps] [--json] [--judge [--idj]] [--scorer PATH [--scorer-ro PATH]...]",
		Short: "Score a trajectory with every deterministic evaluator",
		Long: "Replay the trajectory on the trusted task, build its public payload, and score the payload's bytes\n" +
			"with the six deterministic evaluators: Historical Milestone, Predicate-Max, CAPE-Max, CSPS,\n" +
			"Lightweight CAPE and Terminal Outcome. --steps scores every prefix instead: one row per event\n" +
			"(event 0 is the initial state), one column per evaluator.\n\n" +
			"--judge adds the schema-aware LLM judge, --idj also IDJ, from any OpenAI-compatible endpoint\n" +
			"(flags or PARTHACK_JUDGE_* / PARTHACK_IDJ_*); with none configured they say \"not configured\".\n" +
			"--record keeps every request and response; --replay answers from such a recording, offline.\n\n" +
			"--scorer adds your own scorer program, run sandboxed on the payload bytes (see `parthack audit --probes`).\n\n" +
			trajectoryArgHelp + "\n\n" +
			"Exit codes: 0 scored, 2 bad input or usage, or an LLM judge or the scorer that gave no score.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			judging, err := jf.on(cmd, steps)
			if err != nil {
				return err
			}
			scoring, err := sf.on(cmd, steps)
			if err != nil {
				return err
			}
			tr, b, err := e.publicPayload(taskArg, trajPath)
			if err != nil {
				return err
			}
			p, err := payload.Decode(b)
			if err != nil {
				return err
			}
			if steps {
				series, err := evaluators.Prefixes(p)
				if err != nil {
					return err
				}
				if asJSON {
					return writeJSON(e.stdout, stepsJSON(p, model.Hash(b), series))
				}
				writeStepsText(e, tr, p, model.Hash(b), series)
				return nil
			}
			scores, err := evaluators.ScoreAll(p)
			if err != nil {
				return err
			}
			var judged []judgeRow
			if judging {
				if judged, err = jf.score(cmd.Context(), b); err != nil {
					return err
				}
			}
			if scoring {
				judged = append(judged, sf.score(cmd.Context(), b))
			}
			if asJSON {
				if err := writeJSON(e.stdout, scoresJSON{Task: p.Task, Hash: model.Hash(b), Scores: labelled(scores), Judges: judged}); err != nil {
					return err
				}
				return judgeFailure(judged)
			}
			fmt.Fprintf(e.stdout, "task %s   trajectory %s   events %d   payload sha256 %s\n\n", p.Task, orDash(tr.Name), len(p.Events), model.Hash(b))
			tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "evaluator\tscore")
			for _, s := range labelled(scores) {
				fmt.Fprintf(tw, "%s\t%.3f\n", s.Label, s.Value)
			}
			for _, r := range judged {
				fmt.Fprintf(tw, "%s\t%s\n", r.Label, r.cell())
			}
			if err := tw.Flush(); err != nil || len(judged) == 0 {
				return err
			}
			writeJudgeDetails(e.stdout, judged)
			writeScorerDetails(e.stdout, judged)
			return judgeFailure(judged)
		},
	}
	cmd.Flags().StringVar(&taskArg, "task", "", "suite task id (PH-D01 … PH-H18) or task file (JSON)")
	cmd.Flags().StringVar(&trajPath, "trajectory", "", "trajectory: a file (JSON, gzipped or not), or a stored name")
	cmd.Flags().BoolVar(&steps, "steps", false, "score every prefix of the log")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON instead of a table")
	jf.add(cmd)
	sf.add(cmd)
	return cmd
}

func newPayloadCmd(e *env) *cobra.Command {
	var taskArg, trajPath, projection string
	cmd := &cobra.Command{
		Use:   "payload --task ID|FILE --trajectory FILE [--projection idj]",
		Short: "Print the public payload evaluators receive for a trajectory",
		Long: "Replay the trajectory on the trusted task and print its public payload exactly as every evaluator\n" +
			"receives it: the canonical JSON bytes on stdout, with no trailing newline, so that\n" +
			"`parthack payload … | sha256sum` reproduces the hash. The sha256 goes to stderr as \"sha256 <hex>\".\n" +
			"--projection idj prints the schema-free projection the IDJ judge reads instead (no goal schema).\n\n" +
			trajectoryArgHelp + "\n\n" +
			"Exit codes: 0 printed, 2 bad input or usage.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if projection != "" && projection != "idj" {
				return usageErr("--projection: unknown projection %q (the one projection is idj)", projection)
			}
			_, b, err := e.publicPayload(taskArg, trajPath)
			if err != nil {
				return err
			}
			if projection == "idj" {
				p, err := payload.Decode(b)
				if err != nil {
					return err
				}
				q, err := payload.Project(p)
				if err != nil {
					return err
				}
				b = q.Bytes()
			}
			if _, err := e.stdout.Write(b); err != nil {
				return err
			}
			fmt.Fprintf(e.stderr, "sha256 %s\n", model.Hash(b))
			return nil
		},
	}
	cmd.Flags().StringVar(&taskArg, "task", "", "suite task id (PH-D01 … PH-H18) or task file (JSON)")
	cmd.Flags().StringVar(&trajPath, "trajectory", "", "trajectory: a file (JSON, gzipped or not), or a stored name")
	cmd.Flags().StringVar(&projection, "projection", "", "print a projection instead of the payload: idj")
	return cmd
}

// publicPayload is the trusted half of both commands: resolve the task,
// replay the trajectory on the trusted task and serialize the public
// payload. Only its bytes leave this function.
func (e *env) publicPayload(taskArg, trajPath string) (*model.Trajectory, []byte, error) {
	trusted, pub, err := loadTaskViews(taskArg)
	if err != nil {
		return nil, nil, err
	}
	tr, err := e.loadTrajectory("trajectory", taskArg, trajPath)
	if err != nil {
		return nil, nil, usage(err)
	}
	if tr.Task != pub.ID {
		return nil, nil, usageErr("%s: trajectory is for task %q, not %q", trajPath, tr.Task, pub.ID)
	}
	if err := checkEpisode(trusted.Task, trajPath, tr); err != nil {
		return nil, nil, err
	}
	p, err := builder.Build(pub, trusted.Replay(tr.Steps), builder.TurnsOf(tr))
	if err != nil {
		return nil, nil, err
	}
	return tr, p.Bytes(), nil
}

// labelledScore is a score with its evaluator's label, for output.
type labelledScore struct {
	Name  string  `json:"name"`
	Label string  `json:"label"`
	Value float64 `json:"value"`
}

func labelled(scores []evaluators.Score) []labelledScore {
	out := make([]labelledScore, len(scores))
	for i, ev := range evaluators.Deterministic() {
		out[i] = labelledScore{Name: ev.Name, Label: ev.Label, Value: scores[i].Value}
	}
	return out
}

type scoresJSON struct {
	Task   string          `json:"task"`
	Hash   string          `json:"payload_sha256"`
	Scores []labelledScore `json:"scores"`
	Judges []judgeRow      `json:"judges,omitempty"`
}

// stepJSON is one prefix: the event that ends it (0: the initial state)
// and every evaluator's score, keyed by evaluator name.
type stepJSON struct {
	Event  int                `json:"event"`
	Actor  model.Actor        `json:"actor,omitempty"`
	Op     model.Op           `json:"op,omitempty"`
	OK     bool               `json:"ok"`
	Scores map[string]float64 `json:"scores"`
}

type prefixesJSON struct {
	Task  string     `json:"task"`
	Hash  string     `json:"payload_sha256"`
	Steps []stepJSON `json:"steps"`
}

func stepsJSON(p *payload.Payload, hash string, series []evaluators.Series) prefixesJSON {
	out := prefixesJSON{Task: p.Task, Hash: hash, Steps: make([]stepJSON, len(p.Events)+1)}
	for k := range out.Steps {
		st := stepJSON{Event: k, OK: true, Scores: make(map[string]float64, len(series))}
		if k > 0 {
			ev := &p.Events[k-1]
			st.Actor, st.Op, st.OK = ev.Actor, ev.Op, ev.OK
		}
		for _, s := range series {
			st.Scores[s.Name] = s.Values[k]
		}
		out.Steps[k] = st
	}
	return out
}

func writeStepsText(e *env, tr *model.Trajectory, p *payload.Payload, hash string, series []evaluators.Series) {
	fmt.Fprintf(e.stdout, "task %s   trajectory %s   events %d   payload sha256 %s\n\n", p.Task, orDash(tr.Name), len(p.Events), hash)
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	head := []string{"event", "actor", "op"}
	for _, ev := range evaluators.Deterministic() {
		head = append(head, ev.Label)
	}
	fmt.Fprintln(tw, strings.Join(head, "\t"))
	row := make([]string, 0, len(head))
	for k := 0; k <= len(p.Events); k++ {
		actor, op := "-", "initial"
		if k > 0 {
			ev := &p.Events[k-1]
			actor, op = string(ev.Actor), string(ev.Op)
			if !ev.OK {
				op += " (failed)"
			}
		}
		row = append(row[:0], strconv.Itoa(k), actor, op)
		for _, s := range series {
			row = append(row, strconv.FormatFloat(s.Values[k], 'f', 3, 64))
		}
		fmt.Fprintln(tw, strings.Join(row, "\t"))
	}
	tw.Flush()
}
