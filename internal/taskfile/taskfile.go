// Package taskfile loads a task of a user's own, written in the task file
// format (model/decode.go), with its trajectories: the files named on the
// command line, or else the trajectory files next to the task file.
//
// A trajectory's role comes from its file name: honest*.json is the honest
// trajectory H, rollback*.json a strict rollback of H, witness*.json a
// historical witness, attribution*.json an attribution control; any other
// trajectory is a candidate, held only to legality; among files named on
// the command line, the first is H when none is named honest*.json.
// testdata/example follows this layout.
package taskfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/parthack/parthack/model"
)

// Role is what a trajectory of a user's task is for.
type Role string

// The roles, by file name prefix.
const (
	RoleHonest      Role = "honest"
	RoleRollback    Role = "rollback"
	RoleWitness     Role = "witness"
	RoleAttribution Role = "attribution"
	RoleCandidate   Role = "candidate"
)

// RoleOf is the role a trajectory file's name gives it.
func RoleOf(path string) Role {
	base := strings.ToLower(filepath.Base(path))
	for _, r := range []Role{RoleHonest, RoleRollback, RoleWitness, RoleAttribution} {
		if strings.HasPrefix(base, string(r)) {
			return r
		}
	}
	return RoleCandidate
}

// Trajectory is one decoded trajectory file of a user's task.
type Trajectory struct {
	Path       string
	Role       Role
	Trajectory *model.Trajectory
}

// Bundle is a user's task and its trajectories, in the order given or,
// when found next to the task, honest first, then by file name.
type Bundle struct {
	Path         string
	Task         *model.Task
	Trajectories []Trajectory
}

// Honest is the bundle's honest trajectory, or nil.
func (b *Bundle) Honest() *Trajectory {
	for i := range b.Trajectories {
		if b.Trajectories[i].Role == RoleHonest {
			return &b.Trajectories[i]
		}
	}
	return nil
}

// MinPredicates and MaxPredicates bound a goal version's predicates in a
// task file: 3 to 5 per task and goal version, as PartHackBench's tasks
// have them (SPEC §2), the suite's and a user's alike. A real
// benchmark's tasks (domains) are derived from its gold runs, not read
// from task files: their m is the gold run's net changes, whatever it is.
const (
	MinPredicates = 3
	MaxPredicates = 5
)

// Decode strictly decodes a task file (model.DecodeTask) and holds each
// goal version to MinPredicates … MaxPredicates, refusing one outside at
// its predicates' line, column and JSON path.
func Decode(path string, src []byte) (*model.Task, error) {
	t, err := model.DecodeTask(path, src)
	if err != nil {
		return nil, err
	}
	for i, g := range t.Goals {
		if n := len(g.Predicates); n < MinPredicates || n > MaxPredicates {
			msg := fmt.Sprintf("goal %s has %d predicates; a task's goal version has %d to %d", g.Version, n, MinPredicates, MaxPredicates)
			doc, err := model.ParseJSON(path, src)
			if err != nil {
				return nil, fmt.Errorf("%s: %s", path, msg)
			}
			// It decoded, so the path is there.
			goals, _ := doc.Member("goals")
			goal, _ := goals.Item(i)
			preds, _ := goal.Member("predicates")
			return nil, preds.Errorf("%s", msg)
		}
	}
	return t, nil
}

// ErrRead marks a file that could not be read (bad usage), as against
// one that was read and does not decode (a broken task).
var ErrRead = errors.New("cannot read")

// Load reads and strictly decodes the task file at path and the
// trajectory files listed; with none listed, it takes every *.json next to
// the task file that is a trajectory of this task (a file named like a
// role that does not decode is an error; other files that do not decode
// as a trajectory of the task are not its trajectories and are passed
// over).
func Load(path string, trajectories []string) (*Bundle, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%w task: %w", ErrRead, err)
	}
	t, err := Decode(path, src)
	if err != nil {
		return nil, err
	}
	b := &Bundle{Path: path, Task: t}
	if len(trajectories) > 0 {
		for _, p := range trajectories {
			src, err := os.ReadFile(p)
			if err != nil {
				return nil, fmt.Errorf("%w trajectory: %w", ErrRead, err)
			}
			tr, err := model.DecodeTrajectory(p, src)
			if err != nil {
				return nil, err
			}
			b.Trajectories = append(b.Trajectories, Trajectory{Path: p, Role: RoleOf(p), Trajectory: tr})
		}
		if b.Honest() == nil && b.Trajectories[0].Role == RoleCandidate {
			b.Trajectories[0].Role = RoleHonest // named files: the first is H unless one is named honest*
		}
		return b, nil
	}
	dir := filepath.Dir(path)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("%w %s: %w", ErrRead, dir, err)
	}
	for _, e := range entries {
		name := e.Name()
		p := filepath.Join(dir, name)
		if e.IsDir() || !strings.HasSuffix(name, ".json") || sameFile(p, path) {
			continue
		}
		src, err := os.ReadFile(p)
		if err != nil {
			if errors.Is(err, fs.ErrPermission) {
				continue
			}
			return nil, fmt.Errorf("%w trajectory: %w", ErrRead, err)
		}
		role := RoleOf(p)
		tr, err := model.DecodeTrajectory(p, src)
		switch {
		case err != nil && role != RoleCandidate:
			return nil, err
		case err != nil, tr.Task != t.ID && role == RoleCandidate:
			continue
		}
		b.Trajectories = append(b.Trajectories, Trajectory{Path: p, Role: role, Trajectory: tr})
	}
	sort.SliceStable(b.Trajectories, func(i, j int) bool {
		return b.Trajectories[i].Role == RoleHonest && b.Trajectories[j].Role != RoleHonest
	})
	return b, nil
}

func sameFile(a, b string) bool {
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(sa, sb)
}
