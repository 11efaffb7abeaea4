// Package store persists witnesses, notes and runs in one bbolt file.
//
// The file holds one bucket of store-wide metadata and one bucket per Kind
// (names and keys are declared in buckets.go):
//
//	(root)
//	├── meta
//	│   ├── magic          = "parthack-store"
//	│   └── schema_version = uint32, big-endian (currently 3)
//	├── witnesses
//	│   └── <key>          = record
//	├── notes
//	│   └── <key>          = record
//	├── runs
//	│   └── <key>          = record
//	├── imports            (schema 2)
//	│   └── <id>           one unpublished import
//	│       ├── kind       = the bucket its records are in, e.g. "witnesses"
//	│       └── keys
//	│           └── <key>  = "" (that bucket's record <key> is the import's)
//	└── bodies             (schema 3)
//	    └── witnesses, notes, runs
//	        └── <key><i>   = chunk i (uint32, big-endian) of record <key>'s body
//
// A <key> is a uint64, big-endian, taken from the bucket's NextSequence, so
// bbolt's byte order is creation order. A record is
//
//	0x01 | uvarint len, Task | uvarint len, Name | uvarint len, Note | varint Created | Body
//
// where the leading byte is the record encoding version and Body runs to the
// end of the value, verbatim; or, for a body too long for one import
// transaction (chunks.go),
//
//	0x02 | uvarint len, Task | uvarint len, Name | uvarint len, Note | varint Created | uvarint chunks | uvarint body length
//
// with the body in chunks under bodies.
//
// Open creates a new store atomically (create.go), runs pending schema
// migrations (migrations.go) in one transaction, removes the records of
// imports a crash interrupted (import.go), and refuses files that are
// locked by another process, truncated (header.go), corrupt, foreign, or
// written by a newer parthack. Readers never see a record of an import
// that is not published.
package store

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"syscall"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// Kind says which bucket a Record lives in.
type Kind string

// The record kinds a store holds.
const (
	KindWitness Kind = "witness" // a hand-crafted or attacker candidate trajectory
	KindNote    Kind = "note"
	KindRun     Kind = "run" // a benchmark / attacker run with its ledger
)

// Record is one stored witness, note or run.
type Record struct {
	Kind    Kind
	Key     uint64 // assigned by Put when 0: the bucket's NextSequence, so keys sort by creation
	Task    string // task id, e.g. "PH-H05"; may be empty for runs over the whole suite
	Name    string // user-visible name
	Note    string // free text
	Body    []byte // opaque payload (JSON written by the caller); stored verbatim
	Created int64  // logical creation counter supplied by the caller (NOT wall clock; determinism); Put keeps what it is given
}

// Sentinel errors. The store wraps them with the file path and what to do,
// so callers test with errors.Is and show err.Error() as is.
var (
	// ErrLocked means another process has the store open.
	ErrLocked = errors.New("store is locked")
	// ErrNotFound means no record has the requested kind and key.
	ErrNotFound = errors.New("record not found")
	// ErrCorrupt means the file is not a readable bbolt database or holds
	// malformed data.
	ErrCorrupt = errors.New("store file is corrupt or not a bbolt database")
	// ErrForeign means the file is a bbolt database but not a parthack store.
	ErrForeign = errors.New("not a parthack store")
	// ErrNewerSchema means the file was written by a newer parthack.
	ErrNewerSchema = errors.New("store has a newer schema")
)

const defaultTimeout = time.Second

// Option configures Open.
type Option func(*options)

type options struct {
	timeout  time.Duration
	readOnly bool
}

// WithTimeout sets how long Open waits for another process to release the
// file before failing with ErrLocked. Non-positive values keep the default
// of one second: bbolt would read zero as "wait forever".
func WithTimeout(d time.Duration) Option {
	return func(o *options) {
		if d > 0 {
			o.timeout = d
		}
	}
}

// WithReadOnly opens an existing store without write access. Several
// read-only opens may share a file, but not with a read-write open.
func WithReadOnly() Option {
	return func(o *options) { o.readOnly = true }
}

// Store is an open parthack store. Its methods are safe for concurrent use.
type Store struct {
	db       *bolt.DB
	path     string
	readOnly bool
	created  bool // this Open made the file (Abandon removes it)
}

// DefaultPath returns $XDG_DATA_HOME/parthack/parthack.db, falling back to
// ~/.local/share/parthack/parthack.db when XDG_DATA_HOME is unset or not
// absolute (the XDG spec says to ignore relative values).
func DefaultPath() (string, error) {
	dir := os.Getenv("XDG_DATA_HOME")
	if !filepath.IsAbs(dir) {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("store: default path: %w", err)
		}
		dir = filepath.Join(home, ".local", "share")
	}
	return filepath.Join(dir, "parthack", "parthack.db"), nil
}

// MakeDir creates the directory of a store's path, private to the user,
// when it is missing: for parthack's own default store. Open never
// creates a directory, so that a mistyped path is an error, not a tree.
func MakeDir(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("store %s: create directory: %w", path, err)
	}
	return nil
}

// Open opens the store at path, creating the file unless read-only (its
// directory must exist: MakeDir), and migrates it to the current schema
// version. A new store is created atomically (create.go); a file shorter
// than its bbolt header says is refused with ErrTruncated before bbolt
// reads it (header.go); unless read-only, the records of an import a
// crash interrupted are removed (import.go).
func Open(path string, opts ...Option) (*Store, error) {
	o := options{timeout: defaultTimeout}
	for _, opt := range opts {
		opt(&o)
	}
	for range 3 {
		s, err := open(path, o)
		if !errors.Is(err, errRace) {
			return s, err
		}
		// The file this open locked was removed or replaced meanwhile
		// (Abandon): open the file the name holds now.
	}
	return nil, fmt.Errorf("store %s: the file changed under every open; retry", path)
}

func open(path string, o options) (*Store, error) {
	created := false
	if !o.readOnly {
		if dir := filepath.Dir(path); !isDir(dir) {
			return nil, fmt.Errorf("store %s: no directory %s: a store is made only in a directory that exists", path, dir)
		}
		var err error
		if created, err = createIfMissing(path, o.timeout); err != nil {
			if errors.Is(err, ErrLocked) {
				return nil, fmt.Errorf("store %s: %w", path, err)
			}
			return nil, fmt.Errorf("store %s: %w; no file was left behind, the next start creates the store again", path, err)
		}
	}
	if err := checkHeader(path); err != nil {
		return nil, fmt.Errorf("store %s: %w; move the file aside to start a fresh store", path, err)
	}
	var locked *os.File
	db, err := openBolt(path, &bolt.Options{
		Timeout:      o.timeout,
		ReadOnly:     o.readOnly,
		FreelistType: bolt.FreelistArrayType,
	}, &locked)
	if err != nil {
		return nil, openError(path, err)
	}
	if !stillNamed(locked, path) {
		_ = db.Close()
		return nil, errRace
	}
	s := &Store{db: db, path: path, readOnly: o.readOnly, created: created}
	if err := guard(s.migrate); err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("store %s: %w", path, err)
	}
	if !o.readOnly {
		if err := s.dropUnfinished(); err != nil {
			_ = db.Close()
			return nil, fmt.Errorf("store %s: %w", path, err)
		}
	}
	return s, nil
}

// isDir reports whether dir is a directory.
func isDir(dir string) bool {
	info, err := os.Stat(dir)
	return err == nil && info.IsDir()
}

// stillNamed reports whether path still names the file f, opened (and
// locked) under it: another process's Abandon may have removed that file
// while this one waited for its lock.
func stillNamed(f *os.File, path string) bool {
	held, err1 := f.Stat()
	named, err2 := os.Stat(path)
	return err1 == nil && err2 == nil && os.SameFile(held, named)
}

// openBolt is bolt.Open made safe against damaged files (see guard); f
// is set to the file bbolt opened.
func openBolt(path string, o *bolt.Options, opened **os.File) (*bolt.DB, error) {
	var f *os.File
	o.OpenFile = func(name string, flag int, perm os.FileMode) (*os.File, error) {
		var err error
		f, err = os.OpenFile(name, flag, perm)
		*opened = f
		return f, err
	}
	var db *bolt.DB
	err := guard(func() (err error) {
		db, err = bolt.Open(path, 0o600, o)
		return err
	})
	// Only a panic yields ErrCorrupt here, and bbolt cleans up after its
	// ordinary errors but not after a panic: release the file ourselves.
	if errors.Is(err, ErrCorrupt) && f != nil {
		unlock(f)
		_ = f.Close()
	}
	return db, err
}

// guard runs fn and reports a bbolt panic as ErrCorrupt. bbolt trusts the
// page ids it reads from the file, so damaged pages make it panic or read
// outside its memory map; SetPanicOnFault turns such a read into a
// recoverable panic instead of a crash.
func guard(fn func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%w: bbolt: %v", ErrCorrupt, p)
		}
	}()
	return fn()
}

// openError turns a bolt.Open failure into an error a user can act on.
func openError(path string, err error) error {
	var pathErr *fs.PathError
	var errno syscall.Errno
	switch {
	case errors.Is(err, berrors.ErrTimeout):
		return fmt.Errorf("store %s: another parthack process holds the file; close it and retry: %w", path, ErrLocked)
	case errors.Is(err, ErrCorrupt):
		return fmt.Errorf("store %s: %w; move the file aside to start a fresh store", path, err)
	case errors.As(err, &pathErr), errors.As(err, &errno):
		// Permissions, missing file in read-only mode, flock unsupported:
		// the OS error already says what is wrong.
		return fmt.Errorf("store %s: open: %w", path, err)
	default:
		// Everything else bbolt reports while reading its meta pages
		// (ErrInvalid, ErrVersionMismatch, ErrChecksum, "file size too
		// small") means the bytes are not a usable bbolt database.
		return fmt.Errorf("store %s: %w (%v); move the file aside to start a fresh store", path, ErrCorrupt, err)
	}
}

// Close releases the file and its lock.
func (s *Store) Close() error {
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("store %s: close: %w", s.path, err)
	}
	return nil
}

// Abandon closes the store after a command that failed (after its
// imports are aborted): a store file its Open created is removed when it
// holds no record, while still locked, so that a process waiting for the
// lock opens the name again (Open) instead of the removed file; a store
// that existed, or that another process wrote to meanwhile, is closed as
// it is. A failed command leaves no store it made.
func (s *Store) Abandon() error {
	if s.created && s.empty() {
		if err := os.Remove(s.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			_ = s.db.Close()
			return fmt.Errorf("store %s: remove the store this command created: %w", s.path, err)
		}
	}
	return s.Close()
}

// empty reports whether the store holds no record of any kind.
func (s *Store) empty() bool {
	empty := true
	err := guard(func() error {
		return s.db.View(func(tx *bolt.Tx) error {
			for _, kb := range kindBuckets {
				if b := tx.Bucket(kb.name); b != nil {
					if k, _ := b.Cursor().First(); k != nil {
						empty = false
					}
				}
			}
			return nil
		})
	})
	return err == nil && empty
}

// Path returns the file the store was opened from.
func (s *Store) Path() string { return s.path }

// SchemaVersion returns the schema version recorded in the file.
func (s *Store) SchemaVersion() (int, error) {
	var v int
	err := guard(func() error {
		return s.db.View(func(tx *bolt.Tx) (err error) {
			v, err = readVersion(tx)
			return err
		})
	})
	if err != nil {
		return 0, fmt.Errorf("store %s: schema version: %w", s.path, err)
	}
	return v, nil
}

// Put inserts r when r.Key is 0, assigning the next key of its kind, or
// replaces the existing record with r.Key (ErrNotFound if there is none, so
// a record deleted elsewhere is not silently resurrected). It returns r with
// its Key set.
func (s *Store) Put(r Record) (Record, error) {
	err := s.update(r.Kind, func(b *bolt.Bucket, hidden func([]byte) bool) error {
		if r.Key == 0 {
			seq, err := b.NextSequence()
			if err != nil {
				return err
			}
			r.Key = seq
		} else if k := uintToKey(r.Key); b.Get(k) == nil || hidden(k) {
			return fmt.Errorf("replace key %d: %w", r.Key, ErrNotFound)
		} else if err := dropChunks(b.Tx(), r.Kind, k); err != nil {
			return err
		}
		return b.Put(uintToKey(r.Key), encode(r))
	})
	if err != nil {
		return Record{}, fmt.Errorf("store %s: put %s: %w", s.path, r.Kind, err)
	}
	return r, nil
}

// Get returns the record of kind with key, or an error wrapping ErrNotFound.
func (s *Store) Get(kind Kind, key uint64) (Record, error) {
	var r Record
	err := s.view(kind, func(b *bolt.Bucket, hidden func([]byte) bool) error {
		k := uintToKey(key)
		v := b.Get(k)
		if v == nil || hidden(k) {
			return ErrNotFound
		}
		bodies, err := bodiesOf(b.Tx(), bucketOf(kind))
		if err != nil {
			return err
		}
		r, err = decode(kind, k, v, bodies)
		return err
	})
	if err != nil {
		return Record{}, fmt.Errorf("store %s: get %s %d: %w", s.path, kind, key, err)
	}
	return r, nil
}

// List returns every record of kind, Body included, in ascending Key order,
// which is creation order.
func (s *Store) List(kind Kind) ([]Record, error) {
	return s.list(kind, true)
}

// Heads returns every record of kind as List does but without its Body:
// a listing of a store costs its records' heads, not their bodies.
func (s *Store) Heads(kind Kind) ([]Record, error) {
	return s.list(kind, false)
}

func (s *Store) list(kind Kind, bodies bool) ([]Record, error) {
	var out []Record
	err := s.view(kind, func(b *bolt.Bucket, hidden func([]byte) bool) error {
		chunks, err := bodiesOf(b.Tx(), bucketOf(kind))
		if err != nil {
			return err
		}
		return b.ForEach(func(k, v []byte) error {
			if hidden(k) {
				return nil
			}
			r, body, c, err := decodeHead(kind, k, v)
			switch {
			case err != nil:
				return err
			case bodies && c.n > 0:
				if r.Body, err = readChunks(kind, r.Key, c, chunks); err != nil {
					return err
				}
			case bodies && len(body) > 0:
				r.Body = bytes.Clone(body)
			}
			out = append(out, r)
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("store %s: list %s: %w", s.path, kind, err)
	}
	return out, nil
}

// Names returns the Name of every record of kind, in List's order,
// without reading their bodies: what a caller needs to tell a new name
// from a taken one costs the names, not the store.
func (s *Store) Names(kind Kind) ([]string, error) {
	var out []string
	err := s.view(kind, func(b *bolt.Bucket, hidden func([]byte) bool) error {
		return b.ForEach(func(k, v []byte) error {
			if hidden(k) {
				return nil
			}
			name, err := decodeName(kind, k, v)
			if err != nil {
				return err
			}
			out = append(out, name)
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("store %s: list %s names: %w", s.path, kind, err)
	}
	return out, nil
}

// Delete removes the record of kind with key, or returns an error wrapping
// ErrNotFound.
func (s *Store) Delete(kind Kind, key uint64) error {
	err := s.update(kind, func(b *bolt.Bucket, hidden func([]byte) bool) error {
		k := uintToKey(key)
		if b.Get(k) == nil || hidden(k) {
			return ErrNotFound
		}
		if err := dropChunks(b.Tx(), kind, k); err != nil {
			return err
		}
		return b.Delete(k)
	})
	if err != nil {
		return fmt.Errorf("store %s: delete %s %d: %w", s.path, kind, key, err)
	}
	return nil
}

func (s *Store) view(kind Kind, fn func(b *bolt.Bucket, hidden func(key []byte) bool) error) error {
	return s.withBucket(s.db.View, kind, fn)
}

func (s *Store) update(kind Kind, fn func(b *bolt.Bucket, hidden func(key []byte) bool) error) error {
	return s.withBucket(s.db.Update, kind, fn)
}

// withBucket runs fn on kind's bucket inside a transaction started by run;
// hidden tells fn which keys belong to an unpublished import.
func (s *Store) withBucket(run func(func(*bolt.Tx) error) error, kind Kind, fn func(b *bolt.Bucket, hidden func(key []byte) bool) error) error {
	name, ok := bucketName(kind)
	if !ok {
		return unknownKind(kind)
	}
	return guard(func() error {
		return run(func(tx *bolt.Tx) error {
			b := tx.Bucket(name)
			if b == nil {
				return fmt.Errorf("%w: bucket %q is missing", ErrCorrupt, name)
			}
			hidden := unpublished(tx, name)
			return fn(b, hidden)
		})
	})
}

// unknownKind is the error for a Kind the store has no bucket for.
func unknownKind(kind Kind) error {
	return fmt.Errorf("unknown record kind %q (want %q, %q or %q)", kind, KindWitness, KindNote, KindRun)
}
