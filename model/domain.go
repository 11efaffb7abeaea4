package model

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
}

// StateView is read-only access to one state, as a domain's tools see it.
type StateView interface {
	// Alive reports whether an entity exists and is not deleted.
	Alive(typ, id string) bool
	// Field reads a field of an alive entity; false when the entity is
	// missing or deleted.
	Field(typ, id, field string) (Value, bool)
}
