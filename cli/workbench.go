package cli

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"github.com/parthack/parthack/domains"
	"github.com/parthack/parthack/internal/taskfile"
	"github.com/parthack/parthack/store"
	"github.com/parthack/parthack/tui"
)

func newWorkbenchCmd(e *env) *cobra.Command {
	var domain, taskFile string
	var runFiles []string
	cmd := &cobra.Command{
		Use:   "workbench [--domain NAME [--runs FILE]… | --task FILE]",
		Short: "Open the terminal workbench (also what parthack with no arguments does on a terminal)",
		Long: "Open the terminal workbench: browse the suite and saved witnesses, step through event logs, compare\n" +
			"H with a witness or a rollback, hand-craft witnesses with live certification, and save them to the store\n" +
			"(--db, default " + defaultDB() + ").\n\n" +
			"--domain NAME opens a real benchmark's tasks instead: each with its gold run and its real runs (t cycles\n" +
			"them), H the first run that failed; the Inspector shows the conversation beside each call.\n" +
			"--runs FILE (repeatable) opens the runs of your own files instead of those the domain ships, as bench\n" +
			"--runs reads them (the benchmark's own run format, gzipped or not; a domain that ships no runs, as\n" +
			"BFCL's, opens on yours): Browse lists the tasks the files hold runs of, each with its gold run and the\n" +
			"files' runs. Runs imported into the store (parthack import) are in Browse's Saved list.\n\n" +
			"--task FILE opens a task file of your own first in Browse, beside the suite, with the trajectory files next\n" +
			"to it (honest*.json is H; t cycles them all); witnesses you save on it are kept in the store under its id\n" +
			"and reopen whenever the task is open again. ctrl+o in Browse opens a task file too.",
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			var runs []*domains.Run
			if domain != "" {
				d, err := domainFlag(domain)
				if err != nil {
					return err
				}
				// Every file is read whole before a terminal is
				// needed, as --task's: a bad file is bad input, said
				// with its file, line and entry.
				if len(runFiles) > 0 {
					if runs, err = workbenchRuns(d, runFiles); err != nil {
						return err
					}
				}
			} else if len(runFiles) > 0 {
				return usageErr("--runs goes with --domain: they are a real benchmark's runs")
			}
			if taskFile != "" {
				if domain != "" {
					return usageErr("--task opens a task of your own beside the suite; it does not combine with --domain")
				}
				if _, err := taskfile.Load(taskFile, nil); err != nil {
					return usage(err) // before the screen is switched
				}
			}
			e.domain, e.taskFile, e.runs = domain, taskFile, runs
			return runWorkbench(e, false)
		},
	}
	cmd.Flags().StringVar(&domain, "domain", "", "open a real benchmark's tasks and runs instead of the suite ("+strings.Join(domains.Names(), ", ")+")")
	cmd.Flags().StringVar(&taskFile, "task", "", "open a task file of your own, with the trajectories next to it")
	cmd.Flags().StringArrayVar(&runFiles, "runs", nil, "with --domain: open the runs of these files (the benchmark's own run format, gzipped or not; repeatable) instead of those the domain ships")
	return cmd
}

// workbenchRuns reads the runs of --runs: every file whole, a run given
// twice (the same file twice) refused, as it would be two runs of one
// name on one task.
func workbenchRuns(d domains.Domain, files []string) ([]*domains.Run, error) {
	runs, err := domains.ReadRuns(d, files)
	if err != nil {
		return nil, usageErr("--runs: %w", err)
	}
	if len(runs) == 0 {
		return nil, usageErr("--runs: %s hold no run", strings.Join(files, ", "))
	}
	seen := map[string]bool{}
	for _, r := range runs {
		key := r.Task + "\x00" + r.Short
		if seen[key] {
			return nil, usageErr("--runs: run %s of task %s is given twice (is a file given twice?)", r.Short, r.Task)
		}
		seen[key] = true
	}
	return runs, nil
}

// runWorkbench opens the workbench on the command's terminal. Without a
// terminal that can draw it, it says so and exits 2 before writing a
// byte: the screen is never switched and the input never read.
func runWorkbench(e *env, demo bool) error {
	name := "the workbench"
	if demo {
		name = "the demo"
	}
	if os.Getenv("TERM") == "dumb" {
		return usageErr("%s needs a terminal that can draw full-screen, and TERM=dumb cannot; set TERM (e.g. TERM=xterm-256color) or use the headless commands (parthack --help)", name)
	}
	if !onTerminal(e) {
		return usageErr("%s needs a terminal on stdin and stdout; use the headless commands instead (parthack --help lists them)", name)
	}
	path := e.db
	if path == "" {
		var err error
		if path, err = store.DefaultPath(); err != nil {
			return usageErr("%w (use --db PATH)", err)
		}
		if err := store.MakeDir(path); err != nil {
			return usage(err)
		}
	} else if info, err := os.Stat(filepath.Dir(path)); err != nil || !info.IsDir() {
		return usageErr("--db %s: no directory %s: a store is made only in a directory that exists", path, filepath.Dir(path))
	}
	return tui.Run(tui.Options{DBPath: path, Demo: demo, Domain: e.domain, Runs: e.runs, TaskFile: e.taskFile, Input: e.stdin, Output: e.stdout})
}

// onTerminal reports whether both streams are a terminal that can draw
// the workbench: only then does parthack with no arguments open it
// instead of printing help.
func onTerminal(e *env) bool {
	if os.Getenv("TERM") == "dumb" {
		return false
	}
	for _, s := range []any{e.stdin, e.stdout} {
		f, ok := s.(interface{ Fd() uintptr })
		if !ok || !term.IsTerminal(f.Fd()) {
			return false
		}
	}
	return true
}

func defaultDB() string {
	if p, err := store.DefaultPath(); err == nil {
		return p
	}
	return "under the user's data directory"
}
