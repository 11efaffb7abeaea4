package bfcl

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/parthack/parthack/domains"
	"github.com/parthack/parthack/domains/bfcl/classes"
	"github.com/parthack/parthack/domains/bfcl/pyval"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
)

// Task is one BFCL multi-turn entry as a PB-CSTE task. Its goal has one
// version per user turn (turn-0, turn-1, …; BFCL's turn index): the
// public state gold's calls reach by the end of that turn, cell by cell
// (the net changes of gold's turns so far), so each user turn revises
// what the user wants, as the paper's GoalPatch family does.
type Task struct {
	Entry *Entry
	World *World
	Task  *model.Task
	// Gold is gold's calls, each turn started by the user's step.
	Gold *model.Trajectory
	// TurnChanges are gold's net changes by the end of each turn.
	TurnChanges [][]model.CellDiff

	envOnce sync.Once
	env     *pbcste.Env
	envErr  error
}

// Env is the task compiled for replay, once.
func (t *Task) Env() (*pbcste.Env, error) {
	t.envOnce.Do(func() { t.env, t.envErr = pbcste.Compile(t.Task) })
	return t.env, t.envErr
}

// Turns is the number of the entry's user turns.
func (t *Task) Turns() int { return len(t.Entry.GroundTruth) }

// UserStep is the user's step that starts turn i.
func UserStep(turn int) model.Step {
	return model.Step{Actor: model.ActorUser, Action: model.Action{Op: model.OpCall, Tool: UserTurn,
		Args: model.MustJSON(fmt.Sprintf(`{"turn":%d}`, turn))}}
}

// Derive makes the task of an entry: its world, gold's calls as a
// trajectory (positional arguments bound to their names, as Python binds
// them), and a goal version per turn from gold's state at its end.
func Derive(e *Entry) (*Task, error) {
	w, schema, initial, err := NewWorld(e.ID, e.InvolvedClasses, e.InitialConfig)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", e.ID, err)
	}
	turns := len(e.GroundTruth)
	if turns == 0 {
		return nil, fmt.Errorf("%s: no turn", e.ID)
	}
	t := &Task{Entry: e, World: w}
	for turn, fs := range e.MissedFunction {
		for _, f := range fs {
			if w.offered == nil {
				w.offered = map[string]int{}
			}
			w.offered[f] = turn
		}
	}
	base := &model.Task{ID: e.ID, Title: title(e), Instruction: instruction(e), Schema: schema, Initial: initial, Domain: w}
	base.Allowlist.Tools = w.Tools()
	base.Allowlist.Ops = []model.Op{model.OpCall}
	base.Allowlist.Fields = map[string][]string{}
	for _, et := range schema.Types {
		for _, f := range et.Fields {
			base.Allowlist.Fields[et.Name] = append(base.Allowlist.Fields[et.Name], f.Name)
		}
	}
	for i := 0; i < turns; i++ {
		base.Goals = append(base.Goals, model.GoalVersion{Version: GoalVersion(i)})
	}
	gold := &model.Trajectory{Task: e.ID, Name: "gold", Note: "BFCL's ground truth for " + e.ID}
	var ends []int // the number of gold's steps by the end of each turn
	for i, calls := range e.GroundTruth {
		gold.Steps = append(gold.Steps, UserStep(i))
		for j, src := range calls {
			st, err := goldStep(w, src)
			if err != nil {
				return nil, fmt.Errorf("%s: ground_truth[%d][%d] %q: %w", e.ID, i, j, src, err)
			}
			gold.Steps = append(gold.Steps, st)
		}
		ends = append(ends, len(gold.Steps))
	}
	for i := range gold.Steps {
		gold.Steps[i].Index = i
	}
	env, err := pbcste.Compile(base)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", e.ID, err)
	}
	// One replay of gold: each turn's net changes are those of the steps
	// by its end (a replay of that prefix alone makes the same events).
	for i, ch := range netChangesAt(env.Replay(gold.Steps), ends) {
		ch = public(ch)
		t.TurnChanges = append(t.TurnChanges, ch)
		base.Goals[i].Predicates = goalOf(ch)
	}
	// The reference the field's evaluators read (domains.FieldRewards):
	// gold's net changes by its last turn, and its calls as the actions
	// a run should make (every argument compared).
	ref := &model.Reference{Changes: t.TurnChanges[turns-1], Outputs: []string{}}
	for i := range gold.Steps {
		if st := &gold.Steps[i]; st.Actor != model.ActorUser {
			ref.Actions = append(ref.Actions, model.RefCall{Requestor: "assistant", Tool: st.Tool, Args: st.Args, AllArgs: true})
		}
	}
	base.Reference = ref
	// A turn by whose end gold has changed nothing has no goal predicate
	// of its own; PB-CSTE's payload wants one: it gets one that always
	// holds (there is nothing to make progress on yet).
	t.Task, t.Gold = vacuous(base), gold
	return t, nil
}

// goldStep is one gold call string as a step of the agent.
func goldStep(w *World, src string) (model.Step, error) {
	call, err := classes.ParseCall(src)
	if err != nil {
		return model.Step{}, err
	}
	c, ok := w.owner[call.Method]
	if !ok {
		return model.Step{}, fmt.Errorf("no involved class has %s", call.Method)
	}
	if _, err := classes.Bind(c, call.Method, call); err != nil {
		return model.Step{}, err
	}
	args := pyval.NewDict()
	m := c.Methods[call.Method]
	for i, a := range call.Args {
		args.Set(m.Params[i].Name, a)
	}
	for _, kw := range call.Kwargs {
		args.Set(kw.Key, kw.Value)
	}
	text, err := pyval.Dumps(args)
	if err != nil {
		return model.Step{}, err
	}
	v, err := model.FromJSON([]byte(text))
	if err != nil {
		return model.Step{}, err
	}
	return model.Step{Action: model.Action{Op: model.OpCall, Tool: call.Method, Args: v}}, nil
}

// netChangesAt is, for each count of steps in ends (ascending), the log's
// net changes by the end of that many steps: pbcste's NetChanges of the
// replay of that prefix (the cells in the order they were first changed,
// each with its initial value and its last, those back at their initial
// value left out). A BFCL task has no script: event i is step i.
func netChangesAt(log *pbcste.Log, ends []int) [][]model.CellDiff {
	type key struct{ typ, id, field string }
	first := map[key]int{}
	var cells []model.CellDiff
	out := make([][]model.CellDiff, 0, len(ends))
	var diff []model.CellDiff
	for i := 0; len(out) < len(ends); i++ {
		for len(out) < len(ends) && ends[len(out)] == i {
			out = append(out, slices.DeleteFunc(slices.Clone(cells), func(c model.CellDiff) bool { return c.Before.Equal(c.After) }))
		}
		if i == len(log.Events) {
			break
		}
		diff = log.AppendTypedDiff(diff[:0], &log.Events[i])
		for _, c := range diff {
			k := key{c.Type, c.ID, c.Field}
			if j, ok := first[k]; ok {
				cells[j].After = c.After
				continue
			}
			first[k] = len(cells)
			cells = append(cells, c)
		}
	}
	return out
}

// public keeps the changes to public attributes: BFCL's state check
// skips names that start with "_" (and the goal version is no attribute).
func public(ch []model.CellDiff) []model.CellDiff {
	return slices.DeleteFunc(ch, func(c model.CellDiff) bool { return c.Type == "" || strings.HasPrefix(c.Field, "_") })
}

// goalOf makes one predicate per changed attribute: it holds gold's value.
func goalOf(changes []model.CellDiff) []model.Predicate {
	var preds []model.Predicate
	for _, c := range changes {
		preds = append(preds, model.Predicate{ID: c.Type + "." + c.Field, Text: fmt.Sprintf("%s.%s is as gold leaves it", c.Type, c.Field),
			Expr: model.Expr{Kind: model.ExprField, Type: c.Type, ID: c.ID, Field: c.Field, Cmp: model.CmpEq, Value: c.After}})
	}
	return preds
}

// vacuous is a copy of t whose goal versions without a predicate hold one
// that always holds (the first entity is alive or absent): the public
// payload holds no empty goal, and a turn by whose end gold has changed
// nothing (reads, an irrelevant request) has no predicate.
func vacuous(t *model.Task) *model.Task {
	c := *t
	c.Goals = slices.Clone(t.Goals)
	for i := range c.Goals {
		if len(c.Goals[i].Predicates) > 0 {
			continue
		}
		var e model.Expr
		if len(t.Initial) > 0 {
			x := &t.Initial[0]
			e = model.Expr{Kind: model.ExprAny, Args: []model.Expr{{Kind: model.ExprAlive, Type: x.Type, ID: x.ID}, {Kind: model.ExprAbsent, Type: x.Type, ID: x.ID}}}
		}
		c.Goals[i].Predicates = []model.Predicate{{ID: vacuousID, Text: "always holds", Expr: e}}
	}
	return &c
}

// vacuousID names the predicate that always holds; a predicate of a
// changed attribute is named Class.attribute.
const vacuousID = "vacuous"

// VacuousTurns says of each user turn of a task whether its goal version
// is vacuous: by the turn's end gold has changed no public attribute, so
// the version holds only the predicate that always holds. tasks validate
// counts those turns, and a task whose last turn's is, apart from the
// goals.
func (domain) VacuousTurns(t *domains.Task) []bool {
	out := make([]bool, len(t.Model.Goals))
	for i, g := range t.Model.Goals {
		out[i] = len(g.Predicates) == 1 && g.Predicates[0].ID == vacuousID
	}
	return out
}

// Tools are the public methods of the involved classes, sorted.
func (w *World) Tools() []string {
	out := make([]string, 0, len(w.owner))
	for m := range w.owner {
		out = append(out, m)
	}
	sort.Strings(out)
	return out
}

func title(e *Entry) string {
	return fmt.Sprintf("BFCL %s (%s)", e.ID, strings.Join(e.InvolvedClasses, ", "))
}

// instruction is the user's turns, as the model read them.
func instruction(e *Entry) string {
	var b strings.Builder
	for i, turn := range e.Question {
		for _, m := range turn {
			fmt.Fprintf(&b, "turn %d: %s\n", i, m.Content)
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}
