package certifier

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
)

// The fixture tasks: the example, its GoalPatch variant (a scripted
// revision to v2 after two agent steps), its attribution variant (a
// scripted user write after one agent step) and an access review whose
// allowlist is per type (grants may be deleted, the request may not).
const (
	exampleDir      = "example"
	goalPatchDir    = "certifier/goalpatch"
	attributionDir  = "certifier/attribution"
	accessReviewDir = "certifier/accessreview"
)

var fixtureDirs = []string{exampleDir, goalPatchDir, attributionDir, accessReviewDir}

func readFixture(t testing.TB, dir, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func fixtureEnv(t testing.TB, dir string) *pbcste.Env {
	t.Helper()
	return compileTask(t, string(readFixture(t, dir, "task.json")))
}

func fixtureTrajectory(t testing.TB, dir, name string) *model.Trajectory {
	t.Helper()
	tr, err := model.DecodeTrajectory(name, readFixture(t, dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func compileTask(t testing.TB, src string) *pbcste.Env {
	t.Helper()
	task, err := model.DecodeTask("task.json", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	env, err := pbcste.Compile(task)
	if err != nil {
		t.Fatal(err)
	}
	return env
}

// steps decodes a trajectory for task from step objects written as JSON.
func steps(t testing.TB, task string, stepJSON ...string) *model.Trajectory {
	t.Helper()
	src := `{"task": "` + task + `", "steps": [` + strings.Join(stepJSON, ",\n") + `]}`
	tr, err := model.DecodeTrajectory("steps.json", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// randomTrajectory draws n legal-to-submit agent steps from the task's
// alphabet (with a per-type allowlist, only the ops each type allows): mostly updates, some creates, deletes and restores, so that
// failed steps, tombstones and recreations all occur.
func randomTrajectory(r *rand.Rand, task *model.Task, n int) *model.Trajectory {
	tr := &model.Trajectory{Task: task.ID}
	var types []string
	for _, et := range task.Schema.Types {
		if _, ok := task.Alphabet[et.Name]; ok && task.Allowlist.AllowsType(et.Name) {
			types = append(types, et.Name)
		}
	}
	for range n {
		typ := types[r.IntN(len(types))]
		at := task.Alphabet[typ]
		st := model.Step{Action: model.Action{Type: typ, ID: at.IDs[r.IntN(len(at.IDs))]}}
		switch k := r.IntN(10); {
		case k < 6:
			st.Op = model.OpUpdate
		case k < 8:
			st.Op = model.OpCreate
		case k < 9:
			st.Op = model.OpDelete
		default:
			st.Op = model.OpRestore
		}
		if ops := task.Allowlist.OpsOn(typ); task.Allowlist.PerType() && !slices.Contains(ops, st.Op) {
			st.Op = ops[r.IntN(len(ops))]
		}
		if st.Op == model.OpCreate || st.Op == model.OpUpdate {
			for _, i := range r.Perm(len(at.Fields))[:1+r.IntN(min(2, len(at.Fields)))] {
				f := at.Fields[i]
				st.Fields = append(st.Fields, model.Assign{Field: f.Field, Value: f.Values[r.IntN(len(f.Values))]})
			}
		}
		tr.Steps = append(tr.Steps, st)
	}
	return tr
}

// psi is ψ(c): the fraction of predicates set in a bit vector of m.
func psi(bits uint64, m int) model.Frac {
	n := 0
	for j := range m {
		if bits&(1<<uint(j)) != 0 {
			n++
		}
	}
	return model.Frac{Num: n, Den: m}
}

// bitsOf turns a certificate vector into bits, as pbcste events hold them.
func bitsOf(c []int) uint64 {
	var b uint64
	for j, x := range c {
		if x == 1 {
			b |= 1 << uint(j)
		}
	}
	return b
}
