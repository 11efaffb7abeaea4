//go:build linux

// Command probe is the capability probe of parthack's isolation audit.
// Run as a scorer inside the worker it tries one thing the sandbox must
// deny and answers as a scorer does: {"score":0,"rationale":"denied: …"}
// when the attempt failed, {"score":1,"rationale":"BREACH: …"} when it
// succeeded. The audit also runs it outside the sandbox, where each
// attempt must succeed, so that a denial inside shows the sandbox at work
// and not a broken probe. A probe that cannot even set up its attempt
// exits 3.
//
// With no arguments it is the control: it reads the payload on stdin and
// answers score 0.5 with the payload's sha256 and what it found of the
// world: its environment, its working directory and open descriptors
// beyond stdio.
//
// The audit builds it from source with the Go toolchain, statically, so
// the sandbox needs no library path for it. It uses the standard library
// only.
package main

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
	"unsafe"
)

func main() {
	if len(os.Args) == 1 {
		control()
		return
	}
	mode, arg := os.Args[1], ""
	if len(os.Args) > 2 {
		arg = os.Args[2]
	}
	attempt, ok := probes[mode]
	if !ok {
		fmt.Fprintf(os.Stderr, "probe: unknown mode %q\n", mode)
		os.Exit(2)
	}
	what, err := attempt(arg)
	if err != nil {
		answer(0, "denied: "+err.Error())
		return
	}
	answer(1, "BREACH: "+what)
}

func answer(score float64, rationale string) {
	b, _ := json.Marshal(map[string]any{"score": score, "rationale": rationale})
	os.Stdout.Write(append(b, '\n'))
}

func setupFailed(err error) {
	fmt.Fprintln(os.Stderr, "probe: setup:", err)
	os.Exit(3)
}

// probes try one capability each; a nil error means it worked.
var probes = map[string]func(arg string) (string, error){
	// read a file outside the sandbox (a sealed canary, the parthack
	// binary)
	"read": func(path string) (string, error) {
		b, err := os.ReadFile(path)
		return fmt.Sprintf("read %d bytes of %s", len(b), path), err
	},
	// reach it from the working directory through ..
	"traverse": func(path string) (string, error) {
		wd, err := os.Getwd()
		if err != nil {
			setupFailed(err)
		}
		rel := strings.Repeat("../", strings.Count(filepath.Clean(wd), "/")) + strings.TrimPrefix(path, "/")
		b, err := os.ReadFile(rel)
		return fmt.Sprintf("read %d bytes of %s", len(b), rel), err
	},
	// plant a symlink to it in the working directory and follow it
	"symlink": func(path string) (string, error) {
		if err := os.Symlink(path, "link"); err != nil {
			setupFailed(err)
		}
		b, err := os.ReadFile("link")
		return fmt.Sprintf("read %d bytes through a symlink to %s", len(b), path), err
	},
	// hard-link it into the working directory and read that
	"hardlink": func(path string) (string, error) {
		if err := os.Link(path, "hard"); err != nil {
			return "", err
		}
		b, err := os.ReadFile("hard")
		return fmt.Sprintf("read %d bytes through a hard link to %s", len(b), path), err
	},
	// create a file outside the working directory
	"write": func(path string) (string, error) {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err == nil {
			f.Close()
		}
		return "created " + path, err
	},
	// replace this process with another program
	"exec": func(path string) (string, error) {
		err := syscall.Exec(path, []string{path, "-c", `printf '{"score":1,"rationale":"BREACH: executed %s"}\n' "$0"`}, nil)
		return "", err
	},
	// start a child process (the probe itself, which Landlock lets run,
	// or a shell, which it does not)
	"spawn": func(path string) (string, error) {
		cmd := exec.Command(path, "-c", "exit 0")
		// Its own streams: os/exec would open /dev/null, which the
		// sandbox denies before any process is attempted.
		cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stderr, os.Stderr
		if err := cmd.Start(); err != nil {
			return "", err
		}
		cmd.Wait()
		return "started " + path + " as a child", nil
	},
	// connect to a TCP listener on the host's loopback
	"tcp": func(addr string) (string, error) {
		c, err := net.DialTimeout("tcp", addr, 2*time.Second)
		if err == nil {
			c.Close()
		}
		return "connected to " + addr, err
	},
	// open an MPTCP socket, which Landlock's TCP rules do not cover (the
	// breach is the socket: whether it then connects is the network
	// namespace's business, and reported)
	"mptcp": func(addr string) (string, error) {
		return open(syscall.AF_INET, syscall.SOCK_STREAM, ipprotoMPTCP, addr)
	},
	// open a UDP socket and send a datagram to the host's loopback
	"udp": func(addr string) (string, error) {
		return open(syscall.AF_INET, syscall.SOCK_DGRAM, 0, addr)
	},
	// connect to a pathname UNIX socket outside the sandbox
	"unix": func(path string) (string, error) {
		c, err := net.DialTimeout("unix", path, 2*time.Second)
		if err == nil {
			c.Close()
		}
		return "connected to " + path, err
	},
	// open a socket of another family: inet6, packet, netlink
	"socket": func(family string) (string, error) {
		f, ok := map[string][3]int{
			"inet6":   {syscall.AF_INET6, syscall.SOCK_STREAM, 0},
			"packet":  {syscall.AF_PACKET, syscall.SOCK_RAW, 0},
			"netlink": {syscall.AF_NETLINK, syscall.SOCK_RAW, syscall.NETLINK_ROUTE},
		}[family]
		if !ok {
			setupFailed(fmt.Errorf("unknown family %q", family))
		}
		fd, err := syscall.Socket(f[0], f[1], f[2])
		if err == nil {
			syscall.Close(fd)
		}
		return "opened a socket of family " + family, err
	},
	// socket(2) through the x32 syscall numbers
	"x32": func(string) (string, error) {
		fd, _, errno := syscall.RawSyscall(0x40000000|syscall.SYS_SOCKET, syscall.AF_INET, syscall.SOCK_STREAM, 0)
		if errno != 0 {
			return "", errno
		}
		syscall.Close(int(fd))
		return "opened an AF_INET socket through the x32 ABI", nil
	},
	// set up an io_uring, which can open sockets without socket(2)
	"io_uring": func(string) (string, error) {
		var params [120]byte
		fd, _, errno := syscall.RawSyscall(sysIOURingSetup, 1, uintptr(unsafe.Pointer(&params)), 0)
		if errno != 0 {
			return "", errno
		}
		syscall.Close(int(fd))
		return "set up an io_uring", nil
	},
	// signal the parent (parthack), which runs outside the sandbox
	"signal": func(string) (string, error) {
		return fmt.Sprintf("signalled the parent %d", os.Getppid()), syscall.Kill(os.Getppid(), 0)
	},
	// hold any capability (root keeps them across exec unless dropped)
	"caps": func(string) (string, error) {
		hdr := struct{ version, pid uint32 }{0x20080522, 0}
		var data [2]struct{ effective, permitted, inheritable uint32 }
		if _, _, errno := syscall.RawSyscall(syscall.SYS_CAPGET, uintptr(unsafe.Pointer(&hdr)), uintptr(unsafe.Pointer(&data)), 0); errno != 0 {
			setupFailed(errno)
		}
		var bounding []int
		for c := 0; c < 64; c++ {
			r, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prCapBSetRead, uintptr(c), 0)
			if errno != 0 {
				break
			}
			if r == 1 {
				bounding = append(bounding, c)
			}
		}
		if data == [2]struct{ effective, permitted, inheritable uint32 }{} && len(bounding) == 0 {
			return "", errors.New("no capability in any set")
		}
		return fmt.Sprintf("capabilities %+v, bounding set %v", data, bounding), nil
	},
	// read the binary behind /proc/self/exe (the launcher, had exec not
	// replaced it) and behind the parent's /proc/PID/exe (parthack)
	"proc-exe": func(launcher string) (string, error) {
		if target, err := os.Readlink("/proc/self/exe"); err == nil && target == launcher {
			return "/proc/self/exe is the launcher " + launcher, nil
		}
		parent := fmt.Sprintf("/proc/%d/exe", os.Getppid())
		b, err := os.ReadFile(parent)
		return fmt.Sprintf("read %d bytes of %s", len(b), parent), err
	},
	// share the host's network namespace (arg: its /proc/self/ns/net)
	"netns": func(host string) (string, error) {
		mine, err := os.Readlink("/proc/self/ns/net")
		if err != nil {
			setupFailed(err)
		}
		if mine == host {
			return "in the host's network namespace " + host, nil
		}
		return "", fmt.Errorf("in network namespace %s, not the host's %s", mine, host)
	},
}

// open opens a socket, which is the breach, then connects it to a
// host:port address (and sends a datagram over UDP) and says how that
// went.
func open(family, typ, proto int, addr string) (string, error) {
	ap, err := net.ResolveUDPAddr("udp", addr)
	if err != nil {
		setupFailed(err)
	}
	fd, err := syscall.Socket(family, typ, proto)
	if err != nil {
		return "", err
	}
	defer syscall.Close(fd)
	sa := &syscall.SockaddrInet4{Port: ap.Port}
	copy(sa.Addr[:], ap.IP.To4())
	err = syscall.Connect(fd, sa)
	if err == nil && typ == syscall.SOCK_DGRAM {
		_, err = syscall.Write(fd, []byte("probe"))
	}
	if err != nil {
		return fmt.Sprintf("opened the socket (reaching %s: %v)", addr, err), nil
	}
	return "opened the socket and reached " + addr, nil
}

const (
	ipprotoMPTCP    = 262
	sysIOURingSetup = 425
	prCapBSetRead   = 23
)

// control reports what the scorer's world holds.
func control() {
	b, err := io.ReadAll(os.Stdin)
	if err != nil {
		setupFailed(err)
	}
	entries, err := os.ReadDir(".")
	if err != nil {
		setupFailed(err)
	}
	fds := 0
	for fd := 3; fd < 256; fd++ {
		if _, _, errno := syscall.RawSyscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_GETFD, 0); errno == 0 {
			fds++
		}
	}
	answer(0.5, fmt.Sprintf("sha256=%x env=%d cwd=%d fds=%d", sha256.Sum256(b), len(os.Environ()), len(entries), fds))
}
