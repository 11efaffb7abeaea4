package store

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"

	bolt "go.etcd.io/bbolt"
)

// A record whose body is longer than one import transaction may write
// (importBatchBytes) keeps its body in chunks of 64 KiB, under
// bodies/<kind bucket>/<record key | chunk index>, written a transaction's
// worth at a time: bbolt holds every page a transaction dirties in memory
// until it commits, so a 200 MB body in one value costs 200 MB more while
// it is written. Chunks are small because bbolt keeps at least two values
// in a leaf and rewrites the whole leaf a transaction touches: the next
// transaction rewrites two chunks of the last, not two of its size. The
// record's own value, written last, says how many chunks there are and how
// long the body is; a reader joins them.
// The record's key is listed as the import's before its first chunk is
// written, so a crash at any point leaves chunks only under a listed key,
// which the clean-up removes with the record.

// chunked is a record's count of body chunks and its body's length.
type chunked struct {
	n    uint32
	size uint64
}

// chunkKey is the key of chunk i of the record with key k (8 bytes).
func chunkKey(k []byte, i uint32) []byte {
	return binary.BigEndian.AppendUint32(bytes.Clone(k), i)
}

// bodiesOf returns the bucket of chunked bodies of the kind bucket name.
func bodiesOf(tx *bolt.Tx, name []byte) (*bolt.Bucket, error) {
	if all := tx.Bucket(bucketBodies); all != nil {
		if b := all.Bucket(name); b != nil {
			return b, nil
		}
	}
	return nil, fmt.Errorf("%w: bucket %s/%s is missing", ErrCorrupt, bucketBodies, name)
}

// readChunks joins a chunked body, checking that every chunk is there and
// that they add up to its length.
func readChunks(kind Kind, key uint64, c chunked, bodies *bolt.Bucket) ([]byte, error) {
	bad := func(format string, args ...any) ([]byte, error) {
		return nil, fmt.Errorf("%w: %s %d: %s", ErrCorrupt, kind, key, fmt.Sprintf(format, args...))
	}
	if c.size > 1<<40 {
		return bad("a body of %d bytes", c.size)
	}
	body := make([]byte, 0, c.size)
	k := binary.BigEndian.AppendUint64(nil, key)
	for i := range c.n {
		v := bodies.Get(chunkKey(k, i))
		if v == nil {
			return bad("body chunk %d of %d is missing", i+1, c.n)
		}
		if uint64(len(body)+len(v)) > c.size {
			return bad("body chunks longer than the %d bytes recorded", c.size)
		}
		body = append(body, v...)
	}
	if uint64(len(body)) != c.size {
		return bad("body chunks of %d bytes, %d recorded", len(body), c.size)
	}
	return body, nil
}

// deleteChunks deletes the chunks of the record with key k, stopping once
// it has deleted budget bytes of them: more says whether some are left.
func deleteChunks(bodies *bolt.Bucket, k []byte, budget int) (freed int, more bool, err error) {
	var doomed [][]byte
	c := bodies.Cursor()
	for ck, v := c.Seek(k); ck != nil && bytes.HasPrefix(ck, k); ck, v = c.Next() {
		if freed >= budget {
			more = true
			break
		}
		doomed = append(doomed, bytes.Clone(ck))
		freed += len(v)
	}
	for _, ck := range doomed {
		if err := bodies.Delete(ck); err != nil {
			return freed, more, err
		}
	}
	return freed, more, nil
}

// dropChunks deletes every chunk of kind's record with key k (none for a
// record whose body is in its value), in the transaction tx.
func dropChunks(tx *bolt.Tx, kind Kind, k []byte) error {
	bodies, err := bodiesOf(tx, bucketOf(kind))
	if err != nil {
		return err
	}
	_, _, err = deleteChunks(bodies, k, math.MaxInt)
	return err
}

// bodyWriter is the io.Writer AddStream gives a record's body to. It
// holds the record's value while it fits one transaction; past that, it
// writes the body so far as the first chunks and a transaction's worth of
// chunks each time it has gathered one more.
type bodyWriter struct {
	im   *Import
	r    Record
	buf  []byte // the value (head and body) until the first chunks are written; then the body gathered since
	head int    // the head's length in buf, until the first chunks are written
	key  []byte // the record's key, once its first chunks are written
	c    chunked
}

// chunkBytes is the size of a body chunk: 64 KiB, or less where tests
// shrink an import transaction's bound, though never below 4 KiB.
func chunkBytes() int { return max(min(64<<10, importBatchBytes), 4<<10) }

// writeBytes is how much of a long body one transaction writes.
func writeBytes() int { return max(importBatchBytes, chunkBytes()) }

// Write appends p to the body, writing the chunks once it holds a
// transaction's worth.
func (w *bodyWriter) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		limit := w.head + writeBytes()
		if len(w.buf) >= limit {
			if err := w.writeChunks(false); err != nil {
				return n - len(p), err
			}
			limit = writeBytes()
		}
		take := min(limit-len(w.buf), len(p))
		w.buf = append(w.buf, p[:take]...)
		p = p[take:]
	}
	return n, nil
}

// writeChunks writes the body in buf as the next chunks, in a transaction
// of its own; with last, the record's value goes with them. The first
// chunks first write the records added before, so that keys stay in the
// order records were added, and list the record's key as the import's.
func (w *bodyWriter) writeChunks(last bool) error {
	im := w.im
	if w.key == nil {
		if err := im.flush(); err != nil {
			return err
		}
	}
	body := w.buf[w.head:]
	key, c := w.key, w.c
	err := guard(func() error {
		return im.s.db.Update(func(tx *bolt.Tx) error {
			b, keys, err := im.buckets(tx)
			if err != nil {
				return err
			}
			bodies, err := bodiesOf(tx, im.name)
			if err != nil {
				return err
			}
			// Chunks are only ever appended: leaves filled whole.
			bodies.FillPercent = 1
			if key == nil {
				seq, err := b.NextSequence()
				if err != nil {
					return err
				}
				key = uintToKey(seq)
				if err := keys.Put(key, []byte{}); err != nil {
					return err
				}
			}
			for rest := body; len(rest) > 0; c.n++ {
				chunk := rest[:min(chunkBytes(), len(rest))]
				if err := bodies.Put(chunkKey(key, c.n), chunk); err != nil {
					return err
				}
				rest = rest[len(chunk):]
				c.size += uint64(len(chunk))
			}
			if !last {
				return nil
			}
			return b.Put(key, encodeChunked(w.r, c))
		})
	})
	if err != nil {
		return fmt.Errorf("store %s: import: write record %d's body, chunk %d: %w", im.s.path, im.added, w.c.n+1, err)
	}
	w.key, w.c = key, c
	if w.head > 0 {
		// The value's buffer goes; chunks reuse one of a transaction's size.
		w.buf, w.head = make([]byte, 0, writeBytes()), 0
	} else {
		w.buf = w.buf[:0]
	}
	return nil
}

// close ends the record: a value that stayed within a transaction's bound
// is added as Add adds one; a chunked one writes its last chunk, never
// empty, and its value.
func (w *bodyWriter) close() error {
	if w.key == nil {
		return w.im.add(w.buf)
	}
	if err := w.writeChunks(true); err != nil {
		return err
	}
	w.im.added++
	return nil
}
