package evaluators_test

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/parthack/parthack/evaluators"
	"github.com/parthack/parthack/internal/fixture"
	"github.com/parthack/parthack/internal/payload"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
)

// goalPatchTask is the example's world with two goal versions exercising
// every expression form, non-agent events that touch predicates, a
// scripted recreation and goal revisions back and forth.
const goalPatchTask = `{
  "id": "GP-01", "instruction": "Triage, then follow the revised goal.",
  "schema": {
    "user": {"name": "string", "team": {"kind": "enum", "values": ["it", "sales"]}},
    "ticket": {"title": "string", "status": {"kind": "enum", "values": ["open", "pending", "closed"]},
               "assignee": {"kind": "ref", "target": "user"}, "tags": "strings", "priority": "int"}
  },
  "initial": [
    {"type": "user", "id": "U1", "fields": {"name": "Dana", "team": "it"}},
    {"type": "user", "id": "U2", "fields": {"name": "Eli", "team": "sales"}},
    {"type": "ticket", "id": "T1", "fields": {"title": "Printer down", "status": "open", "tags": [], "priority": 2}},
    {"type": "ticket", "id": "T2", "fields": {"title": "Printer not working", "status": "open", "tags": [], "priority": 3}},
    {"type": "ticket", "id": "T4", "deleted": true, "fields": {"title": "Old", "status": "closed", "priority": 1}}
  ],
  "allowlist": {"ops": ["create", "update", "delete", "restore"], "fields": {"ticket": ["title", "status", "assignee", "tags", "priority"]}},
  "goals": [
    {"version": "v1", "predicates": [
      {"id": "dup-closed", "expr": {"field": {"type": "ticket", "id": "T2", "field": "status", "cmp": "eq", "value": "closed"}}},
      {"id": "assigned", "expr": {"ref": {"type": "ticket", "id": "T1", "field": "assignee", "target": "U1"}}},
      {"id": "tagged", "expr": {"field": {"type": "ticket", "id": "T1", "field": "tags", "cmp": "contains", "value": "hardware"}}},
      {"id": "one-open", "expr": {"count": {"type": "ticket", "where": [{"field": "status", "cmp": "eq", "value": "open"}], "cmp": "eq", "n": 1}}}
    ]},
    {"version": "v2", "predicates": [
      {"id": "t1-parked", "expr": {"field": {"type": "ticket", "id": "T1", "field": "status", "cmp": "in", "values": ["pending", "closed"]}}},
      {"id": "no-t3", "expr": {"absent": {"type": "ticket", "id": "T3"}}},
      {"id": "someone-owns", "expr": {"any": [{"ref": {"type": "ticket", "id": "T1", "field": "assignee"}}, {"ref": {"type": "ticket", "id": "T2", "field": "assignee"}}]}},
      {"id": "few-urgent", "expr": {"all": [{"count": {"type": "ticket", "where": [{"field": "priority", "cmp": "le", "value": 1}], "cmp": "le", "n": 1}},
                                            {"alive": {"type": "ticket", "id": "T2"}}]}},
      {"id": "t2-untagged", "expr": {"not": {"field": {"type": "ticket", "id": "T2", "field": "tags", "cmp": "contains", "value": "hardware"}}}},
      {"id": "t4-low", "expr": {"field": {"type": "ticket", "id": "T4", "field": "priority", "cmp": "gt", "value": 1}}}
    ]}
  ],
  "script": [
    {"after": 1, "actor": "environment", "op": "update", "type": "ticket", "id": "T1", "fields": {"status": "pending"}},
    {"after": 3, "actor": "user", "op": "revise_goal", "goal": "v2"},
    {"after": 4, "actor": "user", "op": "create", "type": "ticket", "id": "T3", "fields": {"title": "New", "status": "open"}},
    {"after": 6, "actor": "system", "op": "delete", "type": "user", "id": "U2"},
    {"after": 7, "actor": "user", "op": "revise_goal", "goal": "v1"}
  ]
}`

// randomSteps draws agent steps over the tasks' world, legal and not.
func randomSteps(rng *rand.Rand) []model.Step {
	ids := []string{"T1", "T2", "T3", "T4"}
	values := map[string][]model.Value{
		"status":   {model.Str("open"), model.Str("pending"), model.Str("closed"), model.Str("bogus")},
		"assignee": {model.Str("U1"), model.Str("U2"), model.Null, model.Str("U9")},
		"tags":     {model.List([]string{}), model.List([]string{"hardware"}), model.List([]string{"x", "hardware"})},
		"priority": {model.Int(0), model.Int(1), model.Int(2), model.Int(3)},
		"title":    {model.Str("a"), model.Null},
	}
	fields := []string{"status", "assignee", "tags", "priority", "title"}
	ops := []model.Op{model.OpCreate, model.OpUpdate, model.OpUpdate, model.OpDelete, model.OpRestore}
	steps := make([]model.Step, rng.IntN(15))
	for i := range steps {
		a := model.Action{Op: ops[rng.IntN(len(ops))], Type: "ticket", ID: ids[rng.IntN(len(ids))]}
		switch rng.IntN(12) {
		case 0:
			a.Type = "user" // not allowlisted: fails
		case 1:
			a = model.Action{Op: model.OpReviseGoal, Goal: "v2"} // never an agent action: fails
		}
		if a.Op == model.OpCreate || a.Op == model.OpUpdate {
			for _, f := range fields {
				if rng.IntN(3) == 0 {
					vs := values[f]
					a.Fields = append(a.Fields, model.Assign{Field: f, Value: vs[rng.IntN(len(vs))]})
				}
			}
		}
		steps[i] = model.Step{Action: a, Index: i}
	}
	return steps
}

// TestPrefixesMatchNaive checks the one-pass Prefixes against a naive
// scorer that rebuilds every prefix's states from scratch, evaluates every
// predicate with the environment's own evaluator, walks the log backward
// for latest causes, and applies SPEC §5's definitions literally. It also
// holds CSPS and Lightweight CAPE to the trusted replay's vectors after
// every event.
func TestPrefixesMatchNaive(t *testing.T) {
	gp, err := model.DecodeTask("goalpatch", []byte(goalPatchTask))
	if err != nil {
		t.Fatal(err)
	}
	for ti, task := range []*model.Task{fixture.ExampleTask(t), gp} {
		env, err := pbcste.Compile(task)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(uint64(ti), 7))
		for trial := 0; trial < 300; trial++ {
			steps := randomSteps(rng)
			s := score(t, task, env, steps)
			got, err := evaluators.Prefixes(s.p)
			if err != nil {
				t.Fatalf("%s trial %d: %v", task.ID, trial, err)
			}
			want := naive(t, s.p)
			where := fmt.Sprintf("%s trial %d (%d events)", task.ID, trial, len(s.p.Events))
			for i, ser := range got {
				if len(ser.Values) != len(s.p.Events)+1 {
					t.Fatalf("%s: %s has %d values", where, ser.Name, len(ser.Values))
				}
				for k, v := range ser.Values {
					if v != want[k][i] {
						t.Fatalf("%s: %s after %d events = %v, naive %v", where, ser.Name, k, v, want[k][i])
					}
				}
				if last := ser.Values[len(ser.Values)-1]; last != s.scores[i] {
					t.Fatalf("%s: %s: last prefix %v, ScoreAll %v", where, ser.Name, last, s.scores[i])
				}
			}
			for seq, ev := range s.log.Events {
				m := float64(len(env.Goals()[ev.Goal].Preds))
				if st, ag := float64(bits.OnesCount64(ev.CState))/m, float64(bits.OnesCount64(ev.CAgent))/m; got[csps].Values[seq+1] != st || got[lwCape].Values[seq+1] != ag {
					t.Fatalf("%s: after event %d CSPS %v, Lightweight CAPE %v; the trusted vectors give %v, %v",
						where, seq+1, got[csps].Values[seq+1], got[lwCape].Values[seq+1], st, ag)
				}
			}
		}
	}
}

// naive scores every prefix k = 0 … n of p from scratch.
func naive(t *testing.T, p *payload.Payload) [][6]float64 {
	t.Helper()
	schema := p.ModelSchema()
	goals := make([]model.GoalVersion, len(p.Goals))
	for i, g := range p.Goals {
		goals[i].Version = g.Version
		for _, pr := range g.Predicates {
			goals[i].Predicates = append(goals[i].Predicates, model.Predicate{ID: pr.ID, Expr: pr.Expr.Expr})
		}
	}
	version := func(name string) int {
		for i, g := range goals {
			if g.Version == name {
				return i
			}
		}
		t.Fatalf("no goal version %s", name)
		return 0
	}
	n := len(p.Events)
	truth := make([][][]bool, n+1) // [k][version][predicate]
	agent := make([][][]bool, n+1)
	active := make([]int, n+1)
	for k := 0; k <= n; k++ {
		env, err := pbcste.Compile(&model.Task{ID: p.Task, Schema: schema, Initial: rebuild(p, k), Goals: goals})
		if err != nil {
			t.Fatal(err)
		}
		s := env.Initial()
		truth[k] = make([][]bool, len(goals))
		agent[k] = make([][]bool, len(goals))
		for gi, g := range env.Goals() {
			for _, pr := range g.Preds {
				truth[k][gi] = append(truth[k][gi], s.Eval(pr))
				by := false
				for e := k - 1; e >= 0; e-- {
					if p.Events[e].OK && touches(&schema, &pr.Expr, p.Events[e].Diff) {
						by = p.Provenance[e].Actor == model.ActorAgent
						break
					}
				}
				agent[k][gi] = append(agent[k][gi], by)
			}
		}
		active[k] = version(p.Initial.GoalVersion)
		if k > 0 {
			active[k] = version(p.Events[k-1].GoalVersion)
		}
	}
	psi := func(t, v int, attributed bool) float64 {
		c := 0
		for j, ok := range truth[t][v] {
			if ok && (!attributed || agent[t][v][j]) {
				c++
			}
		}
		return float64(c) / float64(len(truth[t][v]))
	}
	out := make([][6]float64, n+1)
	for k := 0; k <= n; k++ {
		var s [6]float64
		for v := range goals {
			ever := 0
			for j := range goals[v].Predicates {
				for u := 0; u <= k; u++ {
					if active[u] == v && truth[u][v][j] {
						ever++
						break
					}
				}
			}
			s[hm] = max(s[hm], float64(ever)/float64(len(goals[v].Predicates)))
		}
		for u := 0; u <= k; u++ {
			s[pm] = max(s[pm], psi(u, active[u], false))
			s[capeMax] = max(s[capeMax], psi(u, active[u], true))
		}
		s[csps], s[lwCape] = psi(k, active[k], false), psi(k, active[k], true)
		if s[csps] == 1 {
			s[terminal] = 1
		}
		out[k] = s
	}
	return out
}

// rebuild applies the first k events' diffs to the initial state.
func rebuild(p *payload.Payload, k int) []model.Entity {
	type rec struct {
		deleted bool
		fields  map[string]model.Value
	}
	var order [][2]string
	ents := map[[2]string]*rec{}
	get := func(typ, id string) *rec {
		key := [2]string{typ, id}
		if ents[key] == nil {
			ents[key] = &rec{fields: map[string]model.Value{}}
			order = append(order, key)
		}
		return ents[key]
	}
	for _, e := range p.Initial.Entities {
		r := get(e.Type, e.ID)
		r.deleted = e.Deleted
		for _, f := range e.Fields {
			r.fields[f.Name] = f.Value
		}
	}
	for _, ev := range p.Events[:k] {
		for _, c := range ev.Diff {
			switch c.Field {
			case model.GoalField:
			case model.AliveField:
				get(c.Type, c.ID).deleted = !c.After.AsBool()
			default:
				get(c.Type, c.ID).fields[c.Field] = c.After
			}
		}
	}
	out := make([]model.Entity, 0, len(order))
	for _, key := range order {
		r := ents[key]
		e := model.Entity{Type: key[0], ID: key[1], Deleted: r.deleted}
		for name, v := range r.fields {
			if !v.IsNull() {
				e.Fields = append(e.Fields, model.Assign{Field: name, Value: v})
			}
		}
		out = append(out, e)
	}
	return out
}

// touches says whether a diff changes a cell the expression reads
// (SPEC §3a), written out case by case.
func touches(s *model.Schema, x *model.Expr, diff []payload.Cell) bool {
	for _, c := range diff {
		if reads(s, x, c) {
			return true
		}
	}
	return false
}

func reads(s *model.Schema, x *model.Expr, c payload.Cell) bool {
	same := c.Type == x.Type && c.ID == x.ID
	alive := c.Field == model.AliveField
	switch x.Kind {
	case model.ExprAll, model.ExprAny, model.ExprNot:
		for i := range x.Args {
			if reads(s, &x.Args[i], c) {
				return true
			}
		}
		return false
	case model.ExprAlive, model.ExprAbsent:
		return same && alive
	case model.ExprField:
		return same && (alive || c.Field == x.Field)
	case model.ExprCount:
		if c.Type != x.Type {
			return false
		}
		if alive {
			return true
		}
		for _, w := range x.Where {
			if w.Field == c.Field {
				return true
			}
		}
		return false
	case model.ExprRef:
		if same && (alive || c.Field == x.Field) {
			return true
		}
		et, _ := s.Type(x.Type)
		fd, _ := et.Field(x.Field)
		return alive && c.Type == fd.Target && (x.Target == "" || c.ID == x.Target)
	}
	return false
}
