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
