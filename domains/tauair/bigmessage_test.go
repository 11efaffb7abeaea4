package tauair

import (
	"bytes"
	"os"

	"strings"
	"testing"

	"github.com/parthack/parthack/internal/fixture"

	"github.com/parthack/parthack/model"
)

// bigMessageFile is a tau-bench run file of one run, the corpus' first,
// whose first user message has size more bytes of text: issue 28's 200 MB
// message, in tau-bench's format.
func bigMessageFile(t testing.TB, size int) []byte {
	t.Helper()
	runs, err := AgentRuns()
	if err != nil {
		t.Fatal(err)
	}
	run := runs[0]
	run.Messages = append([]Message(nil), run.Messages...)
	for i, m := range run.Messages {
		if m.Role == "user" {
			text := model.TextOf(m.Content.String() + " " + strings.Repeat("lorem ipsum ", size/12))
			run.Messages[i].Content = &text
			break
		}
	}
	b, err := EncodeRuns([]Run{run})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestWriteBigMessageFile writes the file of one 200 MB message that
// scripts/bench.sh measures, where PARTHACK_TAU_BIG_FILE names it;
// otherwise it checks that a small one reads.
func TestWriteBigMessageFile(t *testing.T) {
	if path := os.Getenv("PARTHACK_TAU_BIG_FILE"); path != "" {
		if err := os.WriteFile(path, bigMessageFile(t, 200<<20), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if err := StreamRuns("big.json", bytes.NewReader(bigMessageFile(t, 1<<20)), func(int, *Run) error { return nil }); err != nil {
		t.Fatal(err)
	}
}

// TestBigMessageNotHeld: a run whose message is 16 MB is read, and made
// a trajectory, holding none of it: reading it allocates what reading the
// run with a 2 MB message does, within 1 MB, and its turn has the whole
// message.
func TestBigMessageNotHeld(t *testing.T) {
	fixture.HoldsNoMessage(t, func(size int) func() (int, error) {
		src := bigMessageFile(t, size)
		return func() (longest int, err error) {
			err = StreamRuns("big.json", bytes.NewReader(src), func(_ int, r *Run) error {
				tr, err := r.Trajectory()
				for _, turn := range tr.Transcript {
					longest = max(longest, turn.Content.Len())
				}
				return err
			})
			return longest, err
		}
	})
}
