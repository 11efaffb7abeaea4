package payload_test

import (
	"bytes"
	"slices"
	"testing"

	"github.com/parthack/parthack/internal/payload"
	"github.com/parthack/parthack/internal/payload/builder"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
	"github.com/parthack/parthack/tasks"
	"github.com/parthack/parthack/tasks/sealed"
)

// suiteEnv compiles the trusted task of a suite task: what the trusted
// parent replays on.
func suiteEnv(t *testing.T, id string) *pbcste.Env {
	t.Helper()
	trusted, err := sealed.Trusted(id)
	if err != nil {
		t.Fatal(err)
	}
	env, err := pbcste.Compile(trusted)
	if err != nil {
		t.Fatalf("%s: %v", id, err)
	}
	return env
}

// TestNoCanaryInSuitePayloads is the trusted parent's leak audit: every
// stored trajectory of every suite task, serialized as payload and as IDJ
// projection, contains none of the task's canaries, raw or JSON-escaped.
func TestNoCanaryInSuitePayloads(t *testing.T) {
	suite, err := tasks.Suite()
	if err != nil {
		t.Fatal(err)
	}
	if len(suite) == 0 {
		t.Fatal("empty suite")
	}
	for _, task := range suite {
		env := suiteEnv(t, task.ID)
		canaries, err := sealed.Canaries(task.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(canaries) == 0 {
			t.Errorf("%s: no canaries: the audit would prove nothing", task.ID)
		}
		var needles [][]byte
		for _, c := range canaries {
			esc := model.Str(c).AppendJSON(nil)
			needles = append(needles, []byte(c), esc[1:len(esc)-1])
		}
		// Control: with the trusted task as its own "public" view nothing
		// is redacted, and the audit must see the leak.
		unredacted, err := builder.Build(env.Task, env.Replay(nil), nil)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.ContainsFunc(needles, func(n []byte) bool { return bytes.Contains(unredacted.Bytes(), n) }) {
			t.Errorf("%s: no canary in the unredacted payload: the audit cannot see a leak", task.ID)
		}
		for _, n := range task.Trajectories() {
			p, err := builder.Build(task.Public, env.Replay(n.Trajectory.Steps), nil)
			if err != nil {
				t.Fatalf("%s %s: %v", task.ID, n.File, err)
			}
			q, err := payload.Project(p)
			if err != nil {
				t.Fatal(err)
			}
			for _, b := range [][]byte{p.Bytes(), q.Bytes()} {
				for _, needle := range needles {
					if bytes.Contains(b, needle) {
						t.Errorf("%s %s: canary %s in public bytes", task.ID, n.File, needle)
					}
				}
			}
		}
	}
}
