package cli

import (
	"fmt"
	"os"
	"strings"

	"github.com/parthack/parthack/certifier"
	"github.com/parthack/parthack/domains"
	"github.com/parthack/parthack/internal/mapfile"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
	"github.com/parthack/parthack/tasks"
	"github.com/parthack/parthack/tasks/sealed"
)

// isSuiteID reports whether a --task argument names a suite task (such
// as PH-H05) rather than a file: it starts with "PH-" and no file of that
// name exists.
func isSuiteID(arg string) bool {
	if !strings.HasPrefix(arg, "PH-") {
		return false
	}
	_, err := os.Stat(arg)
	return err != nil
}

// domainTask resolves a --task argument that names a registered domain's
// task (TAU-A07) rather than a file: ok is false for anything else, an
// error for an id the domain owns but does not have.
func domainTask(arg string) (domains.Domain, *domains.Task, bool, error) {
	d, owned := domains.Owner(arg)
	if !owned {
		return nil, nil, false, nil
	}
	if _, err := os.Stat(arg); err == nil {
		return nil, nil, false, nil // a file of that name
	}
	t, err := domains.TaskOf(d, arg)
	return d, t, err == nil, err
}

// loadTask reads, decodes and compiles a task file. A suite id instead
// gives the suite's trusted task (hidden fields, Oracle predicates): the
// CLI is the trusted parent.
func loadTask(path string) (*pbcste.Env, error) {
	env, _, err := loadTaskViews(path)
	return env, err
}

// loadTaskViews resolves --task to the trusted environment and the public
// view of the task. For a suite id the public view is the suite's public
// task; a task file is both the trusted task and its own public view.
func loadTaskViews(path string) (*pbcste.Env, *model.Task, error) {
	if path == "" {
		return nil, nil, usageErr("--task is required")
	}
	if _, t, ok, err := domainTask(path); err != nil {
		return nil, nil, usage(err)
	} else if ok {
		env, err := t.Env()
		return env, t.Model, err
	}
	if isSuiteID(path) {
		st, err := tasks.Get(path)
		if err != nil {
			return nil, nil, usage(err)
		}
		trusted, err := sealed.Trusted(path)
		if err != nil {
			return nil, nil, err
		}
		env, err := pbcste.Compile(trusted)
		if err != nil {
			return nil, nil, err
		}
		return env, st.Public, nil
	}
	env, err := loadTaskFile(path)
	if err != nil {
		return nil, nil, err
	}
	return env, env.Task, nil
}

// loadTaskFile reads, decodes and compiles a task file.
func loadTaskFile(path string) (*pbcste.Env, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, usageErr("read task: %w", err)
	}
	t, err := model.DecodeTask(path, src)
	if err != nil {
		return nil, usage(err)
	}
	env, err := pbcste.Compile(t)
	if err != nil {
		return nil, usageErr("%s: %w", path, err)
	}
	return env, nil
}

// loadTrajectory reads and strictly decodes a trajectory file. With a
// suite task, a name of one of its stored trajectories (honest, witness,
// rollback, attribution) that is not a file gives that trajectory. A file
// that does not decode is bad input (exit 2) here; the certify command
// turns it into a malformed_schema verdict instead.
func loadTrajectory(flag, taskArg, path string) (*model.Trajectory, error) {
	if path == "" {
		return nil, usageErr("--%s is required", flag)
	}
	if tr, ok, err := storedTrajectory(taskArg, path); ok || err != nil {
		return tr, err
	}
	src, release, err := mapfile.Read(path)
	if err != nil {
		return nil, usageErr("read %s: %w", flag, err)
	}
	defer release()
	tr, err := model.DecodeTrajectory(path, src)
	if err != nil {
		return nil, fmt.Errorf("%w", err)
	}
	return tr, nil
}

// storedTrajectory resolves a stored trajectory's name for a suite task.
func storedTrajectory(taskArg, name string) (*model.Trajectory, bool, error) {
	if d, t, ok, err := domainTask(taskArg); err != nil {
		return nil, false, usage(err)
	} else if ok && !strings.ContainsAny(name, "./") {
		if _, err := os.Stat(name); err == nil {
			return nil, false, nil
		}
		return runTrajectory(d, t, name)
	}
	if !isSuiteID(taskArg) || strings.ContainsAny(name, "./") {
		return nil, false, nil
	}
	if _, err := os.Stat(name); err == nil {
		return nil, false, nil
	}
	t, err := tasks.Get(taskArg)
	if err != nil {
		return nil, false, usage(err)
	}
	var names []string
	for _, n := range t.Trajectories() {
		stem := strings.TrimSuffix(n.File, ".json")
		if stem == name {
			return n.Trajectory, true, nil
		}
		names = append(names, stem)
	}
	return nil, false, usageErr("%s has no stored trajectory %q (it has %s; or give a file)", taskArg, name, strings.Join(names, ", "))
}

// certifyInput double-certifies a trajectory named on the command line:
// a stored one from memory, a file as it is decoded (DoubleCertifyStream),
// so a trajectory of millions of steps is never held whole. A file that
// does not decode gives its *model.DecodeError.
func certifyInput(env *pbcste.Env, flag, taskArg, path string) (*model.Certificate, *model.Rejection, error) {
	if path == "" {
		return nil, nil, usageErr("--%s is required", flag)
	}
	if tr, ok, err := storedTrajectory(taskArg, path); ok || err != nil {
		if err != nil {
			return nil, nil, err
		}
		res, rej, err := certifier.DoubleCertify(env, tr)
		if res == nil {
			return nil, rej, err
		}
		return res.Cert, rej, err
	}
	src, release, err := mapfile.Read(path)
	if err != nil {
		return nil, nil, usageErr("read %s: %w", flag, err)
	}
	defer release()
	return certifier.DoubleCertifyStream(env, func(each func([]model.Step)) (*model.Trajectory, int, error) {
		return model.StreamTrajectory(path, src, streamBatch, each)
	})
}

// streamBatch is how many decoded steps the certifiers are handed at once.
const streamBatch = 4096

// honestPath is --honest, or when it is omitted the suite or tau-bench
// task's own H.
func honestPath(taskArg, path string) string {
	if path == "" && isSuiteID(taskArg) {
		return "honest"
	}
	if _, _, ok, _ := domainTask(taskArg); path == "" && ok {
		return "gold"
	}
	return path
}

// loadHonest reads --honest; when it is omitted and --task is a suite id,
// H is the suite task's stored honest trajectory.
func loadHonest(taskArg, path string) (*model.Trajectory, error) {
	return loadTrajectory("honest", taskArg, honestPath(taskArg, path))
}

// runTrajectory resolves a domain task's trajectory by name: "gold", or
// one of its runs ("trial2", "gpt-4o-t07-trial2").
func runTrajectory(d domains.Domain, t *domains.Task, name string) (*model.Trajectory, bool, error) {
	if name == "gold" {
		if t.Gold == nil {
			return nil, false, usageErr("%s has no gold run", t.ID)
		}
		return t.Gold, true, nil
	}
	r, err := domains.RunOf(d, t.ID, name)
	if err != nil {
		return nil, false, usage(err)
	}
	tr, err := r.Trajectory()
	return tr, true, err
}
