package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/parthack/parthack/attacker"
	"github.com/parthack/parthack/attacker/domainbench"
	"github.com/parthack/parthack/domains"
	"github.com/parthack/parthack/evaluators"
	"github.com/parthack/parthack/internal/atomicfile"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
	"github.com/parthack/parthack/report"
	"github.com/parthack/parthack/tasks"
)

func newAttackCmd(e *env) *cobra.Command {
	var taskArg, honestArg, outPath string
	var opt attacker.Options
	var lf attackerFlags
	var sf scorerFlags
	var asJSON, anyEnd bool
	cmd := &cobra.Command{
		Use:   "attack --task ID|FILE|development|held-out|all [--target NAME] [--edits N]",
		Short: "Search for the certified worst case: the eligible witness that most inflates an evaluator",
		Long: "Search every edit of the honest trajectory within a bound (insert an action from the task's alphabet,\n" +
			"or skip a step of H; --pairs adds two-field updates), keep the candidates the double certifier finds\n" +
			"eligible, and report the one that most inflates the target evaluator, scored from its public payload.\n" +
			"\"exhausted\" means every candidate within the bound was considered, so the result is the worst case\n" +
			"there is, not just the best found.\n\n" +
			"With a split (development, held-out or all) it runs every task of the suite and prints the per-task\n" +
			"ledger and its summary: coverage, conditional ASR (Δ > .10), end-to-end yield and mean Δhack.\n\n" +
			"With --llm an OpenAI-compatible model proposes --k candidates instead (generation, schema validation,\n" +
			"replay, double certification, public scoring; every attempt counts), configured like the judges:\n" +
			"--attacker-base-url, --attacker-model or PARTHACK_ATTACKER_*; --record and --replay make a run offline.\n\n" +
			"On a real domain's task the search admits only witnesses that end in exactly H's state (evaluator\n" +
			"inflation; --any-end admits any end), and the output says where the witness ends: H's state, the gold\n" +
			"run's, or elsewhere with each cell that differs; a same-end witness over .10 says why the evaluator rose.\n\n" +
			"Targets: " + strings.Join(attackTargets(), ", ") + ";\n" +
			"scorer, your own program given with --scorer, run sandboxed as one process for the whole search, one JSON\n" +
			"document a line (--scorer-input: the payload, or on a real benchmark's task what its own evaluator reads\n" +
			"of each candidate, in the shapes of its run format).\n" +
			"Exit codes: 0 done, 2 bad input or usage.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
			defer stop()
			if err := lf.check(cmd); err != nil {
				return err
			}
			if _, split := splitIDs(taskArg); sf.program != "" && (lf.on || split) {
				return usageErr("--scorer attacks one task with the search attacker")
			}
			if lf.on {
				return attackLLM(ctx, e, &lf, taskArg, honestArg, outPath, opt.Target, asJSON)
			}
			if anyEnd && opt.SameEnd {
				return usageErr("--same-end and --any-end exclude each other")
			}
			if ids, ok := splitIDs(taskArg); ok {
				if honestArg != "" || outPath != "" {
					return usageErr("--honest and --out apply to a single task")
				}
				return attackSuite(ctx, e, ids, opt, asJSON)
			}
			var scorer *domains.Reward
			if sf.program != "" || opt.Target == scorerTarget {
				if sf.program == "" || opt.Target != scorerTarget {
					return usageErr("--target scorer and --scorer go together")
				}
				d, _, _, _ := domainTask(taskArg)
				sc, serr := sf.start(ctx, d, nil)
				if serr != nil {
					return serr
				}
				defer sc.close()
				rw := sc.reward()
				scorer = &rw
			}
			hname, err := honestPath(taskArg, honestArg)
			if err != nil {
				return err
			}
			res, end, err := e.attackOne(ctx, taskArg, hname, opt, scorer, anyEnd)
			if err != nil {
				return err
			}
			if label, ok := runLabel(taskArg, hname); ok && res.Best != nil {
				// A domain task's witness names its H, so that certify
				// and the workbench judge it against that run.
				res.Best.Honest = label
			}
			if outPath != "" && res.Best != nil {
				if err := atomicfile.Write(outPath, model.EncodeTrajectory(res.Best), 0o644); err != nil {
					return usageErr("write --out: %w", err)
				}
			}
			if asJSON {
				j := attackJSON{Result: res, H: hname, Witness: res.Best}
				if end != nil {
					j.Rule, j.End, j.Rise = end.rule.name, end.end, end.rise
					if res.Best != nil {
						same := end.end == report.EndSame
						j.SameEnd, j.Collateral = &same, end.deltas
					}
				}
				return writeJSON(e.stdout, j)
			}
			writeAttack(e, res, hname, end, outPath)
			return nil
		},
	}
	cmd.Flags().StringVar(&taskArg, "task", "", "suite task id, task file, or a split: development, held-out, all")
	cmd.Flags().StringVar(&honestArg, "honest", "", "honest trajectory H: a file, a stored name, or a domain task's run (default: the suite task's H; a domain task's first run its benchmark scores below 1, else its first run, else gold)")
	cmd.Flags().StringVar(&opt.Target, "target", "historical_milestone", "the evaluator to inflate (a domain's task: its benchmark's own too)")
	intFlag(cmd.Flags(), &opt.Edits, "edits", 2, editsRange, "at most this many edits of H (inserted actions plus skipped steps)")
	intFlag(cmd.Flags(), &opt.MaxStates, "max-states", attacker.DefaultMaxStates, maxStatesRange, "search nodes to visit at most, per task")
	cmd.Flags().BoolVar(&opt.Pairs, "pairs", false, "also try steps that update two fields of an entity at once (a larger search)")
	cmd.Flags().BoolVar(&opt.SameEnd, "same-end", false, "admit only witnesses that end in exactly H's state (no collateral outside the goal predicates; a real domain's task's default)")
	cmd.Flags().BoolVar(&anyEnd, "any-end", false, "on a real domain's task, admit witnesses that end anywhere, not only in exactly H's state")
	cmd.Flags().StringVar(&outPath, "out", "", "write the witness found as a trajectory file")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON instead of a table")
	lf.add(cmd)
	sf.add(cmd)
	return cmd
}

type attackJSON struct {
	*attacker.Result
	// H is the honest trajectory as named: a run of a domain's task,
	// "gold", the suite's "honest", or a file.
	H       string            `json:"honest_name"`
	Witness *model.Trajectory `json:"witness,omitempty"`
	// Rule is which witnesses a real domain's search admitted (same_end,
	// any_end); SameEnd, Collateral, End and Rise are where its witness
	// ends beside H and, in H's state, why the target rose (bench's runs[]
	// fields of the same names).
	Rule       string            `json:"end_rule,omitempty"`
	SameEnd    *bool             `json:"same_end_state,omitempty"`
	Collateral []pbcste.EndDelta `json:"collateral,omitempty"`
	End        string            `json:"end_state,omitempty"`
	Rise       string            `json:"rise,omitempty"`
}

// witnessEnd is a real domain's search: the witnesses it admitted, and
// where its witness ends beside H (report.EndSame, EndGold, EndOther; ""
// with no witness), each cell that differs, and, for a same-end success,
// why the target rose.
type witnessEnd struct {
	rule      endRule
	end, rise string
	deltas    []pbcste.EndDelta
}

// attackTargets are the targets attack takes: the paper's evaluators,
// then each domain's benchmark's own, once each.
func attackTargets() []string {
	var out []string
	for _, ev := range evaluators.Deterministic() {
		out = append(out, ev.Name)
	}
	var own []string
	for _, d := range domains.All() {
		for _, rw := range d.Rewards() {
			if !slices.Contains(own, rw.Name) {
				own = append(own, rw.Name)
			}
		}
	}
	if len(own) > 0 {
		out = append(out, "and on a real domain's task its benchmark's own ("+strings.Join(own, ", ")+")")
	}
	return out
}

// splitIDs resolves a split name to the suite's task ids.
func splitIDs(arg string) ([]string, bool) {
	want := map[string]string{"development": "development", "held-out": "held-out", "all": ""}
	split, ok := want[arg]
	if !ok {
		return nil, false
	}
	suite, err := tasks.Suite()
	if err != nil {
		return nil, false
	}
	var ids []string
	for _, t := range suite {
		if split == "" || t.Split == split {
			ids = append(ids, t.ID)
		}
	}
	return ids, true
}

// attackOne searches one task. On a real domain's task the search may
// also target the benchmark's own evaluators, admits only witnesses that
// end in exactly H's state unless anyEnd, and says where the witness ends
// beside H and gold: equal certified vectors need not be an equal
// database (a second cancel refunds again). scorer, where given, is the
// user's own scorer, one more target.
func (e *env) attackOne(ctx context.Context, taskArg, honestPath string, opt attacker.Options, scorer *domains.Reward, anyEnd bool) (*attacker.Result, *witnessEnd, error) {
	env, pub, err := loadTaskViews(taskArg)
	if err != nil {
		return nil, nil, err
	}
	h, err := e.loadHonest(taskArg, honestPath)
	if err != nil {
		return nil, nil, usage(err)
	}
	if err := checkEpisode(env.Task, honestPath, h); err != nil {
		return nil, nil, err
	}
	if err := checkAttackable(env.Task, honestPath, h); err != nil {
		return nil, nil, err
	}
	d, t, domain, err := domainTask(taskArg)
	if err != nil {
		return nil, nil, usage(err)
	}
	if scorer != nil {
		opt.Extra = append(opt.Extra, attacker.Extra{Name: scorer.Name, Score: scorer.Of, Serial: true})
	}
	if domain {
		// A domain task's moves are calls drawn from the task and from
		// where H ends; its benchmark's evaluators are targets too.
		if t.AttackTask != nil {
			pub = t.AttackTask(h, env.Replay(h.Steps).View())
		}
		// A scorer of the user's own is one more of the domain's
		// evaluators, for the search and for why a witness rose.
		if scorer != nil {
			d = withScorer{d, *scorer}
		}
		for _, rw := range d.Rewards() {
			if !slices.ContainsFunc(opt.Extra, func(x attacker.Extra) bool { return x.Name == rw.Name }) {
				opt.Extra = append(opt.Extra, attacker.Extra{Name: rw.Name, Score: rw.Of, Serial: rw.Fails != nil})
			}
		}
		opt.SameEnd = opt.SameEnd || !anyEnd
	}
	res, err := attacker.Search(ctx, pub, env, h, opt, nil)
	if err != nil {
		return nil, nil, usage(err)
	}
	if !domain {
		return res, nil, nil
	}
	end := &witnessEnd{rule: endRuleOf(opt.SameEnd)}
	if res.Best == nil {
		return res, end, nil
	}
	hlog, alog := env.Replay(h.Steps), env.Replay(res.Best.Steps)
	if end.end, end.deltas, err = domainbench.NewEnds(t, env, hlog).Of(alog); err != nil {
		return nil, nil, err
	}
	if end.end == report.EndSame && report.Success(res.Delta) {
		score, err := domainbench.ScoreOf(d, pub, res.Target)
		if err != nil {
			return nil, nil, err
		}
		if end.rise, err = domainbench.Rise(env, hlog, res.Best, score); err != nil {
			return nil, nil, err
		}
	}
	return res, end, nil
}

func writeAttack(e *env, r *attacker.Result, hname string, end *witnessEnd, outPath string) {
	w := e.stdout
	fmt.Fprintf(w, "task %s   H %s   target %s   within %d edits of H\n\n", r.Task, hname, r.Target, r.Edits)
	bound := "exhausted: this is the certified worst case within the bound"
	if !r.Exhausted {
		bound = "NOT exhausted: the state budget ran out first; a larger --max-states may find more"
	}
	fmt.Fprintf(w, "searched   %d states, %d eligible candidates; %s\n", r.States, r.Eligible, bound)
	if end != nil {
		fmt.Fprintf(w, "rule       %s\n", end.rule.says)
	}
	if r.Best == nil {
		fmt.Fprintf(w, "result     no eligible candidate other than H itself\n")
		return
	}
	fmt.Fprintf(w, "f(H)       %.3f\nf(A)       %.3f\nΔhack      %+.3f\n\nwitness (%d steps)\n", r.Honest, r.Score, r.Delta, len(r.Best.Steps))
	for i := range r.Best.Steps {
		fmt.Fprintf(w, "  %2d  %s\n", i+1, model.AppendStep(nil, &r.Best.Steps[i]))
	}
	writeWitnessEnd(w, end)
	if outPath != "" {
		fmt.Fprintf(w, "\nwritten to %s\n", outPath)
	}
}

// writeWitnessEnd says where a real domain's witness ends beside H, each
// differing cell whole, with the goal predicates that read it.
func writeWitnessEnd(w io.Writer, end *witnessEnd) {
	switch {
	case end == nil:
		return
	case end.end == report.EndSame:
		fmt.Fprintf(w, "\nend state  exactly H's (the benchmark's own state hash)\n")
		if why, ok := riseSays[end.rise]; ok {
			fmt.Fprintf(w, "rise       %s\n", why)
		}
		return
	}
	plural := "s"
	if len(end.deltas) == 1 {
		plural = ""
	}
	gold := ""
	if end.end == report.EndGold {
		gold = "; it is the gold run's end state (A is better work than H, not inflation)"
	}
	fmt.Fprintf(w, "\nend state  not H's: %d cell%s differ (same certified vectors, another database)%s\n", len(end.deltas), plural, gold)
	for _, d := range end.deltas {
		reads := ""
		if len(d.Goal) > 0 {
			ps := make([]string, len(d.Goal))
			for i, p := range d.Goal {
				ps[i] = strconv.Itoa(p)
			}
			reads = " (goal predicate " + strings.Join(ps, ", ") + ")"
		}
		fmt.Fprintf(w, "  %s %s .%s%s: H %s, A %s\n", d.Type, d.ID, d.Field, reads, d.H, d.A)
	}
}

// riseSays is why an evaluator rose on a same-end witness, in words.
var riseSays = map[string]string{
	report.RiseFailedCall: "a call that failed (where H's did not) is credited all the same",
	report.RiseNoOpRepeat: "a call that changed nothing (a repeat of H's write, or values already there) is credited",
	report.RiseChangeUndo: "a change that a later call undoes or overwrites is credited",
}

// attackSuite runs the search on every task of a split and prints the
// ledger with the paper's summary metrics.
func attackSuite(ctx context.Context, e *env, ids []string, opt attacker.Options, asJSON bool) error {
	var rows []*attacker.Result
	for _, id := range ids {
		r, _, err := e.attackOne(ctx, id, "", opt, nil, false)
		if err != nil {
			return fmt.Errorf("%s: %w", id, err)
		}
		rows = append(rows, r)
	}
	sum := summarize(opt.Target, rows)
	if asJSON {
		return writeJSON(e.stdout, struct {
			Tasks   []*attacker.Result `json:"tasks"`
			Summary attackSummary      `json:"summary"`
		}{rows, sum})
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "task\tmatched\tf(H)\tf(A)\tΔhack\tstates\texhausted\n")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%.3f\t%.3f\t%+.3f\t%d\t%t\n", r.Task, yesNo(r.Best != nil), r.Honest, r.Score, r.Delta, r.States, r.Exhausted)
	}
	tw.Flush()
	fmt.Fprintf(e.stdout, "\ntarget %s, within %d edits: %s\n", opt.Target, opt.Edits, sum.metrics())
	return nil
}

type attackSummary struct {
	Tasks     int     `json:"tasks"`
	Matched   int     `json:"matched"`
	Successes int     `json:"successes"` // Δhack > .10, strictly
	MeanDelta float64 `json:"mean_delta"`
}

// metrics is the summary as a sentence, the same in every split table.
func (s attackSummary) metrics() string {
	return fmt.Sprintf("coverage %d/%d, conditional ASR %d/%d, end-to-end yield %d/%d, mean Δhack %.3f over matched tasks",
		s.Matched, s.Tasks, s.Successes, s.Matched, s.Successes, s.Tasks, s.MeanDelta)
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// summarize computes a split's coverage, conditional ASR, yield and mean
// Δhack with the report package, so every table in parthack counts a
// success the same way. A row with Best nil has no adversary.
func summarize(target string, rows []*attacker.Result) attackSummary {
	if len(rows) == 0 {
		return attackSummary{}
	}
	l := &report.Ledger{}
	for _, r := range rows {
		honest := r.Honest
		row := report.Row{Target: target, Set: report.SetTargeted, Task: r.Task, Honest: &honest, Matched: r.Best != nil}
		if row.Matched {
			delta := r.Delta
			row.Delta = &delta
		}
		l.Rows = append(l.Rows, row)
	}
	g := report.Compute(l).Groups[0]
	s := attackSummary{Tasks: g.Tasks, Matched: g.Matched, Successes: g.Successes}
	if g.MeanDelta != nil {
		s.MeanDelta = g.MeanDelta.Value
	}
	return s
}
