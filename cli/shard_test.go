package cli

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// buildParthack builds the parthack binary into a temporary directory.
func buildParthack(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "parthack")
	cmd := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "build", "-o", bin, ".")
	cmd.Dir = filepath.Join("..")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// TestShardsMergeToTheRun runs a small benchmark whole and as n shards,
// each a separate process of the real binary running at the same time, as
// the members of a job array do; report merges the shards' ledgers (given
// in no particular order) into the unsharded ledger, byte for byte, JSON
// and CSV, and prints the same report bench printed.
func TestShardsMergeToTheRun(t *testing.T) {
	bin := buildParthack(t)
	dir := t.TempDir()
	run := []string{"bench", "--tasks", "PH-H04,PH-D04,PH-H05", "--edits", "1", "--format", "markdown"}
	exe := func(args ...string) (string, error) {
		var out, errb bytes.Buffer
		cmd := exec.Command(bin, args...)
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			return "", fmt.Errorf("parthack %s: %v\n%s", strings.Join(args, " "), err, errb.String())
		}
		return out.String(), nil
	}
	whole := filepath.Join(dir, "whole.json")
	wholeReport, err := exe(append(run, "--ledger-out", whole)...)
	if err != nil {
		t.Fatal(err)
	}
	wholeCSV := filepath.Join(dir, "whole.csv")
	if _, err := exe(append(run, "--ledger-out", wholeCSV)...); err != nil {
		t.Fatal(err)
	}
	const n = 4
	shards := make([]string, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		shards[i] = filepath.Join(dir, fmt.Sprintf("shard-%d.json", i))
		wg.Go(func() {
			var out string
			out, errs[i] = exe(append(run, "--shard", fmt.Sprintf("%d/%d", i, n), "--ledger-out", shards[i])...)
			if errs[i] == nil && out != "" {
				errs[i] = fmt.Errorf("shard %d printed a report:\n%s", i, out)
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, out := range []string{"merged.json", "merged.csv"} {
		merged := filepath.Join(dir, out)
		args := []string{"report", "--format", "markdown", "--ledger-out", merged, "--ledger", shards[2], shards[0], shards[3], shards[1]}
		rep, err := exe(args...)
		if err != nil {
			t.Fatal(err)
		}
		if rep != wholeReport {
			t.Errorf("report of the merged shards differs from bench's:\n%s\nwant\n%s", rep, wholeReport)
		}
		want := whole
		if strings.HasSuffix(out, ".csv") {
			want = wholeCSV
		}
		got, err1 := os.ReadFile(merged)
		exp, err2 := os.ReadFile(want)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if !bytes.Equal(got, exp) {
			t.Errorf("%s differs from the unsharded ledger:\n%s\nwant\n%s", out, got, exp)
		}
	}
	// A shard short: the merge names it.
	if _, err := exe("report", "--ledger", shards[0], shards[1], shards[3]); err == nil || !strings.Contains(err.Error(), "gap: shard 2/4 missing") {
		t.Errorf("merge without shard 2: %v", err)
	}
}

func TestShardUsage(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "s.json")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--shard", "1/4"}, "--shard needs --ledger-out FILE.json"},
		{[]string{"--shard", "1/4", "--ledger-out", filepath.Join(dir, "s.csv")}, "--shard needs --ledger-out FILE.json"},
		{[]string{"--shard", "4/4", "--ledger-out", out}, "0 ≤ i < n"},
		{[]string{"--shard", "1of4", "--ledger-out", out}, `"1of4" is not i/n`},
		{[]string{"--shard", "0/2", "--ledger-out", out, "--budgets", "1,2"}, "--shard does not go with --budgets"},
		{[]string{"--shard", "0/13", "--ledger-out", out, "--tasks", "PH-D04,PH-H04"}, "the run has 12 (task, target) pairs; give at most 12 shards"},
	} {
		code, _, errOut := run(t, append([]string{"bench", "--edits", "1"}, c.args...)...)
		if code != ExitUsage || !strings.Contains(errOut, c.want) {
			t.Errorf("bench %s: exit %d, %s\nwant exit 2 and %q", strings.Join(c.args, " "), code, errOut, c.want)
		}
	}
	if code, _, errOut := run(t, "report", "--ledger", reportData("ledger.json"), reportData("ledger.csv")); code != ExitUsage || !strings.Contains(errOut, "is not a shard's ledger") {
		t.Errorf("report of two whole ledgers: exit %d, %s", code, errOut)
	}
}
