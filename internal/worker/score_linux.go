package worker

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// landlockABI reports the kernel's Landlock ABI. Tests replace it to
// simulate a kernel without Landlock.
var landlockABI = ll.LandlockGetABIVersion

// netnsMode is one way to give the launcher a fresh network namespace.
type netnsMode struct {
	name string
	attr func() *syscall.SysProcAttr
}

// netnsModes are tried in order until the kernel accepts one: a plain
// new network namespace (needs CAP_SYS_ADMIN, as root), else a new user
// namespace owning it, with the caller mapped to root inside so that the
// launcher holds the capabilities it then drops.
var netnsModes = []netnsMode{
	{"netns", func() *syscall.SysProcAttr {
		return &syscall.SysProcAttr{Setpgid: true, Cloneflags: syscall.CLONE_NEWNET}
	}},
	{"userns+netns", func() *syscall.SysProcAttr {
		return &syscall.SysProcAttr{
			Setpgid:                    true,
			Cloneflags:                 syscall.CLONE_NEWUSER | syscall.CLONE_NEWNET,
			UidMappings:                []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getuid(), Size: 1}},
			GidMappings:                []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getgid(), Size: 1}},
			GidMappingsEnableSetgroups: false,
		}
	}},
}

// Score runs cfg's program in the sandbox with payload on its stdin and
// returns its answer. A *LayerError means the sandbox could not be set up
// and nothing ran; a *ScorerError means the program ran and gave no valid
// answer.
func Score(ctx context.Context, cfg Config, payload []byte) (Result, error) {
	launcher, sp, timeout, err := prepare(cfg)
	if err != nil {
		return Result{}, err
	}
	dir, err := os.MkdirTemp("", "parthack-worker-")
	if err != nil {
		return Result{}, &LayerError{Layer: "workdir", Err: err}
	}
	sp.WorkDir = dir
	res, err := run(ctx, launcher, sp, timeout, payload)
	if rmErr := removeAll(dir); rmErr != nil && err == nil {
		err = fmt.Errorf("worker: remove the working directory: %w", rmErr)
	}
	return res, err
}

// prepare checks cfg and the platform before anything starts: the
// parent's half of failing closed (the launcher checks again as it
// applies each layer).
func prepare(cfg Config) (launcher string, sp spec, timeout time.Duration, err error) {
	if _, err := seccompProgram(); err != nil {
		return "", spec{}, 0, &LayerError{Layer: "seccomp", Err: err}
	}
	abi := cfg.LandlockABI
	if abi != 0 && (abi < MinLandlockABI || abi > NewestLandlockABI) {
		return "", spec{}, 0, fmt.Errorf("worker: Landlock ABI %d: the worker enforces ABI %d (IPC scoping) to %d", abi, MinLandlockABI, NewestLandlockABI)
	}
	kernel, err := landlockABI()
	if err != nil {
		return "", spec{}, 0, &LayerError{Layer: "landlock", Err: fmt.Errorf("unavailable: %w", err)}
	}
	if abi == 0 {
		// Every ABI from MinLandlockABI on restricts files, TCP and IPC
		// scope, and seccomp bans the sockets later ABIs also cover; so
		// the kernel's newest is enforced, strictly, and an older kernel
		// is refused below.
		abi = min(kernel, NewestLandlockABI)
	}
	if kernel < abi || abi < MinLandlockABI {
		return "", spec{}, 0, &LayerError{Layer: "landlock", Err: fmt.Errorf("the kernel offers Landlock ABI %d; the worker requires ABI %d (at least %d)", kernel, abi, MinLandlockABI)}
	}
	if timeout = cfg.Timeout; timeout == 0 {
		timeout = DefaultTimeout
	} else if timeout < 0 {
		return "", spec{}, 0, fmt.Errorf("worker: negative timeout %v", timeout)
	}
	if launcher = cfg.Launcher; launcher == "" {
		if launcher, err = os.Executable(); err != nil {
			return "", spec{}, 0, &LayerError{Layer: "launcher", Err: err}
		}
	}
	if launcher, err = resolve(launcher); err != nil {
		return "", spec{}, 0, &LayerError{Layer: "launcher", Err: err}
	}
	program, err := resolve(cfg.Program)
	if err != nil {
		return "", spec{}, 0, fmt.Errorf("worker: scorer program: %w", err)
	}
	if fi, err := os.Stat(program); err != nil || !fi.Mode().IsRegular() || fi.Mode()&0o111 == 0 {
		return "", spec{}, 0, fmt.Errorf("worker: scorer program %s is not an executable file", program)
	}
	if same(program, launcher) {
		return "", spec{}, 0, &LayerError{Layer: "landlock", Err: fmt.Errorf("the scorer %s is the launcher binary, which embeds the sealed suite", program)}
	}
	sp = spec{Program: program, Args: append([]string{program}, cfg.Args...), Env: slices.Clone(cfg.Env), ABI: abi}
	for _, kv := range cfg.Env {
		if k, _, ok := strings.Cut(kv, "="); !ok || k == "" || strings.ContainsRune(kv, 0) {
			return "", spec{}, 0, fmt.Errorf("worker: environment entry %q is not KEY=VALUE", kv)
		}
	}
	for _, p := range cfg.ReadOnly {
		r, err := resolve(p)
		if err != nil {
			return "", spec{}, 0, fmt.Errorf("worker: read-only path: %w", err)
		}
		if r == launcher || strings.HasPrefix(launcher, strings.TrimSuffix(r, "/")+"/") {
			return "", spec{}, 0, &LayerError{Layer: "landlock", Err: fmt.Errorf("read-only path %s holds the launcher %s, which embeds the sealed suite", p, launcher)}
		}
		sp.ReadOnly = append(sp.ReadOnly, r)
	}
	return launcher, sp, timeout, nil
}

// resolve makes p absolute and resolves its symlinks: Landlock rules and
// the containment check hold for the real file.
func resolve(p string) (string, error) {
	if p == "" {
		return "", errors.New("empty path")
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

func same(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}

// run starts the launcher in the first network-namespace mode the kernel
// accepts and waits for the program's answer.
func run(ctx context.Context, launcher string, sp spec, timeout time.Duration, payload []byte) (Result, error) {
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	js, err := json.Marshal(sp)
	if err != nil {
		return Result{}, err
	}
	var refused []error
	for _, mode := range netnsModes {
		res, started, err := attempt(ctx, launcher, js, sp.WorkDir, mode, timeout, payload)
		if started {
			return res, err
		}
		if ctx.Err() != nil {
			return Result{}, ctx.Err()
		}
		if !errors.Is(err, syscall.EPERM) && !errors.Is(err, syscall.EINVAL) && !errors.Is(err, syscall.ENOSPC) && !errors.Is(err, syscall.EUSERS) {
			return Result{}, &LayerError{Layer: "launcher", Err: err}
		}
		refused = append(refused, fmt.Errorf("%s: %w", mode.name, err))
	}
	return Result{}, &LayerError{Layer: "netns", Err: fmt.Errorf("no fresh network namespace: %w", errors.Join(refused...))}
}

// attempt runs the launcher once. started is false when the process could
// not be created (the namespace was refused); then err says why.
func attempt(ctx context.Context, launcher string, js []byte, dir string, mode netnsMode, timeout time.Duration, payload []byte) (res Result, started bool, err error) {
	statusR, statusW, err := os.Pipe()
	if err != nil {
		return Result{}, true, &LayerError{Layer: "launcher", Err: err}
	}
	defer statusR.Close()
	runCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	stdout := &headBuffer{max: MaxStdout}
	stderr := &tailBuffer{max: StderrTail}
	cmd := exec.CommandContext(runCtx, launcher, launchArg)
	cmd.Env = []string{specEnv + "=" + string(js)}
	cmd.Dir = dir
	cmd.Stdin = bytes.NewReader(payload)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.ExtraFiles = []*os.File{statusW} // fd 3 in the launcher
	cmd.SysProcAttr = mode.attr()
	// The whole process group goes, whatever the program left behind.
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = time.Second
	err = cmd.Start()
	statusW.Close()
	if err != nil {
		return Result{}, false, err
	}
	status := make(chan []byte, 1)
	go func() {
		// EOF comes when the launcher execs (the pipe is close-on-exec
		// there) or exits; a message means it refused.
		b, _ := io.ReadAll(io.LimitReader(statusR, 4<<10))
		status <- b
	}()
	waitErr := cmd.Wait()
	msg := <-status
	tail := stderr.String()
	switch {
	case len(msg) > 0:
		layer, why, _ := strings.Cut(string(msg), ": ")
		if layer == stageExec {
			return Result{}, true, &ScorerError{Reason: "cannot be executed in the sandbox: " + why + " (a script's interpreter and a dynamic program's libraries must be read-only paths)", Stderr: tail}
		}
		return Result{}, true, &LayerError{Layer: layer, Err: errors.New(why)}
	case ctx.Err() != nil:
		return Result{}, true, &ScorerError{Reason: "canceled; its process group was killed", Stderr: tail, Err: ctx.Err()}
	case runCtx.Err() != nil:
		return Result{}, true, &ScorerError{Reason: fmt.Sprintf("timed out after %v; its process group was killed", timeout), Stderr: tail, Err: runCtx.Err()}
	case waitErr != nil:
		return Result{}, true, &ScorerError{Reason: waitErr.Error(), Stderr: tail, Err: waitErr}
	case stdout.over:
		return Result{}, true, &ScorerError{Reason: fmt.Sprintf("wrote more than %d bytes to stdout", MaxStdout), Stderr: tail}
	}
	res, err = parseAnswer(stdout.buf)
	if err != nil {
		return Result{}, true, &ScorerError{Reason: err.Error(), Stderr: tail}
	}
	return res, true, nil
}

// removeAll removes the working directory even where the program took
// away its own permissions.
func removeAll(dir string) error {
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			os.Chmod(p, 0o700)
		}
		return nil
	})
	return os.RemoveAll(dir)
}
