// Package atomicfile writes files whole or not at all: the bytes go to a
// temporary file beside the target, are synced, and replace the target
// by rename, so a crash or kill mid-write never leaves half a witness or
// ledger behind. A Set does the same for several files, which appear
// together or not at all.
package atomicfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Write replaces path with data, atomically, with permissions perm.
func Write(path string, data []byte, perm os.FileMode) error {
	return WriteFunc(path, perm, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteFunc replaces path with what write writes, atomically, with
// permissions perm: a long file is written as it is made, never held
// whole.
func WriteFunc(path string, perm os.FileMode, write func(io.Writer) error) error {
	tmp, err := writeTemp(path, perm, write)
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// writeTemp writes what write writes, buffered and synced, to a new
// temporary file beside path and returns its name; on failure it leaves
// nothing.
func writeTemp(path string, perm os.FileMode, write func(io.Writer) error) (name string, err error) {
	if info, err := os.Stat(path); err == nil && info.IsDir() {
		return "", fmt.Errorf("write %s: is a directory", path)
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".*.tmp")
	if err != nil {
		return "", fmt.Errorf("write %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	bw := bufio.NewWriterSize(tmp, 256<<10)
	if err := write(bw); err != nil {
		return "", fmt.Errorf("write %s: %w", path, err)
	}
	if err := bw.Flush(); err != nil {
		return "", fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Chmod(perm); err != nil {
		return "", fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		return "", fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return "", fmt.Errorf("write %s: %w", path, err)
	}
	return tmp.Name(), nil
}

// A Set writes several files so that they appear together or not at
// all: each is written aside (Write) and Commit renames them all into
// place; Abort, or a failed Commit, removes what was written and the
// directories Dir made. A Set's zero value is ready; Abort after Commit
// does nothing, so `defer s.Abort()` is the way to use it.
type Set struct {
	staged []staged
	made   []string // directories Dir made, parents first
}

type staged struct{ tmp, path string }

// Dir makes dir and its missing parents, for files of the set; Abort
// removes those it made again.
func (s *Set) Dir(dir string, perm os.FileMode) error {
	var missing []string
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		info, err := os.Stat(d)
		if err == nil {
			if !info.IsDir() {
				return fmt.Errorf("make %s: %s is not a directory", dir, d)
			}
			break
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("make %s: %w", dir, err)
		}
		missing = append(missing, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	if err := os.MkdirAll(dir, perm); err != nil {
		return fmt.Errorf("make %s: %w", dir, err)
	}
	for i := len(missing) - 1; i >= 0; i-- {
		s.made = append(s.made, missing[i])
	}
	return nil
}

// Write writes data, to replace path when the set is committed.
func (s *Set) Write(path string, data []byte, perm os.FileMode) error {
	tmp, err := writeTemp(path, perm, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
	if err != nil {
		return err
	}
	s.staged = append(s.staged, staged{tmp, path})
	return nil
}

// Commit renames every file written into place. Each was written beside
// its target and checked not to be a directory, so a rename fails only
// where the file system fails; then the files not yet renamed are
// removed and the error says how many had been.
func (s *Set) Commit() error {
	for i, f := range s.staged {
		if err := os.Rename(f.tmp, f.path); err != nil {
			s.staged = s.staged[i:]
			s.made = nil // they hold the files already renamed
			s.Abort()
			return fmt.Errorf("write %s: %w (%d of the other files were written)", f.path, err, i)
		}
	}
	s.staged, s.made = nil, nil
	return nil
}

// Abort removes the files written and the directories Dir made (those
// left empty).
func (s *Set) Abort() {
	for _, f := range s.staged {
		os.Remove(f.tmp)
	}
	for i := len(s.made) - 1; i >= 0; i-- {
		os.Remove(s.made[i])
	}
	s.staged, s.made = nil, nil
}
