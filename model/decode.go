package model

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// File formats. A task file:
//
//	{
//	  "$schema": "…/schema/task.schema.json",   optional, for editors
//	  "format": "parthack.task/1",              optional
//	  "id": "EX-01", "title": "…", "instruction": "…",
//	  "schema": {"ticket": {"status": {"kind": "enum", "values": ["open", "closed"]},
//	                        "assignee": {"kind": "ref", "target": "user"},
//	                        "title": "string", "tags": "strings", "priority": "int"}},
//	  "initial": [{"type": "ticket", "id": "T1", "fields": {"status": "open"}, "deleted": false}],
//	  "allowlist": {"ops": ["create", "update"], "fields": {"ticket": ["status"]}},
//	     or per type: {"types": {"ticket": {"ops": ["update"], "fields": ["status"]},
//	                             "grant": {"ops": ["delete"]}}}
//	  "goals": [{"version": "v1", "predicates": [{"id": "g1", "text": "…", "expr": {…}}]}],
//	  "script": [{"after": 2, "actor": "user", "op": "revise_goal", "goal": "v2"}],
//	  "alphabet": {"ticket": {"ids": ["T1"], "fields": {"status": ["open", "closed"]}}}
//	}
//
// Expressions have exactly one key: {"field": {"type","id","field","cmp","value"|"values"}},
// {"alive": {"type","id"}}, {"absent": {"type","id"}},
// {"count": {"type","where":[{"field","cmp","value"|"values"}],"cmp","n"}},
// {"ref": {"type","id","field","target"?}}, {"all": [...]}, {"any": [...]}, {"not": {...}}.
//
// A trajectory file:
//
//	{
//	  "$schema": "…/schema/trajectory.schema.json", optional, for editors
//	  "format": "parthack.trajectory/1",        optional
//	  "task": "EX-01", "name": "…", "note": "…",
//	  "goal_version": "v2",                      optional claim about the end
//	  "honest": "gpt-4.1",                       optional: the run of the task this is a witness of
//	  "steps": [{"op": "update", "type": "ticket", "id": "T1", "fields": {"status": "closed"},
//	             "actor": "agent", "step": 1, "comment": "…",
//	             "claim": {"ok": true, "state_hash": "…", "diff": [{"type","id","field","before","after"}]}}],
//	  "transcript": [{"role": "user", "content": "…", "step": 1}],     optional conversation
//	  "termination_reason": "max_steps",         optional: the benchmark ended the run itself
//	  "max_errors": 10,                          optional: the failed calls that would have ended it
//	  "max_steps": 200, "benchmark_steps": 37    optional: the benchmark's bound on its steps, and the run's
//	}
const (
	TaskFormat       = "parthack.task/1"
	TrajectoryFormat = "parthack.trajectory/1"
)

// DecodeTask strictly decodes and checks a task file. file names the
// source in error messages.
func DecodeTask(file string, src []byte) (*Task, error) {
	d, err := parseDoc(file, src)
	if err != nil {
		return nil, err
	}
	return decodeTask(d.cur())
}

func decodeTask(c cursor) (*Task, error) {
	o, err := c.object("$schema", "format", "id", "title", "instruction", "schema", "initial", "allowlist", "goals", "script", "alphabet")
	if err != nil {
		return nil, err
	}
	if err := checkFormat(o, TaskFormat); err != nil {
		return nil, err
	}
	t := &Task{}
	if t.ID, err = needString(o, "id"); err != nil {
		return nil, err
	}
	if f, ok := o.get("title"); ok {
		if t.Title, err = f.str(); err != nil {
			return nil, err
		}
	}
	if f, ok := o.get("instruction"); ok {
		if t.Instruction, err = f.str(); err != nil {
			return nil, err
		}
	}
	sc, err := o.need("schema")
	if err != nil {
		return nil, err
	}
	if t.Schema, err = decodeSchema(sc); err != nil {
		return nil, err
	}
	if f, ok := o.get("initial"); ok {
		if t.Initial, err = decodeInitial(f, &t.Schema); err != nil {
			return nil, err
		}
	}
	al, err := o.need("allowlist")
	if err != nil {
		return nil, err
	}
	if t.Allowlist, err = decodeAllowlist(al, &t.Schema); err != nil {
		return nil, err
	}
	gs, err := o.need("goals")
	if err != nil {
		return nil, err
	}
	if t.Goals, err = decodeGoals(gs, &t.Schema); err != nil {
		return nil, err
	}
	if f, ok := o.get("script"); ok {
		if t.Script, err = decodeScript(f, t); err != nil {
			return nil, err
		}
	}
	if f, ok := o.get("alphabet"); ok {
		if t.Alphabet, err = decodeAlphabet(f, &t.Schema); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// checkFormat checks the optional "format" member and the optional
// "$schema" member, which names the file's JSON Schema for editors and
// means nothing to the decoder beyond being a string.
func checkFormat(o object, want string) error {
	if f, ok := o.get("$schema"); ok {
		if _, err := f.nonEmptyStr(); err != nil {
			return err
		}
	}
	if f, ok := o.get("format"); ok {
		if _, err := f.oneOf(want); err != nil {
			return err
		}
	}
	return nil
}

func needString(o object, key string) (string, error) {
	c, err := o.need(key)
	if err != nil {
		return "", err
	}
	return c.nonEmptyStr()
}

var fieldKinds = []string{string(KindString), string(KindInt), string(KindBool), string(KindEnum), string(KindRef), string(KindStrings), string(KindJSON)}

func decodeSchema(c cursor) (Schema, error) {
	names, vals, err := c.entries()
	if err != nil {
		return Schema{}, err
	}
	if len(names) == 0 {
		return Schema{}, c.fail("expected at least one entity type")
	}
	var s Schema
	for i, name := range names {
		if err := checkName(vals[i], name); err != nil {
			return Schema{}, err
		}
		fnames, fvals, err := vals[i].entries()
		if err != nil {
			return Schema{}, err
		}
		et := EntityType{Name: name}
		for j, fname := range fnames {
			if err := checkName(fvals[j], fname); err != nil {
				return Schema{}, err
			}
			fd := FieldDef{Name: fname}
			if fvals[j].n.kind == nodeString {
				k, err := fvals[j].oneOf(string(KindString), string(KindInt), string(KindBool), string(KindStrings), string(KindJSON))
				if err != nil {
					return Schema{}, err
				}
				fd.Kind = FieldKind(k)
			} else {
				fo, err := fvals[j].object("kind", "values", "target")
				if err != nil {
					return Schema{}, err
				}
				kc, err := fo.need("kind")
				if err != nil {
					return Schema{}, err
				}
				k, err := kc.oneOf(fieldKinds...)
				if err != nil {
					return Schema{}, err
				}
				fd.Kind = FieldKind(k)
				switch fd.Kind {
				case KindEnum:
					vc, err := fo.need("values")
					if err != nil {
						return Schema{}, err
					}
					if fd.Values, err = vc.strings(); err != nil {
						return Schema{}, err
					}
					if len(fd.Values) == 0 {
						return Schema{}, vc.fail("an enum needs at least one value")
					}
				case KindRef:
					tc, err := fo.need("target")
					if err != nil {
						return Schema{}, err
					}
					if fd.Target, err = tc.nonEmptyStr(); err != nil {
						return Schema{}, err
					}
				}
				for _, extra := range []string{"values", "target"} {
					if x, ok := fo.get(extra); ok && ((extra == "values") != (fd.Kind == KindEnum) || (extra == "target") != (fd.Kind == KindRef)) {
						return Schema{}, x.fail("%q does not apply to a %s field", extra, fd.Kind)
					}
				}
			}
			et.Fields = append(et.Fields, fd)
		}
		s.Types = append(s.Types, et)
	}
	for i, et := range s.Types {
		for j, fd := range et.Fields {
			if fd.Kind == KindRef {
				if _, ok := s.Type(fd.Target); !ok {
					_, tv, _ := vals[i].entries()
					return Schema{}, tv[j].fail("reference target %q is not an entity type of the schema", fd.Target)
				}
			}
		}
	}
	return s, nil
}

// checkName keeps names printable and free of the characters parthack
// uses in paths and pseudo-fields.
func checkName(c cursor, name string) error {
	if name == "" || strings.ContainsAny(name, "@.[]* \t\n") {
		return c.fail("name %q must be non-empty and contain no '@', '.', '[', ']', '*' or white space", name)
	}
	return nil
}

// typedValue reads a value that must fit a declared field.
func typedValue(c cursor, fd *FieldDef) (Value, error) {
	read := cursor.value
	if fd.Kind == KindJSON {
		read = cursor.anyValue
	}
	v, err := read(c)
	if err != nil {
		return Null, err
	}
	if msg := CheckValue(fd, v); msg != "" {
		return Null, c.fail("%s", msg)
	}
	return v, nil
}

// CheckValue says what is wrong with writing v to a field of fd's type,
// or "" when it fits. Null fits every field (it clears it). Whether a
// reference names a live entity is a question about state, not type.
func CheckValue(fd *FieldDef, v Value) string {
	if v.IsNull() || fd.Kind == KindJSON {
		return ""
	}
	want := StringValue
	switch fd.Kind {
	case KindInt:
		want = IntValue
	case KindBool:
		want = BoolValue
	case KindStrings:
		want = ListValue
	}
	if v.Kind() != want {
		return fmt.Sprintf("field %s is %s, got %s %s", fd.Name, describeKind(fd), v.Kind(), v)
	}
	if fd.Kind == KindEnum && !slices.Contains(fd.Values, v.AsString()) {
		return fmt.Sprintf("field %s is %s, got %s", fd.Name, describeKind(fd), v)
	}
	return ""
}

func describeKind(fd *FieldDef) string {
	switch fd.Kind {
	case KindEnum:
		return "enum {" + strings.Join(fd.Values, ", ") + "}"
	case KindRef:
		return "a reference to " + fd.Target
	case KindStrings:
		return "a list of strings"
	}
	return string(fd.Kind)
}

func decodeAssigns(c cursor, et *EntityType) ([]Assign, error) {
	keys, vals, err := c.entries()
	if err != nil {
		return nil, err
	}
	out := make([]Assign, 0, len(keys))
	for i, k := range keys {
		fd, ok := et.Field(k)
		if !ok {
			return nil, vals[i].fail("entity type %s has no field %q", et.Name, k)
		}
		v, err := typedValue(vals[i], fd)
		if err != nil {
			return nil, err
		}
		out = append(out, Assign{Field: k, Value: v})
	}
	return out, nil
}

func needType(c cursor, s *Schema, name string) (*EntityType, error) {
	et, ok := s.Type(name)
	if !ok {
		names := make([]string, len(s.Types))
		for i, t := range s.Types {
			names[i] = t.Name
		}
		return nil, c.fail("unknown entity type %q (the schema has %s)", name, strings.Join(names, ", "))
	}
	return et, nil
}

func decodeInitial(c cursor, s *Schema) ([]Entity, error) {
	items, err := c.array()
	if err != nil {
		return nil, err
	}
	out := make([]Entity, 0, len(items))
	type key struct{ t, id string }
	seen := map[key]bool{}
	alive := map[key]bool{}
	var refs []func() error
	for _, it := range items {
		o, err := it.object("type", "id", "fields", "deleted")
		if err != nil {
			return nil, err
		}
		var e Entity
		et, err := typeAndID(o, s, &e.Type, &e.ID)
		if err != nil {
			return nil, err
		}
		k := key{e.Type, e.ID}
		if seen[k] {
			idc, _ := o.get("id")
			return nil, idc.fail("entity %s %s appears twice in the initial snapshot", e.Type, e.ID)
		}
		seen[k] = true
		if dc, ok := o.get("deleted"); ok {
			if e.Deleted, err = dc.boolean(); err != nil {
				return nil, err
			}
		}
		alive[k] = !e.Deleted
		if fc, ok := o.get("fields"); ok {
			if e.Fields, err = decodeAssigns(fc, et); err != nil {
				return nil, err
			}
			_, fvals, _ := fc.entries()
			for i, a := range e.Fields {
				fd, _ := et.Field(a.Field)
				if fd.Kind != KindRef || a.Value.IsNull() || e.Deleted {
					continue
				}
				vc, target, id := fvals[i], fd.Target, a.Value.AsString()
				refs = append(refs, func() error {
					if !alive[key{target, id}] {
						return vc.fail("impossible reference: no alive %s %q in the initial snapshot", target, id)
					}
					return nil
				})
			}
		}
		out = append(out, e)
	}
	for _, check := range refs {
		if err := check(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func decodeAllowlist(c cursor, s *Schema) (Allowlist, error) {
	o, err := c.object("ops", "fields", "types")
	if err != nil {
		return Allowlist{}, err
	}
	if tc, ok := o.get("types"); ok {
		for _, k := range []string{"ops", "fields"} {
			if kc, ok := o.get(k); ok {
				return Allowlist{}, kc.fail("an allowlist has either \"ops\" and \"fields\" (every op on every listed type) or \"types\" (ops and fields per type), not both")
			}
		}
		return decodeTypeAllowlist(tc, s)
	}
	var a Allowlist
	oc, err := o.need("ops")
	if err != nil {
		return a, err
	}
	if a.Ops, err = decodeOps(oc); err != nil {
		return a, err
	}
	a.Fields = map[string][]string{}
	if fc, ok := o.get("fields"); ok {
		keys, vals, err := fc.entries()
		if err != nil {
			return a, err
		}
		for i, k := range keys {
			if a.Fields[k], err = decodeWritable(vals[i], s, k); err != nil {
				return a, err
			}
		}
	}
	return a, nil
}

// decodeOps reads a list of agent ops, each at most once.
func decodeOps(c cursor) ([]Op, error) {
	items, err := c.array()
	if err != nil {
		return nil, err
	}
	var ops []Op
	for _, it := range items {
		op, err := it.oneOf(string(OpCreate), string(OpUpdate), string(OpDelete), string(OpRestore))
		if err != nil {
			if it.n.kind == nodeString && it.n.str == string(OpReviseGoal) {
				return nil, it.fail("revise_goal is never an agent action; script it instead")
			}
			return nil, err
		}
		if slices.Contains(ops, Op(op)) {
			return nil, it.fail("op %s listed twice", op)
		}
		ops = append(ops, Op(op))
	}
	return ops, nil
}

// decodeWritable reads the writable fields of entity type typ.
func decodeWritable(c cursor, s *Schema, typ string) ([]string, error) {
	et, err := needType(c, s, typ)
	if err != nil {
		return nil, err
	}
	fs, err := c.strings()
	if err != nil {
		return nil, err
	}
	for _, f := range fs {
		if _, ok := et.Field(f); !ok {
			return nil, c.fail("entity type %s has no field %q", typ, f)
		}
	}
	return fs, nil
}

// decodeTypeAllowlist reads the per-type form:
// {"ticket": {"ops": ["update"], "fields": ["status"]}, "grant": {"ops": ["delete"]}}.
func decodeTypeAllowlist(c cursor, s *Schema) (Allowlist, error) {
	a := Allowlist{Fields: map[string][]string{}, TypeOps: map[string][]Op{}}
	keys, vals, err := c.entries()
	if err != nil {
		return a, err
	}
	union := map[Op]bool{}
	for i, k := range keys {
		if _, err := needType(vals[i], s, k); err != nil {
			return a, err
		}
		o, err := vals[i].object("ops", "fields")
		if err != nil {
			return a, err
		}
		oc, err := o.need("ops")
		if err != nil {
			return a, err
		}
		ops, err := decodeOps(oc)
		if err != nil {
			return a, err
		}
		if len(ops) == 0 {
			return a, oc.fail("type %s allows no op; leave it out of the allowlist instead", k)
		}
		fs := []string{}
		if fc, ok := o.get("fields"); ok {
			if fs, err = decodeWritable(fc, s, k); err != nil {
				return a, err
			}
			if len(fs) > 0 && !slices.Contains(ops, OpCreate) && !slices.Contains(ops, OpUpdate) {
				return a, fc.fail("type %s: writable fields need op create or update", k)
			}
		}
		if slices.Contains(ops, OpUpdate) && len(fs) == 0 {
			return a, oc.fail("type %s: op update needs at least one writable field", k)
		}
		for _, op := range ops {
			union[op] = true
		}
		a.TypeOps[k], a.Fields[k] = ops, fs
	}
	for _, op := range allOps {
		if union[op] {
			a.Ops = append(a.Ops, op)
		}
	}
	return a, nil
}

func decodeGoals(c cursor, s *Schema) ([]GoalVersion, error) {
	items, err := c.array()
	if err != nil {
		return nil, err
	}
	if len(items) == 0 {
		return nil, c.fail("expected at least one goal version")
	}
	var out []GoalVersion
	for _, it := range items {
		o, err := it.object("version", "predicates")
		if err != nil {
			return nil, err
		}
		var g GoalVersion
		if g.Version, err = needString(o, "version"); err != nil {
			return nil, err
		}
		for _, prev := range out {
			if prev.Version == g.Version {
				vc, _ := o.get("version")
				return nil, vc.fail("goal version %q declared twice", g.Version)
			}
		}
		pc, err := o.need("predicates")
		if err != nil {
			return nil, err
		}
		if g.Predicates, err = decodePredicates(pc, s); err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	return out, nil
}

// DecodePredicates strictly decodes a JSON array of predicates checked
// against a schema; file names the source in errors.
func DecodePredicates(file string, src []byte, s *Schema) ([]Predicate, error) {
	d, err := parseDoc(file, src)
	if err != nil {
		return nil, err
	}
	return decodePredicates(d.cur(), s)
}

func decodePredicates(c cursor, s *Schema) ([]Predicate, error) {
	items, err := c.array()
	if err != nil {
		return nil, err
	}
	if len(items) == 0 {
		return nil, c.fail("expected at least one predicate")
	}
	var out []Predicate
	for _, it := range items {
		o, err := it.object("id", "text", "expr")
		if err != nil {
			return nil, err
		}
		var p Predicate
		if p.ID, err = needString(o, "id"); err != nil {
			return nil, err
		}
		for _, prev := range out {
			if prev.ID == p.ID {
				ic, _ := o.get("id")
				return nil, ic.fail("predicate id %q used twice in one goal version", p.ID)
			}
		}
		if tc, ok := o.get("text"); ok {
			if p.Text, err = tc.str(); err != nil {
				return nil, err
			}
		}
		ec, err := o.need("expr")
		if err != nil {
			return nil, err
		}
		if p.Expr, err = decodeExpr(ec, s, 0); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

var exprKinds = []string{string(ExprField), string(ExprAlive), string(ExprAbsent), string(ExprCount), string(ExprRef), string(ExprAll), string(ExprAny), string(ExprNot)}

func decodeExpr(c cursor, s *Schema, depth int) (Expr, error) {
	if depth > 32 {
		return Expr{}, c.fail("expression nested deeper than 32")
	}
	keys, vals, err := c.entries()
	if err != nil {
		return Expr{}, err
	}
	if len(keys) != 1 {
		return Expr{}, c.fail("an expression has exactly one key, one of %s", strings.Join(exprKinds, ", "))
	}
	kind, body := ExprKind(keys[0]), vals[0]
	e := Expr{Kind: kind}
	switch kind {
	case ExprAll, ExprAny:
		items, err := body.array()
		if err != nil {
			return e, err
		}
		if len(items) == 0 {
			return e, body.fail("%s needs at least one expression", kind)
		}
		for _, it := range items {
			sub, err := decodeExpr(it, s, depth+1)
			if err != nil {
				return e, err
			}
			e.Args = append(e.Args, sub)
		}
	case ExprNot:
		sub, err := decodeExpr(body, s, depth+1)
		if err != nil {
			return e, err
		}
		e.Args = []Expr{sub}
	case ExprAlive, ExprAbsent:
		o, err := body.object("type", "id")
		if err != nil {
			return e, err
		}
		if _, err = entityRef(o, s, &e); err != nil {
			return e, err
		}
	case ExprField:
		o, err := body.object("type", "id", "field", "cmp", "value", "values")
		if err != nil {
			return e, err
		}
		et, err := entityRef(o, s, &e)
		if err != nil {
			return e, err
		}
		var cond Cond
		if cond, err = decodeCond(o, et); err != nil {
			return e, err
		}
		e.Field, e.Cmp, e.Value, e.Values = cond.Field, cond.Cmp, cond.Value, cond.Values
	case ExprRef:
		o, err := body.object("type", "id", "field", "target")
		if err != nil {
			return e, err
		}
		et, err := entityRef(o, s, &e)
		if err != nil {
			return e, err
		}
		if e.Field, err = needString(o, "field"); err != nil {
			return e, err
		}
		fc, _ := o.get("field")
		fd, ok := et.Field(e.Field)
		if !ok {
			return e, fc.fail("entity type %s has no field %q", et.Name, e.Field)
		}
		if fd.Kind != KindRef {
			return e, fc.fail("field %s is %s, not a reference", fd.Name, describeKind(fd))
		}
		if tc, ok := o.get("target"); ok {
			if e.Target, err = tc.nonEmptyStr(); err != nil {
				return e, err
			}
		}
	case ExprCount:
		o, err := body.object("type", "where", "cmp", "n")
		if err != nil {
			return e, err
		}
		if e.Type, err = needString(o, "type"); err != nil {
			return e, err
		}
		tc, _ := o.get("type")
		et, err := needType(tc, s, e.Type)
		if err != nil {
			return e, err
		}
		if wc, ok := o.get("where"); ok {
			items, err := wc.array()
			if err != nil {
				return e, err
			}
			for _, it := range items {
				wo, err := it.object("field", "cmp", "value", "values")
				if err != nil {
					return e, err
				}
				cond, err := decodeCond(wo, et)
				if err != nil {
					return e, err
				}
				e.Where = append(e.Where, cond)
			}
		}
		cc, err := o.need("cmp")
		if err != nil {
			return e, err
		}
		cmp, err := cc.oneOf(string(CmpEq), string(CmpNe), string(CmpLt), string(CmpLe), string(CmpGt), string(CmpGe))
		if err != nil {
			return e, err
		}
		e.Cmp = Cmp(cmp)
		nc, err := o.need("n")
		if err != nil {
			return e, err
		}
		if e.N, err = nc.integer(); err != nil {
			return e, err
		}
	default:
		return e, body.fail("unknown expression %q (expected one of %s)", kind, strings.Join(exprKinds, ", "))
	}
	return e, nil
}

func entityRef(o object, s *Schema, e *Expr) (*EntityType, error) {
	return typeAndID(o, s, &e.Type, &e.ID)
}

// typeAndID reads the "type" (a type of the schema) and "id" of an object
// that names one entity.
func typeAndID(o object, s *Schema, typ, id *string) (*EntityType, error) {
	var err error
	if *typ, err = needString(o, "type"); err != nil {
		return nil, err
	}
	tc, _ := o.get("type")
	et, err := needType(tc, s, *typ)
	if err != nil {
		return nil, err
	}
	if *id, err = needString(o, "id"); err != nil {
		return nil, err
	}
	return et, nil
}

func decodeCond(o object, et *EntityType) (Cond, error) {
	var cond Cond
	var err error
	if cond.Field, err = needString(o, "field"); err != nil {
		return cond, err
	}
	fc, _ := o.get("field")
	fd, ok := et.Field(cond.Field)
	if !ok {
		return cond, fc.fail("entity type %s has no field %q", et.Name, cond.Field)
	}
	cc, err := o.need("cmp")
	if err != nil {
		return cond, err
	}
	cmps := make([]string, len(allCmps))
	for i, c := range allCmps {
		cmps[i] = string(c)
	}
	cmp, err := cc.oneOf(cmps...)
	if err != nil {
		return cond, err
	}
	cond.Cmp = Cmp(cmp)
	switch cond.Cmp {
	case CmpLt, CmpLe, CmpGt, CmpGe:
		if fd.Kind != KindInt {
			return cond, cc.fail("%s compares ints; field %s is %s", cmp, fd.Name, describeKind(fd))
		}
	case CmpContains:
		if fd.Kind != KindStrings {
			return cond, cc.fail("contains applies to a list field; field %s is %s", fd.Name, describeKind(fd))
		}
	case CmpIn:
		if fd.Kind == KindStrings {
			return cond, cc.fail("in applies to a scalar field; use contains for the list field %s", fd.Name)
		}
	}
	if cond.Cmp == CmpIn {
		if o.has("value") {
			vc, _ := o.get("value")
			return cond, vc.fail("in takes \"values\", a list")
		}
		vc, err := o.need("values")
		if err != nil {
			return cond, err
		}
		items, err := vc.array()
		if err != nil {
			return cond, err
		}
		for _, it := range items {
			v, err := typedValue(it, fd)
			if err != nil {
				return cond, err
			}
			cond.Values = append(cond.Values, v)
		}
		return cond, nil
	}
	if o.has("values") {
		vc, _ := o.get("values")
		return cond, vc.fail("%s takes \"value\"; only in takes \"values\"", cmp)
	}
	vc, err := o.need("value")
	if err != nil {
		return cond, err
	}
	if cond.Cmp == CmpContains {
		cond.Value, err = typedValue(vc, &FieldDef{Name: fd.Name, Kind: KindString})
	} else {
		cond.Value, err = typedValue(vc, fd)
	}
	if err == nil && cond.Value.IsNull() && cond.Cmp != CmpEq && cond.Cmp != CmpNe {
		// Whether a field is set is eq/ne null (tau2 telecom's "the APN
		// has an MMSC URL"); an order or a substring needs a value.
		err = vc.fail("%s compares to a value, not null (eq and ne take null)", cond.Cmp)
	}
	return cond, err
}

func decodeScript(c cursor, t *Task) ([]ScriptedEvent, error) {
	items, err := c.array()
	if err != nil {
		return nil, err
	}
	var out []ScriptedEvent
	for _, it := range items {
		o, err := it.object("after", "actor", "op", "type", "id", "fields", "goal")
		if err != nil {
			return nil, err
		}
		var ev ScriptedEvent
		ac, err := o.need("after")
		if err != nil {
			return nil, err
		}
		n, err := ac.integer()
		if err != nil {
			return nil, err
		}
		if n < 0 {
			return nil, ac.fail("after counts agent steps; expected a number >= 0")
		}
		if len(out) > 0 && int(n) < out[len(out)-1].After {
			return nil, ac.fail("scripted events must be in order of \"after\"")
		}
		ev.After = int(n)
		actc, err := o.need("actor")
		if err != nil {
			return nil, err
		}
		actor, err := actc.oneOf(string(ActorUser), string(ActorEnvironment), string(ActorSystem))
		if err != nil {
			return nil, err
		}
		ev.Actor = Actor(actor)
		if ev.Action, err = decodeAction(o, &t.Schema, true); err != nil {
			return nil, err
		}
		if ev.Op == OpReviseGoal {
			if _, ok := t.Goal(ev.Goal); !ok {
				gc, _ := o.get("goal")
				return nil, gc.fail("no goal version %q in this task", ev.Goal)
			}
		}
		out = append(out, ev)
	}
	return out, nil
}

// decodeAction reads op/type/id/fields/goal. With a schema (scripted
// events) values are type-checked now; without (candidates), replay
// checks them, since a mistyped write is a failed step, not a bad file.
func decodeAction(o object, s *Schema, typed bool) (Action, error) {
	var a Action
	oc, err := o.need("op")
	if err != nil {
		return a, err
	}
	op, err := oc.nonEmptyStr()
	if err != nil {
		return a, err
	}
	a.Op = Op(op)
	if typed && !slices.Contains(allOps, a.Op) {
		return a, oc.fail("unknown op %q (expected one of create, update, delete, restore, revise_goal)", op)
	}
	if a.Op == OpCall && !typed {
		return decodeCall(o, a)
	}
	if a.Op == OpReviseGoal {
		for _, k := range []string{"type", "id", "fields"} {
			if c, ok := o.get(k); ok {
				return a, c.fail("revise_goal takes only \"goal\"")
			}
		}
		a.Goal, err = needString(o, "goal")
		return a, err
	}
	if gc, ok := o.get("goal"); ok {
		return a, gc.fail("\"goal\" belongs to revise_goal only")
	}
	for _, k := range []string{"tool", "args"} {
		if c, ok := o.get(k); ok {
			return a, c.fail("%q belongs to call only", k)
		}
	}
	if a.Type, err = needString(o, "type"); err != nil {
		return a, err
	}
	if a.ID, err = needString(o, "id"); err != nil {
		return a, err
	}
	fc, hasFields := o.get("fields")
	if !typed {
		if hasFields {
			keys, vals, err := fc.entries()
			if err != nil {
				return a, err
			}
			for i, k := range keys {
				v, err := vals[i].value()
				if err != nil {
					return a, err
				}
				a.Fields = append(a.Fields, Assign{Field: k, Value: v})
			}
		}
		return a, nil
	}
	tc, _ := o.get("type")
	et, err := needType(tc, s, a.Type)
	if err != nil {
		return a, err
	}
	if hasFields {
		if a.Op == OpDelete || a.Op == OpRestore {
			return a, fc.fail("%s takes no fields", a.Op)
		}
		if a.Fields, err = decodeAssigns(fc, et); err != nil {
			return a, err
		}
	}
	return a, nil
}

// decodeCall reads a domain tool call: the tool's name and its
// arguments, a JSON object kept in canonical form.
func decodeCall(o object, a Action) (Action, error) {
	for _, k := range []string{"type", "id", "fields", "goal"} {
		if c, ok := o.get(k); ok {
			return a, c.fail("call takes only \"tool\" and \"args\"")
		}
	}
	var err error
	if a.Tool, err = needString(o, "tool"); err != nil {
		return a, err
	}
	ac, err := o.need("args")
	if err != nil {
		return a, err
	}
	if err := ac.expect(nodeObject); err != nil {
		return a, err
	}
	a.Args, err = ac.anyValue()
	return a, err
}

func decodeAlphabet(c cursor, s *Schema) (Alphabet, error) {
	keys, vals, err := c.entries()
	if err != nil {
		return nil, err
	}
	out := Alphabet{}
	for i, k := range keys {
		et, err := needType(vals[i], s, k)
		if err != nil {
			return nil, err
		}
		o, err := vals[i].object("ids", "fields")
		if err != nil {
			return nil, err
		}
		var at AlphabetType
		ic, err := o.need("ids")
		if err != nil {
			return nil, err
		}
		if at.IDs, err = ic.strings(); err != nil {
			return nil, err
		}
		if fc, ok := o.get("fields"); ok {
			fkeys, fvals, err := fc.entries()
			if err != nil {
				return nil, err
			}
			for j, fk := range fkeys {
				fd, ok := et.Field(fk)
				if !ok {
					return nil, fvals[j].fail("entity type %s has no field %q", k, fk)
				}
				items, err := fvals[j].array()
				if err != nil {
					return nil, err
				}
				af := AlphabetField{Field: fk}
				for _, it := range items {
					v, err := typedValue(it, fd)
					if err != nil {
						return nil, err
					}
					af.Values = append(af.Values, v)
				}
				at.Fields = append(at.Fields, af)
			}
		}
		out[k] = at
	}
	return out, nil
}

// DecodeTrajectory strictly decodes a trajectory or candidate file. It
// checks structure only; what the steps mean is for replay to say.
//
// It collects what StreamTrajectory hands on, so the memory a long
// trajectory takes is the file's bytes and its Steps, never a tree of the
// whole document; short strings are shared between steps. Errors are the
// same, in the same order, as a decoding of the whole tree gives: syntax,
// duplicate keys and bad strings first, in file order, then the document's
// own fields, then the first bad step, then the transcript.
func DecodeTrajectory(file string, src []byte) (*Trajectory, error) {
	var steps []Step
	tr, _, err := StreamTrajectory(file, src, math.MaxInt, func(b []Step) {
		if steps == nil {
			steps = b // the one batch there is, kept without a copy
			return
		}
		steps = append(steps, b...)
	})
	if err != nil {
		return nil, err
	}
	tr.Steps = slices.Clip(steps)
	if tr.Steps == nil {
		tr.Steps = []Step{}
	}
	return tr, nil
}

// decodeTrajectory decodes a parsed trajectory document. With st, its
// steps were decoded while it was parsed and handed on: the trajectory
// it returns has nil Steps.
func decodeTrajectory(d *doc, st *stepStream) (*Trajectory, error) {
	file := d.file
	o, err := d.cur().object("$schema", "format", "task", "name", "note", "goal_version", "honest", "steps", "transcript", "termination_reason", "max_errors", "max_steps", "benchmark_steps")
	if err != nil {
		return nil, err
	}
	if err := checkFormat(o, TrajectoryFormat); err != nil {
		return nil, err
	}
	tr := &Trajectory{File: file}
	if tr.Task, err = needString(o, "task"); err != nil {
		return nil, err
	}
	if err := optStrings(o, "name", &tr.Name, "note", &tr.Note, "goal_version", &tr.GoalClaim); err != nil {
		return nil, err
	}
	if c, ok := o.get("honest"); ok {
		if tr.Honest, err = c.nonEmptyStr(); err != nil {
			return nil, err
		}
	}
	if c, ok := o.get("termination_reason"); ok {
		if tr.Termination, err = c.nonEmptyStr(); err != nil {
			return nil, err
		}
	}
	for _, f := range []struct {
		key, what string
		dst       *int
	}{{"max_errors", "a limit", &tr.MaxErrors}, {"max_steps", "a limit", &tr.MaxSteps}, {"benchmark_steps", "a run's count of steps", &tr.BenchmarkSteps}} {
		c, ok := o.get(f.key)
		if !ok {
			continue
		}
		n, err := c.integer()
		if err != nil {
			return nil, err
		}
		if n < 1 || n > 1<<31-1 {
			return nil, c.fail("%s %d: %s is at least 1", f.key, n, f.what)
		}
		*f.dst = int(n)
	}
	if (tr.MaxSteps > 0) != (tr.BenchmarkSteps > 0) {
		return nil, d.cur().fail("max_steps and benchmark_steps go together: the bound and the run's steps")
	}
	sc, err := o.need("steps")
	if err != nil {
		return nil, err
	}
	var n int
	if st != nil && sc.n.kind == nodeArray {
		if st.err != nil {
			return nil, st.err
		}
		n = st.n
	} else {
		items, err := sc.array()
		if err != nil {
			return nil, err
		}
		tr.Steps = make([]Step, 0, len(items))
		for i, it := range items {
			st, err := decodeStep(it, i)
			if err != nil {
				return nil, err
			}
			tr.Steps = append(tr.Steps, st)
		}
		n = len(items)
	}
	if tc, ok := o.get("transcript"); ok {
		if tr.Transcript, err = decodeTranscript(tc, n); err != nil {
			return nil, err
		}
	}
	return tr, nil
}

// decodeTranscript reads a conversation: turns with a known role, text,
// and an optional step number within the trajectory.
func decodeTranscript(c cursor, steps int) ([]Turn, error) {
	items, err := c.array()
	if err != nil {
		return nil, err
	}
	out := make([]Turn, 0, len(items))
	for _, it := range items {
		o, err := it.object("role", "content", "step")
		if err != nil {
			return nil, err
		}
		rc, err := o.need("role")
		if err != nil {
			return nil, err
		}
		var t Turn
		if t.Role, err = rc.oneOf(allRoles...); err != nil {
			return nil, err
		}
		cc, err := o.need("content")
		if err != nil {
			return nil, err
		}
		content, err := cc.str()
		if err != nil {
			return nil, err
		}
		t.Content = TextOf(content)
		if sc, ok := o.get("step"); ok {
			n, err := sc.integer()
			if err != nil {
				return nil, err
			}
			if n < 1 || n > int64(steps) {
				return nil, sc.fail("step %d is not a step of this trajectory (1 to %d)", n, steps)
			}
			t.Step = int(n)
		}
		out = append(out, t)
	}
	return out, nil
}

func decodeStep(c cursor, index int) (Step, error) {
	o, err := c.object("step", "actor", "op", "type", "id", "fields", "goal", "tool", "args", "claim", "comment")
	if err != nil {
		return Step{}, err
	}
	st := Step{Index: index}
	st.Line, _ = c.d.locate(c.n.off)
	if st.Action, err = decodeAction(o, nil, false); err != nil {
		return st, err
	}
	if nc, ok := o.get("step"); ok {
		n, err := nc.integer()
		if err != nil {
			return st, err
		}
		if n < 1 {
			return st, nc.fail("step numbers start at 1")
		}
		st.Number = int(n)
	}
	if ac, ok := o.get("actor"); ok {
		actor, err := ac.nonEmptyStr()
		if err != nil {
			return st, err
		}
		st.Actor = Actor(actor)
	}
	if cc, ok := o.get("comment"); ok {
		if st.Comment, err = cc.str(); err != nil {
			return st, err
		}
	}
	if cc, ok := o.get("claim"); ok {
		if st.Claim, err = decodeClaim(cc); err != nil {
			return st, err
		}
	}
	return st, nil
}

func decodeClaim(c cursor) (Claim, error) {
	o, err := c.object("ok", "state_hash", "diff")
	if err != nil {
		return Claim{}, err
	}
	var cl Claim
	if oc, ok := o.get("ok"); ok {
		cl.HasOK = true
		if cl.OK, err = oc.boolean(); err != nil {
			return cl, err
		}
	}
	if hc, ok := o.get("state_hash"); ok {
		if cl.StateHash, err = hc.nonEmptyStr(); err != nil {
			return cl, err
		}
	}
	if dc, ok := o.get("diff"); ok {
		cl.HasDiff = true
		items, err := dc.array()
		if err != nil {
			return cl, err
		}
		cl.Diff = []CellDiff{}
		for _, it := range items {
			do, err := it.object("type", "id", "field", "before", "after")
			if err != nil {
				return cl, err
			}
			var cd CellDiff
			if err := optStrings(do, "type", &cd.Type, "id", &cd.ID); err != nil {
				return cl, err
			}
			if cd.Field, err = needString(do, "field"); err != nil {
				return cl, err
			}
			for _, kv := range []struct {
				key string
				dst *Value
			}{{"before", &cd.Before}, {"after", &cd.After}} {
				vc, err := do.need(kv.key)
				if err != nil {
					return cl, err
				}
				if *kv.dst, err = vc.anyValue(); err != nil {
					return cl, err
				}
			}
			cl.Diff = append(cl.Diff, cd)
		}
	}
	return cl, nil
}

// optStrings reads optional string fields given as key, destination pairs,
// in the order given so the first error reported is always the same.
func optStrings(o object, pairs ...any) error {
	for i := 0; i < len(pairs); i += 2 {
		c, ok := o.get(pairs[i].(string))
		if !ok {
			continue
		}
		s, err := c.str()
		if err != nil {
			return err
		}
		*pairs[i+1].(*string) = s
	}
	return nil
}
