package model

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
	"weak"
)

// Text is the text of a message. It is a string held in memory, or, for
// a string a stream met that is longer than spillAbove (a 200 MB user
// message), the string's JSON text in a file the stream wrote it to,
// decoded a piece at a time whenever it is read: a run is read, certified
// and saved holding a bounded part of it. The zero Text is "".
type Text struct {
	s  string
	sp *spilled
}

// spilled is a string's JSON text, between its quotes, as its file had
// it: checked as the parser checks a string when it was written (a flaw
// keeps the string in memory, see arrayScanner.value).
type spilled struct {
	f         *spillFile
	off, size int64 // the text's place in f
	n         int   // the decoded string's length
	// made is the string last read back whole, while anything holds it:
	// readers that need it whole (a payload per candidate) share one.
	mu   sync.Mutex
	made weak.Pointer[byte]
}

// spillFile is the unlinked file a stream writes its long strings to: it
// lives as long as a Text read from it does, and the system frees its
// blocks once the last is gone.
type spillFile struct {
	f    *os.File
	size int64
}

// TextOf is s as a Text.
func TextOf(s string) Text { return Text{s: s} }

// Len is the text's length in bytes.
func (t Text) Len() int {
	if t.sp != nil {
		return t.sp.n
	}
	return len(t.s)
}

// String is the whole text, made in memory for a spilled one. It panics
// only when the spill file cannot be read back, which an I/O error of
// the system causes, never the input (the text was checked when written).
func (t Text) String() string {
	s, err := t.whole()
	if err != nil {
		panic(fmt.Sprintf("model.Text: %v", err))
	}
	return s
}

// whole is the whole text: a spilled one read back, or the one read back
// last while anything holds it.
func (t Text) whole() (string, error) {
	if t.sp == nil {
		return t.s, nil
	}
	sp := t.sp
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if p := sp.made.Value(); p != nil {
		return unsafe.String(p, sp.n), nil
	}
	var b strings.Builder
	b.Grow(sp.n)
	if err := t.Pieces(func(p string) error { b.WriteString(p); return nil }); err != nil {
		return "", err
	}
	s := b.String()
	sp.made = weak.Make(unsafe.StringData(s))
	return s, nil
}

// Pieces hands the text to each in order, in pieces of about 64 KiB for a
// spilled one (one piece for another), each cut where a character starts.
// An error of each stops it and is returned.
func (t Text) Pieces(each func(piece string) error) error {
	if t.sp == nil {
		if t.s == "" {
			return nil
		}
		return each(t.s)
	}
	sp := t.sp
	raw, dec := make([]byte, textPiece), make([]byte, 0, textPiece)
	var carry []byte
	for off := sp.off; off < sp.off+sp.size; {
		n := copy(raw, carry)
		k := int(min(int64(len(raw)-n), sp.off+sp.size-off))
		if _, err := sp.f.f.ReadAt(raw[n:n+k], off); err != nil && err != io.EOF {
			return fmt.Errorf("read back a spilled string: %w", err)
		}
		off += int64(k)
		final := off == sp.off+sp.size
		out, used, ok := decodeText(dec[:0], raw[:n+k], final)
		if !ok || (final && used < n+k) {
			return fmt.Errorf("read back a spilled string: its text changed at byte %d", off)
		}
		carry = append(carry[:0], raw[used:n+k]...)
		if len(out) > 0 {
			if err := each(string(out)); err != nil {
				return err
			}
		}
		if final {
			break
		}
	}
	return nil
}

// textPiece is the size of the pieces a spilled text is read in.
const textPiece = 64 << 10

// Equal reports whether the text is s, reading a spilled one in pieces.
func (t Text) Equal(s string) bool {
	if t.sp == nil {
		return t.s == s
	}
	if t.sp.n != len(s) {
		return false
	}
	err := t.Pieces(func(p string) error {
		if !strings.HasPrefix(s, p) {
			return errTextDiffers
		}
		s = s[len(p):]
		return nil
	})
	return err == nil
}

// errTextDiffers and errTextFound stop a reading of a text's pieces.
var (
	errTextDiffers = errors.New("the texts differ")
	errTextFound   = errors.New("found")
)

// HasPrefix reports whether the text starts with prefix, reading a
// spilled one no further than it.
func (t Text) HasPrefix(prefix string) bool {
	if t.sp == nil {
		return strings.HasPrefix(t.s, prefix)
	}
	rest := prefix
	err := t.Pieces(func(p string) error {
		k := min(len(p), len(rest))
		if p[:k] != rest[:k] {
			return errTextDiffers
		}
		if rest = rest[k:]; rest == "" {
			return errTextFound
		}
		return nil
	})
	return err == errTextFound || prefix == ""
}

// Head is the text's first n bytes at most, cut where a character
// starts: a spilled text is read no further.
func (t Text) Head(n int) string {
	if t.sp == nil {
		if len(t.s) <= n {
			return t.s
		}
		for n > 0 && !utf8.RuneStart(t.s[n]) {
			n--
		}
		return t.s[:n]
	}
	var b strings.Builder
	t.Pieces(func(p string) error {
		if b.Len()+len(p) > n {
			p = TextOf(p).Head(n - b.Len())
			b.WriteString(p)
			return errTextFound
		}
		b.WriteString(p)
		return nil
	})
	return b.String()
}

// Blank reports whether the text is only white space, as
// strings.TrimSpace finds it.
func (t Text) Blank() bool {
	err := t.Pieces(func(p string) error {
		if strings.TrimSpace(p) != "" {
			return errTextDiffers
		}
		return nil
	})
	return err == nil
}

// Contains reports whether form(text) holds sub, where form maps each
// character on its own (strings.ToLower, say; nil keeps the text as it
// is): a spilled text is read a piece at a time, each piece formed and
// searched with the end of the one before it.
func (t Text) Contains(sub string, form func(string) string) bool {
	if form == nil {
		form = func(s string) string { return s }
	}
	if t.sp == nil || sub == "" {
		return strings.Contains(form(t.s), sub)
	}
	var tail string
	err := t.Pieces(func(p string) error {
		s := tail + form(p)
		if strings.Contains(s, sub) {
			return errTextFound
		}
		if k := len(sub) - 1; len(s) > k {
			tail = strings.Clone(s[len(s)-k:])
		} else {
			tail = s
		}
		return nil
	})
	return err == errTextFound
}

// MarshalJSON writes the text as encoding/json writes a string, leaving
// '<', '>' and '&' to the encoder, which escapes them unless told not to
// (SetEscapeHTML), as it does a string field's.
func (t Text) MarshalJSON() ([]byte, error) { return appendJSONString(nil, t.String()), nil }

// UnmarshalJSON reads a JSON string.
func (t *Text) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	*t = Text{s: s}
	return nil
}

// newSpillFile makes a stream's spill file in the system's temporary
// directory, unlinked at once; nil where the system cannot, and the
// stream then keeps its strings in memory.
func newSpillFile() *spillFile {
	f, err := os.CreateTemp("", "parthack-text-*")
	if err != nil {
		return nil
	}
	if err := os.Remove(f.Name()); err != nil {
		// A system that cannot unlink an open file (Windows) would leave
		// it behind after a kill: keep the strings in memory there.
		f.Close()
		os.Remove(f.Name())
		return nil
	}
	return &spillFile{f: f}
}

// write appends b to the file.
func (f *spillFile) write(b []byte) error {
	n, err := f.f.WriteAt(b, f.size)
	f.size += int64(n)
	return err
}

// decodeText decodes a part of a string's JSON text, checking it as the
// parser does (escapeLen, badString, no control character): it appends
// what the characters src holds whole decode to and says how many bytes
// it used, the rest to be given again at the head of the next part; ok is
// false at a flaw, which the parser would refuse. final says src ends
// the text, so that nothing may be left.
func decodeText(dst, src []byte, final bool) (out []byte, used int, ok bool) {
	i := 0
	for i < len(src) {
		c := src[i]
		switch {
		case c == '\\':
			if len(src)-i < 2 || src[i+1] == 'u' && len(src)-i < 6 {
				return dst, i, !final
			}
			e := src[i+1]
			if e != 'u' {
				r, ok := simpleEscape(e)
				if !ok {
					return dst, i, false
				}
				dst = append(dst, r)
				i += 2
				continue
			}
			r, ok := hex4(src[i+2:])
			if !ok {
				return dst, i, false
			}
			if utf16.IsSurrogate(r) {
				if r >= 0xDC00 {
					return dst, i, false
				}
				if len(src)-i < 12 {
					return dst, i, !final
				}
				if src[i+6] != '\\' || src[i+7] != 'u' {
					return dst, i, false
				}
				lo, ok := hex4(src[i+8:])
				if !ok || lo < 0xDC00 || lo > 0xDFFF {
					return dst, i, false
				}
				dst = utf8.AppendRune(dst, utf16.DecodeRune(r, lo))
				i += 12
				continue
			}
			dst = utf8.AppendRune(dst, r)
			i += 6
		case c == '"' || c < 0x20:
			return dst, i, false
		case c < utf8.RuneSelf:
			j := plainRun(src, i)
			dst = append(dst, src[i:j]...)
			i = j
		default:
			if !utf8.FullRune(src[i:]) {
				return dst, i, !final
			}
			r, size := utf8.DecodeRune(src[i:])
			if r == utf8.RuneError && size == 1 {
				return dst, i, false
			}
			dst = append(dst, src[i:i+size]...)
			i += size
		}
	}
	return dst, i, true
}

// simpleEscape is what a two-byte escape \e stands for.
func simpleEscape(e byte) (byte, bool) {
	switch e {
	case '"', '\\', '/':
		return e, true
	case 'b':
		return '\b', true
	case 'f':
		return '\f', true
	case 'n':
		return '\n', true
	case 'r':
		return '\r', true
	case 't':
		return '\t', true
	}
	return 0, false
}

// textChecker runs decodeText over a string's text as it is written to a
// spill file, counting the decoded bytes, so that a flaw is known before
// the string is handed on.
type textChecker struct {
	carry, out []byte
	n          int
	flawed     bool
}

// add checks the next part of the text.
func (c *textChecker) add(b []byte) {
	if c.flawed {
		return
	}
	src := b
	if len(c.carry) > 0 {
		c.carry = append(c.carry, b...)
		src = c.carry
	}
	out, used, ok := decodeText(c.out[:0], src, false)
	c.out, c.n = out[:0], c.n+len(out)
	if !ok {
		c.flawed = true
		return
	}
	c.carry = append(c.carry[:0], src[used:]...)
}

// sound reports, once the whole text was added, whether the parser takes
// it as it is.
func (c *textChecker) sound() bool {
	if c.flawed {
		return false
	}
	out, used, ok := decodeText(c.out[:0], c.carry, true)
	c.n += len(out)
	return ok && used == len(c.carry)
}

// SpillShortStrings makes every stream read through a 16-byte buffer and
// set aside each string longer than n bytes at a buffer's end, until
// restore is called, which says how many strings were: for the tests of
// a reader of streams, which hold it to read the same either way.
// Nothing may stream meanwhile.
func SpillShortStrings(n int) (restore func() (spilled int64)) {
	above, buffer := spillAbove, streamBuffer
	spillAbove, streamBuffer = n, 16
	spillsMade.Store(0)
	return func() int64 {
		spillAbove, streamBuffer = above, buffer
		return spillsMade.Load()
	}
}

// spillsMade counts the strings set aside (SpillShortStrings).
var spillsMade atomic.Int64
