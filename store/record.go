package store

import (
	"bytes"
	"encoding/binary"
	"fmt"
)

// recordVersion is the first byte of every record value. A later schema
// migration that changes the encoding bumps it and rewrites old values.
const recordVersion = 1

// encode lays a record out as
//
//	version byte | uvarint len, Task | uvarint len, Name | uvarint len, Note | varint Created | Body
//
// Kind and Key are not stored: the bucket and the bbolt key already say
// them. Body runs to the end of the value, so it is stored verbatim and
// reading it back is a single copy.
func encode(r Record) []byte {
	return encodeBody(r, len(r.Body), func(b []byte) []byte { return append(b, r.Body...) })
}

// encodeBody is encode of a record whose body appendBody writes, with
// room for size bytes of it: the body is written straight into the
// value, never held apart from it.
func encodeBody(r Record, size int, appendBody func([]byte) []byte) []byte {
	b := make([]byte, 0, 1+4*binary.MaxVarintLen64+len(r.Task)+len(r.Name)+len(r.Note)+size)
	b = append(b, recordVersion)
	for _, s := range []string{r.Task, r.Name, r.Note} {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	b = binary.AppendVarint(b, r.Created)
	return appendBody(b)
}

// decode parses a record value. Every string and the Body are copied,
// because key and value belong to bbolt's memory map and are only valid
// inside the transaction.
func decode(kind Kind, key, value []byte) (Record, error) {
	r, body, err := decodeHead(kind, key, value)
	if err == nil && len(body) > 0 {
		r.Body = bytes.Clone(body)
	}
	return r, err
}

// decodeName parses only the Name of a record value.
func decodeName(kind Kind, key, value []byte) (string, error) {
	r, _, err := decodeHead(kind, key, value)
	return r.Name, err
}

// decodeHead parses a record value up to its Body, which it returns
// uncopied.
func decodeHead(kind Kind, key, value []byte) (Record, []byte, error) {
	if len(key) != 8 {
		return Record{}, nil, fmt.Errorf("%w: %s key %x is not 8 bytes", ErrCorrupt, kind, key)
	}
	r := Record{Kind: kind, Key: binary.BigEndian.Uint64(key)}
	bad := func(problem string) (Record, []byte, error) {
		return Record{}, nil, fmt.Errorf("%w: %s %d: %s", ErrCorrupt, kind, r.Key, problem)
	}
	if len(value) == 0 || value[0] != recordVersion {
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
	return r, rest[w:], nil
}

// uintToKey encodes a record key big-endian so bbolt's byte order is
// numeric order, which is creation order for NextSequence keys.
func uintToKey(k uint64) []byte {
	return binary.BigEndian.AppendUint64(nil, k)
}
