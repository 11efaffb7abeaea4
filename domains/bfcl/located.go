package bfcl

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/parthack/parthack/model"
)

// jc is a parsed value of a file with where it is: the file, the line
// the value's JSON text starts on, and its JSON path. Every typed read
// that fails gives a *model.DecodeError placing the value.
type jc struct {
	n    *jnode
	file string
	line int // the line of the file the text starts on, from 1
	path string
}

// parseLine parses line n of a file of one JSON value a line, strictly.
func parseLine(file, line string, n int) (jc, error) {
	if !utf8.ValidString(line) {
		i := 0
		for i < len(line) {
			r, size := utf8.DecodeRuneInString(line[i:])
			if r == utf8.RuneError && size == 1 {
				break
			}
			i += size
		}
		return jc{}, &model.DecodeError{File: file, Line: n, Col: i + 1, Msg: fmt.Sprintf("invalid UTF-8: byte 0x%02X is not part of a UTF-8 character (BFCL's files are UTF-8)", line[i])}
	}
	root, err := parseJSON(line, true)
	if err != nil {
		col := err.off + 1
		if err.off < 0 {
			col = 1
		}
		return jc{}, &model.DecodeError{File: file, Line: n, Col: col, Path: err.path, Msg: "malformed JSON: " + err.msg}
	}
	return jc{n: root, file: file, line: n, path: "$"}, nil
}

func (c jc) fail(format string, args ...any) error {
	return &model.DecodeError{File: c.file, Line: c.line, Col: c.n.off + 1, Path: c.path, Msg: fmt.Sprintf(format, args...)}
}

// describe is the value in a few words, for errors.
func (c jc) describe() string {
	switch c.n.kind {
	case jStr:
		s := c.n.s
		if len(s) > 40 {
			s = s[:40] + "…"
		}
		return strconv.Quote(s)
	case jInt, jFloat:
		return "the number " + c.n.s
	case jBool:
		return strconv.FormatBool(c.n.b)
	}
	return jkindNames[c.n.kind]
}

func (c jc) expect(k jkind) error {
	if c.n.kind != k {
		return c.fail("expected %s, got %s", jkindNames[k], c.describe())
	}
	return nil
}

func (c jc) str() (string, error) {
	if err := c.expect(jStr); err != nil {
		return "", err
	}
	return c.n.s, nil
}

func (c jc) item(i int) jc {
	return jc{c.n.items[i], c.file, c.line, fmt.Sprintf("%s[%d]", c.path, i)}
}

func (c jc) array() ([]jc, error) {
	if err := c.expect(jArr); err != nil {
		return nil, err
	}
	out := make([]jc, len(c.n.items))
	for i := range c.n.items {
		out[i] = c.item(i)
	}
	return out, nil
}

func (c jc) strs() ([]string, error) {
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

// jobj is an object whose keys were checked.
type jobj struct{ jc }

// object reads an object; when allowed is not empty, every key must be
// among them.
func (c jc) object(allowed ...string) (jobj, error) {
	if err := c.expect(jObj); err != nil {
		return jobj{}, err
	}
	if len(allowed) > 0 {
		for _, k := range c.n.keys {
			if !contains(allowed, k) {
				return jobj{}, c.fail("unexpected key %q (expected %s)", k, strings.Join(allowed, ", "))
			}
		}
	}
	return jobj{c}, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (o jobj) get(key string) (jc, bool) {
	for i, k := range o.n.keys {
		if k == key {
			return jc{o.n.items[i], o.file, o.line, o.path + "." + key}, true
		}
	}
	return jc{}, false
}

// at is the member named key, which the caller knows is there.
func (o jobj) at(key string) jc { c, _ := o.get(key); return c }

func (o jobj) need(key string) (jc, error) {
	c, ok := o.get(key)
	if !ok {
		return jc{}, o.fail("missing %q", key)
	}
	return c, nil
}

func (o jobj) needStr(key string) (string, error) {
	c, err := o.need(key)
	if err != nil {
		return "", err
	}
	return c.str()
}
