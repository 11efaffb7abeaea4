// Package pyval holds Python values as BFCL's multi-turn classes hold and
// return them, with Python's own repr, str, json.dumps, ==, deepcopy and
// the exception texts its operators raise, so that a Go port of a class
// returns byte for byte what BFCL's Python returns. The classes are
// ported dynamically, attribute by attribute over these values, because
// models pass arguments of unexpected types and BFCL's Python stores and
// compares them as they come.
package pyval

// Value is one Python value:
//
//	None            nil
//	bool            bool
//	int             int64, or *big.Int past int64
//	float           float64
//	str             string
//	list            *List (mutable, shared by reference as in Python)
//	tuple           Tuple
//	dict            *Dict (insertion-ordered; shared by reference)
//	other objects   Object (GorillaFileSystem's File and Directory,
//	                Decimal, mpmath's mpf, random.Random, datetime)
type Value = any

// List is a Python list.
type List struct{ Items []Value }

// NewList makes a list of the items (not copied).
func NewList(items ...Value) *List { return &List{Items: items} }

// Tuple is a Python tuple.
type Tuple []Value

// Item is one key and value of a dict, or one keyword argument.
type Item struct {
	Key   Value
	Value Value
}

// Object is an instance of a Python class held in a value.
type Object interface {
	// ClassName is type(x).__name__.
	ClassName() string
	// Repr is repr(x); Str is str(x) where the class defines __str__.
	Repr() string
	// Equal is x == other (the class's __eq__, else identity).
	Equal(other Value) bool
	// DeepCopy is copy.deepcopy(x); memo keeps shared references shared.
	DeepCopy(memo map[any]Value) Value
	// MarshalState encodes the object's whole state for Marshal (a JSON
	// document Unmarshal gives to the decoder registered under ClassName).
	MarshalState() ([]byte, error)
}

// Exception is a Python exception a method raised: Type is its class
// ("TypeError", "KeyError", "ValueError") and Msg is str(e), what BFCL's
// executor writes after "Error during execution: ".
type Exception struct {
	Type string
	Msg  string
}

func (e *Exception) Error() string { return e.Msg }

// Dict is a Python dict: insertion-ordered, its keys compared as Python
// compares them (1, 1.0 and True are one key).
type Dict struct {
	items []Item
}

// NewDict makes an empty dict.
func NewDict() *Dict { return &Dict{} }

// Len is len(d).
func (d *Dict) Len() int { return len(d.items) }

// Items are the dict's items in order; callers must not modify the slice.
func (d *Dict) Items() []Item { return d.items }
