package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/parthack/parthack/attacker/bench"
	"github.com/parthack/parthack/attacker/taubench"
	"github.com/parthack/parthack/internal/atomicfile"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
	"github.com/parthack/parthack/report"
	"github.com/parthack/parthack/tasks/tauair"
)

// newTauCmd is the tau-bench airline domain: its tasks and real runs.
func newTauCmd(e *env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "tau",
		Short: "tau-bench's airline domain: its 50 tasks and 200 real GPT-4o runs, certified",
		Long: "tau-bench's airline world (github.com/sierra-research/tau-bench, MIT) as a PB-CSTE domain: its database as\n" +
			"typed entities, its 14 tools as the agent's actions, its 50 test tasks with the gold run's net changes as\n" +
			"goal predicates (TAU-A00 … TAU-A49), and 200 real GPT-4o runs. Every command that takes --task takes\n" +
			"a TAU id too, with --trajectory gold, trial0 … trial3, or a run name such as gpt-4o-t07-trial2.",
	}
	cmd.AddCommand(newTauTasksCmd(e), newTauRunsCmd(e), newTauExportCmd(e))
	return cmd
}

func newTauTasksCmd(e *env) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "tasks [--json]",
		Short: "The 50 tasks: user, goal predicates m, gold calls, required outputs",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			ts, err := tauair.Tasks()
			if err != nil {
				return err
			}
			type row struct {
				ID      string   `json:"id"`
				User    string   `json:"user"`
				M       int      `json:"m"`
				Calls   int      `json:"gold_calls"`
				Writes  int      `json:"gold_writes"`
				Outputs []string `json:"outputs"`
			}
			var rows []row
			for _, t := range ts {
				r := row{ID: t.ID, User: t.Gold.UserID, M: t.M(), Calls: len(t.Gold.Steps), Outputs: t.Gold.Outputs}
				for _, c := range t.Gold.Steps {
					if len(c.Patch) > 0 {
						r.Writes++
					}
				}
				if r.Outputs == nil {
					r.Outputs = []string{}
				}
				rows = append(rows, r)
			}
			if asJSON {
				return writeJSON(e.stdout, rows)
			}
			tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "task\tuser\tm\tgold calls\tgold writes\toutputs")
			for _, r := range rows {
				fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%s\n", r.ID, r.User, r.M, r.Calls, r.Writes, strings.Join(r.Outputs, ", "))
			}
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

func newTauRunsCmd(e *env) *cobra.Command {
	var asJSON bool
	var taskList string
	cmd := &cobra.Command{
		Use:   "runs [--tasks TAU-A04,…] [--json]",
		Short: "The GPT-4o runs, each replayed and double-certified: tau-bench's reward, P_state and P_agent",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			var ids []string
			if taskList != "" {
				ids = strings.Split(taskList, ",")
			}
			start := time.Now()
			runs, err := taubench.Certify(ids)
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(e.stdout, runs)
			}
			tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "run\ttask\treward\tcalls\tfailed\tm\tP_state\tP_agent")
			for _, r := range runs {
				fmt.Fprintf(tw, "%s\t%s\t%g\t%d\t%d\t%d\t%s\t%s\n", r.Run, r.Task, r.Reward, r.Calls, r.Failed, r.M, r.PState, r.PAgent)
			}
			if err := tw.Flush(); err != nil {
				return err
			}
			fmt.Fprintf(e.stderr, "tau runs: %d runs replayed and double-certified in %s\n", len(runs), time.Since(start).Round(10*time.Millisecond))
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.Flags().StringVar(&taskList, "tasks", "", "only the runs of these tasks (TAU-A04,TAU-A05)")
	return cmd
}

func newTauExportCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "export FILE",
		Short: "Write the 200 GPT-4o runs in tau-bench's run format (what `import tau-bench` reads)",
		Args:  cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			runs, err := tauair.AgentRuns()
			if err != nil {
				return err
			}
			b, err := tauair.EncodeRuns(runs)
			if err != nil {
				return err
			}
			if err := atomicfile.Write(args[0], b, 0o644); err != nil {
				return usageErr("export: %w", err)
			}
			fmt.Fprintf(e.stderr, "tau export: %d runs written to %s\n", len(runs), args[0])
			return nil
		},
	}
}

// runTauBench is bench --domain tau-airline: the searches on every run,
// the failed runs' report, then the control's.
func runTauBench(e *env, opt taubench.Options, f report.Format, ledgerOut, witnesses string) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	start := time.Now()
	res, err := taubench.Run(ctx, opt, func(line string) { fmt.Fprintln(e.stderr, line) })
	if err != nil {
		return err
	}
	var excluded, capped, rollbacks, failed, control int
	for _, r := range res.Runs {
		switch {
		case r.Excluded != "":
			excluded++
		case r.Control:
			control++
		default:
			failed++
		}
		if len(r.Capped) > 0 {
			capped++
		}
		if r.Rollback {
			rollbacks++
		}
	}
	fmt.Fprintf(e.stderr, "bench: tau-airline, %d runs (%d failed, %d successful as control, %d of goal-less tasks excluded), within %d edits of H, in %s\n",
		len(res.Runs), failed, control, excluded, opt.Edits, time.Since(start).Round(100*time.Millisecond))
	if capped > 0 {
		fmt.Fprintf(e.stderr, "bench: %d runs had a search stop at --max-states %d: their bound is not exhausted\n", capped, opt.MaxStates)
	}
	if witnesses != "" {
		if err := os.MkdirAll(witnesses, 0o755); err != nil {
			return usageErr("--witnesses: %v", err)
		}
		n := 0
		for _, r := range res.Runs {
			if r.Witness == nil {
				continue
			}
			w := *r.Witness
			w.Note += collateralNote(r.SameEnd, r.Collateral)
			if err := atomicfile.Write(filepath.Join(witnesses, r.Run+".json"), model.EncodeTrajectory(&w), 0o644); err != nil {
				return usageErr("--witnesses: %v", err)
			}
			n++
		}
		fmt.Fprintf(e.stderr, "bench: %d witnesses (A_ref of each run that has one) written to %s\n", n, witnesses)
	}
	if ledgerOut != "" {
		ext := filepath.Ext(ledgerOut)
		controlOut := strings.TrimSuffix(ledgerOut, ext) + ".control" + ext
		for _, w := range []struct {
			path string
			l    *report.Ledger
		}{{ledgerOut, res.Failed}, {controlOut, res.Control}} {
			if err := writeLedger(w.path, w.l); err != nil {
				return usageErr("--ledger-out: %w", err)
			}
		}
		fmt.Fprintf(e.stderr, "bench: ledgers written to %s (failed runs) and %s (control)\n", ledgerOut, controlOut)
	}
	failedHead := fmt.Sprintf("tau-bench airline: %d failed GPT-4o runs of tasks with a goal (tau-bench reward 0)", failed)
	controlHead := fmt.Sprintf("Control: %d successful GPT-4o runs (tau-bench reward 1)", control)
	switch f {
	case report.FormatJSON:
		// One document on stdout: both reports and every run.
		fmt.Fprintln(e.stderr, "bench: "+failedHead)
		return writeDomainJSON(e.stdout, tauair.DomainName, res)
	case report.FormatCSV, report.FormatSVG:
		// One document on stdout: the failed runs'; the control's is in
		// its ledger, or in any text format.
		fmt.Fprintf(e.stderr, "bench: %s; %s: %s is the failed runs' only (the control's: its ledger, or --format table)\n", failedHead, controlHead, f)
		return report.Render(e.stdout, report.Compute(res.Failed), f)
	}
	fmt.Fprintf(e.stdout, "%s\n\n", failedHead)
	if err := report.Render(e.stdout, report.Compute(res.Failed), f); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "\n%s\n\n", controlHead)
	return report.Render(e.stdout, report.Compute(res.Control), f)
}

// writeDomainJSON writes a real domain's bench as one JSON document: the
// failed runs' report, the control's, and every run with its outcome and
// its witness's end state.
func writeDomainJSON(w io.Writer, domain string, res *taubench.Result) error {
	b, err := json.MarshalIndent(struct {
		Domain  string             `json:"domain"`
		Failed  *report.Report     `json:"failed"`
		Control *report.Report     `json:"control"`
		Runs    []taubench.RunInfo `json:"runs"`
	}{domain, report.Compute(res.Failed), report.Compute(res.Control), res.Runs}, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// benchDomain checks bench's flags for --domain and runs it.
func benchDomain(cmd *cobra.Command, e *env, domain, taskList string, opt bench.RunOptions, f report.Format, ledgerOut, witnesses string, sameEnd bool) error {
	if domain != tauair.DomainName {
		return usageErr("--domain: %q is not a domain (there is %s)", domain, tauair.DomainName)
	}
	for _, name := range []string{"split", "shard", "judge", "idj", "judge-calls", "budgets"} {
		if fl := cmd.Flags().Lookup(name); fl != nil && fl.Changed {
			return usageErr("--%s does not go with --domain yet", name)
		}
	}
	if ext := strings.ToLower(filepath.Ext(ledgerOut)); ledgerOut != "" && ext != ".json" && ext != ".csv" {
		return usageErr("--ledger-out: %s: a ledger file ends in .json or .csv", ledgerOut)
	}
	topt := taubench.Options{Edits: opt.Edits, MaxStates: opt.MaxStates, SameEnd: sameEnd}
	if taskList != "" {
		topt.Tasks = strings.Split(taskList, ",")
		for _, id := range topt.Tasks {
			if _, err := tauair.ByID(id); err != nil {
				return usageErr("--tasks: %w", err)
			}
		}
	}
	if os.Getenv("GOGC") == "" {
		defer debug.SetGCPercent(debug.SetGCPercent(400))
	}
	return runTauBench(e, topt, f, ledgerOut, witnesses)
}

// collateralNote says, for a witness's note, whether it ends in H's
// database, and if not, the first cells where the two differ.
func collateralNote(same *bool, deltas []pbcste.EndDelta) string {
	switch {
	case same == nil:
		return ""
	case *same:
		return "; it ends in exactly H's database (tau-bench's data hash)"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "; it ends with H's certified vectors but not in H's database: %d cell", len(deltas))
	if len(deltas) != 1 {
		b.WriteString("s")
	}
	b.WriteString(" differ")
	for i, d := range deltas {
		if i == 3 {
			fmt.Fprintf(&b, "; and %d more", len(deltas)-3)
			break
		}
		fmt.Fprintf(&b, "; %s %s .%s: H %s, A %s", d.Type, d.ID, d.Field, d.H, d.A)
	}
	return b.String()
}
