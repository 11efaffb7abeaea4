package cli

import (
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/parthack/parthack/attacker/domainbench"
	"github.com/parthack/parthack/domains"
	"github.com/parthack/parthack/internal/mapfile"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/store"
)

// newImportCmd imports a real benchmark's runs as trajectories.
func newImportCmd(e *env) *cobra.Command {
	var dry, rename bool
	var outFormat string
	cmd := &cobra.Command{
		Use:   "import FORMAT FILE… [--dry-run [--format json]] [--rename]",
		Short: "Import a benchmark's runs (its own run format) as trajectories, certified, into the store",
		Long: "Read a file in a benchmark's run format (gzipped or not) against its domain: every run becomes a\n" +
			"trajectory of its task (its tool calls as steps, the conversation kept beside the log), is replayed and\n" +
			"double-certified, and is saved in the store as a witness\n" +
			"that `store ls` lists and --candidate, --honest and --trajectory open by its name. The file is read run by\n" +
			"run, as strictly as a trajectory file: an error names the file, line and column, the run's index and name,\n" +
			"the message and the call. All runs are saved, or none: each run is written as soon as it is certified, and\n" +
			"all of them appear in the store at once when the last is written (an interrupted import leaves none).\n" +
			"--dry-run certifies without saving.\n\n" +
			"A run whose name is already in the store, or earlier in the file, is skipped and reported (how many, the\n" +
			"first names); --rename saves it instead under the name with the first free suffix -2, -3, …\n" +
			"Prints each saved run's certified progress. With --dry-run, a format that records the benchmark's own\n" +
			"results is also held to them, file by file: every call's result replayed against the recorded\n" +
			"one, every reward and check recomputed against the recorded one, each difference listed with its cause.\n\n" +
			"Formats:\n" + runFormatHelp(),
		Args: cobra.MinimumNArgs(2),
		RunE: func(_ *cobra.Command, args []string) error {
			format, err := domains.FormatOf(args[0])
			if err != nil {
				return usageErr("import: %w", err)
			}
			if outFormat != "table" && outFormat != "json" {
				return usageErr("--format: %q is not table or json", outFormat)
			}
			if outFormat == "json" && !dry {
				return usageErr("--format json goes with --dry-run: an import prints its runs as a table")
			}
			// What the user typed is checked before the store is opened:
			// a file that cannot be read is said as such, whatever the
			// store's state.
			for _, file := range args[1:] {
				in, err := mapfile.Open(file)
				if err != nil {
					return usageErr("import: %w", err)
				}
				in.Close()
			}
			return runImport(e, format, args[1:], dry, rename, outFormat == "json")
		},
	}
	cmd.Flags().StringVar(&outFormat, "format", "table", "with --dry-run: table or json (one object per file: what the port reproduces of what the benchmark recorded)")
	cmd.Flags().BoolVar(&dry, "dry-run", false, "certify and print, save nothing")
	cmd.Flags().BoolVar(&rename, "rename", false, "save a run whose name is taken under the name with the first free suffix -2, -3, … instead of skipping it")
	return cmd
}

// runImport imports files (or with dry, certifies them and holds them to
// what the benchmark recorded). Every run is saved, or none: a failed
// import leaves the store as it found it, and no store where there was
// none.
func runImport(e *env, format domains.Format, files []string, dry, rename, asJSON bool) (err error) {
	var s *store.Store
	var im *store.Import
	taken := map[string]bool{}
	if dry {
		// A dry run keeps nothing of a run once it is certified and held
		// to its record: the streaming goal, as replay and score have it
		// (a quarter of the collector's time on tau2's files; the import
		// that saves keeps the default, its bound stated with it).
		defer streamingGC()()
	} else {
		if s, err = openStore(e); err != nil {
			return err
		}
		defer func() {
			// The import's records go first, then a store this
			// command made, when it failed.
			if im != nil {
				if aerr := im.Abort(); aerr != nil {
					fmt.Fprintf(e.stderr, "import: %v; the store shows none of them, and its next open removes them\n", aerr)
				}
			}
			if err != nil {
				if aerr := s.Abandon(); aerr != nil {
					fmt.Fprintf(e.stderr, "import: %v\n", aerr)
				}
				return
			}
			s.Close()
		}()
		names, err := s.Names(store.KindWitness)
		if err != nil {
			return err
		}
		for _, n := range names {
			taken[n] = true
		}
		// Each run goes to the store as soon as it is certified, in
		// bounded transactions, unseen until Commit publishes them all.
		if im, err = s.BeginImport(store.KindWitness); err != nil {
			return err
		}
	}
	existing := len(taken)
	saved, skipped := 0, 0
	ended := map[string]int{} // runs the benchmark ended itself, by its reason, in the file being read
	var allEnded []map[string]int
	var firstSkipped []string
	var checks []*domains.Conformance
	out := e.stdout
	if asJSON {
		out = io.Discard // the runs' table; stdout holds one JSON document
	}
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "run\ttask\treward\tcalls\tP_state\tP_agent")
	for _, file := range files {
		each := func(i int, r *domains.Run) error {
			name := r.Name
			if taken[name] {
				if !rename {
					if skipped++; len(firstSkipped) < 5 {
						firstSkipped = append(firstSkipped, name)
					}
					return nil
				}
				name = freeName(name, taken)
			}
			taken[name] = true
			tr, row, err := importRun(file, i, name, r)
			if err != nil {
				return err
			}
			fmt.Fprintln(tw, row)
			saved++
			if tr.Termination != "" {
				ended[tr.Termination]++
			}
			if im == nil {
				return nil
			}
			// The trajectory is encoded a piece at a time into the
			// record, a long one in chunks: never held a second time.
			return im.AddStream(store.Record{Kind: store.KindWitness, Task: tr.Task, Name: tr.Name, Note: tr.Note, Created: int64(existing + saved)},
				func(w io.Writer) error { return model.WriteTrajectory(w, tr) })
		}
		// A dry run also holds each run to what the benchmark
		// recorded, as it is read.
		if dry && format.Conform != nil {
			var c *domains.Conformance
			if c, err = format.ConformFile(file, each); err == nil {
				c.Ended = ended
				checks = append(checks, c)
			}
		} else {
			err = format.StreamFile(file, each)
		}
		if err != nil {
			return usageErr("import: %w", err)
		}
		allEnded = append(allEnded, ended)
		ended = map[string]int{}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if skipped > 0 {
		fmt.Fprintf(e.stderr, "import: %d runs skipped: their names are already in the store or earlier in the files (%s); --rename saves them under new names\n",
			skipped, firstFew(firstSkipped, skipped))
	}
	if n, why := endedSummary(allEnded...); n > 0 {
		fmt.Fprintf(e.stderr, "import: %d runs ended before their conversation did (%s): the benchmark scores them 0, computing no component, and bench leaves them out\n", n, why)
	}
	if dry {
		fmt.Fprintf(e.stderr, "import: %d runs certified; --dry-run: nothing saved\n", saved)
		if asJSON {
			if checks == nil {
				checks = []*domains.Conformance{}
			}
			return writeJSON(e.stdout, checks)
		}
		return writeConformance(e.stdout, checks)
	}
	if _, err := im.Commit(); err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "import: %d runs certified and saved in %s\n", saved, s.Path())
	return nil
}

// importRun turns the i-th run of file into a trajectory named name and
// double-certifies it. It returns the trajectory and its table row; a run
// that fails gives an error naming the run, and where its format can, the
// message and the call.
func importRun(file string, i int, name string, r *domains.Run) (*model.Trajectory, string, error) {
	d, err := domains.Lookup(r.Domain)
	if err != nil {
		return nil, "", err
	}
	c, err := domainbench.Check(d, r)
	if err != nil {
		return nil, "", err
	}
	tr := c.H
	tr.Name = name
	tr.Note = fmt.Sprintf("imported from %s (run %d): the benchmark's reward %g", filepath.Base(file), i, r.Reward)
	row := fmt.Sprintf("%s\t%s\t%g\t%d\t%s\t%s", tr.Name, tr.Task, r.Reward, len(tr.Steps), c.Res.Cert.PState, c.Res.Cert.PAgent)
	return tr, row, nil
}

// endedSummary counts the runs the benchmark ended itself and says how
// many ended for each reason: "max_steps 5, too_many_errors 1".
func endedSummary(counts ...map[string]int) (int, string) {
	total := map[string]int{}
	n := 0
	for _, c := range counts {
		for reason, k := range c {
			total[reason] += k
			n += k
		}
	}
	var parts []string
	for _, reason := range slices.Sorted(maps.Keys(total)) {
		parts = append(parts, fmt.Sprintf("%s %d", reason, total[reason]))
	}
	return n, strings.Join(parts, ", ")
}

// runFormatHelp lists the run-file formats parthack reads, for --help.
func runFormatHelp() string {
	var b strings.Builder
	for _, name := range domains.FormatNames() {
		f, _ := domains.FormatOf(name)
		fmt.Fprintf(&b, "  %s: %s\n", f.Name, f.Help)
	}
	return b.String()
}

// freeName is name with the first suffix -2, -3, … not taken.
func freeName(name string, taken map[string]bool) string {
	for k := 2; ; k++ {
		if n := fmt.Sprintf("%s-%d", name, k); !taken[n] {
			return n
		}
	}
}

// firstFew lists the first names of total, and how many more there are.
func firstFew(first []string, total int) string {
	if total <= len(first) {
		return strings.Join(first, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(first, ", "), total-len(first))
}

// openStore opens --db, or the default store, creating it when there is
// none: the default store's directory too, never that of a path the user
// typed (a mistyped one is an error, not a new tree).
func openStore(e *env) (*store.Store, error) {
	path, err := e.storePath()
	if err != nil {
		return nil, err
	}
	if e.db == "" {
		if err := store.MakeDir(path); err != nil {
			return nil, err
		}
	}
	s, err := store.Open(path)
	if err != nil {
		return nil, usage(err)
	}
	return s, nil
}

// writeConformance prints each file's conformance: the counts, then every
// disagreement with its cause.
func writeConformance(w io.Writer, cs []*domains.Conformance) error {
	if len(cs) == 0 {
		return nil
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	head := []string{"file", "domain", "made at", "runs", "calls equal", "rewards equal"}
	for _, c := range cs[0].Checks {
		head = append(head, c.Name+" equal")
	}
	head = append(head, "remapped")
	fmt.Fprintln(tw, strings.Join(head, "\t"))
	for _, c := range cs {
		row := []string{c.File, c.Domain, c.Commit, fmt.Sprint(c.Runs), fmt.Sprintf("%d/%d", c.CallsEqual, c.Calls), fmt.Sprintf("%d/%d", c.RewardsEqual, c.Runs)}
		for _, k := range c.Checks {
			row = append(row, fmt.Sprintf("%d/%d", k.Equal, k.Recorded))
		}
		row = append(row, fmt.Sprint(c.Remapped))
		fmt.Fprintln(tw, strings.Join(row, "\t"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, c := range cs {
		if n, why := endedSummary(c.Ended); n > 0 {
			fmt.Fprintf(w, "%s: %d runs ended before their conversation did (%s): scored 0 with no component, as the benchmark scores them, and left out of bench\n", c.File, n, why)
		}
		for _, n := range c.Notes {
			fmt.Fprintf(w, "%s: %s\n", c.File, n)
		}
		for _, d := range c.Disagreements {
			where := fmt.Sprintf("%s: run %d (%s)", c.File, d.Index, d.Run)
			if d.Call > 0 {
				where += fmt.Sprintf(", call %d", d.Call)
			}
			fmt.Fprintf(w, "%s: %s: port %s, recorded %s — %s\n", where, d.What, clip(d.Got, 80), clip(d.Want, 80), d.Cause)
		}
	}
	return nil
}

// clip shortens a value for one line, keeping its start.
func clip(s string, n int) string {
	s = strings.ReplaceAll(s, "\n", `\n`)
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
