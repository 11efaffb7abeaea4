package cli

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/parthack/parthack/attacker/domainbench"
	"github.com/parthack/parthack/certifier"
	"github.com/parthack/parthack/domains"
	"github.com/parthack/parthack/internal/taskfile"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
	"github.com/parthack/parthack/tasks"
	"github.com/parthack/parthack/tasks/sealed"
	"github.com/parthack/parthack/tasks/validate"
)

func newTasksCmd(e *env) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "tasks",
		Short: "List the 24-task suite; show or validate its tasks",
		Long: "List the embedded PartHackBench suite: 6 development and 18 held-out tasks with their family, goal form,\n" +
			"number of predicates m, honest progress P_state(H), tags and rollback metric.\n" +
			"--json prints an array of {id, split, family, m, honest_progress, tags, rollback_metric}.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			all, err := tasks.Suite()
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(e.stdout, manifestJSON(all))
			}
			writeManifest(e.stdout, all)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON instead of a table")
	cmd.AddCommand(newTasksShowCmd(e), newTasksValidateCmd(e), newTasksNewCmd(e))
	return cmd
}

// taskJSON is one row of `tasks --json`.
type taskJSON struct {
	ID             string   `json:"id"`
	Split          string   `json:"split"`
	Family         string   `json:"family"`
	M              int      `json:"m"`
	HonestProgress string   `json:"honest_progress"`
	Tags           []string `json:"tags"`
	RollbackMetric string   `json:"rollback_metric"`
}

func manifestJSON(all []*tasks.Task) []taskJSON {
	out := make([]taskJSON, len(all))
	for i, t := range all {
		out[i] = taskJSON{ID: t.ID, Split: t.Split, Family: t.Family, M: t.M, HonestProgress: t.Honest.String(),
			Tags: slices.Clone(t.Tags), RollbackMetric: t.RollbackMetric}
	}
	return out
}

func writeManifest(w io.Writer, all []*tasks.Task) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tsplit\tfamily\tgoal form\tm\tP_state(H)\ttag\trollback metric\tdomain")
	for _, t := range all {
		tag := strings.Join(t.Tags, ",")
		if tag == "" {
			tag = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\t%s\t%s\t%s\n", t.ID, t.Split, t.Family, t.GoalForm, t.M, t.Honest, tag, t.RollbackMetric, t.Domain)
	}
	tw.Flush()
}

func newTasksShowCmd(e *env) *cobra.Command {
	var withSealed bool
	cmd := &cobra.Command{
		Use:   "show ID",
		Short: "Print a task: instruction, schema, public goal schema, script and honest trajectory",
		Long: "Print one suite task as an evaluator may see it: the instruction, the public schema and initial snapshot,\n" +
			"the allowlist, the public goal schema, the script of non-agent events and the honest trajectory.\n" +
			"--sealed adds the private part: hidden fields and their values, Oracle predicates, hidden tests and canaries.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			t, err := tasks.Get(args[0])
			if err != nil {
				return usage(err)
			}
			writeTask(e.stdout, t)
			if withSealed {
				_, part, err := sealed.Open(t.Public)
				if err != nil {
					return err
				}
				writeSealed(e.stdout, part)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&withSealed, "sealed", false, "also print the sealed part (Oracle predicates, hidden fields, canaries)")
	return cmd
}

func newTasksValidateCmd(e *env) *cobra.Command {
	var domain string
	var trajectories []string
	cmd := &cobra.Command{
		Use:   "validate [FILE [--trajectory F …]] [--domain NAME]",
		Short: "Check every property of every suite task, or of a task file of your own",
		Long: "Validate the suite: schema and allowlist legality, honest trajectories (legal partial prefix, declared\n" +
			"P_state and m, no terminal success, no accidental transient peak, P_state = P_agent), strict rollbacks,\n" +
			"historical witnesses, attribution controls, goal revisions, the public/Oracle correspondence on every\n" +
			"stored trajectory, the action alphabet, canaries, and the stability of the manifest hash.\n\n" +
			"With FILE, validate a task file of your own and its trajectories the same way, every property that\n" +
			"applies without the suite's metadata and sealed part: the task compiles and every trajectory\n" +
			"double-certifies; H (honest*.json) is a legal partial prefix with P_state = P_agent and no transient\n" +
			"peak; a task whose script revises the goal ends H on a revised version; rollback*.json are strict\n" +
			"rollbacks of H, witness*.json eligible witnesses with a temporary peak, attribution*.json rejected for\n" +
			"their attribution; the alphabet covers every step; no canary appears. --trajectory names the\n" +
			"trajectory files (repeatable; the role comes from the file name, and the first is H when none is named\n" +
			"honest*); without it, the trajectories of the task next to FILE are checked. Each check is listed as ok\n" +
			"or skipped, with why. FILE may also be a suite id (PH-H05): that task alone, as the suite validates it;\n" +
			"or a domain's task id (`domain tasks` lists them): that task alone, as --domain validates it; either way each --trajectory is\n" +
			"double-certified against it (a step after the call that ended the episode is bad input, at its line).\n\n" +
			"--domain NAME validates a real domain's tasks instead: every gold run keeps the episode rule and\n" +
			"double-certifies with no failed call and, for a task with a goal, starts with no predicate held and ends\n" +
			"at m/m with P_state = P_agent, every evaluator (and, where the domain keeps what it reads, the\n" +
			"benchmark's own reward) at 1 (no transient peak). Where the user revises the goal turn by turn (BFCL),\n" +
			"the user turns are counted too; a turn by whose end gold has changed nothing public has a vacuous goal\n" +
			"(a predicate that always holds) and is counted apart from those with a goal, as a task whose last turn's is.\n\n" +
			"Exit codes: 0 valid, 1 a broken property (the first one, located), 2 bad usage.",
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				if domain != "" {
					return usageErr("--domain validates a domain's tasks; it does not take a task file")
				}
				if d, t, ok, err := domainTask(args[0]); err != nil {
					return usage(err)
				} else if ok {
					return validateDomainTask(e, d, t, trajectories)
				}
				if isSuiteID(args[0]) {
					t, err := tasks.Get(args[0])
					if err != nil {
						return usage(err)
					}
					if err := validate.Validate(t); err != nil {
						return &exitError{code: ExitRejected, err: err}
					}
					fmt.Fprintf(e.stdout, "%s valid\n", t.ID)
					if len(trajectories) == 0 {
						return nil
					}
					env, _, err := loadTaskViews(t.ID)
					if err != nil {
						return err
					}
					return e.certifyEach(env, t.ID, trajectories)
				}
				return validateUserTask(e, args[0], trajectories)
			}
			if len(trajectories) > 0 {
				return usageErr("--trajectory needs a task FILE")
			}
			if domain != "" {
				d, err := domainFlag(domain)
				if err != nil {
					return err
				}
				n, goal, err := domainbench.Validate(d)
				if err != nil {
					return &exitError{code: ExitRejected, err: err}
				}
				if vt, ok := d.(domains.TurnGoals); ok {
					return e.validTurns(d, vt, n)
				}
				fmt.Fprintf(e.stdout, "%d %s tasks valid (%d with a goal, %d whose gold run changes nothing)\n", n, d.Name(), goal, n-goal)
				return nil
			}
			hash, err := validate.ValidateAll()
			if err != nil {
				return &exitError{code: ExitRejected, err: err}
			}
			all, err := tasks.Suite()
			if err != nil {
				return err
			}
			fmt.Fprintf(e.stdout, "%d tasks valid\nmanifest %s\n", len(all), hash)
			return nil
		},
	}
	cmd.Flags().StringVar(&domain, "domain", "", "validate a domain's tasks instead of the suite ("+strings.Join(domains.Names(), ", ")+")")
	cmd.Flags().StringArrayVar(&trajectories, "trajectory", nil, "a trajectory of FILE's task (repeatable; default: those next to FILE)")
	return cmd
}

// validTurns says that a TurnGoals domain's n tasks are valid, a
// vacuous goal counted apart from the goals, by task (its last turn's:
// the one a run ends under) and by user turn.
func (e *env) validTurns(d domains.Domain, vt domains.TurnGoals, n int) error {
	ts, err := d.Tasks()
	if err != nil {
		return err
	}
	var vacuous, turns, vacuousTurns int
	for _, t := range ts {
		v := vt.VacuousTurns(t)
		turns += len(v)
		for _, x := range v {
			if x {
				vacuousTurns++
			}
		}
		if len(v) > 0 && v[len(v)-1] {
			vacuous++
		}
	}
	fmt.Fprintf(e.stdout, "%d %s tasks valid (%d with a goal, %d whose goal is vacuous: their gold run changes nothing public)\n"+
		"%d user turns (%d with a goal, %d whose goal is vacuous: by the turn's end gold has changed nothing public)\n",
		n, d.Name(), n-vacuous, vacuous, turns, turns-vacuousTurns, vacuousTurns)
	return nil
}

// validateDomainTask validates one task of a real domain as --domain
// does, then double-certifies each trajectory named against it.
func validateDomainTask(e *env, d domains.Domain, t *domains.Task, trajectories []string) error {
	if err := domainbench.ValidateTask(d, t); err != nil {
		return &exitError{code: ExitRejected, err: err}
	}
	env, err := t.Env()
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "%s valid\n", t.ID)
	return e.certifyEach(env, t.ID, trajectories)
}

// certifyEach double-certifies each trajectory named against a task: one
// that does not decode, or goes on after the call that ended its
// episode, is bad input (2) located in its file; one the double
// certifier rejects breaks a property (1).
func (e *env) certifyEach(env *pbcste.Env, taskID string, trajectories []string) error {
	for _, path := range trajectories {
		tr, err := e.loadTrajectory("trajectory", taskID, path)
		if err != nil {
			return err
		}
		if err := checkEpisode(env.Task, path, tr); err != nil {
			return err
		}
		res, rej, err := certifier.DoubleCertify(env, tr)
		if err != nil {
			return err
		}
		if rej != nil {
			return &exitError{code: ExitRejected, err: fmt.Errorf("%s: %s", path, rej.Error())}
		}
		fmt.Fprintf(e.stdout, "%s: double-certified, P_state %s, P_agent %s\n", path, res.Cert.PState, res.Cert.PAgent)
	}
	return nil
}

// validateUserTask validates a task file of the user's own: a file that
// cannot be read is bad usage (2); one that does not decode, or breaks a
// property, is invalid (1).
func validateUserTask(e *env, path string, trajectories []string) error {
	b, err := taskfile.Load(path, trajectories)
	if errors.Is(err, taskfile.ErrRead) {
		return usage(err)
	}
	if err != nil {
		return &exitError{code: ExitRejected, err: err}
	}
	checks, verr := validate.ValidateUser(b)
	fmt.Fprintf(e.stdout, "%s (%s)", b.Task.ID, path)
	if len(b.Trajectories) > 0 {
		names := make([]string, len(b.Trajectories))
		for i, tr := range b.Trajectories {
			names[i] = tr.Path + " (" + string(tr.Role) + ")"
		}
		fmt.Fprintf(e.stdout, " with %s", strings.Join(names, ", "))
	}
	fmt.Fprintln(e.stdout)
	for _, c := range checks {
		if c.Skipped != "" {
			fmt.Fprintf(e.stdout, "  skip  %s: %s\n", c.Name, c.Skipped)
		} else {
			fmt.Fprintf(e.stdout, "  ok    %s\n", c.Name)
		}
	}
	if verr != nil {
		return &exitError{code: ExitRejected, err: verr}
	}
	fmt.Fprintln(e.stdout, "valid")
	return nil
}

func writeTask(w io.Writer, t *tasks.Task) {
	p := t.Public
	tag := strings.Join(t.Tags, ", ")
	if tag == "" {
		tag = "-"
	}
	fmt.Fprintf(w, "%s  %s\n", t.ID, p.Title)
	fmt.Fprintf(w, "%s · %s · goal form %s · m %d · P_state(H) %s · tags %s · rollback metric %s · %s\n\n",
		t.Split, t.Family, t.GoalForm, t.M, t.Honest, tag, t.RollbackMetric, t.Domain)
	fmt.Fprintf(w, "Instruction\n  %s\n\n", p.Instruction)
	fmt.Fprintln(w, "Schema")
	writeSchema(w, &p.Schema, nil)
	fmt.Fprintln(w, "\nInitial snapshot")
	for _, ent := range p.Initial {
		state := ""
		if ent.Deleted {
			state = " (deleted)"
		}
		fmt.Fprintf(w, "  %s %s%s %s\n", ent.Type, ent.ID, state, assigns(ent.Fields))
	}
	fmt.Fprintln(w, "\nAllowlist")
	ops := make([]string, len(p.Allowlist.Ops))
	for i, op := range p.Allowlist.Ops {
		ops[i] = string(op)
	}
	if p.Allowlist.PerType() {
		for _, et := range p.Schema.Types {
			if tops, ok := p.Allowlist.TypeOps[et.Name]; ok {
				names := make([]string, len(tops))
				for i, op := range tops {
					names[i] = string(op)
				}
				fmt.Fprintf(w, "  %s: ops %s; fields %s\n", et.Name, strings.Join(names, ", "), strings.Join(p.Allowlist.Fields[et.Name], ", "))
			}
		}
	} else {
		fmt.Fprintf(w, "  ops: %s\n", strings.Join(ops, ", "))
		for _, et := range p.Schema.Types {
			if fs, ok := p.Allowlist.Fields[et.Name]; ok {
				fmt.Fprintf(w, "  %s: %s\n", et.Name, strings.Join(fs, ", "))
			}
		}
	}
	fmt.Fprintln(w, "\nPublic goal schema")
	writeGoals(w, p.Goals)
	if len(p.Script) > 0 {
		fmt.Fprintln(w, "\nScript (non-agent events)")
		for _, ev := range p.Script {
			fmt.Fprintf(w, "  after agent step %d  %-11s %s\n", ev.After, ev.Actor, describeAction(&ev.Action))
		}
	}
	writeTrajectory(w, "Honest trajectory", t.HonestTrajectory)
	if others := t.Trajectories()[1:]; len(others) > 0 {
		fmt.Fprintln(w, "\nAlso stored")
		for _, n := range others {
			fmt.Fprintf(w, "  %s  %s, %d steps\n", n.File, n.Trajectory.Name, len(n.Trajectory.Steps))
		}
	}
}

// writeSchema prints entity types and fields; hidden, when given, marks
// the fields that only the trusted schema has.
func writeSchema(w io.Writer, s *model.Schema, hidden map[string]bool) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, et := range s.Types {
		for i, fd := range et.Fields {
			name := ""
			if i == 0 {
				name = et.Name
			}
			mark := ""
			if hidden[et.Name+"."+fd.Name] {
				mark = "\thidden"
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s%s\n", name, fd.Name, describeField(&fd), mark)
		}
	}
	tw.Flush()
}

func describeField(fd *model.FieldDef) string {
	switch fd.Kind {
	case model.KindEnum:
		return "enum {" + strings.Join(fd.Values, ", ") + "}"
	case model.KindRef:
		return "ref → " + fd.Target
	case model.KindStrings:
		return "list of strings"
	}
	return string(fd.Kind)
}

func assigns(fs []model.Assign) string {
	parts := make([]string, len(fs))
	for i, a := range fs {
		parts[i] = a.Field + "=" + a.Value.String()
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

func describeAction(a *model.Action) string {
	if a.Op == model.OpReviseGoal {
		return "revise_goal → " + a.Goal
	}
	s := fmt.Sprintf("%s %s %s", a.Op, a.Type, a.ID)
	if len(a.Fields) > 0 {
		s += " " + assigns(a.Fields)
	}
	return s
}

func writeGoals(w io.Writer, goals []model.GoalVersion) {
	for gi, g := range goals {
		head := "goal " + g.Version
		if gi == 0 {
			head += " (active at the start)"
		}
		fmt.Fprintf(w, "  %s, m = %d\n", head, len(g.Predicates))
		for j, p := range g.Predicates {
			fmt.Fprintf(w, "    g%d %s: %s\n       %s\n", j+1, p.ID, p.Text, formatExpr(&p.Expr))
		}
	}
}

func writeTrajectory(w io.Writer, label string, tr *model.Trajectory) {
	fmt.Fprintf(w, "\n%s (%d steps)\n", label, len(tr.Steps))
	if tr.Note != "" {
		fmt.Fprintf(w, "  %s\n", tr.Note)
	}
	for i, st := range tr.Steps {
		line := fmt.Sprintf("  %2d  %s", i+1, describeAction(&st.Action))
		if st.Comment != "" {
			line += "   # " + st.Comment
		}
		fmt.Fprintln(w, line)
	}
}

func writeSealed(w io.Writer, part *model.Sealed) {
	fmt.Fprintln(w, "\n--- sealed ---")
	hidden := map[string]bool{}
	for _, et := range part.HiddenFields {
		for _, fd := range et.Fields {
			hidden[et.Name+"."+fd.Name] = true
		}
	}
	fmt.Fprintln(w, "\nTrusted schema")
	writeSchema(w, &part.Schema, hidden)
	fmt.Fprintln(w, "\nHidden values")
	for _, ent := range part.HiddenValues {
		fmt.Fprintf(w, "  %s %s %s\n", ent.Type, ent.ID, assigns(ent.Fields))
	}
	fmt.Fprintln(w, "\nOracle predicates")
	writeGoals(w, part.Oracle)
	fmt.Fprintln(w, "\nHidden tests")
	for _, h := range part.HiddenTests {
		fmt.Fprintf(w, "  %s %s: %s\n", h.Version, h.Predicate, h.Text)
	}
	fmt.Fprintln(w, "\nCanaries")
	for _, c := range part.Canaries {
		fmt.Fprintf(w, "  %s\n", c)
	}
}

// formatExpr renders a predicate expression on one line for people.
func formatExpr(e *model.Expr) string {
	switch e.Kind {
	case model.ExprAll, model.ExprAny:
		parts := make([]string, len(e.Args))
		for i := range e.Args {
			parts[i] = formatExpr(&e.Args[i])
		}
		return string(e.Kind) + "(" + strings.Join(parts, "; ") + ")"
	case model.ExprNot:
		return "not(" + formatExpr(&e.Args[0]) + ")"
	case model.ExprAlive, model.ExprAbsent:
		return fmt.Sprintf("%s(%s %s)", e.Kind, e.Type, e.ID)
	case model.ExprField:
		return fmt.Sprintf("%s %s.%s %s", e.Type, e.ID, e.Field, formatCond(e.Cmp, e.Value, e.Values))
	case model.ExprRef:
		target := "any alive target"
		if e.Target != "" {
			target = e.Target
		}
		return fmt.Sprintf("ref(%s %s.%s → %s)", e.Type, e.ID, e.Field, target)
	case model.ExprCount:
		conds := make([]string, len(e.Where))
		for i, c := range e.Where {
			conds[i] = c.Field + " " + formatCond(c.Cmp, c.Value, c.Values)
		}
		where := ""
		if len(conds) > 0 {
			where = " where " + strings.Join(conds, " and ")
		}
		return fmt.Sprintf("count(%s%s) %s %d", e.Type, where, e.Cmp, e.N)
	}
	return string(e.Kind)
}

func formatCond(cmp model.Cmp, v model.Value, vs []model.Value) string {
	if cmp == model.CmpIn {
		parts := make([]string, len(vs))
		for i, x := range vs {
			parts[i] = x.String()
		}
		return "in [" + strings.Join(parts, ", ") + "]"
	}
	return string(cmp) + " " + v.String()
}
