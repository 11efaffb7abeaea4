package model

import "fmt"

// A Domain is a world with tools, plugged into PB-CSTE: a real
// benchmark's database mapped to typed entities, and its tools as the
// agent's actions. A tool reads the state only through a StateView and
// either fails with the tool's own error text, changing nothing, or
// returns the primitive writes it makes, in order. The environment
// applies the writes as one event, so footprints, latest cause, the
// certified vectors and the payload are the ones every task shares.
type Domain interface {
	// Name is the domain's id, e.g. "tau-airline".
	Name() string
	// Call runs one tool. failure is the tool's error text ("" when the
	// call succeeds); output is what the tool returns to the agent.
	Call(v StateView, tool string, args Value) (writes []Action, output, failure string)
	// EndsEpisode reports whether a call of this tool ends the episode,
	// whatever its outcome (tau-bench's terminate_tools: the benchmark
	// stops the run there). No step of a trajectory of the domain may
	// follow such a call.
	EndsEpisode(tool string) bool
}

// Authoring is a domain whose benchmark has actors besides the agent who
// make calls in a run (tau2 telecom's user, on their phone). A step of
// such an actor is legal in a trajectory, runs the tool as that actor
// would, and is that actor's cause: the environment never credits the
// agent with it.
type Authoring interface {
	// Authors are the actors besides the agent whose steps a trajectory
	// of the domain may hold.
	Authors() []Actor
	// CallAs runs a tool as an actor calls it (the agent included): an
	// actor who has no such tool gets the benchmark's own error text.
	CallAs(v StateView, actor Actor, tool string, args Value) (writes []Action, output, failure string)
}

// Open is a domain whose benchmark runs whatever name the agent calls
// (BFCL evaluates each call as Python source): a call of a name outside
// the allowlist is a call the domain fails with the benchmark's own
// error text ("name 'x' is not defined"), not an illegal step.
type Open interface {
	OpenTools() bool
}

// MayCall reports whether the agent may call a tool in a task: the
// allowlist names it, or the task's domain is Open.
func MayCall(t *Task, tool string) bool {
	if t.Allowlist.AllowsTool(tool) {
		return true
	}
	o, ok := t.Domain.(Open)
	return ok && o.OpenTools()
}

// Sided is a domain whose state lies on more than one side (tau2
// telecom's: the agent's database and the user's phone). Side names the
// side an entity type lies on, for people ("the user's phone"); "" is
// the agent's own database.
type Sided interface {
	Side(entityType string) string
}

// MayAuthor reports whether a trajectory of the task may hold a step of
// the actor: the agent's always, another's where the task's domain has
// it among its authors.
func MayAuthor(t *Task, a Actor) bool {
	if a == "" || a == ActorAgent {
		return true
	}
	if t == nil || t.Domain == nil {
		return false
	}
	au, ok := t.Domain.(Authoring)
	if !ok {
		return false
	}
	for _, x := range au.Authors() {
		if x == a {
			return true
		}
	}
	return false
}

// EpisodeEnd is the index of the step of steps that ended the episode
// under the task's domain, and whether one did. A trajectory of the
// domain has no step after it.
func EpisodeEnd(t *Task, steps []Step) (int, bool) {
	if t == nil || t.Domain == nil {
		return 0, false
	}
	for i := range steps {
		if steps[i].Op == OpCall && t.Domain.EndsEpisode(steps[i].Tool) {
			return i, true
		}
	}
	return 0, false
}

// CheckEpisode refuses a trajectory with a step after the call that ended
// its episode, naming both steps (numbered from 1).
func CheckEpisode(t *Task, steps []Step) error {
	if end, ok := EpisodeEnd(t, steps); ok && end < len(steps)-1 {
		next := &steps[end+1]
		what := string(next.Op) + " " + next.Type + " " + next.ID
		if next.Op == OpCall {
			what = "call of " + next.Tool
		}
		return &EpisodeError{Domain: t.Domain.Name(), End: end + 1, Tool: steps[end].Tool, Step: end + 2, Line: next.Line, Next: what}
	}
	return nil
}

// EpisodeError is a step after the end of an episode.
type EpisodeError struct {
	Domain string
	End    int    // the step that ended the episode, from 1
	Tool   string // its tool
	Step   int    // the first step after it, from 1
	Next   string // what that step does
	Line   int    // that step's line in its file, 0 when built in memory
}

func (e *EpisodeError) Error() string {
	return fmt.Sprintf("step %d (%s) comes after step %d, a call of %s, which ends the episode in %s: no step may follow it",
		e.Step, e.Next, e.End, e.Tool, e.Domain)
}

// StateView is read-only access to one state, as a domain's tools see it.
type StateView interface {
	// Alive reports whether an entity exists and is not deleted.
	Alive(typ, id string) bool
	// Field reads a field of an alive entity; false when the entity is
	// missing or deleted.
	Field(typ, id, field string) (Value, bool)
}

// A RecordView is a StateView that also reads an alive entity's fields
// at once: its values in its type's schema order, each what Field reads
// (a copy the caller may keep); false when the entity is missing or
// deleted. A tool that reads a whole record asks once, not per field.
type RecordView interface {
	StateView
	Fields(typ, id string) ([]Value, bool)
}

// An AliasView is a RecordView that also reads an alive entity's fields
// without copying them: FieldsAlias appends what Fields reads to dst, its
// strings sharing the state's own bytes, valid only until the state is
// next written. It is for a read that looks the values up and keeps none
// past the call (a tool's read of the cells it decodes through a cache):
// what outlives the call must be a copy, and dst is the caller's to
// reuse.
type AliasView interface {
	RecordView
	FieldsAlias(dst []Value, typ, id string) ([]Value, bool)
}

// Entities reads a snapshot's entities as a state (a field an entity
// does not list reads as null); it holds es, which must not change.
func Entities(es []Entity) StateView {
	v := entitiesView{}
	for i := range es {
		v[[2]string{es[i].Type, es[i].ID}] = &es[i]
	}
	return v
}

type entitiesView map[[2]string]*Entity

func (v entitiesView) Alive(typ, id string) bool {
	e, ok := v[[2]string{typ, id}]
	return ok && !e.Deleted
}

func (v entitiesView) Field(typ, id, field string) (Value, bool) {
	e, ok := v[[2]string{typ, id}]
	if !ok || e.Deleted {
		return Null, false
	}
	for _, a := range e.Fields {
		if a.Field == field {
			return a.Value, true
		}
	}
	return Null, true
}

// Changed is a state read as another with some cells changed: a gold
// run's end, read as the start plus its net changes (After of each cell).
func Changed(base StateView, cells []CellDiff) StateView { return &changedView{base, cells} }

type changedView struct {
	base  StateView
	cells []CellDiff
}

func (c *changedView) Alive(typ, id string) bool {
	for _, d := range c.cells {
		if d.Type == typ && d.ID == id && d.Field == AliveField {
			return d.After.AsBool()
		}
	}
	return c.base.Alive(typ, id)
}

func (c *changedView) Field(typ, id, f string) (Value, bool) {
	if !c.Alive(typ, id) {
		return Null, false
	}
	for _, d := range c.cells {
		if d.Type == typ && d.ID == id && d.Field == f {
			return d.After, true
		}
	}
	return c.base.Field(typ, id, f)
}
