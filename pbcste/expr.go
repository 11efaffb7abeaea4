package pbcste

import (
	"fmt"

	"github.com/parthack/parthack/model"
)

// cexpr is a predicate expression with names resolved to indices.
type cexpr struct {
	kind      model.ExprKind
	typ       int
	id        string
	field     int
	cmp       model.Cmp
	value     model.Value
	values    []model.Value
	where     []ccond
	n         int64
	count     int // index into State.counts, for count expressions
	target    string
	targetTyp int
	args      []*cexpr
}

type ccond struct {
	field  int
	cmp    model.Cmp
	value  model.Value
	values []model.Value
}

func (env *Env) compileExpr(e *model.Expr) (*cexpr, error) {
	c := &cexpr{kind: e.Kind, id: e.ID, cmp: e.Cmp, value: e.Value, values: e.Values, n: e.N, target: e.Target}
	switch e.Kind {
	case model.ExprAll, model.ExprAny, model.ExprNot:
		for i := range e.Args {
			sub, err := env.compileExpr(&e.Args[i])
			if err != nil {
				return nil, err
			}
			c.args = append(c.args, sub)
		}
		return c, nil
	}
	ti, ok := env.typeIdx[e.Type]
	if !ok {
		return nil, fmt.Errorf("unknown entity type %q", e.Type)
	}
	c.typ = ti
	field := func(name string) (int, error) {
		fi, ok := env.types[ti].fieldIdx[name]
		if !ok {
			return 0, fmt.Errorf("entity type %s has no field %q", e.Type, name)
		}
		return fi, nil
	}
	var err error
	switch e.Kind {
	case model.ExprField:
		c.field, err = field(e.Field)
	case model.ExprRef:
		if c.field, err = field(e.Field); err == nil {
			fd := &env.types[ti].fields[c.field]
			if fd.Kind != model.KindRef {
				return nil, fmt.Errorf("field %s.%s is not a reference", e.Type, e.Field)
			}
			c.targetTyp = env.typeIdx[fd.Target]
		}
	case model.ExprCount:
		for _, w := range e.Where {
			fi, err := field(w.Field)
			if err != nil {
				return nil, err
			}
			c.where = append(c.where, ccond{field: fi, cmp: w.Cmp, value: w.Value, values: w.Values})
		}
		c.count = len(env.counts)
		env.counts = append(env.counts, c)
	case model.ExprAlive, model.ExprAbsent:
	default:
		err = fmt.Errorf("unknown expression kind %q", e.Kind)
	}
	return c, err
}

func (c *cexpr) matchWhere(e *entity) bool {
	for _, w := range c.where {
		if !model.Compare(e.fields[w.field], w.cmp, w.value, w.values) {
			return false
		}
	}
	return true
}

// eval evaluates the expression on alive entities only: a deleted or
// missing entity fails every field comparison and is skipped by counts.
func (c *cexpr) eval(s *State) bool {
	switch c.kind {
	case model.ExprAll:
		for _, a := range c.args {
			if !a.eval(s) {
				return false
			}
		}
		return true
	case model.ExprAny:
		for _, a := range c.args {
			if a.eval(s) {
				return true
			}
		}
		return false
	case model.ExprNot:
		return !c.args[0].eval(s)
	case model.ExprCount:
		return model.CompareInt(s.counts[c.count], c.cmp, c.n)
	}
	slot, ok := s.lookup(c.typ, c.id)
	alive := ok && s.ent(slot).alive
	switch c.kind {
	case model.ExprAlive:
		return alive
	case model.ExprAbsent:
		return !alive
	case model.ExprField:
		return alive && model.Compare(s.ent(slot).fields[c.field], c.cmp, c.value, c.values)
	case model.ExprRef:
		if !alive {
			return false
		}
		ref := s.ent(slot).fields[c.field]
		if ref.Kind() != model.StringValue || (c.target != "" && ref.AsString() != c.target) {
			return false
		}
		r, ok := s.lookup(c.targetTyp, ref.AsString())
		return ok && s.ent(r).alive
	}
	return false
}

// Eval evaluates a compiled predicate on a state.
func (s *State) Eval(p *Pred) bool { return p.expr.eval(s) }

// footprint is the set of cells a predicate reads, as field masks (bit 0
// the alive flag, bit f+1 field f): per named entity, and per type for
// reads of every entity of a type.
type footprint struct {
	cells  map[entKey]uint64
	byType map[int]uint64
}

func newFootprint() footprint {
	return footprint{cells: map[entKey]uint64{}, byType: map[int]uint64{}}
}

func bit(field int) uint64 { return 1 << uint(field+1) }

func (c *cexpr) footprint(f *footprint) {
	switch c.kind {
	case model.ExprAll, model.ExprAny, model.ExprNot:
		for _, a := range c.args {
			a.footprint(f)
		}
	case model.ExprAlive, model.ExprAbsent:
		f.cells[entKey{c.typ, c.id}] |= bit(aliveField)
	case model.ExprField:
		f.cells[entKey{c.typ, c.id}] |= bit(aliveField) | bit(c.field)
	case model.ExprCount:
		m := bit(aliveField)
		for _, w := range c.where {
			m |= bit(w.field)
		}
		f.byType[c.typ] |= m
	case model.ExprRef:
		f.cells[entKey{c.typ, c.id}] |= bit(aliveField) | bit(c.field)
		// Which entity is referenced is known only at run time, so the
		// alive flag of every entity of the target type is read; a named
		// target narrows that to one entity.
		if c.target != "" {
			f.cells[entKey{c.targetTyp, c.target}] |= bit(aliveField)
		} else {
			f.byType[c.targetTyp] |= bit(aliveField)
		}
	}
}
