package model

import (
	"bytes"
	"slices"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// fastParser builds the node tree of a document in one pass over its
// bytes, checking the JSON grammar strictly as it goes (no json.Valid
// pass first). It never words an error: on anything wrong (a syntax
// error, a duplicate key, a string the decoder would repair, nesting
// too deep) it reports false and the caller parses the text again with
// parseTokens, whose errors are the ones users see. It allocates one node
// per value and one string per key or string value, which is what keeps
// large documents quick to load.
type fastParser struct {
	d   *doc
	off int
	// intern, when set, shares the text of short strings, which repeat
	// from step to step (ops, types, ids, field names, values); recent,
	// set with it, is the last string text gave at each slot of
	// recentSlot, which answers most lookups before intern does.
	intern map[string]string
	recent *[256]string
	// steps, when set, receives the elements of the root object's
	// "steps" array one by one as they are parsed (see stepArray), so a
	// long trajectory is never held whole as a tree.
	steps *stepStream
	// line is the line of the source at lineOff, for lineAt.
	line, lineOff int
	// arena holds the fields of steps decoded by fastStep.
	arena []Assign
	// nodes is the slab the next nodes are taken from; members and items
	// hold the members and items of the objects and arrays being parsed,
	// each copied out at its end into a slice of its size, so that a
	// document costs a few allocations per slab of nodes and one per
	// object or array, not one per value and a growing slice's copies.
	nodes   []node
	members []member
	items   []*node
}

// node is a new node at off, from the slab.
func (f *fastParser) node(off int) *node {
	if len(f.nodes) == cap(f.nodes) {
		f.nodes = make([]node, 0, min(max(2*cap(f.nodes), 8), maxSlab))
	}
	f.nodes = f.nodes[:len(f.nodes)+1]
	n := &f.nodes[len(f.nodes)-1]
	n.off = off
	return n
}

// maxSlab bounds a slab of nodes, which lives as long as any of its nodes.
const maxSlab = 512

// parseValid parses src with the fast parser, or with parseTokens when
// the fast parser finds anything wrong, so its errors are exactly
// parseTokens'.
func parseValid(file string, src []byte) (*doc, error) {
	d := &doc{file: file, src: src}
	f := &fastParser{d: d}
	if f.document() {
		return d, nil
	}
	return parseTokens(file, src)
}

// document parses the whole source as one value with nothing but white
// space after it.
func (f *fastParser) document() bool {
	root, ok := f.value(0)
	if !ok {
		return false
	}
	f.ws()
	f.d.root = root
	return f.off == len(f.d.src)
}

// ws skips JSON white space.
func (f *fastParser) ws() { f.off = skipWS(f.d.src, f.off) }

// peek is the byte at the cursor, 0 at the end of the source (a byte
// that no JSON token starts or ends with outside a string).
func (f *fastParser) peek() byte {
	if f.off < len(f.d.src) {
		return f.d.src[f.off]
	}
	return 0
}

// expect consumes c, after white space, if it is next.
func (f *fastParser) expect(c byte) bool {
	f.ws()
	if f.peek() != c {
		return false
	}
	f.off++
	return true
}

func (f *fastParser) value(depth int) (*node, bool) {
	f.ws()
	if depth > maxDepth {
		return nil, false
	}
	n := f.node(f.off)
	ok := false
	switch f.peek() {
	case '{':
		ok = f.object(n, depth)
	case '[':
		ok = f.array(n, depth)
	case '"':
		n.kind = nodeString
		n.str, ok = f.str()
	case 't':
		n.kind, n.b = nodeBool, true
		ok = f.literal("true")
	case 'f':
		n.kind = nodeBool
		ok = f.literal("false")
	case 'n':
		n.kind = nodeNull
		ok = f.literal("null")
	default:
		start := f.off
		ok = f.number()
		n.kind, n.str = nodeNumber, string(f.d.src[start:f.off])
	}
	return n, ok
}

// object parses the object at the cursor into n. The root object's
// "steps" array goes to the step stream when there is one.
func (f *fastParser) object(n *node, depth int) bool {
	n.kind = nodeObject
	f.off++
	if f.expect('}') {
		return true
	}
	base := len(f.members)
	defer func() { f.members = f.members[:base] }()
	var seen map[string]bool // only for objects too large to scan
	for {
		f.ws()
		if f.peek() != '"' {
			return false
		}
		key, ok := f.str()
		if !ok || dup(f.members[base:], &seen, key) || !f.expect(':') {
			return false
		}
		var val *node
		f.ws()
		if depth == 0 && key == "steps" && f.steps != nil && f.peek() == '[' {
			val, ok = f.stepArray(depth + 1)
		} else {
			val, ok = f.value(depth + 1)
		}
		if !ok {
			return false
		}
		f.members = append(f.members, member{key: key, val: val})
		if !f.expect(',') {
			n.members = slices.Clone(f.members[base:])
			return f.expect('}')
		}
	}
}

// array parses the array at the cursor into n.
func (f *fastParser) array(n *node, depth int) bool {
	n.kind = nodeArray
	f.off++
	if f.expect(']') {
		return true
	}
	base := len(f.items)
	defer func() { f.items = f.items[:base] }()
	for {
		item, ok := f.value(depth + 1)
		if !ok {
			return false
		}
		f.items = append(f.items, item)
		if !f.expect(',') {
			n.items = slices.Clone(f.items[base:])
			return f.expect(']')
		}
	}
}

// literal consumes true, false or null.
func (f *fastParser) literal(lit string) bool {
	if !literalAt(f.d.src, f.off, lit) {
		return false
	}
	f.off += len(lit)
	return true
}

// number consumes a number of the JSON grammar:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (f *fastParser) number() bool {
	src, i := f.d.src, f.off
	if i < len(src) && src[i] == '-' {
		i++
	}
	switch {
	case i < len(src) && src[i] == '0':
		i++
	case i < len(src) && '1' <= src[i] && src[i] <= '9':
		i = digits(src, i)
	default:
		return false
	}
	if i < len(src) && src[i] == '.' {
		if i = digits(src, i+1); src[i-1] == '.' {
			return false
		}
	}
	if i < len(src) && (src[i] == 'e' || src[i] == 'E') {
		i++
		if i < len(src) && (src[i] == '+' || src[i] == '-') {
			i++
		}
		j := digits(src, i)
		if j == i {
			return false
		}
		i = j
	}
	f.off = i
	return true
}

// digits skips the decimal digits from i on.
func digits(src []byte, i int) int {
	for i < len(src) && '0' <= src[i] && src[i] <= '9' {
		i++
	}
	return i
}

// dup reports whether key is already among an object's members: a scan
// while the object is small, a map once it is not.
func dup(members []member, seen *map[string]bool, key string) bool {
	if len(members) < 16 {
		for _, m := range members {
			if m.key == key {
				return true
			}
		}
		return false
	}
	if *seen == nil {
		*seen = make(map[string]bool, 2*len(members))
		for _, m := range members {
			(*seen)[m.key] = true
		}
	}
	if (*seen)[key] {
		return true
	}
	(*seen)[key] = true
	return false
}

// str reads the string at the cursor. A plain string is its raw bytes;
// one with escapes goes through encoding/json once its escapes are known
// to be well formed, so both give exactly the decoder's result. Control
// characters, bad escapes, invalid UTF-8 and lone surrogate escapes
// (which the decoder would replace by U+FFFD) are refused.
func (f *fastParser) str() (string, bool) {
	src, start := f.d.src, f.off
	if raw, end, ok := plainAt(src, start); ok {
		f.off = end
		return f.text(raw), true
	}
	for i := start + 1; i < len(src); {
		switch c := src[i]; {
		case c == '"':
			f.off = i + 1
			return unescape(src[start:f.off])
		case c == '\\':
			n := escapeLen(src[i:])
			if n == 0 {
				return "", false
			}
			i += n
		case c < 0x20:
			return "", false
		default:
			i++
		}
	}
	return "", false
}

// unescape decodes a string literal whose escapes are well formed as
// encoding/json does, refusing what it would repair (badString): its
// text between escapes copied as it is, each escape decoded, in one
// buffer the string then shares.
func unescape(lit []byte) (string, bool) {
	body := lit[1 : len(lit)-1]
	if i, _ := badString(body); i >= 0 {
		return "", false
	}
	b := make([]byte, 0, len(body))
	for i := 0; i < len(body); {
		j := bytes.IndexByte(body[i:], '\\')
		if j < 0 {
			b = append(b, body[i:]...)
			break
		}
		b = append(b, body[i:i+j]...)
		i += j
		switch e := body[i+1]; e {
		case 'u':
			r, _ := hex4(body[i+2:])
			i += 6
			if utf16.IsSurrogate(r) { // badString found its low half after it
				lo, _ := hex4(body[i+2:])
				r = utf16.DecodeRune(r, lo)
				i += 6
			}
			b = utf8.AppendRune(b, r)
			continue
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		default: // '"', '\\', '/'
			b = append(b, e)
		}
		i += 2
	}
	if len(b) == 0 {
		return "", true
	}
	return unsafe.String(&b[0], len(b)), true
}

// escapeLen is the length of the well-formed escape b starts with (\n,
// \uXXXX …), 0 when it is not one.
func escapeLen(b []byte) int {
	if len(b) < 2 {
		return 0
	}
	switch b[1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 2
	case 'u':
		if _, ok := hex4(b[2:]); ok {
			return 6
		}
	}
	return 0
}

// text is the string of raw, shared with earlier equal short strings
// when the parser interns.
func (f *fastParser) text(raw []byte) string {
	if f.d.owned && len(raw) >= minShared {
		// The source is never written again: the string is its bytes.
		return unsafe.String(&raw[0], len(raw))
	}
	if f.intern == nil || len(raw) > maxInterned {
		return string(raw)
	}
	slot := &f.recent[recentSlot(raw)]
	if *slot == string(raw) {
		return *slot
	}
	s, ok := f.intern[string(raw)]
	if !ok {
		s = string(raw)
		if len(f.intern) < maxInternedStrings {
			f.intern[s] = s
		}
	}
	*slot = s
	return s
}

// recentSlot hashes a short string to a slot of fastParser.recent by its
// length and its first, middle and last bytes.
func recentSlot(raw []byte) uint8 {
	n := len(raw)
	if n == 0 {
		return 0
	}
	return uint8(n*61 ^ int(raw[0])*7 ^ int(raw[n/2])*3 ^ int(raw[n-1]))
}

// minShared is the least length of a string that shares its document's
// source (doc.owned) instead of copying it: a short one would keep a
// large source alive for a few bytes.
const minShared = 64 << 10

// Interning bounds: strings up to maxInterned bytes, at most
// maxInternedStrings of them per document.
const (
	maxInterned        = 32
	maxInternedStrings = 1 << 14
)
