// Package pyarith evaluates the arithmetic the benchmarks' calculate
// tools hand to Python's eval, as Python would on those inputs.
package pyarith

import (
	"errors"
	"math"
	"strconv"
	"strings"
)

// Eval evaluates calculate's expressions (digits, + - * / ( ) . and
// spaces, so also ** and //) as Python's eval would, in floats.
func Eval(s string) (float64, error) {
	p := &arith{s: strings.ReplaceAll(s, " ", "")}
	v, err := p.sum()
	if err == nil && p.i < len(p.s) {
		err = errSyntax
	}
	return v, err
}

var (
	errSyntax = errors.New("invalid syntax (<string>, line 1)")
	errZero   = errors.New("division by zero")
)

type arith struct {
	s string
	i int
}

func (p *arith) peek(tok string) bool { return strings.HasPrefix(p.s[p.i:], tok) }

func (p *arith) sum() (float64, error) {
	v, err := p.product()
	for err == nil && p.i < len(p.s) && (p.s[p.i] == '+' || p.s[p.i] == '-') {
		op := p.s[p.i]
		p.i++
		var w float64
		if w, err = p.product(); op == '+' {
			v += w
		} else {
			v -= w
		}
	}
	return v, err
}

func (p *arith) product() (float64, error) {
	v, err := p.unary()
	for err == nil && p.i < len(p.s) && (p.s[p.i] == '*' || p.s[p.i] == '/') && !p.peek("**") {
		floor := p.peek("//")
		op := p.s[p.i]
		p.i++
		if floor {
			p.i++
		}
		var w float64
		if w, err = p.unary(); err != nil {
			break
		}
		switch {
		case op == '*':
			v *= w
		case w == 0:
			return 0, errZero
		case floor:
			v = math.Floor(v / w)
		default:
			v /= w
		}
	}
	return v, err
}

func (p *arith) unary() (float64, error) {
	if p.i < len(p.s) && (p.s[p.i] == '-' || p.s[p.i] == '+') {
		neg := p.s[p.i] == '-'
		p.i++
		v, err := p.unary()
		if neg {
			v = -v
		}
		return v, err
	}
	return p.power()
}

func (p *arith) power() (float64, error) {
	v, err := p.atom()
	if err == nil && p.peek("**") {
		p.i += 2
		var w float64
		if w, err = p.unary(); err == nil {
			if v == 0 && w < 0 {
				return 0, errors.New("0.0 cannot be raised to a negative power")
			}
			v = math.Pow(v, w)
		}
	}
	return v, err
}

func (p *arith) atom() (float64, error) {
	if p.i < len(p.s) && p.s[p.i] == '(' {
		p.i++
		v, err := p.sum()
		if err != nil {
			return 0, err
		}
		if p.i >= len(p.s) || p.s[p.i] != ')' {
			return 0, errSyntax
		}
		p.i++
		return v, nil
	}
	j := p.i
	for j < len(p.s) && (p.s[j] >= '0' && p.s[j] <= '9' || p.s[j] == '.') {
		j++
	}
	if j == p.i {
		return 0, errSyntax
	}
	v, err := strconv.ParseFloat(p.s[p.i:j], 64)
	if err != nil {
		return 0, errSyntax
	}
	p.i = j
	return v, nil
}

// Round is Python's round(x, n): the float nearest the decimal
// rounded correctly from x's exact value.
func Round(x float64, n int) float64 {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'f', n, 64), 64)
	return v
}
