package cli

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/parthack/parthack/attacker/bench"
	"github.com/parthack/parthack/attacker/domainbench"
	"github.com/parthack/parthack/domains"
	"github.com/parthack/parthack/internal/atomicfile"
	"github.com/parthack/parthack/internal/payload"
	"github.com/parthack/parthack/internal/payload/builder"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
	"github.com/parthack/parthack/report"
)

// newDomainCmd is the real benchmarks' domains: their tasks and runs.
func newDomainCmd(e *env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "domain",
		Short: "Real benchmarks' domains: their tasks and real runs, certified",
		Long: "A domain is a real benchmark's world as a PB-CSTE domain: its database as typed entities, its tools as\n" +
			"the agent's actions, its tasks with the gold run's net changes as goal predicates, and the real runs that\n" +
			"ship with it. Every command that takes --task takes a domain's task id too, with --trajectory gold, a\n" +
			"run's short name (trial0) or its full one.",
	}
	cmd.AddCommand(newDomainListCmd(e), newDomainTasksCmd(e), newDomainRunsCmd(e), newDomainExportCmd(e))
	return cmd
}

// domainFlag resolves --domain.
func domainFlag(name string) (domains.Domain, error) {
	if name == "" {
		return nil, usageErr("--domain is required (there is %s)", strings.Join(domains.Names(), ", "))
	}
	d, err := domains.Lookup(name)
	if err != nil {
		return nil, usageErr("--domain: %w", err)
	}
	return d, nil
}

func newDomainListCmd(e *env) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list [--json]",
		Short: "The registered domains: name, benchmark, tasks, runs",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			type row struct {
				Name  string `json:"name"`
				Title string `json:"title"`
				Tasks int    `json:"tasks"`
				Runs  int    `json:"runs"`
			}
			var rows []row
			for _, d := range domains.All() {
				n, err := domains.CountsOf(d)
				if err != nil {
					return fmt.Errorf("%s: %w", d.Name(), err)
				}
				rows = append(rows, row{d.Name(), d.Title(), n.Tasks, n.Runs})
			}
			if asJSON {
				return writeJSON(e.stdout, rows)
			}
			tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "domain\tbenchmark\ttasks\truns")
			for _, r := range rows {
				fmt.Fprintf(tw, "%s\t%s\t%d\t%d\n", r.Name, r.Title, r.Tasks, r.Runs)
			}
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

func newDomainTasksCmd(e *env) *cobra.Command {
	var asJSON bool
	var domain string
	cmd := &cobra.Command{
		Use:   "tasks --domain NAME [--json]",
		Short: "A domain's tasks: goal predicates m, gold calls and writes, and what the benchmark asks besides",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			d, err := domainFlag(domain)
			if err != nil {
				return err
			}
			rows, err := domains.Rows(d)
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(e.stdout, rows)
			}
			tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "task\tm\tgold calls\tgold writes\tsummary")
			for _, r := range rows {
				fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%s\n", r.ID, r.M, r.Calls, r.Writes, r.Summary)
			}
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.Flags().StringVar(&domain, "domain", "", "the domain ("+strings.Join(domains.Names(), ", ")+")")
	return cmd
}

func newDomainRunsCmd(e *env) *cobra.Command {
	var asJSON bool
	var taskList, domain string
	var runFiles []string
	cmd := &cobra.Command{
		Use:   "runs --domain NAME [--tasks ID,…] [--runs FILE…] [--json]",
		Short: "A domain's real runs, each replayed and double-certified: the benchmark's reward, P_state and P_agent",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			d, err := domainFlag(domain)
			if err != nil {
				return err
			}
			var ids []string
			if taskList != "" {
				ids = strings.Split(taskList, ",")
			}
			var given []*domains.Run
			if len(runFiles) > 0 {
				if given, err = domains.ReadRuns(d, runFiles); err != nil {
					return err
				}
			} else if c, err := domains.CountsOf(d); err == nil && c.Runs == 0 {
				fmt.Fprintf(e.stderr, "domain runs: %s ships no run; give your own with --runs FILE (its benchmark's %s format)\n", d.Name(), d.Format())
			}
			start := time.Now()
			runs, err := domainbench.Certify(d, given, ids)
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(e.stdout, runs)
			}
			tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
			directed := slices.ContainsFunc(runs, func(r domainbench.RunInfo) bool { return r.PDirected != nil })
			head := "run\ttask\tmodel\treward\tcalls\tfailed\tm\tP_state\tP_agent"
			if directed {
				head += "\tP_user\tP_directed"
			}
			fmt.Fprintln(tw, head)
			for _, r := range runs {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%g\t%d\t%d\t%d\t%s\t%s", r.Run, r.Task, r.Model, r.Reward, r.Calls, r.Failed, r.M, r.PState, r.PAgent)
				if directed && r.PDirected != nil {
					fmt.Fprintf(tw, "\t%s\t%s", r.PUser, r.PDirected)
				}
				fmt.Fprintln(tw)
			}
			if err := tw.Flush(); err != nil {
				return err
			}
			fmt.Fprintf(e.stderr, "domain runs: %d runs replayed and double-certified in %s\n", len(runs), time.Since(start).Round(10*time.Millisecond))
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.Flags().StringVar(&taskList, "tasks", "", "only the runs of these tasks (comma-separated ids)")
	cmd.Flags().StringVar(&domain, "domain", "", "the domain ("+strings.Join(domains.Names(), ", ")+")")
	cmd.Flags().StringArrayVar(&runFiles, "runs", nil, "the runs of these files (the benchmark's own run format, gzipped or not; repeatable) instead of those the domain ships")
	return cmd
}

func newDomainExportCmd(e *env) *cobra.Command {
	var domain string
	cmd := &cobra.Command{
		Use:   "export --domain NAME FILE",
		Short: "Write a domain's shipped runs in its benchmark's run format (what `import` reads)",
		Args:  cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			d, err := domainFlag(domain)
			if err != nil {
				return err
			}
			x, ok := d.(domains.Exporter)
			if !ok {
				return usageErr("export: %s ships its runs in its benchmark's own files already", d.Name())
			}
			format, n, b, err := x.Export()
			if err != nil {
				return err
			}
			if err := atomicfile.Write(args[0], b, 0o644); err != nil {
				return usageErr("export: %w", err)
			}
			fmt.Fprintf(e.stderr, "domain export: %d runs written to %s in %s's format\n", n, args[0], format)
			return nil
		},
	}
	cmd.Flags().StringVar(&domain, "domain", "", "the domain ("+strings.Join(domains.Names(), ", ")+")")
	return cmd
}

// runDomainBench is bench --domain: the searches on every run, the
// failed runs' report, then the control's.
func runDomainBench(e *env, opt domainbench.Options, f report.Format, ledgerOut, witnesses string) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	start := time.Now()
	res, err := domainbench.Run(ctx, opt, func(line string) { fmt.Fprintln(e.stderr, line) })
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
	fmt.Fprintf(e.stderr, "bench: %s, %d runs (%d failed, %d successful as control, %d left out), within %d edits of H, in %s\n",
		opt.Domain.Name(), len(res.Runs), failed, control, excluded, opt.Edits, time.Since(start).Round(100*time.Millisecond))
	rule := endRuleOf(opt.SameEnd)
	fmt.Fprintf(e.stderr, "bench: %s\n", rule.says)
	if capped > 0 {
		fmt.Fprintf(e.stderr, "bench: %d runs had a search stop at --max-states %d: their bound is not exhausted\n", capped, opt.MaxStates)
	}
	// The witnesses and both ledgers appear together, or none of them.
	var out atomicfile.Set
	defer out.Abort()
	n := 0
	if witnesses != "" {
		var err error
		if n, err = writeWitnesses(&out, witnesses, opt.Domain, opt.Runs, rule, res.Runs); err != nil {
			return usageErr("--witnesses: %v", err)
		}
	}
	controlOut := controlLedger(ledgerOut)
	if ledgerOut != "" {
		for _, w := range []struct {
			path string
			l    *report.Ledger
		}{{ledgerOut, res.Failed}, {controlOut, res.Control}} {
			var buf bytes.Buffer
			if err := report.Write(&buf, w.path, w.l); err != nil {
				return usageErr("--ledger-out: %w", err)
			}
			if err := out.Write(w.path, buf.Bytes(), 0o644); err != nil {
				return usageErr("--ledger-out: %w", err)
			}
		}
	}
	if err := out.Commit(); err != nil {
		return usage(err)
	}
	if witnesses != "" {
		fmt.Fprintf(e.stderr, "bench: %d witnesses written to %s, each named in %s\n", n, witnesses, filepath.Join(witnesses, witnessIndex))
	}
	if ledgerOut != "" {
		fmt.Fprintf(e.stderr, "bench: ledgers written to %s (failed runs) and %s (control)\n", ledgerOut, controlOut)
	}
	failedReport := report.Compute(res.Failed)
	modelOf, runsOf := map[string]string{}, map[string]int{}
	for _, r := range res.Runs {
		modelOf[r.Run] = r.Model
		runsOf[r.Model]++
	}
	failedReport.Models = report.ByModel(res.Failed, modelOf, runsOf)
	failedHead := fmt.Sprintf("%s: %d failed runs of tasks with a goal (the benchmark's reward below 1); %s", opt.Domain.Title(), failed, rule.says)
	controlHead := fmt.Sprintf("Control: %d successful runs (the benchmark's reward 1)", control)
	unscored := unscoredRows(res)
	for _, u := range unscored {
		fmt.Fprintf(e.stderr, "bench: unscored: %s\n", u.line())
	}
	switch f {
	case report.FormatJSON:
		// One document on stdout: both reports and every run.
		fmt.Fprintln(e.stderr, "bench: "+failedHead)
		err = writeDomainJSON(e.stdout, opt.Domain.Name(), rule.name, failedReport, res, unscored)
	case report.FormatCSV, report.FormatSVG:
		// One document on stdout: the failed runs'; the control's is in
		// its ledger, or in any text format.
		fmt.Fprintf(e.stderr, "bench: %s; %s: %s is the failed runs' only (the control's: its ledger, or --format table)\n", failedHead, controlHead, f)
		err = report.Render(e.stdout, failedReport, f)
	default:
		fmt.Fprintf(e.stdout, "%s\n\n", failedHead)
		if err = report.Render(e.stdout, failedReport, f); err == nil {
			writeLeftOut(e.stdout, res.LeftOut())
			fmt.Fprintf(e.stdout, "\n%s\n\n", controlHead)
			err = report.Render(e.stdout, report.Compute(res.Control), f)
		}
		if err == nil {
			writeUnscored(e.stdout, unscored)
		}
	}
	if err == nil && len(unscored) > 0 {
		// Everything is written; the exit status says an evaluator
		// failed, as score's and attack's do.
		err = usageErr("%d rows of %s lack what an evaluator failed to give; each row's error names the trajectory, the candidate and why", len(unscored), strings.Join(unscoredTargets(unscored), ", "))
	}
	return err
}

// unscoredRow is a ledger row an evaluator could not fully score (a
// user's scorer that failed on a trajectory), for bench's output.
type unscoredRow struct {
	Ledger string `json:"ledger"` // "failed" or "control"
	Set    string `json:"set"`
	Target string `json:"target"`
	Run    string `json:"run"`
	Error  string `json:"error"`
}

// line is the row on one line.
func (u *unscoredRow) line() string {
	return fmt.Sprintf("%s %s %s, run %s: %s", u.Ledger, u.Set, u.Target, u.Run, strings.Join(strings.Fields(u.Error), " "))
}

// unscoredRows are both ledgers' rows with an error, in ledger order.
func unscoredRows(res *domainbench.Result) []unscoredRow {
	var out []unscoredRow
	for _, l := range []struct {
		name string
		l    *report.Ledger
	}{{"failed", res.Failed}, {"control", res.Control}} {
		for _, r := range l.l.Rows {
			if r.Error != "" {
				out = append(out, unscoredRow{Ledger: l.name, Set: r.Set, Target: r.Target, Run: r.Task, Error: r.Error})
			}
		}
	}
	return out
}

// unscoredTargets are the targets of unscored rows, each once, in order.
func unscoredTargets(rows []unscoredRow) []string {
	var out []string
	for _, u := range rows {
		if !slices.Contains(out, u.Target) {
			out = append(out, u.Target)
		}
	}
	return out
}

// writeUnscored lists the rows an evaluator could not fully score, each
// with its error.
func writeUnscored(w io.Writer, rows []unscoredRow) {
	if len(rows) == 0 {
		return
	}
	fmt.Fprintf(w, "\nUnscored rows (an evaluator failed on a trajectory; the ledger's error field says the same)\n\n")
	for _, u := range rows {
		fmt.Fprintln(w, u.line())
	}
}

// writeLeftOut lists the runs not attacked, by model and reason.
func writeLeftOut(w io.Writer, left []domainbench.LeftOut) {
	if len(left) == 0 {
		return
	}
	fmt.Fprintf(w, "\nLeft out (not attacked, in neither table)\n\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "Model\tRuns\tWhy")
	for _, l := range left {
		fmt.Fprintf(tw, "%s\t%d\t%s\n", l.Model, l.Runs, l.Reason)
	}
	tw.Flush()
}

// writeDomainJSON writes a real domain's bench as one JSON document: the
// failed runs' report, the control's, the runs left out by model and
// reason, every run with its outcome and its witness's end state, and
// the rows an evaluator could not fully score, where there are any.
func writeDomainJSON(w io.Writer, domain, rule string, failed *report.Report, res *domainbench.Result, unscored []unscoredRow) error {
	b, err := json.MarshalIndent(struct {
		Domain   string                `json:"domain"`
		Rule     string                `json:"end_rule"`
		Failed   *report.Report        `json:"failed"`
		Control  *report.Report        `json:"control"`
		LeftOut  []domainbench.LeftOut `json:"left_out"`
		Runs     []domainbench.RunInfo `json:"runs"`
		Unscored []unscoredRow         `json:"unscored,omitempty"`
	}{domain, rule, failed, report.Compute(res.Control), res.LeftOut(), res.Runs, unscored}, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// controlLedger is where bench --domain writes the control's ledger,
// beside --ledger-out: ledger.json → ledger.control.json.
func controlLedger(ledgerOut string) string {
	if ledgerOut == "" {
		return ""
	}
	ext := filepath.Ext(ledgerOut)
	return strings.TrimSuffix(ledgerOut, ext) + ".control" + ext
}

// outputsWritable refuses, before any search, outputs that could not be
// written after it: a --witnesses path that is a file, a ledger path
// that is a directory, or one in a directory that does not exist.
func outputsWritable(ledgerOut, witnesses string) error {
	if witnesses != "" {
		if info, err := os.Stat(witnesses); err == nil && !info.IsDir() {
			return usageErr("--witnesses: %s is a file, not a directory", witnesses)
		}
	}
	for _, p := range []string{ledgerOut, controlLedger(ledgerOut)} {
		if p == "" {
			continue
		}
		if info, err := os.Stat(p); err == nil && info.IsDir() {
			return usageErr("--ledger-out: %s is a directory", p)
		}
		if info, err := os.Stat(filepath.Dir(p)); err != nil || !info.IsDir() {
			return usageErr("--ledger-out: %s: no directory %s", p, filepath.Dir(p))
		}
	}
	return nil
}

// benchDomain checks bench's flags for --domain and runs it.
func benchDomain(cmd *cobra.Command, e *env, domain, taskList string, runFiles []string, opt bench.RunOptions, f report.Format, ledgerOut, witnesses string, anyEnd bool, sf *scorerFlags) error {
	d, err := domainFlag(domain)
	if err != nil {
		return err
	}
	for _, name := range []string{"split", "shard", "judge", "idj", "judge-calls", "budgets"} {
		if fl := cmd.Flags().Lookup(name); fl != nil && fl.Changed {
			return usageErr("--%s does not go with --domain yet", name)
		}
	}
	if ext := strings.ToLower(filepath.Ext(ledgerOut)); ledgerOut != "" && ext != ".json" && ext != ".csv" {
		return usageErr("--ledger-out: %s: a ledger file ends in .json or .csv", ledgerOut)
	}
	if err := outputsWritable(ledgerOut, witnesses); err != nil {
		return err
	}
	topt := domainbench.Options{Domain: d, Edits: opt.Edits, MaxStates: opt.MaxStates, SameEnd: !anyEnd}
	if taskList != "" {
		topt.Tasks = strings.Split(taskList, ",")
		for _, id := range topt.Tasks {
			if _, err := domains.TaskOf(d, id); err != nil {
				return usageErr("--tasks: %w", err)
			}
		}
	}
	// Every file is read whole, and every run checked (domainbench.Run),
	// before the first search.
	if len(runFiles) > 0 {
		if topt.Runs, err = domains.ReadRuns(d, runFiles); err != nil {
			return usageErr("--runs: %w", err)
		}
	}
	if os.Getenv("GOGC") == "" {
		defer debug.SetGCPercent(debug.SetGCPercent(400))
	}
	if sf.program == "" {
		return runDomainBench(e, topt, f, ledgerOut, witnesses)
	}
	// The scorer is one more of the domain's evaluators, for the whole run.
	sc, err := sf.start(cmd.Context(), d, topt.Runs)
	if err != nil {
		return err
	}
	defer sc.close()
	topt.Domain = withScorer{d, sc.reward()}
	return runDomainBench(e, topt, f, ledgerOut, witnesses)
}

// endRule is which witnesses a real domain's search admitted: its name
// in JSON and what the output says of it.
type endRule struct{ name, says string }

// endRuleOf is the rule of a search with or without SameEnd.
func endRuleOf(sameEnd bool) endRule {
	if sameEnd {
		return endRule{"same_end", "witnesses admitted: only those that end in exactly H's state (--any-end admits any end)"}
	}
	return endRule{"any_end", "witnesses admitted: any end (--any-end), so successes count better work and collateral too"}
}

// witnessIndex is the file bench --witnesses names every witness in.
const witnessIndex = "index.json"

// witnessEntry is one witness file in the index: what it is a witness
// of and what the ledger claims of it.
type witnessEntry struct {
	File   string  `json:"file"`
	Run    string  `json:"run"`
	Task   string  `json:"task"`
	Target string  `json:"target"`
	Search string  `json:"search"` // the rule of the search that found it: same_end or any_end
	Delta  float64 `json:"delta"`
	End    string  `json:"end_state"`
	Rise   string  `json:"rise,omitempty"`
	// Record is the file holding the witness as the benchmark would have
	// recorded it, with parthack's claims, where the benchmark's own code
	// can score it (tau2: scripts/tau2-witness-differential.sh).
	Record string `json:"record,omitempty"`
}

// recorder writes a run's witnesses as the benchmark would have recorded
// them, with what parthack claims of each: its score on every evaluator
// of the domain and where it ends.
type recorder struct {
	format string // the record's kind, in its file name: "tau2"
	run    *domains.Run
	task   *domains.Task
	d      domains.Domain
}

// recordsOf are the recorders of the runs that have one, by run name.
func recordsOf(d domains.Domain, runs []*domains.Run) (map[string]*recorder, error) {
	if runs == nil {
		var err error
		if runs, err = d.Runs(); err != nil {
			return nil, err
		}
	}
	out := map[string]*recorder{}
	for _, r := range runs {
		if r.Record == nil {
			continue
		}
		t := r.Embedded
		if t == nil {
			var err error
			if t, err = domains.TaskOf(d, r.Task); err != nil {
				return nil, err
			}
		}
		out[r.Name] = &recorder{format: d.Format(), run: r, task: t, d: d}
	}
	return out, nil
}

// record is one witness's record: the run's Record of it, with a
// "claims" member: every evaluator of the domain on its public payload,
// and "end" (same, gold or other). A record of one line stays one line.
func (rc *recorder) record(tr *model.Trajectory, end string) ([]byte, error) {
	body, err := rc.run.Record(tr)
	if err != nil {
		return nil, err
	}
	env, err := rc.task.Env()
	if err != nil {
		return nil, err
	}
	b, err := builder.TrajectoryBytes(rc.task.Model, env.Replay(tr.Steps), tr)
	if err != nil {
		return nil, err
	}
	dec, err := payload.DecodeOwned(b)
	if err != nil {
		return nil, err
	}
	claims := map[string]any{}
	if end != "" {
		claims["end"] = end
	}
	for _, rw := range rc.d.Rewards() {
		// A score the evaluator did not give (a user's scorer that
		// failed on the witness) is no claim.
		if s, ok, _ := rw.Of(dec); ok {
			claims[rw.Name] = s
		}
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(body, &m); err != nil {
		return nil, err
	}
	if m["claims"], err = json.Marshal(claims); err != nil {
		return nil, err
	}
	// A record of one line is one entry of a format written one entry a
	// line (BFCL's result files): it stays that line, as the benchmark
	// wrote it, the claims its last member, so the file is one of the
	// format's own.
	if line := bytes.TrimSpace(body); len(m) > 1 && !bytes.ContainsRune(line, '\n') {
		out := append(line[:len(line)-1:len(line)-1], `, "claims": `...)
		return append(append(out, m["claims"]...), "}\n"...), nil
	}
	out, err := json.MarshalIndent(m, "", " ")
	return append(out, '\n'), err
}

// writeWitnesses writes every run's witnesses to dir, each under a name
// that fits any file system (witnessFileName), and the index naming
// each; it checks every name before it writes a file. It returns the
// number of witnesses.
func writeWitnesses(out *atomicfile.Set, dir string, d domains.Domain, sources []*domains.Run, rule endRule, runs []domainbench.RunInfo) (int, error) {
	domain := d.Name()
	records, err := recordsOf(d, sources)
	if err != nil {
		return 0, err
	}
	var entries []witnessEntry
	var bodies [][]byte
	type extra struct {
		name string
		body []byte
	}
	var more []extra
	seen := map[string]string{}
	for _, r := range runs {
		for _, w := range r.Witnesses {
			search := rule.name
			if w.AnyEnd {
				search = endRuleOf(false).name
			}
			file := witnessFileName(r.Run, w.Target, w.AnyEnd)
			what := r.Run + " against " + w.Target
			if prev, ok := seen[file]; ok {
				return 0, fmt.Errorf("the witnesses of %s and of %s would both be %s", prev, what, file)
			}
			seen[file] = what
			tr := *w.Trajectory
			same := w.End == report.EndSame
			tr.Note += collateralNote(&same, w.Collateral)
			if w.End == report.EndGold {
				tr.Note += "; it ends in the gold run's state"
			}
			bodies = append(bodies, model.EncodeTrajectory(&tr))
			e := witnessEntry{File: file, Run: r.Run, Task: r.Task, Target: w.Target, Search: search, Delta: w.Delta, End: w.End, Rise: w.Rise}
			if rec := records[r.Run]; rec != nil {
				body, err := rec.record(w.Trajectory, w.End)
				if err != nil {
					return 0, fmt.Errorf("the witness of %s: %w", what, err)
				}
				e.Record = strings.TrimSuffix(file, ".json") + "." + rec.format + ".json"
				more = append(more, extra{e.Record, body})
			}
			entries = append(entries, e)
		}
	}
	index, err := json.MarshalIndent(struct {
		Domain    string         `json:"domain"`
		Rule      string         `json:"end_rule"`
		Witnesses []witnessEntry `json:"witnesses"`
	}{domain, rule.name, entries}, "", "  ")
	if err != nil {
		return 0, err
	}
	if err := out.Dir(dir, 0o755); err != nil {
		return 0, err
	}
	for i, e := range entries {
		if err := out.Write(filepath.Join(dir, e.File), bodies[i], 0o644); err != nil {
			return 0, err
		}
	}
	for _, x := range more {
		if err := out.Write(filepath.Join(dir, x.name), x.body, 0o644); err != nil {
			return 0, err
		}
	}
	return len(entries), out.Write(filepath.Join(dir, witnessIndex), append(index, '\n'), 0o644)
}

// maxWitnessName is the longest witness file name, in bytes: well within
// every file system's limit (255 bytes on most, fewer on some).
const maxWitnessName = 100

// witnessFileName names a run's witness against a target as a file:
// RUN.TARGET.json (RUN.TARGET.any-end.json for an any-end search's),
// where a run name with a byte outside [A-Za-z0-9._-], or too long to
// fit maxWitnessName, is made to fit: the other bytes become _, the
// middle is cut, and a hash of the whole name keeps it unique. The same
// run and target always give the same name.
func witnessFileName(run, target string, anyEnd bool) string {
	suffix := "." + target
	if anyEnd {
		suffix += ".any-end"
	}
	suffix += ".json"
	room := maxWitnessName - len(suffix) - len(".123456") // room for the record's ".FORMAT" tag (recorder)
	if fitsFileName(run) && len(run) <= room && !strings.HasPrefix(run, ".") && !strings.HasPrefix(run, "-") {
		return run + suffix
	}
	var b strings.Builder
	for _, c := range []byte(run) {
		if fitsFileName(string(c)) {
			b.WriteByte(c)
		} else if !strings.HasSuffix(b.String(), "_") {
			b.WriteByte('_')
		}
	}
	name := strings.TrimLeft(b.String(), ".-_")
	if name == "" {
		name = "run"
	}
	sum := sha256.Sum256([]byte(run))
	tag := "-" + hex.EncodeToString(sum[:4])
	if keep := room - len(tag); len(name) > keep {
		head := keep / 2
		name = name[:head] + "_" + name[len(name)-(keep-head-1):]
	}
	return name + tag + suffix
}

// fitsFileName reports whether s is made of [A-Za-z0-9._-] only.
func fitsFileName(s string) bool {
	for _, c := range []byte(s) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// collateralNote says, for a witness's note, whether it ends in H's
// database, and if not, the first cells where the two differ.
func collateralNote(same *bool, deltas []pbcste.EndDelta) string {
	switch {
	case same == nil:
		return ""
	case *same:
		return "; it ends in exactly H's state (the benchmark's own state hash)"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "; it ends with H's certified vectors but not in H's state: %d cell", len(deltas))
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
