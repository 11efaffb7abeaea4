package pyval

import "fmt"

// Errorf makes an exception of Python type typ with str(e) the formatted
// text.
func Errorf(typ, format string, args ...any) *Exception {
	return &Exception{Type: typ, Msg: fmt.Sprintf(format, args...)}
}

// TypeError is a TypeError with str(e) msg.
func TypeError(msg string) *Exception { return &Exception{Type: "TypeError", Msg: msg} }

// ValueError is a ValueError with str(e) msg.
func ValueError(msg string) *Exception { return &Exception{Type: "ValueError", Msg: msg} }

// IndexError is an IndexError with str(e) msg.
func IndexError(msg string) *Exception { return &Exception{Type: "IndexError", Msg: msg} }

// KeyError is KeyError(k): its str is repr(k), as Python's KeyError
// prints its single argument.
func KeyError(k Value) *Exception { return &Exception{Type: "KeyError", Msg: Repr(k)} }

// AttributeError is the error of reading attribute name from v:
// "'int' object has no attribute 'lower'".
func AttributeError(v Value, name string) *Exception {
	return &Exception{Type: "AttributeError", Msg: fmt.Sprintf("'%s' object has no attribute '%s'", TypeName(v), name)}
}

// ZeroDivisionError is a ZeroDivisionError with str(e) msg.
func ZeroDivisionError(msg string) *Exception {
	return &Exception{Type: "ZeroDivisionError", Msg: msg}
}

// OverflowError is an OverflowError with str(e) msg.
func OverflowError(msg string) *Exception { return &Exception{Type: "OverflowError", Msg: msg} }

// unhashable is the TypeError of using v as a dict key or set member.
func unhashable(v Value) *Exception {
	return TypeError(fmt.Sprintf("unhashable type: '%s'", TypeName(v)))
}
