package store

import (
	"bytes"
	"errors"
	"io"
	"path/filepath"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// chunks counts the chunks of witnesses' bodies the file holds.
func chunks(t *testing.T, s *Store) int {
	t.Helper()
	n := 0
	err := s.db.View(func(tx *bolt.Tx) error {
		n = tx.Bucket(bucketBodies).Bucket([]byte("witnesses")).Stats().KeyN
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// longBody is a body of n bytes that no shift of itself matches.
func longBody(n int) []byte {
	var b []byte
	for i := 0; len(b) < n; i++ {
		b = append(b, crashBody(i)...)
	}
	return b[:n]
}

// TestChunkedBody: a record whose body is 30 times an import
// transaction's bound is written in transactions that stay within the
// bound, and its chunks' leaves, whatever the pieces it is written in, and reads back whole by
// Get and List, in key order among the small records around it; Heads
// and Names do not read it. Replacing or deleting it removes its chunks.
func TestChunkedBody(t *testing.T) {
	const batch = 1 << 20
	withBatch(t, batch)
	body := longBody(30*batch + 123)
	for _, piece := range []int{1 << 30, 10 << 10, 7} {
		s := openTemp(t)
		im, err := s.BeginImport(KindWitness)
		if err != nil {
			t.Fatal(err)
		}
		alloc := func() int64 { st := s.db.Stats(); return st.TxStats.GetPageAlloc() }
		// A transaction's worth of chunks, the last leaf of the one
		// before rewritten (two or three chunks), the pages above.
		limit := int64(batch + 6*chunkBytes() + 16*pageSize)
		prev, largest := alloc(), int64(0)
		var records []Record
		watch := func() {
			// Pieces smaller than a chunk fill at most one chunk between
			// two looks: one transaction, whose pages bbolt held.
			if d := alloc() - prev; piece < batch && d > limit {
				t.Fatalf("pieces of %d: a transaction allocated %d bytes, want at most %d", piece, d, limit)
			} else if piece < batch {
				largest = max(largest, d)
			}
			prev = alloc()
		}
		for i := range 3 {
			r := importRecord(i)
			if err := im.Add(r); err != nil {
				t.Fatal(err)
			}
			watch()
			records = append(records, r)
		}
		long := Record{Kind: KindWitness, Task: "T", Name: "long", Note: "a long one", Created: 7}
		err = im.AddStream(long, func(w io.Writer) error {
			for rest := body; len(rest) > 0; {
				k := min(piece, len(rest))
				if _, err := w.Write(rest[:k]); err != nil {
					return err
				}
				rest = rest[k:]
				watch()
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		long.Body = body
		records = append(records, long, importRecord(3))
		if err := im.Add(importRecord(3)); err != nil {
			t.Fatal(err)
		}
		if _, err := im.Commit(); err != nil {
			t.Fatal(err)
		}
		watch()
		if got, want := chunks(t, s), (len(body)+chunkBytes()-1)/chunkBytes(); got != want {
			t.Fatalf("pieces of %d: %d chunks, want %d", piece, got, want)
		}
		all, err := s.List(KindWitness)
		if err != nil || len(all) != 5 {
			t.Fatalf("pieces of %d: List = %d records, %v; want 5", piece, len(all), err)
		}
		for i, r := range all {
			want := records[i]
			if r.Name != want.Name || r.Task != want.Task || r.Note != want.Note || r.Created != want.Created || !bytes.Equal(r.Body, want.Body) || r.Key != uint64(i+1) {
				t.Fatalf("pieces of %d: record %d = key %d %q (%d bytes), want key %d %q (%d bytes)", piece, i, r.Key, r.Name, len(r.Body), i+1, want.Name, len(want.Body))
			}
		}
		if got, err := s.Get(KindWitness, 4); err != nil || !bytes.Equal(got.Body, body) {
			t.Fatalf("Get of the long record: %d bytes, %v", len(got.Body), err)
		}
		if heads, err := s.Heads(KindWitness); err != nil || heads[3].Name != "long" || heads[3].Body != nil {
			t.Fatalf("Heads = %+v, %v", heads, err)
		}
		if _, err := s.Put(Record{Kind: KindWitness, Key: 4, Name: "short now"}); err != nil {
			t.Fatal(err)
		}
		if got := chunks(t, s); got != 0 {
			t.Fatalf("after replacing the long record: %d chunks left", got)
		}
		t.Logf("pieces of %d: the largest transaction allocated %d bytes", piece, largest)
	}
	s := openTemp(t)
	im, _ := s.BeginImport(KindWitness)
	if err := im.AddStream(Record{Kind: KindWitness, Name: "long"}, writePieces(body)); err != nil {
		t.Fatal(err)
	}
	if _, err := im.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(KindWitness, 1); err != nil {
		t.Fatal(err)
	}
	if got := chunks(t, s); got != 0 {
		t.Fatalf("after deleting the long record: %d chunks left", got)
	}
}

// TestChunkedBodyDropped: an import whose long record is aborted, failed
// by its writer or interrupted midway leaves no chunk, once aborted or
// once the store is next opened.
func TestChunkedBodyDropped(t *testing.T) {
	withBatch(t, 16<<10)
	body := longBody(40 * 16 << 10)
	failing := func(w io.Writer) error {
		if _, err := w.Write(body[:len(body)/2]); err != nil {
			return err
		}
		return errors.New("the run failed midway")
	}
	for _, end := range []string{"abort", "writer fails", "interrupted"} {
		t.Run(end, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "parthack.db")
			s, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			im, err := s.BeginImport(KindWitness)
			if err != nil {
				t.Fatal(err)
			}
			if err := im.Add(importRecord(0)); err != nil {
				t.Fatal(err)
			}
			write := writePieces(body)
			if end != "abort" {
				write = failing
			}
			err = im.AddStream(Record{Kind: KindWitness, Name: "long"}, write)
			if end != "abort" && (err == nil || !strings.Contains(err.Error(), "midway")) {
				t.Fatalf("AddStream = %v, want the writer's error", err)
			}
			if got := chunks(t, s); got < 10 {
				t.Fatalf("%d chunks written before the end, want at least 10", got)
			}
			if end == "interrupted" {
				if err := s.Close(); err != nil {
					t.Fatal(err)
				}
				if s, err = Open(path); err != nil {
					t.Fatal(err)
				}
			} else if err := im.Abort(); err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if got := chunks(t, s); got != 0 {
				t.Fatalf("%d chunks left", got)
			}
			if keys, imports := raw(t, s); keys != 0 || imports != 0 {
				t.Fatalf("%d keys and %d imports left", keys, imports)
			}
		})
	}
}

// TestChunkedBodyCorrupt: a chunked body with a chunk missing, or one
// more than its record says, is refused as corrupt, naming the record.
func TestChunkedBodyCorrupt(t *testing.T) {
	withBatch(t, 4<<10)
	for _, damage := range []struct {
		name, want string
		fn         func(b *bolt.Bucket) error
	}{
		{"missing", "witness 1: body chunk 3 of 10 is missing", func(b *bolt.Bucket) error { return b.Delete(chunkKey(uintToKey(1), 2)) }},
		{"longer", "witness 1: body chunks longer than the 40960 bytes recorded", func(b *bolt.Bucket) error {
			return b.Put(chunkKey(uintToKey(1), 9), make([]byte, 5000))
		}},
	} {
		t.Run(damage.name, func(t *testing.T) {
			s := openTemp(t)
			im, _ := s.BeginImport(KindWitness)
			if err := im.AddStream(Record{Kind: KindWitness, Name: "long"}, writePieces(longBody(40<<10))); err != nil {
				t.Fatal(err)
			}
			if _, err := im.Commit(); err != nil {
				t.Fatal(err)
			}
			err := s.db.Update(func(tx *bolt.Tx) error {
				return damage.fn(tx.Bucket(bucketBodies).Bucket([]byte("witnesses")))
			})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.Get(KindWitness, 1); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), damage.want) {
				t.Errorf("Get = %v, want ErrCorrupt with %q", err, damage.want)
			}
			if _, err := s.List(KindWitness); !errors.Is(err, ErrCorrupt) {
				t.Errorf("List = %v, want ErrCorrupt", err)
			}
			if names, err := s.Names(KindWitness); err != nil || len(names) != 1 {
				t.Errorf("Names = %v, %v: the head is whole", names, err)
			}
		})
	}
}
