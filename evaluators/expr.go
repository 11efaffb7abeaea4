package evaluators

import (
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/predicate"
)

// The engine is the schema and the read-only state view the predicate
// engine (package predicate, the environment's own) compiles and
// evaluates public predicates with: the semantics are PB-CSTE's by
// construction, over the public state the payload rebuilds.

func (e *engine) TypeIndex(name string) (int, bool) {
	i, ok := e.typeIdx[name]
	return i, ok
}

func (e *engine) FieldIndex(typ int, name string) (int, bool) {
	f, ok := e.types[typ].fieldIdx[name]
	return f, ok
}

func (e *engine) RefTarget(typ, field int) (int, bool) {
	t := e.types[typ].targets[field]
	return t, t >= 0
}

func (e *engine) Lookup(typ int, id string) (int32, bool) { return e.lookup(typ, id) }
func (e *engine) Alive(slot int32) bool                   { return e.ents[slot].alive }
func (e *engine) Field(slot int32, f int) model.Value     { return e.ents[slot].fields[f] }
func (e *engine) Count(i int) int64                       { return e.total[i] }

// compile compiles a public predicate expression; its count expressions
// get running totals, kept by recount.
func (e *engine) compile(x *model.Expr) (*predicate.Expr, error) {
	return predicate.Compile(x, e, func(c *predicate.Expr) int {
		i := len(e.counts)
		e.counts = append(e.counts, c)
		e.total = append(e.total, 0)
		e.types[c.Type()].counts = append(e.types[c.Type()].counts, i)
		return i
	})
}
