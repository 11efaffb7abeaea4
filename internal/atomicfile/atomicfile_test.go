package atomicfile

import (
	"os"
	"path/filepath"
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
