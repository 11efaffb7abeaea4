package payload

import (
	"slices"
	"strings"

	"github.com/parthack/parthack/model"
)

// Field is one named value of an entity or of an action's arguments.
type Field struct {
	Name  string
	Value model.Value
}

// Fields is a JSON object of named values, kept sorted by name so that
// its encoding is canonical without a map.
type Fields []Field

// MarshalJSON writes the fields as one object, keys in sorted order.
func (fs Fields) MarshalJSON() ([]byte, error) { return fs.appendJSON(nil), nil }

// AppendJSON appends the fields' canonical encoding to b.
func (fs Fields) AppendJSON(b []byte) []byte { return fs.appendJSON(b) }

func (fs Fields) appendJSON(b []byte) []byte {
	b = append(b, '{')
	for i, f := range fs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(appendStr(b, f.Name), ':')
		b = appendValue(b, f.Value)
	}
	return append(b, '}')
}

// Sort puts the fields in name order, the order the canonical encoding
// requires.
func (fs Fields) Sort() {
	slices.SortFunc(fs, func(a, b Field) int { return strings.Compare(a.Name, b.Name) })
}

// Get finds a field's value; null when absent.
func (fs Fields) Get(name string) model.Value {
	for _, f := range fs {
		if f.Name == name {
			return f.Value
		}
	}
	return model.Null
}

// Expr is a predicate expression on the wire, in the task file's syntax
// (AppendExpr). Decode reads the raw bytes through model.DecodePredicates
// against the payload's entity schema, so an expression here is checked
// as strictly as in a task file.
type Expr struct {
	model.Expr
	raw []byte
}

// MarshalJSON writes the expression canonically.
func (e Expr) MarshalJSON() ([]byte, error) { return AppendExpr(nil, &e.Expr), nil }
