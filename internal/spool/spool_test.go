package spool

import (
	"bytes"
	"fmt"
	"os"
	"testing"
)

// TestRoundTrip: records come back as added, in order, whatever their
// lengths (empty, and longer than the buffers), and the file has no name
// left in the temporary directory.
func TestRoundTrip(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	s, err := New()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var want [][]byte
	for i := range 5000 {
		rec := []byte(fmt.Sprintf("record %d", i))
		switch i % 1000 {
		case 7:
			rec = nil
		case 9:
			rec = bytes.Repeat([]byte{byte(i)}, 600<<10)
		}
		want = append(want, rec)
		s.Add(rec)
	}
	if names, _ := os.ReadDir(os.Getenv("TMPDIR")); len(names) != 0 {
		t.Errorf("the spool left %d names in TMPDIR", len(names))
	}
	i := 0
	if err := s.Each(func(rec []byte) {
		if i >= len(want) || !bytes.Equal(rec, want[i]) {
			t.Fatalf("record %d differs", i)
		}
		i++
	}); err != nil {
		t.Fatal(err)
	}
	if i != len(want) || s.Len() != len(want) {
		t.Fatalf("read %d records back, Len %d; added %d", i, s.Len(), len(want))
	}
}

// TestNoTempDir: a temporary directory that cannot be written is an
// error that says so, not a panic.
func TestNoTempDir(t *testing.T) {
	t.Setenv("TMPDIR", "/nonexistent/parthack")
	if _, err := New(); err == nil {
		t.Fatal("New in a missing TMPDIR succeeded")
	}
}
