package llmattack

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parthack/parthack/model"
)

// TestPromptExplainsPerTypeOps: on the access review, whose allowlist
// allows each type its own ops, the interface quotes them as "type_ops"
// and the system prompt says what "type_ops" means.
func TestPromptExplainsPerTypeOps(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "certifier", "accessreview")
	src, err := os.ReadFile(filepath.Join(dir, "task.json"))
	if err != nil {
		t.Fatal(err)
	}
	task, err := model.DecodeTask("task.json", src)
	if err != nil {
		t.Fatal(err)
	}
	in, err := interfaceJSON(task, &model.Trajectory{Task: task.ID}, []byte("{}"), nil, "x")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(in), `"type_ops":{"grant":["update","delete","restore"],"ticket":["update"]}`) {
		t.Errorf("interface does not quote the per-type ops: %s", in)
	}
	if sys := systemPrompt(0, false); !strings.Contains(sys, `"type_ops"`) {
		t.Errorf("system prompt does not explain type_ops")
	}
}
