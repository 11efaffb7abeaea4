package worker

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"runtime"
	"syscall"
	"unsafe"

	"github.com/landlock-lsm/go-landlock/landlock"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// The launcher is started as `<launcher> launchArg` with the spec, as
// JSON, in its otherwise empty environment and the status pipe as fd 3.
const (
	launchArg = "__parthack_worker_launch"
	specEnv   = "PARTHACK_WORKER_SPEC"
	statusFD  = 3
	// exitRefused is the launcher's exit status after a refusal.
	exitRefused = 125
)

// stageExec names the last step in a status message: the sandbox is up,
// and executing the program failed.
const stageExec = "exec"

// spec is what the parent tells the launcher: every path absolute and
// resolved.
type spec struct {
	Program  string   `json:"program"`
	Args     []string `json:"args"` // argv, the program's path first
	Env      []string `json:"env"`
	ReadOnly []string `json:"read_only"`
	WorkDir  string   `json:"work_dir"`
	ABI      int      `json:"landlock_abi"`
}

// landlockPresets are go-landlock's configurations by ABI, each
// restricting everything that ABI can.
var landlockPresets = map[int]landlock.Config{
	6: landlock.V6, 7: landlock.V7, 8: landlock.V8, 9: landlock.V9, 10: landlock.V10, 11: landlock.V11,
}

// workDirAccess is what the program may do in its working directory:
// read, write, create, remove, rename and symlink; not execute what it
// wrote, make device nodes or sockets, or ioctl devices.
const workDirAccess = landlock.AccessFSSet(ll.AccessFSReadFile | ll.AccessFSReadDir | ll.AccessFSWriteFile | ll.AccessFSTruncate |
	ll.AccessFSMakeReg | ll.AccessFSMakeDir | ll.AccessFSMakeSym | ll.AccessFSMakeFifo |
	ll.AccessFSRemoveFile | ll.AccessFSRemoveDir | ll.AccessFSRefer)

// LaunchIfRequested makes this process the worker's launcher when Score
// started it as one, and otherwise returns at once. A program that runs
// scorers calls it first thing in main (parthack does, from an init of
// package main; tests from TestMain): as the launcher it never returns.
// It applies the sandbox on one locked thread — no_new_privs,
// capabilities, Landlock, seccomp — and execs the program from that
// thread; if any step fails it reports the layer and why on the status
// pipe and exits, and the program does not run.
func LaunchIfRequested() {
	if len(os.Args) != 2 || os.Args[1] != launchArg {
		return
	}
	runtime.LockOSThread()
	err := launch()
	var st *stageError
	if !errors.As(err, &st) {
		st = &stageError{stage: "launcher", err: err}
	}
	msg := []byte(st.stage + ": " + st.err.Error())
	if _, werr := unix.Write(statusFD, msg); werr != nil {
		fmt.Fprintf(os.Stderr, "parthack worker launcher: %s\n", msg)
	}
	os.Exit(exitRefused)
}

// stageError is a launcher step that failed.
type stageError struct {
	stage string
	err   error
}

func (e *stageError) Error() string { return e.stage + ": " + e.err.Error() }

// launch applies the layers and execs the program; it returns only on
// failure.
func launch() error {
	var st unix.Stat_t
	if err := unix.Fstat(statusFD, &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFIFO {
		return &stageError{"launcher", errors.New("fd 3 is not the status pipe: the launcher is started by worker.Score only")}
	}
	// The status pipe must close when the program replaces us: its EOF
	// is the parent's sign that every layer is in place.
	unix.CloseOnExec(statusFD)
	dec := json.NewDecoder(bytes.NewReader([]byte(os.Getenv(specEnv))))
	dec.DisallowUnknownFields()
	var sp spec
	if err := dec.Decode(&sp); err != nil {
		return &stageError{"launcher", fmt.Errorf("spec: %w", err)}
	}
	config, ok := landlockPresets[sp.ABI]
	if !ok {
		return &stageError{"landlock", fmt.Errorf("no configuration for ABI %d", sp.ABI)}
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return &stageError{"no_new_privs", err}
	}
	if err := dropCapabilities(); err != nil {
		return &stageError{"capabilities", err}
	}
	rules := []landlock.Rule{
		landlock.ROFiles(sp.Program),
		landlock.PathAccess(workDirAccess, sp.WorkDir),
	}
	for _, p := range sp.ReadOnly {
		fi, err := os.Stat(p)
		if err != nil {
			return &stageError{"landlock", err}
		}
		if fi.IsDir() {
			rules = append(rules, landlock.RODirs(p))
		} else {
			rules = append(rules, landlock.ROFiles(p))
		}
	}
	// Restrict, not RestrictPaths: with no network rule every TCP (and
	// from ABI 10 UDP) bind and connect is denied, and the preset's
	// scopes confine signals and abstract UNIX sockets. No BestEffort:
	// a kernel without the ABI is an error.
	if err := config.Restrict(rules...); err != nil {
		return &stageError{"landlock", err}
	}
	// Descriptors this process inherited from whoever started parthack
	// (Go passes on any that are not close-on-exec) must not reach the
	// program: only stdio does, and the status pipe closes on exec.
	if err := unix.CloseRange(statusFD+1, math.MaxUint32, unix.CLOSE_RANGE_CLOEXEC); err != nil {
		return &stageError{"descriptors", err}
	}
	if err := applySeccomp(); err != nil {
		return &stageError{"seccomp", err}
	}
	err := syscall.Exec(sp.Program, sp.Args, sp.Env)
	return &stageError{stageExec, fmt.Errorf("%s: %w", sp.Program, err)}
}

// dropCapabilities empties every capability set of this thread, which
// execs the program. With the bounding set empty, root's exec grants
// nothing; without CAP_SETPCAP the bounding set can only be left as it is
// by a process that is not root, for which exec under no_new_privs grants
// nothing either.
func dropCapabilities() error {
	for c := 0; ; c++ {
		err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0)
		if errors.Is(err, unix.EINVAL) {
			break // past the last capability
		}
		if errors.Is(err, unix.EPERM) && os.Geteuid() != 0 {
			break
		}
		if err != nil {
			return fmt.Errorf("drop capability %d from the bounding set: %w", c, err)
		}
	}
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil {
		return fmt.Errorf("clear the ambient set: %w", err)
	}
	var data [2]unix.CapUserData
	if err := unix.Capset(&unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}, &data[0]); err != nil {
		return fmt.Errorf("capset: %w", err)
	}
	return nil
}

// applySeccomp installs the filter on every thread (TSYNC), so it holds
// whichever thread execs.
func applySeccomp() error {
	p, err := seccompProgram()
	if err != nil {
		return err
	}
	prog := unix.SockFprog{Len: uint16(len(p)), Filter: &p[0]}
	r, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_TSYNC, uintptr(unsafe.Pointer(&prog)))
	switch {
	case errno != 0:
		return errno
	case r != 0:
		return fmt.Errorf("thread %d could not be synchronized", r)
	}
	return nil
}
