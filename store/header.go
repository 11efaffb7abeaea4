package store

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"io"
	"os"
)

// bbolt's file header, as bbolt v1.5 writes it (go.etcd.io/bbolt,
// internal/common/meta.go and page.go). Pages 0 and 1 are meta pages; each
// starts with a 16-byte page header followed by the meta, in the machine's
// byte order:
//
//	offset  size  field
//	    16     4  magic 0xED0CDAED
//	    20     4  version 2
//	    24     4  page size
//	    28     4  flags
//	    32    16  root bucket (page id, sequence)
//	    48     8  freelist page id
//	    56     8  high water mark: the number of pages the file holds
//	    64     8  transaction id
//	    72     8  checksum: FNV-64a of bytes 16 to 72
//
// bbolt trusts the meta it reads and memory-maps the file, so a file
// shorter than its pages makes it read past the end and panic; the header
// is therefore checked before bbolt ever sees the file.
const (
	boltMagic      = 0xED0CDAED
	boltVersion    = 2
	metaOffset     = 16
	metaEnd        = 80
	checksumOffset = 72
)

// ErrTruncated means the file is shorter than its own bbolt header says:
// it was cut short (a full disk, a file size limit, an interrupted copy).
// It is also ErrCorrupt.
var ErrTruncated error = truncatedError{}

type truncatedError struct{}

func (truncatedError) Error() string        { return "truncated" }
func (truncatedError) Is(target error) bool { return target == ErrCorrupt }

// boltMeta is what checkHeader needs of a meta page.
type boltMeta struct {
	pageSize uint32
	pages    uint64 // the high water mark
	txid     uint64
}

// readMeta reads and validates the meta page at off, or reports false.
func readMeta(f io.ReaderAt, off int64) (boltMeta, bool) {
	var b [metaEnd]byte
	if _, err := f.ReadAt(b[:], off); err != nil {
		return boltMeta{}, false
	}
	e := binary.NativeEndian
	if e.Uint32(b[metaOffset:]) != boltMagic || e.Uint32(b[metaOffset+4:]) != boltVersion {
		return boltMeta{}, false
	}
	h := fnv.New64a()
	_, _ = h.Write(b[metaOffset:checksumOffset])
	if h.Sum64() != e.Uint64(b[checksumOffset:]) {
		return boltMeta{}, false
	}
	m := boltMeta{pageSize: e.Uint32(b[metaOffset+8:]), pages: e.Uint64(b[metaOffset+40:]), txid: e.Uint64(b[metaOffset+48:])}
	if m.pageSize < 1024 || m.pageSize&(m.pageSize-1) != 0 {
		return boltMeta{}, false
	}
	return m, true
}

// checkHeader refuses a file whose valid bbolt meta page promises more
// pages than the file holds, with ErrTruncated and both sizes. A file
// without any valid meta page is left to bbolt, which says it is invalid.
func checkHeader(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return nil // bbolt reports it, in its words
	}
	defer f.Close()
	// The header first, then the size: a writer only ever grows the file
	// before it raises the high water mark, so this order cannot see a
	// new header with an old size.
	m0, ok0 := readMeta(f, 0)
	info, err := f.Stat()
	if err != nil {
		return nil
	}
	size := info.Size()
	var m1 boltMeta
	ok1 := false
	if ok0 {
		m1, ok1 = readMeta(f, int64(m0.pageSize))
		ok1 = ok1 && m1.pageSize == m0.pageSize
	} else {
		// As bbolt does: find the second meta page at any page size.
		for ps := int64(1024); ps <= 1<<24 && ps+metaEnd <= size; ps <<= 1 {
			if m, ok := readMeta(f, ps); ok && int64(m.pageSize) == ps {
				m1, ok1 = m, true
				break
			}
		}
	}
	var m boltMeta
	switch {
	case ok0 && ok1 && m1.txid > m0.txid, !ok0 && ok1:
		m = m1
	case ok0:
		m = m0
	default:
		return nil
	}
	need := int64(max(m.pages, 2)) * int64(m.pageSize)
	if m.pages > 1<<40 || size < need {
		return fmt.Errorf("%w: the file is %d bytes, but its bbolt header says it holds %d pages of %d bytes (%d bytes); it was cut short (a full disk, a file size limit or an interrupted copy?)",
			ErrTruncated, size, max(m.pages, 2), m.pageSize, need)
	}
	return nil
}
