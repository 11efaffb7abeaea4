package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/parthack/parthack/certifier"
	"github.com/parthack/parthack/domains"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/store"
)

// newImportCmd imports a real benchmark's runs as trajectories.
func newImportCmd(e *env) *cobra.Command {
	var dry bool
	cmd := &cobra.Command{
		Use:   "import FORMAT FILE [--dry-run]",
		Short: "Import a benchmark's runs (its own run format) as trajectories, certified, into the store",
		Long: "Read a file in a benchmark's run format against its domain: every run becomes a trajectory of its\n" +
			"task (its tool calls as steps, the conversation kept beside the log), is replayed and double-certified,\n" +
			"and is saved in the store as a witness the workbench and --candidate can open; all runs are saved in one\n" +
			"transaction, or none. --dry-run certifies without saving. Prints each run's certified progress.\n\n" +
			"Formats: " + strings.Join(domains.FormatNames(), ", ") + ". tau-bench: the JSON list of {task_id, reward, info,\n" +
			"traj, trial} that its run script writes (e.g. historical_trajectories/gpt-4o-airline.json).",
		Args: cobra.ExactArgs(2),
		RunE: func(_ *cobra.Command, args []string) error {
			format, err := domains.FormatOf(args[0])
			if err != nil {
				return usageErr("import: %w", err)
			}
			src, err := os.ReadFile(args[1])
			if err != nil {
				return usageErr("import: %w", err)
			}
			runs, err := format.Decode(args[1], src)
			if err != nil {
				return usageErr("import: %w", err)
			}
			var recs []store.Record
			tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "run\ttask\treward\tcalls\tP_state\tP_agent")
			for i, r := range runs {
				tr, err := r.Trajectory()
				if err != nil {
					return usageErr("import: %s: run %d (%s): %w", args[1], i, r.Name, err)
				}
				tr.Name = r.Name
				tr.Note = fmt.Sprintf("imported from %s (run %d): the benchmark's reward %g", filepath.Base(args[1]), i, r.Reward)
				d, err := domains.Lookup(r.Domain)
				if err != nil {
					return err
				}
				task, err := domains.TaskOf(d, r.Task)
				if err != nil {
					return usageErr("import: %s: run %d (%s): %w", args[1], i, r.Name, err)
				}
				if err := model.CheckEpisode(task.Model, tr.Steps); err != nil {
					return usageErr("import: %s: run %d (%s): %w", args[1], i, tr.Name, err)
				}
				env, err := task.Env()
				if err != nil {
					return err
				}
				res, rej, err := certifier.DoubleCertify(env, tr)
				if err != nil {
					return err
				}
				if rej != nil {
					return fmt.Errorf("import: %s: run %d (%s): not certifiable: %s", args[1], i, tr.Name, rej.Error())
				}
				fmt.Fprintf(tw, "%s\t%s\t%g\t%d\t%s\t%s\n", tr.Name, tr.Task, r.Reward, len(tr.Steps), res.Cert.PState, res.Cert.PAgent)
				recs = append(recs, store.Record{Kind: store.KindWitness, Task: tr.Task, Name: tr.Name, Note: tr.Note, Body: model.EncodeTrajectory(tr)})
			}
			if err := tw.Flush(); err != nil {
				return err
			}
			if dry {
				fmt.Fprintf(e.stderr, "import: %d runs certified; --dry-run: nothing saved\n", len(recs))
				return nil
			}
			path := e.db
			if path == "" {
				if path, err = store.DefaultPath(); err != nil {
					return usageErr("%w (use --db PATH)", err)
				}
			}
			s, err := store.Open(path)
			if err != nil {
				return err
			}
			defer s.Close()
			existing, err := s.List(store.KindWitness)
			if err != nil {
				return err
			}
			for i := range recs {
				recs[i].Created = int64(len(existing) + i + 1)
			}
			if _, err := s.PutNew(store.KindWitness, recs); err != nil {
				return err
			}
			fmt.Fprintf(e.stderr, "import: %d runs certified and saved in %s\n", len(recs), path)
			return nil
		},
	}
	cmd.Flags().BoolVar(&dry, "dry-run", false, "certify and print, save nothing")
	return cmd
}
