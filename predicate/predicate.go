// Package predicate is PB-CSTE's one predicate engine (SPEC §3a): it
// compiles a model.Expr against a schema, evaluates it over a read-only
// view of a state, and states its footprint, the cells it reads. The
// environment (pbcste) evaluates predicates on the trusted state and the
// evaluators on the public state they rebuild from a payload; the
// package imports only model, so an evaluator can use it without seeing
// anything sealed.
//
// Predicates see alive entities only: a field comparison, a reference or
// alive on a deleted or missing entity is false, absent is true, and
// counts skip deleted entities.
package predicate

import (
	"fmt"

	"github.com/parthack/parthack/model"
)

// Schema resolves an expression's names to the indices a View reads by.
type Schema interface {
	// TypeIndex is the index of the entity type named name.
	TypeIndex(name string) (int, bool)
	// FieldIndex is the index of field name of type typ.
	FieldIndex(typ int, name string) (int, bool)
	// RefTarget is the type that reference field field of type typ points
	// to; false when the field is not a reference.
	RefTarget(typ, field int) (int, bool)
}

// View is a read-only state: the only way an expression reads one.
type View interface {
	// Lookup finds the slot of an entity that exists, alive or deleted.
	Lookup(typ int, id string) (slot int32, ok bool)
	// Alive reports whether the entity in slot is alive.
	Alive(slot int32) bool
	// Field is the value of field field of the entity in slot.
	Field(slot int32, field int) model.Value
	// Count is the running total of count expression i (see Compile):
	// the alive entities of its type its filter matches. A state keeps it
	// current with Expr.Matches as entities change.
	Count(i int) int64
}

// Expr is a compiled predicate expression, names resolved to indices. It
// is never changed once compiled, so it may be evaluated on many views at
// once.
type Expr struct {
	kind      model.ExprKind
	typ       int
	id        string
	field     int
	cmp       model.Cmp
	value     model.Value
	values    []model.Value
	where     []cond
	n         int64
	count     int // the count expression's index, for View.Count
	target    string
	targetTyp int
	args      []*Expr
}

type cond struct {
	field  int
	cmp    model.Cmp
	value  model.Value
	values []model.Value
}

// Compile resolves x against s. Every count expression in x is passed to
// addCount, in order, which returns the index View.Count will report its
// total under.
func Compile(x *model.Expr, s Schema, addCount func(*Expr) int) (*Expr, error) {
	c := &Expr{kind: x.Kind, id: x.ID, cmp: x.Cmp, value: x.Value, values: x.Values, n: x.N, target: x.Target}
	switch x.Kind {
	case model.ExprAll, model.ExprAny, model.ExprNot:
		if len(x.Args) == 0 || (x.Kind == model.ExprNot && len(x.Args) != 1) {
			return nil, fmt.Errorf("%s with %d arguments", x.Kind, len(x.Args))
		}
		for i := range x.Args {
			sub, err := Compile(&x.Args[i], s, addCount)
			if err != nil {
				return nil, err
			}
			c.args = append(c.args, sub)
		}
		return c, nil
	}
	ti, ok := s.TypeIndex(x.Type)
	if !ok {
		return nil, fmt.Errorf("unknown entity type %q", x.Type)
	}
	c.typ = ti
	field := func(name string) (int, error) {
		fi, ok := s.FieldIndex(ti, name)
		if !ok {
			return 0, fmt.Errorf("entity type %s has no field %q", x.Type, name)
		}
		return fi, nil
	}
	var err error
	switch x.Kind {
	case model.ExprField:
		c.field, err = field(x.Field)
	case model.ExprRef:
		if c.field, err = field(x.Field); err == nil {
			if c.targetTyp, ok = s.RefTarget(ti, c.field); !ok {
				return nil, fmt.Errorf("field %s.%s is not a reference", x.Type, x.Field)
			}
		}
	case model.ExprCount:
		for _, w := range x.Where {
			fi, err := field(w.Field)
			if err != nil {
				return nil, err
			}
			c.where = append(c.where, cond{field: fi, cmp: w.Cmp, value: w.Value, values: w.Values})
		}
		c.count = addCount(c)
	case model.ExprAlive, model.ExprAbsent:
	default:
		err = fmt.Errorf("unknown expression kind %q", x.Kind)
	}
	return c, err
}

// Type is the entity type a count expression counts (or any leaf
// expression names).
func (c *Expr) Type() int { return c.typ }

// Fields are an entity's field values by index, as a count expression's
// filter reads them: only the fields it names are read.
type Fields interface {
	Field(f int) model.Value
}

// Values are fields held in a slice.
type Values []model.Value

// Field is field f.
func (v Values) Field(f int) model.Value { return v[f] }

// Matches reports whether an entity with these field values passes a
// count expression's filter.
func (c *Expr) Matches(fields Fields) bool {
	for _, w := range c.where {
		if !model.Compare(fields.Field(w.field), w.cmp, w.value, w.values) {
			return false
		}
	}
	return true
}

// Eval evaluates the expression on v.
func (c *Expr) Eval(v View) bool {
	switch c.kind {
	case model.ExprAll:
		for _, a := range c.args {
			if !a.Eval(v) {
				return false
			}
		}
		return true
	case model.ExprAny:
		for _, a := range c.args {
			if a.Eval(v) {
				return true
			}
		}
		return false
	case model.ExprNot:
		return !c.args[0].Eval(v)
	case model.ExprCount:
		return model.CompareInt(v.Count(c.count), c.cmp, c.n)
	}
	slot, ok := v.Lookup(c.typ, c.id)
	alive := ok && v.Alive(slot)
	switch c.kind {
	case model.ExprAlive:
		return alive
	case model.ExprAbsent:
		return !alive
	case model.ExprField:
		return alive && model.Compare(v.Field(slot, c.field), c.cmp, c.value, c.values)
	case model.ExprRef:
		if !alive {
			return false
		}
		ref := v.Field(slot, c.field)
		if ref.Kind() != model.StringValue || (c.target != "" && ref.AsString() != c.target) {
			return false
		}
		r, ok := v.Lookup(c.targetTyp, ref.AsString())
		return ok && v.Alive(r)
	}
	return false
}

// AliveField is the field index of the alive flag in footprints (and in
// the environment's diffs).
const AliveField = -1

// Bit is the footprint mask bit of field f: bit 0 for AliveField, bit
// f+1 for field f.
func Bit(f int) uint64 { return 1 << uint(f+1) }

// Key names an entity: its type's index and its id.
type Key struct {
	Type int
	ID   string
}

// Footprint is the set of cells a predicate reads, as field masks (Bit):
// per named entity, and per type for reads of every entity of a type.
type Footprint struct {
	Cells  map[Key]uint64
	ByType map[int]uint64
}

// Footprint is the expression's footprint.
func (c *Expr) Footprint() Footprint {
	f := Footprint{Cells: map[Key]uint64{}, ByType: map[int]uint64{}}
	c.footprint(&f)
	return f
}

func (c *Expr) footprint(f *Footprint) {
	switch c.kind {
	case model.ExprAll, model.ExprAny, model.ExprNot:
		for _, a := range c.args {
			a.footprint(f)
		}
	case model.ExprAlive, model.ExprAbsent:
		f.Cells[Key{c.typ, c.id}] |= Bit(AliveField)
	case model.ExprField:
		f.Cells[Key{c.typ, c.id}] |= Bit(AliveField) | Bit(c.field)
	case model.ExprCount:
		m := Bit(AliveField)
		for _, w := range c.where {
			m |= Bit(w.field)
		}
		f.ByType[c.typ] |= m
	case model.ExprRef:
		f.Cells[Key{c.typ, c.id}] |= Bit(AliveField) | Bit(c.field)
		// Which entity is referenced is known only from the state, so a
		// reference without a named target reads the alive flag of every
		// entity of the target type; a named target narrows that to one.
		if c.target != "" {
			f.Cells[Key{c.targetTyp, c.target}] |= Bit(AliveField)
		} else {
			f.ByType[c.targetTyp] |= Bit(AliveField)
		}
	}
}

// names is a Schema read off a model.Schema: types and fields by their
// positions in it.
type names struct {
	types  map[string]int
	fields []map[string]int
	refs   [][]int // per type and field: the target type, -1 for a field that is not a reference
}

// SchemaOf is s as a Schema: a type's index is its position in s.Types,
// a field's its position in the type's Fields.
func SchemaOf(s *model.Schema) Schema {
	n := &names{types: map[string]int{}, fields: make([]map[string]int, len(s.Types)), refs: make([][]int, len(s.Types))}
	for i, t := range s.Types {
		n.types[t.Name] = i
	}
	for i, t := range s.Types {
		n.fields[i] = map[string]int{}
		for j, f := range t.Fields {
			n.fields[i][f.Name] = j
			target := -1
			if ti, ok := n.types[f.Target]; ok && f.Kind == model.KindRef {
				target = ti
			}
			n.refs[i] = append(n.refs[i], target)
		}
	}
	return n
}

func (n *names) TypeIndex(name string) (int, bool) {
	i, ok := n.types[name]
	return i, ok
}

func (n *names) FieldIndex(typ int, name string) (int, bool) {
	f, ok := n.fields[typ][name]
	return f, ok
}

func (n *names) RefTarget(typ, field int) (int, bool) {
	t := n.refs[typ][field]
	return t, t >= 0
}
