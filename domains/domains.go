// Package domains is the registry of real benchmarks' domains over the one
// PB-CSTE core. A domain is a package (its entities, tools, episode rule,
// run formats, task derivation, move generator and the benchmark's own
// reward) that registers itself in its init, as a database/sql driver
// does; a program takes the domains it links with one blank import each
// (see domains/all). Commands and the workbench ask the registry and name
// no domain.
package domains

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/parthack/parthack/internal/mapfile"
	"github.com/parthack/parthack/internal/payload"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
)

// A Domain is one benchmark domain: its tasks and the real runs it ships.
type Domain interface {
	// Name is the id commands take: --domain tau-airline.
	Name() string
	// Title names the benchmark and the domain for people: "tau-bench airline".
	Title() string
	// Owns reports whether a task id names one of the domain's tasks
	// ("TAU-A07"); it need not exist.
	Owns(taskID string) bool
	// Tasks are the domain's tasks, in order.
	Tasks() ([]*Task, error)
	// Runs are the real runs that ship with the domain, in order.
	Runs() ([]*Run, error)
	// Format names the run-file format the benchmark writes its runs in
	// (RegisterFormat), for bench --runs.
	Format() string
	// Tools describe the tools of the domain's tasks, for editors.
	Tools() []Tool
	// Rewards are the benchmark's own evaluators, computed from the public
	// payload like the paper's; the first is the benchmark's verdict.
	Rewards() []Reward
}

// Task is one task of a domain as PB-CSTE runs it.
type Task struct {
	ID     string
	Title  string
	Family string // what the workbench lists it under: "airline (tau-bench)"
	// Summary says in a line what the benchmark asks besides the goal
	// predicates (the user, the outputs the agent must say).
	Summary string
	// Model is the task: benchmarks publish their tasks, so the public
	// task and the trusted one are the same.
	Model *model.Task
	// Gold is the benchmark's reference run; nil when it has none.
	Gold *model.Trajectory
	// Env compiles the task, once.
	Env func() (*pbcste.Env, error)
	// AttackTask is the task with the moves the search attacker may
	// insert into a run h that ends in final; nil when the domain has no
	// move generator.
	AttackTask func(h *model.Trajectory, final model.StateView) *model.Task
	// Hash is the benchmark's own hash of the state a replayed run ends
	// in ("" when the benchmark has none).
	Hash func(*pbcste.Log) string
	// GoldHash, where the benchmark's gold state is not the end of Gold
	// replayed as a run (tau2 telecom: its gold calls are made without
	// the sync that follows each call of a run), is Hash of the state the
	// benchmark's own DB check takes for gold's; "" elsewhere.
	GoldHash string
	// Reward is the benchmark's reward of a replayed run, recomputed on
	// the trusted side as the benchmark computes it (from its state hash).
	Reward func(log *pbcste.Log, tr *model.Trajectory) float64
	// Payload is the public payload of a replayed run that the domain's
	// own evaluators (Domain.Rewards) score, also for a task with no goal
	// predicate, whose own payload the schema refuses; nil: the run's
	// payload, and none for such a task.
	Payload func(log *pbcste.Log, tr *model.Trajectory) (*payload.Payload, error)
	// GoldPasses says the gold run, as the domain keeps it, must pass the
	// benchmark's own reward (false where it keeps the calls but not the
	// replies a reward also reads).
	GoldPasses bool
	// GoldMayFail says a gold call may fail, as the benchmark's own gold
	// does (tau2 replays its gold actions and keeps going past an error).
	GoldMayFail bool
	// GoalMayHoldAtStart says a goal predicate may hold before any step:
	// a goal that is a set of assertions on the end state (tau2
	// telecom's), not the gold run's net changes.
	GoalMayHoldAtStart bool
}

// M is the number of the task's goal predicates: of its last goal
// version, the one a run ends under where the user revises the goal
// (BFCL's turns); a task of one version has that one.
func (t *Task) M() int {
	if len(t.Model.Goals) == 0 {
		return 0
	}
	return len(t.Model.Goals[len(t.Model.Goals)-1].Predicates)
}

// Run is one recorded run of a task.
type Run struct {
	Domain string // the domain's name
	Name   string // unique among the domain's runs: "gpt-4o-t07-trial2"
	Short  string // unique among its task's runs: "trial2"
	Task   string // the task's id
	Model  string // the agent's model, as the run file names it
	// Reward is the benchmark's reward, as recorded.
	Reward float64
	// Embedded is the task as the run's own file has it, where files embed
	// their tasks (tau2's); nil: the domain's task of that id.
	Embedded *Task
	// Trajectory decodes the run's calls (and conversation) as a
	// trajectory of its task.
	Trajectory func() (*model.Trajectory, error)
	// Directed, where another actor acts on the agent's words (tau2
	// telecom's user), says for each step of the run's trajectory whether
	// it is that actor's step the agent directed; nil elsewhere.
	Directed func() ([]bool, error)
	// Record, where the benchmark's own code can score a run (tau2's
	// Python, BFCL's), is a trajectory of the run's task, a witness of
	// this run, as the benchmark would have recorded it (a JSON object;
	// one line where the benchmark's files hold one entry a line, as
	// BFCL's do, and bench keeps it one line); nil elsewhere.
	Record func(a *model.Trajectory) ([]byte, error)
	// EvaluatorInput, where the benchmark's own evaluators read a run in
	// a shape of their own, is what such an evaluator would read of a
	// trajectory of the run's task, a witness of this run, as the
	// benchmark would have recorded it: one JSON document (tau2's
	// {"task", "simulation"}, tau-bench's {"task", "traj"}) in the shape
	// of the domain's run Format; nil elsewhere.
	EvaluatorInput func(a *model.Trajectory) ([]byte, error)
	// Locate, when the run came from a file, wraps an error about its
	// step (from 0; -1 when about no step) with where the run, its
	// message and its call are in the file.
	Locate func(step int, err error) error
	// Certified, where a format holds the run to what its benchmark
	// recorded from the run's replay (tau2's Conform), takes the
	// trajectory a certification of the run read and the log its replay
	// made, so that the run is not built and replayed a second time; nil
	// elsewhere, and a run never certified is replayed as before.
	Certified func(h *model.Trajectory, log *pbcste.Log)
}

// Exporter is a domain that can write the runs it ships in its
// benchmark's run format: the format's name, the number of runs, the
// file's bytes.
type Exporter interface {
	Export() (format string, runs int, file []byte, err error)
}

// Counts are how many tasks and runs a domain ships.
type Counts struct{ Tasks, Runs int }

// A TurnGoals domain is one whose user revises the goal turn by turn
// (BFCL's), each turn's goal version what gold has changed by its end:
// where gold has changed nothing public, the version holds only a
// predicate that always holds (vacuous). tasks validate counts those turns
// apart from the goals.
type TurnGoals interface {
	// VacuousTurns says of each user turn of a task whether its goal
	// version is vacuous.
	VacuousTurns(t *Task) []bool
}

// A Counter is a domain that states how many tasks and runs it ships, so
// that a listing of the domains derives no task and reads no run file:
// the counts are facts about the files the domain embeds, stated beside
// its registration, and domains/all's TestCounts holds every Counter's to
// len(Tasks()) and len(Runs()).
type Counter interface {
	Counts() Counts
}

// CountsOf is how many tasks and runs a domain ships: a Counter's counts,
// else its tasks and runs loaded and counted.
func CountsOf(d Domain) (Counts, error) {
	if c, ok := d.(Counter); ok {
		return c.Counts(), nil
	}
	ts, err := d.Tasks()
	if err != nil {
		return Counts{}, err
	}
	rs, err := d.Runs()
	if err != nil {
		return Counts{}, err
	}
	return Counts{Tasks: len(ts), Runs: len(rs)}, nil
}

// Showcase is a run of a domain worth walking through (parthack demo): a
// failed run whose benchmark evaluator Target a witness within Edits
// edits that ends in exactly the run's state inflates.
type Showcase struct {
	Task, Run string // the task's id, the run's Short
	Target    string // the benchmark's evaluator the search inflates
	Edits     int
}

// A Showcaser is a domain that may name its Showcase; nil: none.
type Showcaser interface {
	Showcase() *Showcase
}

// Showcased is the first registered domain that names a showcase, and it.
func Showcased() (Domain, *Showcase, bool) {
	for _, d := range All() {
		if sc, ok := d.(Showcaser); ok {
			if s := sc.Showcase(); s != nil {
				return d, s, true
			}
		}
	}
	return nil, nil, false
}

// Format is a run-file format: a benchmark's, which may hold runs of any
// of its domains (a tau2 Results file names its own).
type Format struct {
	Name string // what `import NAME FILE` takes: "tau-bench", "tau2"
	// Help says in a sentence what a file of the format is.
	Help string
	// Stream reads a file's runs in order, each naming its domain, and
	// hands each to each as it is decoded, so memory is bounded by a run,
	// not the file. Errors name the file, the run and what was expected.
	Stream func(file string, r io.Reader, each func(i int, run *Run) error) error
	// Conform, for a format that records the benchmark's own results,
	// reads a file's runs as Stream does, handing each to each, and holds
	// every recorded result to the port's, run by run; nil for a format
	// that records none to hold.
	Conform func(file string, r io.Reader, each func(i int, run *Run) error) (*Conformance, error)
}

// Conformance is how much of what a benchmark recorded in a run file the
// port reproduces: each call's result, each run's reward, each check.
type Conformance struct {
	File         string  `json:"file"`
	Domain       string  `json:"domain"`
	Commit       string  `json:"git_commit,omitempty"` // the benchmark's commit that made the file
	Runs         int     `json:"runs"`
	Calls        int     `json:"calls"`
	CallsEqual   int     `json:"calls_equal"`
	RewardsEqual int     `json:"rewards_equal"`
	Checks       []Check `json:"checks"`
	Remapped     int     `json:"remapped"` // runs scored against another task than the file names
	// Ended counts the runs the benchmark ended itself before their
	// conversation did (a trajectory's Termination), by that reason: it
	// scores them 0 and bench leaves them out.
	Ended map[string]int `json:"ended,omitempty"`
	// Notes say once what the port leaves out of the file's scores (a
	// component an LLM judge decides), for the runs it concerns.
	Notes         []string       `json:"notes,omitempty"`
	Disagreements []Disagreement `json:"disagreements"`
	// Report, for a format whose benchmark records more than these
	// counts say (BFCL's turn-start snapshots and its verdicts), is the
	// format's own document of the file: the conformance's JSON is it.
	Report any `json:"-"`
}

// MarshalJSON writes the format's own report where it has one, else the
// counts.
func (c *Conformance) MarshalJSON() ([]byte, error) {
	if c.Report != nil {
		return json.Marshal(c.Report)
	}
	type counts Conformance
	return json.Marshal((*counts)(c))
}

// Check counts one kind of recorded check (db_match, action checks…) and
// those the port reproduces.
type Check struct {
	Name     string `json:"name"`
	Recorded int    `json:"recorded"`
	Equal    int    `json:"equal"`
}

// Disagreement is one recorded result the port computes differently.
type Disagreement struct {
	Run   string `json:"run"`
	Index int    `json:"index"`          // the run's position in the file
	Call  int    `json:"call,omitempty"` // from 1, when about a call
	What  string `json:"what"`
	Got   string `json:"port"`
	Want  string `json:"recorded"`
	Cause string `json:"cause"`
}

// Tool describes a tool of a domain.
type Tool struct {
	Name   string
	Params []Param
	Writes bool // the tool can change the state
}

// Param is a tool's argument.
type Param struct {
	Name     string
	Kind     string // "string", "integer", "number", "boolean", "array", "object"
	Required bool
}

// Reward is one of a benchmark's own evaluators, or one beside them (the
// field's, a user's scorer): Score is false when the payload carries no
// reference for it.
type Reward struct {
	Name, Label string
	Score       func(*payload.Payload) (float64, bool)
	// Fails, set in Score's place, is an evaluator that can fail on a
	// payload: a user's sandboxed scorer, which may crash, answer with
	// anything but a score in [0, 1] or run out of time. Its error names
	// the candidate and says why no score came; it costs that
	// evaluator's rows alone. It is a program with a past (one process
	// serves a whole run, and may fail on its Nth call), so the commands
	// ask it about one payload at a time, in an order the inputs alone
	// fix: its answers and failures are the same on every run.
	Fails func(*payload.Payload) (float64, error)
}

// Of is the reward's score of a payload: ok is false when the payload
// carries no reference for it, err is the evaluator's failure on it
// (Fails).
func (r *Reward) Of(p *payload.Payload) (v float64, ok bool, err error) {
	if r.Fails != nil {
		v, err = r.Fails(p)
		return v, err == nil, err
	}
	v, ok = r.Score(p)
	return v, ok, nil
}

var (
	mu       sync.RWMutex
	registry []Domain
	formats  []Format
)

// RegisterFormat adds a run-file format; it panics on a name registered
// twice.
func RegisterFormat(f Format) {
	mu.Lock()
	defer mu.Unlock()
	for _, o := range formats {
		if o.Name == f.Name {
			panic("domains: format " + f.Name + " registered twice")
		}
	}
	formats = append(formats, f)
	sort.Slice(formats, func(i, j int) bool { return formats[i].Name < formats[j].Name })
}

// Register adds a domain; it panics on a name registered twice, as the
// programming error it is.
func Register(d Domain) {
	mu.Lock()
	defer mu.Unlock()
	for _, o := range registry {
		if o.Name() == d.Name() {
			panic("domains: " + d.Name() + " registered twice")
		}
	}
	registry = append(registry, d)
	sort.Slice(registry, func(i, j int) bool { return registry[i].Name() < registry[j].Name() })
}

// All lists the registered domains by name.
func All() []Domain {
	mu.RLock()
	defer mu.RUnlock()
	return slices.Clone(registry)
}

// Names lists the registered domains' names.
func Names() []string {
	var out []string
	for _, d := range All() {
		out = append(out, d.Name())
	}
	return out
}

// Lookup finds a domain by name; the error lists the domains there are.
func Lookup(name string) (Domain, error) {
	for _, d := range All() {
		if d.Name() == name {
			return d, nil
		}
	}
	return nil, fmt.Errorf("%q is not a domain (there is %s)", name, strings.Join(Names(), ", "))
}

// Owner is the domain a task id belongs to, if any.
func Owner(taskID string) (Domain, bool) {
	for _, d := range All() {
		if d.Owns(taskID) {
			return d, true
		}
	}
	return nil, false
}

// FindTask finds a task by id in the domain that owns it.
func FindTask(id string) (Domain, *Task, error) {
	d, ok := Owner(id)
	if !ok {
		return nil, nil, fmt.Errorf("%q is no domain's task", id)
	}
	t, err := TaskOf(d, id)
	return d, t, err
}

// A Finder is a domain that derives one task alone, so that a command
// about one task derives none of the others.
type Finder interface {
	// Task is the task of that id, the one Tasks has; nil (and no error)
	// when the domain has no such task.
	Task(id string) (*Task, error)
}

// TaskOf finds a domain's task by id: a Finder's alone, else among its
// tasks.
func TaskOf(d Domain, id string) (*Task, error) {
	var ids []string
	if f, ok := d.(Finder); ok {
		t, err := f.Task(id)
		if err != nil || t != nil {
			return t, err
		}
		if ids, err = taskIDs(d); err != nil {
			return nil, err
		}
	} else {
		ts, err := d.Tasks()
		if err != nil {
			return nil, err
		}
		for _, t := range ts {
			if t.ID == id {
				return t, nil
			}
			ids = append(ids, t.ID)
		}
	}
	first, last := "", ""
	if len(ids) > 0 {
		first, last = ids[0], ids[len(ids)-1]
	}
	return nil, fmt.Errorf("%s has no task %q (its tasks are %s … %s)", d.Name(), id, first, last)
}

// taskIDs are a domain's task ids, in order: a Lister's from its rows.
func taskIDs(d Domain) ([]string, error) {
	var ids []string
	if l, ok := d.(Lister); ok {
		rows, err := l.TaskRows()
		for _, r := range rows {
			ids = append(ids, r.ID)
		}
		return ids, err
	}
	ts, err := d.Tasks()
	for _, t := range ts {
		ids = append(ids, t.ID)
	}
	return ids, err
}

// ErrNoRun is RunOf's error for a name that is none of the task's runs.
var ErrNoRun = errors.New("no such run")

// noRun is ErrNoRun with the runs the task has.
type noRun struct{ msg string }

func (e *noRun) Error() string        { return e.msg }
func (e *noRun) Is(target error) bool { return target == ErrNoRun }

// DefaultHonest is the run a task's H is when none is named, in every
// command and in the workbench: the first of its runs, in runs' order,
// that the benchmark scores below 1 (an honest run that did not finish,
// what partial credit is about), else its first run; nil when the task
// has none, and then H is its gold run.
func DefaultHonest(runs []*Run, task string) *Run {
	var first *Run
	for _, r := range runs {
		if r.Task != task {
			continue
		}
		if r.Reward < 1 {
			return r
		}
		if first == nil {
			first = r
		}
	}
	return first
}

// RunOf finds one of a task's runs by name: its short name ("trial2") or
// its full one.
func RunOf(d Domain, task, name string) (*Run, error) {
	runs, err := d.Runs()
	if err != nil {
		return nil, err
	}
	var names []string
	for _, r := range runs {
		if r.Name == name && r.Task != task {
			return nil, fmt.Errorf("run %s is of task %s, not %s", r.Name, r.Task, task)
		}
		if r.Task != task {
			continue
		}
		if r.Short == name || r.Name == name {
			return r, nil
		}
		names = append(names, r.Short)
	}
	return nil, &noRun{fmt.Sprintf("%s has no run %q (it has gold, %s; or give a file, or a name in the store)", task, name, strings.Join(names, ", "))}
}

// FormatNames lists the registered run-file formats.
func FormatNames() []string {
	mu.RLock()
	defer mu.RUnlock()
	var out []string
	for _, f := range formats {
		out = append(out, f.Name)
	}
	return out
}

// FormatOf finds a run-file format by name; the error lists those there are.
func FormatOf(name string) (Format, error) {
	mu.RLock()
	defer mu.RUnlock()
	var names []string
	for _, f := range formats {
		if f.Name == name {
			return f, nil
		}
		names = append(names, f.Name)
	}
	return Format{}, fmt.Errorf("%q is not a format parthack reads (there is %s)", name, strings.Join(names, ", "))
}

// ReadRuns reads a domain's runs from files in its benchmark's format
// (gzipped or not): all of them, each file whole, or an error naming the
// file and the run; a run of another domain is an error.
func ReadRuns(d Domain, files []string) ([]*Run, error) {
	f, err := FormatOf(d.Format())
	if err != nil {
		return nil, err
	}
	var out []*Run
	for _, file := range files {
		err := f.StreamFile(file, func(i int, r *Run) error {
			if r.Domain != d.Name() {
				return fmt.Errorf("%s: run %d (%s) is of %s, not %s", file, i, r.Name, r.Domain, d.Name())
			}
			out = append(out, r)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// StreamFile opens a run file (gzipped or not) and reads its runs with
// Stream. A gzipped file is read to its end, every checksum verified; an
// error in the text of one that is damaged is reported as its damage.
func (f Format) StreamFile(file string, each func(i int, run *Run) error) error {
	return f.read(file, func(in io.Reader) error { return f.Stream(file, in, each) })
}

// ConformFile is StreamFile with the runs held to what the benchmark
// recorded (Conform).
func (f Format) ConformFile(file string, each func(i int, run *Run) error) (c *Conformance, err error) {
	err = f.read(file, func(in io.Reader) error {
		c, err = f.Conform(file, in, each)
		return err
	})
	return c, err
}

func (f Format) read(file string, stream func(io.Reader) error) error {
	in, err := mapfile.Open(file)
	if err != nil {
		return err
	}
	defer in.Close()
	err = stream(in)
	if err != nil {
		if derr := mapfile.Damaged(in); derr != nil {
			return fmt.Errorf("%s: %w", file, derr)
		}
	}
	return err
}
