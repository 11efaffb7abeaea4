package store

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestCreateOnLockedEmptyFile: an empty file another process holds is not
// replaced under it: Open waits for the lock and fails with ErrLocked.
func TestCreateOnLockedEmptyFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "parthack.db")
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path, WithTimeout(200*time.Millisecond))
	if err == nil {
		s.Close()
		t.Fatal("Open replaced a locked file")
	}
	if !errors.Is(err, ErrLocked) {
		t.Fatalf("err = %v, want ErrLocked", err)
	}
	if info, err := os.Stat(path); err != nil || info.Size() != 0 {
		t.Fatalf("the locked file was changed: %v, %v", info, err)
	}
}
