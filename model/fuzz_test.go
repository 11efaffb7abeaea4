package model_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/parthack/parthack/model"
)

// addSeeds adds the given files (globs under the repository's testdata)
// to f's seed corpus, which plain go test runs.
func addSeeds(f *testing.F, globs ...string) {
	n := 0
	for _, g := range globs {
		files, err := filepath.Glob(filepath.Join("..", "testdata", g))
		if err != nil {
			f.Fatal(err)
		}
		for _, file := range files {
			b, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b)
			n++
		}
	}
	if n == 0 {
		f.Fatalf("no seeds in %v", globs)
	}
}

// mustDecodeError fails unless err is nil or a located *DecodeError.
func mustDecodeError(t *testing.T, err error) {
	t.Helper()
	var de *model.DecodeError
	if err != nil && !errors.As(err, &de) {
		t.Fatalf("error of type %T, not *DecodeError: %v", err, err)
	}
}

// FuzzDecodeTrajectory: arbitrary bytes never panic the decoder, every
// error is a *DecodeError, and whatever decodes survives
// EncodeTrajectory: it decodes again to the same encoding.
func FuzzDecodeTrajectory(f *testing.F) {
	addSeeds(f, "example/honest.json", "example/witness.json", "example/rollback.json", "fuzz/FuzzDecodeTrajectory/*.json", "fuzz/FuzzReplay/*.json")
	f.Add([]byte(`{"task": "EX-01", "steps": [`))
	f.Add([]byte(`{"task": "T2A-15", "steps": [], "termination_reason": "max_steps", "max_errors": 10}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, src []byte) {
		tr, err := model.DecodeTrajectory("fuzz.json", src)
		mustDecodeError(t, err)
		if err != nil {
			return
		}
		enc := model.EncodeTrajectory(tr)
		back, err := model.DecodeTrajectory("encoded.json", enc)
		if err != nil {
			t.Fatalf("the encoding of a decoded trajectory does not decode: %v\n%s", err, enc)
		}
		if again := model.EncodeTrajectory(back); !bytes.Equal(again, enc) {
			t.Fatalf("encoding is not stable:\n%s\n%s", enc, again)
		}
	})
}

// FuzzDecodeTask: arbitrary bytes never panic the task decoder, and
// every error is a *DecodeError.
func FuzzDecodeTask(f *testing.F) {
	addSeeds(f, "example/task.json", "certifier/*/task.json", "fuzz/FuzzDecodeTask/*.json")
	f.Add([]byte(`{"id": "X", "schema": {}}`))
	f.Fuzz(func(t *testing.T, src []byte) {
		_, err := model.DecodeTask("fuzz.json", src)
		mustDecodeError(t, err)
	})
}
