// Package cli wires parthack's subcommands: each command parses its
// flags, calls the packages that do the work, and prints a table or JSON.
// Exit codes: 0 success (eligible, certified), 1 a negative verdict
// (rejected), 2 bad input or usage.
package cli

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/parthack/parthack/domains"
	_ "github.com/parthack/parthack/domains/all" // the domains parthack ships, registered
)

// Exit codes shared by every command.
const (
	ExitOK       = 0
	ExitRejected = 1
	ExitUsage    = 2
)

// exitError carries a non-zero exit code out of a command.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }

// Unwrap is the error the exit code was given for, so errors.Is and
// errors.As see through the code.
func (e *exitError) Unwrap() error { return e.err }

// usageErr marks bad input or usage: exit 2. Wrap an error with %w, so a
// caller can still test it with errors.Is.
func usageErr(format string, args ...any) error {
	return &exitError{code: ExitUsage, err: fmt.Errorf(format, args...)}
}

// usage marks err, unchanged, as bad input or usage: exit 2.
func usage(err error) error { return &exitError{code: ExitUsage, err: err} }

// rejectedErr ends a command that printed a negative verdict: exit 1
// without another message.
var errRejected = &exitError{code: ExitRejected}

// commands lists the subcommands, in the order help shows them.
var commands = []func(*env) *cobra.Command{
	newReplayCmd,
	newCertifyCmd,
	newTasksCmd,
	newScoreCmd,
	newPayloadCmd,
	newAuditCmd,
	newAttackCmd,
	newBenchCmd,
	newReportCmd,
	newDomainCmd,
	newImportCmd,
	newStoreCmd,
	newWorkbenchCmd,
	newDemoCmd,
}

// env is what every command shares: its streams and the global flags.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	db             string // --db: the store file; empty means store.DefaultPath()
	domain         string // workbench --domain: a real benchmark's tasks instead of the suite
	taskFile       string // workbench --task: a task file of the user's own, beside the suite

	runs []*domains.Run // workbench --runs: the runs of the user's files, instead of the domain's
}

// Main runs parthack with args and returns the process exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr}
	root := &cobra.Command{
		Use:           "parthack",
		Short:         "Certified equal-progress stress tests for partial-credit evaluators",
		Long:          "parthack replays agent trajectories in PB-CSTE, certifies equal-progress pairs and strict rollbacks,\nand measures how far partial-credit evaluators can be inflated at unchanged certified progress.",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	// With no arguments on a terminal parthack opens the workbench;
	// anywhere else it prints help.
	root.RunE = func(cmd *cobra.Command, _ []string) error {
		if onTerminal(e) {
			return runWorkbench(e, false)
		}
		return cmd.Help()
	}
	root.PersistentFlags().StringVar(&e.db, "db", "", "store of witnesses, notes and runs (default "+defaultDB()+")")
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	for _, mk := range commands {
		root.AddCommand(mk(e))
	}
	root.SetArgs(args)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		if re, ok := flagRangeError(err); ok {
			err = re // in its own words, not pflag's "invalid argument …"
		}
		return &exitError{code: ExitUsage, err: err}
	})
	err := root.Execute()
	if err == nil {
		return ExitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			fmt.Fprintln(stderr, "parthack:", ee.err)
		}
		return ee.code
	}
	fmt.Fprintln(stderr, "parthack:", err)
	return ExitUsage
}
