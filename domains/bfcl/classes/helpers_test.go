package classes

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// sharedBFCL finds shared/realworld/bfcl (BFCL_DIR overrides) in a folder
// above the test's: BFCL's real runs state no licence, so the tests read
// them there and skip where they are absent.
func sharedBFCL(t *testing.T) string {
	t.Helper()
	if d := os.Getenv("BFCL_DIR"); d != "" {
		return d
	}
	dir, _ := filepath.Abs(".")
	for {
		p := filepath.Join(dir, "shared", "realworld", "bfcl")
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			return p
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skip("shared/realworld/bfcl is absent: BFCL's data and runs are not staged here")
		}
		dir = parent
	}
}

// gzipLines hands each line of a gzipped file to each; the line is the
// scanner's, valid until each returns.
func gzipLines(t *testing.T, path string, each func(line []byte)) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	sc := bufio.NewScanner(zr)
	sc.Buffer(nil, 1<<28)
	for sc.Scan() {
		each(sc.Bytes())
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// gzipJSONLines decodes each line of a gzipped JSON-lines file.
func gzipJSONLines[T any](t *testing.T, path string) []T {
	t.Helper()
	var out []T
	gzipLines(t, path, func(line []byte) {
		var x T
		if err := json.Unmarshal(line, &x); err != nil {
			t.Fatalf("%s:%d: %v", path, len(out)+1, err)
		}
		out = append(out, x)
	})
	return out
}
