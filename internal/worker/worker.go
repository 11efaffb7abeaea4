// Package worker runs evaluator programs parthack does not control — a
// user's own scorer — as SPEC §4 requires. The program reads the public
// payload bytes on stdin and writes one strict JSON object on stdout,
// {"score": s} with s in [0, 1] and optionally "rationale"; anything else
// is an error that quotes the tail of its stderr.
//
// The program runs sandboxed, and fail-closed: when a layer cannot be
// applied the worker refuses to run and names the layer and why; nothing
// is ever applied on a best-effort basis. The layers:
//
//   - process: a cleared environment (only Config.Env), a fresh empty
//     working directory removed afterwards, no descriptor but stdio
//     (whatever parthack inherited stays behind), stdin the payload,
//     bounded stdout and stderr capture, a timeout, and its own process
//     group, killed whole on timeout or cancellation;
//   - netns: a fresh network namespace (CLONE_NEWNET; without privilege
//     CLONE_NEWUSER|CLONE_NEWNET with the caller mapped to root inside);
//   - capabilities: all of them dropped (bounding, ambient, effective,
//     permitted, inheritable), so a scorer started by root is root
//     without any privilege;
//   - landlock: read and execute only the program and Config.ReadOnly,
//     read and write (not execute) only the working directory, no TCP
//     bind or connect (from ABI 10 no UDP either), no signals or abstract
//     UNIX sockets out of the sandbox; everything else denied, by the
//     Landlock ABI Config.LandlockABI, strictly (default the kernel's
//     newest that go-landlock knows, refusing kernels older than
//     MinLandlockABI);
//   - seccomp: no socket(2) of any family (AF_INET and AF_INET6, so
//     MPTCP, which Landlock does not cover; AF_PACKET; AF_NETLINK, which
//     the Go runtime does not need; AF_UNIX, whose pathname sockets
//     Landlock covers only from ABI 9), socketpair(2) for AF_UNIX only,
//     no process creation (fork, vfork, clone without CLONE_THREAD;
//     clone3 answers ENOSYS so that thread libraries fall back to clone),
//     no io_uring (which could open sockets behind seccomp's back),
//     nothing but x86_64 syscalls; and no_new_privs.
//
// A scorer cannot run another program: seccomp forbids creating a
// process at all, and Landlock forbids executing anything but the program
// and the read-only paths, even in place of itself. So the filter needs
// no "exactly one execve" exception for the launcher's own exec (a filter
// cannot count, and matching execve's pointer argument is forgeable).
//
// The network namespace is set up when the launcher process is cloned;
// the other layers must be applied inside the child before the scorer is
// executed. The launcher is the parthack binary itself, re-executed: its
// main package calls LaunchIfRequested first thing, which applies the
// layers on one locked thread and execs the scorer, so the scorer never
// shares an address space with the binary that embeds the sealed suite,
// and Landlock keeps it from reading that binary by any path.
package worker

import (
	"fmt"
	"strings"
	"time"
	"unicode"
)

// Defaults and bounds of a run.
const (
	// DefaultTimeout bounds a run when Config.Timeout is zero.
	DefaultTimeout = 30 * time.Second
	// MaxStdout bounds the answer: a program that writes more fails.
	MaxStdout = 64 << 10
	// StderrTail is how much of the end of stderr an error quotes.
	StderrTail = 4 << 10
)

// Landlock ABI versions the worker can require. MinLandlockABI is the
// first with IPC scoping: without it a scorer could signal any process of
// its user (root's, when parthack runs as root), so the worker refuses
// anything older. NewestLandlockABI is the newest go-landlock offers, the
// default.
const (
	MinLandlockABI    = 6
	NewestLandlockABI = 11
)

// Config says which program to run and what it may read.
type Config struct {
	// Program is the scorer executable. A script's interpreter and a
	// dynamically linked program's libraries must be in ReadOnly.
	Program string
	// Args follow the program's name on its command line.
	Args []string
	// Env is the program's whole environment, KEY=VALUE; empty by
	// default.
	Env []string
	// ReadOnly lists files and directories the program may read and
	// execute. None may hold the launcher binary.
	ReadOnly []string
	// Timeout bounds the run (DefaultTimeout when zero).
	Timeout time.Duration
	// LandlockABI is the Landlock ABI to enforce, strictly: the worker
	// refuses to run on a kernel without it. Zero means the kernel's
	// newest up to NewestLandlockABI, and a refusal below
	// MinLandlockABI, the oldest that restricts files, TCP and IPC scope.
	LandlockABI int
	// Launcher is the binary that applies the sandbox and execs the
	// program: one whose main calls LaunchIfRequested first. Empty means
	// this process's own executable.
	Launcher string
}

// Result is a scorer's answer.
type Result struct {
	Score     float64 `json:"score"`
	Rationale string  `json:"rationale,omitempty"`
}

// LayerError is a refusal: a sandbox layer could not be applied, so the
// program was not run.
type LayerError struct {
	Layer string // "netns", "capabilities", "landlock", "seccomp", "no_new_privs", "descriptors", "workdir", "launcher" or "platform"
	Err   error
}

func (e *LayerError) Error() string {
	return fmt.Sprintf("worker refuses to run the scorer: %s: %v", e.Layer, e.Err)
}

func (e *LayerError) Unwrap() error { return e.Err }

// ScorerError is a program that ran but gave no valid answer: it failed,
// timed out, or wrote something other than the strict answer.
type ScorerError struct {
	Reason string
	Stderr string // the tail of its stderr, control characters replaced
	Err    error  // the underlying error, if any (context errors on timeout)
}

func (e *ScorerError) Error() string {
	if e.Stderr == "" {
		return "scorer: " + e.Reason + " (stderr empty)"
	}
	return "scorer: " + e.Reason + "; stderr ends:\n" + e.Stderr
}

func (e *ScorerError) Unwrap() error { return e.Err }

// printable replaces control characters other than newline and tab, so
// that a program's output cannot drive the terminal that shows it.
func printable(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' || unicode.IsPrint(r) {
			return r
		}
		return '\uFFFD'
	}, s)
}
