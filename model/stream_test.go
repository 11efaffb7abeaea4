package model

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// decodeTree is DecodeTrajectory as it was before steps were streamed:
// the whole document parsed into a tree, then decoded.
func decodeTree(file string, src []byte) (*Trajectory, error) {
	d, err := parseDoc(file, src)
	if err != nil {
		return nil, err
	}
	return decodeTrajectory(d, nil)
}

// TestStreamedDecodeMatchesTree decodes trajectories and many broken
// variants of them both ways: the same trajectory or the same error
// message (location, JSON path, what was expected), whatever is wrong and
// wherever.
func TestStreamedDecodeMatchesTree(t *testing.T) {
	var files []string
	for _, pat := range []string{"../testdata/example/*.json", "../testdata/fuzz/FuzzDecodeTrajectory/*", "../testdata/fuzz/FuzzReplay/*", "../testdata/certifier/*/*.json", "../tasks/*/*/*.json"} {
		m, _ := filepath.Glob(pat)
		files = append(files, m...)
	}
	base := `{"task": "EX-01", "name": "n", "steps": [
  {"op": "update", "type": "ticket", "id": "T1", "fields": {"status": "open"}, "claim": {"ok": true, "diff": [{"field": "status", "before": null, "after": "open"}]}},
  {"op": "call", "tool": "book", "args": {"a": [1, 2.5], "b": {"c": "d"}}, "step": 2, "actor": "agent"}
], "transcript": [{"role": "user", "content": "hi", "step": 1}]}`
	inputs := map[string][]byte{"base": []byte(base)}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inputs[f] = src
	}
	// Every single-byte replacement of the base by a character that
	// breaks or changes something, and every cut.
	for i := range len(base) {
		for _, c := range []byte{'x', '"', '{', '}', '[', ']', ',', '1', ' ', 0xff} {
			b := []byte(base)
			b[i] = c
			inputs[fmt.Sprintf("base[%d]=%q", i, c)] = b
		}
		inputs[fmt.Sprintf("base[:%d]", i)] = []byte(base[:i])
	}
	for _, s := range []string{
		`{"task": "EX-01", "steps": [{"op": "update"}], "bogus": 1}`,
		`{"task": "", "steps": [{"op": "update"}]}`,
		`{"task": "EX-01", "steps": [{"op": "update", "type": "t", "id": "1", "fields": {"a": {}}}], "transcript": [{"role": "x"}]}`,
		`{"task": "EX-01", "steps": [{"op": "update", "type": "t", "id": "1"}], "transcript": [{"role": "user", "content": "", "step": 2}]}`,
		`{"task": "EX-01", "steps": [{"op": "update", "type": "t", "id": "1", "x": 1}, {"op": 3}]}`,
		`{"task": "EX-01", "steps": [{"op": "update", "type": "t", "id": "1"}, {"op": "update", "op": "x"}]}`,
		`{"task": "EX-01", "steps": {"op": "update"}}`,
		`{"task": "EX-01", "steps": [], "steps": []}`,
		`{"task": "EX-01", "steps": []}`,
		`{"steps": [{"op": "update", "type": "t", "id": "1"}], "task": "EX-01"}`,
		`{"task": "EX-01", "steps": [{"op": "update", "type": "t", "id": "\ud800"}]}`,
		`[{"steps": []}]`,
		"\xef\xbb\xbf{}",
	} {
		inputs[s] = []byte(s)
	}
	for name, src := range inputs {
		want, werr := decodeTree("x.json", src)
		got, gerr := DecodeTrajectory("x.json", src)
		if fmt.Sprint(werr) != fmt.Sprint(gerr) {
			t.Errorf("%s: streamed error %v, tree error %v", name, gerr, werr)
			continue
		}
		if werr == nil && !reflect.DeepEqual(want, got) {
			t.Errorf("%s: streamed and tree decodings differ:\n%+v\n%+v", name, got, want)
		}
	}
}
