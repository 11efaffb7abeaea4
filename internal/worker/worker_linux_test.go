package worker

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestMain lets the test binary serve as the launcher, as parthack's
// main does.
func TestMain(m *testing.M) {
	LaunchIfRequested()
	code := m.Run()
	if scorerDir != "" {
		os.RemoveAll(scorerDir)
	}
	os.Exit(code)
}

var (
	scorerOnce sync.Once
	scorerDir  string
	scorerPath string
	scorerErr  error
)

// scorer builds testdata/scorer, statically, once per test binary.
func scorer(t *testing.T) string {
	t.Helper()
	scorerOnce.Do(func() {
		if scorerDir, scorerErr = os.MkdirTemp("", "worker-test-"); scorerErr != nil {
			return
		}
		scorerPath = filepath.Join(scorerDir, "scorer")
		cmd := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "build", "-o", scorerPath, "./testdata/scorer")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			scorerErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if scorerErr != nil {
		t.Fatal(scorerErr)
	}
	return scorerPath
}

// sandboxABI is the Landlock ABI the tests that run a program ask for:
// the default (the newest go-landlock offers) where the kernel has it,
// else, explicitly, the kernel's own. Without Landlock, or with one too
// old for the worker, those tests skip and say why; the refusal itself
// is tested by TestRefusesOlderKernelABI and TestFailClosedWithoutLandlock.
func sandboxABI(t *testing.T) int {
	t.Helper()
	kernel, err := landlockABI()
	switch {
	case err != nil:
		t.Skipf("this kernel has no Landlock (%v): the worker refuses to run here", err)
	case kernel < MinLandlockABI:
		t.Skipf("this kernel's Landlock ABI %d is older than the worker's minimum %d: the worker refuses to run here", kernel, MinLandlockABI)
	}
	return 0
}

func config(t *testing.T, args ...string) Config {
	return Config{Program: scorer(t), Args: args, LandlockABI: sandboxABI(t)}
}

func TestScorePayloadAndCleanRoom(t *testing.T) {
	// A descriptor this process holds without close-on-exec, as one
	// inherited from a shell would be, must not reach the program.
	fd, err := syscall.Dup(2)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(fd)
	payload := []byte(`{"task":"X","events":[]}`)
	res, err := Score(context.Background(), config(t, "stdin", "a b", "c"), payload)
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("sha256=%x env=0 cwd=0 fds=0 args=a b,c", sha256.Sum256(payload))
	if res.Score != 0.25 || res.Rationale != want {
		t.Errorf("got %+v, want score 0.25 and rationale %q", res, want)
	}
	// The environment is exactly what the config passes.
	cfg := config(t, "stdin")
	cfg.Env = []string{"A=1", "B=2"}
	if res, err := Score(context.Background(), cfg, nil); err != nil || !strings.Contains(res.Rationale, " env=2 ") {
		t.Errorf("with two variables: %+v, %v", res, err)
	}
}

func TestWorkDirRemoved(t *testing.T) {
	ok, junk := config(t, "print", `{"score":1}`), config(t, "print", "junk")
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	for _, cfg := range []Config{ok, junk} {
		Score(context.Background(), cfg, nil)
		if left, _ := os.ReadDir(tmp); len(left) > 0 {
			t.Errorf("%v: left behind in TMPDIR: %v", cfg.Args, left)
		}
	}
}

func TestStrictAnswerEndToEnd(t *testing.T) {
	for _, c := range []struct {
		out, stderr, code string
		want              string
	}{
		{`{"score": 1.5}`, "", "0", "score 1.5 is not in [0, 1]"},
		{"the answer is yes", "model said: yes", "0", "not a JSON object"},
		{`{"score":0.5}`, "boom at line 3", "3", "exit status 3"},
		{"", "nothing to say", "0", "no answer on stdout"},
	} {
		_, err := Score(context.Background(), config(t, "print", c.out, c.stderr, c.code), nil)
		var se *ScorerError
		if !errors.As(err, &se) || !strings.Contains(se.Reason, c.want) {
			t.Errorf("output %q: %v; want a scorer error with %q", c.out, err, c.want)
			continue
		}
		if se.Stderr != c.stderr || (c.stderr != "" && !strings.Contains(err.Error(), c.stderr)) {
			t.Errorf("output %q: stderr tail %q, error %q; want %q in both", c.out, se.Stderr, err, c.stderr)
		}
	}
	_, err := Score(context.Background(), config(t, "flood"), nil)
	if err == nil || !strings.Contains(err.Error(), "more than 65536 bytes") {
		t.Errorf("flood: %v", err)
	}
}

// TestTimeoutKillsProcessGroup: a program that never answers is killed
// with its whole process group when the timeout strikes, and Score
// returns soon after, saying so, with the stderr tail.
func TestTimeoutKillsProcessGroup(t *testing.T) {
	cfg := config(t, "sleep")
	cfg.Timeout = 3 * time.Second
	done := make(chan error, 1)
	start := time.Now()
	go func() {
		_, err := Score(context.Background(), cfg, nil)
		done <- err
	}()
	// Find the program by its executable while it runs: its process
	// group must be its own.
	var pid, pgid int
	for pid == 0 && time.Since(start) < cfg.Timeout {
		pid, pgid = findProcess(t, cfg.Program)
		time.Sleep(10 * time.Millisecond)
	}
	if pid == 0 {
		t.Fatal("the program never showed up in /proc")
	}
	if pgid != pid || pgid == syscall.Getpgrp() {
		t.Errorf("pid %d runs in process group %d; want a group of its own", pid, pgid)
	}
	err := <-done
	elapsed := time.Since(start)
	var se *ScorerError
	if !errors.As(err, &se) || !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(se.Reason, "timed out after 3s") || se.Stderr != "sleeping" {
		t.Errorf("got %v; want a timeout with the stderr tail", err)
	}
	if elapsed > cfg.Timeout+5*time.Second {
		t.Errorf("Score returned after %v", elapsed)
	}
	if err := syscall.Kill(-pgid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("process group %d still has members: kill(-pgid, 0) = %v", pgid, err)
	}
}

func TestCancelKills(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	_, err := Score(ctx, config(t, "sleep"), nil)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("got %v; want the cancellation", err)
	}
}

// findProcess returns the pid and process group of a process running
// exe, or zeros.
func findProcess(t *testing.T, exe string) (pid, pgid int) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		n, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if target, _ := os.Readlink(filepath.Join("/proc", e.Name(), "exe")); target != exe {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp …; comm may hold spaces.
		fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
		g, _ := strconv.Atoi(fields[2])
		return n, g
	}
	return 0, 0
}

// TestFailClosedWithoutLandlock: on a kernel without Landlock (simulated)
// the worker refuses, names the layer, and starts nothing.
func TestFailClosedWithoutLandlock(t *testing.T) {
	saved := landlockABI
	t.Cleanup(func() { landlockABI = saved })
	landlockABI = func() (int, error) { return 0, syscall.EOPNOTSUPP }
	marker := filepath.Join(t.TempDir(), "ran")
	// /bin/sh would create the marker if it ran.
	_, err := Score(context.Background(), Config{Program: "/bin/sh", Args: []string{"-c", "touch " + marker}}, nil)
	var le *LayerError
	if !errors.As(err, &le) || le.Layer != "landlock" || !strings.Contains(err.Error(), "refuses") {
		t.Errorf("got %v; want a landlock refusal", err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the program ran")
	}
}

// TestLandlockABIChoice: by default the worker enforces the kernel's
// newest ABI; an explicit ABI the kernel lacks is refused, never
// downgraded, and one older than the minimum is not accepted at all.
func TestLandlockABIChoice(t *testing.T) {
	kernel, err := landlockABI()
	if err != nil || kernel < MinLandlockABI {
		t.Skipf("no usable Landlock here (ABI %d, %v): TestFailClosedWithoutLandlock covers this kernel", kernel, err)
	}
	if _, err := Score(context.Background(), Config{Program: scorer(t), Args: []string{"print", `{"score":1}`}}, nil); err != nil {
		t.Errorf("default ABI on kernel ABI %d: %v", kernel, err)
	}
	if kernel < NewestLandlockABI {
		_, err = Score(context.Background(), Config{Program: scorer(t), Args: []string{"print", `{"score":1}`}, LandlockABI: NewestLandlockABI}, nil)
		var le *LayerError
		if !errors.As(err, &le) || le.Layer != "landlock" || !strings.Contains(err.Error(), fmt.Sprintf("offers Landlock ABI %d; the worker requires ABI %d", kernel, NewestLandlockABI)) {
			t.Errorf("ABI %d on kernel ABI %d: got %v; want a landlock refusal", NewestLandlockABI, kernel, err)
		}
	}
	_, err = Score(context.Background(), Config{Program: scorer(t), LandlockABI: MinLandlockABI - 1}, nil)
	if err == nil || !strings.Contains(err.Error(), "enforces ABI 6") {
		t.Errorf("ABI 5: %v", err)
	}
}

// TestLauncherRefusesMidway drives the launcher past the parent's checks:
// a read-only path that is gone by the time Landlock is applied makes the
// launcher itself refuse, report the layer, and not exec the program.
func TestLauncherRefusesMidway(t *testing.T) {
	cfg := config(t, "print", `{"score":1}`)
	launcher, sp, timeout, err := prepare(cfg)
	if err != nil {
		t.Fatal(err)
	}
	sp.WorkDir = t.TempDir()
	sp.ReadOnly = []string{filepath.Join(t.TempDir(), "gone")}
	_, err = run(context.Background(), launcher, sp, timeout, nil)
	var le *LayerError
	if !errors.As(err, &le) || le.Layer != "landlock" || !strings.Contains(err.Error(), "gone") {
		t.Errorf("got %v; want a landlock refusal from the launcher", err)
	}
}

// TestNetnsRefusal: when the kernel refuses every way to a fresh network
// namespace, the worker refuses too; and the unprivileged way (a user
// namespace that owns it) works on its own.
func TestNetnsRefusal(t *testing.T) {
	saved := netnsModes
	t.Cleanup(func() { netnsModes = saved })
	cfg := config(t, "stdin")
	// CLONE_THREAD without CLONE_VM is EINVAL: a kernel that says no.
	netnsModes = []netnsMode{{"invalid", func() *syscall.SysProcAttr {
		return &syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWNET | syscall.CLONE_THREAD}
	}}}
	_, err := Score(context.Background(), cfg, nil)
	var le *LayerError
	if !errors.As(err, &le) || le.Layer != "netns" {
		t.Errorf("got %v; want a netns refusal", err)
	}
	netnsModes = saved[1:]
	if _, err := Score(context.Background(), cfg, nil); err != nil {
		t.Errorf("user namespace mode: %v", err)
	}
}

// TestRefusesToExposeTheLauncher: the launcher binary embeds the sealed
// suite, so neither the scorer nor a read-only path may be or hold it.
func TestRefusesToExposeTheLauncher(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for name, cfg := range map[string]Config{
		"scorer is the launcher": {Program: self},
		"read-only root":         {Program: scorer(t), ReadOnly: []string{"/"}},
		"read-only parent":       {Program: scorer(t), ReadOnly: []string{filepath.Dir(self)}},
		"read-only itself":       {Program: scorer(t), ReadOnly: []string{self}},
	} {
		cfg.LandlockABI = sandboxABI(t)
		_, err := Score(context.Background(), cfg, nil)
		var le *LayerError
		if !errors.As(err, &le) || le.Layer != "landlock" || !strings.Contains(err.Error(), "embeds the sealed suite") {
			t.Errorf("%s: got %v; want a refusal", name, err)
		}
	}
}

func TestConfigErrors(t *testing.T) {
	abi := sandboxABI(t)
	for name, c := range map[string]struct {
		cfg  Config
		want string
	}{
		"no program":      {Config{}, "empty path"},
		"missing program": {Config{Program: "/nonexistent/scorer"}, "no such file"},
		"directory":       {Config{Program: t.TempDir()}, "not an executable file"},
		"bad env":         {Config{Program: scorer(t), Env: []string{"NOVALUE"}}, "not KEY=VALUE"},
		"negative":        {Config{Program: scorer(t), Timeout: -time.Second}, "negative timeout"},
	} {
		c.cfg.LandlockABI = abi
		if _, err := Score(context.Background(), c.cfg, nil); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v; want %q", name, err, c.want)
		}
	}
}
