package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/parthack/parthack/attacker"
	"github.com/parthack/parthack/attacker/bench"
	"github.com/parthack/parthack/domains"
	"github.com/parthack/parthack/evaluators"
	"github.com/parthack/parthack/internal/atomicfile"
	"github.com/parthack/parthack/report"
	"github.com/parthack/parthack/tasks"
)

const formatHelp = "output: table, markdown, latex (booktabs), csv, json, or svg (the threshold figure)"

func newBenchCmd(e *env) *cobra.Command {
	var split, taskList, ledgerOut, format, shardArg, domain, witnesses string
	var anyEnd bool
	var runFiles []string
	var opt bench.RunOptions
	var jf judgeFlags
	var sf scorerFlags
	var budgets []int
	cmd := &cobra.Command{
		Use:   "bench [--split held-out|development|all | --tasks ID,ID…] [--edits N] [--budgets 1,2,3] [--max-states N] [--judge [--idj]] [--ledger-out FILE.json|FILE.csv] [--shard i/n] [--format F]",
		Short: "Run the benchmark: attack every evaluator on a split and report the paper's metrics",
		Long: "Run the search attacker on every task of the split: against Historical Milestone for the shared reference\n" +
			"set A_ref, scored by every deterministic evaluator, and against each evaluator for its target-specific row.\n" +
			"Every score is computed from the public payload's bytes; f(H), P_state(H) and, for tasks with a strict\n" +
			"rollback, f(R) and P_state(R) go in the ledger too. Then print the report, as `parthack report` would\n" +
			"from the ledger: target-specific and shared-set results, rollback audit, threshold sensitivity,\n" +
			"candidate accounting and Wilson intervals. Attempts are the search nodes visited, valid attempts the\n" +
			"eligible candidates met. The ledger is deterministic; --ledger-out saves it (JSON or CSV by extension).\n" +
			"--tasks runs the listed suite tasks instead of a split. Progress goes to stderr.\n\n" +
			"--judge adds the schema-aware LLM judge, --idj also IDJ, with score's endpoint flags (or PARTHACK_JUDGE_* /\n" +
			"PARTHACK_IDJ_*): each scores H, A_ref and R of every task, the judge from the payload bytes and IDJ from\n" +
			"the schema-free projection, for rows in the shared set and the rollback audit. --judge-calls K also\n" +
			"attacks each judge directly: a budgeted best-first search ranks the eligible candidates and spends K\n" +
			"judge calls on the best-ranked, for target-specific rows (the paper's K is 3). A\n" +
			"judge call that fails after its retry leaves that score out of the row, with the failure in the ledger's\n" +
			"error field. --record keeps every request and response; --replay reruns the benchmark offline from such\n" +
			"a recording and prints the same report.\n\n" +
			"--budgets 1,2,3 runs the searches again within each edit budget and adds the budget sensitivity\n" +
			"table (matched and successful tasks per target and budget); larger budgets take longer.\n\n" +
			"--shard i/n (0 ≤ i < n) runs shard i of n: a deterministic, contiguous slice of the run's (task, target)\n" +
			"pairs, task by task. It writes the slice's rows and the run's settings to --ledger-out (JSON) and prints\n" +
			"no report; `parthack report --ledger` given every shard's ledger checks they are the n shards of one run\n" +
			"and merges them into the ledger the unsharded run writes, byte for byte. Not with --budgets.\n\n" +
			"--domain NAME runs on a real benchmark's runs instead (each failed run of a task with a goal is H). Its\n" +
			"searches admit only witnesses that end in exactly H's state, so successes are evaluator inflation; each\n" +
			"target is searched again admitting any end, and the tables count, beside each target, the tasks whose best\n" +
			"attack over .10 ends in the gold run's state (better work) or elsewhere (collateral). --any-end admits any\n" +
			"end in the searches themselves. --witnesses DIR writes every witness with an index.json.\n" +
			"With --domain, --scorer adds your own scorer, sandboxed, as a target and a row (target scorer): one\n" +
			"process serves the whole run, one JSON document a line (--scorer-input: the payload, or what the\n" +
			"benchmark's own evaluator reads of each candidate, in the shapes of its run format). A scorer that\n" +
			"crashes, answers anything but a score in [0, 1] or runs out of time on a candidate leaves its rows\n" +
			"without what it failed to give, the error naming the candidate, and starts afresh for the next; the\n" +
			"other rows go on.\n\n" +
			"Exit codes: 0 done, 2 bad input or usage, a judge asked for but not configured, a recording that\n" +
			"cannot be written or lacks a request, or rows a scorer failed on (everything written first).",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if opt.JudgeCalls > 0 && !jf.judge && !jf.idj {
				return usageErr("--judge-calls needs --judge")
			}
			f, err := report.ParseFormat(format)
			if err != nil {
				return usageErr("--format: %w", err)
			}
			if domain != "" {
				return benchDomain(cmd, e, domain, taskList, runFiles, opt, f, ledgerOut, witnesses, anyEnd, &sf)
			}
			if sf.program != "" {
				return usageErr("--scorer goes with --domain: a real benchmark's runs")
			}
			if len(runFiles) > 0 {
				return usageErr("--runs goes with --domain: they are a real benchmark's runs")
			}
			if anyEnd {
				return usageErr("--any-end goes with --domain (the suite's search admits any end already)")
			}
			ids, ok := splitIDs(split)
			if !ok {
				return usageErr("--split: %q is not held-out, development or all", split)
			}
			what := split + " split"
			if cmd.Flags().Changed("tasks") {
				if cmd.Flags().Changed("split") {
					return usageErr("--tasks and --split exclude each other")
				}
				if ids, err = taskIDs(taskList); err != nil {
					return err
				}
				what = "tasks " + strings.Join(ids, ",")
			}
			if ext := strings.ToLower(filepath.Ext(ledgerOut)); ledgerOut != "" && ext != ".json" && ext != ".csv" {
				return usageErr("--ledger-out: %s: a ledger file ends in .json or .csv", ledgerOut)
			}
			if cmd.Flags().Changed("shard") {
				if opt.Shard, err = report.ParseShard(shardArg); err != nil {
					return usageErr("--shard: %w", err)
				}
				switch {
				case strings.ToLower(filepath.Ext(ledgerOut)) != ".json":
					return usageErr("--shard needs --ledger-out FILE.json: a shard's ledger (JSON) is its result")
				case len(budgets) > 0:
					return usageErr("--shard does not go with --budgets: the budget table comes from extra runs no ledger holds; run it unsharded")
				}
			}
			judging, err := jf.on(cmd, false)
			if err != nil {
				return err
			}
			var ts []*tasks.Task
			for _, id := range ids {
				t, err := tasks.Get(id)
				if err != nil {
					return usageErr("--tasks: %w", err)
				}
				ts = append(ts, t)
			}
			if n, pairs := opt.Shard.Count, len(ts)*(len(evaluators.Deterministic())+len(judgeTargets(&jf))); n > pairs {
				return usageErr("--shard %s: the run has %d (task, target) pairs; give at most %d shards", opt.Shard, pairs, pairs)
			}
			if judging {
				cs, err := jf.open()
				if err != nil {
					return err
				}
				defer cs.close()
				if opt.Judges, err = jf.benchJudges(cs); err != nil {
					return err
				}
			}
			// The searches allocate fast and keep little alive, so the
			// default GOGC collects many times a second; a larger heap
			// goal (about 120 MB at peak) halves the run time. GOGC in
			// the environment still wins.
			if os.Getenv("GOGC") == "" {
				defer debug.SetGCPercent(debug.SetGCPercent(400))
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
			defer stop()
			start := time.Now()
			l, err := bench.Run(ctx, ts, opt, func(line string) { fmt.Fprintln(e.stderr, line) })
			if err != nil {
				return err
			}
			judged := ""
			for i, j := range opt.Judges {
				sep := " and "
				if i > 0 {
					sep = ", "
				}
				judged += sep + report.Label(j.Target)
			}
			switch {
			case judged != "" && opt.JudgeCalls > 0:
				judged += fmt.Sprintf(" on the shared set and attacked with %d calls each", opt.JudgeCalls)
			case judged != "":
				judged += " on the shared set"
			}
			fmt.Fprintf(e.stderr, "bench: %s, %d tasks, %d evaluators%s, within %d edits of H: %d rows in %s\n",
				what, len(ts), len(evaluators.Deterministic()), judged, opt.Edits, len(l.Rows), time.Since(start).Round(100*time.Millisecond))
			if jf.record != "" {
				fmt.Fprintf(e.stderr, "bench: judge exchanges recorded in %s\n", jf.record)
			}
			if n := cappedSearches(l); n > 0 {
				fmt.Fprintf(e.stderr, "bench: %d targeted searches stopped at --max-states %d: their bound is not exhausted (the ledger marks their rows capped, the tables name them)\n", n, opt.MaxStates)
			}
			if opt.Shard.Count > 0 {
				split := split
				if cmd.Flags().Changed("tasks") {
					split = ""
				}
				if l.Shard, err = shardInfo(opt.Shard, split, ts, opt, &jf); err != nil {
					return err
				}
			}
			if ledgerOut != "" {
				if err := writeLedger(ledgerOut, l); err != nil {
					return usageErr("--ledger-out: %w", err)
				}
				fmt.Fprintf(e.stderr, "bench: ledger written to %s\n", ledgerOut)
			}
			if opt.Shard.Count > 0 {
				fmt.Fprintf(e.stderr, "bench: shard %s: merge the %d shards' ledgers with parthack report --ledger FILE…\n", opt.Shard, opt.Shard.Count)
				return nil
			}
			rep := report.Compute(l)
			for _, b := range budgets {
				if b == opt.Edits {
					rep.AddBudget(b, l)
					continue
				}
				bopt := opt
				bopt.Edits, bopt.Judges = b, nil
				bl, err := bench.Run(ctx, ts, bopt, func(line string) { fmt.Fprintln(e.stderr, line) })
				if err != nil {
					return err
				}
				rep.AddBudget(b, bl)
			}
			return report.Render(e.stdout, rep, f)
		},
	}
	intFlag(cmd.Flags(), &opt.JudgeCalls, "judge-calls", 0, intRange{min: 1, max: 1000, zero: "the shared set only"}, "with --judge, also attack each judge directly, spending this many judge calls per task")
	intsFlag(cmd.Flags(), &budgets, "budgets", editsRange, "also run the searches within each of these edit budgets, e.g. 1,2,3, for the budget sensitivity table")
	cmd.Flags().StringVar(&split, "split", "held-out", "tasks to run: held-out, development or all")
	cmd.Flags().StringVar(&taskList, "tasks", "", "run these suite tasks instead of a split: ids separated by commas (PH-H04,PH-H05)")
	intFlag(cmd.Flags(), &opt.Edits, "edits", 2, editsRange, "at most this many edits of H per candidate (inserted actions plus skipped steps)")
	intFlag(cmd.Flags(), &opt.MaxStates, "max-states", attacker.DefaultMaxStates, maxStatesRange, "search nodes to visit at most, per task and target")
	cmd.Flags().StringVar(&ledgerOut, "ledger-out", "", "write the ledger to this file (.json or .csv)")
	cmd.Flags().StringVar(&format, "format", "table", formatHelp)
	cmd.Flags().StringArrayVar(&runFiles, "runs", nil, "with --domain: attack the runs of these files (the benchmark's own run format, gzipped or not; repeatable) instead of those the domain ships")
	cmd.Flags().BoolVar(&anyEnd, "any-end", false, "with --domain: admit witnesses that end anywhere, not only in exactly H's database (successes then count better work and collateral too)")
	cmd.Flags().StringVar(&witnesses, "witnesses", "", "with --domain: write each run's witness of each searched target to this directory, with an index.json naming each file's run, task and target")
	cmd.Flags().StringVar(&domain, "domain", "", "run on a real benchmark's runs instead of the suite ("+strings.Join(domains.Names(), ", ")+")")
	cmd.Flags().StringVar(&shardArg, "shard", "", "run only shard i of n (0/4 … 3/4) of the (task, target) pairs and write its ledger; report --ledger merges the shards")
	jf.add(cmd)
	sf.add(cmd)
	return cmd
}

// taskIDs reads --tasks: suite task ids separated by commas, each once,
// kept in the order given (the ledger's task order).
func taskIDs(arg string) ([]string, error) {
	var ids []string
	for id := range strings.SplitSeq(arg, ",") {
		id = strings.TrimSpace(id)
		switch {
		case id == "":
			return nil, usageErr("--tasks: %q holds an empty task id", arg)
		case slices.Contains(ids, id):
			return nil, usageErr("--tasks: %s is listed twice", id)
		}
		ids = append(ids, id)
	}
	return ids, nil
}

func writeLedger(path string, l *report.Ledger) error {
	var buf bytes.Buffer
	if err := report.Write(&buf, path, l); err != nil {
		return err
	}
	return atomicfile.Write(path, buf.Bytes(), 0o644)
}

func newReportCmd(e *env) *cobra.Command {
	var ledgers []string
	var format, ledgerOut string
	cmd := &cobra.Command{
		Use:   "report --ledger FILE [FILE…] [--ledger-out FILE] [--format F]",
		Short: "Recompute every metric and table from a ledger (JSON or CSV)",
		Long: "Read a task-indexed ledger, as `parthack bench --ledger-out` writes or a paper publishes, and recompute\n" +
			"everything from it: coverage, conditional ASR (Δhack > .10, strictly) and end-to-end yield with Wilson\n" +
			"95% intervals, mean Δhack over matched tasks with a seeded 10,000-resample task bootstrap, honest MAE,\n" +
			"rollback detection, miss rate and retained false credit, threshold sensitivity and candidate accounting.\n" +
			"The same ledger always prints the same bytes. The ledger is read strictly: a bad row is an error that\n" +
			"names the file, the line and the field. JSON or CSV is chosen by the file's extension.\n\n" +
			"Given the ledgers of the n shards of one run (bench --shard i/n), in any order, report merges them into\n" +
			"the ledger the unsharded run writes, byte for byte, and reports that; it refuses a missing shard, a shard\n" +
			"given twice, and shards of different runs (build, suite, tasks, evaluators, judges, edits, max states).\n" +
			"--ledger-out writes the ledger reported (the merged one), JSON or CSV by extension.\n\n" +
			"Exit codes: 0 done, 2 bad input or usage.",
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			f, err := report.ParseFormat(format)
			if err != nil {
				return usageErr("--format: %w", err)
			}
			if len(ledgers) == 0 {
				return usageErr("--ledger is required")
			}
			if ext := strings.ToLower(filepath.Ext(ledgerOut)); ledgerOut != "" && ext != ".json" && ext != ".csv" {
				return usageErr("--ledger-out: %s: a ledger file ends in .json or .csv", ledgerOut)
			}
			files := append(slices.Clone(ledgers), args...) // --ledger a.json b.json …
			ls := make([]*report.Ledger, len(files))
			for i, name := range files {
				if ls[i], err = report.ReadFile(name); err != nil {
					return usage(err)
				}
			}
			l := ls[0]
			if len(ls) > 1 || l.Shard != nil {
				if l, err = report.Merge(files, ls); err != nil {
					return usage(err)
				}
			}
			if ledgerOut != "" {
				if err := writeLedger(ledgerOut, l); err != nil {
					return usageErr("--ledger-out: %w", err)
				}
			}
			return report.Render(e.stdout, report.Compute(l), f)
		},
	}
	cmd.Flags().StringArrayVar(&ledgers, "ledger", nil, "the ledger file (.json or .csv); several: the shards of one run, to merge")
	cmd.Flags().StringVar(&ledgerOut, "ledger-out", "", "write the ledger reported (shards merged) to this file (.json or .csv)")
	cmd.Flags().StringVar(&format, "format", "table", formatHelp)
	return cmd
}

// cappedSearches counts the targeted rows whose search stopped at its
// state cap: one per (task, target) search cut short.
func cappedSearches(l *report.Ledger) int {
	n := 0
	for _, r := range l.Rows {
		if r.Set == report.SetTargeted && r.Capped {
			n++
		}
	}
	return n
}
