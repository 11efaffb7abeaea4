package cli

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/parthack/parthack/certifier"
	"github.com/parthack/parthack/domains"
	"github.com/parthack/parthack/internal/mapfile"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/store"
)

// newImportCmd imports a real benchmark's runs as trajectories.
func newImportCmd(e *env) *cobra.Command {
	var dry, rename bool
	cmd := &cobra.Command{
		Use:   "import FORMAT FILE [--dry-run] [--rename]",
		Short: "Import a benchmark's runs (its own run format) as trajectories, certified, into the store",
		Long: "Read a file in a benchmark's run format (gzipped or not) against its domain: every run becomes a\n" +
			"trajectory of its task (its tool calls as steps, the conversation kept beside the log), is replayed and\n" +
			"double-certified, and is saved in the store as a witness\n" +
			"that `store ls` lists and --candidate, --honest and --trajectory open by its name. The file is read run by\n" +
			"run, as strictly as a trajectory file: an error names the file, line and column, the run's index and name,\n" +
			"the message and the call. All runs are saved in one transaction, or none. --dry-run certifies without saving.\n\n" +
			"A run whose name is already in the store, or earlier in the file, is skipped and reported (how many, the\n" +
			"first names); --rename saves it instead under the name with the first free suffix -2, -3, …\n" +
			"Prints each saved run's certified progress.\n\nFormats:\n" + runFormatHelp(),
		Args: cobra.ExactArgs(2),
		RunE: func(_ *cobra.Command, args []string) error {
			format, err := domains.FormatOf(args[0])
			if err != nil {
				return usageErr("import: %w", err)
			}
			file := args[1]
			var s *store.Store
			taken := map[string]bool{}
			if !dry {
				var err error
				if s, err = openStore(e); err != nil {
					return err
				}
				defer s.Close()
				existing, err := s.List(store.KindWitness)
				if err != nil {
					return err
				}
				for _, r := range existing {
					taken[r.Name] = true
				}
			}
			in, err := mapfile.Open(file)
			if err != nil {
				return usageErr("import: %w", err)
			}
			defer in.Close()
			var recs []store.Record
			var skipped []string
			tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "run\ttask\treward\tcalls\tP_state\tP_agent")
			err = format.Stream(file, in, func(i int, r *domains.Run) error {
				name := r.Name
				if taken[name] {
					if !rename {
						skipped = append(skipped, name)
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
				recs = append(recs, store.Record{Kind: store.KindWitness, Task: tr.Task, Name: tr.Name, Note: tr.Note, Body: model.EncodeTrajectory(tr)})
				return nil
			})
			if err != nil {
				return usageErr("import: %w", err)
			}
			if err := tw.Flush(); err != nil {
				return err
			}
			if len(skipped) > 0 {
				fmt.Fprintf(e.stderr, "import: %d runs skipped: their names are already in the store or earlier in the file (%s); --rename saves them under new names\n",
					len(skipped), firstFew(skipped, 5))
			}
			if dry {
				fmt.Fprintf(e.stderr, "import: %d runs certified; --dry-run: nothing saved\n", len(recs))
				return nil
			}
			existing := len(taken) - len(recs)
			for i := range recs {
				recs[i].Created = int64(existing + i + 1)
			}
			if _, err := s.PutNew(store.KindWitness, recs); err != nil {
				return err
			}
			fmt.Fprintf(e.stderr, "import: %d runs certified and saved in %s\n", len(recs), s.Path())
			return nil
		},
	}
	cmd.Flags().BoolVar(&dry, "dry-run", false, "certify and print, save nothing")
	cmd.Flags().BoolVar(&rename, "rename", false, "save a run whose name is taken under the name with the first free suffix -2, -3, … instead of skipping it")
	return cmd
}

// importRun turns the i-th run of file into a trajectory named name and
// double-certifies it. It returns the trajectory and its table row; a run
// that fails gives an error naming the run, and where its format can, the
// message and the call.
func importRun(file string, i int, name string, r *domains.Run) (*model.Trajectory, string, error) {
	fail := func(step int, err error) error {
		if r.Locate != nil {
			return r.Locate(step, err)
		}
		if step >= 0 {
			return fmt.Errorf("%s: run %d (%s), step %d: %w", file, i, name, step+1, err)
		}
		return fmt.Errorf("%s: run %d (%s): %w", file, i, name, err)
	}
	tr, err := r.Trajectory()
	if err != nil {
		return nil, "", fail(-1, err)
	}
	tr.Name = name
	tr.Note = fmt.Sprintf("imported from %s (run %d): the benchmark's reward %g", filepath.Base(file), i, r.Reward)
	d, err := domains.Lookup(r.Domain)
	if err != nil {
		return nil, "", err
	}
	task, err := domains.TaskOf(d, tr.Task)
	if err != nil {
		return nil, "", fail(-1, err)
	}
	env, err := task.Env()
	if err != nil {
		return nil, "", err
	}
	if err := model.CheckEpisode(env.Task, tr.Steps); err != nil {
		ee := err.(*model.EpisodeError)
		return nil, "", fail(ee.Step-1, fmt.Errorf("not certifiable: illegal_action: %w", err))
	}
	res, rej, err := certifier.DoubleCertify(env, tr)
	if err != nil {
		return nil, "", err
	}
	if rej != nil {
		step := rej.Evidence.Step - 1
		msg := "not certifiable: " + rej.Error()
		if step >= 0 && step < len(tr.Steps) {
			var tools []string
			for _, t := range d.Tools() {
				tools = append(tools, t.Name)
			}
			if tool := tr.Steps[step].Tool; tr.Steps[step].Op == model.OpCall && !slices.Contains(tools, tool) {
				msg += fmt.Sprintf(" (%s has no tool %q; its tools, closest first: %s)", d.Name(), tool, strings.Join(closest(tool, tools), ", "))
			}
		}
		return nil, "", fail(step, fmt.Errorf("%s", msg))
	}
	row := fmt.Sprintf("%s\t%s\t%g\t%d\t%s\t%s", tr.Name, tr.Task, r.Reward, len(tr.Steps), res.Cert.PState, res.Cert.PAgent)
	return tr, row, nil
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

// firstFew lists the first n names, and how many more there are.
func firstFew(names []string, n int) string {
	if len(names) <= n {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:n], ", "), len(names)-n)
}

// openStore opens --db, or the default store.
func openStore(e *env) (*store.Store, error) {
	path, err := e.storePath()
	if err != nil {
		return nil, err
	}
	return store.Open(path)
}
