package schema

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parthack/parthack/domains/tauair"
	"github.com/parthack/parthack/model"
)

func validators(t *testing.T) (task, traj *validator) {
	t.Helper()
	var err error
	if task, err = newValidator(Task); err != nil {
		t.Fatal(err)
	}
	if traj, err = newValidator(Trajectory); err != nil {
		t.Fatal(err)
	}
	return task, traj
}

func check(t *testing.T, v *validator, name string, src []byte) {
	t.Helper()
	var doc any
	if err := decode(src, &doc); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	for _, e := range v.validate(doc) {
		t.Errorf("%s: %s", name, e)
	}
}

// TestEveryFileMatchesItsSchema validates every task and trajectory file
// the project has (testdata, the embedded suite under tasks/data, the
// example) against its schema: each file the decoder reads as a task or a
// trajectory must also satisfy the schema. The encoder's output
// (model.EncodeTrajectory, used to save witnesses) is checked too, for
// every trajectory and for tau-bench gold runs, whose steps are tool
// calls.
func TestEveryFileMatchesItsSchema(t *testing.T) {
	taskV, trajV := validators(t)
	counts := map[string]int{}
	var trajectories []*model.Trajectory
	for _, root := range []string{"../testdata", "../tasks/data"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".json") {
				return err
			}
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			if _, err := model.DecodeTask(path, src); err == nil {
				check(t, taskV, path, src)
				counts["task "+root]++
				return nil
			}
			if tr, err := model.DecodeTrajectory(path, src); err == nil {
				check(t, trajV, path, src)
				counts["trajectory "+root]++
				trajectories = append(trajectories, tr)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for what, least := range map[string]int{"task ../tasks/data": 24, "trajectory ../tasks/data": 24 + 6 + 6, "task ../testdata": 5, "trajectory ../testdata": 10} {
		if counts[what] < least {
			t.Errorf("%d files of kind %s, expected at least %d (counts %v)", counts[what], what, least, counts)
		}
	}
	for _, tr := range trajectories {
		check(t, trajV, "EncodeTrajectory("+tr.File+")", model.EncodeTrajectory(tr))
	}
	gold, err := tauair.GoldRuns()
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range gold[:5] {
		tr := &model.Trajectory{Task: tauair.TaskID(g.TaskID)}
		for i := range g.Steps {
			st, err := tauair.StepOf(&g.Steps[i], i)
			if err != nil {
				t.Fatal(err)
			}
			tr.Steps = append(tr.Steps, st)
		}
		src := model.EncodeTrajectory(tr)
		if _, err := model.DecodeTrajectory("gold.json", src); err != nil {
			t.Fatal(err)
		}
		check(t, trajV, "tau-airline gold "+tr.Task, src)
	}
}

// TestSchemaRejectsWhatTheDecoderRejects: mutants of the example that
// the decoder refuses for their shape are refused by the schema too.
func TestSchemaRejectsWhatTheDecoderRejects(t *testing.T) {
	taskV, trajV := validators(t)
	task, err := os.ReadFile("../testdata/example/task.json")
	if err != nil {
		t.Fatal(err)
	}
	honest, err := os.ReadFile("../testdata/example/honest.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, file, old, new string
	}{
		{"unknown top-level member", "task", `"title":`, `"titel":`},
		{"wrong format", "task", `"parthack.task/1"`, `"parthack.task/2"`},
		{"revise_goal in the allowlist", "task", `"ops": ["create", "update", "delete", "restore"]`, `"ops": ["create", "revise_goal"]`},
		{"both allowlist forms", "task", `"ops": ["create", "update", "delete", "restore"],`, `"ops": ["update"], "types": {},`},
		{"two keys in an expression", "task", `"expr": {"ref":`, `"expr": {"not": {"alive": {"type": "user", "id": "U1"}}, "ref":`},
		{"unknown field kind", "task", `"priority": "int"`, `"priority": "float"`},
		{"no goals", "task", `"goals": [`, `"goals": [], "x": [`},
		{"a name with a dot", "task", `"user": {"name"`, `"us.er": {"name"`},
		{"an object as a step's value", "trajectory", `{"status": "closed"}`, `{"status": {"v": "closed"}}`},
		{"step number 0", "trajectory", `{"op": "update", "type": "ticket", "id": "T1"`, `{"step": 0, "op": "update", "type": "ticket", "id": "T1"`},
		{"no steps", "trajectory", `"steps":`, `"stepz":`},
	} {
		src, v := task, taskV
		if c.file == "trajectory" {
			src, v = honest, trajV
		}
		if !strings.Contains(string(src), c.old) {
			t.Fatalf("%s: the example has no %q", c.name, c.old)
		}
		mutant := []byte(strings.Replace(string(src), c.old, c.new, 1))
		var derr error
		if c.file == "task" {
			_, derr = model.DecodeTask("mutant.json", mutant)
		} else {
			_, derr = model.DecodeTrajectory("mutant.json", mutant)
		}
		if derr == nil {
			t.Errorf("%s: the decoder accepts the mutant", c.name)
		}
		var doc any
		if err := decode(mutant, &doc); err != nil {
			continue // not JSON: the schema never sees it
		}
		if errs := v.validate(doc); len(errs) == 0 {
			t.Errorf("%s: the schema accepts the mutant (the decoder says %v)", c.name, derr)
		}
	}
}

// TestSchemaMember: a file may name its schema; the decoder accepts it
// and so does the schema.
func TestSchemaMember(t *testing.T) {
	taskV, _ := validators(t)
	src, err := os.ReadFile("../testdata/example/task.json")
	if err != nil {
		t.Fatal(err)
	}
	withSchema := []byte(strings.Replace(string(src), "{\n", "{\n  \"$schema\": \"../../schema/task.schema.json\",\n", 1))
	if _, err := model.DecodeTask("task.json", withSchema); err != nil {
		t.Fatal(err)
	}
	check(t, taskV, "with $schema", withSchema)
}
