//go:build linux

package worker

import (
	"encoding/binary"
	"testing"

	"golang.org/x/sys/unix"
)

// runFilter interprets the classic BPF subset the filter uses over one
// struct seccomp_data, as the kernel would.
func runFilter(t *testing.T, p []unix.SockFilter, arch, nr uint32, arg0 uint64) uint32 {
	t.Helper()
	data := make([]byte, 64)
	binary.LittleEndian.PutUint32(data[offNr:], nr)
	binary.LittleEndian.PutUint32(data[offArch:], arch)
	binary.LittleEndian.PutUint64(data[offArg0:], arg0)
	var acc uint32
	for pc := 0; pc < len(p); pc++ {
		in := p[pc]
		switch in.Code {
		case unix.BPF_LD | unix.BPF_W | unix.BPF_ABS:
			acc = binary.LittleEndian.Uint32(data[in.K:])
		case unix.BPF_RET | unix.BPF_K:
			return in.K
		case unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K, unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K, unix.BPF_JMP | unix.BPF_JSET | unix.BPF_K:
			var cond bool
			switch in.Code & 0xf0 {
			case unix.BPF_JEQ:
				cond = acc == in.K
			case unix.BPF_JGE:
				cond = acc >= in.K
			case unix.BPF_JSET:
				cond = acc&in.K != 0
			}
			if cond {
				pc += int(in.Jt)
			} else {
				pc += int(in.Jf)
			}
		default:
			t.Fatalf("instruction %d: unexpected code %#x", pc, in.Code)
		}
	}
	t.Fatal("the filter fell off its end")
	return 0
}

// TestSeccompFilter runs the filter on the calls it decides and on some
// it must let through.
func TestSeccompFilter(t *testing.T) {
	p, err := seccompProgram()
	if err != nil {
		t.Fatal(err)
	}
	allow := uint32(unix.SECCOMP_RET_ALLOW)
	eperm := uint32(unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM))
	enosys := uint32(unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS))
	const x86 = unix.AUDIT_ARCH_X86_64
	for _, c := range []struct {
		name string
		arch uint32
		nr   uint32
		arg0 uint64
		want uint32
	}{
		{"i386 syscall", unix.AUDIT_ARCH_I386, 102 /* socketcall */, 0, unix.SECCOMP_RET_KILL_PROCESS},
		{"aarch64 numbers", unix.AUDIT_ARCH_AARCH64, unix.SYS_READ, 0, unix.SECCOMP_RET_KILL_PROCESS},
		{"x32 socket", x86, x32Bit | unix.SYS_SOCKET, unix.AF_INET, eperm},
		{"x32 read", x86, x32Bit | unix.SYS_READ, 0, eperm},
		{"socket AF_INET (TCP, UDP, MPTCP)", x86, unix.SYS_SOCKET, unix.AF_INET, eperm},
		{"socket AF_INET6", x86, unix.SYS_SOCKET, unix.AF_INET6, eperm},
		{"socket AF_PACKET", x86, unix.SYS_SOCKET, unix.AF_PACKET, eperm},
		{"socket AF_NETLINK", x86, unix.SYS_SOCKET, unix.AF_NETLINK, eperm},
		{"socket AF_UNIX", x86, unix.SYS_SOCKET, unix.AF_UNIX, eperm},
		{"socket AF_VSOCK", x86, unix.SYS_SOCKET, unix.AF_VSOCK, eperm},
		{"socketpair AF_UNIX", x86, unix.SYS_SOCKETPAIR, unix.AF_UNIX, allow},
		{"socketpair AF_INET", x86, unix.SYS_SOCKETPAIR, unix.AF_INET, eperm},
		{"socketpair AF_INET, high bits set", x86, unix.SYS_SOCKETPAIR, 1<<32 | unix.AF_INET, eperm},
		{"socketpair AF_UNIX, high bits set (the kernel reads an int)", x86, unix.SYS_SOCKETPAIR, 1<<32 | unix.AF_UNIX, allow},
		{"fork", x86, unix.SYS_FORK, 0, eperm},
		{"vfork", x86, unix.SYS_VFORK, 0, eperm},
		{"clone a process", x86, unix.SYS_CLONE, uint64(unix.SIGCHLD), eperm},
		{"clone vfork-style (os/exec)", x86, unix.SYS_CLONE, unix.CLONE_VM | unix.CLONE_VFORK | uint64(unix.SIGCHLD), eperm},
		{"clone a thread", x86, unix.SYS_CLONE, unix.CLONE_VM | unix.CLONE_FS | unix.CLONE_FILES | unix.CLONE_SIGHAND | unix.CLONE_THREAD | unix.CLONE_SYSVSEM, allow},
		{"clone3", x86, unix.SYS_CLONE3, 0, enosys},
		{"io_uring_setup", x86, unix.SYS_IO_URING_SETUP, 0, eperm},
		{"io_uring_enter", x86, unix.SYS_IO_URING_ENTER, 0, eperm},
		{"io_uring_register", x86, unix.SYS_IO_URING_REGISTER, 0, eperm},
		{"read", x86, unix.SYS_READ, 0, allow},
		{"execve", x86, unix.SYS_EXECVE, 0, allow},
		{"openat", x86, unix.SYS_OPENAT, 0, allow},
	} {
		if got := runFilter(t, p, c.arch, c.nr, c.arg0); got != c.want {
			t.Errorf("%s: %#x, want %#x", c.name, got, c.want)
		}
	}
}
