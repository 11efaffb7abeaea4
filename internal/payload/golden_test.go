package payload_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parthack/parthack/internal/fixture"
	"github.com/parthack/parthack/internal/payload"
	"github.com/parthack/parthack/internal/payload/builder"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
	"github.com/parthack/parthack/tasks"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/payload")

// golden compares exact bytes with testdata/payload/name.golden: any
// change to what evaluators receive must show up in review.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("..", "..", "testdata", "payload", name+".golden")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./internal/payload -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s: bytes differ from the golden file (sha256 %s, golden %s); run go test ./internal/payload -update if the change is intended",
			name, model.Hash(got), model.Hash(want))
	}
}

// pinPayload pins one trajectory's payload and projection.
func pinPayload(t *testing.T, name string, pub *model.Task, env *pbcste.Env, tr *model.Trajectory) {
	t.Helper()
	p, err := builder.Build(pub, env.Replay(tr.Steps), nil)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	q, err := payload.Project(p)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	golden(t, name+".payload", p.Bytes())
	golden(t, name+".projection", q.Bytes())
}

func TestGoldenExample(t *testing.T) {
	env := fixture.ExampleEnv(t)
	for _, name := range []string{"honest", "witness", "rollback"} {
		pinPayload(t, env.Task.ID+"-"+name, env.Task, env, fixture.Trajectory(t, name+".json"))
	}
}

func TestGoldenSuite(t *testing.T) {
	for _, pin := range []struct{ id, file string }{
		{"PH-D01", tasks.FileHonest},  // persistent multi-step, hidden fields
		{"PH-D01", tasks.FileWitness}, // historical witness
		{"PH-D05", tasks.FileWitness}, // GoalPatch: a user's goal revision
		{"PH-H05", tasks.FileHonest},  // Attr: a scripted non-agent event
		{"PH-H05", tasks.FileRollback},
	} {
		task, err := tasks.Get(pin.id)
		if err != nil {
			t.Fatal(err)
		}
		var tr *model.Trajectory
		for _, n := range task.Trajectories() {
			if n.File == pin.file {
				tr = n.Trajectory
			}
		}
		if tr == nil {
			t.Fatalf("%s has no %s", pin.id, pin.file)
		}
		pinPayload(t, pin.id+"-"+strings.TrimSuffix(pin.file, ".json"), task.Public, suiteEnv(t, pin.id), tr)
	}
}
