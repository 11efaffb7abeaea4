package payload

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/parthack/parthack/model"
)

// Decode reads payload bytes as an evaluator must: strictly. The bytes
// must be the canonical encoding (see parse.go): an unknown, missing or
// misplaced key, white space, a value of the wrong type, a name the schema
// does not declare or broken numbering is an error. The result re-encodes
// to exactly b.
func Decode(b []byte) (*Payload, error) { return decode(&parser{b: b}) }

// DecodeOwned is Decode of bytes handed over to the payload, which
// nothing may change after: a string longer than 1 MiB shares them
// rather than being copied out of them, so that a long message is held
// once while it is scored, in the bytes.
func DecodeOwned(b []byte) (*Payload, error) { return decode(&parser{b: b, owned: true}) }

func decode(r *parser) (*Payload, error) {
	b := r.b
	p := r.payload()
	if r.err != nil {
		return nil, fmt.Errorf("decode payload: %w", r.err)
	}
	if err := p.check(); err != nil {
		return nil, fmt.Errorf("decode payload: %w", err)
	}
	// The encoding is held to b a piece at a time, not made whole beside
	// it: a payload with a 200 MB message is not copied once more.
	m := &matcher{want: b}
	e := &Encoder{w: m, b: make([]byte, 0, min(len(b), encFlush)+1<<10)}
	if err := p.encode(e); err != nil || m.n != len(b) {
		return nil, fmt.Errorf("decode payload: the bytes are not the canonical encoding of the payload they hold")
	}
	return p, nil
}

// matcher is a writer that holds what is written to want, in order.
type matcher struct {
	want []byte
	n    int // how much of want was written
}

// errDiffers stops an Encoder writing to a matcher at the first byte that
// is not want's.
var errDiffers = errors.New("the bytes differ")

func (m *matcher) Write(b []byte) (int, error) {
	if !bytes.HasPrefix(m.want[m.n:], b) {
		return 0, errDiffers
	}
	m.n += len(b)
	return len(b), nil
}

// ModelSchema is the public entity schema as the model declares schemas.
func (p *Payload) ModelSchema() model.Schema {
	s := model.Schema{Types: make([]model.EntityType, len(p.Schema))}
	for i, t := range p.Schema {
		s.Types[i] = model.EntityType{Name: t.Name, Fields: make([]model.FieldDef, len(t.Fields))}
		for j, f := range t.Fields {
			s.Types[i].Fields[j] = model.FieldDef{Name: f.Name, Kind: f.Kind, Values: f.Values, Target: f.Target}
		}
	}
	return s
}

// GoalsOf is the goal schema a payload states for a public task: its
// goal versions and public predicates, written in the task file's syntax
// and read back through the task file decoder, so a payload never
// carries a goal a task file could not.
func GoalsOf(pub *model.Task) ([]Goal, error) {
	out := make([]Goal, len(pub.Goals))
	for i, g := range pub.Goals {
		out[i] = Goal{Version: g.Version, Predicates: make([]Predicate, len(g.Predicates))}
		for j, p := range g.Predicates {
			out[i].Predicates[j] = Predicate{ID: p.ID, Text: p.Text, Expr: Expr{raw: AppendExpr(nil, &p.Expr)}}
		}
	}
	if err := resolveGoals(out, &pub.Schema); err != nil {
		return nil, fmt.Errorf("payload: task %s: public goal schema: %w", pub.ID, err)
	}
	return out, nil
}

// resolveGoals reads every predicate's expression through the task file
// decoder, against the public schema, and keeps the typed result. An
// expression whose bytes are not the canonical encoding of what they
// decode to is rejected, so equal goals always have equal bytes.
func resolveGoals(goals []Goal, s *model.Schema) error {
	if len(goals) == 0 {
		return fmt.Errorf("no goal versions")
	}
	seen := map[string]bool{}
	for gi := range goals {
		g := &goals[gi]
		if g.Version == "" || seen[g.Version] {
			return fmt.Errorf("goal version %q is empty or declared twice", g.Version)
		}
		seen[g.Version] = true
		src := []byte{'['}
		for j, pr := range g.Predicates {
			if j > 0 {
				src = append(src, ',')
			}
			src = appendStr(append(src, `{"id":`...), pr.ID)
			src = appendStr(append(src, `,"text":`...), pr.Text)
			src = append(append(src, `,"expr":`...), pr.Expr.raw...)
			src = append(src, '}')
		}
		src = append(src, ']')
		preds, err := model.DecodePredicates("goals["+g.Version+"]", src, s)
		if err != nil {
			return err
		}
		for j := range preds {
			pr := &g.Predicates[j]
			pr.Expr.Expr = preds[j].Expr
			if !bytes.Equal(AppendExpr(nil, &pr.Expr.Expr), pr.Expr.raw) {
				return fmt.Errorf("goal %s: predicate %s: expression is not in canonical form", g.Version, pr.ID)
			}
		}
	}
	return nil
}

// checker validates a decoded payload's content against its own schema.
type checker struct {
	types map[string]*EntityType
	defs  map[string]map[string]*model.FieldDef // per type, its fields
	goals map[string]bool
}

func (p *Payload) check() error {
	c, err := p.checkHead()
	if err != nil {
		return err
	}
	if err := c.state("terminal", &p.Terminal); err != nil {
		return err
	}
	for i := range p.Events {
		if err := c.event(&p.Events[i], i); err != nil {
			return fmt.Errorf("events[%d]: %w", i, err)
		}
	}
	if len(p.Provenance) != len(p.Events) {
		return fmt.Errorf("provenance: %d entries for %d events", len(p.Provenance), len(p.Events))
	}
	for i, pr := range p.Provenance {
		if err := checkProvenance(i, &pr, p.Events[i].Actor); err != nil {
			return err
		}
	}
	for i := range p.Transcript {
		if err := checkTurn(i, &p.Transcript[i]); err != nil {
			return err
		}
	}
	return nil
}

func checkProvenance(i int, pr *Provenance, actor model.Actor) error {
	if pr.Seq != i+1 || pr.Actor != actor {
		return fmt.Errorf("provenance[%d]: seq %d actor %q does not match event %d (actor %q)", i, pr.Seq, pr.Actor, i+1, actor)
	}
	return nil
}

func checkTurn(i int, t *Turn) error {
	if !slices.Contains(roles, t.Role) {
		return fmt.Errorf("transcript[%d]: role %q is not one of %s", i, t.Role, strings.Join(roles, ", "))
	}
	return nil
}

// checkHead checks the parts of a payload before its events, and returns
// the checker that holds the rest to its schema and goals.
func (p *Payload) checkHead() (*checker, error) {
	c := &checker{types: map[string]*EntityType{}, defs: map[string]map[string]*model.FieldDef{}, goals: map[string]bool{}}
	if p.Task == "" {
		return nil, fmt.Errorf("task: empty")
	}
	if err := c.schema(p.Schema); err != nil {
		return nil, err
	}
	schema := p.ModelSchema()
	if err := resolveGoals(p.Goals, &schema); err != nil {
		return nil, fmt.Errorf("goals: %w", err)
	}
	for _, g := range p.Goals {
		c.goals[g.Version] = true
	}
	if p.Reference != nil {
		for j, d := range p.Reference.Changes {
			if err := c.cell(&d); err != nil {
				return nil, fmt.Errorf("reference.changes[%d]: %w", j, err)
			}
		}
		for j, a := range p.Reference.Actions {
			if _, ok := model.Members(a.Args); !ok && a.Args.String() != "{}" {
				return nil, fmt.Errorf("reference.actions[%d]: args must be a JSON object, got %s", j, a.Args)
			}
		}
	}
	if err := c.state("initial", &p.Initial); err != nil {
		return nil, err
	}
	if p.Initial.GoalVersion != p.Goals[0].Version {
		return nil, fmt.Errorf("initial: goal_version %q; the first goal version, %q, is active at the start", p.Initial.GoalVersion, p.Goals[0].Version)
	}
	return c, nil
}

var fieldKinds = []model.FieldKind{model.KindString, model.KindInt, model.KindBool, model.KindEnum, model.KindRef, model.KindStrings, model.KindJSON}

func (c *checker) schema(types []EntityType) error {
	if len(types) == 0 {
		return fmt.Errorf("schema: no entity types")
	}
	for i := range types {
		t := &types[i]
		if t.Name == "" || c.types[t.Name] != nil {
			return fmt.Errorf("schema[%d]: type %q is unnamed or declared twice", i, t.Name)
		}
		c.types[t.Name] = t
		seen := map[string]bool{}
		defs := map[string]*model.FieldDef{}
		c.defs[t.Name] = defs
		for _, f := range t.Fields {
			ok := f.Name != "" && !seen[f.Name] && slices.Contains(fieldKinds, f.Kind) &&
				(f.Kind == model.KindEnum) == (len(f.Values) > 0) && (f.Kind == model.KindRef) == (f.Target != "")
			if !ok {
				return fmt.Errorf("schema: field %s.%q: bad name, kind, values or target", t.Name, f.Name)
			}
			seen[f.Name] = true
			defs[f.Name] = &model.FieldDef{Name: f.Name, Kind: f.Kind, Values: f.Values, Target: f.Target}
		}
	}
	for _, t := range types {
		for _, f := range t.Fields {
			if f.Kind == model.KindRef && c.types[f.Target] == nil {
				return fmt.Errorf("schema: field %s.%s references undeclared type %q", t.Name, f.Name, f.Target)
			}
		}
	}
	return nil
}

// field finds a declared field definition.
func (c *checker) field(typ, name string) (*model.FieldDef, bool) {
	fd, ok := c.defs[typ][name]
	return fd, ok
}

func (c *checker) fields(where string, typ string, fs Fields, typed bool) error {
	for i, f := range fs {
		fd, ok := c.field(typ, f.Name)
		if !ok {
			return fmt.Errorf("%s: type %s has no field %q", where, typ, f.Name)
		}
		if i > 0 && fs[i-1].Name == f.Name {
			return fmt.Errorf("%s: field %q twice", where, f.Name)
		}
		if msg := model.CheckValue(fd, f.Value); typed && msg != "" {
			return fmt.Errorf("%s: %s", where, msg)
		}
	}
	return nil
}

func (c *checker) state(where string, s *State) error {
	if !c.goals[s.GoalVersion] {
		return fmt.Errorf("%s: undeclared goal_version %q", where, s.GoalVersion)
	}
	seen := map[[2]string]bool{}
	for i, e := range s.Entities {
		w := fmt.Sprintf("%s.entities[%d]", where, i)
		if c.types[e.Type] == nil || e.ID == "" || seen[[2]string{e.Type, e.ID}] {
			return fmt.Errorf("%s: entity %s %q is of an undeclared type, unnamed or listed twice", w, e.Type, e.ID)
		}
		seen[[2]string{e.Type, e.ID}] = true
		for _, f := range e.Fields {
			if f.Value.IsNull() {
				return fmt.Errorf("%s: field %s is null; unset fields are left out", w, f.Name)
			}
		}
		if err := c.fields(w, e.Type, e.Fields, true); err != nil {
			return err
		}
	}
	return nil
}

var actors = []model.Actor{model.ActorAgent, model.ActorUser, model.ActorEnvironment, model.ActorSystem}

func (c *checker) event(ev *Event, i int) error {
	if ev.Seq != i+1 || ev.T != ev.Seq {
		return fmt.Errorf("seq %d, t %d: events are numbered 1, 2, … with t = seq", ev.Seq, ev.T)
	}
	// An agent's event is a step of the trajectory; a scripted one is
	// not; a user's may be either (a domain whose user calls tools, tau2
	// telecom's, has the user author steps).
	authored := ev.Actor == model.ActorAgent || ev.Actor == model.ActorUser
	if !slices.Contains(actors, ev.Actor) || ev.Op == "" || ev.Step < 0 || (ev.Actor == model.ActorAgent && ev.Step == 0) || (ev.Step > 0 && !authored) {
		return fmt.Errorf("actor %q, op %q, step %d: bad provenance", ev.Actor, ev.Op, ev.Step)
	}
	if ev.OK == (ev.Reason != "") {
		return fmt.Errorf("a failed event states a reason and a successful one does not")
	}
	if !ev.OK && len(ev.Diff) > 0 {
		return fmt.Errorf("a failed event changes nothing, yet it has a diff")
	}
	if ev.OK && !slices.Contains(ops, ev.Op) && ev.Op != model.OpCall {
		return fmt.Errorf("successful event with unknown op %q", ev.Op)
	}
	if (ev.Op == model.OpCall) != (ev.Tool != "") || (ev.Op == model.OpCall && (ev.Type != "" || ev.ID != "")) {
		return fmt.Errorf("op %q, tool %q: a call names its tool and no target; no other op names a tool", ev.Op, ev.Tool)
	}
	if ev.Goal != "" && !c.goals[ev.Goal] {
		return fmt.Errorf("undeclared goal %q", ev.Goal)
	}
	if ev.Op != model.OpCall && (ev.Type != "" || ev.ID != "" || len(ev.Args) > 0) {
		if c.types[ev.Type] == nil || ev.ID == "" {
			return fmt.Errorf("target %s %q is not a declared entity", ev.Type, ev.ID)
		}
		// A failed action may have asked for an ill-typed value; only the
		// field names must be declared.
		if err := c.fields("args", ev.Type, ev.Args, ev.OK); err != nil {
			return err
		}
	}
	if !c.goals[ev.GoalVersion] {
		return fmt.Errorf("undeclared goal_version %q", ev.GoalVersion)
	}
	for j, d := range ev.Diff {
		if err := c.cell(&d); err != nil {
			return fmt.Errorf("diff[%d]: %w", j, err)
		}
	}
	return nil
}

func (c *checker) cell(d *Cell) error {
	if d.Before.Equal(d.After) {
		return fmt.Errorf("before equals after: a diff lists changes only")
	}
	switch d.Field {
	case model.GoalField:
		if d.Type != "" || d.ID != "" || !c.goals[d.Before.AsString()] || !c.goals[d.After.AsString()] {
			return fmt.Errorf("a goal change names two declared goal versions and no entity")
		}
		return nil
	case model.AliveField:
		if d.After.Kind() != model.BoolValue || (d.Before.Kind() != model.BoolValue && !d.Before.IsNull()) {
			return fmt.Errorf("the alive flag goes from null or a boolean to a boolean")
		}
	default:
		fd, ok := c.field(d.Type, d.Field)
		if !ok {
			return fmt.Errorf("type %s has no field %q", d.Type, d.Field)
		}
		for _, v := range []model.Value{d.Before, d.After} {
			if msg := model.CheckValue(fd, v); msg != "" {
				return fmt.Errorf("%s", msg)
			}
		}
	}
	if c.types[d.Type] == nil || d.ID == "" {
		return fmt.Errorf("cell of undeclared entity %s %q", d.Type, d.ID)
	}
	return nil
}
