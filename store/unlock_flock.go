//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd

package store

import (
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"
)

// unlock drops the flock bbolt took on f. Closing f is not enough after
// bbolt panics mid-Open: the memory map it leaves behind keeps the open
// file, and with it the lock, alive until the process exits.
func unlock(f *os.File) {
	_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
}

// lockFile takes the exclusive flock bbolt takes for a read-write open,
// waiting at most timeout, as bbolt does.
func lockFile(f *os.File, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		switch {
		case err == nil:
			return nil
		case !errors.Is(err, syscall.EWOULDBLOCK):
			return fmt.Errorf("lock: %w", err)
		case time.Now().After(deadline):
			return fmt.Errorf("another parthack process holds the file; close it and retry: %w", ErrLocked)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
