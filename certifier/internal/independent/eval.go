package independent

import "github.com/parthack/parthack/model"

// holds evaluates the predicate on the world. Only alive entities are
// seen: a comparison on a deleted or missing entity is false, counts skip
// deleted entities. It runs once per predicate, at the end, so it
// resolves names as it goes.
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
		e := w.find(x.Type, x.ID)
		return e != nil && e.alive && test(e.value(w.sc.fieldOf(e.typ, x.Field)), x.Cmp, x.Value, x.Values)
	case model.ExprRef:
		e := w.find(x.Type, x.ID)
		if e == nil || !e.alive {
			return false
		}
		v := e.value(w.sc.fieldOf(e.typ, x.Field))
		if v.Kind() != model.StringValue {
			return false
		}
		if x.Target != "" && x.Target != v.AsString() {
			return false
		}
		return w.isAlive(refTarget(w.sc, x), v.AsString())
	case model.ExprCount:
		n := int64(0)
		if t := w.sc.typeOf(x.Type); t >= 0 {
			w.each(t, func(e *entity) {
				if e.alive && w.matches(e, x.Where) {
					n++
				}
			})
		}
		return order(n, x.Cmp, x.N)
	}
	return false
}

// refTarget is the entity type a ref expression's field points to, ""
// when its field is not a reference of the schema.
func refTarget(sc *schema, x *model.Expr) string {
	if t := sc.typeOf(x.Type); t >= 0 {
		if f := sc.fieldOf(t, x.Field); f >= 0 {
			return sc.types[t].Fields[f].Target
		}
	}
	return ""
}

func (w *world) matches(e *entity, where []model.Cond) bool {
	for _, c := range where {
		if !test(e.value(w.sc.fieldOf(e.typ, c.Field)), c.Cmp, c.Value, c.Values) {
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
