package tau2

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"sync"
)

// Collection is one top-level dict of a tau2 database (retail's orders,
// products, users) as the hash reads it.
type Collection struct {
	Name string
	// IDs are every key the dict can hold, sorted.
	IDs []string
	// Text is a record's json.dumps(sort_keys=True) text, nil when the
	// record is absent.
	Text func(id string) []byte
}

// DBHash is tau2's get_dict_hash of a database's model_dump(): the sha256
// hex of json.dumps(db, sort_keys=True, default=str). colls must be in
// sorted order of their names; the records' texts are spliced in as they
// come, so a caller can keep an unchanged record's text.
func DBHash(colls []Collection) string {
	h := sha256.New()
	b := make([]byte, 0, 64<<10)
	b = append(b, '{')
	for ci, c := range colls {
		if ci > 0 {
			b = append(b, ", "...)
		}
		b = appendPyStr(b, c.Name)
		b = append(b, ": {"...)
		n := 0
		for _, id := range c.IDs {
			text := c.Text(id)
			if text == nil {
				continue
			}
			if n > 0 {
				b = append(b, ", "...)
			}
			n++
			b = appendPyStr(b, id)
			b = append(b, ": "...)
			b = append(b, text...)
			if len(b) > 60<<10 {
				h.Write(b)
				b = b[:0]
			}
		}
		b = append(b, '}')
	}
	b = append(b, '}')
	h.Write(b)
	return hex.EncodeToString(h.Sum(nil))
}

// DictHash is get_dict_hash of one value: the sha256 hex of
// json.dumps(x, sort_keys=True).
func DictHash(x any) string {
	bp := dumpBufs.Get().(*[]byte)
	b := AppendDumps((*bp)[:0], x, true)
	sum := sha256.Sum256(b)
	*bp = b[:0]
	dumpBufs.Put(bp)
	return hex.EncodeToString(sum[:])
}

// dumpBufs hold the texts DictHash writes, reused: a telecom task's two
// databases are hashed at every derivation and DB check.
var dumpBufs = sync.Pool{New: func() any { b := make([]byte, 0, 16<<10); return &b }}

// HashMemo keeps the hashes of states by what sets them apart from the
// initial database: the records whose text is not the initial one, with
// their texts (StateKey). Two states with the same key have the same
// database text, so the same hash: an attack hashes H's end, the gold
// run's and every witness that ends in H's state, each 3 MB of text for
// airline. It keeps at most maxHashMemo states.
type HashMemo struct {
	mu sync.Mutex
	m  map[string]string
}

const maxHashMemo = 1 << 10

// Hash is the hash of the state with key, computed by hash the first time.
func (h *HashMemo) Hash(key []byte, hash func() string) string {
	h.mu.Lock()
	s, ok := h.m[string(key)]
	h.mu.Unlock()
	if ok {
		return s
	}
	s = hash()
	h.mu.Lock()
	if h.m == nil {
		h.m = map[string]string{}
	}
	if len(h.m) < maxHashMemo {
		h.m[string(key)] = s
	}
	h.mu.Unlock()
	return s
}

// AppendStateKey appends one record to a state's key for HashMemo: its
// collection, its key and its text (nil when absent), each with its
// length, so that no two records' keys run together (an id may hold any
// byte).
func AppendStateKey(b []byte, coll, id string, text []byte) []byte {
	b = binary.AppendUvarint(b, uint64(len(coll)))
	b = append(b, coll...)
	b = binary.AppendUvarint(b, uint64(len(id)))
	b = append(b, id...)
	if text == nil {
		return append(b, '-')
	}
	b = append(b, '+')
	b = binary.AppendUvarint(b, uint64(len(text)))
	return append(b, text...)
}
