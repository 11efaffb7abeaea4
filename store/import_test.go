package store

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// withBatch sets importBatchBytes to n for the test.
func withBatch(t *testing.T, n int) {
	t.Helper()
	old := importBatchBytes
	importBatchBytes = n
	t.Cleanup(func() { importBatchBytes = old })
}

// importRecord is the i-th record of a test import: about 8 KiB.
func importRecord(i int) Record {
	return Record{Kind: KindWitness, Task: "T", Name: "imp-" + strconv.Itoa(i), Body: crashBody(i), Created: int64(i)}
}

// raw counts what the file holds, unseen records included: the keys of
// the witnesses bucket and the unpublished imports.
func raw(t *testing.T, s *Store) (keys, imports int) {
	t.Helper()
	err := s.db.View(func(tx *bolt.Tx) error {
		keys = tx.Bucket([]byte("witnesses")).Stats().KeyN
		return tx.Bucket(bucketImports).ForEachBucket(func([]byte) error { imports++; return nil })
	})
	if err != nil {
		t.Fatal(err)
	}
	return keys, imports
}

// TestImportPublishesAtOnce: whatever the batch size, no reader sees an
// import's records (by List, Names, Get, Put or Delete of their keys)
// until Commit, while records Put meanwhile are seen at once; after
// Commit all of them are there, in order, with their keys, those added
// with their body written in pieces (AddStream: chunked where the batch
// is smaller than a record) as those added whole.
func TestImportPublishesAtOnce(t *testing.T) {
	for _, batch := range []int{1, 40 << 10, 1 << 30} {
		t.Run(fmt.Sprint(batch), func(t *testing.T) {
			withBatch(t, batch)
			s := openTemp(t)
			before := mustPut(t, s, Record{Kind: KindWitness, Name: "before"})
			visible := []Record{before}
			im, err := s.BeginImport(KindWitness)
			if err != nil {
				t.Fatal(err)
			}
			var want []Record
			for i := range 30 {
				r := importRecord(i)
				add := func() error { return im.Add(r) }
				if i%2 == 1 { // its body written in pieces of 1, 2, 3, … bytes
					body := r.Body
					r.Body = []byte("not read")
					add = func() error { return im.AddStream(r, writePieces(body)) }
				}
				if err := add(); err != nil {
					t.Fatal(err)
				}
				if i == 10 { // another writer meanwhile
					visible = append(visible, mustPut(t, s, Record{Kind: KindWitness, Name: "meanwhile"}))
				}
				assertList(t, s, KindWitness, visible)
				if names, err := s.Names(KindWitness); err != nil || len(names) != len(visible) {
					t.Fatalf("Names = %v, %v during the import", names, err)
				}
				keys, _ := raw(t, s)
				for key := uint64(1); key <= uint64(keys)+1; key++ {
					if slicesHasKey(visible, key) {
						continue
					}
					if _, err := s.Get(KindWitness, key); !errors.Is(err, ErrNotFound) {
						t.Fatalf("Get of unpublished key %d: %v", key, err)
					}
					if _, err := s.Put(Record{Kind: KindWitness, Key: key}); !errors.Is(err, ErrNotFound) {
						t.Fatalf("Put over unpublished key %d: %v", key, err)
					}
					if err := s.Delete(KindWitness, key); !errors.Is(err, ErrNotFound) {
						t.Fatalf("Delete of unpublished key %d: %v", key, err)
					}
				}
			}
			n, err := im.Commit()
			if err != nil || n != 30 {
				t.Fatalf("Commit = %d, %v", n, err)
			}
			all, err := s.List(KindWitness)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range all {
				if !slicesHasKey(visible, r.Key) {
					want = append(want, r)
				}
			}
			if len(all) != 32 || len(want) != 30 {
				t.Fatalf("%d records after Commit, %d imported; want 32 and 30", len(all), len(want))
			}
			for i, r := range want {
				exp := importRecord(i)
				exp.Key = r.Key
				if r.Name != exp.Name || r.Task != exp.Task || !bytes.Equal(r.Body, exp.Body) || r.Created != exp.Created {
					t.Fatalf("imported record %d = %s %q, want %q", i, r.Name, r.Task, exp.Name)
				}
				if i > 0 && r.Key <= want[i-1].Key {
					t.Fatalf("keys out of order: %d after %d", r.Key, want[i-1].Key)
				}
			}
			if _, imports := raw(t, s); imports != 0 {
				t.Fatalf("%d imports left after Commit", imports)
			}
			if err := im.Add(importRecord(0)); err == nil {
				t.Fatal("Add after Commit succeeded")
			}
		})
	}
}

// writePieces is an AddStream body writer of body in pieces of 1, 2, 3,
// … bytes.
func writePieces(body []byte) func(io.Writer) error {
	return func(w io.Writer) error {
		for n := 1; len(body) > 0; n++ {
			k := min(n, len(body))
			if _, err := w.Write(body[:k]); err != nil {
				return err
			}
			body = body[k:]
		}
		return nil
	}
}

func slicesHasKey(rs []Record, key uint64) bool {
	for _, r := range rs {
		if r.Key == key {
			return true
		}
	}
	return false
}

// TestImportAbort: Abort removes every record written, whatever the
// batches, and leaves no import behind; a wrong record is refused.
func TestImportAbort(t *testing.T) {
	withBatch(t, 40<<10)
	s := openTemp(t)
	before := mustPut(t, s, Record{Kind: KindWitness, Name: "before"})
	im, err := s.BeginImport(KindWitness)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 25 {
		if err := im.Add(importRecord(i)); err != nil {
			t.Fatal(err)
		}
	}
	if keys, imports := raw(t, s); keys < 21 || imports != 1 {
		t.Fatalf("before Abort the file holds %d keys and %d imports; want at least 21 and 1", keys, imports)
	}
	for _, bad := range []Record{{Kind: KindNote}, {Kind: KindWitness, Key: 1}} {
		if err := im.Add(bad); err == nil || !strings.Contains(err.Error(), "an import of witness records adds new records of kind witness") {
			t.Errorf("Add(%+v) = %v", bad, err)
		}
	}
	if err := im.Abort(); err != nil {
		t.Fatal(err)
	}
	assertList(t, s, KindWitness, []Record{before})
	if keys, imports := raw(t, s); keys != 1 || imports != 0 {
		t.Fatalf("after Abort the file holds %d keys and %d imports; want 1 and 0", keys, imports)
	}
	if _, err := im.Commit(); err == nil {
		t.Fatal("Commit after Abort succeeded")
	}
	if _, err := s.BeginImport("Note"); err == nil {
		t.Fatal("BeginImport of an unknown kind succeeded")
	}
}

// TestImportBoundedTransactions: an import of 2.4 MB writes no
// transaction much larger than the batch bound (bbolt holds a
// transaction's pages in memory until it commits), and publishes in a
// transaction that does not grow with the records.
func TestImportBoundedTransactions(t *testing.T) {
	const batch = 64 << 10
	withBatch(t, batch)
	s := openTemp(t)
	im, err := s.BeginImport(KindWitness)
	if err != nil {
		t.Fatal(err)
	}
	alloc := func() int64 { st := s.db.Stats(); return st.TxStats.GetPageAlloc() }
	// A batch, one record more, then the pages above the values: the
	// branches, the list of keys, the freelist, the roots.
	limit := int64(2*(batch+len(encode(importRecord(0)))) + 16*pageSize)
	// 296 records of 8,210 bytes fill 37 batches of 8: Commit only publishes.
	prev, txs, total, largest := alloc(), 0, 0, int64(0)
	for i := range 296 {
		r := importRecord(i)
		total += len(encode(r))
		if err := im.Add(r); err != nil {
			t.Fatal(err)
		}
		if d := alloc() - prev; d > 0 {
			txs++
			largest = max(largest, d)
			if d > limit {
				t.Fatalf("add %d: a transaction allocated %d bytes, want at most %d", i, d, limit)
			}
		}
		prev = alloc()
	}
	if _, err := im.Commit(); err != nil {
		t.Fatal(err)
	}
	if d := alloc() - prev; d > 8*int64(pageSize) {
		t.Errorf("the publication allocated %d bytes, want at most 8 pages", d)
	}
	t.Logf("%d bytes of records in %d transactions, the largest allocating %d bytes", total, txs, largest)
	if want := total/(batch+len(encode(importRecord(0)))) - 1; txs < want {
		t.Errorf("%d bytes of records in %d transactions, want at least %d", total, txs, want)
	}
}

// TestImportInterrupted: an import stopped between its transactions (the
// store closed without Commit or Abort, as a killed process leaves it)
// is unseen by a read-only open and removed by the next writable one.
func TestImportInterrupted(t *testing.T) {
	withBatch(t, 40<<10)
	path := filepath.Join(t.TempDir(), "parthack.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	before := mustPut(t, s, Record{Kind: KindWitness, Name: "before"})
	im, err := s.BeginImport(KindWitness)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 25 {
		if err := im.Add(importRecord(i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	ro, err := Open(path, WithReadOnly())
	if err != nil {
		t.Fatal(err)
	}
	assertList(t, ro, KindWitness, []Record{before})
	if keys, imports := raw(t, ro); keys < 21 || imports != 1 {
		t.Fatalf("the interrupted import left %d keys and %d imports; want at least 21 and 1", keys, imports)
	}
	ro.Close()
	s, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	assertList(t, s, KindWitness, []Record{before})
	if keys, imports := raw(t, s); keys != 1 || imports != 0 {
		t.Fatalf("after the next open the file holds %d keys and %d imports; want 1 and 0", keys, imports)
	}
}

// helperStepEnv makes the "import" child wait for a byte on stdin before
// each Add and before Commit, so that a kill lands at a known point.
const helperStepEnv = "PARTHACK_STORE_STEP"

// TestImportKilled: a process killed during an import leaves none of the
// import's records or all of them: none if it had not begun to publish,
// all once it had, whether the kill lands between transactions (steps)
// or at any moment (free). The next open removes what it left.
func TestImportKilled(t *testing.T) {
	const n = 120 // records of 8 KiB; the child writes 64 KiB a transaction
	tests := []struct {
		mode  string // "step": the child did exactly `after` steps; "free": at least `after` Adds
		after int
	}{
		{"step", 0}, {"step", 1}, {"step", 9}, {"step", 77}, {"step", n}, {"step", n + 1},
		{"free", 1}, {"free", 30}, {"free", 90}, {"free", n - 1}, {"free", n},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.mode, tt.after), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "parthack.db")
			s, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			before := mustPut(t, s, Record{Kind: KindWitness, Name: "before"})
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			if tt.mode == "step" {
				t.Setenv(helperStepEnv, "1")
			}
			cmd, lines, stdin := startHelper(t, "import", path)
			// The child prints a line after each Add and one after Commit.
			for got := 0; got < tt.after; got++ {
				if tt.mode == "step" {
					if _, err := stdin.(io.Writer).Write([]byte{1}); err != nil {
						t.Fatal(err)
					}
				}
				if !lines.Scan() {
					t.Fatalf("child stopped after %d lines: %v", got, lines.Err())
				}
			}
			if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			_ = cmd.Wait()

			ro, err := Open(path, WithReadOnly())
			if err != nil {
				t.Fatalf("read-only open after the kill: %v", err)
			}
			seen, err := ro.List(KindWitness)
			if err != nil {
				t.Fatal(err)
			}
			keys, _ := raw(t, ro)
			ro.Close()
			switch {
			case len(seen) != 1 && len(seen) != n+1:
				t.Fatalf("%d records seen after the kill, want 1 or %d", len(seen), n+1)
			case tt.mode == "step" && tt.after <= n && len(seen) != 1:
				t.Fatalf("killed before Commit: %d records seen, want only the one before", len(seen))
			case tt.mode == "step" && tt.after > n && len(seen) != n+1:
				t.Fatalf("killed after Commit: %d records seen, want %d", len(seen), n+1)
			case tt.mode == "step" && tt.after >= 9 && keys < 9:
				t.Fatalf("killed after a transaction of the import: the file holds %d keys, want at least 9", keys)
			}
			for i, r := range seen[1:] {
				if r.Name != importRecord(i).Name || !bytes.Equal(r.Body, killBody(i)) {
					t.Fatalf("record %d: %q, torn or out of order", i, r.Name)
				}
			}

			s, err = Open(path)
			if err != nil {
				t.Fatalf("open after the kill: %v", err)
			}
			defer s.Close()
			if keys, imports := raw(t, s); keys != len(seen) || imports != 0 {
				t.Fatalf("after the next open the file holds %d keys and %d imports; want %d and 0", keys, imports, len(seen))
			}
			if want := 3 * 5 * min(1, len(seen)-1); chunks(t, s) != want {
				t.Fatalf("after the next open the file holds %d chunks of bodies; want %d", chunks(t, s), want)
			}
			if got, err := s.Get(KindWitness, before.Key); err != nil || got.Name != "before" {
				t.Fatalf("the record before the import: %+v, %v", got, err)
			}
		})
	}
}

// killBody is the body of record i of helperImport: records 20, 60 and
// 100 are 40 times longer than the others, five chunks of 64 KiB.
func killBody(i int) []byte {
	if i%40 == 20 {
		return bytes.Repeat(crashBody(i), 40)
	}
	return crashBody(i)
}

// helperImport is TestHelperProcess's "import" mode: it imports 120
// records in 64 KiB transactions, their bodies written in pieces
// (killBody: three of them chunked), printing a line after each Add and
// one after Commit, then holds the store until killed. With
// helperStepEnv set it reads a byte from stdin before each Add and
// before Commit.
func helperImport(s *Store) {
	importBatchBytes = 64 << 10
	step := func() {
		if os.Getenv(helperStepEnv) != "" {
			if _, err := os.Stdin.Read(make([]byte, 1)); err != nil {
				os.Exit(0)
			}
		}
	}
	im, err := s.BeginImport(KindWitness)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	for i := range 120 {
		step()
		if err := im.AddStream(importRecord(i), writePieces(killBody(i))); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		fmt.Println("added", i)
	}
	step()
	if _, err := im.Commit(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	fmt.Println("published")
	_, _ = io.Copy(io.Discard, os.Stdin)
}
