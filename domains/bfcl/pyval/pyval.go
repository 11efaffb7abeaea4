// Package pyval holds Python values as BFCL's multi-turn classes hold and
// return them, with Python's own repr, str, json.dumps, ==, deepcopy and
// the exception texts its operators raise, so that a Go port of a class
// returns byte for byte what BFCL's Python returns. The classes are
// ported dynamically, attribute by attribute over these values, because
// models pass arguments of unexpected types and BFCL's Python stores and
// compares them as they come.
//
// testdata/gen.py pins each function to CPython (3.11 here; sum() as
// 3.12's, which BFCL's official scores used). Known departures: every NaN
// dict key is one key (Python keys NaN objects by identity), and a list
// holding the same NaN object twice compares unequal where Python's
// identity shortcut says equal; a str cannot hold a lone surrogate (JSON
// "\ud800" reads as U+FFFD); Unicode tables are Go's; sorting a list of
// 64 items or more makes other comparisons than CPython's timsort (same
// order, but a mixed list may name its types the other way round in the
// TypeError); texts are 3.11's where 3.12 may differ (none known).
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
	// Repr is repr(x); a class defining __str__ also implements
	// StrObject.
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

// StrObject is an Object whose class defines __str__.
type StrObject interface {
	Object
	Str() string
}

// HashObject is an Object whose class defines __hash__ by value (Decimal,
// mpf): objects equal under Equal give equal HashKeys. Other objects hash
// by identity, as Python's default __hash__ does.
type HashObject interface {
	Object
	HashKey() string
}

// UnhashableObject is an Object whose class sets __hash__ to None.
type UnhashableObject interface {
	Object
	Unhashable()
}

// OrderedObject is an Object defining the rich comparisons: Compare
// returns ok false where the class returns NotImplemented.
type OrderedObject interface {
	Object
	Compare(op string, other Value) (result bool, ok bool, err error)
}

// NumberObject is an Object with arithmetic (Decimal, mpf): BinaryOp is
// the operator method for op ("+", "-", "*", "/", "//", "%", "**") with
// the object as left operand, or the reflected one (__radd__) when
// reflected; ok false is NotImplemented. Unary is "-" (__neg__) or "abs".
// Float is float(x), where the class defines __float__.
type NumberObject interface {
	Object
	BinaryOp(op string, other Value, reflected bool) (result Value, ok bool, err error)
	Unary(op string) (Value, error)
	Float() (float64, error)
}
