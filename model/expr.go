package model

import "slices"

// ExprKind names the form of a predicate expression.
type ExprKind string

// The predicate DSL's forms.
const (
	ExprField  ExprKind = "field"  // compare one entity's field to a value
	ExprAlive  ExprKind = "alive"  // the entity exists and is not deleted
	ExprAbsent ExprKind = "absent" // the entity is missing or deleted
	ExprCount  ExprKind = "count"  // number of alive entities of a type matching a filter, compared to N
	ExprRef    ExprKind = "ref"    // a reference field names an alive entity (Target, when given)
	ExprAll    ExprKind = "all"
	ExprAny    ExprKind = "any"
	ExprNot    ExprKind = "not"
)

// Cmp is a comparison operator.
type Cmp string

// Comparison operators. The ordering ones apply to ints; "in" tests that a
// scalar field's value is one of Values; "contains" tests that a list
// field holds Value; eq and ne compare whole values of any kind.
const (
	CmpEq       Cmp = "eq"
	CmpNe       Cmp = "ne"
	CmpIn       Cmp = "in"
	CmpLt       Cmp = "lt"
	CmpLe       Cmp = "le"
	CmpGt       Cmp = "gt"
	CmpGe       Cmp = "ge"
	CmpContains Cmp = "contains"
)

// allCmps is every comparison operator.
var allCmps = []Cmp{CmpEq, CmpNe, CmpIn, CmpLt, CmpLe, CmpGt, CmpGe, CmpContains}

// Cmps lists every comparison operator (a copy).
func Cmps() []Cmp { return slices.Clone(allCmps) }

// Cond is one field condition of a count filter, on the counted entity.
type Cond struct {
	Field  string
	Cmp    Cmp
	Value  Value
	Values []Value // for CmpIn
}

// Expr is a predicate expression. Which fields are set depends on Kind.
type Expr struct {
	Kind   ExprKind
	Type   string
	ID     string
	Field  string
	Cmp    Cmp
	Value  Value
	Values []Value // for CmpIn
	Where  []Cond  // count filter (conjunction)
	N      int64   // count threshold
	Target string  // ref target id, optional
	Args   []Expr  // all, any, not (one)
}

// Compare applies a comparison to a field value: the one definition of the
// DSL's comparisons, shared by the environment and the evaluators (the
// independent certifier keeps its own on purpose). A null field satisfies
// only ne; ordering comparisons apply to ints.
func Compare(v Value, cmp Cmp, want Value, wants []Value) bool {
	switch cmp {
	case CmpEq:
		return v.Equal(want)
	case CmpNe:
		return !v.Equal(want)
	case CmpIn:
		return slices.ContainsFunc(wants, v.Equal)
	case CmpContains:
		return v.Kind() == ListValue && slices.Contains(v.AsList(), want.AsString())
	}
	if v.Kind() != IntValue || want.Kind() != IntValue {
		return false
	}
	return CompareInt(v.AsInt(), cmp, want.AsInt())
}

// CompareInt applies an ordering or equality comparison to two ints, as
// counts compare to their threshold.
func CompareInt(a int64, cmp Cmp, b int64) bool {
	switch cmp {
	case CmpEq:
		return a == b
	case CmpNe:
		return a != b
	case CmpLt:
		return a < b
	case CmpLe:
		return a <= b
	case CmpGt:
		return a > b
	case CmpGe:
		return a >= b
	}
	return false
}
