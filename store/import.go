package store

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"

	bolt "go.etcd.io/bbolt"
)

// An import saves many records all or none without holding them all in
// one transaction: bbolt keeps every page a transaction dirties in memory
// until it commits, so 200 MB of records in one transaction cost about a
// gigabyte. The records are written in transactions of a bounded size,
// straight into their kind's bucket, and each transaction also lists the
// keys it wrote under the import's own bucket in imports. Readers do not
// see a listed key; publishing deletes the list, in one small transaction,
// so every record of the import appears at once. A crash or kill before
// that leaves the list behind: the records stay unseen, and the next
// writable Open deletes them (in bounded transactions too, the list last,
// so a kill during the clean-up only leaves less to clean).

// importBatchBytes bounds the encoded records one import transaction
// writes (a single larger record gets a transaction of its own). A
// variable so that tests can shrink it.
var importBatchBytes = 4 << 20

// Import saves new records of one kind all or none, in bounded memory:
// Add the records, then Commit to publish them or Abort to remove them.
// Until Commit returns, no reader sees any of them, and a process killed
// at any moment leaves the store as if the import had not begun. An
// Import is used by one goroutine; other goroutines may use the Store
// meanwhile.
type Import struct {
	s     *Store
	kind  Kind
	name  []byte // the kind's bucket
	id    []byte // the import's bucket in imports
	batch [][]byte
	size  int
	added int
	done  bool
}

// BeginImport starts an import of new records of kind.
func (s *Store) BeginImport(kind Kind) (*Import, error) {
	name, ok := bucketName(kind)
	if !ok {
		return nil, fmt.Errorf("store %s: import: %w", s.path, unknownKind(kind))
	}
	im := &Import{s: s, kind: kind, name: name}
	err := guard(func() error {
		return s.db.Update(func(tx *bolt.Tx) error {
			imports, err := importsBucket(tx)
			if err != nil {
				return err
			}
			seq, err := imports.NextSequence()
			if err != nil {
				return err
			}
			im.id = uintToKey(seq)
			b, err := imports.CreateBucket(im.id)
			if err != nil {
				return err
			}
			if err := b.Put(keyImportKind, name); err != nil {
				return err
			}
			_, err = b.CreateBucket(keyImportKeys)
			return err
		})
	})
	if err != nil {
		return nil, fmt.Errorf("store %s: begin an import of %s records: %w", s.path, kind, err)
	}
	return im, nil
}

// Add adds a new record to the import; its Key is assigned as Put assigns
// it, when the record is written.
func (im *Import) Add(r Record) error {
	if err := im.check(r); err != nil {
		return err
	}
	return im.add(encode(r))
}

// AddStream is Add of a record whose body write writes to the writer it
// is given (model.WriteTrajectory; r.Body is not read). A body that fits
// one transaction goes into the record's value, as Add puts it; a longer
// one is written in chunks, each in a transaction of its own (chunks.go),
// so that neither the import nor bbolt ever holds it whole.
func (im *Import) AddStream(r Record, write func(io.Writer) error) error {
	if err := im.check(r); err != nil {
		return err
	}
	w := &bodyWriter{im: im, r: r, buf: appendHead(make([]byte, 0, headSize(r)+4096), recordVersion, r)}
	w.head = len(w.buf)
	if err := write(w); err != nil {
		return err
	}
	return w.close()
}

// check refuses a record the import cannot add.
func (im *Import) check(r Record) error {
	switch {
	case im.done:
		return fmt.Errorf("store %s: import: add after Commit or Abort", im.s.path)
	case r.Kind != im.kind || r.Key != 0:
		return fmt.Errorf("store %s: import: record %d: an import of %s records adds new records of kind %s", im.s.path, im.added, im.kind, im.kind)
	}
	return nil
}

// add adds an encoded record, writing the batch once it is large.
func (im *Import) add(v []byte) error {
	im.batch = append(im.batch, v)
	im.size += len(v)
	im.added++
	if im.size >= importBatchBytes {
		return im.flush()
	}
	return nil
}

// flush writes the records added since the last flush, in one
// transaction, with their keys listed as the import's.
func (im *Import) flush() error {
	if len(im.batch) == 0 {
		return nil
	}
	err := guard(func() error {
		return im.s.db.Update(func(tx *bolt.Tx) error {
			b, keys, err := im.buckets(tx)
			if err != nil {
				return err
			}
			for _, v := range im.batch {
				seq, err := b.NextSequence()
				if err != nil {
					return err
				}
				k := uintToKey(seq)
				if err := keys.Put(k, []byte{}); err != nil {
					return err
				}
				if err := b.Put(k, v); err != nil {
					return err
				}
			}
			return nil
		})
	})
	if err != nil {
		return fmt.Errorf("store %s: import: write records %d to %d: %w", im.s.path, im.added-len(im.batch), im.added-1, err)
	}
	im.batch, im.size = nil, 0
	return nil
}

// buckets returns the import's kind bucket and the list of its keys.
func (im *Import) buckets(tx *bolt.Tx) (b, keys *bolt.Bucket, err error) {
	imports, err := importsBucket(tx)
	if err != nil {
		return nil, nil, err
	}
	mine := imports.Bucket(im.id)
	if mine == nil {
		return nil, nil, fmt.Errorf("import %d is gone (was the store cleaned meanwhile?)", binary.BigEndian.Uint64(im.id))
	}
	if b = tx.Bucket(im.name); b == nil {
		return nil, nil, fmt.Errorf("%w: bucket %q is missing", ErrCorrupt, im.name)
	}
	return b, mine.Bucket(keyImportKeys), nil
}

// Commit writes the records not yet written and publishes all of them at
// once. It returns how many records the import saved.
func (im *Import) Commit() (int, error) {
	if im.done {
		return 0, fmt.Errorf("store %s: import: Commit after Commit or Abort", im.s.path)
	}
	if err := im.flush(); err != nil {
		return 0, err
	}
	err := guard(func() error {
		return im.s.db.Update(func(tx *bolt.Tx) error {
			if _, _, err := im.buckets(tx); err != nil {
				return err
			}
			imports, _ := importsBucket(tx)
			return imports.DeleteBucket(im.id)
		})
	})
	if err != nil {
		return 0, fmt.Errorf("store %s: import: publish %d %s records: %w", im.s.path, im.added, im.kind, err)
	}
	im.done = true
	return im.added, nil
}

// Abort removes the records the import wrote. Should it fail, they stay
// unseen and the next writable Open removes them.
func (im *Import) Abort() error {
	if im.done {
		return nil
	}
	im.done = true
	im.batch, im.size = nil, 0
	if err := im.s.dropImport(im.id); err != nil {
		return fmt.Errorf("store %s: import: remove the records written: %w", im.s.path, err)
	}
	return nil
}

// dropUnfinished removes what imports a crash or kill interrupted left.
func (s *Store) dropUnfinished() error {
	var ids [][]byte
	err := guard(func() error {
		return s.db.View(func(tx *bolt.Tx) error {
			imports, err := importsBucket(tx)
			if err != nil {
				return err
			}
			return imports.ForEachBucket(func(k []byte) error {
				ids = append(ids, bytes.Clone(k))
				return nil
			})
		})
	})
	if err != nil {
		return fmt.Errorf("remove unfinished imports: %w", err)
	}
	for _, id := range ids {
		if err := s.dropImport(id); err != nil {
			return fmt.Errorf("remove unfinished import %d: %w", binary.BigEndian.Uint64(id), err)
		}
	}
	return nil
}

// dropImport deletes an unpublished import's records, with their chunks,
// in transactions of at most importBatchBytes of records each, and then
// its list of keys. Each transaction deletes records and their keys from
// the list together, a record's chunks before it, so the list always
// names every record still to delete and every key with chunks left.
func (s *Store) dropImport(id []byte) error {
	for {
		finished := false
		err := guard(func() error {
			return s.db.Update(func(tx *bolt.Tx) error {
				imports, err := importsBucket(tx)
				if err != nil {
					return err
				}
				mine := imports.Bucket(id)
				if mine == nil {
					finished = true
					return nil
				}
				name := mine.Get(keyImportKind)
				b := tx.Bucket(name)
				keys := mine.Bucket(keyImportKeys)
				if b == nil || keys == nil {
					return fmt.Errorf("%w: import %d names bucket %q, which is missing, or lacks its keys", ErrCorrupt, binary.BigEndian.Uint64(id), name)
				}
				bodies, err := bodiesOf(tx, name)
				if err != nil {
					return err
				}
				var batch [][]byte
				size := 0
				c := keys.Cursor()
				for k, _ := c.First(); k != nil && size < importBatchBytes; k, _ = c.Next() {
					freed, more, err := deleteChunks(bodies, k, importBatchBytes-size)
					if err != nil {
						return err
					}
					if size += freed; more {
						break
					}
					batch = append(batch, bytes.Clone(k))
					size += len(b.Get(k))
				}
				for _, k := range batch {
					if err := b.Delete(k); err != nil {
						return err
					}
					if err := keys.Delete(k); err != nil {
						return err
					}
				}
				if len(batch) > 0 || size > 0 {
					return nil
				}
				finished = true
				return imports.DeleteBucket(id)
			})
		})
		if err != nil || finished {
			return err
		}
	}
}

// importsBucket returns the bucket of unpublished imports.
func importsBucket(tx *bolt.Tx) (*bolt.Bucket, error) {
	b := tx.Bucket(bucketImports)
	if b == nil {
		return nil, fmt.Errorf("%w: bucket %q is missing", ErrCorrupt, bucketImports)
	}
	return b, nil
}

// unpublished returns whether a key of the bucket name was written by an
// import not yet published: readers do not see such a record.
func unpublished(tx *bolt.Tx, name []byte) func(key []byte) bool {
	var lists []*bolt.Bucket
	if imports := tx.Bucket(bucketImports); imports != nil {
		_ = imports.ForEachBucket(func(id []byte) error {
			mine := imports.Bucket(id)
			if keys := mine.Bucket(keyImportKeys); keys != nil && bytes.Equal(mine.Get(keyImportKind), name) {
				lists = append(lists, keys)
			}
			return nil
		})
	}
	return func(key []byte) bool {
		for _, keys := range lists {
			if keys.Get(key) != nil {
				return true
			}
		}
		return false
	}
}
