//go:build !(darwin || dragonfly || freebsd || linux || netbsd || openbsd)

package store

import (
	"os"
	"time"
)

// unlock is a no-op where bbolt does not lock with flock; there a file
// whose Open panicked stays locked until the process exits.
func unlock(*os.File) {}

// lockFile is a no-op where bbolt does not lock with flock.
func lockFile(*os.File, time.Duration) error { return nil }
