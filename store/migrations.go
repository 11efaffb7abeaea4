package store

import (
	"bytes"
	"encoding/binary"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// migrations[i] upgrades a store from schema version i to i+1, so the
// current schema version is len(migrations). Append only: a released
// migration must never change, because files in the wild already ran it.
var migrations = []func(tx *bolt.Tx) error{
	createBuckets,
	createImports,
	createBodies,
}

// createBuckets turns an empty bbolt file into a version-1 store.
func createBuckets(tx *bolt.Tx) error {
	meta, err := tx.CreateBucketIfNotExists(bucketMeta)
	if err != nil {
		return err
	}
	for _, kb := range kindBuckets {
		if _, err := tx.CreateBucketIfNotExists(kb.name); err != nil {
			return err
		}
	}
	return meta.Put(keyMagic, magic)
}

// createImports adds the bucket of unpublished imports (import.go). A
// parthack that predates it would show an interrupted import's records,
// so the schema version rises and such a parthack refuses the file.
func createImports(tx *bolt.Tx) error {
	_, err := tx.CreateBucketIfNotExists(bucketImports)
	return err
}

// createBodies adds the buckets of chunked bodies (chunks.go). A parthack
// that predates them would read a chunked record as corrupt, so the schema
// version rises and such a parthack refuses the file.
func createBodies(tx *bolt.Tx) error {
	bodies, err := tx.CreateBucketIfNotExists(bucketBodies)
	if err != nil {
		return err
	}
	for _, kb := range kindBuckets {
		if _, err := bodies.CreateBucketIfNotExists(kb.name); err != nil {
			return err
		}
	}
	return nil
}

// readVersion returns the schema version of the store in tx: 0 for a bbolt
// file without any buckets (a new file), ErrForeign for a bbolt file holding
// someone else's data.
func readVersion(tx *bolt.Tx) (int, error) {
	meta := tx.Bucket(bucketMeta)
	if meta == nil {
		if name, _ := tx.Cursor().First(); name != nil {
			return 0, fmt.Errorf("%w: it is a bbolt database with other buckets (e.g. %q); choose another path", ErrForeign, name)
		}
		return 0, nil
	}
	if !bytes.Equal(meta.Get(keyMagic), magic) {
		return 0, fmt.Errorf("%w: bucket %q lacks the parthack magic; choose another path", ErrForeign, bucketMeta)
	}
	v := meta.Get(keySchemaVersion)
	if len(v) != 4 {
		return 0, fmt.Errorf("%w: schema version is %d bytes, want 4", ErrCorrupt, len(v))
	}
	return int(binary.BigEndian.Uint32(v)), nil
}

// migrate brings the store up to the current schema version. All pending
// migrations and the version bump share one transaction, so a crash leaves
// the file at the old version or the new one, never in between.
func (s *Store) migrate() error {
	var have int
	err := s.db.View(func(tx *bolt.Tx) error {
		var err error
		have, err = readVersion(tx)
		return err
	})
	want := len(migrations)
	switch {
	case err != nil:
		return err
	case have > want:
		return fmt.Errorf("%w: file has schema version %d, this parthack understands up to %d; upgrade parthack", ErrNewerSchema, have, want)
	case have == want:
		return nil
	case s.readOnly:
		return fmt.Errorf("schema version %d is older than %d; open it once without read-only to upgrade it", have, want)
	}
	return s.db.Update(func(tx *bolt.Tx) error {
		for i, m := range migrations[have:] {
			if err := m(tx); err != nil {
				return fmt.Errorf("migrate to schema version %d: %w", have+i+1, err)
			}
		}
		v := make([]byte, 4)
		binary.BigEndian.PutUint32(v, uint32(want))
		return tx.Bucket(bucketMeta).Put(keySchemaVersion, v)
	})
}
