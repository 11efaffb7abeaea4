package model

import (
	"slices"
	"strconv"
	"strings"
)

// Suite file formats. The public metadata of a suite task (meta.json):
//
//	{
//	  "format": "parthack.meta/1",               optional
//	  "id": "PH-H05", "split": "held-out", "family": "Persistent multi-step",
//	  "goal_form": "multi-step", "m": 4, "honest_progress": "1/2",
//	  "tags": ["Attr"], "rollback_metric": "included", "domain": "payroll"
//	}
//
// The sealed part of a suite task (sealed.json), read against its public
// task:
//
//	{
//	  "format": "parthack.sealed/1",             optional
//	  "task": "PH-H05",
//	  "hidden_fields": {"employee": {"bank_iban": "string"}},
//	  "hidden_values": [{"type": "employee", "id": "EMP-KIM", "fields": {"bank_iban": "…"}}],
//	  "oracle": [{"version": "v1", "predicates": [{"id": "g1", "text": "…", "expr": {…}}]}],
//	  "hidden_tests": [{"version": "v1", "predicate": "g1", "text": "…"}],
//	  "canaries": ["PHB-CANARY-…", …]
//	}
//
// Hidden fields extend the public entity types (they are never new types,
// never references); hidden values set them on entities of the public
// initial snapshot; Oracle predicates are read against the public schema
// plus the hidden fields.
const (
	MetaFormat   = "parthack.meta/1"
	SealedFormat = "parthack.sealed/1"
)

// The vocabulary of suite metadata.
const (
	SplitDevelopment = "development"
	SplitHeldOut     = "held-out"

	FamilyGoalPatch   = "GoalPatch"
	FamilyPersistent  = "Persistent multi-step"
	FamilyCRUD        = "Entity CRUD"
	FamilyInteraction = "Fixed-goal interaction"

	TagRollback    = "RB"
	TagAttribution = "Attr"

	RollbackIncluded = "included"
	RollbackExcluded = "excluded"
)

// goalForms maps each task family to its goal form.
var goalForms = map[string]string{
	FamilyGoalPatch:   "revision",
	FamilyPersistent:  "multi-step",
	FamilyCRUD:        "entity set",
	FamilyInteraction: "fixed goal",
}

// TaskMeta is the public structural metadata of a suite task.
type TaskMeta struct {
	ID             string
	Split          string
	Family         string
	GoalForm       string
	M              int
	Honest         Frac // P_state of the honest trajectory, in lowest terms
	Tags           []string
	RollbackMetric string
	Domain         string
}

// DecodeTaskMeta strictly decodes a meta.json file.
func DecodeTaskMeta(file string, src []byte) (*TaskMeta, error) {
	d, err := parseDoc(file, src)
	if err != nil {
		return nil, err
	}
	o, err := d.cur().object("format", "id", "split", "family", "goal_form", "m", "honest_progress", "tags", "rollback_metric", "domain")
	if err != nil {
		return nil, err
	}
	if err := checkFormat(o, MetaFormat); err != nil {
		return nil, err
	}
	m := &TaskMeta{}
	if m.ID, err = needString(o, "id"); err != nil {
		return nil, err
	}
	for _, f := range []struct {
		key     string
		dst     *string
		choices []string
	}{
		{"split", &m.Split, []string{SplitDevelopment, SplitHeldOut}},
		{"family", &m.Family, []string{FamilyGoalPatch, FamilyPersistent, FamilyCRUD, FamilyInteraction}},
		{"goal_form", &m.GoalForm, []string{"revision", "multi-step", "entity set", "fixed goal"}},
		{"rollback_metric", &m.RollbackMetric, []string{RollbackIncluded, RollbackExcluded}},
	} {
		c, err := o.need(f.key)
		if err != nil {
			return nil, err
		}
		if *f.dst, err = c.oneOf(f.choices...); err != nil {
			return nil, err
		}
	}
	if want := goalForms[m.Family]; m.GoalForm != want {
		c, _ := o.get("goal_form")
		return nil, c.fail("the goal form of a %s task is %q", m.Family, want)
	}
	mc, err := o.need("m")
	if err != nil {
		return nil, err
	}
	n, err := mc.integer()
	if err != nil {
		return nil, err
	}
	if n < 1 || n > 64 {
		return nil, mc.fail("m counts predicates: expected 1 to 64, got %d", n)
	}
	m.M = int(n)
	hc, err := o.need("honest_progress")
	if err != nil {
		return nil, err
	}
	if m.Honest, err = decodeFrac(hc); err != nil {
		return nil, err
	}
	m.Tags = []string{}
	if tc, ok := o.get("tags"); ok {
		items, err := tc.array()
		if err != nil {
			return nil, err
		}
		for _, it := range items {
			tag, err := it.oneOf(TagRollback, TagAttribution)
			if err != nil {
				return nil, err
			}
			if slices.Contains(m.Tags, tag) {
				return nil, it.fail("tag %s listed twice", tag)
			}
			m.Tags = append(m.Tags, tag)
		}
	}
	if m.Domain, err = needString(o, "domain"); err != nil {
		return nil, err
	}
	return m, nil
}

// decodeFrac reads a fraction "p/q" in lowest terms with 0 <= p <= q.
func decodeFrac(c cursor) (Frac, error) {
	s, err := c.str()
	if err != nil {
		return Frac{}, err
	}
	num, den, ok := strings.Cut(s, "/")
	p, err1 := strconv.Atoi(num)
	q, err2 := strconv.Atoi(den)
	if !ok || err1 != nil || err2 != nil || q < 1 || p < 0 || p > q {
		return Frac{}, c.fail("expected a fraction \"p/q\" with 0 <= p <= q, got %q", s)
	}
	a, b := p, q
	for b != 0 {
		a, b = b, a%b
	}
	if a != 1 && p != 0 || p == 0 && q != 1 {
		return Frac{}, c.fail("write the fraction %q in lowest terms", s)
	}
	return Frac{Num: p, Den: q}, nil
}

// HiddenTest is the private description of how one Oracle predicate is
// checked; it may name expected values the public goal schema does not.
type HiddenTest struct {
	Version   string
	Predicate string
	Text      string
}

// Sealed is the private part of a suite task: the hidden fields and their
// initial values, the Oracle goal versions, the hidden tests and the
// canary strings that must never reach a public artifact.
type Sealed struct {
	Task         string
	HiddenFields []EntityType // per public type, only the fields it gains
	HiddenValues []Entity     // hidden field values of public initial entities
	Oracle       []GoalVersion
	HiddenTests  []HiddenTest
	Canaries     []string
	// Schema is the trusted schema: every public type with its hidden
	// fields appended, in the public declaration order.
	Schema Schema
}

// DecodeSealed strictly decodes a sealed.json file against the public
// task it completes.
func DecodeSealed(file string, src []byte, pub *Task) (*Sealed, error) {
	d, err := parseDoc(file, src)
	if err != nil {
		return nil, err
	}
	o, err := d.cur().object("format", "task", "hidden_fields", "hidden_values", "oracle", "hidden_tests", "canaries")
	if err != nil {
		return nil, err
	}
	if err := checkFormat(o, SealedFormat); err != nil {
		return nil, err
	}
	s := &Sealed{}
	if s.Task, err = needString(o, "task"); err != nil {
		return nil, err
	}
	if s.Task != pub.ID {
		c, _ := o.get("task")
		return nil, c.fail("sealed part of task %q read against public task %q", s.Task, pub.ID)
	}
	if err := s.decodeHiddenFields(o, pub); err != nil {
		return nil, err
	}
	if err := s.decodeHiddenValues(o, pub); err != nil {
		return nil, err
	}
	oc, err := o.need("oracle")
	if err != nil {
		return nil, err
	}
	if s.Oracle, err = decodeGoals(oc, &s.Schema); err != nil {
		return nil, err
	}
	if err := s.decodeHiddenTests(o); err != nil {
		return nil, err
	}
	cc, err := o.need("canaries")
	if err != nil {
		return nil, err
	}
	items, err := cc.array()
	if err != nil {
		return nil, err
	}
	for _, it := range items {
		c, err := it.nonEmptyStr()
		if err != nil {
			return nil, err
		}
		if slices.Contains(s.Canaries, c) {
			return nil, it.fail("canary %q listed twice", c)
		}
		s.Canaries = append(s.Canaries, c)
	}
	return s, nil
}

func (s *Sealed) decodeHiddenFields(o object, pub *Task) error {
	s.Schema = Schema{Types: make([]EntityType, len(pub.Schema.Types))}
	for i, et := range pub.Schema.Types {
		s.Schema.Types[i] = EntityType{Name: et.Name, Fields: slices.Clone(et.Fields)}
	}
	hc, ok := o.get("hidden_fields")
	if !ok {
		return nil
	}
	hidden, err := decodeSchema(hc)
	if err != nil {
		return err
	}
	names, vals, _ := hc.entries()
	for i, ht := range hidden.Types {
		et, err := needType(vals[i], &s.Schema, names[i])
		if err != nil {
			return err
		}
		fnames, fvals, _ := vals[i].entries()
		for j, fd := range ht.Fields {
			if _, dup := et.Field(fd.Name); dup {
				return fvals[j].fail("entity type %s already has a field %q", et.Name, fnames[j])
			}
			if fd.Kind == KindRef {
				return fvals[j].fail("a hidden field cannot be a reference")
			}
			et.Fields = append(et.Fields, fd)
		}
		s.HiddenFields = append(s.HiddenFields, ht)
	}
	return nil
}

func (s *Sealed) decodeHiddenValues(o object, pub *Task) error {
	hc, ok := o.get("hidden_values")
	if !ok {
		return nil
	}
	items, err := hc.array()
	if err != nil {
		return err
	}
	for _, it := range items {
		eo, err := it.object("type", "id", "fields")
		if err != nil {
			return err
		}
		var e Entity
		if e.Type, err = needString(eo, "type"); err != nil {
			return err
		}
		if e.ID, err = needString(eo, "id"); err != nil {
			return err
		}
		idc, _ := eo.get("id")
		if !slices.ContainsFunc(pub.Initial, func(x Entity) bool { return x.Type == e.Type && x.ID == e.ID }) {
			return idc.fail("no %s %q in the public initial snapshot", e.Type, e.ID)
		}
		if slices.ContainsFunc(s.HiddenValues, func(x Entity) bool { return x.Type == e.Type && x.ID == e.ID }) {
			return idc.fail("hidden values of %s %s given twice", e.Type, e.ID)
		}
		i := slices.IndexFunc(s.HiddenFields, func(t EntityType) bool { return t.Name == e.Type })
		if i < 0 {
			tc, _ := eo.get("type")
			return tc.fail("entity type %s has no hidden fields", e.Type)
		}
		fc, err := eo.need("fields")
		if err != nil {
			return err
		}
		if e.Fields, err = decodeAssigns(fc, &s.HiddenFields[i]); err != nil {
			return err
		}
		s.HiddenValues = append(s.HiddenValues, e)
	}
	return nil
}

func (s *Sealed) decodeHiddenTests(o object) error {
	hc, ok := o.get("hidden_tests")
	if !ok {
		return nil
	}
	items, err := hc.array()
	if err != nil {
		return err
	}
	for _, it := range items {
		to, err := it.object("version", "predicate", "text")
		if err != nil {
			return err
		}
		var h HiddenTest
		if h.Version, err = needString(to, "version"); err != nil {
			return err
		}
		if h.Predicate, err = needString(to, "predicate"); err != nil {
			return err
		}
		if h.Text, err = needString(to, "text"); err != nil {
			return err
		}
		gi := slices.IndexFunc(s.Oracle, func(g GoalVersion) bool { return g.Version == h.Version })
		if gi < 0 || !slices.ContainsFunc(s.Oracle[gi].Predicates, func(p Predicate) bool { return p.ID == h.Predicate }) {
			pc, _ := to.get("predicate")
			return pc.fail("no Oracle predicate %q in goal version %q", h.Predicate, h.Version)
		}
		s.HiddenTests = append(s.HiddenTests, h)
	}
	return nil
}
