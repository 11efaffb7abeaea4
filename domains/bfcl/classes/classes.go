// Package classes ports BFCL's eight multi-turn classes (gorilla 6ea5797,
// bfcl_eval/eval_checker/multi_turn_eval/func_source_code/) to Go, method
// by method over pyval values, so that a call returns and changes exactly
// what BFCL's Python does: its result, its error text, its state.
package classes

import "github.com/parthack/parthack/domains/bfcl/pyval"

// Attr is one attribute of an instance, as vars(instance) lists it, in
// the order the class assigns it. Names starting with "_" are private:
// BFCL's state check skips them, but they are state (the file system's
// current directory, a random generator) and a port keeps them.
type Attr struct {
	Name  string
	Value pyval.Value
	// Shared: Value is not the instance's own (a value decoded once and
	// kept for every call) and Get deep-copies it on the first read, so
	// that an attribute a call never reads is never copied. Still set
	// after a call, the call did not read the attribute.
	Shared bool
}

// Param is one parameter of a method, in declaration order after self.
type Param struct {
	Name       string
	Default    pyval.Value // used when HasDefault
	HasDefault bool
}

// Method is one public method of a class: its parameters and its body,
// which gets the arguments bound as Python binds them, one per Param.
type Method struct {
	Params []Param
	Body   func(self *Instance, args []pyval.Value) (pyval.Value, error)
}

// Class is one of BFCL's classes.
type Class struct {
	Name      string // "GorillaFileSystem"
	Stateless bool   // MathAPI: never loaded from initial_config
	// Init sets the attributes __init__ sets, in its order.
	Init func(self *Instance)
	// Load is _load_scenario(scenario, long_context=False), scenario being
	// a deep copy of initial_config[Name] ({} when absent).
	Load func(self *Instance, scenario *pyval.Dict) error
	// Methods are the public methods, by name: every method
	// inspect.getmembers(instance, inspect.ismethod) lists without a
	// leading "_", tools or not (BFCL's executor maps a call's name to
	// the instance through them), static methods aside (not ismethod).
	Methods map[string]*Method
}

// Instance is one instance of a class: its attributes, in order.
type Instance struct {
	Class *Class
	Attrs []Attr
}

// Get reads an attribute (nil, false when it was never set), a shared
// one copied first.
func (in *Instance) Get(name string) (pyval.Value, bool) {
	for i := range in.Attrs {
		a := &in.Attrs[i]
		if a.Name == name {
			if a.Shared {
				a.Value, a.Shared = pyval.Clone(a.Value), false
			}
			return a.Value, true
		}
	}
	return nil, false
}

// Set assigns an attribute, appending it the first time, as Python's
// instance dict keeps insertion order.
func (in *Instance) Set(name string, v pyval.Value) {
	for i := range in.Attrs {
		if in.Attrs[i].Name == name {
			in.Attrs[i].Value, in.Attrs[i].Shared = v, false
			return
		}
	}
	in.Attrs = append(in.Attrs, Attr{Name: name, Value: v})
}

// registry holds every class, by name.
var registry = map[string]*Class{}

// Register adds a class; each class's file registers it in its init.
func Register(c *Class) { registry[c.Name] = c }

// Lookup finds a class by BFCL's name for it.
func Lookup(name string) (*Class, bool) { c, ok := registry[name]; return c, ok }
