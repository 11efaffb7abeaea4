package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parthack/parthack/domains"
	"github.com/parthack/parthack/model"
)

// TestCertifyTakesTheWitnessesH: without --honest, a candidate that
// names its H (the workbench's "honest" member) is certified against that
// run of T2A-2, not gold: a run certified against itself is eligible.
func TestCertifyTakesTheWitnessesH(t *testing.T) {
	d, task, err := domains.FindTask("T2A-2")
	if err != nil {
		t.Fatal(err)
	}
	runs, err := d.Runs()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, r := range runs {
		if r.Task != task.ID {
			continue
		}
		tr, err := r.Trajectory()
		if err != nil {
			t.Fatal(err)
		}
		named := *tr
		named.Honest = r.Short
		plain, own := filepath.Join(dir, "plain.json"), filepath.Join(dir, "named.json")
		if os.WriteFile(plain, model.EncodeTrajectory(tr), 0o644) != nil || os.WriteFile(own, model.EncodeTrajectory(&named), 0o644) != nil {
			t.Fatal("cannot write the candidates")
		}
		pc, _, _ := run(t, "certify", "--task", task.ID, "--candidate", plain)
		code, out, errOut := run(t, "certify", "--task", task.ID, "--candidate", own)
		if code != 0 || !strings.Contains(out, "eligible") {
			t.Fatalf("%s named as its own H: exit %d\n%s%s", r.Short, code, out, errOut)
		}
		if pc != 0 {
			return // against gold it is rejected: H was the run it names
		}
	}
	t.Fatal("every run of T2A-2 is eligible against gold: the test tells nothing")
}
