package cli

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"
)

// The workbench and the demo need a terminal: with stdin a pipe they say
// so in one sentence and exit 2 before writing a byte to the terminal,
// instead of switching screens and reading the pipe as keys.
func TestWorkbenchNeedsATerminal(t *testing.T) {
	for _, cmd := range []string{"workbench", "demo"} {
		t.Run(cmd, func(t *testing.T) {
			t.Setenv("TERM", "xterm-256color")
			r, w, err := os.Pipe() // like `sleep 30 | parthack workbench`: never closed while it runs
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			defer r.Close()
			var out, errb bytes.Buffer
			done := make(chan int, 1)
			go func() { done <- Main([]string{"--db", t.TempDir() + "/s.db", cmd}, r, &out, &errb) }()
			var code int
			select {
			case code = <-done:
			case <-time.After(5 * time.Second):
				t.Fatal("the workbench waited on a pipe instead of refusing it")
			}
			if code != ExitUsage {
				t.Errorf("exit %d, want %d", code, ExitUsage)
			}
			if out.Len() != 0 {
				t.Errorf("it wrote to the terminal: %q", out.String())
			}
			msg := errb.String()
			if strings.Count(msg, "\n") != 1 || !strings.Contains(msg, "needs a terminal") || !strings.Contains(msg, "headless") {
				t.Errorf("stderr: %q", msg)
			}
		})
	}
}

// TERM=dumb cannot draw the workbench: parthack says so and exits, and
// with no arguments it prints help.
func TestWorkbenchRefusesADumbTerminal(t *testing.T) {
	t.Setenv("TERM", "dumb")
	code, out, errb := run(t, "--db", t.TempDir()+"/s.db", "workbench")
	if code != ExitUsage || out != "" || !strings.Contains(errb, "TERM=dumb") || strings.Count(errb, "\n") != 1 {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errb)
	}
	code, out, _ = run(t)
	if code != ExitOK || !strings.Contains(out, "Available Commands") {
		t.Fatalf("parthack alone on a dumb terminal: exit %d, %q", code, out)
	}
}

// workbench --task FILE checks the file before it needs a terminal: a
// file that does not decode is bad input, said where, and --task does
// not combine with --domain.
func TestWorkbenchTaskFileIsCheckedFirst(t *testing.T) {
	t.Setenv("TERM", "xterm-256color")
	bad := t.TempDir() + "/task.json"
	if err := os.WriteFile(bad, []byte(`{"id": "X", "schema": {}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"workbench", "--task", bad}, "task.json:1:"},
		{[]string{"workbench", "--task", t.TempDir() + "/none.json"}, "read task"},
		{[]string{"workbench", "--task", "../testdata/example/task.json", "--domain", "tau-airline"}, "does not combine with --domain"},
	} {
		code, out, errb := run(t, append([]string{"--db", t.TempDir() + "/s.db"}, c.args...)...)
		if code != ExitUsage || out != "" || !strings.Contains(errb, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2 and %q", c.args, code, out, errb, c.want)
		}
	}
}
