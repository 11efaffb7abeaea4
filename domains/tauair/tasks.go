package tauair

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
)

// Task is one of tau-bench's 50 airline test tasks as a PB-CSTE task: its
// goal is the gold run's net change to the database.
type Task struct {
	Index int    // tau-bench's task index, 0–49
	ID    string // "TAU-A07"
	Gold  *Gold
	// Task is the PB-CSTE task. Nothing in it is hidden from evaluators:
	// tau-bench publishes its tasks, so public and Oracle are one.
	Task *model.Task
	// GoldTrajectory is the gold run's calls as agent steps.
	GoldTrajectory *model.Trajectory
	// Changes are the gold run's net changes, cell by cell.
	Changes []model.CellDiff

	envOnce sync.Once
	env     *pbcste.Env
	envErr  error
}

// Env is the task compiled for replay, once.
func (t *Task) Env() (*pbcste.Env, error) {
	t.envOnce.Do(func() { t.env, t.envErr = pbcste.Compile(t.Task) })
	return t.env, t.envErr
}

// M is the number of goal predicates; 0 when the gold run changes nothing.
func (t *Task) M() int { return len(t.Task.Goals[0].Predicates) }

// TaskID names tau-bench's task i.
func TaskID(i int) string { return fmt.Sprintf("TAU-A%02d", i) }

var tasksOnce = sync.OnceValues(deriveTasks)

// Tasks derives the 50 tasks once; callers must not change them.
func Tasks() ([]*Task, error) { return tasksOnce() }

// ByID finds a task by its id ("TAU-A07") or tau-bench index ("7").
func ByID(id string) (*Task, error) {
	ts, err := Tasks()
	if err != nil {
		return nil, err
	}
	for _, t := range ts {
		if t.ID == id || fmt.Sprint(t.Index) == id {
			return t, nil
		}
	}
	return nil, fmt.Errorf("no tau-airline task %q (TAU-A00 … TAU-A%02d)", id, len(ts)-1)
}

func deriveTasks() ([]*Task, error) {
	db, err := Load()
	if err != nil {
		return nil, err
	}
	golds, err := GoldRuns()
	if err != nil {
		return nil, err
	}
	base := BaseTask(db)
	env, err := pbcste.Compile(base)
	if err != nil {
		return nil, err
	}
	// The tasks are derived side by side (each gold run replayed in the
	// one environment), and kept in order; the error is the first task's.
	out := make([]*Task, len(golds))
	errs := make([]error, len(golds))
	var wg sync.WaitGroup
	for i := range golds {
		wg.Go(func() { out[i], errs[i] = derive(base, env, &golds[i]) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("tau-airline task %d: %w", golds[i].TaskID, err)
		}
	}
	return out, nil
}

// derive makes one task from its gold run.
func derive(base *model.Task, env *pbcste.Env, g *Gold) (*Task, error) {
	t := &Task{Index: g.TaskID, ID: TaskID(g.TaskID), Gold: g}
	tr := &model.Trajectory{Task: t.ID, Name: "gold", Note: "tau-bench's gold actions for this task"}
	for i := range g.Steps {
		st, err := StepOf(&g.Steps[i], i)
		if err != nil {
			return nil, err
		}
		tr.Steps = append(tr.Steps, st)
	}
	t.GoldTrajectory = tr
	log := env.Replay(tr.Steps)
	for i := range log.Events {
		if !log.Events[i].OK {
			return nil, fmt.Errorf("gold call %d (%s) fails: %s", i+1, tr.Steps[i].Tool, log.Reason(&log.Events[i]))
		}
	}
	t.Changes = log.NetChanges()
	task := *base
	task.ID = t.ID
	task.Title = fmt.Sprintf("tau-bench airline task %d (user %s)", g.TaskID, g.UserID)
	task.Instruction = g.Instruction
	task.Goals = []model.GoalVersion{{Version: "v1", Predicates: goalOf(t.Changes)}}
	task.Reference = &model.Reference{Changes: t.Changes, Outputs: g.Outputs}
	// tau-bench's gold actions, for the field's evaluators that read them
	// (tau2's port of these tasks compares every argument: compare_args null).
	for _, st := range tr.Steps {
		task.Reference.Actions = append(task.Reference.Actions, model.RefCall{Requestor: "assistant", Tool: st.Tool, Args: st.Args, AllArgs: true})
	}
	t.Task = &task
	return t, nil
}

// goalOf groups net changes into predicates: one per created, cancelled
// or used-up record and one per other changed field. A user's reservation
// list grows only by bookings, so "the list holds it" joins the booking.
func goalOf(changes []model.CellDiff) []model.Predicate {
	type ent struct{ typ, id string }
	var order []ent
	cells := map[ent]map[string]model.CellDiff{}
	for _, c := range changes {
		e := ent{c.Type, c.ID}
		if cells[e] == nil {
			cells[e] = map[string]model.CellDiff{}
			order = append(order, e)
		}
		cells[e][c.Field] = c
	}
	created := func(e ent) bool {
		c, ok := cells[e][model.AliveField]
		return ok && c.After.AsBool()
	}
	var preds []model.Predicate
	add := func(id, text string, x model.Expr) {
		preds = append(preds, model.Predicate{ID: id, Text: text, Expr: x})
	}
	eq := func(e ent, field string, v model.Value) model.Expr {
		return model.Expr{Kind: model.ExprField, Type: e.typ, ID: e.id, Field: field, Cmp: model.CmpEq, Value: v}
	}
	for _, e := range order {
		cs := cells[e]
		switch {
		case e.typ == TypeReservation && created(e):
			args := []model.Expr{{Kind: model.ExprAlive, Type: e.typ, ID: e.id}}
			et, _ := schema.Type(TypeReservation)
			for _, fd := range et.Fields {
				switch v := cs[fd.Name].After; {
				case !v.IsNull():
					args = append(args, eq(e, fd.Name, v))
				case fd.Name == "status": // booked, not cancelled since
					args = append(args, model.Expr{Kind: model.ExprField, Type: e.typ, ID: e.id, Field: "status", Cmp: model.CmpNe, Value: model.Str("cancelled")})
				}
			}
			user := cs["user_id"].After.AsString()
			args = append(args, model.Expr{Kind: model.ExprField, Type: TypeUser, ID: user, Field: "reservations", Cmp: model.CmpContains, Value: model.Str(e.id)})
			add("book-"+e.id, describeBooking(e.id, cs), model.Expr{Kind: model.ExprAll, Args: args})
		case e.typ == TypeReservation && cs["status"].After.AsString() == "cancelled":
			args := []model.Expr{eq(e, "status", model.Str("cancelled"))}
			if ph, ok := cs["payment_history"]; ok {
				args = append(args, eq(e, "payment_history", ph.After))
			}
			add("cancel-"+e.id, fmt.Sprintf("reservation %s is cancelled and its payments refunded", e.id), model.Expr{Kind: model.ExprAll, Args: args})
		case e.typ == TypePaymentMethod && created(e):
			pm := cs["id"].After.AsString()
			add("certificate-"+pm, fmt.Sprintf("user %s has certificate %s worth %s", cs["user"].After.AsString(), pm, cs["amount"].After),
				model.Expr{Kind: model.ExprAll, Args: []model.Expr{{Kind: model.ExprAlive, Type: e.typ, ID: e.id}, eq(e, "source", cs["source"].After), eq(e, "amount", cs["amount"].After)}})
		case e.typ == TypePaymentMethod && cs[model.AliveField].Before.AsBool():
			add("used-"+pmName(e.id), fmt.Sprintf("payment method %s is used up", pmName(e.id)), model.Expr{Kind: model.ExprAbsent, Type: e.typ, ID: e.id})
		default:
			for _, f := range sortedFields(cs) {
				c := cs[f]
				if e.typ == TypeUser && f == "reservations" && folded(c, func(id string) bool { return created(ent{TypeReservation, id}) }) {
					continue
				}
				add(f+"-"+shortID(e), describeField(e.typ, e.id, f, c.After), eq(e, f, c.After))
			}
		}
	}
	return preds
}

// folded reports whether a reservation list grew only by new bookings,
// each of which has its own predicate.
func folded(c model.CellDiff, booked func(string) bool) bool {
	before, after := c.Before.AsList(), c.After.AsList()
	if len(after) < len(before) || !slices.Equal(after[:len(before)], before) {
		return false
	}
	for _, id := range after[len(before):] {
		if !booked(id) {
			return false
		}
	}
	return true
}

func sortedFields(cs map[string]model.CellDiff) []string {
	var out []string
	for f := range cs {
		out = append(out, f)
	}
	slices.Sort(out)
	return out
}

func pmName(id string) string { _, pm, _ := strings.Cut(id, "/"); return pm }

func shortID(e struct{ typ, id string }) string {
	if e.typ == TypePaymentMethod {
		return pmName(e.id)
	}
	return e.id
}

// describeBooking is the public text of a booking predicate.
func describeBooking(id string, cs map[string]model.CellDiff) string {
	var legs []string
	if fl, ok := jsonOf(cs["flights"].After).([]any); ok {
		for _, x := range fl {
			m, _ := x.(map[string]any)
			legs = append(legs, fmt.Sprintf("%v %v", m["flight_number"], m["date"]))
		}
	}
	pax := 0
	if ps, ok := jsonOf(cs["passengers"].After).([]any); ok {
		pax = len(ps)
	}
	return fmt.Sprintf("reservation %s is booked for user %s: %s→%s %s in %s on %s, %d passenger(s), %s bag(s) (%s non-free), insurance %s, paid as agreed",
		id, cs["user_id"].After.AsString(), cs["origin"].After.AsString(), cs["destination"].After.AsString(), cs["flight_type"].After.AsString(),
		cs["cabin"].After.AsString(), strings.Join(legs, ", "), pax, cs["total_baggages"].After, cs["nonfree_baggages"].After, cs["insurance"].After.AsString())
}

// describeField is the public text of a one-field predicate.
func describeField(typ, id, field string, v model.Value) string {
	switch {
	case typ == TypeReservation && field == "flights":
		var legs []string
		if fl, ok := jsonOf(v).([]any); ok {
			for _, x := range fl {
				m, _ := x.(map[string]any)
				legs = append(legs, fmt.Sprintf("%v %v", m["flight_number"], m["date"]))
			}
		}
		return fmt.Sprintf("reservation %s flies %s", id, strings.Join(legs, ", "))
	case typ == TypeReservation && field == "payment_history":
		return fmt.Sprintf("reservation %s's payment history is %s", id, v)
	case typ == TypeReservation && field == "passengers":
		return fmt.Sprintf("reservation %s's passengers are %s", id, v)
	case typ == TypeReservation:
		return fmt.Sprintf("reservation %s has %s = %s", id, field, v)
	case typ == TypePaymentMethod && field == "amount":
		return fmt.Sprintf("%s has a balance of %s", pmName(id), v)
	}
	return fmt.Sprintf("%s %s has %s = %s", typ, id, field, v)
}
