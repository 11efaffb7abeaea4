package model

import (
	"bufio"
	"fmt"
	"io"
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
// thousands of runs takes the memory of its largest. Each element is
// parsed as strictly as ParseJSON parses a file, its errors located in
// the file (line and column from the file's start) with the path "$[i]",
// and handed to each with its index; v is valid only during the call.
// An error of each stops the stream and is returned as it is. A gzipped
// file must be unpacked first (OpenInput).
func StreamJSONArray(file string, r io.Reader, each func(i int, v JSON) error) error {
	s := &arrayScanner{file: file, r: bufio.NewReaderSize(r, 1<<16), line: 1, col: 1}
	if head, _ := s.r.Peek(3); len(head) > 0 {
		if err := checkBOM(file, head); err != nil {
			return err
		}
	}
	c, err := s.skipWS()
	if err != nil {
		return s.fail("$", "malformed JSON: unexpected end of input: the file is empty, expected an array")
	}
	if c != '[' {
		return s.fail("$", fmt.Sprintf("expected an array, got %s", describeStart(c)))
	}
	s.read()
	for i := 0; ; i++ {
		c, err := s.skipWS()
		if err != nil {
			return s.fail(fmt.Sprintf("$[%d]", i), "malformed JSON: unexpected end of input: the array is not closed")
		}
		if c == ']' && i == 0 {
			s.read()
			break
		}
		v, err := s.element(i)
		if err != nil {
			return err
		}
		if err := each(i, v); err != nil {
			return err
		}
		c, err = s.skipWS()
		if err != nil {
			return s.fail(fmt.Sprintf("$[%d]", i), "malformed JSON: unexpected end of input: the array is not closed")
		}
		s.read()
		if c == ']' {
			break
		}
		if c != ',' {
			return s.failBack(fmt.Sprintf("$[%d]", i), fmt.Sprintf("malformed JSON: expected ',' or ']' after element %d, got %s", i, describeByte(c)))
		}
	}
	if c, err := s.skipWS(); err == nil {
		return s.fail("$", fmt.Sprintf("malformed JSON: unexpected data after the top-level value: %s", describeByte(c)))
	}
	return nil
}

// arrayScanner finds the elements of a streamed array: it tracks only
// strings and brackets, and leaves the grammar to the strict parser.
type arrayScanner struct {
	file      string
	r         *bufio.Reader
	line, col int // of the next byte
	buf       []byte
	stack     []byte
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

// element reads the i-th element's bytes and parses them strictly.
func (s *arrayScanner) element(i int) (JSON, error) {
	line0, col0 := s.line, s.col
	path := fmt.Sprintf("$[%d]", i)
	s.buf, s.stack = s.buf[:0], s.stack[:0]
	inString, escaped := false, false
	for done := false; !done; {
		c, err := s.read()
		if err != nil {
			if err == io.EOF {
				return JSON{}, s.fail(path, fmt.Sprintf("malformed JSON: unexpected end of input: the file ends inside element %d", i))
			}
			return JSON{}, fmt.Errorf("%s: %w", s.file, err)
		}
		s.buf = append(s.buf, c)
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
		case c == '{' || c == '[':
			s.stack = append(s.stack, c)
			// Deeper than the parser allows: hand it over, it says so.
			done = len(s.stack) > maxDepth+1
		case c == '}' || c == ']':
			// A bracket that closes nothing open ends the element: the
			// parser finds the error at or before it.
			n := len(s.stack)
			done = n <= 1 || s.stack[n-1] != c-2
			if n > 0 {
				s.stack = s.stack[:n-1]
			}
		case len(s.stack) == 0:
			// A scalar: it ends before white space, ',' or ']'.
			next, err := s.r.Peek(1)
			done = err != nil || len(s.buf) > maxScalar || strings.IndexByte(" \t\r\n,]", next[0]) >= 0
		}
	}
	d := &doc{file: s.file, src: s.buf, base: path, line0: line0, col0: col0}
	if f := (&fastParser{d: d}); !f.document() {
		if err := parseTokensInto(d); err != nil {
			return JSON{}, err
		}
	}
	return JSON{d.cur()}, nil
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
