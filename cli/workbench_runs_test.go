package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// workbench --domain D --runs FILE reads every file whole before it needs
// a terminal, as --task does: a good file gets as far as the terminal
// check; a bad one is bad input said with its file, line and column; a
// file given twice, or --runs without --domain, is refused.
func TestWorkbenchRunsAreCheckedFirst(t *testing.T) {
	t.Setenv("TERM", "xterm-256color")
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	good := write("m-multi_turn_base_result.json", `{"id": "multi_turn_base_0", "result": [[[{"ls": "{\"a\": true}"}], []]]}`+"\n")
	bad := write("bad-multi_turn_base_result.json", `{"id": "multi_turn_base_0", "result": [[]]}`+"\n"+`{"id": "multi_turn_base_1", "result": 5}`+"\n")
	empty := write("empty-multi_turn_base_result.json", "")
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"a good file reaches the terminal check", []string{"workbench", "--domain", "bfcl-multi-turn", "--runs", good}, "needs a terminal"},
		{"a bad file, located", []string{"workbench", "--domain", "bfcl-multi-turn", "--runs", good, "--runs", bad}, "--runs: " + bad + ":2:"},
		{"a file given twice", []string{"workbench", "--domain", "bfcl-multi-turn", "--runs", good, "--runs", good}, "--runs: run m of task multi_turn_base_0 is given twice"},
		{"a file of no run", []string{"workbench", "--domain", "bfcl-multi-turn", "--runs", empty}, "hold no run"},
		{"no such file", []string{"workbench", "--domain", "bfcl-multi-turn", "--runs", filepath.Join(dir, "none.json")}, "none.json"},
		{"without --domain", []string{"workbench", "--runs", good}, "--runs goes with --domain"},
	} {
		code, out, errb := run(t, append([]string{"--db", filepath.Join(t.TempDir(), "s.db")}, c.args...)...)
		if code != ExitUsage || out != "" || !strings.Contains(errb, c.want) || strings.Count(errb, "\n") != 1 {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want 2 and %q in one line", c.name, code, out, errb, c.want)
		}
	}
}
