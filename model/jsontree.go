package model

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// DecodeError is a located decoding error: the file, the line and column
// in it, the JSON path of the offending value, and what was expected.
// Line and Col point at the offending byte; both count from 1, Col in
// bytes (as the Go toolchain counts columns).
type DecodeError struct {
	File string
	Line int
	Col  int
	Path string
	Msg  string
}

func (e *DecodeError) Error() string {
	loc := e.File
	if e.Line > 0 {
		loc = fmt.Sprintf("%s:%d:%d", e.File, e.Line, e.Col)
	}
	if e.Path == "" {
		return fmt.Sprintf("%s: %s", loc, e.Msg)
	}
	return fmt.Sprintf("%s: %s: %s", loc, e.Path, e.Msg)
}

// nodeKind is the JSON kind of a parsed node.
type nodeKind uint8

const (
	nodeNull nodeKind = iota
	nodeBool
	nodeNumber
	nodeString
	nodeArray
	nodeObject
)

func (k nodeKind) String() string {
	return [...]string{"null", "boolean", "number", "string", "array", "object"}[k]
}

// node is one parsed JSON value that remembers where it stood, so every
// later error can name its line and column.
type node struct {
	kind    nodeKind
	off     int
	b       bool
	str     string // string value, or the literal of a number
	items   []*node
	members []member
}

type member struct {
	key string
	val *node
}

// doc is a parsed JSON document and its source, for locating errors.
type doc struct {
	file string
	src  []byte
	root *node
	// base is the JSON path of root: "$" for a whole document, the
	// step's path for a step decoded while its document is streamed.
	base string
	// line0 and col0 are where src starts in its file when src is one
	// element of a file read piece by piece (StreamJSONArray); 0 when src
	// is the whole file.
	line0, col0 int
	// owned says that src is the document's own and never written
	// again, so that a long string may share its bytes (fastParser.text)
	// instead of being copied.
	owned bool
	// lineOff, line and col memoize the last position located, so that
	// locating steps in file order (as decoding a trajectory does) scans
	// the source once overall instead of once per step.
	lineOff, line, col int
	// spills are the strings of a streamed value that were set aside in
	// a spill file, in order: src has "" in their place.
	spills []spillAt
}

// spillAt is a string of a document set aside in a spill file.
type spillAt struct {
	off    int // its opening quote in src
	line   int // the line of src it is on
	text   *spilled
	flawed bool // the parser would refuse it: the value is read whole
}

// spillsSound reports whether no spilled string has a flaw.
func (d *doc) spillsSound() bool {
	for _, sp := range d.spills {
		if sp.flawed {
			return false
		}
	}
	return true
}

// spilledValues reports whether every spilled string is a string value
// of the tree, not a key, which the tree holds as text.
func (d *doc) spilledValues() bool {
	found := 0
	var walk func(n *node)
	walk = func(n *node) {
		if n.kind == nodeString && d.spillOf(n) != nil {
			found++
		}
		for _, it := range n.items {
			walk(it)
		}
		for _, m := range n.members {
			walk(m.val)
		}
	}
	walk(d.root)
	return found == len(d.spills)
}

// spillOf is the spilled text of a string node, or nil.
func (d *doc) spillOf(n *node) *spilled {
	if len(d.spills) == 0 || n.kind != nodeString {
		return nil
	}
	i, ok := slices.BinarySearchFunc(d.spills, n.off, func(sp spillAt, off int) int { return sp.off - off })
	if !ok {
		return nil
	}
	return d.spills[i].text
}

// strOf is a string node's string, read back from the spill file when
// it was set aside there.
func (d *doc) strOf(n *node) (string, error) {
	if sp := d.spillOf(n); sp != nil {
		return Text{sp: sp}.whole()
	}
	return n.str, nil
}

// unspilled is src[from:to] as its file has it, the spilled strings in
// it read back into their places.
func (d *doc) unspilled(from, to int) ([]byte, error) {
	n := to - from
	for _, sp := range d.spills {
		if sp.off >= from && sp.off < to {
			n += int(sp.text.size)
		}
	}
	if n == to-from {
		return d.src[from:to], nil
	}
	b := make([]byte, 0, n)
	prev := from
	for _, sp := range d.spills {
		if sp.off < from || sp.off >= to {
			continue
		}
		b = append(b, d.src[prev:sp.off+1]...)
		k := len(b)
		b = b[:k+int(sp.text.size)]
		if _, err := sp.text.f.f.ReadAt(b[k:], sp.text.off); err != nil {
			return nil, err
		}
		prev = sp.off + 1
	}
	return append(b, d.src[prev:to]...), nil
}

// maxDepth bounds nesting so hostile input cannot exhaust the stack.
const maxDepth = 200

// parseDoc parses src strictly: UTF-8 without a byte order mark, one JSON
// value, no trailing data, no duplicate keys in any object, and no string
// the decoder would have to repair (invalid UTF-8, lone surrogates).
func parseDoc(file string, src []byte) (*doc, error) {
	if err := checkBOM(file, src); err != nil {
		return nil, err
	}
	return parseValid(file, src)
}

// parseTokens parses any text with encoding/json's tokenizer, locating
// syntax errors.
func parseTokens(file string, src []byte) (*doc, error) {
	d := &doc{file: file, src: src}
	if err := parseTokensInto(d); err != nil {
		return nil, err
	}
	return d, nil
}

// parseTokensInto is parseTokens into a doc that may have a base path
// and an origin.
func parseTokensInto(d *doc) error {
	src := d.src
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.UseNumber()
	p := &parser{d: d, dec: dec}
	root, err := p.value(0)
	if err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return d.errAt(p.next(), d.basePath(), "unexpected data after the top-level value")
	}
	d.root = root
	return nil
}

// basePath is the JSON path of the document's root.
func (d *doc) basePath() string {
	if d.base == "" {
		return "$"
	}
	return d.base
}

type parser struct {
	d    *doc
	dec  *json.Decoder
	path []step // where the value being parsed sits, for errors
}

// step is one level of a JSON path: an array index, or an object key
// when index is -1.
type step struct {
	key   string
	index int
}

// where renders the parser's current JSON path, as cursors write it.
func (p *parser) where() string {
	var b strings.Builder
	b.WriteString(p.d.basePath())
	for _, s := range p.path {
		if s.index < 0 {
			b.WriteString("." + s.key)
		} else {
			fmt.Fprintf(&b, "[%d]", s.index)
		}
	}
	return b.String()
}

// next finds the offset of the next token, past white space and the
// separators the decoder consumes silently.
func (p *parser) next() int {
	off := int(p.dec.InputOffset())
	for off < len(p.d.src) {
		switch p.d.src[off] {
		case ' ', '\t', '\r', '\n', ',', ':':
			off++
			continue
		}
		break
	}
	return off
}

func (p *parser) value(depth int) (*node, error) {
	if depth > maxDepth {
		return nil, p.d.errAt(p.next(), p.where(), fmt.Sprintf("nesting deeper than %d", maxDepth))
	}
	off := p.next()
	tok, err := p.dec.Token()
	if err != nil {
		return nil, p.syntax(off, err)
	}
	n := &node{off: off}
	switch t := tok.(type) {
	case nil:
		n.kind = nodeNull
	case bool:
		n.kind, n.b = nodeBool, t
	case json.Number:
		n.kind, n.str = nodeNumber, string(t)
	case string:
		if err := p.checkString(off, "a string"); err != nil {
			return nil, err
		}
		n.kind, n.str = nodeString, t
	case json.Delim:
		switch t {
		case '[':
			n.kind = nodeArray
			for p.dec.More() {
				p.path = append(p.path, step{index: len(n.items)})
				item, err := p.value(depth + 1)
				if err != nil {
					return nil, err
				}
				p.path = p.path[:len(p.path)-1]
				n.items = append(n.items, item)
			}
		case '{':
			n.kind = nodeObject
			seen := map[string]bool{}
			for p.dec.More() {
				koff := p.next()
				ktok, err := p.dec.Token()
				if err != nil {
					return nil, p.syntax(koff, err)
				}
				key, _ := ktok.(string)
				if err := p.checkString(koff, "an object key"); err != nil {
					return nil, err
				}
				p.path = append(p.path, step{key: key, index: -1})
				if seen[key] {
					return nil, p.d.errAt(koff, p.where(), fmt.Sprintf("duplicate key %q (each key may appear once)", key))
				}
				seen[key] = true
				val, err := p.value(depth + 1)
				if err != nil {
					return nil, err
				}
				p.path = p.path[:len(p.path)-1]
				n.members = append(n.members, member{key: key, val: val})
			}
		default:
			return nil, p.d.errAt(off, p.where(), fmt.Sprintf("unexpected %q", t))
		}
		end := p.next()
		if _, err := p.dec.Token(); err != nil {
			return nil, p.syntax(end, err)
		}
	}
	return n, nil
}

// checkString checks the raw text of the string token the decoder just
// read, which starts at off, for what the decoder silently repaired.
func (p *parser) checkString(off int, what string) error {
	end := int(p.dec.InputOffset()) - 1 // the closing quote
	if off >= end || end >= len(p.d.src) {
		return nil // cannot happen: the decoder read a whole literal
	}
	if i, msg := badString(p.d.src[off+1 : end]); i >= 0 {
		return p.d.errAt(off+1+i, p.where(), msg+" in "+what)
	}
	return nil
}

// syntax locates a syntax error the decoder reported. The decoder's own
// offsets count from the start of the token it was reading, not of the
// document, so the error is found again by a scan of the whole document,
// which stops at the offending byte; the decoder's error is the fallback.
func (p *parser) syntax(off int, err error) error {
	msg := err.Error()
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		off, msg = len(p.d.src), "unexpected end of input"
	}
	if o, m, ok := firstSyntaxError(p.d.src); ok {
		off, msg = o, m
	}
	return p.d.errAt(off, p.where(), msg)
}

// firstSyntaxError finds the first syntax error of src: the offset of the
// offending byte (len(src) when the text ends too soon) and the message.
func firstSyntaxError(src []byte) (int, string, bool) {
	var raw json.RawMessage
	err := json.Unmarshal(src, &raw)
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		return 0, "", false
	}
	msg := se.Error()
	if se.Offset >= int64(len(src)) && strings.HasPrefix(msg, "unexpected end of JSON input") {
		return len(src), "malformed JSON: unexpected end of input", true
	}
	// Offset counts the bytes read, the offending one included.
	off := int(se.Offset) - 1
	if off < 0 || off >= len(src) {
		return 0, "", false
	}
	if c := src[off]; c >= utf8.RuneSelf {
		// The decoder quotes a non-ASCII byte as if it were Latin-1.
		r, size := utf8.DecodeRune(src[off:])
		if r == utf8.RuneError && size == 1 {
			return off, invalidUTF8(c) + " outside any string", true
		}
		prefix := "invalid character '" + string(rune(c)) + "'"
		if rest, ok := strings.CutPrefix(msg, prefix); ok {
			msg = fmt.Sprintf("invalid character %q (U+%04X)%s", r, r, rest)
		}
	}
	return off, "malformed JSON: " + msg, true
}

// bomUTF8 and the UTF-16 marks are byte order marks a text editor may put
// at the start of a file.
var (
	bomUTF8    = []byte{0xEF, 0xBB, 0xBF}
	bomUTF16BE = []byte{0xFE, 0xFF}
	bomUTF16LE = []byte{0xFF, 0xFE}
)

// checkBOM refuses a file that starts with a byte order mark, saying so.
func checkBOM(file string, src []byte) error {
	var msg string
	switch {
	case bytes.HasPrefix(src, bomUTF8):
		msg = "the file starts with a UTF-8 byte order mark (BOM, bytes EF BB BF); JSON files must not have one: save the file as UTF-8 without BOM"
	case bytes.HasPrefix(src, bomUTF16BE), bytes.HasPrefix(src, bomUTF16LE):
		msg = "the file starts with a UTF-16 byte order mark: it is UTF-16, and JSON files must be UTF-8: save the file as UTF-8 without BOM"
	default:
		return nil
	}
	return &DecodeError{File: file, Line: 1, Col: 1, Path: "$", Msg: msg}
}

// badString finds the first flaw in the raw text of a string literal
// (between its quotes, as json.Valid accepted it) that a JSON decoder would
// silently replace by U+FFFD: a byte that is not valid UTF-8, or a \u
// escape of a lone UTF-16 surrogate. It returns the flaw's index in raw
// and what is wrong, or -1.
func badString(raw []byte) (int, string) {
	for i := 0; i < len(raw); {
		c := raw[i]
		switch {
		case c == '\\':
			if i+1 < len(raw) && raw[i+1] == 'u' {
				r, ok := hex4(raw[i+2:])
				if ok && utf16.IsSurrogate(r) {
					if r >= 0xDC00 {
						return i, fmt.Sprintf("invalid escape \\u%04x: a low UTF-16 surrogate without a high one before it", r)
					}
					lo, ok := rune(0), false
					if i+7 < len(raw) && raw[i+6] == '\\' && raw[i+7] == 'u' {
						lo, ok = hex4(raw[i+8:])
					}
					if !ok || lo < 0xDC00 || lo > 0xDFFF {
						return i, fmt.Sprintf("invalid escape \\u%04x: a high UTF-16 surrogate without a low one after it", r)
					}
					i += 12
					continue
				}
				i += 6
				continue
			}
			i += 2
		case c < utf8.RuneSelf:
			i++
		default:
			r, size := utf8.DecodeRune(raw[i:])
			if r == utf8.RuneError && size == 1 {
				return i, invalidUTF8(c)
			}
			i += size
		}
	}
	return -1, ""
}

// hex4 reads the four hex digits of a \u escape.
func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

func invalidUTF8(c byte) string {
	return fmt.Sprintf("invalid UTF-8: byte 0x%02X is not part of a UTF-8 character (save the file as UTF-8)", c)
}

// errAt builds a DecodeError at a byte offset of the document.
func (d *doc) errAt(off int, path, msg string) *DecodeError {
	line, col := d.locate(off)
	for _, sp := range d.spills {
		if sp.off < off && sp.line == line {
			col += int(sp.text.size) // the text set aside was on this line
		}
	}
	if d.line0 > 0 {
		if line == 1 {
			col += d.col0 - 1
		}
		line += d.line0 - 1
	}
	return &DecodeError{File: d.file, Line: line, Col: col, Path: path, Msg: msg}
}

// locate finds the line and column of a byte offset, counting on from
// the last offset located when that is not past it (see doc).
func (d *doc) locate(off int) (line, col int) {
	off = min(off, len(d.src))
	if d.line == 0 || off < d.lineOff {
		d.lineOff, d.line, d.col = 0, 1, 1
	}
	seg := d.src[d.lineOff:off]
	if n := bytes.Count(seg, newline); n > 0 {
		d.line += n
		d.col = len(seg) - bytes.LastIndexByte(seg, '\n')
	} else {
		d.col += len(seg)
	}
	d.lineOff = off
	return d.line, d.col
}

var newline = []byte{'\n'}

// cursor is a node of a parsed document: every typed read goes through
// it so that errors carry the location (line, column, JSON path).
type cursor struct {
	d *doc
	n *node
}

func (d *doc) cur() cursor { return cursor{d: d, n: d.root} }

// path renders the JSON path of the cursor's node. It is found by a walk
// from the root, so only an error pays for it, never a successful read.
func (c cursor) path() string {
	var walk func(n *node, at string) (string, bool)
	walk = func(n *node, at string) (string, bool) {
		if n == c.n {
			return at, true
		}
		for i, it := range n.items {
			if p, ok := walk(it, fmt.Sprintf("%s[%d]", at, i)); ok {
				return p, true
			}
		}
		for _, m := range n.members {
			if p, ok := walk(m.val, at+"."+m.key); ok {
				return p, true
			}
		}
		return "", false
	}
	p, _ := walk(c.d.root, c.d.basePath())
	return p
}

func (c cursor) fail(format string, args ...any) error {
	return c.d.errAt(c.n.off, c.path(), fmt.Sprintf(format, args...))
}

func (c cursor) expect(k nodeKind) error {
	if c.n.kind != k {
		return c.fail("expected %s, got %s", k, c.describe())
	}
	return nil
}

func (c cursor) describe() string {
	switch c.n.kind {
	case nodeString:
		s, _ := c.d.strOf(c.n)
		return strconv.Quote(s)
	case nodeNumber:
		return "number " + c.n.str
	case nodeBool:
		return strconv.FormatBool(c.n.b)
	}
	return c.n.kind.String()
}

func (c cursor) str() (string, error) {
	if err := c.expect(nodeString); err != nil {
		return "", err
	}
	s, err := c.d.strOf(c.n)
	if err != nil {
		return "", c.fail("the text of a long string could not be read back: %v", err)
	}
	return s, nil
}

func (c cursor) nonEmptyStr() (string, error) {
	s, err := c.str()
	if err == nil && strings.TrimSpace(s) == "" {
		err = c.fail("expected a non-empty string")
	}
	return s, err
}

func (c cursor) oneOf(choices ...string) (string, error) {
	s, err := c.str()
	if err != nil {
		return "", err
	}
	for _, ch := range choices {
		if s == ch {
			return s, nil
		}
	}
	return "", c.fail("expected one of %s, got %q", strings.Join(choices, ", "), s)
}

func (c cursor) integer() (int64, error) {
	if err := c.expect(nodeNumber); err != nil {
		return 0, err
	}
	i, err := strconv.ParseInt(c.n.str, 10, 64)
	if err != nil {
		return 0, c.fail("expected an integer, got %s", c.n.str)
	}
	return i, nil
}

func (c cursor) boolean() (bool, error) {
	if err := c.expect(nodeBool); err != nil {
		return false, err
	}
	return c.n.b, nil
}

func (c cursor) array() ([]cursor, error) {
	if err := c.expect(nodeArray); err != nil {
		return nil, err
	}
	out := make([]cursor, len(c.n.items))
	for i, it := range c.n.items {
		out[i] = cursor{d: c.d, n: it}
	}
	return out, nil
}

func (c cursor) strings() ([]string, error) {
	items, err := c.array()
	if err != nil {
		return nil, err
	}
	out := make([]string, len(items))
	for i, it := range items {
		if out[i], err = it.str(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// entries lists an object's members in file order.
func (c cursor) entries() ([]string, []cursor, error) {
	if err := c.expect(nodeObject); err != nil {
		return nil, nil, err
	}
	keys := make([]string, len(c.n.members))
	vals := make([]cursor, len(c.n.members))
	for i, m := range c.n.members {
		keys[i] = m.key
		vals[i] = cursor{d: c.d, n: m.val}
	}
	return keys, vals, nil
}

// object is an object whose keys must come from a fixed set: reading it
// rejects unknown keys and lets required ones be demanded by name.
type object struct {
	c cursor
}

func (c cursor) object(allowed ...string) (object, error) {
	if err := c.expect(nodeObject); err != nil {
		return object{}, err
	}
	for _, m := range c.n.members {
		ok := false
		for _, a := range allowed {
			if a == m.key {
				ok = true
				break
			}
		}
		if !ok {
			v := cursor{d: c.d, n: m.val}
			// "$schema", which only editors read, is accepted but not advertised.
			listed := slices.DeleteFunc(slices.Clone(allowed), func(k string) bool { return k == "$schema" })
			return object{}, c.d.errAt(v.n.off, v.path(), fmt.Sprintf("unknown field %q (expected one of %s)", m.key, strings.Join(listed, ", ")))
		}
	}
	return object{c: c}, nil
}

func (o object) has(key string) bool { _, ok := o.get(key); return ok }

// get finds a member by key. Objects here are small, so a scan beats a
// map built per object.
func (o object) get(key string) (cursor, bool) {
	for _, m := range o.c.n.members {
		if m.key == key {
			return cursor{d: o.c.d, n: m.val}, true
		}
	}
	return cursor{}, false
}

func (o object) need(key string) (cursor, error) {
	if c, ok := o.get(key); ok {
		return c, nil
	}
	return cursor{}, o.c.fail("missing required field %q", key)
}

// value reads a JSON value as an untyped Value: strings, integers,
// booleans, arrays of strings and null.
func (c cursor) value() (Value, error) {
	switch c.n.kind {
	case nodeNull:
		return Null, nil
	case nodeString:
		s, err := c.str()
		return Str(s), err
	case nodeBool:
		return Bool(c.n.b), nil
	case nodeNumber:
		i, err := c.integer()
		return Int(i), err
	case nodeArray:
		xs, err := c.strings()
		if err != nil {
			return Null, err
		}
		if xs == nil {
			xs = []string{}
		}
		return List(xs), nil
	}
	return Null, c.fail("expected a string, integer, boolean, list of strings or null, got an object")
}
