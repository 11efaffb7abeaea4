// Package isolation runs the isolation audits of SPEC §4 as library code,
// for `parthack audit` and the tests in package audit: no canary of the
// sealed suite in any public payload or IDJ projection of any stored
// trajectory, the same payload bytes on every build, and capability
// probes from inside the worker that runs evaluator programs we do not
// control (probes.go).
package isolation

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/parthack/parthack/internal/payload"
	"github.com/parthack/parthack/internal/payload/builder"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
	"github.com/parthack/parthack/tasks"
	"github.com/parthack/parthack/tasks/sealed"
)

// Status is an audit's outcome.
type Status string

// The outcomes. Skip is for an audit this platform cannot run, always
// with the reason.
const (
	Pass Status = "PASS"
	Fail Status = "FAIL"
	Skip Status = "SKIP"
)

// Check is one audit and its outcome.
type Check struct {
	Name   string `json:"name"`
	Status Status `json:"status"`
	Detail string `json:"detail"`
}

// conclude is a check that passed with detail unless there were
// problems, which it lists.
func conclude(name, detail string, problems []string) Check {
	if len(problems) > 0 {
		return Check{Name: name, Status: Fail, Detail: strings.Join(problems, "; ")}
	}
	return Check{Name: name, Status: Pass, Detail: detail}
}

// canaryNeedles are a task's canaries as they could appear in payload
// bytes: raw and JSON-escaped (a string of the payload).
func canaryNeedles(id string) ([][]byte, error) {
	canaries, err := sealed.Canaries(id)
	if err != nil {
		return nil, err
	}
	var out [][]byte
	for _, c := range canaries {
		esc := model.Str(c).AppendJSON(nil)
		out = append(out, []byte(c), esc[1:len(esc)-1])
	}
	return out, nil
}

func firstNeedle(b []byte, needles [][]byte) []byte {
	for _, n := range needles {
		if bytes.Contains(b, n) {
			return n
		}
	}
	return nil
}

// trustedEnvironment compiles suite task id's trusted task afresh.
func trustedEnvironment(id string) (*pbcste.Env, error) {
	t, err := sealed.Trusted(id)
	if err != nil {
		return nil, err
	}
	return pbcste.Compile(t)
}

// publicBytes builds the payload of steps on env as the trusted parent
// does, and its IDJ projection.
func publicBytes(pub *model.Task, env *pbcste.Env, steps []model.Step) (pay, proj []byte, err error) {
	p, err := builder.Build(pub, env.Replay(steps), nil)
	if err != nil {
		return nil, nil, err
	}
	q, err := payload.Project(p)
	if err != nil {
		return nil, nil, err
	}
	return p.Bytes(), q.Bytes(), nil
}

// Payloads audits every stored trajectory of every suite task: neither
// its public payload nor its IDJ projection holds any of the task's
// canaries. A control per task proves the audit can see a leak: the
// unredacted payload (the trusted task as its own public view) must.
func Payloads() Check {
	const name = "no canary in any public payload or projection"
	suite, err := tasks.Suite()
	if err != nil {
		return Check{Name: name, Status: Fail, Detail: err.Error()}
	}
	var problems []string
	n := 0
	for _, task := range suite {
		env, err := trustedEnvironment(task.ID)
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", task.ID, err))
			continue
		}
		needles, err := canaryNeedles(task.ID)
		if err != nil || len(needles) == 0 {
			problems = append(problems, fmt.Sprintf("%s: no canaries (%v): the audit would prove nothing", task.ID, err))
			continue
		}
		unredacted, err := builder.Build(env.Task, env.Replay(nil), nil)
		if err != nil || firstNeedle(unredacted.Bytes(), needles) == nil {
			problems = append(problems, fmt.Sprintf("%s: control: no canary in the unredacted payload (%v): the audit cannot see a leak", task.ID, err))
		}
		for _, tr := range task.Trajectories() {
			pay, proj, err := publicBytes(task.Public, env, tr.Trajectory.Steps)
			if err != nil {
				problems = append(problems, fmt.Sprintf("%s %s: %v", task.ID, tr.File, err))
				continue
			}
			n++
			if c := firstNeedle(pay, needles); c != nil {
				problems = append(problems, fmt.Sprintf("%s %s: canary %s in the payload", task.ID, tr.File, c))
			}
			if c := firstNeedle(proj, needles); c != nil {
				problems = append(problems, fmt.Sprintf("%s %s: canary %s in the IDJ projection", task.ID, tr.File, c))
			}
		}
	}
	return conclude(name, fmt.Sprintf("%d tasks, %d stored trajectories: no canary in their %d payloads and %d projections; every task's unredacted control shows one", len(suite), n, n, n), problems)
}

// Determinism audits that every evaluator can be given the same bytes:
// each stored trajectory's payload and projection, built twice on two
// independently compiled trusted tasks, are byte-identical.
func Determinism() Check {
	const name = "same payload bytes on repeated builds"
	suite, err := tasks.Suite()
	if err != nil {
		return Check{Name: name, Status: Fail, Detail: err.Error()}
	}
	var problems []string
	n := 0
	for _, task := range suite {
		a, errA := trustedEnvironment(task.ID)
		b, errB := trustedEnvironment(task.ID)
		if errA != nil || errB != nil {
			problems = append(problems, fmt.Sprintf("%s: %v %v", task.ID, errA, errB))
			continue
		}
		for _, tr := range task.Trajectories() {
			payA, projA, errA := publicBytes(task.Public, a, tr.Trajectory.Steps)
			payB, projB, errB := publicBytes(task.Public, b, tr.Trajectory.Steps)
			switch {
			case errA != nil || errB != nil:
				problems = append(problems, fmt.Sprintf("%s %s: %v %v", task.ID, tr.File, errA, errB))
			case !bytes.Equal(payA, payB):
				problems = append(problems, fmt.Sprintf("%s %s: payload sha256 %s, then %s", task.ID, tr.File, model.Hash(payA), model.Hash(payB)))
			case !bytes.Equal(projA, projB):
				problems = append(problems, fmt.Sprintf("%s %s: projection sha256 %s, then %s", task.ID, tr.File, model.Hash(projA), model.Hash(projB)))
			default:
				n++
			}
		}
	}
	return conclude(name, fmt.Sprintf("%d stored trajectories: payload and projection byte-identical across two builds", n), problems)
}
