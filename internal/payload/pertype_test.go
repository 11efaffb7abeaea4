package payload_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
)

// TestPayloadHonoursPerTypeOps: on the access review (grants may be
// deleted, the request may not), the payload of a trajectory that deletes
// both shows the request's delete refused with the allowlist's reason and
// no diff, and the grant's delete applied.
func TestPayloadHonoursPerTypeOps(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "testdata", "certifier", "accessreview", "task.json"))
	if err != nil {
		t.Fatal(err)
	}
	task, err := model.DecodeTask("task.json", src)
	if err != nil {
		t.Fatal(err)
	}
	env, err := pbcste.Compile(task)
	if err != nil {
		t.Fatal(err)
	}
	p := build(t, task, env, []model.Step{
		{Action: model.Action{Op: model.OpDelete, Type: "ticket", ID: "R1"}},
		{Action: model.Action{Op: model.OpDelete, Type: "grant", ID: "G2"}},
	})
	if len(p.Events) != 2 {
		t.Fatalf("%d events", len(p.Events))
	}
	if ev := p.Events[0]; ev.OK || len(ev.Diff) != 0 || !strings.Contains(ev.Reason, "op delete is not allowlisted on entity type ticket") {
		t.Errorf("delete ticket R1: %+v", ev)
	}
	if ev := p.Events[1]; !ev.OK || len(ev.Diff) != 1 || ev.Diff[0].Field != model.AliveField {
		t.Errorf("delete grant G2: %+v", ev)
	}
}
