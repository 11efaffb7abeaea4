package tauair

import (
	"slices"
	"strconv"
	"unicode/utf8"
	"unsafe"

	"github.com/parthack/parthack/internal/jsonscan"
	"github.com/parthack/parthack/model"
)

// The database's collections are read by a scanner over their text, not
// through a parsed tree: a record's members are slices of the text, and
// a value is made from its slice with model.FromJSON's mapping. A value
// in the form tau-bench writes (keys sorted, strings of printable ASCII
// without escapes, integers) is made straight from its bytes: a string
// shares the text, a nested record's canonical text is the slice with its
// white space dropped, and all of a collection's canonical texts share one
// buffer. Any other value (an escape, a float, keys out of order) is made
// by model.FromJSON from its slice. Text that is not JSON is worded by
// model.ParseJSON, as before.

// scanner reads one collection's text, which nothing writes again: the
// strings it makes share it.
type scanner struct {
	src []byte
	// canon holds the canonical texts made so far; its bytes are never
	// written again once a value's string shares them.
	canon []byte
	// keys, vals and subs are the members of the objects being read;
	// slab is where the next records are taken from.
	keys []string
	vals []raw
	subs []*record
	slab []record
}

// raw is one JSON value of a collection: its bytes in the text, white
// space trimmed.
type raw []byte

// maxScanDepth bounds nesting as model's parser does.
const maxScanDepth = 200

// ws skips JSON white space from i.
func ws(src []byte, i int) int {
	for i < len(src) {
		switch src[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// skip is the end of the JSON value that starts at i (white space
// skipped first), checking its grammar; ok false where it is not JSON.
func skip(src []byte, i, depth int) (start, end int, ok bool) {
	i = ws(src, i)
	if i >= len(src) || depth > maxScanDepth {
		return i, i, false
	}
	start = i
	switch c := src[i]; {
	case c == '"':
		end, _, ok = stringEnd(src, i)
		return start, end, ok
	case c == '{':
		i = ws(src, i+1)
		if i < len(src) && src[i] == '}' {
			return start, i + 1, true
		}
		for {
			i = ws(src, i)
			if i >= len(src) || src[i] != '"' {
				return start, i, false
			}
			if i, _, ok = stringEnd(src, i); !ok {
				return start, i, false
			}
			if i = ws(src, i); i >= len(src) || src[i] != ':' {
				return start, i, false
			}
			if _, i, ok = skip(src, i+1, depth+1); !ok {
				return start, i, false
			}
			if i = ws(src, i); i < len(src) && src[i] == ',' {
				i++
				continue
			}
			if i < len(src) && src[i] == '}' {
				return start, i + 1, true
			}
			return start, i, false
		}
	case c == '[':
		i = ws(src, i+1)
		if i < len(src) && src[i] == ']' {
			return start, i + 1, true
		}
		for {
			if _, i, ok = skip(src, i, depth+1); !ok {
				return start, i, false
			}
			if i = ws(src, i); i < len(src) && src[i] == ',' {
				i++
				continue
			}
			if i < len(src) && src[i] == ']' {
				return start, i + 1, true
			}
			return start, i, false
		}
	case c == 't':
		return start, i + 4, hasAt(src, i, "true")
	case c == 'f':
		return start, i + 5, hasAt(src, i, "false")
	case c == 'n':
		return start, i + 4, hasAt(src, i, "null")
	default:
		end, _, ok = jsonscan.Number(src, i)
		return start, end, ok
	}
}

func hasAt(src []byte, i int, lit string) bool {
	return i+len(lit) <= len(src) && string(src[i:i+len(lit)]) == lit
}

// stringEnd is the end of the string literal at i; plain says it holds
// no escape and only printable ASCII, so that its bytes are its text and
// its canonical form. Control characters, bad escapes and invalid UTF-8
// are not JSON here (a lone surrogate escape is left to model.FromJSON,
// which every string with an escape goes through).
func stringEnd(src []byte, i int) (end int, plain, ok bool) {
	plain = true
	for i++; i < len(src); {
		for i < len(src) && !stops[src[i]] {
			i++
		}
		if i >= len(src) {
			break
		}
		c := src[i]
		switch {
		case c == '"':
			return i + 1, plain, true
		case c == '\\':
			plain = false
			if i+1 >= len(src) {
				return i, false, false
			}
			switch src[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(src) {
					return i, false, false
				}
				for _, h := range src[i+2 : i+6] {
					if !('0' <= h && h <= '9' || 'a' <= h && h <= 'f' || 'A' <= h && h <= 'F') {
						return i, false, false
					}
				}
				i += 6
			default:
				return i, false, false
			}
		case c < 0x20:
			return i, false, false
		case c >= utf8.RuneSelf:
			plain = false
			r, size := utf8.DecodeRune(src[i:])
			if r == utf8.RuneError && size == 1 {
				return i, false, false
			}
			i += size
		case c == 0x7f:
			plain = false
			i++
		default:
			i++
		}
	}
	return i, false, false
}

// stops are the bytes a plain string holds otherwise than as printable
// ASCII: its end, an escape, a control character, DEL, non-ASCII.
var stops = func() (t [256]bool) {
	for c := range t {
		t[c] = c == '"' || c == '\\' || c < 0x20 || c >= 0x7f
	}
	return t
}()

// text is a string that shares the scanned text.
func (s *scanner) text(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// record is an object of a collection: its keys and their values in the
// text's order, and for each value that is itself an object within
// recordDepth, its record.
type record struct {
	keys []string
	vals []raw
	subs []*record // nil when no member is a record
}

// recordDepth is the deepest object read as a record: the collection
// (0), a record by id (1), its members (2: a user's payment methods, a
// flight's dates) and theirs (3: a payment method, a date). Deeper
// objects are values, checked and sliced.
const recordDepth = 3

// document reads the text as one object and nothing else, its records
// within recordDepth; false where it is not JSON, holds a key twice in a
// record, or is no object.
func (s *scanner) document() (*record, bool) {
	i := ws(s.src, 0)
	if i >= len(s.src) || s.src[i] != '{' {
		return nil, false
	}
	rec, end, ok := s.object(i, 0)
	return rec, ok && ws(s.src, end) == len(s.src)
}

// object reads the object at i as a record, each member's value checked
// by skip or, within recordDepth, read as a record itself. A key with an
// escape is decoded by model.FromJSON. The members are gathered on the
// scanner's stacks and copied out once, into slices of their size.
func (s *scanner) object(i, depth int) (rec *record, end int, ok bool) {
	src := s.src
	rec = s.newRecord()
	if i = ws(src, i+1); i < len(src) && src[i] == '}' {
		return rec, i + 1, true
	}
	base := len(s.keys)
	defer func() { s.keys, s.vals, s.subs = s.keys[:base], s.vals[:base], s.subs[:base] }()
	sorted, anySub := true, false
	for {
		if i = ws(src, i); i >= len(src) || src[i] != '"' {
			return nil, i, false
		}
		end, plain, ok := stringEnd(src, i)
		if !ok {
			return nil, i, false
		}
		key := s.text(src[i+1 : end-1])
		if !plain {
			v, err := model.FromJSON(src[i:end])
			if err != nil {
				return nil, i, false
			}
			key = v.AsString()
		}
		if n := len(s.keys); n > base && s.keys[n-1] >= key {
			sorted = false
		}
		if i = ws(src, end); i >= len(src) || src[i] != ':' {
			return nil, i, false
		}
		i = ws(src, i+1)
		var sub *record
		start := i
		if depth < recordDepth && i < len(src) && src[i] == '{' {
			sub, end, ok = s.object(i, depth+1)
			anySub = true
		} else {
			_, end, ok = skip(src, i, depth+1)
		}
		if !ok {
			return nil, end, false
		}
		s.keys, s.vals, s.subs = append(s.keys, key), append(s.vals, raw(src[start:end])), append(s.subs, sub)
		if i = ws(src, end); i < len(src) && src[i] == ',' {
			i++
			continue
		}
		if i >= len(src) || src[i] != '}' {
			return nil, i, false
		}
		rec.keys, rec.vals = slices.Clone(s.keys[base:]), slices.Clone(s.vals[base:])
		if anySub {
			rec.subs = slices.Clone(s.subs[base:])
		}
		if !sorted && len(slices.Compact(slices.Sorted(slices.Values(rec.keys)))) < len(rec.keys) {
			return nil, i, false // a key given twice
		}
		return rec, i + 1, true
	}
}

// newRecord is an empty record from the scanner's slab.
func (s *scanner) newRecord() *record {
	if len(s.slab) == cap(s.slab) {
		s.slab = make([]record, 0, 256)
	}
	s.slab = s.slab[:len(s.slab)+1]
	return &s.slab[len(s.slab)-1]
}

// get is a record's value for a key.
func (r *record) get(key string) (raw, bool) {
	for i, k := range r.keys {
		if k == key {
			return r.vals[i], true
		}
	}
	return nil, false
}

// sub is the record of a record's member; nil when the member is absent
// or no object.
func (r *record) sub(key string) *record {
	if r.subs == nil {
		return nil
	}
	for i, k := range r.keys {
		if k == key {
			return r.subs[i]
		}
	}
	return nil
}

// strOf is a value's string, "" when it is none.
func (s *scanner) strOf(r raw) string {
	if len(r) == 0 || r[0] != '"' {
		return ""
	}
	v, err := s.value(r)
	if err != nil {
		return ""
	}
	return v.AsString()
}

// value is a value with model.FromJSON's mapping.
func (s *scanner) value(r raw) (model.Value, error) {
	switch r[0] {
	case '"':
		if _, plain, _ := stringEnd(r, 0); plain || !slices.Contains(r, '\\') {
			return model.Str(s.text(r[1 : len(r)-1])), nil
		}
	case 'n':
		return model.Null, nil
	case 't':
		return model.Bool(true), nil
	case 'f':
		return model.Bool(false), nil
	case '[':
		if xs, ok := s.plainStrings(r); ok {
			return model.List(xs), nil
		}
		if v, ok := s.canonical(r); ok {
			return v, nil
		}
	case '{':
		if v, ok := s.canonical(r); ok {
			return v, nil
		}
	default:
		if _, integer, _ := jsonscan.Number(r, 0); integer {
			if i, err := strconv.ParseInt(s.text(r), 10, 64); err == nil {
				return model.Int(i), nil
			}
		}
	}
	return model.FromJSON(r)
}

// plainStrings are the items of an array of plain strings; false when
// an item is anything else.
func (s *scanner) plainStrings(r raw) ([]string, bool) {
	xs := []string{}
	for i := ws(r, 1); r[i] != ']'; {
		if r[i] != '"' {
			return nil, false
		}
		end, plain, _ := stringEnd(r, i)
		if !plain {
			return nil, false
		}
		xs = append(xs, s.text(r[i+1:end-1]))
		if i = ws(r, end); r[i] == ',' {
			i = ws(r, i+1)
		}
	}
	return xs, true
}

// canonical is an object's or array's canonical text when the value is
// already canonical but for its white space: every key in order, every
// string plain, every number an integer that reads back the same. false
// sends the value to model.FromJSON.
func (s *scanner) canonical(r raw) (model.Value, bool) {
	base := len(s.canon)
	b, ok := appendCompact(s.canon, r)
	if !ok {
		s.canon = b[:base]
		return model.Null, false
	}
	s.canon = b
	return model.CanonicalJSON(unsafe.String(&b[base], len(b)-base)), true
}

// appendCompact writes a checked value without its white space, false
// where the result would not be its canonical text.
func appendCompact(b []byte, r raw) ([]byte, bool) {
	var prev []byte // the previous key of the innermost object
	var keys [][]byte
	for i := 0; i < len(r); {
		switch c := r[i]; c {
		case ' ', '\t', '\n', '\r':
			i++
		case '"':
			end, plain, _ := stringEnd(r, i)
			if !plain {
				return b, false
			}
			if j := ws(r, end); j < len(r) && r[j] == ':' { // a key: in order
				key := r[i+1 : end-1]
				if prev != nil && string(prev) >= string(key) {
					return b, false
				}
				prev = key
			}
			b = append(b, r[i:end]...)
			i = end
		case '{':
			keys = append(keys, prev)
			prev = nil
			b = append(b, c)
			i++
		case '}':
			prev = keys[len(keys)-1]
			keys = keys[:len(keys)-1]
			b = append(b, c)
			i++
		case '[', ']', ',', ':':
			b = append(b, c)
			i++
		case 't', 'f', 'n':
			_, end, _ := skip(r, i, 0)
			b = append(b, r[i:end]...)
			i = end
		default:
			end, integer, _ := jsonscan.Number(r, i)
			// An integer reads back as itself unless it is -0 or does
			// not fit 64 bits (model.FromJSON refuses those).
			if !integer || end-i > 18 || string(r[i:end]) == "-0" {
				return b, false
			}
			b = append(b, r[i:end]...)
			i = end
		}
	}
	return b, true
}
