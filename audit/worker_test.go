package audit

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"

	"github.com/parthack/parthack/audit/isolation"
	"github.com/parthack/parthack/internal/worker"
)

func goBin() string { return filepath.Join(runtime.GOROOT(), "bin", "go") }

// sandboxABI is the Landlock ABI the tests ask the worker for: its
// default where the kernel has it, else, explicitly, the kernel's own.
// ok is false, with the reason, where the worker cannot run at all.
func sandboxABI() (abi int, ok bool, why string) {
	kernel, err := ll.LandlockGetABIVersion()
	switch {
	case err != nil:
		return 0, false, fmt.Sprintf("this kernel has no Landlock (%v)", err)
	case kernel < worker.MinLandlockABI:
		return 0, false, fmt.Sprintf("this kernel's Landlock ABI %d is older than the worker's minimum %d", kernel, worker.MinLandlockABI)
	}
	return 0, true, ""
}

// mptcpAvailable reports whether this kernel has MPTCP on: without it
// the MPTCP probe cannot succeed outside the sandbox and proves nothing.
func mptcpAvailable() bool {
	b, err := os.ReadFile("/proc/sys/net/mptcp/enabled")
	return err == nil && strings.TrimSpace(string(b)) == "1"
}

// TestWorkerProbes runs the capability probes inside the worker, whose
// launcher is this test binary: it embeds the sealed suite, as parthack
// does. The control must pass and every probe must be denied; the probes
// SPEC §4 names must each have succeeded outside the sandbox (or the
// audit would be vacuous), except MPTCP on a kernel without it.
func TestWorkerProbes(t *testing.T) {
	abi, ok, why := sandboxABI()
	payload := []byte(`{"probe":"payload"}`)
	checks := isolation.Probes(context.Background(), isolation.ProbeConfig{GoBin: goBin(), LandlockABI: abi, Payload: payload})
	if !ok {
		// The worker must refuse, and the audit say so: nothing else.
		if len(checks) != 1 || checks[0].Status != isolation.Skip || !strings.Contains(checks[0].Detail, "refuses") {
			t.Fatalf("%s, yet the probes gave %+v", why, checks)
		}
		t.Skipf("%s: the worker refuses to run here (%s)", why, checks[0].Detail)
	}
	mustPass := []string{
		"control:", "read a sealed file", "read the parthack binary", "../ traversal", "follow a symlink",
		"exec a shell", "spawn a shell", "spawn a child", "TCP to", "open a UDP socket", "connect to a UNIX socket",
		"open an AF_NETLINK", "signal the parent", "read the launcher via /proc", "same, with /proc", "share the host's network",
	}
	if mptcpAvailable() {
		mustPass = append(mustPass, "open an MPTCP socket")
	}
	if os.Geteuid() == 0 {
		mustPass = append(mustPass, "hold a capability", "open an AF_PACKET")
	}
	passed := map[string]bool{}
	for _, c := range checks {
		t.Logf("%s  %s: %s", c.Status, c.Name, c.Detail)
		if c.Status == isolation.Fail {
			t.Errorf("%s: %s", c.Name, c.Detail)
		}
		for _, p := range mustPass {
			if strings.HasPrefix(c.Name, p) && c.Status == isolation.Pass {
				passed[p] = true
			}
		}
	}
	for _, p := range mustPass {
		if !passed[p] {
			t.Errorf("no passing probe %q", p)
		}
	}
	if len(checks) != 24 {
		t.Errorf("%d checks, want the control and 23 probes", len(checks))
	}
}

// TestScorerSeesThePayloadBytes: through the CLI, the scorer in the
// worker receives byte for byte what `parthack payload` prints, and those
// bytes hold no canary of the task.
func TestScorerSeesThePayloadBytes(t *testing.T) {
	abi, ok, why := sandboxABI()
	if !ok {
		t.Skipf("%s: the worker refuses to run here", why)
	}
	probe, err := isolation.BuildProbe(context.Background(), goBin(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	task := "PH-D01"
	code, pay, _ := parthack(t, "payload", "--task", task, "--trajectory", "witness")
	if code != 0 {
		t.Fatalf("payload: exit %d", code)
	}
	if n := leaks([]byte(pay), needles(t, task)); n != nil {
		t.Fatalf("the payload holds canary %s", n)
	}
	args := []string{"score", "--task", task, "--trajectory", "witness", "--scorer", probe, "--scorer-landlock-abi", strconv.Itoa(abi)}
	if abi == 0 {
		args = args[:len(args)-2]
	}
	want := fmt.Sprintf("sha256=%x env=0 cwd=0 fds=0", sha256.Sum256([]byte(pay)))
	code, out, errOut := parthack(t, append(args, "--json")...)
	var got struct {
		Judges []struct {
			Name, Label, State, Detail string
			Value                      *float64
		} `json:"judges"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q, %v:\n%s", code, errOut, err, out)
	}
	if len(got.Judges) != 1 || got.Judges[0].Name != "scorer" || got.Judges[0].Value == nil || *got.Judges[0].Value != 0.5 || got.Judges[0].Detail != want {
		t.Errorf("scorer row %+v; want 0.5 and %q", got.Judges, want)
	}
	code, out, _ = parthack(t, args...)
	if code != 0 || !regexp.MustCompile(`\nscorer probe +0\.500\n`).MatchString(out) || !strings.Contains(out, "scorer probe: rationale: "+want) {
		t.Errorf("table: exit %d:\n%s", code, out)
	}
	// A scorer that fails is an error row and exit 2, quoting its stderr.
	code, out, errOut = parthack(t, append(args, "--scorer-arg", "no-such-mode")...)
	if code != 2 || !regexp.MustCompile(`\nscorer probe +error\n`).MatchString(out) || !strings.Contains(out, `unknown mode "no-such-mode"`) || !strings.Contains(errOut, "scorer probe gave no score") {
		t.Errorf("failing scorer: exit %d, stderr %q:\n%s", code, errOut, out)
	}
}

func TestScorerFlags(t *testing.T) {
	args := []string{"score", "--task", "PH-D01", "--trajectory", "witness"}
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--scorer-ro", "/usr"}, "--scorer-ro needs --scorer"},
		{[]string{"--scorer", "/bin/true", "--steps"}, "does not go with --steps"},
		{[]string{"--scorer", "/bin/true", "--scorer-landlock-abi", "5"}, "--scorer-landlock-abi 5 is out of range: allowed 6 to 11"},
		{[]string{"--scorer", "/bin/true", "--scorer-env", "NOEQUALS"}, "want KEY=VALUE"},
		{[]string{"--scorer", "/bin/true", "--scorer-timeout", "0s"}, "--scorer-timeout 0s is out of range: allowed 1ms to 24h"},
	} {
		code, _, errOut := parthack(t, append(args, c.args...)...)
		if code != 2 || !strings.Contains(errOut, c.msg) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", c.args, code, errOut, c.msg)
		}
	}
}

// TestAuditCommand runs `parthack audit`: the payload audits always, the
// probes with --probes, and what it says where it cannot run them.
func TestAuditCommand(t *testing.T) {
	code, out, errOut := parthack(t, "audit")
	if code != 0 || errOut != "" || !strings.Contains(out, "PASS  no canary in any public payload or projection") ||
		!strings.Contains(out, "PASS  same payload bytes on repeated builds") || !strings.HasSuffix(out, "audit: 2 passed, 0 failed, 0 skipped\n") {
		t.Errorf("audit: exit %d, stderr %q:\n%s", code, errOut, out)
	}
	if code, _, errOut := parthack(t, "audit", "--landlock-abi", "7"); code != 2 || !strings.Contains(errOut, "--landlock-abi needs --probes") {
		t.Errorf("--landlock-abi alone: exit %d, %q", code, errOut)
	}

	abi, ok, _ := sandboxABI()
	args := []string{"audit", "--probes", "--json"}
	if abi != 0 {
		args = append(args, "--landlock-abi", strconv.Itoa(abi))
	}
	code, out, errOut = parthack(t, args...)
	var got struct {
		Checks                  []isolation.Check `json:"checks"`
		Passed, Failed, Skipped int
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || code != 0 || errOut != "" {
		t.Fatalf("%v: exit %d, stderr %q, %v:\n%s", args, code, errOut, err, out)
	}
	if got.Failed != 0 || got.Passed+got.Skipped != len(got.Checks) || len(got.Checks) != 2+24 && ok {
		t.Errorf("%v: %d checks, %d passed, %d failed, %d skipped", args, len(got.Checks), got.Passed, got.Failed, got.Skipped)
	}

	// Asked for an ABI the kernel lacks, the worker refuses: the probes
	// are skipped, saying why, and nothing failed.
	if kernel, err := ll.LandlockGetABIVersion(); err == nil && kernel < worker.NewestLandlockABI {
		code, out, _ = parthack(t, "audit", "--probes", "--landlock-abi", fmt.Sprint(worker.NewestLandlockABI))
		if code != 0 || !strings.Contains(out, "SKIP  probes") || !strings.Contains(out, fmt.Sprintf("requires ABI %d", worker.NewestLandlockABI)) {
			t.Errorf("ABI %d on kernel ABI %d: exit %d:\n%s", worker.NewestLandlockABI, kernel, code, out)
		}
	}

	// Without go on PATH the probes cannot be built: skipped, saying so.
	t.Setenv("PATH", t.TempDir())
	code, out, _ = parthack(t, "audit", "--probes")
	if code != 0 || !strings.Contains(out, "SKIP  worker capability probes\n      go is not on PATH") {
		t.Errorf("no go on PATH: exit %d:\n%s", code, out)
	}
}
