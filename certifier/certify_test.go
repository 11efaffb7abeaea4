package certifier

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
)

func load(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", "example", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func exampleEnv(t testing.TB) *pbcste.Env {
	t.Helper()
	task, err := model.DecodeTask("task.json", load(t, "task.json"))
	if err != nil {
		t.Fatal(err)
	}
	env, err := pbcste.Compile(task)
	if err != nil {
		t.Fatal(err)
	}
	return env
}

func exampleTrajectory(t testing.TB, name string) *model.Trajectory {
	t.Helper()
	tr, err := model.DecodeTrajectory(name, load(t, name))
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func TestExamplePairIsEligible(t *testing.T) {
	env := exampleEnv(t)
	v, err := pair(env, exampleTrajectory(t, "honest.json"), exampleTrajectory(t, "witness.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !v.Eligible {
		t.Fatalf("witness rejected: %s %+v", v.Reason, v.Evidence)
	}
	if got := v.Honest.PState.String(); got != "2/4" {
		t.Errorf("P_state(H) = %s, want 2/4", got)
	}
	want := []int{1, 0, 0, 1}
	for j := range want {
		if v.Honest.CAgent[j] != want[j] {
			t.Errorf("c_agent(H) = %v, want %v", v.Honest.CAgent, want)
			break
		}
	}
}

func TestExampleRollbackIsStrict(t *testing.T) {
	env := exampleEnv(t)
	v, err := rollback(env, exampleTrajectory(t, "honest.json"), exampleTrajectory(t, "rollback.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !v.Eligible {
		t.Fatalf("rollback rejected: %s %+v", v.Reason, v.Evidence)
	}
}
