package store

import (
	"bytes"
	"encoding/binary"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// The first byte of every record value says its encoding: recordVersion
// holds the body in the value, recordChunked in chunks of its own
// (chunks.go). A later schema migration that changes an encoding adds a
// byte and rewrites old values.
const (
	recordVersion = 1
	recordChunked = 2
)

// encode lays a record out as
//
//	version byte | uvarint len, Task | uvarint len, Name | uvarint len, Note | varint Created | Body
//
// Kind and Key are not stored: the bucket and the bbolt key already say
// them. Body runs to the end of the value, so it is stored verbatim and
// reading it back is a single copy.
func encode(r Record) []byte {
	return append(appendHead(make([]byte, 0, headSize(r)+len(r.Body)), recordVersion, r), r.Body...)
}

// headSize bounds the length of a record's head.
func headSize(r Record) int {
	return 1 + 4*binary.MaxVarintLen64 + len(r.Task) + len(r.Name) + len(r.Note)
}

// appendHead appends a record's encoding byte and its fields up to the
// body.
func appendHead(b []byte, version byte, r Record) []byte {
	b = append(b, version)
	for _, s := range []string{r.Task, r.Name, r.Note} {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	return binary.AppendVarint(b, r.Created)
}

// encodeChunked lays out a record whose body is in chunks as
//
//	0x02 | uvarint len, Task | uvarint len, Name | uvarint len, Note | varint Created | uvarint chunks | uvarint body length
func encodeChunked(r Record, c chunked) []byte {
	b := appendHead(make([]byte, 0, headSize(r)+2*binary.MaxVarintLen64), recordChunked, r)
	b = binary.AppendUvarint(b, uint64(c.n))
	return binary.AppendUvarint(b, c.size)
}

// decode parses a record value, reading a chunked body from bodies (the
// kind's bucket of chunks). Every string and the Body are copied, because
// key and value belong to bbolt's memory map and are only valid inside the
// transaction.
func decode(kind Kind, key, value []byte, bodies *bolt.Bucket) (Record, error) {
	r, body, c, err := decodeHead(kind, key, value)
	switch {
	case err != nil:
		return Record{}, err
	case c.n > 0:
		r.Body, err = readChunks(kind, r.Key, c, bodies)
	case len(body) > 0:
		r.Body = bytes.Clone(body)
	}
	return r, err
}

// decodeName parses only the Name of a record value.
func decodeName(kind Kind, key, value []byte) (string, error) {
	r, _, _, err := decodeHead(kind, key, value)
	return r.Name, err
}

// decodeHead parses a record value up to its Body, which it returns
// uncopied, or, for a chunked record, the chunks' count and length.
func decodeHead(kind Kind, key, value []byte) (Record, []byte, chunked, error) {
	if len(key) != 8 {
		return Record{}, nil, chunked{}, fmt.Errorf("%w: %s key %x is not 8 bytes", ErrCorrupt, kind, key)
	}
	r := Record{Kind: kind, Key: binary.BigEndian.Uint64(key)}
	bad := func(problem string) (Record, []byte, chunked, error) {
		return Record{}, nil, chunked{}, fmt.Errorf("%w: %s %d: %s", ErrCorrupt, kind, r.Key, problem)
	}
	if len(value) == 0 || value[0] != recordVersion && value[0] != recordChunked {
		return bad("unknown record encoding")
	}
	rest := value[1:]
	var fields [3]string
	for i := range fields {
		n, w := binary.Uvarint(rest)
		if w <= 0 || n > uint64(len(rest)-w) {
			return bad("truncated text field")
		}
		fields[i] = string(rest[w : w+int(n)])
		rest = rest[w+int(n):]
	}
	created, w := binary.Varint(rest)
	if w <= 0 {
		return bad("truncated creation counter")
	}
	r.Task, r.Name, r.Note, r.Created = fields[0], fields[1], fields[2], created
	rest = rest[w:]
	if value[0] == recordVersion {
		return r, rest, chunked{}, nil
	}
	n, w := binary.Uvarint(rest)
	if w <= 0 || n == 0 || n > 1<<32-1 {
		return bad("bad count of body chunks")
	}
	size, w2 := binary.Uvarint(rest[w:])
	if w2 <= 0 || w+w2 != len(rest) {
		return bad("bad length of a chunked body")
	}
	return r, nil, chunked{n: uint32(n), size: size}, nil
}

// uintToKey encodes a record key big-endian so bbolt's byte order is
// numeric order, which is creation order for NextSequence keys.
func uintToKey(k uint64) []byte {
	return binary.BigEndian.AppendUint64(nil, k)
}
