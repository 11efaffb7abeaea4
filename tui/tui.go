// Package tui is parthack's terminal workbench. A researcher browses the
// task suite and saved witnesses, steps through a trajectory's event log
// beside its typed diffs, predicate table and progress over time, puts H
// beside a witness or a rollback with the verdict and every evaluator's Δ,
// hand-crafts witnesses that are replayed and double-certified after
// every edit, runs the search attacker in the background and loads its
// best witness, saves and reopens them in the bbolt store, and plays a
// scripted demo of each failure mode.
//
// The root model (app.go) gates focus and routes messages; each screen
// is a pane (browse.go, inspect.go, compare.go, editor.go) sharing one
// common context (context.go) with the styles (theme.go) and key map
// (keys.go). Replay, certification and scoring run in commands
// (analysis.go), the search attacker in a goroutine whose progress the
// panel below the page shows (attack.go); data.go is the only file that
// talks to the suite, the evaluators and the attacker.
package tui

import (
	"fmt"
	"io"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/parthack/parthack/domains"
)

// Options configures the workbench.
type Options struct {
	// DBPath is the bbolt store of witnesses, notes and runs.
	DBPath string
	// Demo plays the scripted walkthroughs instead of opening Browse.
	Demo bool
	// Domain opens a registered domain's tasks and runs instead of the
	// suite.
	Domain string
	// Runs, with Domain, are the runs of the user's own files (read with
	// domains.ReadRuns), shown instead of those the domain ships: only
	// the tasks they are runs of are listed.
	Runs []*domains.Run
	// TaskFile opens a task file of the user's own, with the trajectory
	// files next to it, first in Browse beside the suite.
	TaskFile string
	// Input and Output are the terminal; nil means the process's own.
	Input  io.Reader
	Output io.Writer
}

// Run opens the workbench and returns when the user quits.
func Run(opts Options) error {
	// Load first: a failure leaves the terminal untouched.
	m, err := newApp(opts)
	if err != nil {
		return err
	}
	// Ask the terminal for its background before Bubble Tea owns the
	// input: adaptive colours need the answer, and a late query races
	// the program for the reply.
	lipgloss.HasDarkBackground()
	popts := []tea.ProgramOption{tea.WithAltScreen(), tea.WithMouseCellMotion()}
	if opts.Input != nil {
		popts = append(popts, tea.WithInput(opts.Input))
	}
	if opts.Output != nil {
		popts = append(popts, tea.WithOutput(opts.Output))
	}
	if _, err := tea.NewProgram(m, popts...).Run(); err != nil {
		return fmt.Errorf("workbench: %w", err)
	}
	return nil
}

// newApp loads the suite and builds the root model.
func newApp(opts Options) (*workbench, error) {
	load, what := loadSuite, "the task suite"
	if opts.Domain != "" {
		load, what = func() ([]*suiteTask, error) { return loadDomain(opts.Domain, opts.Runs) }, "the "+opts.Domain+" domain"
	}
	tasks, err := load()
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", what, err)
	}
	if opts.TaskFile != "" {
		own, err := loadTaskFile(opts.TaskFile)
		if err != nil {
			return nil, fmt.Errorf("load %s: %w", opts.TaskFile, err)
		}
		tasks = append([]*suiteTask{own}, tasks...)
	}
	c := &common{ws: newWorkspace(tasks), dbPath: opts.DBPath, st: newStyles(defaultTheme), keys: newKeyMap(), hl: newHighlighter(defaultTheme)}
	m := newModel(c)
	if opts.Demo {
		m.demo = newDemo(c)
	}
	return m, nil
}
