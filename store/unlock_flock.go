//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd

package store

import (
	"os"
	"syscall"
)

// unlock drops the flock bbolt took on f. Closing f is not enough after
// bbolt panics mid-Open: the memory map it leaves behind keeps the open
// file, and with it the lock, alive until the process exits.
func unlock(f *os.File) {
	_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
}
