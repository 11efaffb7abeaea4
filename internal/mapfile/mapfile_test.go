package mapfile

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestRead: Read gives exactly a file's bytes, whether it maps the
// file (a regular one) or reads it (empty, or not a regular file), and
// a clear error for a file that is not there.
func TestRead(t *testing.T) {
	dir := t.TempDir()
	full := filepath.Join(dir, "full.json")
	want := bytes.Repeat([]byte(`{"op":"update"}`), 10_000)
	if err := os.WriteFile(full, want, 0o644); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "empty.json")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path string
		want []byte
	}{{full, want}, {empty, nil}, {os.DevNull, nil}} {
		src, release, err := Read(c.path)
		if err != nil {
			t.Fatalf("%s: %v", c.path, err)
		}
		if !bytes.Equal(src, c.want) {
			t.Errorf("%s: %d bytes, want %d", c.path, len(src), len(c.want))
		}
		release()
	}
	if _, _, err := Read(filepath.Join(dir, "missing.json")); !os.IsNotExist(err) {
		t.Errorf("a missing file: %v, want not exist", err)
	}
}
