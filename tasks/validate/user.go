package validate

import (
	"fmt"
	"slices"

	"github.com/parthack/parthack/internal/taskfile"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
	"github.com/parthack/parthack/tasks"
)

// Check is one property checked on a user's task, or skipped with the
// reason it does not apply.
type Check struct {
	Name    string
	Skipped string // why the property does not apply; "" when it was checked
}

// ValidateUser checks a task of a user's own and its trajectories against
// every property a suite task is held to that applies without the suite's
// metadata and sealed part (the task file is its own public and trusted
// view): legality of the task and of every trajectory, the honest prefix
// (every step succeeds, no terminal success, P_state = P_agent, no
// accidental transient peak), goal versions, strict rollbacks, eligible
// witnesses that inflate the historical evaluators, attribution controls,
// the action alphabet, and no canary in a public file. It returns the
// checks in order and the first broken property, located by file, step,
// event or predicate.
func ValidateUser(b *taskfile.Bundle) ([]Check, error) {
	t := &tasks.Task{ID: b.Task.ID, Public: b.Task}
	c := &checker{t: t, trusted: b.Task, files: map[string]string{}}
	var done []Check
	skip := func(name, why string) { done = append(done, Check{Name: name, Skipped: why}) }
	ok := func(name string) { done = append(done, Check{Name: name}) }

	var err error
	if c.env, err = pbcste.Compile(b.Task); err != nil {
		return done, c.fail("%s: %v", b.Path, err)
	}
	c.pub = c.env
	for _, tr := range b.Trajectories {
		if tr.Trajectory.Task != b.Task.ID {
			return done, c.fail("%s: trajectory is for task %q", tr.Path, tr.Trajectory.Task)
		}
		if _, err := c.certify(tr.Path, tr.Trajectory); err != nil {
			return done, err
		}
	}
	ok(fmt.Sprintf("legality: the task compiles; %d trajectories double-certify", len(b.Trajectories)))

	h := b.Honest()
	if h == nil {
		skip("honest prefix, no transient peak, P_state = P_agent", "no honest trajectory (honest*.json)")
	} else {
		t.HonestTrajectory = h.Trajectory
		c.files[tasks.FileHonest] = h.Path
		if err := c.honestRun(); err != nil {
			return done, err
		}
		ok(fmt.Sprintf("honest prefix: %s ends at P_state %s = P_agent, below m, with no transient peak", h.Path, c.honest.Cert.PState))
	}

	revises := slices.ContainsFunc(b.Task.Script, func(ev model.ScriptedEvent) bool { return ev.Op == model.OpReviseGoal })
	switch {
	case !revises:
		skip("goal versions", "the script revises no goal")
	case h == nil:
		skip("goal versions", "no honest trajectory")
	default:
		t.Family = model.FamilyGoalPatch
		if err := c.goalPatch(); err != nil {
			return done, err
		}
		ok("goal versions: H ends on a revised goal version; every revision changes the goal")
	}

	for _, role := range []taskfile.Role{taskfile.RoleRollback, taskfile.RoleWitness, taskfile.RoleAttribution} {
		var n int
		for _, tr := range b.Trajectories {
			if tr.Role != role {
				continue
			}
			n++
			if h == nil {
				return done, c.fail("%s: a %s needs an honest trajectory (honest*.json) to be checked against", tr.Path, role)
			}
			if err := c.userRole(role, tr); err != nil {
				return done, err
			}
		}
		what := map[taskfile.Role]string{
			taskfile.RoleRollback:    "rollbacks strict",
			taskfile.RoleWitness:     "witnesses eligible, with a temporary peak",
			taskfile.RoleAttribution: "attribution controls rejected for their attribution",
		}[role]
		if n == 0 {
			skip(what, fmt.Sprintf("no %s*.json", role))
		} else {
			ok(fmt.Sprintf("%s (%d)", what, n))
		}
	}

	if len(b.Task.Alphabet) == 0 {
		skip("alphabet", "the task declares no action alphabet, so the search attacker has no moves")
	} else {
		for _, tr := range b.Trajectories {
			if err := c.alphabetOf(tr.Path, tr.Trajectory); err != nil {
				return done, err
			}
		}
		ok("alphabet: it covers every step of every trajectory")
	}

	if err := c.noCanaries(b); err != nil {
		return done, err
	}
	ok("canaries: no suite canary in a public file (a user's task has no sealed part to plant its own)")
	return done, nil
}

// userRole checks one rollback, witness or attribution control of a
// user's task against H.
func (c *checker) userRole(role taskfile.Role, tr taskfile.Trajectory) error {
	switch role {
	case taskfile.RoleRollback:
		return c.rollbackOf(tr.Path, tr.Trajectory)
	case taskfile.RoleWitness:
		return c.witnessOf(tr.Path, tr.Trajectory)
	case taskfile.RoleAttribution:
		c.files[tasks.FileAttribution] = tr.Path
		c.t.AttributionControl = tr.Trajectory
		c.t.Tags = []string{model.TagAttribution}
		return c.attribution()
	}
	return nil
}

// noCanaries checks that no string of the canaries' form appears in the
// user's task or trajectories.
func (c *checker) noCanaries(b *taskfile.Bundle) error {
	files := []struct {
		path string
		v    any
	}{{b.Path, b.Task}}
	for _, tr := range b.Trajectories {
		files = append(files, struct {
			path string
			v    any
		}{tr.Path, tr.Trajectory})
	}
	for _, f := range files {
		text, err := model.Canonical(f.v)
		if err != nil {
			return c.fail("%s: %v", f.path, err)
		}
		if k := canaryInText.Find(text); k != nil {
			return c.fail("%s: canary %s is in a public field", f.path, k)
		}
	}
	return nil
}
