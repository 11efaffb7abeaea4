package tau2

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"testing"
)

// TestProvenanceNamesEveryFile: every file shipped under data/ has a row
// in PROVENANCE.md whose git blob is the git object id of its content
// (gunzipped), so the path and commit beside it are where tau2-bench
// holds exactly this file.
func TestProvenanceNamesEveryFile(t *testing.T) {
	note, err := Data("PROVENANCE.md")
	if err != nil {
		t.Fatal(err)
	}
	blobs := map[string]string{} // file here → its row's git blob
	col := -1
	for _, line := range strings.Split(string(note), "\n") {
		if !strings.HasPrefix(line, "| ") {
			col = -1
			continue
		}
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		if i := slices.Index(cells, "git blob"); i >= 0 {
			col = i
			continue
		}
		if col < 0 || col >= len(cells) || !strings.HasPrefix(cells[0], "`") {
			continue
		}
		blobs[strings.Trim(cells[0], "`")] = cells[col]
	}
	n := 0
	err = fs.WalkDir(data, "data", func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		rel := strings.TrimPrefix(p, "data/")
		if rel == "PROVENANCE.md" {
			return nil
		}
		n++
		b, err := Data(rel)
		if err != nil {
			return err
		}
		h := sha1.New()
		fmt.Fprintf(h, "blob %d\x00", len(b))
		h.Write(b)
		if got, want := hex.EncodeToString(h.Sum(nil)), blobs[rel]; got != want {
			t.Errorf("%s: git blob %s, PROVENANCE.md says %q", rel, got, want)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n != 19 {
		t.Errorf("%d files under data/, want 19", n)
	}
}
