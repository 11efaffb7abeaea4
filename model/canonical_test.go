package model

import (
	"bytes"
	"runtime"
	"strings"
	"testing"
)

// pieceRecorder keeps what is written to it and the longest Write.
type pieceRecorder struct {
	bytes.Buffer
	longest int
}

func (p *pieceRecorder) Write(b []byte) (int, error) {
	p.longest = max(p.longest, len(b))
	return p.Buffer.Write(b)
}

// TestWriteTrajectory: WriteTrajectory writes what AppendTrajectory
// appends, byte for byte, in pieces of bounded length, whatever a long
// message holds where the pieces are cut: characters of one to four bytes,
// bytes that are not UTF-8, control characters, quotes and U+2028.
func TestWriteTrajectory(t *testing.T) {
	tr := &Trajectory{Task: "T2R-5", Name: "run", Note: "a \"note\"",
		Steps: []Step{{Action: Action{Op: OpCall, Tool: "get_user_details", Args: MustJSON(`{"user_id": "x"}`)}}}}
	for _, unit := range []string{"a", "é", "€", "𝄞", "\xff", "\xe2\x82", "\n", "\"", "\u2028", "\x01", "ab€\xf0\x9d"} {
		long := strings.Repeat(unit, 3*writePiece/len(unit)+1) + "end"
		tr.Transcript = []Turn{{Role: "user", Content: TextOf("hi")}, {Role: "user", Content: TextOf(long)}, {Role: "assistant", Content: TextOf(long[1:]), Step: 1}}
		var w pieceRecorder
		if err := WriteTrajectory(&w, tr); err != nil {
			t.Fatal(err)
		}
		if want := EncodeTrajectory(tr); !bytes.Equal(w.Bytes(), want) {
			t.Fatalf("unit %q: WriteTrajectory differs from EncodeTrajectory (%d and %d bytes)", unit, w.Len(), len(want))
		}
		// An escape is at most six bytes a byte (\u0001).
		if w.longest > 6*writePiece+4096 {
			t.Errorf("unit %q: a write of %d bytes, want at most %d", unit, w.longest, 6*writePiece+4096)
		}
	}
}

// TestWriteTrajectoryHoldsNoMessage: writing a trajectory with a 16 MB
// message allocates a small fraction of it (AppendTrajectory, and the
// escaping of a non-ASCII message whole, allocate it twice or more).
func TestWriteTrajectoryHoldsNoMessage(t *testing.T) {
	const size = 16 << 20
	tr := &Trajectory{Task: "T", Transcript: []Turn{{Role: "user", Content: TextOf(strings.Repeat("lorem ipsum, «dolor»\n", size/22))}}}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	var n countingWriter
	if err := WriteTrajectory(&n, tr); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if n < size {
		t.Fatalf("wrote %d bytes, want at least %d", n, size)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > size/8 && !raceEnabled {
		t.Errorf("writing a trajectory with a %d MB message allocated %d KB, want at most %d KB", size>>20, got>>10, size/8>>10)
	}
}

// countingWriter counts and drops what is written to it.
type countingWriter int

func (c *countingWriter) Write(b []byte) (int, error) {
	*c += countingWriter(len(b))
	return len(b), nil
}
