package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parthack/parthack/domains/tau2"
	"github.com/parthack/parthack/model"
)

// TestImportWithSpilledStrings: every shipped tau2 file and the tau-bench
// runs import the same when the stream sets aside nearly every string in
// a spill file (as it sets aside a message of over 1 MiB): the dry run's
// conformance report byte for byte, and each saved trajectory as stored.
func TestImportWithSpilledStrings(t *testing.T) {
	dir := t.TempDir()
	tauRuns := filepath.Join(dir, "tau-airline.json")
	if code, _, errs := run(t, "domain", "export", "--domain", "tau-airline", tauRuns); code != 0 {
		t.Fatalf("export: %s", errs)
	}
	var files []string
	for _, name := range tau2.RunFiles("") {
		files = append(files, shippedRun(t, filepath.Base(name)))
	}
	importAll := func(tag string) []string {
		var outs []string
		dry := append([]string{"import", "tau2", "--dry-run", "--format", "json"}, files...)
		for _, args := range [][]string{dry, {"import", "tau-bench", "--dry-run", "--format", "json", tauRuns}} {
			code, out, errs := run(t, args...)
			if code != 0 {
				t.Fatalf("%s: %v: exit %d: %s", tag, args[:2], code, errs)
			}
			outs = append(outs, out)
		}
		db := filepath.Join(dir, tag+".db")
		for _, args := range [][]string{append([]string{"--db", db, "import", "tau2"}, files...), {"--db", db, "import", "tau-bench", tauRuns}} {
			if code, _, errs := run(t, args...); code != 0 {
				t.Fatalf("%s: import: exit %d: %s", tag, code, errs)
			}
		}
		code, ls, errs := run(t, "--db", db, "store", "ls")
		if code != 0 {
			t.Fatalf("%s: store ls: %s", tag, errs)
		}
		outs = append(outs, ls)
		records := strings.Count(ls, "\n") - 1 // less the header
		if records != 674 {
			t.Fatalf("%s: the store lists %d records, want the 474 tau2 and 200 tau-bench runs", tag, records)
		}
		for k := 1; k <= records; k += 23 { // every 23rd record, of every file
			ref := fmt.Sprintf("witness:%d", k)
			out := filepath.Join(dir, fmt.Sprintf("%s-%d.json", tag, k))
			if code, _, errs := run(t, "--db", db, "store", "export", ref, out); code != 0 {
				t.Fatalf("%s: export %s: %s", tag, ref, errs)
			}
			b, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			outs = append(outs, string(b))
		}
		return outs
	}
	want := importAll("memory")
	restore := model.SpillShortStrings(8)
	got := importAll("spilled")
	if n := restore(); n < 100_000 {
		t.Errorf("%d strings set aside, want over 100,000", n)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("output %d differs with strings set aside (%d and %d bytes)%s", i, len(got[i]), len(want[i]), firstDiff(got[i], want[i]))
		}
	}
}

// firstDiff says where two texts first differ.
func firstDiff(a, b string) string {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return fmt.Sprintf(": at byte %d, %q against %q", i, a[max(i-40, 0):min(i+40, len(a))], b[max(i-40, 0):min(i+40, len(b))])
		}
	}
	return ""
}

// TestBenchWithSpilledStrings: bench attacks runs read with nearly every
// string set aside as it attacks them read in memory: the search, the
// benchmark's rewards (tau2's COMMUNICATE, tau-bench's outputs) and the
// report read the spilled messages in pieces, to the same JSON.
func TestBenchWithSpilledStrings(t *testing.T) {
	noAttackerEnv(t)
	dir := t.TempDir()
	tauRuns := filepath.Join(dir, "tau-airline.json")
	if code, _, errs := run(t, "domain", "export", "--domain", "tau-airline", tauRuns); code != 0 {
		t.Fatalf("export: %s", errs)
	}
	benches := [][]string{
		{"bench", "--domain", "tau2-retail", "--runs", shippedRun(t, "retail-gpt-4.1.json.gz"), "--format", "json"},
		{"bench", "--domain", "tau-airline", "--runs", tauRuns, "--tasks", "TAU-A04,TAU-A01,TAU-A14", "--format", "json"},
	}
	for _, args := range benches {
		code, want, errs := run(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args[:3], code, errs)
		}
		restore := model.SpillShortStrings(8)
		code, got, errs := run(t, args...)
		n := restore()
		if code != 0 {
			t.Fatalf("%v with strings set aside: exit %d: %s", args[:3], code, errs)
		}
		if n < 1000 {
			t.Errorf("%v: %d strings set aside, want thousands", args[:3], n)
		}
		if got != want {
			t.Errorf("%v reports otherwise with strings set aside%s", args[:3], firstDiff(got, want))
		}
	}
}
