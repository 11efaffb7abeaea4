package pbcste

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/predicate"
)

// encodingTask has a field of every kind, so that writes re-encode
// values of every kind, growing and shrinking.
func encodingTask() *model.Task {
	fields := []model.FieldDef{{Name: "s", Kind: model.KindString}, {Name: "n", Kind: model.KindInt},
		{Name: "b", Kind: model.KindBool}, {Name: "l", Kind: model.KindStrings}, {Name: "j", Kind: model.KindJSON}}
	return &model.Task{
		ID:     "ENC-01",
		Schema: model.Schema{Types: []model.EntityType{{Name: "thing", Fields: fields}}},
		Initial: []model.Entity{
			{Type: "thing", ID: "A", Fields: []model.Assign{{Field: "s", Value: model.Str("alpha")}, {Field: "n", Value: model.Int(7)}}},
			{Type: "thing", ID: "B", Deleted: true},
		},
		Allowlist: model.Allowlist{Ops: []model.Op{model.OpCreate, model.OpUpdate, model.OpDelete, model.OpRestore},
			Fields: map[string][]string{"thing": {"s", "n", "b", "l", "j"}}},
		Goals: []model.GoalVersion{{Version: "v1", Predicates: []model.Predicate{{ID: "true-things", Expr: model.Expr{
			Kind: model.ExprCount, Type: "thing", Where: []model.Cond{{Field: "b", Cmp: model.CmpEq, Value: model.Bool(true)}}, Cmp: model.CmpGe,
		}}}}},
	}
}

// randomValue is a value for field f, of a random size, or null.
func randomValue(r *rand.Rand, f string) model.Value {
	if r.IntN(8) == 0 {
		return model.Null
	}
	word := strings.Repeat("x", r.IntN(200))
	switch f {
	case "s":
		return model.Str(word)
	case "n":
		return model.Int(r.Int64N(1<<40) - 1<<39)
	case "b":
		return model.Bool(r.IntN(2) == 0)
	case "l":
		return model.List(strings.Split(word, "")[:min(len(word), r.IntN(5))])
	}
	return model.MustJSON(fmt.Sprintf(`{"k":%q}`, word))
}

// TestEncodingFollowsWrites: after every step of a random run, each
// slot's kept encoding is the one encoded afresh from its fields, its
// digest is that encoding's, and the state hash is their sum.
func TestEncodingFollowsWrites(t *testing.T) {
	env, err := Compile(encodingTask())
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(5, 8))
	ops := []model.Op{model.OpCreate, model.OpUpdate, model.OpUpdate, model.OpUpdate, model.OpDelete, model.OpRestore}
	run := env.Begin(0)
	for i := range 3000 {
		a := model.Action{Op: ops[r.IntN(len(ops))], Type: "thing", ID: string(rune('A' + r.IntN(6)))}
		if a.Op == model.OpCreate || a.Op == model.OpUpdate {
			for _, f := range []string{"s", "n", "b", "l", "j"} {
				if r.IntN(3) == 0 {
					a.Fields = append(a.Fields, model.Assign{Field: f, Value: randomValue(r, f)})
				}
			}
		}
		run.Step(&model.Step{Action: a})
		checkEncodings(t, i, run.state)
	}
}

func checkEncodings(t *testing.T, step int, s *State) {
	t.Helper()
	sum := s.env.goalDigest(s.goal)
	for slot := range s.slots() {
		r := s.rec(slot)
		if !r.exists() {
			continue
		}
		fields := s.fields(slot)
		if len(fields) != len(s.env.types[r.typ()].fields) {
			t.Fatalf("step %d: slot %d decodes to %d fields, its type has %d", step, slot, len(fields), len(s.env.types[r.typ()].fields))
		}
		want := s.env.appendHeader(nil, r.typ(), s.idOf(slot, false), r.alive())
		for _, v := range fields {
			want = appendValue(want, v)
		}
		if !bytes.Equal(r.enc(), want) {
			t.Fatalf("step %d: slot %d (%s) keeps encoding %q, its fields encode as %q", step, slot, s.idOf(slot, false), r.enc(), want)
		}
		if r.digest() != digest(want) {
			t.Fatalf("step %d: slot %d digest is not its encoding's", step, slot)
		}
		sum = sum.add(r.digest())
	}
	if sum != s.sum {
		t.Fatalf("step %d: state hash %s, its slots sum to %s", step, s.sum, sum)
	}
	for ci, ce := range s.env.counts {
		var n int64
		for slot := range s.slots() {
			if r := s.rec(slot); r.exists() && r.alive() && int(r.typ()) == ce.Type() && ce.Matches(predicate.Values(s.fields(slot))) {
				n++
			}
		}
		if n != s.counts[ci] {
			t.Fatalf("step %d: count %d is kept as %d, its slots give %d", step, ci, s.counts[ci], n)
		}
	}
}
