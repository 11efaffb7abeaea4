package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	bolt "go.etcd.io/bbolt"
)

// A new store is created whole or not at all: it is built in a temporary
// file in the same directory (bbolt's initial pages, then every
// migration), synced, and only then given its name, by a hard link that
// cannot replace a store another process created meanwhile. A failed first
// write (a full disk, a file size limit) leaves nothing behind, so the next
// start creates the store again instead of finding a stub it would call
// corrupt.

// createIfMissing creates a new store at path when there is no file, or
// when the file is empty (a stub left by an older parthack, or a file a
// user created by hand). Any other file is left as it is, for Open.
// created says that there was no file and this call made one.
func createIfMissing(path string, timeout time.Duration) (created bool, err error) {
	for range 3 {
		info, err := os.Stat(path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			err = createNew(path)
			created = err == nil
		case err == nil && info.Mode().IsRegular() && info.Size() == 0:
			err = replaceEmpty(path, timeout)
		default:
			return false, nil // Open reports whatever else is wrong
		}
		if !errors.Is(err, errRace) {
			return created, err
		}
		// Another process created or replaced the file meanwhile: look again.
	}
	return false, nil
}

// errRace means another process changed the file while this one was
// creating it.
var errRace = errors.New("the store file changed meanwhile")

// createNew builds a store in a temporary file and links it to path.
func createNew(path string) error {
	tmp, err := buildTemp(path)
	if err != nil {
		return err
	}
	defer os.Remove(tmp)
	if err := os.Link(tmp, path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return errRace
		}
		// A file system without hard links: rename, which could
		// replace a store created in the last instant; there is no
		// better choice there.
		if err := os.Rename(tmp, path); err != nil {
			return fmt.Errorf("create: %w", err)
		}
	}
	return syncDir(filepath.Dir(path))
}

// replaceEmpty replaces the empty file at path by a new store, holding
// the file's lock so that no other parthack opens it meanwhile.
func replaceEmpty(path string, timeout time.Duration) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil // Open reports it
	}
	defer f.Close()
	if err := lockFile(f, timeout); err != nil {
		return err
	}
	defer unlock(f)
	// Still the same, still empty file under that name?
	held, err1 := f.Stat()
	named, err2 := os.Stat(path)
	if err1 != nil || err2 != nil || !os.SameFile(held, named) || held.Size() != 0 {
		return errRace
	}
	tmp, err := buildTemp(path)
	if err != nil {
		return err
	}
	defer os.Remove(tmp)
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("create: %w", err)
	}
	return syncDir(filepath.Dir(path))
}

// buildTemp builds a complete, synced store in a new temporary file next
// to path and returns its name; on failure it removes the file.
func buildTemp(path string) (name string, err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".new-*")
	if err != nil {
		return "", fmt.Errorf("create: %w", err)
	}
	tmp := f.Name()
	_ = f.Close()
	defer func() {
		if err != nil {
			_ = os.Remove(tmp)
		}
	}()
	name = tmp
	db, err := bolt.Open(name, 0o600, &bolt.Options{Timeout: defaultTimeout, FreelistType: bolt.FreelistArrayType})
	if err != nil {
		return "", fmt.Errorf("create a new store: %w", err)
	}
	s := &Store{db: db, path: name}
	if err := s.migrate(); err != nil {
		_ = db.Close()
		return "", fmt.Errorf("create a new store: %w", err)
	}
	if err := db.Close(); err != nil {
		return "", fmt.Errorf("create a new store: %w", err)
	}
	// bbolt syncs its writes; sync once more so that the size and the
	// data are on disk before the name is.
	f, err = os.OpenFile(name, os.O_RDWR, 0)
	if err != nil {
		return "", fmt.Errorf("create a new store: %w", err)
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", fmt.Errorf("create a new store: sync: %w", err)
	}
	return name, nil
}

// syncDir makes a new name in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return nil // nothing to sync on this system
	}
	defer d.Close()
	_ = d.Sync() // some file systems cannot sync a directory; the rename stands
	return nil
}
