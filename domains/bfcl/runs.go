package bfcl

import (
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/parthack/parthack/domains"
	"github.com/parthack/parthack/model"
)

// FormatName is the run format BFCL writes: its result files.
const FormatName = "bfcl"

func init() {
	domains.RegisterFormat(domains.Format{Name: FormatName, Stream: streamFormat, Conform: conformFormat,
		Help: "a BFCL multi-turn result file as its generation writes it (BFCL_v4_multi_turn_<category>_result.json: one entry a line with result and inference_log; gzipped or not)"})
}

// Termination is how BFCL ended a run before its turns did, "" where the
// model answered every turn: force_terminated where its harness quit the
// entry (more than 20 steps in a turn) or the run has fewer turns than
// gold, inference_error where the model's API failed. BFCL scores both
// invalid; bench leaves them out.
func Termination(res *Result, e *Entry) string {
	switch {
	case res.Failed:
		return "inference_error"
	case res.ForceQuit || len(res.Turns) < len(e.GroundTruth):
		return ForceTerminated
	}
	return ""
}

// Trajectory is a result entry as a trajectory of its task: each turn the
// user's step, then each call of each of the model's steps that BFCL
// scores (a step that failed to decode or decoded to no call ended the
// turn), its name and arguments as the model sent them.
func Trajectory(res *Result, e *Entry) (*model.Trajectory, error) {
	tr := &model.Trajectory{Task: e.ID, Termination: Termination(res, e)}
	for i, turn := range res.Turns {
		tr.Steps = append(tr.Steps, UserStep(i))
		for k, s := range turn.Steps {
			if s.Empty() {
				continue
			}
			for j, c := range s.Calls {
				args, err := model.FromJSON([]byte(c.Arguments))
				if err != nil {
					return nil, fmt.Errorf("turn %d step %d call %d (%s): arguments: %w", i, k, j, c.Name, err)
				}
				tr.Steps = append(tr.Steps, model.Step{Action: model.Action{Op: model.OpCall, Tool: c.Name, Args: args}})
			}
		}
	}
	for i := range tr.Steps {
		tr.Steps[i].Index = i
	}
	return tr, nil
}

// ModelOf names a result file's model from its name: BFCL writes
// result/<model>/BFCL_v4_<category>_result.json, and copies of it are
// often named <model>-…-<category>_result.json.
func ModelOf(file string) string {
	base := filepath.Base(file)
	if m := resultName.FindStringSubmatch(base); m != nil && strings.Trim(m[1], "-_") != "" {
		return strings.Trim(m[1], "-_")
	}
	return filepath.Base(filepath.Dir(file))
}

var resultName = regexp.MustCompile(`^(.*?)(?:BFCL_v\d+_)?multi_turn_[a-z_]+?_result\.json(?:\.gz)?$`)

// run is a result entry as a run of its task.
func run(file string, res *Result) (*domains.Run, error) {
	e, err := EntryByID(res.ID)
	if err != nil {
		return nil, fmt.Errorf("%s:%d: %w", file, res.Line, err)
	}
	t, ok := TaskByID(res.ID)
	if !ok {
		return nil, fmt.Errorf("%s:%d: entry %s: no task", file, res.Line, res.ID)
	}
	m := ModelOf(file)
	v := Checker{}.Score(e, res)
	name := m + "-" + res.ID
	return &domains.Run{Domain: DomainName, Name: name, Short: m, Task: res.ID, Model: m, Reward: b2f(v.Valid),
		Embedded: t.registryTask(),
		Record:   func(a *model.Trajectory) ([]byte, error) { return Witness(res, e, a) },
		Trajectory: func() (*model.Trajectory, error) {
			tr, err := Trajectory(res, e)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: entry %s: %w", file, res.Line, res.ID, err)
			}
			tr.Name = name
			return tr, nil
		},
		Locate: func(step int, err error) error {
			if step < 0 {
				return fmt.Errorf("%s:%d: entry %s: %w", file, res.Line, res.ID, err)
			}
			return fmt.Errorf("%s:%d: entry %s, step %d of its trajectory: %w", file, res.Line, res.ID, step+1, err)
		},
	}, nil
}

// streamFormat reads a result file's entries as runs, one at a time.
func streamFormat(file string, in io.Reader, each func(int, *domains.Run) error) error {
	i := 0
	return StreamResults(file, in, func(res *Result) error {
		r, err := run(file, res)
		if err != nil {
			return err
		}
		i++
		return each(i-1, r)
	})
}

// conformFormat reads a result file's entries as runs and holds each to
// what BFCL recorded (Conform): every result, snapshot and verdict.
func conformFormat(file string, in io.Reader, each func(int, *domains.Run) error) (*domains.Conformance, error) {
	i := 0
	rep, err := ConformEach(file, in, func(res *Result) error {
		r, err := run(file, res)
		if err != nil {
			return err
		}
		i++
		return each(i-1, r)
	})
	if err != nil {
		return nil, err
	}
	c := &domains.Conformance{File: file, Domain: DomainName, Runs: rep.Entries, Calls: rep.Calls, CallsEqual: rep.CallsEqual,
		Checks: []domains.Check{{Name: "snapshots", Recorded: rep.Snapshots, Equal: rep.SnapshotsEqual}, {Name: "valid", Recorded: rep.Entries, Equal: rep.Valid}},
		Report: rep}
	for _, d := range rep.Disagreements {
		c.Disagreements = append(c.Disagreements, domains.Disagreement{Run: d.ID, What: fmt.Sprintf("turn %d step %d call %d: %s", d.Turn, d.Step, d.Call, d.What),
			Got: d.Got, Want: d.Want, Cause: d.Cause})
	}
	return c, nil
}
