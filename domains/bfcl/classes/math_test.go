package classes

import (
	"path/filepath"
	"testing"
)

// TestMathGold replays every gold MathAPI call of the three categories,
// the hand-made edge calls and 600 seeded logarithm and square_root
// calls against BFCL's own result strings.
func TestMathGold(t *testing.T) {
	for _, name := range []string{"gold", "edge"} {
		t.Run(name, func(t *testing.T) {
			results, _, calls := fsReplayFile(t, "MathAPI", filepath.Join("testdata", "math", name+".jsonl.gz"))
			t.Logf("%d calls: %d results equal Python's", calls, results)
			if calls == 0 {
				t.Fatal("no calls replayed")
			}
		})
	}
}
