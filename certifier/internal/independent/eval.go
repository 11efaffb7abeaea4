package independent

import "github.com/parthack/parthack/model"

// holds evaluates the predicate on the world. Only alive entities are
// seen: a comparison on a deleted or missing entity is false, counts skip
// deleted entities.
func (w *world) holds(x *model.Expr) bool {
	switch x.Kind {
	case model.ExprAll:
		for i := range x.Args {
			if !w.holds(&x.Args[i]) {
				return false
			}
		}
		return true
	case model.ExprAny:
		for i := range x.Args {
			if w.holds(&x.Args[i]) {
				return true
			}
		}
		return false
	case model.ExprNot:
		return len(x.Args) > 0 && !w.holds(&x.Args[0])
	case model.ExprAlive:
		return w.isAlive(x.Type, x.ID)
	case model.ExprAbsent:
		return !w.isAlive(x.Type, x.ID)
	case model.ExprField:
		e := w.get(x.Type, x.ID)
		return e != nil && e.alive && test(e.fields[x.Field], x.Cmp, x.Value, x.Values)
	case model.ExprRef:
		e := w.get(x.Type, x.ID)
		if e == nil || !e.alive {
			return false
		}
		v := e.fields[x.Field]
		if v.Kind() != model.StringValue {
			return false
		}
		if x.Target != "" && x.Target != v.AsString() {
			return false
		}
		return w.isAlive(w.refTarget(x), v.AsString())
	case model.ExprCount:
		n := int64(0)
		w.each(x.Type, func(_ string, e *entity) {
			if e.alive && w.matches(e, x.Where) {
				n++
			}
		})
		return order(n, x.Cmp, x.N)
	}
	return false
}

// refTarget is the entity type a ref expression's field points to.
func (w *world) refTarget(x *model.Expr) string {
	if et, ok := w.task.Schema.Type(x.Type); ok {
		if fd, ok := et.Field(x.Field); ok {
			return fd.Target
		}
	}
	return ""
}

func (w *world) matches(e *entity, where []model.Cond) bool {
	for _, c := range where {
		if !test(e.fields[c.Field], c.Cmp, c.Value, c.Values) {
			return false
		}
	}
	return true
}

// test compares a field value. eq and ne compare whole typed values, so
// a null field satisfies ne and nothing else; the ordering comparisons
// hold only between ints.
func test(v model.Value, cmp model.Cmp, want model.Value, wants []model.Value) bool {
	switch cmp {
	case model.CmpEq:
		return v.Equal(want)
	case model.CmpNe:
		return !v.Equal(want)
	case model.CmpIn:
		for _, x := range wants {
			if v.Equal(x) {
				return true
			}
		}
		return false
	case model.CmpContains:
		if v.Kind() != model.ListValue {
			return false
		}
		for _, s := range v.AsList() {
			if s == want.AsString() {
				return true
			}
		}
		return false
	case model.CmpLt, model.CmpLe, model.CmpGt, model.CmpGe:
		return v.Kind() == model.IntValue && want.Kind() == model.IntValue && order(v.AsInt(), cmp, want.AsInt())
	}
	return false
}

func order(a int64, cmp model.Cmp, b int64) bool {
	switch cmp {
	case model.CmpEq:
		return a == b
	case model.CmpNe:
		return a != b
	case model.CmpLt:
		return a < b
	case model.CmpLe:
		return a <= b
	case model.CmpGt:
		return a > b
	case model.CmpGe:
		return a >= b
	}
	return false
}

// reads lists the cells of entity (typ, id) that x's evaluation reads,
// as field names with model.AliveField for the alive flag, appended to
// out. A field comparison reads the entity's alive flag and field; alive
// and absent the flag; a ref the referring entity's flag and field and
// its target's flag (every entity of the target type when no target id
// is named, since which one is read depends on the state); a count, for
// every entity of its type, the flag and the fields of the filter.
func (w *world) reads(x *model.Expr, typ, id string, out []string) []string {
	switch x.Kind {
	case model.ExprAll, model.ExprAny, model.ExprNot:
		for i := range x.Args {
			out = w.reads(&x.Args[i], typ, id, out)
		}
	case model.ExprAlive, model.ExprAbsent:
		if x.Type == typ && x.ID == id {
			out = append(out, model.AliveField)
		}
	case model.ExprField, model.ExprRef:
		if x.Type == typ && x.ID == id {
			out = append(out, model.AliveField, x.Field)
		}
		if x.Kind == model.ExprRef && w.refTarget(x) == typ && (x.Target == "" || x.Target == id) {
			out = append(out, model.AliveField)
		}
	case model.ExprCount:
		if x.Type == typ {
			out = append(out, model.AliveField)
			for _, c := range x.Where {
				out = append(out, c.Field)
			}
		}
	}
	return out
}

// cellValue reads one cell. An entity that never existed reads as not
// alive with null fields; a tombstone keeps its fields.
func (w *world) cellValue(typ, id, field string) model.Value {
	e := w.get(typ, id)
	if field == model.AliveField {
		return model.Bool(e != nil && e.alive)
	}
	if e == nil {
		return model.Null
	}
	return e.fields[field]
}

// cell names one cell a predicate reads.
type cell struct{ typ, id, field string }
