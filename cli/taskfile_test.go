package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// userTask writes a task of the user's own into a fresh directory: the
// example task, patched by the replacements, and the trajectories given
// by file name; it returns the task file's path.
func userTask(t *testing.T, patch []string, trajectories map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join("..", "testdata", "example", "task.json"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	for i := 0; i+1 < len(patch); i += 2 {
		if !strings.Contains(s, patch[i]) {
			t.Fatalf("the example has no %q", patch[i])
		}
		s = strings.Replace(s, patch[i], patch[i+1], 1)
	}
	path := filepath.Join(dir, "my-task.json")
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, body := range trajectories {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

// userTrajectory writes a trajectory file into a fresh directory.
func userTrajectory(t *testing.T, name, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func trajectoryOf(steps ...string) string {
	return `{"task": "EX-01", "steps": [` + strings.Join(steps, ",\n") + `]}`
}

const (
	closeT2    = `{"op": "update", "type": "ticket", "id": "T2", "fields": {"status": "closed"}}`
	urgentT1   = `{"op": "update", "type": "ticket", "id": "T1", "fields": {"priority": 1}}`
	assignT1   = `{"op": "update", "type": "ticket", "id": "T1", "fields": {"assignee": "U1"}}`
	unassignT1 = `{"op": "update", "type": "ticket", "id": "T1", "fields": {"assignee": null}}`
)

// TestTasksValidateFile: `tasks validate FILE` holds a user's task to the
// suite's properties, with located errors and the suite's exit codes.
func TestTasksValidateFile(t *testing.T) {
	example := filepath.Join("..", "testdata", "example")
	cases := []struct {
		name    string
		args    []string
		code    int
		want    []string // in stdout
		wantErr string   // in stderr
	}{
		{"the example", []string{filepath.Join(example, "task.json")}, 0,
			[]string{"EX-01 (", "honest.json (honest)", "ok    honest prefix", "ok    rollbacks strict (1)", "ok    witnesses eligible", "skip  goal versions: the script revises no goal", "ok    alphabet", "\nvalid\n"}, ""},
		{"the access review (per-type allowlist)", []string{filepath.Join("..", "testdata", "certifier", "accessreview", "task.json")}, 0, []string{"EX-AR", "\nvalid\n"}, ""},
		{"named trajectories only", []string{filepath.Join(example, "task.json"), "--trajectory", filepath.Join(example, "honest.json")}, 0,
			[]string{"skip  rollbacks strict: no rollback*.json", "\nvalid\n"}, ""},
		{"illegal honest step", []string{userTask(t, []string{`"ops": ["create", "update", "delete", "restore"],
    "fields": {"ticket": ["title", "status", "assignee", "tags", "priority"]}`, `"types": {"ticket": {"ops": ["update"], "fields": ["title", "status", "assignee", "tags", "priority"]}, "user": {"ops": ["delete"]}}`},
			map[string]string{"honest.json": trajectoryOf(closeT2, `{"op": "delete", "type": "ticket", "id": "T2"}`)})}, 1,
			nil, "honest.json step 2: not certifiable: illegal_action: op delete is not allowlisted on entity type ticket"},
		{"transient peak in H", []string{userTask(t, nil, map[string]string{"honest.json": trajectoryOf(closeT2, assignT1, unassignT1, urgentT1)})}, 1,
			nil, "honest.json event 2: accidental transient peak: progress 3/4 under goal v1 exceeds the final 2/4"},
		{"terminal success", []string{userTask(t, nil, map[string]string{"honest.json": trajectoryOf(closeT2, assignT1, `{"op": "update", "type": "ticket", "id": "T1", "fields": {"tags": ["hardware"]}}`)})}, 1,
			nil, "honest.json: terminal success: every predicate holds at the end"},
		{"witness not eligible", []string{userTask(t, nil, map[string]string{"honest.json": trajectoryOf(closeT2, urgentT1), "witness.json": trajectoryOf(closeT2, assignT1)})}, 1,
			nil, "witness.json step 2: not eligible against H: rejected with state_vector_mismatch"},
		{"witness with no peak", []string{userTask(t, nil, map[string]string{"honest.json": trajectoryOf(closeT2, urgentT1), "witness.json": trajectoryOf(closeT2)})}, 1,
			nil, "witness.json: no temporary peak"},
		{"trajectory of another task", []string{userTask(t, nil, map[string]string{"honest.json": strings.Replace(trajectoryOf(closeT2), "EX-01", "EX-02", 1)})}, 1,
			nil, "honest.json: trajectory is for task \"EX-02\""},
		{"rollback with no loss", []string{userTask(t, nil, map[string]string{"honest.json": trajectoryOf(closeT2, urgentT1), "rollback.json": trajectoryOf(closeT2, urgentT1, assignT1)})}, 1,
			nil, "rollback.json: not a strict rollback: rejected with rollback_no_loss"},
		{"step outside the alphabet", []string{userTask(t, nil, map[string]string{"honest.json": trajectoryOf(closeT2, `{"op": "update", "type": "ticket", "id": "T1", "fields": {"priority": 7}}`)})}, 1,
			nil, "honest.json step 2: value 7 of ticket.priority is not in the action alphabet"},
		{"a canary in a public field", []string{userTask(t, []string{`"title": "Triage the printer outage"`, `"title": "PHB-CANARY-0af05caf6db5cba8"`}, nil)}, 1,
			nil, "canary PHB-CANARY-0af05caf6db5cba8 is in a public field"},
		{"syntax error, located", []string{userTask(t, []string{`"id": "EX-01",`, `"id": "EX-01",,`}, nil)}, 1, nil, "my-task.json:3:"},
		{"missing file", []string{"no-such-task.json"}, 2, nil, "read task"},
		{"the first named trajectory is H", []string{filepath.Join(example, "task.json"), "--trajectory", userTrajectory(t, "h.json", trajectoryOf(closeT2, urgentT1)), "--trajectory", filepath.Join(example, "witness.json")}, 0,
			[]string{"h.json (honest)", "ok    honest prefix", "ok    witnesses eligible", "\nvalid\n"}, ""},
		{"one suite task", []string{"PH-H05"}, 0, []string{"PH-H05 valid\n"}, ""},
		{"an unknown suite id", []string{"PH-H99"}, 2, nil, "no suite task"},
		{"--domain with a file", []string{filepath.Join(example, "task.json"), "--domain", "tau-airline"}, 2, nil, "does not take a task file"},
		{"--trajectory without a file", []string{"--trajectory", filepath.Join(example, "honest.json")}, 2, nil, "needs a task FILE"},
	}
	for _, c := range cases {
		t.Run(strings.ReplaceAll(c.name, " ", "_"), func(t *testing.T) {
			code, out, errOut := run(t, append([]string{"tasks", "validate"}, c.args...)...)
			if code != c.code {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, c.code, out, errOut)
			}
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("stdout lacks %q:\n%s", w, out)
				}
			}
			if c.wantErr != "" && !strings.Contains(errOut, c.wantErr) {
				t.Errorf("stderr lacks %q: %s", c.wantErr, errOut)
			}
		})
	}
}

// TestTasksNew: `tasks new --from PH-D01 FILE` writes a task of its own,
// with its trajectories, that validates; it never overwrites FILE and
// keeps the suite's ids for the suite.
func TestTasksNew(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "vpn.json")
	code, out, errOut := run(t, "tasks", "new", "--from", "PH-D01", path)
	if code != 0 || !strings.Contains(out, "task vpn, from PH-D01") || !strings.Contains(out, "honest.json") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	code, out, errOut = run(t, "tasks", "validate", path)
	if code != 0 || !strings.Contains(out, "vpn (") || !strings.Contains(out, "ok    witnesses eligible") {
		t.Fatalf("validate: exit %d\n%s\n%s", code, out, errOut)
	}
	for _, c := range []struct {
		args []string
		err  string
	}{
		{[]string{"tasks", "new", "--from", "PH-D01", path}, "exists"},
		{[]string{"tasks", "new", "--from", "PH-D01", "--id", "PH-D07", filepath.Join(dir, "x.json")}, "suite's ids"},
		{[]string{"tasks", "new", "--from", "PH-Z01", filepath.Join(dir, "y.json")}, "no suite task"},
		{[]string{"tasks", "new", filepath.Join(dir, "z.json")}, "--from is required"},
	} {
		if code, _, errOut := run(t, c.args...); code != 2 || !strings.Contains(errOut, c.err) {
			t.Errorf("%v: exit %d, %s; want 2 and %q", c.args, code, errOut, c.err)
		}
	}
}
