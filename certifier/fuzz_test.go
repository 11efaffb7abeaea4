package certifier

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/parthack/parthack/model"
)

// addSeeds adds every file of testdata/fuzz/<name> and the given fixture
// trajectories to f's seed corpus, which plain go test runs.
func addSeeds(f *testing.F, name string, fixtures ...[2]string) {
	files, err := filepath.Glob(filepath.Join("..", "testdata", "fuzz", name, "*.json"))
	if err != nil || len(files) == 0 {
		f.Fatalf("no seeds for %s: %v", name, err)
	}
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, fx := range fixtures {
		f.Add(readFixture(f, fx[0], fx[1]))
	}
}

// FuzzReplay decodes arbitrary bytes as a trajectory for the example
// task. Whatever decodes must go through double certification, alone and
// as the candidate of a pair and of a rollback, without a panic and
// without the two certifiers disagreeing.
func FuzzReplay(f *testing.F) {
	addSeeds(f, "FuzzReplay",
		[2]string{exampleDir, "honest.json"}, [2]string{exampleDir, "witness.json"}, [2]string{exampleDir, "rollback.json"})
	env := fixtureEnv(f, exampleDir)
	h := fixtureTrajectory(f, exampleDir, "honest.json")
	f.Fuzz(func(t *testing.T, src []byte) {
		tr, err := model.DecodeTrajectory("fuzz.json", src)
		if err != nil {
			var de *model.DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("decode error of type %T: %v", err, err)
			}
			return
		}
		if _, _, err := DoubleCertify(env, tr); err != nil {
			t.Fatal(err)
		}
		if _, err := DoublePair(env, h, tr); err != nil {
			t.Fatal(err)
		}
		if _, err := DoubleRollback(env, h, tr); err != nil {
			t.Fatal(err)
		}
	})
}
