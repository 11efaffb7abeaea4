package tau2

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"

	"strings"
	"testing"

	"github.com/parthack/parthack/internal/fixture"
)

// bigMessageFile is a Results file of one run, the first of the shipped
// retail-gpt-4.1 file, whose first user message has size more bytes of
// text: the shape of issue 28's 200 MB message.
func bigMessageFile(t testing.TB, size int) []byte {
	t.Helper()
	gzipped, err := RunFile("runs/retail-gpt-4.1.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	z, err := gzip.NewReader(bytes.NewReader(gzipped))
	if err != nil {
		t.Fatal(err)
	}
	src, err := io.ReadAll(z)
	if err != nil {
		t.Fatal(err)
	}
	var file map[string]any
	if err := json.Unmarshal(src, &file); err != nil {
		t.Fatal(err)
	}
	sim := file["simulations"].([]any)[0].(map[string]any)
	file["simulations"] = []any{sim}
	for _, m := range sim["messages"].([]any) {
		if m := m.(map[string]any); m["role"] == "user" {
			m["content"] = m["content"].(string) + " " + strings.Repeat("lorem ipsum ", size/12)
			break
		}
	}
	// The members in the order tau2 writes them, the runs last.
	out := []byte{'{'}
	for i, k := range []string{"timestamp", "info", "tasks", "simulations"} {
		v, err := json.Marshal(file[k])
		if err != nil {
			t.Fatal(err)
		}
		if i > 0 {
			out = append(out, ", "...)
		}
		out = append(append(append(out, '"'), k...), `": `...)
		out = append(out, v...)
	}
	return append(out, '}')
}

// TestWriteBigMessageFile writes the file of one 200 MB message that
// scripts/bench.sh and issue 28 measure, where PARTHACK_TAU2_BIG_FILE
// names it; otherwise it checks that a small one reads.
func TestWriteBigMessageFile(t *testing.T) {
	if path := os.Getenv("PARTHACK_TAU2_BIG_FILE"); path != "" {
		if err := os.WriteFile(path, bigMessageFile(t, 200<<20), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if _, err := Decode("big.json", bigMessageFile(t, 1<<20)); err != nil {
		t.Fatal(err)
	}
}

// TestBigMessageNotHeld: a run whose message is 16 MB is read holding
// none of it: the stream sets the message's text aside in a spill file,
// and the run's Content reads it back in pieces. Reading it allocates
// what reading the same run with a 2 MB message does, within 1 MB (six
// times the message before the stream read runs whole; 1.5 times once it
// held the message once).
func TestBigMessageNotHeld(t *testing.T) {
	fixture.HoldsNoMessage(t, func(size int) func() (int, error) {
		src := bigMessageFile(t, size)
		return func() (longest int, err error) {
			err = StreamResults("big.json", bytes.NewReader(src), func(*Results) error { return nil }, func(s *Simulation) error {
				for _, m := range s.Messages {
					if m.Content != nil {
						longest = max(longest, m.Content.Len())
					}
				}
				return nil
			})
			return longest, err
		}
	})
}
