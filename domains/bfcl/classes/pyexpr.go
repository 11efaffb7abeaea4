package classes

import (
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/parthack/parthack/domains/bfcl/pyval"
)

// The Python expressions BFCL's executor evals: a call of literals as
// gold and decoded model calls write them, and what a model's odd
// output may add (names, attributes, nested calls, unary and binary
// arithmetic). Anything else is a SyntaxError in Python's words where
// they are known, "invalid syntax" otherwise.

type node interface{}

type (
	nConst struct{ v pyval.Value } // an immutable literal
	nName  struct{ id string }
	nAttr  struct {
		x    node
		name string
	}
	nCall struct {
		fn   node
		args []node
		kws  []nKeyword
	}
	nKeyword struct {
		name string
		v    node
	}
	nList  struct{ elts []node }
	nTuple struct{ elts []node }
	nDict  struct{ keys, vals []node }
	nSet   struct{ elts []node }
	nUnary struct {
		op string
		x  node
	}
	nBin struct {
		op   string
		l, r node
	}
	nSubscript struct{ x, idx node }
)

// syntaxError is eval's SyntaxError: str(e) is "msg (<string>, line N)".
func syntaxError(msg string, line int) *pyval.Exception {
	return &pyval.Exception{Type: "SyntaxError", Msg: fmt.Sprintf("%s (<string>, line %d)", msg, line)}
}

type tokKind int

const (
	tEOF tokKind = iota
	tName
	tNumber
	tString
	tOp
)

type token struct {
	kind tokKind
	text string      // name, operator
	val  pyval.Value // number or string value
	line int
}

var pyKeywords = map[string]bool{
	"and": true, "as": true, "assert": true, "async": true, "await": true, "break": true,
	"class": true, "continue": true, "def": true, "del": true, "elif": true, "else": true,
	"except": true, "finally": true, "for": true, "from": true, "global": true, "if": true,
	"import": true, "in": true, "is": true, "lambda": true, "nonlocal": true, "not": true,
	"or": true, "pass": true, "raise": true, "return": true, "try": true, "while": true,
	"with": true, "yield": true,
}

type lexer struct {
	s    string
	i    int
	line int
	toks []token
	// parens are the brackets open, innermost last: at most the
	// tokenizer's MAXLEVEL, held in the lexer so that they allocate
	// nothing.
	parens [200]byte
	depth  int
}

func isIdentStart(r rune) bool { return r == '_' || unicode.IsLetter(r) }
func isIdentChar(r rune) bool {
	if r < utf8.RuneSelf { // in ASCII, the letters, the digits and "_" (Pc's one; Mn and Mc have none)
		return asciiWord[r]
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.In(r, unicode.Mn, unicode.Mc, unicode.Pc)
}

// asciiWord marks the ASCII letters, digits and "_".
var asciiWord = func() (w [utf8.RuneSelf]bool) {
	for r := range rune(utf8.RuneSelf) {
		w[r] = r == '_' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return w
}()

// lex splits src into tokens as Python's tokenizer would for eval.
func lex(src string) ([]token, error) { return new(lexer).lex(src) }

// lexers are lexers kept, with their tokens' room, for the next call's
// text: parseExpr reads a text's tokens only while it parses them.
var lexers = sync.Pool{New: func() any { return new(lexer) }}

// lex is lex(src), its tokens in the lexer's own room.
func (lx *lexer) lex(src string) ([]token, error) {
	// A call has about two tokens per bracket, comma, "=" and ".", and
	// its end: room for as many, so that the list seldom grows.
	n := 2
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '(', ')', '[', ']', '{', '}', ',', '=', '.', ':':
			n += 2
		}
	}
	*lx = lexer{s: src, line: 1, toks: slices.Grow(lx.toks[:0], n)}
	for {
		if err := lx.skipSpace(); err != nil {
			return nil, err
		}
		if lx.i >= len(lx.s) {
			break
		}
		if err := lx.next(); err != nil {
			return nil, err
		}
	}
	if lx.depth > 0 {
		return nil, syntaxError(fmt.Sprintf("'%c' was never closed", lx.parens[lx.depth-1]), lx.line)
	}
	lx.toks = append(lx.toks, token{kind: tEOF, line: lx.line})
	return lx.toks, nil
}

func (lx *lexer) skipSpace() error {
	for lx.i < len(lx.s) {
		c := lx.s[lx.i]
		switch {
		case c == ' ' || c == '\t' || c == '\f':
			lx.i++
		case c == '\n' || c == '\r':
			lx.i++
			lx.line++
			if lx.depth == 0 && strings.TrimSpace(lx.s[lx.i:]) != "" {
				return syntaxError("invalid syntax", lx.line)
			}
		case c == '\\' && lx.i+1 < len(lx.s) && lx.s[lx.i+1] == '\n':
			lx.i += 2
			lx.line++
		case c == '#':
			for lx.i < len(lx.s) && lx.s[lx.i] != '\n' {
				lx.i++
			}
		default:
			return nil
		}
	}
	return nil
}

var closing = map[byte]byte{')': '(', ']': '[', '}': '{'}

func (lx *lexer) next() error {
	r, n := utf8.DecodeRuneInString(lx.s[lx.i:])
	switch {
	case isIdentStart(r):
		j := lx.i + n
		for j < len(lx.s) {
			r2, n2 := utf8.DecodeRuneInString(lx.s[j:])
			if !isIdentChar(r2) {
				break
			}
			j += n2
		}
		word := lx.s[lx.i:j]
		if j < len(lx.s) && (lx.s[j] == '\'' || lx.s[j] == '"') && isStringPrefix(word) {
			lx.i = j
			return lx.str(strings.ToLower(word))
		}
		lx.i = j
		lx.toks = append(lx.toks, token{kind: tName, text: word, line: lx.line})
		return nil
	case r >= '0' && r <= '9' || r == '.' && lx.i+1 < len(lx.s) && isDigitByte(lx.s[lx.i+1]):
		return lx.number()
	case r == '\'' || r == '"':
		return lx.str("")
	}
	for _, op := range []string{"...", "**", "//", "==", "!=", "<=", ">=", "->", ":="} {
		if strings.HasPrefix(lx.s[lx.i:], op) {
			lx.toks = append(lx.toks, token{kind: tOp, text: op, line: lx.line})
			lx.i += len(op)
			return nil
		}
	}
	c := lx.s[lx.i]
	if r >= utf8.RuneSelf {
		if !pyval.IsPrintable(r) {
			return syntaxError(fmt.Sprintf("invalid non-printable character U+%04X", r), lx.line)
		}
		return syntaxError(fmt.Sprintf("invalid character '%c' (U+%04X)", r, r), lx.line)
	}
	if strings.IndexByte("()[]{},:.=+-*/%<>~&|^@;", c) < 0 {
		// Python's tokenizer passes "?", "$", "!" and "`" on as error
		// tokens, which the parser then reports where it meets them.
		lx.toks = append(lx.toks, token{kind: tOp, text: lx.s[lx.i : lx.i+1], line: lx.line})
		lx.i++
		return nil
	}
	switch c {
	case '(', '[', '{':
		if lx.depth >= len(lx.parens) { // the tokenizer's MAXLEVEL
			return syntaxError("too many nested parentheses", lx.line)
		}
		lx.parens[lx.depth] = c
		lx.depth++
	case ')', ']', '}':
		if lx.depth == 0 {
			return syntaxError(fmt.Sprintf("unmatched '%c'", c), lx.line)
		}
		open := lx.parens[lx.depth-1]
		if open != closing[c] {
			return syntaxError(fmt.Sprintf("closing parenthesis '%c' does not match opening parenthesis '%c'", c, open), lx.line)
		}
		lx.depth--
	}
	lx.toks = append(lx.toks, token{kind: tOp, text: lx.s[lx.i : lx.i+1], line: lx.line})
	lx.i++
	return nil
}

func isDigitByte(c byte) bool { return c >= '0' && c <= '9' }

func isStringPrefix(w string) bool {
	switch strings.ToLower(w) {
	case "r", "u", "b", "br", "rb", "f", "fr", "rf":
		return true
	}
	return false
}

func (lx *lexer) number() error {
	start := lx.i
	s := lx.s
	j := lx.i
	digitsOf := func(ok func(byte) bool) {
		for j < len(s) && (ok(s[j]) || s[j] == '_' && j+1 < len(s) && ok(s[j+1]) && j > start) {
			j++
		}
	}
	isFloat := false
	if s[j] == '0' && j+1 < len(s) && strings.IndexByte("xXoObB", s[j+1]) >= 0 {
		base := map[byte]int{'x': 16, 'o': 8, 'b': 2}[s[j+1]|0x20]
		j += 2
		if j < len(s) && s[j] == '_' {
			j++
		}
		k := j
		digitsOf(func(c byte) bool {
			v, err := strconv.ParseUint(string(c), base, 8)
			return err == nil && int(v) < base
		})
		if j == k {
			return syntaxError(fmt.Sprintf("invalid %s literal", map[int]string{16: "hexadecimal", 8: "octal", 2: "binary"}[base]), lx.line)
		}
		b, _ := new(big.Int).SetString(strings.ReplaceAll(s[k:j], "_", ""), base)
		lx.i = j
		return lx.pushNumber(normBig(b), start)
	}
	digitsOf(isDigitByte)
	if j < len(s) && s[j] == '.' {
		isFloat = true
		j++
		if j < len(s) && isDigitByte(s[j]) {
			digitsOf(isDigitByte)
		}
	}
	if j < len(s) && (s[j] == 'e' || s[j] == 'E') {
		k := j + 1
		if k < len(s) && (s[k] == '+' || s[k] == '-') {
			k++
		}
		if k < len(s) && isDigitByte(s[k]) {
			j = k
			digitsOf(isDigitByte)
			isFloat = true
		}
	}
	text := strings.ReplaceAll(s[start:j], "_", "")
	imag := j < len(s) && (s[j] == 'j' || s[j] == 'J')
	if imag {
		j++
	}
	lx.i = j
	if imag || isFloat {
		f, err := strconv.ParseFloat(text, 64)
		if err != nil && !math.IsInf(f, 0) {
			return syntaxError("invalid decimal literal", lx.line)
		}
		if imag {
			return lx.pushNumber(pyval.Complex{Im: f}, start)
		}
		return lx.pushNumber(f, start)
	}
	if len(text) > 1 && text[0] == '0' && strings.Trim(text, "0") != "" {
		return syntaxError("leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers", lx.line)
	}
	if n, err := strconv.ParseInt(text, 10, 64); err == nil {
		return lx.pushNumber(n, start)
	}
	b, _ := new(big.Int).SetString(text, 10)
	return lx.pushNumber(normBig(b), start)
}

func (lx *lexer) pushNumber(v pyval.Value, start int) error {
	if lx.i < len(lx.s) {
		if r, _ := utf8.DecodeRuneInString(lx.s[lx.i:]); isIdentChar(r) {
			return syntaxError("invalid decimal literal", lx.line)
		}
	}
	lx.toks = append(lx.toks, token{kind: tNumber, val: v, text: lx.s[start:lx.i], line: lx.line})
	return nil
}

func normBig(b *big.Int) pyval.Value {
	if b.IsInt64() {
		return b.Int64()
	}
	return b
}

func (lx *lexer) str(prefix string) error {
	raw := strings.Contains(prefix, "r")
	if strings.Contains(prefix, "b") {
		return syntaxError("bytes literals are not supported by this port", lx.line)
	}
	if strings.Contains(prefix, "f") {
		return syntaxError("f-strings are not supported by this port", lx.line)
	}
	q := lx.s[lx.i]
	quotes, stops := `"""`, "\"\\\n"
	if q == '\'' {
		quotes, stops = `'''`, "'\\\n"
	}
	triple := strings.HasPrefix(lx.s[lx.i:], quotes)
	startLine := lx.line
	if triple {
		lx.i += 3
	} else {
		lx.i++
		// A literal with no escape and no line break is its text.
		if k := strings.IndexAny(lx.s[lx.i:], stops); k >= 0 && lx.s[lx.i+k] == q {
			lit := lx.s[lx.i : lx.i+k]
			lx.i += k + 1
			return lx.pushString(lit)
		}
	}
	var b strings.Builder
	for {
		if lx.i >= len(lx.s) {
			if triple {
				return syntaxError(fmt.Sprintf("unterminated triple-quoted string literal (detected at line %d)", lx.line), startLine)
			}
			return syntaxError(fmt.Sprintf("unterminated string literal (detected at line %d)", lx.line), startLine)
		}
		c := lx.s[lx.i]
		if c == q && (!triple || strings.HasPrefix(lx.s[lx.i:], quotes)) {
			if triple {
				lx.i += 3
			} else {
				lx.i++
			}
			break
		}
		if c == '\n' {
			if !triple {
				return syntaxError(fmt.Sprintf("unterminated string literal (detected at line %d)", lx.line), startLine)
			}
			lx.line++
		}
		if c != '\\' {
			b.WriteByte(c)
			lx.i++
			continue
		}
		if lx.i+1 >= len(lx.s) {
			lx.i++
			continue
		}
		e := lx.s[lx.i+1]
		if raw {
			b.WriteByte('\\')
			b.WriteByte(e)
			lx.i += 2
			if e == '\n' {
				lx.line++
			}
			continue
		}
		lx.i += 2
		switch e {
		case '\n':
			lx.line++
		case '\\', '\'', '"':
			b.WriteByte(e)
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case 'x', 'u', 'U':
			n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
			if lx.i+n > len(lx.s) {
				return lx.escapeError(e, b.Len())
			}
			v, err := strconv.ParseUint(lx.s[lx.i:lx.i+n], 16, 32)
			if err != nil || strings.ContainsAny(lx.s[lx.i:lx.i+n], "+-_") {
				return lx.escapeError(e, b.Len())
			}
			if v > unicode.MaxRune {
				return syntaxError(fmt.Sprintf("(unicode error) 'unicodeescape' codec can't decode bytes in position %d-%d: illegal Unicode character", b.Len(), b.Len()+n+1), lx.line)
			}
			b.WriteRune(rune(v))
			lx.i += n
		case 'N':
			return syntaxError(fmt.Sprintf("(unicode error) 'unicodeescape' codec can't decode bytes in position %d-%d: malformed \\N character escape", b.Len(), b.Len()+1), lx.line)
		default:
			if e >= '0' && e <= '7' {
				v := int(e - '0')
				for k := 0; k < 2 && lx.i < len(lx.s) && lx.s[lx.i] >= '0' && lx.s[lx.i] <= '7'; k++ {
					v = v*8 + int(lx.s[lx.i]-'0')
					lx.i++
				}
				b.WriteRune(rune(v))
				continue
			}
			b.WriteByte('\\')
			b.WriteByte(e)
		}
	}
	return lx.pushString(b.String())
}

// pushString adds a string literal's value; adjacent literals
// concatenate.
func (lx *lexer) pushString(s string) error {
	if n := len(lx.toks); n > 0 && lx.toks[n-1].kind == tString {
		prev := lx.toks[n-1]
		lx.toks[n-1].val = prev.val.(string) + s
		return nil
	}
	lx.toks = append(lx.toks, token{kind: tString, val: s, line: lx.line})
	return nil
}

func (lx *lexer) escapeError(e byte, pos int) error {
	what := map[byte]string{'x': "truncated \\xXX escape", 'u': "truncated \\uXXXX escape", 'U': "truncated \\UXXXXXXXX escape"}[e]
	end := pos + 1
	for k := lx.i; k < len(lx.s) && k < lx.i+map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]; k++ {
		if _, err := strconv.ParseUint(lx.s[k:k+1], 16, 8); err != nil {
			break
		}
		end++
	}
	return syntaxError(fmt.Sprintf("(unicode error) 'unicodeescape' codec can't decode bytes in position %d-%d: %s", pos, end, what), lx.line)
}

// done gives a lexer back for the next text, holding none of its values
// (a long text's tokens' room is not kept).
func (lx *lexer) done() {
	clear(lx.toks)
	if cap(lx.toks) > 1<<10 {
		return
	}
	lx.toks = lx.toks[:0]
	lexers.Put(lx)
}

// parser is a recursive-descent parser over the tokens.
type parser struct {
	toks []token
	p    int
}

// parseExpr parses src as eval(src) would, one expression.
func parseExpr(src string) (node, error) {
	lx := lexers.Get().(*lexer)
	defer lx.done()
	toks, err := lx.lex(src)
	if err != nil {
		return nil, err
	}
	if len(toks) == 1 {
		return nil, syntaxError("invalid syntax", 0)
	}
	ps := &parser{toks: toks}
	n, err := ps.tupleOrExpr(tEOF, "")
	if err != nil {
		return nil, err
	}
	if ps.peek().kind != tEOF {
		return nil, ps.unexpected()
	}
	return n, nil
}

func (ps *parser) peek() token { return ps.toks[ps.p] }

func (ps *parser) isOp(s string) bool {
	t := ps.peek()
	return t.kind == tOp && t.text == s
}

func (ps *parser) unexpected() error {
	t := ps.peek()
	if ps.p > 0 && t.kind != tEOF && t.kind != tOp {
		prev := ps.toks[ps.p-1]
		if prev.kind != tOp || prev.text == ")" || prev.text == "]" || prev.text == "}" {
			if ps.inBrackets() {
				return syntaxError("invalid syntax. Perhaps you forgot a comma?", t.line)
			}
		}
	}
	return syntaxError("invalid syntax", t.line)
}

// inBrackets reports whether the current token is inside (), [] or {}.
func (ps *parser) inBrackets() bool {
	depth := 0
	for _, t := range ps.toks[:ps.p] {
		if t.kind == tOp {
			switch t.text {
			case "(", "[", "{":
				depth++
			case ")", "]", "}":
				depth--
			}
		}
	}
	return depth > 0
}

// tupleOrExpr parses "a" or "a, b, ..." (a tuple) up to the closer.
func (ps *parser) tupleOrExpr(end tokKind, closer string) (node, error) {
	first, err := ps.expr()
	if err != nil {
		return nil, err
	}
	if !ps.isOp(",") {
		return first, nil
	}
	elts := []node{first}
	for ps.isOp(",") {
		ps.p++
		if ps.peek().kind == end && (closer == "" || ps.isOp(closer)) {
			break
		}
		e, err := ps.expr()
		if err != nil {
			return nil, err
		}
		elts = append(elts, e)
	}
	return nTuple{elts: elts}, nil
}

func (ps *parser) expr() (node, error) {
	t := ps.peek()
	if t.kind == tName && t.text == "not" {
		ps.p++
		x, err := ps.expr()
		if err != nil {
			return nil, err
		}
		return nUnary{op: "not", x: x}, nil
	}
	return ps.arith(0)
}

var binPrec = map[string]int{"+": 1, "-": 1, "*": 2, "/": 2, "//": 2, "%": 2}

func (ps *parser) arith(min int) (node, error) {
	l, err := ps.unary()
	if err != nil {
		return nil, err
	}
	for {
		t := ps.peek()
		prec, ok := binPrec[t.text]
		if t.kind != tOp || !ok || prec < min {
			return l, nil
		}
		ps.p++
		r, err := ps.arith(prec + 1)
		if err != nil {
			return nil, err
		}
		l = nBin{op: t.text, l: l, r: r}
	}
}

func (ps *parser) unary() (node, error) {
	if ps.isOp("-") || ps.isOp("+") || ps.isOp("~") {
		op := ps.peek().text
		ps.p++
		x, err := ps.unary()
		if err != nil {
			return nil, err
		}
		return nUnary{op: op, x: x}, nil
	}
	return ps.power()
}

func (ps *parser) power() (node, error) {
	x, err := ps.primary()
	if err != nil {
		return nil, err
	}
	if ps.isOp("**") {
		ps.p++
		y, err := ps.unary()
		if err != nil {
			return nil, err
		}
		return nBin{op: "**", l: x, r: y}, nil
	}
	return x, nil
}

func (ps *parser) primary() (node, error) {
	x, err := ps.atom()
	if err != nil {
		return nil, err
	}
	for {
		switch {
		case ps.isOp("."):
			ps.p++
			t := ps.peek()
			if t.kind != tName || pyKeywords[t.text] {
				return nil, syntaxError("invalid syntax", t.line)
			}
			ps.p++
			x = nAttr{x: x, name: t.text}
		case ps.isOp("("):
			ps.p++
			c, err := ps.callArgs(x)
			if err != nil {
				return nil, err
			}
			x = c
		case ps.isOp("["):
			ps.p++
			idx, err := ps.tupleOrExpr(tOp, "]")
			if err != nil {
				return nil, err
			}
			if !ps.isOp("]") {
				return nil, ps.unexpected()
			}
			ps.p++
			x = nSubscript{x: x, idx: idx}
		default:
			return x, nil
		}
	}
}

func (ps *parser) callArgs(fn node) (node, error) {
	c := nCall{fn: fn}
	seen := map[string]bool{}
	for !ps.isOp(")") {
		t := ps.peek()
		if ps.isOp("*") || ps.isOp("**") {
			return nil, syntaxError("starred arguments are not supported by this port", t.line)
		}
		if t.kind == tName && ps.toks[ps.p+1].kind == tOp && ps.toks[ps.p+1].text == "=" {
			if pyKeywords[t.text] || t.text == "True" || t.text == "False" || t.text == "None" {
				if t.text == "True" || t.text == "False" || t.text == "None" {
					return nil, syntaxError(fmt.Sprintf("cannot assign to %s", t.text), t.line)
				}
				return nil, syntaxError("invalid syntax", t.line)
			}
			ps.p += 2
			v, err := ps.expr()
			if err != nil {
				return nil, err
			}
			if seen[t.text] {
				return nil, syntaxError("keyword argument repeated: "+t.text, t.line)
			}
			seen[t.text] = true
			c.kws = append(c.kws, nKeyword{name: t.text, v: v})
		} else {
			v, err := ps.expr()
			if err != nil {
				return nil, err
			}
			if ps.isOp("=") {
				return nil, syntaxError("expression cannot contain assignment, perhaps you meant \"==\"?", t.line)
			}
			if len(c.kws) > 0 {
				return nil, syntaxError("positional argument follows keyword argument", t.line)
			}
			c.args = append(c.args, v)
		}
		if ps.isOp(",") {
			ps.p++
			continue
		}
		if !ps.isOp(")") {
			return nil, ps.unexpected()
		}
	}
	ps.p++
	return c, nil
}

func (ps *parser) atom() (node, error) {
	t := ps.peek()
	switch t.kind {
	case tNumber, tString:
		ps.p++
		return nConst{v: t.val}, nil
	case tOp:
		switch t.text {
		case "...":
			ps.p++
			return nConst{v: Ellipsis}, nil
		case "(":
			ps.p++
			if ps.isOp(")") {
				ps.p++
				return nTuple{}, nil
			}
			x, err := ps.tupleOrExpr(tOp, ")")
			if err != nil {
				return nil, err
			}
			if !ps.isOp(")") {
				return nil, ps.unexpected()
			}
			ps.p++
			return x, nil
		case "[":
			ps.p++
			var elts []node
			for !ps.isOp("]") {
				e, err := ps.expr()
				if err != nil {
					return nil, err
				}
				elts = append(elts, e)
				if ps.isOp(",") {
					ps.p++
				} else if !ps.isOp("]") {
					return nil, ps.unexpected()
				}
			}
			ps.p++
			return nList{elts: elts}, nil
		case "{":
			return ps.dictOrSet()
		}
	case tName:
		ps.p++
		switch t.text {
		case "True":
			return nConst{v: true}, nil
		case "False":
			return nConst{v: false}, nil
		case "None":
			return nConst{v: nil}, nil
		}
		if pyKeywords[t.text] {
			return nil, syntaxError("invalid syntax", t.line)
		}
		return nName{id: t.text}, nil
	}
	return nil, ps.unexpected()
}

func (ps *parser) dictOrSet() (node, error) {
	ps.p++
	if ps.isOp("}") {
		ps.p++
		return nDict{}, nil
	}
	first, err := ps.expr()
	if err != nil {
		return nil, err
	}
	if !ps.isOp(":") {
		elts := []node{first}
		for ps.isOp(",") {
			ps.p++
			if ps.isOp("}") {
				break
			}
			e, err := ps.expr()
			if err != nil {
				return nil, err
			}
			elts = append(elts, e)
		}
		if !ps.isOp("}") {
			return nil, ps.unexpected()
		}
		ps.p++
		return nSet{elts: elts}, nil
	}
	d := nDict{}
	k := first
	for {
		if !ps.isOp(":") {
			return nil, ps.unexpected()
		}
		ps.p++
		v, err := ps.expr()
		if err != nil {
			return nil, err
		}
		d.keys, d.vals = append(d.keys, k), append(d.vals, v)
		if ps.isOp(",") {
			ps.p++
		}
		if ps.isOp("}") {
			ps.p++
			return d, nil
		}
		if k, err = ps.expr(); err != nil {
			return nil, err
		}
	}
}

// Ellipsis is Python's Ellipsis ("..."), a constant ast.literal_eval
// takes.
var Ellipsis pyval.Value = ellipsis{}

type ellipsis struct{}

func (ellipsis) ClassName() string                        { return "ellipsis" }
func (ellipsis) Repr() string                             { return "Ellipsis" }
func (ellipsis) Equal(other pyval.Value) bool             { return other == Ellipsis }
func (ellipsis) DeepCopy(map[any]pyval.Value) pyval.Value { return Ellipsis }
func (ellipsis) MarshalState() ([]byte, error)            { return []byte("null"), nil }

func init() {
	pyval.RegisterObject("ellipsis", func([]byte) (pyval.Object, error) { return ellipsis{}, nil })
}
