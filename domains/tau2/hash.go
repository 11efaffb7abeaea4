package tau2

import (
	"crypto/sha256"
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
