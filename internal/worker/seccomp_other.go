//go:build linux && !amd64

package worker

import (
	"fmt"
	"runtime"

	"golang.org/x/sys/unix"
)

// seccompProgram refuses: the filter's syscall numbers and architecture
// check are written for x86_64, and a filter for the wrong numbers would
// be no filter at all.
func seccompProgram() ([]unix.SockFilter, error) {
	return nil, fmt.Errorf("no filter for %s: the worker's seccomp filter is written for x86_64 only", runtime.GOARCH)
}
