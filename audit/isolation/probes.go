package isolation

import (
	"bytes"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/parthack/parthack/internal/worker"
	"github.com/parthack/parthack/tasks/sealed"
)

// probeSource is the probe program (probe/main.go), built by the audit
// with the Go toolchain it is given.
//
//go:embed probe/main.go
var probeSource []byte

// ProbeConfig says how to run the capability probes.
type ProbeConfig struct {
	// GoBin is the go command that builds the probe program.
	GoBin string
	// Launcher is the worker's launcher binary, the one that embeds the
	// sealed suite (empty: this process's executable).
	Launcher string
	// LandlockABI is passed to the worker (zero: its default).
	LandlockABI int
	// Payload is what the control probe is given on stdin; it must
	// report exactly these bytes.
	Payload []byte
}

// canaryTask is the suite task whose canary the sealed-file probe plants.
const canaryTask = "PH-D01"

// probeTimeout bounds one probe run, inside or outside the sandbox.
const probeTimeout = 20 * time.Second

// probe is one capability the sandbox must deny.
type probe struct {
	name     string
	args     []string
	readOnly []string // beyond the probe itself
}

// Probes builds the probe program and runs it inside the worker: first
// the control, which must succeed and report the payload's sha256, an
// empty environment, an empty working directory and no descriptor beyond
// stdio; then every capability probe, each of which must report its
// attempt denied. Every capability probe also runs outside the sandbox,
// where its attempt must succeed; where it fails there too the probe
// proves nothing on this machine and is a Skip, saying why. When the
// worker refuses to run here (a layer it cannot apply), that is the one
// check, a Skip with its reason: failing closed is the worker's job.
func Probes(ctx context.Context, cfg ProbeConfig) []Check {
	dir, err := os.MkdirTemp("", "parthack-probes-")
	if err != nil {
		return []Check{{Name: "probes", Status: Fail, Detail: err.Error()}}
	}
	defer os.RemoveAll(dir)
	bin, err := BuildProbe(ctx, cfg.GoBin, dir)
	if err != nil {
		return []Check{{Name: "build the probe program", Status: Fail, Detail: err.Error()}}
	}
	launcher := cfg.Launcher
	if launcher == "" {
		if launcher, err = os.Executable(); err != nil {
			return []Check{{Name: "probes", Status: Fail, Detail: err.Error()}}
		}
	}
	if launcher, err = filepath.EvalSymlinks(launcher); err != nil {
		return []Check{{Name: "probes", Status: Fail, Detail: err.Error()}}
	}
	wcfg := worker.Config{Program: bin, LandlockABI: cfg.LandlockABI, Launcher: launcher, Timeout: probeTimeout}

	control := Check{Name: "control: the payload reaches the scorer byte for byte, in an empty room"}
	res, err := worker.Score(ctx, wcfg, cfg.Payload)
	var refused *worker.LayerError
	switch want := fmt.Sprintf("sha256=%x env=0 cwd=0 fds=0", sha256.Sum256(cfg.Payload)); {
	case errors.As(err, &refused):
		return []Check{{Name: "probes", Status: Skip, Detail: "the worker refuses to run here, so nothing can leak through it: " + err.Error()}}
	case err != nil:
		control.Status, control.Detail = Fail, err.Error()
	case res.Score != 0.5 || res.Rationale != want:
		control.Status, control.Detail = Fail, fmt.Sprintf("answered %v %q, want 0.5 %q", res.Score, res.Rationale, want)
	default:
		control.Status, control.Detail = Pass, res.Rationale
	}
	checks := []Check{control}

	fx, err := newFixtures(dir, launcher)
	if err != nil {
		return append(checks, Check{Name: "probe fixtures", Status: Fail, Detail: err.Error()})
	}
	defer fx.close()
	for _, p := range fx.probes(bin) {
		checks = append(checks, runProbe(ctx, p, wcfg, cfg.Payload, fx))
	}
	return checks
}

// BuildProbe writes the probe program's source to dir, builds it there
// with goBin, statically, and returns the binary's path. Run with no
// arguments it is the control scorer, which answers 0.5 with the sha256
// of its stdin.
func BuildProbe(ctx context.Context, goBin, dir string) (string, error) {
	src := filepath.Join(dir, "src")
	if err := os.MkdirAll(src, 0o755); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(src, "go.mod"), []byte("module parthackprobe\n\ngo 1.22\n"), 0o644); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(src, "main.go"), probeSource, 0o644); err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "bin", "probe")
	cmd := exec.CommandContext(ctx, goBin, "build", "-o", bin, ".")
	cmd.Dir = src
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOWORK=off", "GOTOOLCHAIN=local", "GOFLAGS=")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("%s build: %v\n%s", goBin, err, out)
	}
	return bin, nil
}

// fixtures are what the probes reach for, all outside the sandbox.
type fixtures struct {
	outside  string // a directory outside the sandbox
	sealed   string // a file there holding a canary of the sealed suite
	created  string // a file the write probe tries to create
	launcher string
	hostNet  string // this process's network namespace
	tcp      net.Listener
	udp      net.PacketConn
	unix     net.Listener
}

func newFixtures(dir, launcher string) (_ *fixtures, err error) {
	fx := &fixtures{outside: filepath.Join(dir, "outside"), launcher: launcher}
	defer func() {
		if err != nil {
			fx.close()
		}
	}()
	if err := os.Mkdir(fx.outside, 0o755); err != nil {
		return nil, err
	}
	canaries, cerr := sealed.Canaries(canaryTask)
	if cerr != nil || len(canaries) == 0 {
		return nil, fmt.Errorf("no canary to plant: %v", cerr)
	}
	fx.sealed = filepath.Join(fx.outside, "sealed.json")
	if err := os.WriteFile(fx.sealed, []byte(`{"canary":"`+canaries[0]+`"}`), 0o644); err != nil {
		return nil, err
	}
	fx.created = filepath.Join(fx.outside, "created")
	if fx.hostNet, err = os.Readlink("/proc/self/ns/net"); err != nil {
		return nil, err
	}
	if fx.tcp, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
		return nil, err
	}
	go func() {
		for {
			c, err := fx.tcp.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	if fx.udp, err = net.ListenPacket("udp", "127.0.0.1:0"); err != nil {
		return nil, err
	}
	if fx.unix, err = net.Listen("unix", filepath.Join(fx.outside, "sock")); err != nil {
		return nil, err
	}
	go func() {
		for {
			c, err := fx.unix.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	return fx, nil
}

func (fx *fixtures) close() {
	if fx.tcp != nil {
		fx.tcp.Close()
	}
	if fx.udp != nil {
		fx.udp.Close()
	}
	if fx.unix != nil {
		fx.unix.Close()
	}
}

func (fx *fixtures) probes(bin string) []probe {
	tcp, udp := fx.tcp.Addr().String(), fx.udp.LocalAddr().String()
	return []probe{
		{name: "read a sealed file", args: []string{"read", fx.sealed}},
		{name: "read the parthack binary", args: []string{"read", fx.launcher}},
		{name: "../ traversal", args: []string{"traverse", fx.sealed}},
		{name: "follow a symlink out of the working directory", args: []string{"symlink", fx.sealed}},
		{name: "hard-link a file into the working directory", args: []string{"hardlink", fx.sealed}},
		{name: "write outside the working directory", args: []string{"write", fx.created}},
		{name: "exec a shell in place", args: []string{"exec", "/bin/sh"}},
		{name: "spawn a shell", args: []string{"spawn", "/bin/sh"}},
		{name: "spawn a child (the probe itself)", args: []string{"spawn", bin}},
		{name: "TCP to a loopback listener", args: []string{"tcp", tcp}},
		{name: "open an MPTCP socket (and connect to a loopback listener)", args: []string{"mptcp", tcp}},
		{name: "open a UDP socket (and send to a loopback socket)", args: []string{"udp", udp}},
		{name: "connect to a UNIX socket outside", args: []string{"unix", fx.unix.Addr().String()}},
		{name: "open an AF_INET6 socket", args: []string{"socket", "inet6"}},
		{name: "open an AF_PACKET socket", args: []string{"socket", "packet"}},
		{name: "open an AF_NETLINK socket", args: []string{"socket", "netlink"}},
		{name: "socket(2) through the x32 ABI", args: []string{"x32"}},
		{name: "set up an io_uring", args: []string{"io_uring"}},
		{name: "signal the parent", args: []string{"signal"}},
		{name: "hold a capability", args: []string{"caps"}},
		{name: "read the launcher via /proc/self/exe or the parent's exe", args: []string{"proc-exe", fx.launcher}},
		{name: "same, with /proc readable", args: []string{"proc-exe", fx.launcher}, readOnly: []string{"/proc"}},
		{name: "share the host's network namespace (/proc readable)", args: []string{"netns", fx.hostNet}, readOnly: []string{"/proc"}},
	}
}

// runProbe runs p outside the sandbox, then inside, and judges.
func runProbe(ctx context.Context, p probe, wcfg worker.Config, payload []byte, fx *fixtures) Check {
	name := p.name + " (probe " + p.args[0] + ")"
	outside, outErr := runOutside(ctx, wcfg.Program, p.args, payload)
	os.Remove(fx.created)
	wcfg.Args, wcfg.ReadOnly = p.args, p.readOnly
	res, err := worker.Score(ctx, wcfg, payload)
	os.Remove(fx.created)
	switch {
	case err != nil:
		return Check{Name: name, Status: Fail, Detail: "inside the worker the probe gave no answer: " + err.Error()}
	case res.Score != 0 || !strings.HasPrefix(res.Rationale, "denied: "):
		return Check{Name: name, Status: Fail, Detail: fmt.Sprintf("inside the worker: %s", res.Rationale)}
	case outErr != nil:
		return Check{Name: name, Status: Skip, Detail: fmt.Sprintf("inconclusive here: %s inside, but outside the sandbox the probe fails too (%v)", res.Rationale, outErr)}
	}
	return Check{Name: name, Status: Pass, Detail: fmt.Sprintf("%s (outside: %s)", res.Rationale, strings.TrimPrefix(outside, "BREACH: "))}
}

// runOutside runs the probe unsandboxed in a fresh directory and returns
// what it managed, or why not.
func runOutside(ctx context.Context, bin string, args []string, payload []byte) (string, error) {
	dir, err := os.MkdirTemp("", "parthack-probe-outside-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir, cmd.Env, cmd.Stdin = dir, []string{}, bytes.NewReader(payload)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("%v: %s", err, strings.TrimSpace(stderr.String()))
	}
	var ans struct {
		Score     float64 `json:"score"`
		Rationale string  `json:"rationale"`
	}
	if err := json.Unmarshal(out, &ans); err != nil {
		return "", fmt.Errorf("answer %q: %v", out, err)
	}
	if ans.Score != 1 {
		return "", errors.New(ans.Rationale)
	}
	return ans.Rationale, nil
}
