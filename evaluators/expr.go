package evaluators

import (
	"fmt"

	"github.com/parthack/parthack/model"
)

// cexpr is a public predicate expression with its names resolved against
// the payload's schema. The semantics are PB-CSTE's (SPEC §3a): predicates
// see alive entities only, a field comparison on a deleted or missing
// entity is false, counts skip deleted entities.
type cexpr struct {
	kind      model.ExprKind
	typ       int
	id        string
	slot      int32 // the named entity's slot once it has one; -1 before
	field     int
	cmp       model.Cmp
	value     model.Value
	values    []model.Value
	where     []ccond
	n         int64
	count     int // index into engine.counts, for a count
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

func (e *engine) compile(x *model.Expr) (*cexpr, error) {
	c := &cexpr{kind: x.Kind, id: x.ID, slot: -1, cmp: x.Cmp, value: x.Value, values: x.Values, n: x.N, target: x.Target}
	switch x.Kind {
	case model.ExprAll, model.ExprAny, model.ExprNot:
		if len(x.Args) == 0 || (x.Kind == model.ExprNot && len(x.Args) != 1) {
			return nil, fmt.Errorf("%s with %d arguments", x.Kind, len(x.Args))
		}
		for i := range x.Args {
			sub, err := e.compile(&x.Args[i])
			if err != nil {
				return nil, err
			}
			c.args = append(c.args, sub)
		}
		return c, nil
	}
	ti, ok := e.typeIdx[x.Type]
	if !ok {
		return nil, fmt.Errorf("undeclared type %q", x.Type)
	}
	c.typ = ti
	field := func(name string) (int, error) {
		fi, ok := e.types[ti].fieldIdx[name]
		if !ok {
			return 0, fmt.Errorf("type %s has no field %q", x.Type, name)
		}
		return fi, nil
	}
	var err error
	switch x.Kind {
	case model.ExprField:
		c.field, err = field(x.Field)
	case model.ExprRef:
		c.field, err = field(x.Field)
		if err == nil {
			c.targetTyp, err = e.refTarget(ti, c.field)
		}
	case model.ExprCount:
		for _, w := range x.Where {
			fi, err := field(w.Field)
			if err != nil {
				return nil, err
			}
			c.where = append(c.where, ccond{field: fi, cmp: w.Cmp, value: w.Value, values: w.Values})
		}
		c.count = len(e.counts)
		e.counts = append(e.counts, c)
		e.total = append(e.total, 0)
		e.types[ti].counts = append(e.types[ti].counts, c.count)
	case model.ExprAlive, model.ExprAbsent:
	default:
		err = fmt.Errorf("unknown expression kind %q", x.Kind)
	}
	return c, err
}

// refTarget is the type a reference field points to.
func (e *engine) refTarget(typ, field int) (int, error) {
	t := e.types[typ].targets[field]
	if t < 0 {
		return 0, fmt.Errorf("field %d of type %s is not a reference", field, e.types[typ].name)
	}
	return t, nil
}

func (c *cexpr) matchWhere(s *ent) bool {
	for _, w := range c.where {
		if !model.Compare(s.fields[w.field], w.cmp, w.value, w.values) {
			return false
		}
	}
	return true
}

// named finds the alive entity a field, alive, absent or ref expression
// names, remembering its slot once it has one.
func (c *cexpr) named(e *engine) (*ent, bool) {
	if c.slot < 0 {
		s, ok := e.types[c.typ].slots[c.id]
		if !ok {
			return nil, false
		}
		c.slot = s
	}
	s := &e.ents[c.slot]
	return s, s.exists && s.alive
}

func (c *cexpr) eval(e *engine) bool {
	switch c.kind {
	case model.ExprAll:
		for _, a := range c.args {
			if !a.eval(e) {
				return false
			}
		}
		return true
	case model.ExprAny:
		for _, a := range c.args {
			if a.eval(e) {
				return true
			}
		}
		return false
	case model.ExprNot:
		return !c.args[0].eval(e)
	case model.ExprCount:
		return model.CompareInt(e.total[c.count], c.cmp, c.n)
	}
	s, alive := c.named(e)
	switch c.kind {
	case model.ExprAlive:
		return alive
	case model.ExprAbsent:
		return !alive
	case model.ExprField:
		return alive && model.Compare(s.fields[c.field], c.cmp, c.value, c.values)
	case model.ExprRef:
		if !alive {
			return false
		}
		ref := s.fields[c.field]
		if ref.Kind() != model.StringValue || (c.target != "" && ref.AsString() != c.target) {
			return false
		}
		t, ok := e.lookup(c.targetTyp, ref.AsString())
		return ok && e.ents[t].alive
	}
	return false
}

// footprint is the set of cells a predicate reads (SPEC §3a), as field
// masks: per named entity, and per type for reads of every entity of it.
type footprint struct {
	cells  map[entKey]uint64
	byType map[int]uint64
}

func (c *cexpr) footprint(f *footprint) {
	switch c.kind {
	case model.ExprAll, model.ExprAny, model.ExprNot:
		for _, a := range c.args {
			a.footprint(f)
		}
	case model.ExprAlive, model.ExprAbsent:
		f.cells[entKey{c.typ, c.id}] |= aliveBit
	case model.ExprField:
		f.cells[entKey{c.typ, c.id}] |= aliveBit | fieldBit(c.field)
	case model.ExprCount:
		m := uint64(aliveBit)
		for _, w := range c.where {
			m |= fieldBit(w.field)
		}
		f.byType[c.typ] |= m
	case model.ExprRef:
		f.cells[entKey{c.typ, c.id}] |= aliveBit | fieldBit(c.field)
		// Which entity is referenced is known only from the state, so a
		// reference without a named target reads the alive flag of every
		// entity of the target type.
		if c.target != "" {
			f.cells[entKey{c.targetTyp, c.target}] |= aliveBit
		} else {
			f.byType[c.targetTyp] |= aliveBit
		}
	}
}
