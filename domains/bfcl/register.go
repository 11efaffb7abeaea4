// Package bfcl is the Berkeley Function Calling Leaderboard's multi-turn
// categories (v4: base, miss_func, miss_param) as a parthack domain:
// BFCL's eight classes ported call by call (classes, over pyval's Python
// values), each entry a task whose goal is revised at every user turn,
// its result files read as runs, and its official checker ported as
// evaluators. BFCL's data ship inside the package under its Apache-2.0
// licence (data/LICENSE, data/NOTICE); its runs carry no licence and
// ship with no domain: bench and import read the user's own files.
package bfcl

import (
	_ "embed"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/parthack/parthack/domains"
	"github.com/parthack/parthack/domains/bfcl/classes"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
)

// DomainName is the domain's id.
const DomainName = "bfcl-multi-turn"

func init() {
	domains.Register(domain{})
}

// domain is BFCL multi-turn as the registry knows it.
type domain struct{}

func (domain) Name() string  { return DomainName }
func (domain) Title() string { return "BFCL multi-turn (v4)" }

// Owns: BFCL's own ids, multi_turn_base_0.
func (domain) Owns(id string) bool { return strings.HasPrefix(id, "multi_turn_") }

func (domain) Format() string { return FormatName }

// Counts: the 600 entries; no run ships (BFCL's runs carry no licence).
func (domain) Counts() domains.Counts { return domains.Counts{Tasks: 600} }

func (domain) Runs() ([]*domains.Run, error) { return nil, nil }

func (domain) Rewards() []domains.Reward { return Rewards() }

// entryTask is an entry's task, derived the first time it is asked for:
// a command about one entry (replay, validate, an import of some of the
// entries) derives that one alone.
type entryTask struct {
	entry *Entry
	once  sync.Once
	task  *Task
	reg   *domains.Task // the task as the registry knows it
	err   error
}

func (l *entryTask) get() (*Task, *domains.Task, error) {
	l.once.Do(func() {
		if l.task, l.err = Derive(l.entry); l.err == nil {
			l.reg = l.task.registryTask()
		}
	})
	return l.task, l.reg, l.err
}

// entryIndex is every entry's task, in Entries' order and by id.
type entryIndex struct {
	all  []*entryTask
	byID map[string]*entryTask
}

// entryTasks are every entry's task, none derived yet.
var entryTasks = sync.OnceValues(func() (*entryIndex, error) {
	es, err := Entries()
	if err != nil {
		return nil, err
	}
	x := &entryIndex{byID: make(map[string]*entryTask, len(es))}
	for _, e := range es {
		l := &entryTask{entry: e}
		x.all = append(x.all, l)
		x.byID[e.ID] = l
	}
	return x, nil
})

// TaskByID is an entry's task, derived the first time it is asked for.
func TaskByID(id string) (*Task, bool) {
	ts, err := entryTasks()
	if err != nil {
		return nil, false
	}
	l, ok := ts.byID[id]
	if !ok {
		return nil, false
	}
	t, _, err := l.get()
	return t, err == nil
}

// registryTasks are every entry's task as the registry knows it, derived
// on every core; the first entry whose derivation fails names the error.
var registryTasks = sync.OnceValues(func() ([]*domains.Task, error) {
	ts, err := entryTasks()
	if err != nil {
		return nil, err
	}
	out := make([]*domains.Task, len(ts.all))
	errs := make([]error, len(ts.all))
	onEveryCore(len(ts.all), func(i int) { _, out[i], errs[i] = ts.all[i].get() })
	if err := firstErr(errs); err != nil {
		return nil, err
	}
	return out, nil
})

func (domain) Tasks() ([]*domains.Task, error) { return registryTasks() }

// Task derives one entry's task alone (domains.Finder).
func (domain) Task(id string) (*domains.Task, error) {
	ts, err := entryTasks()
	if err != nil {
		return nil, err
	}
	l, ok := ts.byID[id]
	if !ok {
		return nil, nil
	}
	_, t, err := l.get()
	return t, err
}

// taskRows are the rows of the entries' tasks (domains.Lister), as
// domains/all's TestTaskRows writes them.
//
//go:embed taskrows.json
var taskRows []byte

const rowsFile = "domains/bfcl/taskrows.json"

var statedRows = domains.StatedRows(rowsFile, taskRows)

func (domain) TaskRows() ([]domains.TaskRow, error) { return statedRows() }
func (domain) RowsFile() string                     { return rowsFile }

// registryTask is the task as the registry knows it.
func (t *Task) registryTask() *domains.Task {
	e := t.Entry
	summary := fmt.Sprintf("%d turns; classes %s", t.Turns(), strings.Join(e.InvolvedClasses, ", "))
	turns := make([]int, 0, len(e.MissedFunction))
	for turn := range e.MissedFunction {
		turns = append(turns, turn)
	}
	slices.Sort(turns)
	for _, turn := range turns {
		summary += fmt.Sprintf("; %s offered from turn %d", strings.Join(e.MissedFunction[turn], ", "), turn)
	}
	var silent []string
	for i, gold := range e.GroundTruth {
		if len(gold) == 0 {
			silent = append(silent, strconv.Itoa(i))
		}
	}
	if len(silent) > 0 {
		summary += "; gold makes no call in turn " + strings.Join(silent, ", ") + " (BFCL checks no state there)"
	}
	if why := e.Unrunnable(); why != "" {
		summary += "; BFCL's inference cannot run it: " + why
	}
	return &domains.Task{ID: e.ID, Title: t.Task.Title, Family: "BFCL " + e.Category, Summary: summary,
		Model: t.Task, Gold: t.Gold, Env: t.Env,
		AttackTask: func(h *model.Trajectory, _ model.StateView) *model.Task { return t.AttackTask(h) },
		Reward: func(log *pbcste.Log, tr *model.Trajectory) float64 {
			p, err := t.Payload(log, tr)
			if err != nil {
				return 0
			}
			v, ok := PayloadVerdict(p)
			return b2f(ok && v.Valid)
		},
		Payload:     t.Payload,
		GoldPasses:  true,
		GoldMayFail: true,
		// A turn by whose end gold has changed nothing holds a predicate
		// that always holds (vacuous).
		GoalMayHoldAtStart: true,
	}
}

// classNames are BFCL's eight multi-turn classes, in its docs' order.
var classNames = []string{"GorillaFileSystem", "MathAPI", "MessageAPI", "TwitterAPI", "TicketAPI", "TradingBot", "TravelAPI", "VehicleControlAPI"}

// kinds maps BFCL's parameter types to the editors' JSON kinds.
var kinds = map[string]string{"string": "string", "integer": "integer", "float": "number", "boolean": "boolean", "array": "array", "dict": "object"}

// Tools are every class's functions as BFCL's docs offer them; a
// stateless class's (MathAPI's) write nothing.
func (domain) Tools() []domains.Tool {
	var out []domains.Tool
	for _, class := range classNames {
		docs, err := FuncDocs(class)
		if err != nil {
			return nil
		}
		c, _ := classes.Lookup(class)
		for _, d := range docs {
			t := domains.Tool{Name: d.Name, Writes: c == nil || !c.Stateless}
			if d.Parameters != nil {
				for _, p := range d.Parameters.Properties {
					t.Params = append(t.Params, domains.Param{Name: p.Name, Kind: kinds[p.Schema.Type], Required: slices.Contains(d.Parameters.Required, p.Name)})
				}
			}
			out = append(out, t)
		}
	}
	return out
}
