package store

// Every bucket name and meta key lives in this file, so the on-disk layout
// drawn in the package comment can be checked against one place. The names
// are spelled out rather than derived from Kind values so renaming a Go
// constant can never silently move data.

var (
	// bucketMeta holds store-wide keys; its presence with keyMagic is what
	// makes a bbolt file a parthack store.
	bucketMeta = []byte("meta")

	// keyMagic identifies a parthack store; its value is magic.
	keyMagic = []byte("magic")

	// keySchemaVersion is the schema version as a big-endian uint32.
	keySchemaVersion = []byte("schema_version")

	// magic is the fixed value stored under keyMagic.
	magic = []byte("parthack-store")

	// bucketImports holds one bucket per unpublished import (import.go),
	// keyed by a uint64 from its NextSequence, big-endian (schema 2).
	bucketImports = []byte("imports")

	// keyImportKind names, in an import's bucket, the bucket its records
	// are written to.
	keyImportKind = []byte("kind")

	// keyImportKeys is the bucket, in an import's bucket, listing the keys
	// of the records it wrote, each with an empty value.
	keyImportKeys = []byte("keys")

	// bucketBodies holds, in one bucket per kind bucket (named alike),
	// the bodies too long for one transaction, in chunks (chunks.go):
	// key = the record's 8-byte key | a uint32 chunk index, big-endian
	// (schema 3).
	bucketBodies = []byte("bodies")
)

// kindBuckets maps each Kind to the bucket holding its records, in the
// order the buckets are created.
var kindBuckets = []struct {
	kind Kind
	name []byte
}{
	{KindWitness, []byte("witnesses")},
	{KindNote, []byte("notes")},
	{KindRun, []byte("runs")},
}

// bucketName returns the bucket for kind, or false for an unknown kind.
func bucketName(kind Kind) ([]byte, bool) {
	for _, kb := range kindBuckets {
		if kb.kind == kind {
			return kb.name, true
		}
	}
	return nil, false
}

// bucketOf is bucketName of a kind known to be one of kindBuckets'.
func bucketOf(kind Kind) []byte {
	name, _ := bucketName(kind)
	return name
}
