package atomicfile

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteReplacesWholeAndLeavesNoTemp(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "w.json")
	for _, data := range []string{"first", "second, longer"} {
		if err := Write(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != data {
			t.Fatalf("read %q, %v; want %q", got, err, data)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("%d files in the directory, want only the target", len(entries))
	}
	if err := Write(filepath.Join(dir, "missing", "w.json"), []byte("x"), 0o644); err == nil {
		t.Fatal("a write into a missing directory succeeded")
	}
}

// TestSetAllOrNothing: a set's files appear together on Commit; when one
// cannot be written, Abort leaves nothing: no file, no temporary, no
// directory the set made.
func TestSetAllOrNothing(t *testing.T) {
	root := t.TempDir()
	out := filepath.Join(root, "a", "witnesses")
	blocked := filepath.Join(root, "ledger.control.json")
	if err := os.Mkdir(blocked, 0o755); err != nil { // a directory where a file is to go
		t.Fatal(err)
	}
	var s Set
	if err := s.Dir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"r1.json", "r2.json"} {
		if err := s.Write(filepath.Join(out, name), []byte(name), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Write(filepath.Join(root, "ledger.json"), []byte("l"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := s.Write(blocked, []byte("c"), 0o644); err == nil {
		t.Fatal("a file written over a directory")
	}
	s.Abort()
	entries, _ := os.ReadDir(root)
	if len(entries) != 1 || entries[0].Name() != "ledger.control.json" {
		t.Fatalf("after Abort the directory holds %v, want only what was there", entries)
	}

	var ok Set
	defer ok.Abort()
	if err := ok.Dir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"r1.json", "r2.json"} {
		if err := ok.Write(filepath.Join(out, name), []byte(name), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(filepath.Join(out, name)); err == nil {
			t.Fatalf("%s appeared before Commit", name)
		}
	}
	if err := ok.Commit(); err != nil {
		t.Fatal(err)
	}
	ok.Abort() // after Commit: nothing
	if entries, _ := os.ReadDir(out); len(entries) != 2 {
		t.Fatalf("after Commit %s holds %v, want the two files", out, entries)
	}
}

// TestWriteFuncFailsWhole: a file written as it is made replaces the
// target whole; a writer that fails midway, after more than a buffer's
// worth, leaves the target as it was and no temporary file.
func TestWriteFuncFailsWhole(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "w.json")
	if err := Write(path, []byte("before"), 0o644); err != nil {
		t.Fatal(err)
	}
	piece := bytes.Repeat([]byte("x"), 100<<10)
	err := WriteFunc(path, 0o644, func(w io.Writer) error {
		for range 5 {
			if _, err := w.Write(piece); err != nil {
				return err
			}
		}
		return errors.New("the run failed midway")
	})
	if err == nil || !strings.Contains(err.Error(), "midway") {
		t.Fatalf("WriteFunc = %v, want the writer's error", err)
	}
	if got, err := os.ReadFile(path); err != nil || string(got) != "before" {
		t.Fatalf("the target reads %d bytes, %v; want it as it was", len(got), err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("%d files in the directory, want only the target", len(entries))
	}
	if err := WriteFunc(path, 0o644, func(w io.Writer) error { _, err := w.Write(piece); return err }); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, piece) {
		t.Fatalf("the target reads %d bytes, want %d", len(got), len(piece))
	}
}
