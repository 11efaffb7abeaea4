package model

import (
	"encoding/binary"
	"math/bits"
	"strings"
	"unicode/utf8"
)

// The fast step path reads a step's bytes with plain functions of the
// source and an offset, which keep the offset in a register; each
// reports false on anything it does not take.

// Keys of a step the fast path reads, one bit each.
const (
	keyOp uint8 = 1 << iota
	keyType
	keyID
	keyFields
	keyStep
	keyActor
	keyComment
)

// stepKeyAt reads the step key at src[i], a plain string, when it is one
// the fast path reads: its bit and the offset after it.
func stepKeyAt(src []byte, i int) (uint8, int) {
	if i+1 >= len(src) || src[i] != '"' {
		return 0, 0
	}
	switch src[i+1] {
	case 'o':
		return keyAt(src, i, `"op"`, keyOp)
	case 't':
		return keyAt(src, i, `"type"`, keyType)
	case 'i':
		return keyAt(src, i, `"id"`, keyID)
	case 'f':
		return keyAt(src, i, `"fields"`, keyFields)
	case 's':
		return keyAt(src, i, `"step"`, keyStep)
	case 'a':
		return keyAt(src, i, `"actor"`, keyActor)
	case 'c':
		return keyAt(src, i, `"comment"`, keyComment)
	}
	return 0, 0
}

// keyAt is bit and the offset after key when src holds key at i.
func keyAt(src []byte, i int, key string, bit uint8) (uint8, int) {
	if !literalAt(src, i, key) {
		return 0, 0
	}
	return bit, i + len(key)
}

// fastStep decodes the step object at src[i], a '{', straight from its
// bytes, without building nodes, when it has the common shape: only the
// keys op, type, id, fields, step, actor and comment, each at most once,
// in any order; strings without escapes; field values that are strings,
// integers, booleans or null. Its result is then exactly decodeStep's,
// Index and Line aside, and it returns the offset after the object. For
// anything else (a call, a claim, an escape, a list, a number that is not
// a plain integer, anything decodeStep would refuse) it reports false,
// and the caller parses the step again the general way, which gives the
// error if there is one.
func (f *fastParser) fastStep(st *Step, i int) (int, bool) {
	src := f.d.src
	var seen uint8
	for i++; ; i++ {
		bit, j := stepKeyAt(src, skipWS(src, i))
		if bit == 0 || seen&bit != 0 {
			return 0, false
		}
		seen |= bit
		ok := false
		if i, ok = colon(src, j); !ok {
			return 0, false
		}
		if i, ok = f.stepMember(st, bit, i); !ok {
			return 0, false
		}
		if i = skipWS(src, i); i >= len(src) || src[i] != ',' {
			break
		}
	}
	const required = keyOp | keyType | keyID
	if i >= len(src) || src[i] != '}' || seen&required != required || st.Op == OpCall || st.Op == OpReviseGoal {
		return 0, false
	}
	return i + 1, true
}

// stepMember reads the value of one step key at src[i] into st, with
// decodeStep's rules: op, type, id and actor are non-blank strings, step a
// positive integer.
func (f *fastParser) stepMember(st *Step, key uint8, i int) (int, bool) {
	src := f.d.src
	switch key {
	case keyFields:
		return f.stepFields(st, i)
	case keyStep:
		n, j, ok := integerAt(src, i)
		st.Number = int(n)
		return j, ok && n >= 1
	}
	raw, j, ok := plainAt(src, i)
	if !ok {
		return 0, false
	}
	s := f.text(raw)
	switch key {
	case keyComment:
		st.Comment = s
		return j, true
	case keyOp:
		st.Op = Op(s)
	case keyType:
		st.Type = s
	case keyID:
		st.ID = s
	case keyActor:
		st.Actor = Actor(s)
	}
	return j, !blank(s)
}

// blank reports whether s is empty once white space is trimmed, as
// cursor.nonEmptyStr judges it, without trimming in the common case.
func blank(s string) bool {
	return (s == "" || s[0] <= ' ' || s[0] >= utf8.RuneSelf) && strings.TrimSpace(s) == ""
}

// stepFields reads a step's "fields" object of scalar values at src[i].
// The fields of successive steps share chunks of the arena, each step's
// slice capped at its own end.
func (f *fastParser) stepFields(st *Step, i int) (int, bool) {
	src := f.d.src
	if i >= len(src) || src[i] != '{' {
		return 0, false
	}
	if i = skipWS(src, i+1); i < len(src) && src[i] == '}' {
		return i + 1, true // no fields: nil, as decodeAction leaves them
	}
	if cap(f.arena)-len(f.arena) < 8 {
		f.arena = make([]Assign, 0, arenaChunk)
	}
	free := f.arena[len(f.arena):]
	fields := free[:0]
	for ; ; i = skipWS(src, i+1) {
		name, j, ok := plainAt(src, i)
		if !ok || hasField(fields, name) {
			return 0, false
		}
		if i, ok = colon(src, j); !ok {
			return 0, false
		}
		var v Value
		if v, i, ok = f.scalar(i); !ok {
			return 0, false
		}
		fields = append(fields, Assign{Field: f.text(name), Value: v})
		if i = skipWS(src, i); i >= len(src) || src[i] != ',' {
			break
		}
	}
	if i >= len(src) || src[i] != '}' {
		return 0, false
	}
	if len(fields) <= cap(free) {
		f.arena = f.arena[:len(f.arena)+len(fields)]
	}
	st.Fields = fields[:len(fields):len(fields)]
	return i + 1, true
}

// arenaChunk is how many fields a chunk of the arena holds.
const arenaChunk = 512

func hasField(fields []Assign, name []byte) bool {
	for _, a := range fields {
		if a.Field == string(name) {
			return true
		}
	}
	return false
}

// scalar reads a field value at src[i] that is a plain string, an
// integer, a boolean or null, as cursor.value maps it.
func (f *fastParser) scalar(i int) (Value, int, bool) {
	src := f.d.src
	if i >= len(src) {
		return Null, 0, false
	}
	switch src[i] {
	case '"':
		raw, j, ok := plainAt(src, i)
		return Str(f.text(raw)), j, ok
	case 't':
		return Bool(true), i + 4, literalAt(src, i, "true")
	case 'f':
		return Bool(false), i + 5, literalAt(src, i, "false")
	case 'n':
		return Null, i + 4, literalAt(src, i, "null")
	}
	n, j, ok := integerAt(src, i)
	return Int(n), j, ok
}

// literalAt reports whether src holds lit at i.
func literalAt(src []byte, i int, lit string) bool {
	return i+len(lit) <= len(src) && string(src[i:i+len(lit)]) == lit
}

// integerAt reads an integer literal of at most 18 digits at src[i],
// which int64 holds; a fraction or an exponent is refused.
func integerAt(src []byte, i int) (int64, int, bool) {
	neg := i < len(src) && src[i] == '-'
	if neg {
		i++
	}
	start := i
	var n int64
	for ; i < len(src) && '0' <= src[i] && src[i] <= '9'; i++ {
		n = n*10 + int64(src[i]-'0')
	}
	if i == start || i-start > 18 || src[start] == '0' && i-start > 1 {
		return 0, 0, false
	}
	if i < len(src) && (src[i] == '.' || src[i] == 'e' || src[i] == 'E') {
		return 0, 0, false
	}
	if neg {
		n = -n
	}
	return n, i, true
}

// colon skips white space, a ':' and white space from src[i].
func colon(src []byte, i int) (int, bool) {
	if i = skipWS(src, i); i >= len(src) || src[i] != ':' {
		return 0, false
	}
	return skipWS(src, i+1), true
}

// skipWS is the offset of the first byte from i on that is not JSON
// white space.
func skipWS(src []byte, i int) int {
	for i < len(src) && isSpace[src[i]] {
		i++
	}
	return i
}

// plainAt reads the string at src[i] when it has no escapes and is valid
// UTF-8, the common case: its raw bytes are its text. It returns them
// and the offset after the closing quote.
func plainAt(src []byte, i int) ([]byte, int, bool) {
	if i >= len(src) || src[i] != '"' {
		return nil, 0, false
	}
	start := i + 1
	i = plainRun(src, start)
	for i < len(src) && src[i] >= utf8.RuneSelf {
		_, size := utf8.DecodeRune(src[i:])
		if size == 1 {
			return nil, 0, false // invalid UTF-8
		}
		i = plainRun(src, i+size)
	}
	if i >= len(src) || src[i] != '"' {
		return nil, 0, false // an escape, a control character, or the end
	}
	return src[start:i], i + 1, true
}

// plainRun is the offset of the first byte from i on that a string does
// not hold as it stands: '"', '\\', a control character or a non-ASCII
// byte. It tests eight bytes at a time: for each test the lowest byte the
// word arithmetic flags is exact (a borrow only flags bytes above a true
// one), so the lowest flag of all is the first such byte.
func plainRun(src []byte, i int) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for ; i+8 <= len(src); i += 8 {
		w := binary.LittleEndian.Uint64(src[i:])
		q, b := w^('"'*ones), w^('\\'*ones)
		m := (w-0x20*ones)&^w | (q-ones)&^q | (b-ones)&^b | w
		if m &= highs; m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for i < len(src) && plainByte[src[i]] {
		i++
	}
	return i
}

// isSpace and plainByte classify bytes: JSON white space, and the bytes
// a string holds as they stand (printable ASCII but '"' and '\\').
var isSpace, plainByte [256]bool

func init() {
	for _, c := range []byte(" \t\r\n") {
		isSpace[c] = true
	}
	for c := 0x20; c < utf8.RuneSelf; c++ {
		plainByte[c] = c != '"' && c != '\\'
	}
}
