package pbcste

import (
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/predicate"
)

// compileExpr compiles a predicate expression against the task's schema
// (types and fields by position, as env.types holds them); its count
// expressions join env.counts, which every state keeps totals of.
func (env *Env) compileExpr(names predicate.Schema, e *model.Expr) (*predicate.Expr, error) {
	return predicate.Compile(e, names, func(c *predicate.Expr) int {
		reads := c.Footprint().ByType[c.Type()]
		if reads == 0 { // not a count node after all: refresh it on every write
			reads = ^uint64(0)
		}
		env.counts = append(env.counts, c)
		env.countReads = append(env.countReads, reads)
		return len(env.counts) - 1
	})
}

// predView is a state as the predicate engine reads it.
type predView State

func (v *predView) Lookup(typ int, id string) (int32, bool) { return (*State)(v).lookup(typ, id) }
func (v *predView) Alive(slot int32) bool                   { return (*State)(v).rec(slot).alive() }
func (v *predView) Field(slot int32, f int) model.Value     { return (*State)(v).field(slot, f, true) }
func (v *predView) Count(i int) int64                       { return v.counts[i] }

// Eval evaluates a compiled predicate on a state.
func (s *State) Eval(p *Pred) bool { return p.expr.Eval((*predView)(s)) }

// bit is the footprint and diff mask bit of field f (predicate.Bit).
func bit(field int) uint64 { return predicate.Bit(field) }
