//go:build linux

package worker

import "golang.org/x/sys/unix"

// Offsets into struct seccomp_data: the syscall number, the audit
// architecture, and the low 32 bits of the first argument (little
// endian). The kernel reads socket's family and clone's flags as ints,
// so the low half is what it acts on.
const (
	offNr   = 0
	offArch = 4
	offArg0 = 16
)

// x32Bit marks the x32 ABI's syscall numbers, which share
// AUDIT_ARCH_X86_64: without this check socket(2) would be reachable as
// 0x40000000|41.
const x32Bit = 0x40000000

// seccompProgram is the worker's filter for x86_64, in the order the
// kernel runs it. Anything not named below is allowed: files are
// Landlock's business, privileges are dropped before the filter.
func seccompProgram() ([]unix.SockFilter, error) {
	eperm := unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)
	p := []unix.SockFilter{
		// Another architecture (int 0x80 gives i386, with socketcall)
		// is killed, not filtered by the wrong numbers.
		ld(offArch),
		jeq(unix.AUDIT_ARCH_X86_64, 1, 0),
		ret(unix.SECCOMP_RET_KILL_PROCESS),
		ld(offNr),
		{Code: unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K, K: x32Bit, Jt: 0, Jf: 1},
		ret(eperm),
	}
	for _, nr := range []uint32{
		unix.SYS_SOCKET, // every family: the scorer needs no socket at all
		unix.SYS_FORK, unix.SYS_VFORK,
		unix.SYS_IO_URING_SETUP, unix.SYS_IO_URING_ENTER, unix.SYS_IO_URING_REGISTER,
	} {
		p = append(p, jeq(nr, 0, 1), ret(eperm))
	}
	// clone3 passes its flags in memory a filter cannot read: ENOSYS
	// makes glibc and others fall back to clone, which is checked.
	p = append(p, jeq(unix.SYS_CLONE3, 0, 1), ret(unix.SECCOMP_RET_ERRNO|uint32(unix.ENOSYS)))
	// socketpair: a connected AF_UNIX pair reaches nothing outside.
	p = append(p,
		jeq(unix.SYS_SOCKETPAIR, 0, 4),
		ld(offArg0),
		jeq(unix.AF_UNIX, 0, 1),
		ret(unix.SECCOMP_RET_ALLOW),
		ret(eperm),
	)
	// clone: threads (CLONE_THREAD) yes, new processes no.
	p = append(p,
		jeq(unix.SYS_CLONE, 0, 4),
		ld(offArg0),
		unix.SockFilter{Code: unix.BPF_JMP | unix.BPF_JSET | unix.BPF_K, K: unix.CLONE_THREAD, Jt: 0, Jf: 1},
		ret(unix.SECCOMP_RET_ALLOW),
		ret(eperm),
		ret(unix.SECCOMP_RET_ALLOW),
	)
	return p, nil
}

func ld(off uint32) unix.SockFilter {
	return unix.SockFilter{Code: unix.BPF_LD | unix.BPF_W | unix.BPF_ABS, K: off}
}

func jeq(k uint32, jt, jf uint8) unix.SockFilter {
	return unix.SockFilter{Code: unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K, K: k, Jt: jt, Jf: jf}
}

func ret(k uint32) unix.SockFilter {
	return unix.SockFilter{Code: unix.BPF_RET | unix.BPF_K, K: k}
}
