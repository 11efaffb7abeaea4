package store

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The tests in this file need a second process: bbolt locks with flock,
// and only another process can show that the lock holds and that a killed
// writer leaves a consistent file.

const (
	helperModeEnv = "PARTHACK_STORE_HELPER" // "hold", "put", "open" or "import"
	helperPathEnv = "PARTHACK_STORE_PATH"
)

// TestHelperProcess is not a test: it is the child process the other tests
// start by re-running the test binary.
func TestHelperProcess(t *testing.T) {
	mode := os.Getenv(helperModeEnv)
	if mode == "" {
		t.Skip("child process for TestLockedByAnotherProcess, TestCrashSafety and TestImportKilled")
	}
	s, err := Open(os.Getenv(helperPathEnv))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	switch mode {
	case "open": // opened: close and exit 0
	case "import":
		helperImport(s)
	case "hold":
		fmt.Println("ready")
		_, _ = io.Copy(io.Discard, os.Stdin) // hold the store until the parent closes stdin
	case "put":
		for i := 0; ; i++ {
			r, err := s.Put(Record{Kind: KindWitness, Name: strconv.Itoa(i), Body: crashBody(i)})
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(2)
			}
			fmt.Println(r.Key) // only after Put has committed
		}
	}
	if err := s.Close(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Exit(0)
}

// startHelper runs TestHelperProcess in mode on path and returns the child,
// its stdout lines and its stdin.
func startHelper(t *testing.T, mode, path string) (*exec.Cmd, *bufio.Scanner, io.Closer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
	cmd.Env = append(os.Environ(), helperModeEnv+"="+mode, helperPathEnv+"="+path)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	return cmd, bufio.NewScanner(stdout), stdin
}

func TestLockedByAnotherProcess(t *testing.T) {
	path := filepath.Join(t.TempDir(), "parthack.db")
	cmd, lines, stdin := startHelper(t, "hold", path)
	if !lines.Scan() || lines.Text() != "ready" {
		t.Fatalf("child did not report ready (got %q, %v)", lines.Text(), lines.Err())
	}

	tests := []struct {
		name    string
		opts    []Option
		maxWait time.Duration
	}{
		{"default timeout", nil, 2 * time.Second},
		{"read-only", []Option{WithReadOnly()}, 2 * time.Second},
		{"short timeout", []Option{WithTimeout(200 * time.Millisecond)}, 700 * time.Millisecond},
		{"zero timeout keeps default", []Option{WithTimeout(0)}, 2 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			s, err := Open(path, tt.opts...)
			elapsed := time.Since(start)
			if err == nil {
				s.Close()
				t.Fatal("Open succeeded while another process holds the store")
			}
			if !errors.Is(err, ErrLocked) {
				t.Fatalf("err = %v, want ErrLocked", err)
			}
			if elapsed > tt.maxWait {
				t.Fatalf("Open took %v, want at most %v", elapsed, tt.maxWait)
			}
			for _, m := range []string{path, "another parthack process"} {
				if !strings.Contains(err.Error(), m) {
					t.Errorf("error %q does not mention %q", err, m)
				}
			}
		})
	}

	// Once the holder exits the lock is gone.
	if err := stdin.Close(); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("holder: %v", err)
	}
	s, err := Open(path)
	if err != nil {
		t.Fatalf("Open after holder exited: %v", err)
	}
	s.Close()
}

// crashBody is a deterministic, several-page body for record i, so a
// reader can tell an intact body from a torn one.
func crashBody(i int) []byte {
	var b []byte
	h := sha256.Sum256([]byte(strconv.Itoa(i)))
	for len(b) < 8<<10 {
		b = append(b, h[:]...)
		h = sha256.Sum256(h[:])
	}
	return b
}

func TestCrashSafety(t *testing.T) {
	const want = 100
	path := filepath.Join(t.TempDir(), "parthack.db")
	cmd, lines, _ := startHelper(t, "put", path)
	var reported []uint64
	for len(reported) < want && lines.Scan() {
		key, err := strconv.ParseUint(lines.Text(), 10, 64)
		if err != nil {
			t.Fatalf("child printed %q", lines.Text())
		}
		reported = append(reported, key)
	}
	if len(reported) < want {
		t.Fatalf("child stopped after %d records: %v", len(reported), lines.Err())
	}
	// The child is still writing: the kill lands in the middle of a Put.
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()

	s, err := Open(path)
	if err != nil {
		t.Fatalf("reopen after crash: %v", err)
	}
	defer s.Close()
	all, err := s.List(KindWitness)
	if err != nil {
		t.Fatalf("List after crash: %v", err)
	}
	if len(all) < len(reported) {
		t.Fatalf("%d records survived, child reported %d committed", len(all), len(reported))
	}
	for j, r := range all {
		i, err := strconv.Atoi(r.Name)
		if err != nil || r.Key != uint64(j+1) || r.Key != uint64(i+1) {
			t.Fatalf("record %d: key %d, name %q; want key %d", j, r.Key, r.Name, j+1)
		}
		if !bytes.Equal(r.Body, crashBody(i)) {
			t.Fatalf("record %d has a torn body", r.Key)
		}
	}
	for _, key := range reported {
		if _, err := s.Get(KindWitness, key); err != nil {
			t.Fatalf("committed key %d lost: %v", key, err)
		}
	}
}
