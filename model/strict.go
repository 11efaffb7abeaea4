package model

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// JSON is one value of a document parsed strictly, the way every file
// parthack reads is parsed: UTF-8 without a byte order mark, no
// duplicate keys, no string the decoder would have to repair, nothing
// after the value. Every typed read that fails gives a *DecodeError with
// the file, line, column and JSON path of the value. A reader of another
// benchmark's files (tau-bench runs, tau2 results) decodes through it so
// that its errors read like the task and trajectory decoders'.
type JSON struct{ c cursor }

// JSONObject is a JSON object whose keys were checked against a fixed set.
type JSONObject struct{ o object }

// ParseJSON parses a whole file strictly (see JSON).
func ParseJSON(file string, src []byte) (JSON, error) {
	d, err := parseDoc(file, src)
	if err != nil {
		return JSON{}, err
	}
	return JSON{d.cur()}, nil
}

// Clone is the value as one that stays valid after the call of a
// stream (StreamJSONArray, StreamJSONObject) that handed it on: its
// document's text copied and parsed again, still placed in its file.
func (j JSON) Clone() JSON {
	d := j.c.d
	c := &doc{file: d.file, src: bytes.Clone(d.src), base: d.base, line0: d.line0, col0: d.col0, spills: d.spills}
	if f := (&fastParser{d: c}); !f.document() {
		if err := parseTokensInto(c); err != nil {
			return j // it parsed once; the same text parses again
		}
	}
	var find func(n *node) *node
	find = func(n *node) *node {
		if n.off == j.c.n.off && n.kind == j.c.n.kind {
			return n
		}
		for _, it := range n.items {
			if got := find(it); got != nil {
				return got
			}
		}
		for _, m := range n.members {
			if got := find(m.val); got != nil {
				return got
			}
		}
		return nil
	}
	n := find(c.root)
	if n == nil {
		return j
	}
	return JSON{cursor{d: c, n: n}}
}

// Path is the value's JSON path, "$.traj[3].content".
func (j JSON) Path() string { return j.c.path() }

// Errorf is a *DecodeError located at the value.
func (j JSON) Errorf(format string, args ...any) error { return j.c.fail(format, args...) }

// Pos is the line and column of the value's first byte in its file.
func (j JSON) Pos() (line, col int) {
	e := j.c.d.errAt(j.c.n.off, "", "")
	return e.Line, e.Col
}

// Kind is the value's JSON kind: null, boolean, number, string, array or
// object.
func (j JSON) Kind() string { return j.c.n.kind.String() }

// IsNull reports whether the value is null.
func (j JSON) IsNull() bool { return j.c.n.kind == nodeNull }

// Str reads a string.
func (j JSON) Str() (string, error) { return j.c.str() }

// Int reads an integer (a number with no fraction or exponent).
func (j JSON) Int() (int64, error) { return j.c.integer() }

// Float reads any number.
func (j JSON) Float() (float64, error) {
	if err := j.c.expect(nodeNumber); err != nil {
		return 0, err
	}
	f, err := strconv.ParseFloat(j.c.n.str, 64)
	if err != nil {
		return 0, j.c.fail("number %s is out of range", j.c.n.str)
	}
	return f, nil
}

// Array reads an array's items.
func (j JSON) Array() ([]JSON, error) {
	items, err := j.c.array()
	if err != nil {
		return nil, err
	}
	out := make([]JSON, len(items))
	for i, it := range items {
		out[i] = JSON{it}
	}
	return out, nil
}

// Object reads an object whose keys must all be among allowed.
func (j JSON) Object(allowed ...string) (JSONObject, error) {
	o, err := j.c.object(allowed...)
	return JSONObject{o}, err
}

// Member is the member named key of an object, whatever its other keys;
// false when the value is no object or has no such member.
func (j JSON) Member(key string) (JSON, bool) {
	if j.c.n.kind != nodeObject {
		return JSON{}, false
	}
	c, ok := object{c: j.c}.get(key)
	return JSON{c}, ok
}

// Item is item i of an array; false when the value is no array or has
// no item i.
func (j JSON) Item(i int) (JSON, bool) {
	if j.c.n.kind != nodeArray || i < 0 || i >= len(j.c.n.items) {
		return JSON{}, false
	}
	return JSON{cursor{d: j.c.d, n: j.c.n.items[i]}}, true
}

// Value is the value with FromJSON's mapping (a string, integer, boolean,
// list of strings or null as itself, anything else as canonical JSON),
// read from the tree without writing the value out and parsing it again.
func (j JSON) Value() (Value, error) { return j.c.anyValue() }

// Bool reads a boolean.
func (j JSON) Bool() (bool, error) { return j.c.boolean() }

// Entries are an object's keys and values, in file order.
func (j JSON) Entries() ([]string, []JSON, error) {
	keys, vals, err := j.c.entries()
	out := make([]JSON, len(vals))
	for i, v := range vals {
		out[i] = JSON{v}
	}
	return keys, out, err
}

// Raw is the value's text as its file has it, from its first byte to its
// last (no white space around it): what encoding/json gives a
// json.RawMessage. It shares the document's bytes, which a stream
// (StreamJSONArray, StreamJSONObject) writes again after the call that
// handed the value on: a caller that keeps it copies it.
//
// A value holding a string a stream set aside (see Text) is read back
// whole into a new slice; like Text.String, that panics only at an I/O
// error of the system.
func (j JSON) Raw() []byte {
	d, off := j.c.d, j.c.n.off
	raw, err := d.unspilled(off, valueEnd(d.src, off))
	if err != nil {
		panic(fmt.Sprintf("model.JSON.Raw: the text of a long string could not be read back: %v", err))
	}
	return raw
}

// Text reads a string as a Text: one a stream set aside is left where it
// is, read in pieces when it is read (see Text).
func (j JSON) Text() (Text, error) {
	if err := j.c.expect(nodeString); err != nil {
		return Text{}, err
	}
	if sp := j.c.d.spillOf(j.c.n); sp != nil {
		return Text{sp: sp}, nil
	}
	return Text{s: j.c.n.str}, nil
}

// valueEnd is the offset just past the value of valid JSON that starts
// at off: its closing quote or bracket, or a scalar's last byte.
func valueEnd(src []byte, off int) int {
	depth, i := 0, off
	for i < len(src) {
		switch c := src[i]; c {
		case '"':
			i++
			for i < len(src) && src[i] != '"' {
				if src[i] == '\\' {
					i++
				}
				i++
			}
			i++
		case '{', '[':
			depth++
			i++
		case '}', ']':
			depth--
			i++
		default:
			if depth == 0 { // a number or a literal
				for i < len(src) && !scalarEnd(src[i]) {
					i++
				}
				return i
			}
			i++
		}
		if depth == 0 {
			return i
		}
	}
	return i
}

// Get is the member of the object named key, if it has one.
func (o JSONObject) Get(key string) (JSON, bool) {
	c, ok := o.o.get(key)
	return JSON{c}, ok
}

// Need is the member named key, or an error saying it is missing.
func (o JSONObject) Need(key string) (JSON, error) {
	c, err := o.o.need(key)
	return JSON{c}, err
}

// StreamJSONArray reads a file that must hold one JSON array from r, one
// element at a time, holding only the element being read: a file of
// thousands of runs takes the memory of its largest. head, when not nil,
// gets the array first, located (Pos, Errorf) but with its elements
// unread: an array with none is placed by it. Each element is parsed as
// strictly as ParseJSON parses a file, its errors located in the file
// (line and column from the file's start) with the path "$[i]", and
// handed to each with its index; v is valid only during the call. An
// error of head or each stops the stream and is returned as it is. A
// gzipped file must be unpacked first (mapfile.Open); the input is read
// to its end, so that a gzip stream's checksum is checked.
func StreamJSONArray(file string, r io.Reader, head func(v JSON) error, each func(i int, v JSON) error) error {
	s, err := newArrayScanner(file, r)
	if err != nil {
		return err
	}
	c, err := s.skipWS()
	if err != nil {
		return s.cut("$", "the file is empty, expected an array", err)
	}
	if c != '[' {
		return s.fail("$", fmt.Sprintf("expected an array, got %s", describeStart(c)))
	}
	if head != nil {
		if err := head(s.opening("$")); err != nil {
			return err
		}
	}
	if err := s.elements("$", each); err != nil {
		return err
	}
	return s.end()
}

func newArrayScanner(file string, r io.Reader) (*arrayScanner, error) {
	s := &arrayScanner{file: file, r: bufio.NewReaderSize(r, streamBuffer), line: 1, col: 1}
	if head, _ := s.r.Peek(3); len(head) > 0 {
		if err := checkBOM(file, head); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// elements reads the array at path, its '[' next, an element at a time,
// handing each to each (valid during the call).
func (s *arrayScanner) elements(path string, each func(i int, v JSON) error) error {
	s.read()
	for i := 0; ; i++ {
		at := fmt.Sprintf("%s[%d]", path, i)
		c, err := s.skipWS()
		if err != nil {
			return s.cut(at, "the array is not closed", err)
		}
		if c == ']' && i == 0 {
			s.read()
			return nil
		}
		v, err := s.value(at, fmt.Sprintf("element %d", i))
		if err != nil {
			return err
		}
		if err := each(i, v); err != nil {
			return err
		}
		s.release()
		c, err = s.skipWS()
		if err != nil {
			return s.cut(at, "the array is not closed", err)
		}
		s.read()
		if c == ']' {
			return nil
		}
		if c != ',' {
			return s.failBack(at, fmt.Sprintf("malformed JSON: expected ',' or ']' after element %d, got %s", i, describeByte(c)))
		}
	}
}

// end refuses anything but white space after the top-level value, and
// reads the input to its end: a gzipped file's checksum is checked there.
func (s *arrayScanner) end() error {
	c, err := s.skipWS()
	switch {
	case err == nil:
		return s.fail("$", fmt.Sprintf("malformed JSON: unexpected data after the top-level value: %s", describeByte(c)))
	case err != io.EOF:
		return s.fail("$", err.Error())
	}
	return nil
}

// cut is the error of input that stops where the grammar needs more:
// its end (what says what was left open), or an error reading it (a
// gzip stream that is corrupt, a directory), which is said instead.
func (s *arrayScanner) cut(path, what string, err error) error {
	if err != io.EOF {
		return s.fail(path, err.Error())
	}
	return s.fail(path, "malformed JSON: unexpected end of input: "+what)
}

// StreamJSONObject reads a file that must hold one JSON object from r,
// member by member, as strictly as ParseJSON parses a file and holding
// only the member being read; the members named in arrays whose value is
// an array are read an element at a time. A member is handed to member
// with its key, an element of such an array to each with the array's key
// and its index; v (and its Raw text) is valid only during the call; a
// streamed array is handed to member first, located but with its elements
// unread (see StreamJSONArray).
// Errors are located in the file, with the paths "$.key" and "$.key[i]";
// a key that repeats is one. An error of member or each stops the stream
// and is returned as it is. A gzipped file must be unpacked first
// (mapfile.Open); the input is read to its end.
func StreamJSONObject(file string, r io.Reader, arrays []string, member func(key string, v JSON) error, each func(key string, i int, v JSON) error) error {
	s, err := newArrayScanner(file, r)
	if err != nil {
		return err
	}
	c, err := s.skipWS()
	if err != nil {
		return s.cut("$", "the file is empty, expected an object", err)
	}
	if c != '{' {
		return s.fail("$", fmt.Sprintf("expected an object, got %s", describeStart(c)))
	}
	s.read()
	seen := map[string]bool{}
	for n := 0; ; n++ {
		c, err := s.skipWS()
		if err != nil {
			return s.cut("$", "the object is not closed", err)
		}
		if c == '}' && n == 0 {
			s.read()
			break
		}
		if c != '"' {
			return s.fail("$", fmt.Sprintf("malformed JSON: expected a key, got %s", describeByte(c)))
		}
		kl, kc := s.line, s.col
		k, err := s.value("$", "a key")
		if err != nil {
			return err
		}
		key, err := k.Str()
		if err != nil {
			return err
		}
		path := "$." + key
		if seen[key] {
			return &DecodeError{File: s.file, Line: kl, Col: kc, Path: path, Msg: fmt.Sprintf("duplicate key %q (each key may appear once)", key)}
		}
		seen[key] = true
		if c, err = s.skipWS(); err != nil || c != ':' {
			if err != nil {
				return s.cut(path, "the object is not closed", err)
			}
			return s.fail(path, fmt.Sprintf("malformed JSON: expected ':' after key %q, got %s", key, describeByte(c)))
		}
		s.read()
		if c, err = s.skipWS(); err != nil {
			return s.cut(path, "the object is not closed", err)
		}
		if c == '[' && slices.Contains(arrays, key) {
			if err = member(key, s.opening(path)); err == nil {
				err = s.elements(path, func(i int, v JSON) error { return each(key, i, v) })
			}
		} else {
			var v JSON
			if v, err = s.value(path, "member "+strconv.Quote(key)); err == nil {
				err = member(key, v)
				s.release()
			}
		}
		if err != nil {
			return err
		}
		c, err = s.skipWS()
		if err != nil {
			return s.cut(path, "the object is not closed", err)
		}
		s.read()
		if c == '}' {
			break
		}
		if c != ',' {
			return s.failBack(path, fmt.Sprintf("malformed JSON: expected ',' or '}' after member %q, got %s", key, describeByte(c)))
		}
	}
	return s.end()
}

// arrayScanner finds the elements of a streamed array: it tracks only
// strings and brackets, and leaves the grammar to the strict parser.
type arrayScanner struct {
	file      string
	r         *bufio.Reader
	line, col int // of the next byte
	buf       []byte
	parts     [][]byte // the parts of a large value before buf (take)
	frees     []func() // give back the parts after the first and buf (take)
	owned     bool     // buf is a large value's own, shared by its strings
	stack     []byte
	strAt     int // the offset in the value of the last string's quote
	// A string longer than spillAbove goes to a spill file (openSpill),
	// the value keeping "" in its place.
	spill    *spillFile // the stream's, made at its first long string
	noSpill  bool       // the system gave no spill file: strings stay here
	open     *spilled   // the string being spilled
	openLine int        // its line in the value
	check    textChecker
	spills   []spillAt // the value's spilled strings
	spillErr error     // writing the spill file failed
}

// spillFileMax is the length of a spill file beyond which a stream
// starts another (a variable for the tests).
var spillFileMax int64 = 64 << 20

// streamBuffer is the size of a stream's read buffer: a string is set
// aside once it is longer than spillAbove at the end of a buffer's worth
// (a variable for the tests, as spillAbove is).
var streamBuffer = 1 << 16

// spillAbove is the length of a string's text beyond which a stream
// keeps it in a spill file, not in memory (a variable for the tests,
// which spill short strings to hold both ways to the same reading).
var spillAbove = 1 << 20

// size is the length of the value read so far.
func (s *arrayScanner) size() int {
	n := len(s.buf)
	for _, p := range s.parts {
		n += len(p)
	}
	return n
}

// openSpill moves the text of the open string, read so far, to the
// stream's spill file; the rest of it follows there (spillTake).
func (s *arrayScanner) openSpill() {
	if s.noSpill {
		return
	}
	if s.spill == nil || s.spill.size > spillFileMax {
		// A full file goes with the last Text read from it, so that a
		// stream of many long messages keeps on disk only those of the
		// runs still held.
		if s.spill = newSpillFile(); s.spill == nil {
			s.noSpill = true
			return
		}
	}
	from := s.strAt + 1
	s.open = &spilled{f: s.spill, off: s.spill.size}
	s.openLine = s.line
	s.check = textChecker{}
	at := 0
	for _, b := range append(s.parts[:len(s.parts):len(s.parts)], s.buf) {
		if lo := max(from-at, 0); lo < len(b) {
			s.spillWrite(b[lo:])
		}
		at += len(b)
	}
	s.truncate(from)
}

// spillWrite writes part of the open string's text to the spill file.
func (s *arrayScanner) spillWrite(b []byte) {
	if s.spillErr == nil {
		s.spillErr = s.spill.write(b)
	}
	s.check.add(b)
}

// spillTake consumes b, the next bytes of the open spilled string, into
// the spill file, keeping line and column.
func (s *arrayScanner) spillTake(b []byte) {
	s.spillWrite(b)
	s.advance(b)
}

// advance consumes b, the next bytes of the reader's buffer, keeping line
// and column.
func (s *arrayScanner) advance(b []byte) {
	if k := bytes.Count(b, newline); k > 0 {
		s.line += k
		s.col = len(b) - bytes.LastIndexByte(b, '\n')
	} else {
		s.col += len(b)
	}
	s.r.Discard(len(b))
}

// closeSpill ends the open spilled string, its closing quote next.
func (s *arrayScanner) closeSpill(line0 int) {
	sp := s.open
	sp.size = s.spill.size - sp.off
	sound := s.check.sound()
	sp.n = s.check.n
	s.spills = append(s.spills, spillAt{off: s.strAt, line: s.openLine - line0 + 1, text: sp, flawed: !sound})
	spillsMade.Add(1)
	s.open, s.check = nil, textChecker{}
}

// truncate cuts the value read so far to its first n bytes, giving back
// the parts past them.
func (s *arrayScanner) truncate(n int) {
	at := 0
	for i, p := range s.parts {
		if n <= at+len(p) {
			// Part i becomes the buffer, with its own free (frees[i-1]);
			// the parts after it go back.
			for _, free := range s.frees[i:] {
				free()
			}
			s.buf = p[:n-at]
			s.parts, s.frees = s.parts[:i], s.frees[:i]
			return
		}
		at += len(p)
	}
	s.buf = s.buf[:n-at]
}

// opening is the array whose '[' is the next byte, as a value placed in
// the file (path, line and column) whose elements are not read: what
// stands for a streamed array until they are.
func (s *arrayScanner) opening(path string) JSON {
	d := &doc{file: s.file, src: []byte("[]"), base: path, line0: s.line, col0: s.col, root: &node{kind: nodeArray}}
	return JSON{d.cur()}
}

// read consumes one byte, keeping line and column.
func (s *arrayScanner) read() (byte, error) {
	c, err := s.r.ReadByte()
	if err != nil {
		return 0, err
	}
	if c == '\n' {
		s.line, s.col = s.line+1, 1
	} else {
		s.col++
	}
	return c, nil
}

// skipWS consumes white space and returns the next byte, not consumed.
func (s *arrayScanner) skipWS() (byte, error) {
	for {
		c, err := s.r.ReadByte()
		if err != nil {
			return 0, err
		}
		switch c {
		case ' ', '\t', '\r':
			s.col++
		case '\n':
			s.line, s.col = s.line+1, 1
		default:
			return c, s.r.UnreadByte()
		}
	}
}

func (s *arrayScanner) fail(path, msg string) error {
	return &DecodeError{File: s.file, Line: s.line, Col: s.col, Path: path, Msg: msg}
}

// failBack is fail at the byte just read.
func (s *arrayScanner) failBack(path, msg string) error {
	return &DecodeError{File: s.file, Line: s.line, Col: s.col - 1, Path: path, Msg: msg}
}

// maxScalar bounds a top-level scalar element, which the parser refuses
// anyway when it is not JSON, so that garbage is not read whole.
const maxScalar = 1 << 20

// value reads the bytes of the value at path (what names it in a
// message) and parses them strictly; s.buf holds them until the next.
// The bytes are taken from the reader's buffer a run at a time, and a
// string's text up to its next quote or backslash at once: most of a
// large value is the text of its strings.
func (s *arrayScanner) value(path, what string) (JSON, error) {
	line0, col0 := s.line, s.col
	if s.owned {
		s.buf, s.owned = nil, false // the last value's strings share it
	}
	s.buf, s.stack = s.buf[:0], s.stack[:0]
	inString, escaped := false, false
	for done := false; !done; {
		if _, err := s.r.Peek(1); err != nil {
			s.dropParts()
			s.open, s.spills = nil, nil
			return JSON{}, s.cut(path, "the file ends inside "+what, err)
		}
		chunk, _ := s.r.Peek(s.r.Buffered())
		n, scalarEnds := 0, false // scalarEnds: whether a scalar ends is told by the byte after the chunk
		for n < len(chunk) && !done {
			if inString && !escaped {
				i := bytes.IndexAny(chunk[n:], `"\`)
				if i < 0 {
					n = len(chunk)
					break
				}
				n += i
				if chunk[n] == '"' && s.open != nil {
					break // a spilled string ends: its text so far goes first
				}
			}
			c := chunk[n]
			n++
			switch {
			case inString:
				switch {
				case escaped:
					escaped = false
				case c == '\\':
					escaped = true
				case c == '"':
					inString = false
					done = len(s.stack) == 0
				}
			case c == '"':
				inString = true
				s.strAt = s.size() + n - 1
			case c == '{' || c == '[':
				s.stack = append(s.stack, c)
				// Deeper than the parser allows: hand it over, it says so.
				done = len(s.stack) > maxDepth+1
			case c == '}' || c == ']':
				// A bracket that closes nothing open ends the element: the
				// parser finds the error at or before it.
				k := len(s.stack)
				done = k <= 1 || s.stack[k-1] != c-2
				if k > 0 {
					s.stack = s.stack[:k-1]
				}
			case len(s.stack) == 0:
				// A scalar: it ends before white space, ',', ']' or '}'.
				if n == len(chunk) {
					scalarEnds = true
				} else {
					done = len(s.buf)+n > maxScalar || scalarEnd(chunk[n])
				}
			}
		}
		if s.open != nil {
			s.spillTake(chunk[:n])
			if n < len(chunk) { // at the string's closing quote
				s.closeSpill(line0)
			}
			continue
		}
		s.take(chunk[:n])
		if inString && s.size()-s.strAt-1 > spillAbove {
			s.openSpill()
		}
		if scalarEnds && !done {
			next, err := s.r.Peek(1)
			done = err != nil || len(s.buf) > maxScalar || scalarEnd(next[0])
		}
	}
	// A large value's bytes were joined into a buffer of its own, never
	// to be written again (the next value takes another): its strings
	// share it.
	s.owned = s.joined()
	d := &doc{file: s.file, src: s.buf, base: path, line0: line0, col0: col0, owned: s.owned, spills: s.spills}
	s.spills = nil // the document's now
	if s.spillErr != nil {
		err := s.spillErr
		s.spillErr = nil
		return JSON{}, d.errAt(0, path, "the text of a long string could not be set aside: "+err.Error())
	}
	parse := func(d *doc) error {
		if f := (&fastParser{d: d}); !f.document() {
			return parseTokensInto(d)
		}
		return nil
	}
	var err error
	if d.spillsSound() {
		err = parse(d)
	}
	if d.spills != nil && (!d.spillsSound() || err != nil || !d.spilledValues()) {
		// A flaw in a spilled string, an error that may be the "" in a
		// string's place, or a spilled key: the value is read whole, as
		// it would be without spilling, and its errors are the parser's.
		src, rerr := d.unspilled(0, len(d.src))
		if rerr != nil {
			return JSON{}, d.errAt(0, path, "the text of a long string could not be read back: "+rerr.Error())
		}
		d = &doc{file: s.file, src: src, base: path, line0: line0, col0: col0, owned: true}
		err = parse(d)
	}
	if err != nil {
		return JSON{}, err
	}
	return JSON{d.cur()}, nil
}

// scalarEnd reports whether c ends a top-level scalar.
func scalarEnd(c byte) bool { return strings.IndexByte(" \t\r\n,]}", c) >= 0 }

// take consumes b, the next bytes of the reader's buffer, into the value
// being read, keeping line and column. A large value is kept in parts of
// a fixed size, joined once it is whole (joined), so that its bytes are
// copied twice, not once for each time a growing buffer would double.
// The parts after the first are scratch memory outside the heap
// (scratch), each given back as soon as it is copied into the
// joined value: a value of n bytes peaks at about n bytes more than the
// stream holds, not 2n, and leaves no garbage behind.
func (s *arrayScanner) take(b []byte) {
	if len(s.buf)+len(b) > cap(s.buf) && cap(s.buf) >= valuePart {
		s.parts = append(s.parts, s.buf)
		var free func()
		s.buf, free = scratch(max(valuePart, len(b)))
		s.frees = append(s.frees, free)
	}
	s.buf = append(s.buf, b...)
	s.advance(b)
}

// valuePart is the size of a part of a large value (take).
const valuePart = 1 << 20

// joined makes s.buf the whole value read, its parts joined into a
// buffer of its own (true).
func (s *arrayScanner) joined() bool {
	if len(s.parts) == 0 {
		return false
	}
	n := len(s.buf)
	for _, p := range s.parts {
		n += len(p)
	}
	whole := make([]byte, 0, n)
	for i, p := range s.parts {
		whole = append(whole, p...)
		s.parts[i] = nil
		if i > 0 { // the first part is the heap's, each later one scratch
			s.frees[i-1]()
		}
	}
	whole = append(whole, s.buf...)
	s.frees[len(s.frees)-1]()
	s.buf, s.parts, s.frees = whole, s.parts[:0], s.frees[:0]
	return true
}

// dropParts gives back the parts of a value not read to its end.
func (s *arrayScanner) dropParts() {
	for _, free := range s.frees {
		free()
	}
	if len(s.parts) > 0 {
		s.buf = nil // scratch, given back
	}
	s.parts, s.frees = s.parts[:0], s.frees[:0]
}

// release lets a large value's bytes go once the value is handed on,
// instead of keeping them for the rest of the stream.
func (s *arrayScanner) release() {
	if cap(s.buf) > valuePart {
		s.buf, s.owned = nil, false
	}
}

// describeByte names a byte met where JSON syntax expected another.
func describeByte(c byte) string {
	if c >= 0x20 && c < 0x7F {
		return strconv.QuoteRune(rune(c))
	}
	return fmt.Sprintf("byte 0x%02X", c)
}

// describeStart names the kind of value a byte starts.
func describeStart(c byte) string {
	switch {
	case c == '{':
		return "an object"
	case c == '[':
		return "an array"
	case c == '"':
		return "a string"
	case c == 't' || c == 'f':
		return "a boolean"
	case c == 'n':
		return "null"
	case c == '-' || (c >= '0' && c <= '9'):
		return "a number"
	}
	return describeByte(c)
}
