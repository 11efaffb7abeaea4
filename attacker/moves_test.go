package attacker

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/parthack/parthack/model"
)

// TestMovesHonourPerTypeOps: on the access review, whose allowlist lets
// the agent delete and restore grants but only update the request, the
// search's moves delete grants and never the request.
func TestMovesHonourPerTypeOps(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "testdata", "certifier", "accessreview", "task.json"))
	if err != nil {
		t.Fatal(err)
	}
	task, err := model.DecodeTask("task.json", src)
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, a := range moves(task, true) {
		if !task.Allowlist.AllowsOpOn(a.Op, a.Type) {
			t.Errorf("move %s %s %s: the allowlist does not allow %s on %s", a.Op, a.Type, a.ID, a.Op, a.Type)
		}
		count[string(a.Op)+" "+a.Type]++
	}
	for _, want := range []string{"delete grant", "restore grant", "update grant", "update ticket"} {
		if count[want] == 0 {
			t.Errorf("no move %s (moves: %v)", want, count)
		}
	}
}
