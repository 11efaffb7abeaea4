package pbcste

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
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

// TestBuildPlacesEachEntity: a snapshot built from a task's initial
// entities (written once each, chunks and index sized ahead) is the one
// that placing them one by one makes: the same records byte for byte,
// slot by slot, the same hash, counts and lookups, over several chunks,
// with fields in any order, nulls and deleted entities.
func TestBuildPlacesEachEntity(t *testing.T) {
	task := encodingTask()
	r := rand.New(rand.NewPCG(3, 1))
	task.Initial = nil
	for i := range 3*chunkSize + 17 {
		e := model.Entity{Type: "thing", ID: fmt.Sprintf("T%04d", i), Deleted: r.IntN(9) == 0}
		for _, f := range []string{"s", "n", "b", "l", "j"} {
			if r.IntN(4) > 0 {
				e.Fields = append(e.Fields, model.Assign{Field: f, Value: randomValue(r, f)})
			}
		}
		r.Shuffle(len(e.Fields), func(i, j int) { e.Fields[i], e.Fields[j] = e.Fields[j], e.Fields[i] })
		task.Initial = append(task.Initial, e)
	}
	env, err := Compile(task)
	if err != nil {
		t.Fatal(err)
	}
	built, err := env.build()
	if err != nil {
		t.Fatal(err)
	}
	placed := newState(env)
	for _, e := range task.Initial {
		ti := env.typeIdx[e.Type]
		vals := make([]model.Value, len(env.types[ti].fields))
		for _, a := range e.Fields {
			vals[env.types[ti].fieldIdx[a.Field]] = a.Value
		}
		placed.place(int32(ti), e.ID, !e.Deleted, vals)
	}
	if built.n != placed.n || built.sum != placed.sum || fmt.Sprint(built.counts) != fmt.Sprint(placed.counts) || fmt.Sprint(built.matches) != fmt.Sprint(placed.matches) {
		t.Fatalf("built %d slots, hash %s, counts %v; placed %d, %s, %v", built.n, built.sum, built.counts, placed.n, placed.sum, placed.counts)
	}
	for slot := range built.n {
		b, p := built.rec(slot), placed.rec(slot)
		if !bytes.Equal(b[:b.size()], p[:p.size()]) {
			t.Fatalf("slot %d: built record %q, placed %q", slot, b[:b.size()], p[:p.size()])
		}
		if got, ok := built.slotOf(b.typ(), built.idOf(slot, false)); !ok || got != slot {
			t.Fatalf("slot %d: the built index finds %d, %v", slot, got, ok)
		}
	}
	dup := *task
	dup.Initial = append(slices.Clone(task.Initial), task.Initial[5])
	if _, err := Compile(&dup); err == nil || !strings.Contains(err.Error(), "appears twice") {
		t.Fatalf("an entity given twice: %v", err)
	}
}

// TestWriteCopiesOnlyItsRecord: a state that shares its chunks with
// another (a clone, the initial snapshot) copies, when it first writes a
// slot, that slot's record and its chunk's offsets, never the chunk's
// other records; the states it shares with read on as they were, and a
// clone of a state that wrote reads its writes and copies them alone.
func TestWriteCopiesOnlyItsRecord(t *testing.T) {
	task := encodingTask()
	task.Initial = nil
	for i := range 3 * chunkSize {
		task.Initial = append(task.Initial, model.Entity{Type: "thing", ID: fmt.Sprintf("T%03d", i),
			Fields: []model.Assign{{Field: "s", Value: model.Str(strings.Repeat("y", 100))}, {Field: "n", Value: model.Int(int64(i))}}})
	}
	env, err := Compile(task)
	if err != nil {
		t.Fatal(err)
	}
	set := func(s *State, id string, n int64) {
		t.Helper()
		a := model.Action{Op: model.OpUpdate, Type: "thing", ID: id, Fields: []model.Assign{{Field: "n", Value: model.Int(n)}}}
		if _, msg, _ := s.apply(&a, nil, true); msg != "" {
			t.Fatal(msg)
		}
	}
	n := func(s *State, id string) string {
		slot, _ := s.lookup(0, id)
		return s.fields(slot)[1].String()
	}
	// ownData is the bytes of chunk c's records that s holds itself.
	ownData := func(s *State, c int) int { return len(s.chunks[c].data) }
	start := env.Begin(0).state
	a := start.Clone()
	set(a, "T130", -1)
	b := a.Clone()
	set(b, "T131", -2)
	set(a, "T132", -3)
	recSize := func(s *State, id string) int { slot, _ := s.lookup(0, id); return s.rec(slot).size() }
	if got, want := ownData(a, 1), recSize(a, "T130")+recSize(a, "T132"); got != want {
		t.Errorf("after writing two records of a shared chunk, a state holds %d bytes of it, want the two records' %d", got, want)
	}
	if got, want := ownData(b, 1), recSize(b, "T130")+recSize(b, "T131"); got != want {
		t.Errorf("a clone that wrote one record holds %d bytes of the chunk, want its parent's write and its own, %d", got, want)
	}
	for _, c := range []struct {
		s    *State
		name string
		want [3]string
	}{
		{start, "the initial state", [3]string{"130", "131", "132"}},
		{a, "a", [3]string{"-1", "131", "-3"}},
		{b, "b, a's clone", [3]string{"-1", "-2", "132"}},
	} {
		for i, id := range []string{"T130", "T131", "T132"} {
			if got := n(c.s, id); got != c.want[i] {
				t.Errorf("%s reads %s.n = %s, want %s", c.name, id, got, c.want[i])
			}
		}
		checkEncodings(t, 0, c.s)
	}
}

// TestFieldsReadsEachField: a tool reading a record whole (the state's
// model.RecordView, and model.AliasView appending to a buffer it reuses)
// reads what it reads field by field, after every step of a random run; a
// missing or deleted entity reads as none.
func TestFieldsReadsEachField(t *testing.T) {
	env, err := Compile(encodingTask())
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(9, 2))
	ops := []model.Op{model.OpCreate, model.OpUpdate, model.OpUpdate, model.OpDelete, model.OpRestore}
	run := env.Begin(0)
	var buf []model.Value
	for range 500 {
		a := model.Action{Op: ops[r.IntN(len(ops))], Type: "thing", ID: string(rune('A' + r.IntN(6)))}
		if a.Op == model.OpCreate || a.Op == model.OpUpdate {
			for _, f := range []string{"s", "n", "b", "l", "j"} {
				if r.IntN(3) == 0 {
					a.Fields = append(a.Fields, model.Assign{Field: f, Value: randomValue(r, f)})
				}
			}
		}
		run.Step(&model.Step{Action: a})
		v := run.state.View().(model.AliasView)
		for _, id := range []string{"A", "B", "C", "D", "E", "F", "G"} {
			vals, ok := v.Fields("thing", id)
			if ok != v.Alive("thing", id) || ok && len(vals) != 5 {
				t.Fatalf("thing %s: Fields %v (%d values), Alive %v", id, ok, len(vals), v.Alive("thing", id))
			}
			aliased, aok := v.FieldsAlias(append(buf[:0], model.Str("kept")), "thing", id)
			if aok != ok || aliased[0] != model.Str("kept") || ok && len(aliased) != 6 || !ok && len(aliased) != 1 {
				t.Fatalf("thing %s: FieldsAlias %v (%d values, the first %v), Fields %v", id, aok, len(aliased), aliased[0], ok)
			}
			buf = aliased
			for j, f := range []string{"s", "n", "b", "l", "j"} {
				want, _ := v.Field("thing", id, f)
				if ok && !vals[j].Equal(want) {
					t.Fatalf("thing %s.%s: Fields reads %v, Field %v", id, f, vals[j], want)
				}
				if ok && !aliased[1+j].Equal(want) {
					t.Fatalf("thing %s.%s: FieldsAlias reads %v, Field %v", id, f, aliased[1+j], want)
				}
			}
		}
	}
}
