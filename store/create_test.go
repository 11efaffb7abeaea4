package store

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// pageSize is the page size bbolt gives a new file on this machine.
var pageSize = os.Getpagesize()

// storeWithPages writes a store whose file spans several pages.
func storeWithPages(t *testing.T, path string) int64 {
	t.Helper()
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 8 {
		mustPut(t, s, Record{Kind: KindWitness, Name: fmt.Sprint(i), Body: crashBody(i)})
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return info.Size()
}

// TestOpenTruncated: a store cut short anywhere past its first meta page
// is refused as truncated, with both sizes, before bbolt reads it (which
// used to panic on it), and the file is left as it is.
func TestOpenTruncated(t *testing.T) {
	ps := int64(pageSize)
	dir := t.TempDir()
	full := storeWithPages(t, filepath.Join(dir, "full.db"))
	src, err := os.ReadFile(filepath.Join(dir, "full.db"))
	if err != nil {
		t.Fatal(err)
	}
	// The newest meta page says how many pages the file must hold.
	m0, _ := readMeta(strings.NewReader(string(src)), 0)
	m1, _ := readMeta(strings.NewReader(string(src)), ps)
	pages := m0.pages
	if m1.txid > m0.txid {
		pages = m1.pages
	}
	for _, size := range []int64{metaEnd, 1024, ps, ps + 100, 2 * ps, 3 * ps, int64(pages)*ps - 1} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "parthack.db")
			if err := os.WriteFile(path, src[:size], 0o600); err != nil {
				t.Fatal(err)
			}
			p := pages
			if size < ps+metaEnd { // only meta page 0 is left: it is the first store's
				p = m0.pages
			}
			want := fmt.Sprintf("store %s: truncated: the file is %d bytes, but its bbolt header says it holds %d pages of %d bytes (%d bytes); it was cut short (a full disk, a file size limit or an interrupted copy?); move the file aside to start a fresh store",
				path, size, p, ps, int64(p)*ps)
			for _, opts := range [][]Option{nil, {WithReadOnly()}} {
				s, err := Open(path, opts...)
				if err == nil {
					s.Close()
					t.Fatalf("Open(%d options) succeeded on a truncated file", len(opts))
				}
				if !errors.Is(err, ErrTruncated) || !errors.Is(err, ErrCorrupt) {
					t.Errorf("Open(%d options) = %v, want ErrTruncated and ErrCorrupt", len(opts), err)
				}
				if err.Error() != want {
					t.Errorf("got  %s\nwant %s", err, want)
				}
			}
			if info, err := os.Stat(path); err != nil || info.Size() != size {
				t.Fatalf("the truncated file was changed: %v, %v", info, err)
			}
		})
	}
	t.Run("whole", func(t *testing.T) {
		if int64(len(src)) != full || full < int64(pages)*ps {
			t.Fatalf("file %d bytes, %d pages of %d", full, pages, ps)
		}
		s, err := Open(filepath.Join(dir, "full.db"), WithReadOnly())
		if err != nil {
			t.Fatal(err)
		}
		s.Close()
	})
}

// TestCreateLeavesOnlyTheStore: creating a store leaves the store and no
// temporary file, with the store's permissions.
func TestCreateLeavesOnlyTheStore(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(filepath.Join(dir, "parthack.db"))
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Name() != "parthack.db" {
		t.Fatalf("directory holds %v, want only parthack.db", entries)
	}
	info, _ := entries[0].Info()
	if perm := info.Mode().Perm(); perm != 0o600 {
		t.Fatalf("store mode %v, want 0600", perm)
	}
}

// TestConcurrentCreate: processes (here goroutines, each with its own
// file handle) starting at once on a missing or empty file all end up in
// one store; none writes into a file another replaced.
func TestConcurrentCreate(t *testing.T) {
	for _, start := range []string{"missing", "empty"} {
		t.Run(start, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "parthack.db")
			if start == "empty" {
				if err := os.WriteFile(path, nil, 0o600); err != nil {
					t.Fatal(err)
				}
			}
			const n = 8
			var wg sync.WaitGroup
			errs := make(chan error, n)
			for i := range n {
				wg.Go(func() {
					s, err := Open(path, WithTimeout(20*time.Second))
					if err != nil {
						errs <- err
						return
					}
					if _, err := s.Put(Record{Kind: KindNote, Name: fmt.Sprint(i)}); err != nil {
						errs <- err
					}
					errs <- s.Close()
				})
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				if err != nil {
					t.Fatal(err)
				}
			}
			s, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if notes, err := s.List(KindNote); err != nil || len(notes) != n {
				t.Fatalf("%d notes (%v), want %d", len(notes), err, n)
			}
			entries, _ := os.ReadDir(filepath.Dir(path))
			if len(entries) != 1 {
				t.Fatalf("directory holds %v, want only the store", entries)
			}
		})
	}
}

// TestCreateUnderFileSizeLimit: a first Open whose writes fail (here a
// real `ulimit -f 1`, as a full disk would) fails with the reason and
// leaves no file behind, so the next Open creates a good store instead of
// refusing a stub as corrupt. The same holds for an empty file.
func TestCreateUnderFileSizeLimit(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("ulimit -f is exercised on Linux")
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	for _, start := range []string{"missing", "empty"} {
		t.Run(start, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "parthack.db")
			if start == "empty" {
				if err := os.WriteFile(path, nil, 0o600); err != nil {
					t.Fatal(err)
				}
			}
			// ulimit -f counts 1024-byte blocks: bbolt's first write
			// of four pages fails with EFBIG (Go ignores SIGXFSZ).
			cmd := exec.Command(sh, "-c", `ulimit -f 1 && exec "$0" -test.run='^TestHelperProcess$'`, os.Args[0])
			cmd.Env = append(os.Environ(), helperModeEnv+"=open", helperPathEnv+"="+path)
			out, err := cmd.CombinedOutput()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 2 {
				t.Fatalf("child under ulimit -f 1: %v, want exit 2\n%s", err, out)
			}
			msg := string(out)
			t.Logf("child: %s", msg)
			for _, m := range []string{"store " + path + ": create a new store: ", "file too large", "no file was left behind, the next start creates the store again"} {
				if !strings.Contains(msg, m) {
					t.Errorf("child said %q, want it to mention %q", msg, m)
				}
			}
			entries, err := os.ReadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, e := range entries {
				names = append(names, e.Name())
			}
			want := map[string]string{"missing": "[]", "empty": "[parthack.db]"}[start]
			if fmt.Sprint(names) != want {
				t.Fatalf("directory holds %v after the failed create, want %s", names, want)
			}
			if start == "empty" {
				if info, err := os.Stat(path); err != nil || info.Size() != 0 {
					t.Fatalf("the empty file became %v (%v)", info, err)
				}
			}
			s, err := Open(path)
			if err != nil {
				t.Fatalf("the next start: %v", err)
			}
			defer s.Close()
			mustPut(t, s, Record{Kind: KindWitness, Name: "w"})
		})
	}
}
