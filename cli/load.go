package cli

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/parthack/parthack/certifier"
	"github.com/parthack/parthack/domains"
	"github.com/parthack/parthack/internal/mapfile"
	"github.com/parthack/parthack/internal/taskfile"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
	"github.com/parthack/parthack/store"
	"github.com/parthack/parthack/tasks"
	"github.com/parthack/parthack/tasks/sealed"
	"github.com/parthack/parthack/tui"
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
// task rather than a file: ok is false for anything else, an
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
	src, release, err := mapfile.Read(path)
	if err != nil {
		return nil, usageErr("read task: %w", err)
	}
	defer release()
	t, err := taskfile.Decode(path, src)
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
func (e *env) loadTrajectory(flag, taskArg, path string) (*model.Trajectory, error) {
	if path == "" {
		return nil, usageErr("--%s is required", flag)
	}
	if tr, ok, err := e.storedTrajectory(flag, taskArg, path); ok || err != nil {
		return tr, err
	}
	src, release, err := mapfile.Read(path)
	if err != nil {
		return nil, usageErr("read %s: %w%s", flag, err, e.notInStore(path))
	}
	defer release()
	tr, err := model.DecodeTrajectory(path, src)
	if err != nil {
		return nil, fmt.Errorf("%w", err)
	}
	return tr, nil
}

// trajectoryArgHelp says how a trajectory argument resolves, for --help.
const trajectoryArgHelp = "A trajectory argument is, in this order: a file of that name (JSON, gzipped or not); with a suite task,\n" +
	"one of its stored trajectories (honest, witness, …); with a domain's task (`domain tasks` lists them), gold or one\n" +
	"of its runs' names (trial0, or the run's whole name); else a witness or run saved in the store (--db), by its name or as KIND:KEY (witness:3; a run gives its\n" +
	"candidate). `parthack store ls` lists them."

// storedTrajectory resolves a trajectory argument that is not a file:
// a suite task's stored trajectory (honest, witness, rollback,
// attribution), a tau-bench task's gold run or GPT-4o run, or else a
// witness or run saved in the store (--db) by name or as KIND:KEY. A
// file of that name always wins. ok is false when the argument is to be
// read as a file. A store that cannot be read (locked by another process,
// or no store at --db) comes second to what is wrong with the argument.
func (e *env) storedTrajectory(flag, taskArg, name string) (*model.Trajectory, bool, error) {
	if _, err := os.Stat(name); err == nil {
		return nil, false, nil
	}
	var taskErr error
	switch {
	case domainOwns(taskArg) && !strings.Contains(name, "/"):
		// tau2's run names hold dots (T2R-5-gpt-4.1-trial0); a dotted
		// name that is no run is read as a file that is missing.
		d, t, _, err := domainTask(taskArg)
		if err != nil {
			return nil, false, usage(err)
		}
		tr, ok, err := runTrajectory(d, t, name)
		if ok || !errors.Is(err, domains.ErrNoRun) {
			return tr, ok, err
		}
		if !strings.Contains(name, ".") {
			taskErr = err
		}
	case isSuiteID(taskArg) && !strings.ContainsAny(name, "./"):
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
		taskErr = fmt.Errorf("%s has no stored trajectory %q (it has %s; or give a file, or a name in the store)", taskArg, name, strings.Join(names, ", "))
	}
	r, ok, err := e.storeRecord(name, store.KindWitness, store.KindRun)
	var unreadable *unreadableStore
	switch {
	case errors.As(err, &unreadable):
		wrong := taskErr
		if wrong == nil {
			_, ferr := os.Stat(name)
			wrong = fmt.Errorf("read %s: %w", flag, ferr)
		}
		return nil, false, usageErr("%w (nor can the store be searched for a witness or run of that name: %w)", wrong, unreadable.err)
	case err != nil:
		return nil, false, err
	case ok:
		tr, err := recordTrajectory(r)
		return tr, true, err
	case taskErr != nil:
		return nil, false, usage(taskErr)
	}
	return nil, false, nil
}

// recordTrajectory is the trajectory a stored record holds: a witness's,
// or the candidate of a run the workbench saved.
func recordTrajectory(r store.Record) (*model.Trajectory, error) {
	if r.Kind == store.KindRun {
		_, _, a, err := tui.DecodeRun(r)
		return a, err
	}
	return tui.DecodeWitness(r)
}

// certifyInput double-certifies a trajectory named on the command line:
// a stored one from memory, a file as it is decoded (DoubleCertifyStream),
// so a trajectory of millions of steps is never held whole. A file that
// does not decode gives its *model.DecodeError.
func (e *env) certifyInput(env *pbcste.Env, flag, taskArg, path string) (*model.Certificate, *model.Rejection, error) {
	steps, release, err := e.trajectorySteps(flag, taskArg, path)
	if err != nil {
		return nil, nil, err
	}
	defer release()
	return certifier.DoubleCertifyStream(env, steps)
}

// trajectorySteps gives a trajectory named on the command line as a
// stream of steps: a stored one from memory, a file as it is decoded
// (model.StreamTrajectory), which may be streamed any number of times
// until release is called.
func (e *env) trajectorySteps(flag, taskArg, path string) (certifier.Steps, func(), error) {
	if path == "" {
		return nil, nil, usageErr("--%s is required", flag)
	}
	if tr, ok, err := e.storedTrajectory(flag, taskArg, path); ok || err != nil {
		if err != nil {
			return nil, nil, err
		}
		return func(each func([]model.Step)) (*model.Trajectory, int, error) {
			head := *tr
			head.Steps = nil
			if len(tr.Steps) > 0 {
				each(tr.Steps)
			}
			return &head, len(tr.Steps), nil
		}, func() {}, nil
	}
	src, release, err := mapfile.Read(path)
	if err != nil {
		return nil, nil, usageErr("read %s: %w%s", flag, err, e.notInStore(path))
	}
	return func(each func([]model.Step)) (*model.Trajectory, int, error) {
		return model.StreamTrajectory(path, src, streamBatch, each)
	}, release, nil
}

// streamBatch is how many decoded steps the certifiers are handed at once.
const streamBatch = 4096

// honestPath is --honest, or when it is omitted the task's own H: a
// suite task's honest trajectory, a domain task's default run
// (domains.DefaultHonest, as the workbench's), else its gold run.
func honestPath(taskArg, path string) (string, error) {
	if path != "" {
		return path, nil
	}
	if isSuiteID(taskArg) {
		return "honest", nil
	}
	d, t, ok, _ := domainTask(taskArg)
	if !ok {
		return "", nil // a task file names no H of its own
	}
	runs, err := d.Runs()
	if err != nil {
		return "", err
	}
	if r := domains.DefaultHonest(runs, t.ID); r != nil {
		return r.Short, nil
	}
	return "gold", nil
}

// runLabel is the name a witness's honest member gives H when name is
// one of a domain task's runs (its short name, as the workbench lists
// it) or its gold run; false for anything else (a file, a stored name).
func runLabel(taskArg, name string) (string, bool) {
	d, t, ok, _ := domainTask(taskArg)
	if !ok {
		return "", false
	}
	if name == "gold" {
		return name, t.Gold != nil
	}
	r, err := domains.RunOf(d, t.ID, name)
	if err != nil {
		return "", false
	}
	return r.Short, true
}

// loadHonest reads --honest; when it is omitted, H is the task's own
// (honestPath).
func (e *env) loadHonest(taskArg, path string) (*model.Trajectory, error) {
	p, err := honestPath(taskArg, path)
	if err != nil {
		return nil, err
	}
	return e.loadTrajectory("honest", taskArg, p)
}

// domainOwns reports whether a --task argument names a domain's task id
// rather than a file.
func domainOwns(arg string) bool {
	_, _, ok, err := domainTask(arg)
	return ok || err != nil
}

// runTrajectory resolves a domain task's trajectory by name: "gold", or
// one of its runs ("trial2", "gpt-4o-t07-trial2"); domains.ErrNoRun when
// it has none of that name.
func runTrajectory(d domains.Domain, t *domains.Task, name string) (*model.Trajectory, bool, error) {
	if name == "gold" {
		if t.Gold == nil {
			return nil, false, usageErr("%s has no gold run", t.ID)
		}
		return t.Gold, true, nil
	}
	r, err := domains.RunOf(d, t.ID, name)
	if err != nil {
		return nil, false, err
	}
	tr, err := r.Trajectory()
	return tr, true, err
}
