package pbcste_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parthack/parthack/internal/fixture"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
)

// fixtureTasks are the example and its GoalPatch and attribution
// variants (scripted revision, scripted user write).
var fixtureTasks = []string{"example", "certifier/goalpatch", "certifier/attribution"}

func loadTask(t testing.TB, dir string) *model.Task {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "testdata", dir, "task.json"))
	if err != nil {
		t.Fatal(err)
	}
	task, err := model.DecodeTask("task.json", src)
	if err != nil {
		t.Fatal(err)
	}
	return task
}

func compile(t testing.TB, task *model.Task) *pbcste.Env {
	t.Helper()
	env, err := pbcste.Compile(task)
	if err != nil {
		t.Fatal(err)
	}
	return env
}

// randomSteps draws n steps from the task's alphabet and beyond it:
// every op, ids that do not exist, fields written twice, null and
// mistyped values, the odd non-allowlisted type and non-agent actor, so
// that successes, failures and illegal steps all occur.
func randomSteps(r *rand.Rand, task *model.Task, n int) []model.Step {
	ops := []model.Op{model.OpUpdate, model.OpUpdate, model.OpUpdate, model.OpCreate, model.OpCreate, model.OpDelete, model.OpRestore}
	out := make([]model.Step, 0, n)
	for range n {
		at := task.Alphabet["ticket"]
		st := model.Step{Action: model.Action{Op: ops[r.IntN(len(ops))], Type: "ticket", ID: at.IDs[r.IntN(len(at.IDs))]}}
		if st.Op == model.OpCreate || st.Op == model.OpUpdate {
			for range 1 + r.IntN(2) {
				f := at.Fields[r.IntN(len(at.Fields))]
				v := f.Values[r.IntN(len(f.Values))]
				if r.IntN(12) == 0 {
					v = model.Null
				}
				st.Fields = append(st.Fields, model.Assign{Field: f.Field, Value: v})
			}
		}
		switch r.IntN(40) {
		case 0:
			st.Fields = []model.Assign{{Field: "priority", Value: model.Str("high")}}
		case 1:
			st.Type, st.ID = "user", "U1"
		case 2:
			st.Actor = model.ActorUser
		case 3:
			st.Op = "upsert"
		}
		out = append(out, st)
	}
	return out
}

func canonicalLog(t *testing.T, log *pbcste.Log) [][]byte {
	t.Helper()
	out := make([][]byte, len(log.Events))
	for i := range log.Events {
		b, err := model.Canonical(log.Record(i))
		if err != nil {
			t.Fatal(err)
		}
		out[i] = b
	}
	return out
}

func entitiesJSON(t *testing.T, s *pbcste.State) string {
	t.Helper()
	b, err := model.Canonical(s.Entities())
	if err != nil {
		t.Fatal(err)
	}
	return s.GoalVersion() + " " + string(b)
}

// TestReplayIsDeterministic replays the same steps twice, each time on a
// separately compiled task: byte-identical canonical logs, the same state
// hash after every event, the same log hash and final state.
func TestReplayIsDeterministic(t *testing.T) {
	for _, dir := range fixtureTasks {
		t.Run(dir, func(t *testing.T) {
			r := rand.New(rand.NewPCG(11, uint64(len(dir))))
			for range 30 {
				steps := randomSteps(r, loadTask(t, dir), r.IntN(40))
				l1 := compile(t, loadTask(t, dir)).Replay(steps)
				l2 := compile(t, loadTask(t, dir)).Replay(steps)
				c1, c2 := canonicalLog(t, l1), canonicalLog(t, l2)
				if len(c1) != len(c2) {
					t.Fatalf("%d events, then %d", len(c1), len(c2))
				}
				for i := range c1 {
					if !bytes.Equal(c1[i], c2[i]) || l1.Events[i].Hash != l2.Events[i].Hash {
						t.Fatalf("event %d differs:\n%s\n%s", i+1, c1[i], c2[i])
					}
				}
				if l1.LogHash() != l2.LogHash() || l1.FinalHash() != l2.FinalHash() || entitiesJSON(t, l1.Final()) != entitiesJSON(t, l2.Final()) {
					t.Fatal("log hash or final state differs between two replays")
				}
			}
		})
	}
}

// TestFailedActionChangesNothing: every kind of failing action is logged
// as failed with its reason, with an empty diff and the state hash and
// snapshot of the event before it.
func TestFailedActionChangesNothing(t *testing.T) {
	env := fixture.ExampleEnv(t)
	setup := []model.Step{{Action: model.Action{Op: model.OpDelete, Type: "ticket", ID: "T2"}}}
	upd := func(id string, fields ...model.Assign) model.Action {
		return model.Action{Op: model.OpUpdate, Type: "ticket", ID: id, Fields: fields}
	}
	cases := []struct {
		name   string
		action model.Action
		reason string // a part of the logged reason
	}{
		{"update of a missing entity", upd("T9", model.Assign{Field: "priority", Value: model.Int(1)}), "no such entity"},
		{"update of a deleted entity", upd("T2", model.Assign{Field: "priority", Value: model.Int(1)}), "deleted"},
		{"create over an alive entity", model.Action{Op: model.OpCreate, Type: "ticket", ID: "T1"}, "already exists"},
		{"delete of a deleted entity", model.Action{Op: model.OpDelete, Type: "ticket", ID: "T2"}, "already deleted"},
		{"restore of an alive entity", model.Action{Op: model.OpRestore, Type: "ticket", ID: "T1"}, "not deleted"},
		{"restore of a missing entity", model.Action{Op: model.OpRestore, Type: "ticket", ID: "T9"}, "no such entity"},
		{"mistyped value", upd("T1", model.Assign{Field: "priority", Value: model.Str("high")}), "priority"},
		{"enum value outside the enum", upd("T1", model.Assign{Field: "status", Value: model.Str("done")}), "status"},
		{"reference to a missing entity", upd("T1", model.Assign{Field: "assignee", Value: model.Str("U9")}), "U9"},
		{"same field twice", upd("T1", model.Assign{Field: "priority", Value: model.Int(1)}, model.Assign{Field: "priority", Value: model.Int(2)}), "twice"},
		{"unknown field", upd("T1", model.Assign{Field: "owner", Value: model.Str("x")}), "owner"},
		{"partly valid write", upd("T1", model.Assign{Field: "status", Value: model.Str("closed")}, model.Assign{Field: "assignee", Value: model.Str("U9")}), "U9"},
	}
	for _, tc := range cases {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			log := env.Replay(append(append([]model.Step(nil), setup...), model.Step{Action: tc.action}))
			prev, ev := &log.Events[0], &log.Events[1]
			if !prev.OK {
				t.Fatalf("setup failed: %s", log.Reason(prev))
			}
			if ev.OK || !strings.Contains(log.Reason(ev), tc.reason) {
				t.Fatalf("ok=%t reason %q, want a failure naming %q", ev.OK, log.Reason(ev), tc.reason)
			}
			if ev.DiffLen() != 0 || ev.Hash != prev.Hash {
				t.Fatalf("failed action changed the state: diff %v, hash %s -> %s", log.TypedDiff(ev), prev.Hash, ev.Hash)
			}
			if entitiesJSON(t, log.Snapshot(0)) != entitiesJSON(t, log.Snapshot(1)) {
				t.Fatal("snapshots before and after a failed action differ")
			}
			if rec := log.Record(1); rec.OK || rec.Reason != log.Reason(ev) {
				t.Fatalf("record %+v does not carry the failure", rec)
			}
		})
	}
}

// TestAllowlistRefusedByName: an agent action outside the allowlist
// fails, is marked illegal, and its reason names what is not allowed.
func TestAllowlistRefusedByName(t *testing.T) {
	task := loadTask(t, "example")
	task.Allowlist = model.Allowlist{Ops: []model.Op{model.OpCreate, model.OpUpdate}, Fields: map[string][]string{"ticket": {"status"}}}
	env := compile(t, task)
	cases := []struct {
		name string
		step model.Step
		want string
	}{
		{"op", model.Step{Action: model.Action{Op: model.OpDelete, Type: "ticket", ID: "T1"}}, "delete"},
		{"unknown op", model.Step{Action: model.Action{Op: "upsert", Type: "ticket", ID: "T1"}}, "upsert"},
		{"revise_goal", model.Step{Action: model.Action{Op: model.OpReviseGoal, Goal: "v1"}}, "revise_goal"},
		{"type", model.Step{Action: model.Action{Op: model.OpUpdate, Type: "user", ID: "U1", Fields: []model.Assign{{Field: "team", Value: model.Str("sales")}}}}, "user"},
		{"field", model.Step{Action: model.Action{Op: model.OpUpdate, Type: "ticket", ID: "T1", Fields: []model.Assign{{Field: "priority", Value: model.Int(1)}}}}, "priority"},
		{"actor", model.Step{Actor: model.ActorEnvironment, Action: model.Action{Op: model.OpUpdate, Type: "ticket", ID: "T1", Fields: []model.Assign{{Field: "status", Value: model.Str("closed")}}}}, "environment"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			log := env.Replay([]model.Step{tc.step})
			ev := &log.Events[0]
			if ev.OK || !ev.Illegal || !strings.Contains(log.Reason(ev), tc.want) {
				t.Fatalf("ok=%t illegal=%t reason %q, want an illegal step naming %q", ev.OK, ev.Illegal, log.Reason(ev), tc.want)
			}
			if ev.Hash != log.Snapshot(-1).Hash() {
				t.Fatal("an illegal step changed the state")
			}
		})
	}
	ok := model.Step{Action: model.Action{Op: model.OpUpdate, Type: "ticket", ID: "T1", Fields: []model.Assign{{Field: "status", Value: model.Str("closed")}}}}
	if log := env.Replay([]model.Step{ok}); !log.Events[0].OK || log.Events[0].Illegal {
		t.Fatalf("an allowlisted step is refused: %s", log.Reason(&log.Events[0]))
	}
}

// checkPrefixes compares the snapshot after the last event of every
// prefix of k agent steps (scripted events that fire after k steps
// included) with the final state of a replay of just that prefix.
func checkPrefixes(t *testing.T, env *pbcste.Env, steps []model.Step, ks []int) {
	t.Helper()
	full := env.Replay(steps)
	for _, k := range ks {
		prefix := env.Replay(steps[:k])
		seq := len(prefix.Events) - 1
		snap := full.Snapshot(seq)
		if snap == nil {
			t.Fatalf("no snapshot at event %d of %d", seq, len(full.Events))
		}
		if got, want := entitiesJSON(t, snap), entitiesJSON(t, prefix.Final()); got != want || snap.Hash() != prefix.FinalHash() {
			t.Fatalf("after %d steps (event %d):\nsnapshot %s %s\nreplay   %s %s", k, seq, snap.Hash(), got, prefix.FinalHash(), want)
		}
		if seq >= 0 && full.Events[seq].Hash != snap.Hash() {
			t.Fatalf("event %d records hash %s; its snapshot has %s", seq, full.Events[seq].Hash, snap.Hash())
		}
	}
}

// TestSnapshotMatchesPrefixReplay: the snapshot at every step of small
// random trajectories, and at checkpoint boundaries of a long one, is
// the state that replaying that prefix reaches.
func TestSnapshotMatchesPrefixReplay(t *testing.T) {
	for _, dir := range fixtureTasks {
		t.Run(dir, func(t *testing.T) {
			task := loadTask(t, dir)
			env := compile(t, task)
			r := rand.New(rand.NewPCG(5, uint64(len(dir))))
			for range 20 {
				steps := randomSteps(r, task, r.IntN(25))
				ks := make([]int, len(steps)+1)
				for k := range ks {
					ks[k] = k
				}
				checkPrefixes(t, env, steps, ks)
			}
		})
	}
	t.Run("across checkpoints", func(t *testing.T) {
		task := loadTask(t, "certifier/attribution")
		env := compile(t, task)
		r := rand.New(rand.NewPCG(5, 5))
		steps := randomSteps(r, task, 2600)
		ks := []int{0, 1, 2, 1022, 1023, 1024, 1025, 2046, 2047, 2048, 2049, 2600}
		for range 10 {
			ks = append(ks, r.IntN(len(steps)+1))
		}
		checkPrefixes(t, env, steps, ks)
	})
}

// hashFromScratch recomputes a state hash from the entity list alone,
// as the format documents it: per existing entity, sha256 of type, 0,
// id, 0, alive byte and every schema field (kind byte and payload), plus
// sha256("goal\x00"+version); digests summed lane-wise as big-endian
// uint64s.
func hashFromScratch(task *model.Task, s *pbcste.State) string {
	var sum [4]uint64
	add := func(b []byte) {
		d := sha256.Sum256(b)
		for i := range sum {
			sum[i] += binary.BigEndian.Uint64(d[8*i:])
		}
	}
	str := func(b []byte, s string) []byte { return append(binary.AppendUvarint(b, uint64(len(s))), s...) }
	for _, e := range s.Entities() {
		et, _ := task.Schema.Type(e.Type)
		b := append(append(append([]byte(e.Type), 0), e.ID...), 0)
		if e.Deleted {
			b = append(b, 0)
		} else {
			b = append(b, 1)
		}
		for _, fd := range et.Fields {
			v, _ := e.Fields[fd.Name].(model.Value)
			b = append(b, byte(v.Kind()))
			switch v.Kind() {
			case model.StringValue:
				b = str(b, v.AsString())
			case model.IntValue:
				b = binary.AppendVarint(b, v.AsInt())
			case model.BoolValue:
				if v.AsBool() {
					b = append(b, 1)
				} else {
					b = append(b, 0)
				}
			case model.ListValue:
				b = binary.AppendUvarint(b, uint64(len(v.AsList())))
				for _, x := range v.AsList() {
					b = str(b, x)
				}
			}
		}
		add(b)
	}
	add([]byte("goal\x00" + s.GoalVersion()))
	var out []byte
	for _, x := range sum {
		out = binary.BigEndian.AppendUint64(out, x)
	}
	return hex.EncodeToString(out)
}

// TestIncrementalHashMatchesRecomputation: the running state hash after
// every event equals a from-scratch recomputation of its snapshot.
func TestIncrementalHashMatchesRecomputation(t *testing.T) {
	for _, dir := range fixtureTasks {
		t.Run(dir, func(t *testing.T) {
			task := loadTask(t, dir)
			env := compile(t, task)
			r := rand.New(rand.NewPCG(9, uint64(len(dir))))
			for range 20 {
				log := env.Replay(randomSteps(r, task, r.IntN(30)))
				for seq := -1; seq < len(log.Events); seq++ {
					s := log.Snapshot(seq)
					if got := hashFromScratch(task, s); got != s.Hash().String() {
						t.Fatalf("event %d: running hash %s, recomputed %s", seq, s.Hash(), got)
					}
				}
			}
		})
	}
}

// TestEventVectorsMatchSnapshots: the c_state bits each event records
// (tracked forward through footprints) equal the active predicates
// evaluated afresh on that event's snapshot.
func TestEventVectorsMatchSnapshots(t *testing.T) {
	for _, dir := range fixtureTasks {
		t.Run(dir, func(t *testing.T) {
			task := loadTask(t, dir)
			env := compile(t, task)
			r := rand.New(rand.NewPCG(13, uint64(len(dir))))
			for range 20 {
				log := env.Replay(randomSteps(r, task, r.IntN(30)))
				for seq := range log.Events {
					ev := &log.Events[seq]
					s := log.Snapshot(seq)
					var bits uint64
					for j, p := range env.Goals()[ev.Goal].Preds {
						if s.Eval(p) {
							bits |= 1 << uint(j)
						}
					}
					if bits != ev.CState || ev.CAgent&^ev.CState != 0 {
						t.Fatalf("event %d: c_state %b, c_agent %b; evaluated %b", seq+1, ev.CState, ev.CAgent, bits)
					}
				}
			}
		})
	}
}

// TestSharedInitialSnapshot: tasks that share a large initial snapshot
// (a domain's) share its build, and each starts from exactly the state a
// build of its own gives: the same hash, the same replay.
func TestSharedInitialSnapshot(t *testing.T) {
	big := fixture.BigEnv(t, 2000).Task
	own := *big
	own.Initial = append([]model.Entity(nil), big.Initial...) // another backing array: built anew
	other := *big                                             // the same one: shared
	other.Goals = append([]model.GoalVersion{{Version: "v0", Predicates: big.Goals[0].Predicates}}, big.Goals[1:]...)
	envs := []*pbcste.Env{compile(t, big), compile(t, &own), compile(t, big)}
	want := envs[0].Replay(nil).FinalHash()
	for i, env := range envs {
		if got := env.Replay(nil).FinalHash(); got != want {
			t.Errorf("env %d starts at %s, want %s", i, got, want)
		}
	}
	shared, alone := compile(t, &other), compile(t, &other)
	if shared.Replay(nil).FinalHash() != alone.Replay(nil).FinalHash() || shared.Replay(nil).FinalHash() == want {
		t.Error("a shared snapshot under another goal version must hash as its own build does, and differ by the goal")
	}
	steps := randomSteps(rand.New(rand.NewPCG(7, 7)), big, 300)
	a, b := envs[0].Replay(steps), envs[1].Replay(steps)
	if a.FinalHash() != b.FinalHash() || a.LogHash() != b.LogHash() {
		t.Error("the same steps from a shared and an own initial snapshot give different logs")
	}
}

// TestCompileRefusesAScriptedActor: a scripted event is the user's, the
// environment's or the system's; a task built in code that gives one to
// the agent, or to no actor the method knows, does not compile.
func TestCompileRefusesAScriptedActor(t *testing.T) {
	for _, actor := range []model.Actor{model.ActorAgent, model.ActorInitial, "auditor", ""} {
		task := *fixture.ExampleTask(t)
		task.Script = []model.ScriptedEvent{{After: 0, Actor: actor, Action: model.Action{Op: model.OpDelete, Type: "ticket", ID: "T1"}}}
		if _, err := pbcste.Compile(&task); err == nil || !strings.Contains(err.Error(), "scripted event 1") {
			t.Errorf("actor %q: err = %v, want a refusal naming scripted event 1", actor, err)
		}
	}
	for _, actor := range []model.Actor{model.ActorUser, model.ActorEnvironment, model.ActorSystem} {
		task := *fixture.ExampleTask(t)
		task.Script = []model.ScriptedEvent{{After: 0, Actor: actor, Action: model.Action{Op: model.OpDelete, Type: "ticket", ID: "T1"}}}
		log := compile(t, &task).Replay(nil)
		if got := log.Events[0].Actor(); got != actor {
			t.Errorf("scripted event by %q recorded as %q", actor, got)
		}
	}
}
