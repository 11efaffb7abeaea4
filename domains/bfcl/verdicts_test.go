package bfcl

import (
	"reflect"
	"slices"
	"testing"

	"github.com/parthack/parthack/model"
)

// TestVerdictKey: runs of calls split otherwise into turns or steps, or
// of another entry, have keys of their own (a turn nil or empty is one
// turn without a step, to the checker as to the key).
func TestVerdictKey(t *testing.T) {
	runs := []struct {
		id    string
		turns [][][]string
	}{
		{"multi_turn_base_0", nil},
		{"multi_turn_base_0", [][][]string{nil}},
		{"multi_turn_base_0", [][][]string{{{}}}},
		{"multi_turn_base_0", [][][]string{{{"ls()"}}}},
		{"multi_turn_base_1", [][][]string{{{"ls()"}}}},
		{"multi_turn_base_0", [][][]string{{{"ls()", "pwd()"}}}},
		{"multi_turn_base_0", [][][]string{{{"ls()"}, {"pwd()"}}}},
		{"multi_turn_base_0", [][][]string{{{"ls()"}}, {{"pwd()"}}}},
		{"multi_turn_base_0", [][][]string{{{"ls()pwd()"}}}},
		{"multi_turn_base_0", [][][]string{{{"1:ls()"}}}},
		{"multi_turn_base_0", [][][]string{{{"ls()"}}, nil}},
	}
	seen := map[string]int{}
	for i, r := range runs {
		k := verdictKey(r.id, r.turns)
		if j, ok := seen[k]; ok {
			t.Errorf("runs %d and %d share the key %q", j, i, k)
		}
		seen[k] = i
	}
}

// TestVerdictShared: the four checks of one payload read one verdict,
// the checker run once, and a payload of other calls gets its own, each
// what the checker computes afresh.
func TestVerdictShared(t *testing.T) {
	task, ok := TaskByID("multi_turn_base_5")
	if !ok {
		t.Fatal("no task multi_turn_base_5")
	}
	env, err := task.Env()
	if err != nil {
		t.Fatal(err)
	}
	short := slices.DeleteFunc(slices.Clone(task.Gold.Steps), func(s model.Step) bool { return s.Tool == "sort" })
	for _, steps := range [][]model.Step{task.Gold.Steps, short} {
		tr := &model.Trajectory{Task: task.Entry.ID, Steps: steps}
		p, err := task.Payload(env.Replay(steps), tr)
		if err != nil {
			t.Fatal(err)
		}
		first, ok := PayloadVerdict(p)
		if !ok {
			t.Fatal("no verdict of a BFCL payload")
		}
		again, _ := PayloadVerdict(p)
		if again != first {
			t.Errorf("%d steps: the checker ran again for the same calls", len(steps))
		}
		if fresh := Check(task.Entry, PayloadTurns(p)); !reflect.DeepEqual(*first, fresh) {
			t.Errorf("%d steps: shared verdict %v, the checker's afresh %v", len(steps), first, fresh.String())
		}
	}
}
