package airline

import (
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/parthack/parthack/model"
)

// calculate: tau2 checks the characters, then has Python evaluate the
// expression and prints round(float(result), 2). The port evaluates the
// same grammar (numbers, + - * / // **, unary signs, parentheses) with
// Python's numbers: ints of any size, true division to a correctly
// rounded float, floor division, and Python's error texts.
func (c *callCtx) calculate() (any, error) {
	expr, ok := c.arg("expression").(string)
	if !ok {
		x := c.arg("expression")
		if _, isList := x.([]any); isList {
			return nil, refusal("expression", "a string", x)
		}
		return nil, errorf("'%s' object is not iterable", pyType(x))
	}
	if strings.Trim(expr, "0123456789+-*/(). ") != "" {
		return nil, errorf("Invalid characters in expression")
	}
	v, err := evalPython(expr)
	if err != nil {
		return nil, err
	}
	f, err := v.float()
	if err != nil {
		return nil, err
	}
	if !math.IsInf(f, 0) && !math.IsNaN(f) {
		f, _ = strconv.ParseFloat(strconv.FormatFloat(f, 'f', 2, 64), 64)
	}
	return string(model.AppendPyFloat(nil, f)), nil
}

// pyval is a Python number, or the empty tuple "()" evaluates to.
type pyval struct {
	i     *big.Int // an int when non-nil
	f     float64
	tuple bool
}

func (v pyval) typeName() string {
	switch {
	case v.tuple:
		return "tuple"
	case v.i != nil:
		return "int"
	}
	return "float"
}

// float is float(v).
func (v pyval) float() (float64, error) {
	switch {
	case v.tuple:
		return 0, errorf("float() argument must be a string or a real number, not 'tuple'")
	case v.i != nil:
		f, _ := new(big.Float).SetInt(v.i).Float64()
		if math.IsInf(f, 0) {
			return 0, errorf("int too large to convert to float")
		}
		return f, nil
	}
	return v.f, nil
}

// maxIntBits bounds the ints the port computes: Python would grow
// without bound, the port says so instead.
const maxIntBits = 1 << 16

type calcParser struct {
	toks []string
	pos  int
}

func syntaxError(line int) error { return errorf("invalid syntax (<string>, line %d)", line) }

func evalPython(expr string) (pyval, error) {
	toks, err := tokenize(expr)
	if err != nil {
		return pyval{}, err
	}
	if len(toks) == 0 {
		return pyval{}, syntaxError(0)
	}
	depth := 0
	for _, t := range toks {
		switch t {
		case "(":
			depth++
		case ")":
			if depth--; depth < 0 {
				return pyval{}, errorf("unmatched ')' (<string>, line 1)")
			}
		}
	}
	if depth > 0 {
		return pyval{}, errorf("'(' was never closed (<string>, line 1)")
	}
	p := &calcParser{toks: toks}
	tree, ok := p.sum()
	if !ok || p.pos != len(toks) {
		return pyval{}, syntaxError(1)
	}
	return tree()
}

// tokenize splits an expression of the allowed characters into numbers
// and operators.
func tokenize(s string) ([]string, error) {
	var out []string
	for i := 0; i < len(s); {
		switch ch := s[i]; {
		case ch == ' ':
			i++
		case ch >= '0' && ch <= '9' || ch == '.':
			j := i
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			if j < len(s) && s[j] == '.' {
				j++
				for j < len(s) && s[j] >= '0' && s[j] <= '9' {
					j++
				}
			}
			num := s[i:j]
			if num == "." {
				return nil, syntaxError(1)
			}
			if !strings.Contains(num, ".") && len(num) > 1 && num[0] == '0' && strings.Trim(num, "0") != "" {
				return nil, errorf("leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers (<string>, line 1)")
			}
			out = append(out, num)
			i = j
		case (ch == '*' || ch == '/') && i+1 < len(s) && s[i+1] == ch:
			out = append(out, s[i:i+2])
			i += 2
		default:
			out = append(out, s[i:i+1])
			i++
		}
	}
	return out, nil
}

// node evaluates a parsed subexpression, left to right as Python does.
type node func() (pyval, error)

func (p *calcParser) peek() string {
	if p.pos < len(p.toks) {
		return p.toks[p.pos]
	}
	return ""
}

func (p *calcParser) sum() (node, bool) {
	left, ok := p.product()
	for ok && (p.peek() == "+" || p.peek() == "-") {
		op := p.toks[p.pos]
		p.pos++
		var right node
		if right, ok = p.product(); ok {
			left = binary(op, left, right)
		}
	}
	return left, ok
}

func (p *calcParser) product() (node, bool) {
	left, ok := p.unary()
	for ok && (p.peek() == "*" || p.peek() == "/" || p.peek() == "//") {
		op := p.toks[p.pos]
		p.pos++
		var right node
		if right, ok = p.unary(); ok {
			left = binary(op, left, right)
		}
	}
	return left, ok
}

func (p *calcParser) unary() (node, bool) {
	if op := p.peek(); op == "+" || op == "-" {
		p.pos++
		x, ok := p.unary()
		return func() (pyval, error) {
			v, err := x()
			if err != nil || op == "+" {
				return v, err
			}
			if v.tuple {
				return v, errorf("bad operand type for unary -: 'tuple'")
			}
			if v.i != nil {
				return pyval{i: new(big.Int).Neg(v.i)}, nil
			}
			return pyval{f: -v.f}, nil
		}, ok
	}
	return p.power()
}

func (p *calcParser) power() (node, bool) {
	base, ok := p.call()
	if ok && p.peek() == "**" {
		p.pos++
		var exp node
		if exp, ok = p.unary(); ok {
			base = binary("**", base, exp)
		}
	}
	return base, ok
}

// call is an atom, followed by calls: "(1)(2)" calls an int.
func (p *calcParser) call() (node, bool) {
	x, ok := p.atom()
	for ok && p.peek() == "(" {
		p.pos++
		var arg node
		if p.peek() != ")" {
			if arg, ok = p.sum(); !ok {
				return nil, false
			}
		}
		if p.peek() != ")" {
			return nil, false
		}
		p.pos++
		callee := x
		x = func() (pyval, error) {
			v, err := callee()
			if err != nil {
				return v, err
			}
			if arg != nil {
				if _, err := arg(); err != nil {
					return v, err
				}
			}
			return v, errorf("'%s' object is not callable", v.typeName())
		}
	}
	return x, ok
}

func (p *calcParser) atom() (node, bool) {
	t := p.peek()
	switch {
	case t == "(":
		p.pos++
		if p.peek() == ")" {
			p.pos++
			return func() (pyval, error) { return pyval{tuple: true}, nil }, true
		}
		x, ok := p.sum()
		if !ok || p.peek() != ")" {
			return nil, false
		}
		p.pos++
		return x, true
	case t != "" && (t[0] >= '0' && t[0] <= '9' || t[0] == '.'):
		p.pos++
		if strings.Contains(t, ".") {
			f, _ := strconv.ParseFloat(t, 64)
			return func() (pyval, error) { return pyval{f: f}, nil }, true
		}
		i, _ := new(big.Int).SetString(t, 10)
		return func() (pyval, error) { return pyval{i: i}, nil }, true
	}
	return nil, false
}

func binary(op string, l, r node) node {
	return func() (pyval, error) {
		a, err := l()
		if err != nil {
			return a, err
		}
		b, err := r()
		if err != nil {
			return b, err
		}
		return arith(op, a, b)
	}
}

// arith is one of Python's binary operators on two numbers.
func arith(op string, a, b pyval) (pyval, error) {
	if a.tuple || b.tuple {
		return pyval{}, errorf("unsupported operand type(s) for %s: '%s' and '%s'", op, a.typeName(), b.typeName())
	}
	if a.i != nil && b.i != nil {
		return intArith(op, a.i, b.i)
	}
	x, err := a.float()
	if err != nil {
		return pyval{}, err
	}
	y, err := b.float()
	if err != nil {
		return pyval{}, err
	}
	switch op {
	case "+":
		return pyval{f: x + y}, nil
	case "-":
		return pyval{f: x - y}, nil
	case "*":
		return pyval{f: x * y}, nil
	case "/":
		if y == 0 {
			return pyval{}, errorf("float division by zero")
		}
		return pyval{f: x / y}, nil
	case "//":
		if y == 0 {
			return pyval{}, errorf("float floor division by zero")
		}
		return pyval{f: floorDiv(x, y)}, nil
	}
	return floatPow(x, y)
}

// floorDiv is Python's float //: the floor of the exact quotient,
// computed as CPython does from fmod.
func floorDiv(x, y float64) float64 {
	mod := math.Mod(x, y)
	div := (x - mod) / y
	if mod != 0 && (y < 0) != (mod < 0) {
		div--
	}
	if div == 0 {
		return math.Copysign(0, x/y)
	}
	floor := math.Floor(div)
	if div-floor > 0.5 {
		floor++
	}
	return floor
}

func floatPow(x, y float64) (pyval, error) {
	switch {
	case x == 0 && y < 0:
		return pyval{}, errorf("0.0 cannot be raised to a negative power")
	case x < 0 && y != math.Trunc(y):
		return pyval{}, errorf("float() argument must be a string or a real number, not 'complex'")
	}
	r := math.Pow(x, y)
	if math.IsInf(r, 0) {
		return pyval{}, errorf("(34, 'Numerical result out of range')")
	}
	return pyval{f: r}, nil
}

func intArith(op string, a, b *big.Int) (pyval, error) {
	switch op {
	case "+":
		return pyval{i: new(big.Int).Add(a, b)}, nil
	case "-":
		return pyval{i: new(big.Int).Sub(a, b)}, nil
	case "*":
		if a.BitLen()+b.BitLen() > maxIntBits {
			return pyval{}, errorf("the port computes ints of up to %d bits", maxIntBits)
		}
		return pyval{i: new(big.Int).Mul(a, b)}, nil
	case "/":
		if b.Sign() == 0 {
			return pyval{}, errorf("division by zero")
		}
		f, _ := new(big.Rat).SetFrac(a, b).Float64()
		if math.IsInf(f, 0) {
			return pyval{}, errorf("integer division result too large for a float")
		}
		return pyval{f: f}, nil
	case "//":
		if b.Sign() == 0 {
			return pyval{}, errorf("integer division or modulo by zero")
		}
		q, m := new(big.Int).DivMod(a, b, new(big.Int))
		if m.Sign() != 0 && b.Sign() < 0 { // DivMod is Euclidean; Python floors
			q.Sub(q, big.NewInt(1))
		}
		return pyval{i: q}, nil
	}
	if b.Sign() < 0 {
		x, _ := new(big.Float).SetInt(a).Float64()
		y, _ := new(big.Float).SetInt(b).Float64()
		return floatPow(x, y)
	}
	if !b.IsInt64() || int64(a.BitLen())*b.Int64() > maxIntBits {
		return pyval{}, errorf("the port computes ints of up to %d bits", maxIntBits)
	}
	return pyval{i: new(big.Int).Exp(a, b, nil)}, nil
}
