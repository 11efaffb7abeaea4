package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

var allKinds = []Kind{KindWitness, KindNote, KindRun}

func openTemp(t testing.TB, opts ...Option) *Store {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), "parthack.db"), opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func mustPut(t testing.TB, s *Store, r Record) Record {
	t.Helper()
	got, err := s.Put(r)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func TestRoundTrip(t *testing.T) {
	for _, kind := range allKinds {
		t.Run(string(kind), func(t *testing.T) {
			s := openTemp(t)
			inputs := []Record{
				{Kind: kind, Task: "PH-H05", Name: "first", Note: "n", Body: []byte(`{"steps":[1,2]}`), Created: 7},
				{Kind: kind, Name: "binary body", Body: []byte{0, 0xff, '\n', 0x80}, Created: 3},
				{Kind: kind, Task: "PH-D01", Name: "no body", Created: 9},
			}
			var want []Record
			for i, in := range inputs {
				got := mustPut(t, s, in)
				in.Key = uint64(i + 1) // keys follow creation order, not Created
				if !reflect.DeepEqual(got, in) {
					t.Fatalf("Put returned %+v, want %+v", got, in)
				}
				want = append(want, in)
			}
			for _, w := range want {
				got, err := s.Get(kind, w.Key)
				if err != nil || !reflect.DeepEqual(got, w) {
					t.Fatalf("Get(%d) = %+v, %v; want %+v", w.Key, got, err, w)
				}
			}

			replaced := want[0]
			replaced.Name, replaced.Body = "renamed", []byte("new body")
			if got := mustPut(t, s, replaced); got.Key != want[0].Key {
				t.Fatalf("replace moved key %d to %d", want[0].Key, got.Key)
			}
			want[0] = replaced
			assertList(t, s, kind, want)

			if err := s.Delete(kind, want[1].Key); err != nil {
				t.Fatal(err)
			}
			if _, err := s.Get(kind, want[1].Key); !errors.Is(err, ErrNotFound) {
				t.Fatalf("Get after Delete: err = %v, want ErrNotFound", err)
			}
			if err := s.Delete(kind, want[1].Key); !errors.Is(err, ErrNotFound) {
				t.Fatalf("second Delete: err = %v, want ErrNotFound", err)
			}
			want = append(want[:1], want[2:]...)

			// A fresh insert after a delete still gets a new, higher key.
			if got := mustPut(t, s, Record{Kind: kind, Name: "later"}); got.Key != 4 {
				t.Fatalf("insert after delete got key %d, want 4", got.Key)
			}
			want = append(want, Record{Kind: kind, Key: 4, Name: "later"})

			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			s, err := Open(s.Path())
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			assertList(t, s, kind, want)
			for _, other := range allKinds {
				if other == kind {
					continue
				}
				if rs, err := s.List(other); err != nil || len(rs) != 0 {
					t.Fatalf("List(%s) = %v, %v; want empty: kinds must not share buckets", other, rs, err)
				}
			}
		})
	}
}

func assertList(t *testing.T, s *Store, kind Kind, want []Record) {
	t.Helper()
	got, err := s.List(kind)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("List(%s) =\n%+v\nwant\n%+v", kind, got, want)
	}
	heads, err := s.Heads(kind)
	if err != nil {
		t.Fatal(err)
	}
	bare := slices.Clone(want)
	for i := range bare {
		bare[i].Body = nil
	}
	if !reflect.DeepEqual(heads, bare) {
		t.Fatalf("Heads(%s) =\n%+v\nwant List's records without their bodies\n%+v", kind, heads, bare)
	}
}

func TestBadCalls(t *testing.T) {
	s := openTemp(t)
	tests := []struct {
		name string
		call func() error
		is   error // nil: any error will do
	}{
		{"put unknown kind", func() error { _, err := s.Put(Record{Kind: "witnesses"}); return err }, nil},
		{"get unknown kind", func() error { _, err := s.Get("", 1); return err }, nil},
		{"list unknown kind", func() error { _, err := s.List("Note"); return err }, nil},
		{"delete unknown kind", func() error { return s.Delete("runs", 1) }, nil},
		{"get missing", func() error { _, err := s.Get(KindNote, 1); return err }, ErrNotFound},
		{"replace missing", func() error { _, err := s.Put(Record{Kind: KindRun, Key: 5}); return err }, ErrNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call()
			if err == nil || (tt.is != nil && !errors.Is(err, tt.is)) {
				t.Fatalf("err = %v, want %v", err, tt.is)
			}
			if !strings.Contains(err.Error(), s.Path()) {
				t.Errorf("error %q does not name the store path", err)
			}
		})
	}
	// A failed replace must not have created the record or used a key.
	if got := mustPut(t, s, Record{Kind: KindRun}); got.Key != 1 {
		t.Fatalf("first run got key %d, want 1", got.Key)
	}
}

func TestDeterminism(t *testing.T) {
	feed := func(s *Store) map[Kind][]Record {
		for i := range 20 {
			kind := allKinds[i%len(allKinds)]
			r := mustPut(t, s, Record{Kind: kind, Task: fmt.Sprintf("PH-H%02d", i), Name: fmt.Sprint(i), Body: []byte(fmt.Sprint(i * i)), Created: int64(i)})
			if i%4 == 0 {
				r.Note = "edited"
				mustPut(t, s, r)
			}
			if i%5 == 0 {
				if err := s.Delete(kind, r.Key); err != nil {
					t.Fatal(err)
				}
			}
		}
		out := map[Kind][]Record{}
		for _, kind := range allKinds {
			rs, err := s.List(kind)
			if err != nil {
				t.Fatal(err)
			}
			out[kind] = rs
		}
		return out
	}
	a, b := feed(openTemp(t)), feed(openTemp(t))
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("same Puts, different stores:\n%+v\n%+v", a, b)
	}
}

// writeBolt creates a bbolt file at path and lets fn shape its contents.
func writeBolt(t *testing.T, path string, fn func(tx *bolt.Tx) error) {
	t.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: defaultTimeout})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(fn); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
}

func setVersion(v uint32) func(tx *bolt.Tx) error {
	return func(tx *bolt.Tx) error {
		return tx.Bucket(bucketMeta).Put(keySchemaVersion, binary.BigEndian.AppendUint32(nil, v))
	}
}

func TestOpenRejects(t *testing.T) {
	random := func(n int) func(*testing.T, string) {
		return func(t *testing.T, path string) {
			b := make([]byte, n)
			_, _ = rand.NewChaCha8([32]byte{byte(n)}).Read(b)
			if err := os.WriteFile(path, b, 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	text := func(t *testing.T, path string) {
		if err := os.WriteFile(path, []byte("witness: PH-H05\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	store := func(t *testing.T, path string) {
		s, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		mustPut(t, s, Record{Kind: KindWitness, Name: "w"})
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name    string
		setup   func(t *testing.T, path string)
		is      error
		mention []string
	}{
		{"random bytes small", random(100), ErrCorrupt, nil},
		{"random bytes one page", random(4096), ErrCorrupt, nil},
		{"random bytes many pages", random(1 << 16), ErrCorrupt, nil},
		{"text file", text, ErrCorrupt, nil},
		{"foreign bbolt", func(t *testing.T, path string) {
			writeBolt(t, path, func(tx *bolt.Tx) error {
				_, err := tx.CreateBucket([]byte("members"))
				return err
			})
		}, ErrForeign, []string{"members"}},
		{"meta bucket without magic", func(t *testing.T, path string) {
			writeBolt(t, path, func(tx *bolt.Tx) error {
				_, err := tx.CreateBucket(bucketMeta)
				return err
			})
		}, ErrForeign, nil},
		{"newer schema", func(t *testing.T, path string) {
			store(t, path)
			writeBolt(t, path, setVersion(4))
		}, ErrNewerSchema, []string{"version 4", "up to 3"}},
		{"damaged data pages", func(t *testing.T, path string) {
			store(t, path)
			// Keep bbolt's two meta pages valid so the damage is only
			// found when bbolt follows page ids into garbage.
			f, err := os.OpenFile(path, os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			info, err := f.Stat()
			if err != nil {
				t.Fatal(err)
			}
			garbage := make([]byte, info.Size()-int64(2*os.Getpagesize()))
			_, _ = rand.NewChaCha8([32]byte{42}).Read(garbage)
			if _, err := f.WriteAt(garbage, int64(2*os.Getpagesize())); err != nil {
				t.Fatal(err)
			}
		}, ErrCorrupt, nil},
		{"mangled schema version", func(t *testing.T, path string) {
			store(t, path)
			writeBolt(t, path, func(tx *bolt.Tx) error {
				return tx.Bucket(bucketMeta).Put(keySchemaVersion, []byte{1})
			})
		}, ErrCorrupt, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "parthack.db")
			tt.setup(t, path)
			for _, opts := range [][]Option{nil, {WithReadOnly()}} {
				s, err := Open(path, opts...)
				if err == nil {
					s.Close()
					t.Fatalf("Open(%d options) succeeded, want %v", len(opts), tt.is)
				}
				if !errors.Is(err, tt.is) {
					t.Fatalf("Open(%d options) = %v, want %v", len(opts), err, tt.is)
				}
				for _, m := range append(tt.mention, path) {
					if !strings.Contains(err.Error(), m) {
						t.Errorf("error %q does not mention %q", err, m)
					}
				}
			}
		})
	}
}

func TestOpenCreatesAndMigrates(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, path string)
	}{
		{"missing file", func(*testing.T, string) {}},
		{"empty file", func(t *testing.T, path string) {
			if err := os.WriteFile(path, nil, 0o600); err != nil {
				t.Fatal(err)
			}
		}},
		{"empty bbolt", func(t *testing.T, path string) {
			writeBolt(t, path, func(*bolt.Tx) error { return nil })
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "parthack.db")
			tt.setup(t, path)
			s, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if v, err := s.SchemaVersion(); err != nil || v != 3 {
				t.Fatalf("SchemaVersion = %d, %v; want 3", v, err)
			}
			for _, kind := range allKinds {
				if _, err := s.Put(Record{Kind: kind}); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// TestOpenMigratesOlderVersions: a store an older parthack wrote (schema
// 1, without the imports bucket; schema 2, without the chunked bodies)
// keeps its records, is refused read-only until opened once read-write,
// and then takes imports, a chunked body included.
func TestOpenMigratesOlderVersions(t *testing.T) {
	withBatch(t, 4<<10)
	for version := 1; version < len(migrations); version++ {
		t.Run(fmt.Sprint(version), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "parthack.db")
			old := []byte{recordVersion, 0, 1, 'w', 0, 2}
			writeBolt(t, path, func(tx *bolt.Tx) error {
				for _, m := range migrations[:version] {
					if err := m(tx); err != nil {
						return err
					}
				}
				if err := setVersion(uint32(version))(tx); err != nil {
					return err
				}
				b := tx.Bucket([]byte("witnesses"))
				if err := b.SetSequence(1); err != nil {
					return err
				}
				return b.Put(uintToKey(1), old)
			})
			want := fmt.Sprintf("schema version %d is older than %d; open it once without read-only", version, len(migrations))
			if _, err := Open(path, WithReadOnly()); err == nil || !strings.Contains(err.Error(), want) {
				t.Fatalf("read-only Open of a version-%d store: %v", version, err)
			}
			s, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if v, err := s.SchemaVersion(); err != nil || v != len(migrations) {
				t.Fatalf("SchemaVersion = %d, %v; want %d", v, err, len(migrations))
			}
			im, err := s.BeginImport(KindWitness)
			if err != nil {
				t.Fatal(err)
			}
			long := bytes.Repeat([]byte("chunk "), 3000)
			if err := im.AddStream(Record{Kind: KindWitness, Name: "new"}, func(w io.Writer) error { _, err := w.Write(long); return err }); err != nil {
				t.Fatal(err)
			}
			if _, err := im.Commit(); err != nil {
				t.Fatal(err)
			}
			assertList(t, s, KindWitness, []Record{{Kind: KindWitness, Key: 1, Name: "w", Created: 1}, {Kind: KindWitness, Key: 2, Name: "new", Body: long}})
		})
	}
}

func TestReadOnly(t *testing.T) {
	s := openTemp(t)
	want := mustPut(t, s, Record{Kind: KindNote, Task: "PH-H05", Name: "kept", Body: []byte("body")})
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	// Read-only opens take a shared lock, so two may coexist.
	var readers []*Store
	for range 2 {
		r, err := Open(s.Path(), WithReadOnly())
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		readers = append(readers, r)
	}
	for _, r := range readers {
		if got, err := r.Get(KindNote, want.Key); err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("Get = %+v, %v; want %+v", got, err, want)
		}
		assertList(t, r, KindNote, []Record{want})
		if _, err := r.Put(Record{Kind: KindNote}); !errors.Is(err, berrors.ErrDatabaseReadOnly) {
			t.Fatalf("Put on read-only store: err = %v, want ErrDatabaseReadOnly", err)
		}
	}

	missing := filepath.Join(t.TempDir(), "absent", "parthack.db")
	if _, err := Open(missing, WithReadOnly()); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("read-only Open of a missing file: err = %v, want ErrNotExist", err)
	}
	if _, err := os.Stat(filepath.Dir(missing)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("read-only Open created %s", filepath.Dir(missing))
	}
}

func TestDefaultPath(t *testing.T) {
	home := t.TempDir()
	tests := []struct {
		name, xdg, want string
	}{
		{"xdg set", "/data/xdg", "/data/xdg/parthack/parthack.db"},
		{"xdg unset", "", filepath.Join(home, ".local/share/parthack/parthack.db")},
		{"xdg relative is ignored", "rel/dir", filepath.Join(home, ".local/share/parthack/parthack.db")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("HOME", home)
			t.Setenv("XDG_DATA_HOME", tt.xdg)
			got, err := DefaultPath()
			if err != nil || got != tt.want {
				t.Fatalf("DefaultPath() = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

// TestMakeDirPrivate: the default store's directory is made private to
// the user.
func TestMakeDirPrivate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a", "b", "parthack.db")
	if err := MakeDir(path); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	info, err := os.Stat(filepath.Dir(path))
	if err != nil {
		t.Fatal(err)
	}
	if perm := info.Mode().Perm(); perm&0o077 != 0 {
		t.Fatalf("directory mode %v lets other users in", perm)
	}
	if s.Path() != path {
		t.Fatalf("Path() = %q, want %q", s.Path(), path)
	}
}

// TestOpenMakesNoDirectory: a store path in a directory that does not
// exist is refused, and no directory is made (a mistyped path is not a
// tree to create).
func TestOpenMakesNoDirectory(t *testing.T) {
	root := t.TempDir()
	_, err := Open(filepath.Join(root, "no", "such", "x.db"))
	if err == nil || !strings.Contains(err.Error(), "no directory "+filepath.Join(root, "no", "such")) {
		t.Fatalf("Open: %v, want no directory", err)
	}
	if entries, _ := os.ReadDir(root); len(entries) != 0 {
		t.Fatalf("Open left %v", entries)
	}
}

// TestAbandon: after a failed command, a store its Open created is
// removed; one that existed, or that holds a record, is kept.
func TestAbandon(t *testing.T) {
	for _, c := range []struct {
		name    string
		existed bool
		record  bool
		remains bool
	}{
		{"created", false, false, false},
		{"created, then written", false, true, true},
		{"existed", true, false, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "parthack.db")
			if c.existed {
				s, err := Open(path)
				if err != nil {
					t.Fatal(err)
				}
				s.Close()
			}
			s, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			if c.record {
				mustPut(t, s, Record{Kind: KindNote, Name: "n"})
			}
			if err := s.Abandon(); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(path); (err == nil) != c.remains {
				t.Fatalf("store remains: %v, want %v", err == nil, c.remains)
			}
		})
	}
}

// TestStillNamed: a file opened under a name that another process's
// Abandon then removed, and a new store took, is told apart, so that an
// Open that waited on the removed file's lock opens the name again
// instead of writing where no one will read.
func TestStillNamed(t *testing.T) {
	path := filepath.Join(t.TempDir(), "parthack.db")
	first, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	waiting, err := os.Open(path) // as a second Open holds it, waiting for the lock
	if err != nil {
		t.Fatal(err)
	}
	defer waiting.Close()
	if !stillNamed(waiting, path) {
		t.Fatal("the file under its name is not told as named")
	}
	if err := first.Abandon(); err != nil {
		t.Fatal(err)
	}
	if stillNamed(waiting, path) {
		t.Fatal("a removed file is told as still named")
	}
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if stillNamed(waiting, path) {
		t.Fatal("a removed file is told as the new store under its name")
	}
}

func BenchmarkPut(b *testing.B) {
	s := openTemp(b)
	body := bytes.Repeat([]byte(`{"step":"call tool"},`), 50)
	for b.Loop() {
		if _, err := s.Put(Record{Kind: KindWitness, Task: "PH-H05", Name: "bench", Body: body}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkList(b *testing.B) {
	s := openTemp(b)
	body := bytes.Repeat([]byte(`{"step":"call tool"},`), 50)
	for i := range 1000 {
		mustPut(b, s, Record{Kind: KindWitness, Task: "PH-H05", Name: fmt.Sprint(i), Body: body, Created: int64(i)})
	}
	for b.Loop() {
		rs, err := s.List(KindWitness)
		if err != nil || len(rs) != 1000 {
			b.Fatalf("List = %d records, %v", len(rs), err)
		}
	}
}
