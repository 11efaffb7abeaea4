package cli

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"
	"unicode"

	"github.com/spf13/cobra"

	"github.com/parthack/parthack/domains"
	"github.com/parthack/parthack/internal/payload"
	"github.com/parthack/parthack/internal/worker"
)

// scorerFlags are score's flags for a user's own scorer program, which
// runs in the worker sandbox on the payload bytes (SPEC §4).
type scorerFlags struct {
	program  string
	args     []string
	readOnly []string
	envVars  []string
	timeout  time.Duration
	abi      int
	input    string // --scorer-input: payloadInput or a run format
}

// scorerRowName names the scorer's row among the judges' rows.
const scorerRowName = "scorer"

func (f *scorerFlags) add(cmd *cobra.Command) {
	fs := cmd.Flags()
	fs.StringVar(&f.program, "scorer", "", "also score with this program, sandboxed: payload on stdin, {\"score\": s} on stdout")
	fs.StringArrayVar(&f.args, "scorer-arg", nil, "an argument for the scorer (repeatable), such as the script an interpreter runs")
	fs.StringArrayVar(&f.readOnly, "scorer-ro", nil, "a file or directory the scorer may read and execute (repeatable): an interpreter, its libraries, a script")
	fs.StringArrayVar(&f.envVars, "scorer-env", nil, "KEY=VALUE in the scorer's otherwise empty environment (repeatable)")
	durationFlag(fs, &f.timeout, "scorer-timeout", worker.DefaultTimeout, timeoutRange, "time limit of the scorer; its process group is killed then")
	fs.StringVar(&f.input, "scorer-input", payloadInput, "what the scorer reads: the payload, or, named by a benchmark's run format, what that benchmark's own evaluator reads of the trajectory in that format's shapes; one JSON document a line, answered {\"score\": s} a line")
	intFlag(fs, &f.abi, "scorer-landlock-abi", 0, landlockRange, fmt.Sprintf("Landlock ABI to enforce, strictly (default: the kernel's newest, up to %d; kernels older than %d are refused)", worker.NewestLandlockABI, worker.MinLandlockABI))
}

// on reports whether a scorer was asked for, and checks its flags.
func (f *scorerFlags) on(cmd *cobra.Command, steps bool) (bool, error) {
	if f.program == "" {
		for _, name := range []string{"scorer-arg", "scorer-ro", "scorer-env", "scorer-timeout", "scorer-landlock-abi", "scorer-input"} {
			if cmd.Flags().Changed(name) {
				return false, usageErr("--%s needs --scorer", name)
			}
		}
		return false, nil
	}
	switch {
	case steps:
		return false, usageErr("--scorer scores the whole trajectory; it does not go with --steps")
	}
	for _, kv := range f.envVars {
		if k, _, ok := strings.Cut(kv, "="); !ok || k == "" {
			return false, usageErr("--scorer-env %q: want KEY=VALUE", kv)
		}
	}
	return true, nil
}

// score runs the scorer in the worker on payload bytes b: a row that
// holds its score, or why there is none (the worker's refusal included).
// With --scorer-input a run format, the scorer serves a session of one
// line: what the benchmark's evaluator reads of the trajectory, on
// domain d.
func (f *scorerFlags) score(ctx context.Context, b []byte, d domains.Domain) judgeRow {
	row := judgeRow{Name: scorerRowName, Label: "scorer " + filepath.Base(f.program)}
	if f.input != payloadInput {
		v, err := f.scoreLine(ctx, b, d)
		if err != nil {
			row.State, row.Detail = stateError, err.Error()
			return row
		}
		row.State, row.Value = stateScored, &v
		return row
	}
	res, err := worker.Score(ctx, f.config(), b)
	if err != nil {
		row.State, row.Detail = stateError, err.Error()
		return row
	}
	row.State, row.Value, row.Detail = stateScored, &res.Score, res.Rationale
	return row
}

// scoreLine scores one payload's trajectory in a session of one line.
func (f *scorerFlags) scoreLine(ctx context.Context, b []byte, d domains.Domain) (float64, error) {
	p, err := payload.Decode(b)
	if err != nil {
		return 0, err
	}
	s, err := f.start(ctx, d, nil)
	if err != nil {
		return 0, err
	}
	defer s.close()
	return s.score(p)
}

// writeScorerDetails prints a scored scorer's rationale below the table
// (writeJudgeDetails prints its error).
func writeScorerDetails(w io.Writer, rows []judgeRow) {
	for _, r := range rows {
		if r.Name == scorerRowName && r.State == stateScored && r.Detail != "" {
			fmt.Fprintf(w, "%s: rationale: %s\n", r.Label, printable(r.Detail))
		}
	}
}

// printable replaces control characters in a program's words, so that
// they cannot drive the terminal that shows them.
func printable(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsPrint(r) {
			return r
		}
		return '\uFFFD'
	}, s)
}
