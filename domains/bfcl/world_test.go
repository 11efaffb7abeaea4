package bfcl

import (
	"bytes"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"github.com/parthack/parthack/domains/bfcl/classes"
	"github.com/parthack/parthack/domains/bfcl/pyval"
	"github.com/parthack/parthack/model"
)

// TestSame holds same, which spares a call marshalling the attributes it
// left alone, to its promise: true only for values Marshal writes alike.
func TestSame(t *testing.T) {
	shared := pyval.NewList(int64(1))
	r1, err := pyval.NewRandom(int64(7))
	if err != nil {
		t.Fatal(err)
	}
	r2 := pyval.DeepCopy(r1).(*pyval.Random)
	drawn := pyval.DeepCopy(r1).(*pyval.Random)
	if _, err := drawn.Randint(1, 6); err != nil {
		t.Fatal(err)
	}
	root := fsRoot(t)
	for _, c := range []struct {
		name string
		a, b pyval.Value
		same bool
	}{
		{"equal ints", int64(3), int64(3), true},
		{"int and float", int64(1), 1.0, false},
		{"int and bool", int64(1), true, false},
		{"zero and negative zero", 0.0, math.Copysign(0, -1), false},
		{"one NaN", math.NaN(), math.NaN(), true},
		{"big ints", new(big.Int).Lsh(big.NewInt(1), 70), new(big.Int).Lsh(big.NewInt(1), 70), true},
		{"None and empty str", nil, "", false},
		{"nested lists", pyval.NewList(int64(1), pyval.NewList("a")), pyval.NewList(int64(1), pyval.NewList("a")), true},
		{"list and tuple", pyval.NewList(int64(1)), pyval.Tuple{int64(1)}, false},
		{"dict order", pyval.DictOf(pyval.Item{Key: "a", Value: int64(1)}, pyval.Item{Key: "b", Value: int64(2)}),
			pyval.DictOf(pyval.Item{Key: "b", Value: int64(2)}, pyval.Item{Key: "a", Value: int64(1)}), false},
		{"dict key 1 and 1.0", pyval.DictOf(pyval.Item{Key: int64(1), Value: "x"}), pyval.DictOf(pyval.Item{Key: 1.0, Value: "x"}), false},
		{"a list shared, the same shape", pyval.NewList(shared, shared), pyval.DeepCopy(pyval.NewList(shared, shared)), true},
		{"a list shared, and two lists", pyval.NewList(shared, shared), pyval.NewList(pyval.NewList(int64(1)), pyval.NewList(int64(1))), false},
		{"two lists, and a list shared", pyval.NewList(pyval.NewList(int64(1)), pyval.NewList(int64(1))), pyval.NewList(shared, shared), false},
		{"a generator and its copy", r1, r2, true},
		{"a generator, and one a draw on", r1, drawn, false},
		{"a generator shared, and two alike", pyval.NewList(r1, r1), pyval.NewList(r1, r2), false},
		{"a file system and its copy (parent links)", root, pyval.DeepCopy(root), true},
		{"a file system and another", root, fsRootWith(t, "other.txt"), false},
	} {
		ma, erra := pyval.Marshal(c.a)
		mb, errb := pyval.Marshal(c.b)
		if erra != nil || errb != nil {
			t.Fatalf("%s: %v %v", c.name, erra, errb)
		}
		if got := same(c.a, c.b); got != c.same {
			t.Errorf("%s: same %v, want %v", c.name, got, c.same)
		}
		if same(c.a, c.b) && !bytes.Equal(ma, mb) {
			t.Errorf("%s: same, yet Marshal writes %s and %s", c.name, ma, mb)
		}
	}
}

// TestSameWalkAfresh: a walk that compares one attribute after another
// (as CallAs does) pairs no pointer of one comparison with the next's.
func TestSameWalkAfresh(t *testing.T) {
	shared := pyval.NewList(int64(1))
	var w sameWalk
	for i, b := range []pyval.Value{pyval.NewList(int64(1)), pyval.NewList(int64(1))} {
		if !w.same(pyval.NewList(shared), pyval.NewList(b)) {
			t.Errorf("comparison %d: not the same", i)
		}
	}
}

// fsRoot is a GorillaFileSystem's root as an entry loads it.
func fsRoot(t *testing.T) pyval.Value { return fsRootWith(t, "") }

// fsRootWith is that root, with a file of that name touched ("" none).
func fsRootWith(t *testing.T, touch string) pyval.Value {
	t.Helper()
	e, err := EntryByID("multi_turn_base_0")
	if err != nil {
		t.Fatal(err)
	}
	s, err := classes.NewSession(e.InitialConfig, e.InvolvedClasses, executorModel, e.ID)
	if err != nil {
		t.Fatal(err)
	}
	if touch != "" {
		if res := s.Execute([]string{fmt.Sprintf("touch(file_name=%q)", touch)}); strings.HasPrefix(res[0], errorPrefix) {
			t.Fatalf("touch: %s", res[0])
		}
	}
	for _, in := range s.Instances {
		if v, ok := in.Get("root"); ok && in.Class.Name == "GorillaFileSystem" {
			return v
		}
	}
	t.Fatal("multi_turn_base_0 has no GorillaFileSystem root")
	return nil
}

// marshalledCall is a call as the world made it before same: every
// attribute of every stateful instance decoded from its cell, and after
// the call marshalled and compared with it.
func marshalledCall(w *World, v model.StateView, tool string, args model.Value) ([]model.Action, string, string) {
	s := w.session.Clone()
	before := map[string][]string{}
	for _, in := range s.Instances {
		c := in.Class
		if c.Stateless {
			continue
		}
		for _, name := range w.attrs[c.Name] {
			f, _ := v.Field(c.Name, c.Name, name)
			x, err := Value(f)
			if err != nil {
				return nil, "", err.Error()
			}
			in.Attrs = append(in.Attrs, classes.Attr{Name: name, Value: x})
			before[c.Name] = append(before[c.Name], f.AsString())
		}
	}
	res := s.Execute([]string{CallString(tool, args.AppendJSON(nil))})[0]
	var writes []model.Action
	for _, in := range s.Instances {
		c := in.Class
		if c.Stateless {
			continue
		}
		var fields []model.Assign
		for i, a := range in.Attrs {
			nv, err := cell(a.Value)
			if err != nil {
				return nil, "", err.Error()
			}
			if nv.AsString() != before[c.Name][i] {
				fields = append(fields, model.Assign{Field: a.Name, Value: nv})
			}
		}
		if len(fields) > 0 {
			writes = append(writes, model.Action{Op: model.OpUpdate, Type: c.Name, ID: c.Name, Fields: fields})
		}
	}
	if len(writes) == 0 && strings.HasPrefix(res, errorPrefix) {
		return nil, "", res
	}
	return writes, res, ""
}

// TestCallsAsMarshalled holds every gold call of every entry, made on the
// state gold's calls before it leave, to the writes, result and failure
// of the same call with every attribute decoded from its cell and
// marshalled again: sparing what same finds unchanged, and the cells
// decoded once for every world, change nothing.
func TestCallsAsMarshalled(t *testing.T) {
	es, err := Entries()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range es {
		task, err := Derive(e)
		if err != nil {
			t.Fatalf("%s: %v", e.ID, err)
		}
		env, err := task.Env()
		if err != nil {
			t.Fatal(err)
		}
		r := env.Begin(len(task.Gold.Steps))
		for i := range task.Gold.Steps {
			st := &task.Gold.Steps[i]
			if st.Actor != model.ActorUser {
				w1, res1, fail1 := task.World.CallAs(r.View(), model.ActorAgent, st.Tool, st.Args)
				w2, res2, fail2 := marshalledCall(task.World, r.View(), st.Tool, st.Args)
				if res1 != res2 || fail1 != fail2 || !reflect.DeepEqual(w1, w2) {
					t.Fatalf("%s step %d (%s): the world's call gives %v %q %q; marshalling every attribute, %v %q %q",
						e.ID, i, st.Tool, w1, res1, fail1, w2, res2, fail2)
				}
			}
			r.Step(st)
		}
	}
}

// TestTurnGoalsOfOneReplay holds each turn's net changes, taken from one
// replay of gold, to those of the replay of gold's steps by that turn's
// end alone.
func TestTurnGoalsOfOneReplay(t *testing.T) {
	es, err := Entries()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range es {
		task, err := Derive(e)
		if err != nil {
			t.Fatalf("%s: %v", e.ID, err)
		}
		env, err := task.Env()
		if err != nil {
			t.Fatal(err)
		}
		var ends []int // where each turn's steps end: the next user step, or gold's end
		for i, st := range task.Gold.Steps {
			if st.Actor == model.ActorUser && i > 0 {
				ends = append(ends, i)
			}
		}
		ends = append(ends, len(task.Gold.Steps))
		for turn, end := range ends {
			want := public(env.Replay(task.Gold.Steps[:end]).NetChanges())
			if got := task.TurnChanges[turn]; !reflect.DeepEqual(got, want) {
				t.Fatalf("%s turn %d: %v from one replay, %v from the turn's own", e.ID, turn, got, want)
			}
		}
	}
}

// TestOneTaskIsTasksTask: the task derived alone for a command about one
// entry is the one the domain's tasks, derived side by side, hold at
// that entry's place.
func TestOneTaskIsTasksTask(t *testing.T) {
	const id = "multi_turn_miss_param_17"
	one, err := domain{}.Task(id)
	if err != nil || one == nil || one.ID != id {
		t.Fatalf("Task(%s): %v, %v", id, one, err)
	}
	if none, err := (domain{}).Task("multi_turn_base_200"); none != nil || err != nil {
		t.Fatalf("Task of no entry: %v, %v; want neither", none, err)
	}
	all, err := domain{}.Tasks()
	if err != nil {
		t.Fatal(err)
	}
	es, _ := Entries()
	for i, e := range es {
		if all[i].ID != e.ID {
			t.Fatalf("task %d is %s, entry %s", i, all[i].ID, e.ID)
		}
		if e.ID == id && all[i] != one {
			t.Errorf("Tasks holds another task of %s than Task gave", id)
		}
	}
}

// cellView reads one cell as given, every other from the state.
type cellView struct {
	model.StateView
	typ, field string
	v          model.Value
}

func (c cellView) Field(typ, id, field string) (model.Value, bool) {
	if typ == c.typ && field == c.field {
		return c.v, true
	}
	return c.StateView.Field(typ, id, field)
}

// TestUntouchedInstanceNotWritten: a call on one class neither reads nor
// writes another's instance, as BFCL's calls run on the instances
// themselves: a pwd of the file system (multi_turn_base_14) leaves
// MessageAPI's generated_ids, inserted 2 then 1, as it stands (a deep
// copy, which builds a set again in its iteration order, 1 then 2,
// wrote it anew before).
func TestUntouchedInstanceNotWritten(t *testing.T) {
	e, err := EntryByID("multi_turn_base_14")
	if err != nil {
		t.Fatal(err)
	}
	task, err := Derive(e)
	if err != nil {
		t.Fatal(err)
	}
	env, err := task.Env()
	if err != nil {
		t.Fatal(err)
	}
	v := cellView{env.Begin(0).View(), "MessageAPI", "generated_ids", model.Str(`{"object":"set","state":[2,1]}`)}
	writes, res, fail := task.World.CallAs(v, model.ActorAgent, "pwd", model.MustJSON(`{}`))
	if fail != "" || strings.HasPrefix(res, errorPrefix) || len(writes) != 0 {
		t.Fatalf("pwd: writes %v, %q %q; want none", writes, res, fail)
	}
}

// TestCellAllocatesItsText: marshalling an attribute to its cell
// allocates the cell's text and nothing else (its buffer kept for the
// next cell, strings and objects written into it straight, a seeded
// generator's state too).
func TestCellAllocatesItsText(t *testing.T) {
	r, err := pyval.NewRandom(int64(7))
	if err != nil {
		t.Fatal(err)
	}
	v := pyval.DictOf(
		pyval.Item{Key: "tweets", Value: pyval.NewList("a \"quoted\" tweet", int64(3), nil)},
		pyval.Item{Key: "_random", Value: r},
	)
	if _, err := cell(v); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, func() { _, _ = cell(v) }); n > 1 && !raceEnabled {
		t.Errorf("cell allocates %v times, want its text alone", n)
	}
}

// TestKeptCopiesItsCell: a cell read in place from a state
// (model.AliasView), whose bytes the state's next write changes, is kept
// among the decoded attributes under a copy of its text: found again
// under its text once those bytes changed.
func TestKeptCopiesItsCell(t *testing.T) {
	const text, next = `{"dict":[["kept-copies-its-cell",1]]}`, `{"dict":[["kept-copies-its-cel!",1]]}`
	b := []byte(text)
	x, err := kept(model.Str(unsafe.String(&b[0], len(b))))
	if err != nil {
		t.Fatal(err)
	}
	copy(b, next) // the state written in place
	if y, ok := decoded.Get(text); !ok || y != x {
		t.Fatalf("after the cell's bytes changed, its text finds %v, %v; want the value kept", y, ok)
	}
}

// TestCallTextKeptByToolAndArguments: a call's text kept for the next
// call is the one made afresh for its tool and arguments, whichever call
// came first (one tool's name the start of another's, the same arguments
// in another order or of another tool).
func TestCallTextKeptByToolAndArguments(t *testing.T) {
	calls := []struct{ tool, args string }{
		{"cd", `{"folder":"a"}`}, {"cd", `{"folder":"b"}`}, {"c", `{"folder":"a"}`}, {"cdx", `{"folder":"a"}`},
		{"mv", `{"source":"x","destination":"y"}`}, {"mv", `{"destination":"y","source":"x"}`}, {"ls", `{}`},
		{"cd", `{"folder":"a"}`}, {"mv", `{"source":"x","destination":"y"}`},
	}
	for round := range 2 {
		for _, c := range calls {
			args := model.MustJSON(c.args)
			if got, want := callText(c.tool, args), CallString(c.tool, args.AppendJSON(nil)); got != want {
				t.Fatalf("round %d, %s %s: kept text %q, made afresh %q", round, c.tool, c.args, got, want)
			}
		}
	}
}

// TestTurnArgAsItsMembers: the user's step's {"turn": N} read at once
// where UserStep wrote it, as its JSON's members read it whatever the
// text.
func TestTurnArgAsItsMembers(t *testing.T) {
	for _, text := range []string{
		`{"turn":0}`, `{"turn":7}`, `{"turn":12}`, `{"turn":123456789}`, `{"turn":1234567890123}`, `{"turn":99999999999999999999}`,
		`{"turn":-1}`, `{"turn":3.0}`, `{"turn":1e2}`, `{"turn":03}`, `{"turn":}`, `{"turn":"3"}`, `{"turn":3,"x":1}`,
		`{ "turn": 3 }`, `{"turns":3}`, `[3]`,
	} {
		for _, v := range []model.Value{model.CanonicalJSON(text), model.Str(text)} {
			gotN, gotOK := turnArg(v)
			wantN, wantOK := turnMember(v)
			if gotN != wantN || gotOK != wantOK {
				t.Errorf("%v %s: read %d, %v; as its members %d, %v", v.Kind(), text, gotN, gotOK, wantN, wantOK)
			}
		}
	}
	if n, ok := turnArg(UserStep(4).Args); n != 4 || !ok {
		t.Errorf("UserStep(4): turn %d, %v", n, ok)
	}
}

// TestMadeCallAsMadeAfresh: a call a world made before on the same cells
// gives what a world that never made it gives, on every state of gold's
// replay (the same call on other cells made again), whichever came first.
func TestMadeCallAsMadeAfresh(t *testing.T) {
	for _, id := range []string{"multi_turn_base_0", "multi_turn_base_14", "multi_turn_miss_param_17", "multi_turn_miss_func_50"} {
		e, err := EntryByID(id)
		if err != nil {
			t.Fatal(err)
		}
		task, err := Derive(e)
		if err != nil {
			t.Fatal(err)
		}
		env, err := task.Env()
		if err != nil {
			t.Fatal(err)
		}
		steps := task.Gold.Steps
		for j := len(steps); j >= 0; j-- {
			v := env.Replay(steps[:j]).View()
			for i := range steps {
				st := &steps[i]
				if st.Actor == model.ActorUser {
					continue
				}
				fresh, _, _, err := NewWorld(e.ID, e.InvolvedClasses, e.InitialConfig)
				if err != nil {
					t.Fatal(err)
				}
				w0, r0, f0 := fresh.CallAs(v, model.ActorAgent, st.Tool, st.Args)
				for round := range 2 {
					w1, r1, f1 := task.World.CallAs(v, model.ActorAgent, st.Tool, st.Args)
					if r1 != r0 || f1 != f0 || !reflect.DeepEqual(w1, w0) {
						t.Fatalf("%s, state after %d steps, step %d (%s), round %d: %v %q %q; made afresh %v %q %q",
							id, j, i, st.Tool, round, w1, r1, f1, w0, r0, f0)
					}
				}
			}
		}
	}
}
