package model

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// DecodeError is a located decoding error: the file, the line and column
// in it, the JSON path of the offending value, and what was expected.
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
	// lineOff, line and col memoize the last position located, so that
	// locating steps in file order (as decodeStep does) scans the source
	// once overall instead of once per step.
	lineOff, line, col int
}

// maxDepth bounds nesting so hostile input cannot exhaust the stack.
const maxDepth = 200

// parseDoc parses src strictly: one JSON value, no trailing data, no
// duplicate keys in any object.
func parseDoc(file string, src []byte) (*doc, error) {
	if json.Valid(src) {
		// The common case: a fast scan of text known to be valid JSON.
		return parseValid(file, src)
	}
	// Invalid text takes the decoder's path, which words syntax errors.
	return parseTokens(file, src)
}

// parseValid parses text json.Valid accepted, with the fast parser.
func parseValid(file string, src []byte) (*doc, error) {
	d := &doc{file: file, src: src}
	f := &fastParser{d: d}
	root, err := f.value(0)
	if err != nil {
		return nil, err
	}
	d.root = root
	return d, nil
}

// parseTokens parses any text with encoding/json's tokenizer, locating
// syntax errors.
func parseTokens(file string, src []byte) (*doc, error) {
	d := &doc{file: file, src: src}
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.UseNumber()
	p := &parser{d: d, dec: dec}
	root, err := p.value(0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, d.errAt(p.next(), "$", "unexpected data after the top-level value")
	}
	d.root = root
	return d, nil
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
	b.WriteString("$")
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

func (p *parser) syntax(off int, err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		off = int(se.Offset)
	}
	msg := err.Error()
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		msg = "unexpected end of input"
	}
	return p.d.errAt(off, p.where(), "malformed JSON: "+msg)
}

// errAt builds a DecodeError at a byte offset of the document.
func (d *doc) errAt(off int, path, msg string) *DecodeError {
	if off > len(d.src) {
		off = len(d.src)
	}
	if d.line == 0 || off < d.lineOff {
		d.lineOff, d.line, d.col = 0, 1, 1
	}
	for _, c := range d.src[d.lineOff:off] {
		if c == '\n' {
			d.line++
			d.col = 1
		} else {
			d.col++
		}
	}
	d.lineOff = off
	return &DecodeError{File: d.file, Line: d.line, Col: d.col, Path: path, Msg: msg}
}

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
	p, _ := walk(c.d.root, "$")
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
		return strconv.Quote(c.n.str)
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
	return c.n.str, nil
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
			return object{}, c.d.errAt(v.n.off, v.path(), fmt.Sprintf("unknown field %q (expected one of %s)", m.key, strings.Join(allowed, ", ")))
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
		return Str(c.n.str), nil
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
