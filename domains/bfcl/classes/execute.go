package classes

import (
	"fmt"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/parthack/parthack/domains/bfcl/pyval"
)

// BFCL's executor, as multi_turn_utils.py (gorilla 8db0b7ca) has it:
// execute_multi_turn_func_call and _process_method_calls. A model's
// calls reach it as BFCL's handler decodes them, convert_to_function_call
// in bfcl_eval/model_handler/utils.py (gorilla 0c927010):
// f"{name}({','.join(f'{k}={repr(v)}' for k, v in args.items())})".

// Call is one call string parsed: the function's name (dotted where the
// string calls an attribute, "a.b") and its literal arguments.
type Call struct {
	Method string
	Args   []pyval.Value
	Kwargs []pyval.Item // Key is the parameter's name, a string
}

// ParseCall parses a call of literals as BFCL's gold and decoded model
// calls write them: "mv(source='x', destination='temp')", positional
// and keyword arguments, str, int, float, True/False/None, lists,
// tuples, dicts, negative numbers. A syntax error is Python's
// SyntaxError text (str(e), as "Error during execution: " would show
// it) where known; an argument that is no literal is an error saying so.
func ParseCall(src string) (Call, error) {
	n, err := parseExpr(src)
	if err != nil {
		return Call{}, err
	}
	c, ok := n.(nCall)
	if !ok {
		return Call{}, fmt.Errorf("%q is not a call", src)
	}
	name, ok := dottedName(c.fn)
	if !ok {
		return Call{}, fmt.Errorf("%q calls no name", src)
	}
	ev := &evaluator{}
	out := Call{Method: name}
	for _, a := range c.args {
		v, err := ev.literal(a)
		if err != nil {
			return Call{}, err
		}
		out.Args = append(out.Args, v)
	}
	for _, k := range c.kws {
		v, err := ev.literal(k.v)
		if err != nil {
			return Call{}, err
		}
		out.Kwargs = append(out.Kwargs, pyval.Item{Key: k.name, Value: v})
	}
	return out, nil
}

func dottedName(n node) (string, bool) {
	switch x := n.(type) {
	case nName:
		return x.id, true
	case nAttr:
		head, ok := dottedName(x.x)
		return head + "." + x.name, ok
	}
	return "", false
}

// Bind binds a call's arguments to method m of class c as Python binds
// them to a method's parameters (self aside), defaults filled in, with
// CPython's TypeError texts: "TicketAPI.create_ticket() got an
// unexpected keyword argument 'x'", "... missing 1 required positional
// argument: 'title'", "... takes from 2 to 4 positional arguments but 5
// were given", "... got multiple values for argument 'title'".
func Bind(c *Class, m string, call Call) ([]pyval.Value, error) {
	meth, ok := c.Methods[m]
	if !ok {
		return nil, pyval.AttributeError(classObject{c}, m)
	}
	qual := c.Name + "." + m
	params := meth.Params
	bound := make([]pyval.Value, len(params))
	set := make([]bool, len(params))
	for i := 0; i < len(call.Args) && i < len(params); i++ {
		bound[i], set[i] = call.Args[i], true
	}
	for _, kw := range call.Kwargs {
		name, _ := kw.Key.(string)
		j := -1
		for i, p := range params {
			if p.Name == name {
				j = i
				break
			}
		}
		if j < 0 {
			return nil, pyval.TypeError(fmt.Sprintf("%s() got an unexpected keyword argument '%s'", qual, name))
		}
		if set[j] {
			return nil, pyval.TypeError(fmt.Sprintf("%s() got multiple values for argument '%s'", qual, name))
		}
		bound[j], set[j] = kw.Value, true
	}
	if len(call.Args) > len(params) {
		return nil, pyval.TypeError(tooManyPositional(qual, params, len(call.Args)))
	}
	var missing []string
	for i, p := range params {
		if set[i] {
			continue
		}
		if p.HasDefault {
			bound[i] = p.Default
			continue
		}
		missing = append(missing, "'"+p.Name+"'")
	}
	if len(missing) > 0 {
		return nil, pyval.TypeError(missingArguments(qual, missing))
	}
	return bound, nil
}

// tooManyPositional is CPython's too_many_positional; counts include
// self, as Python's do for a bound method.
func tooManyPositional(qual string, params []Param, given int) string {
	defaults := 0
	for _, p := range params {
		if p.HasDefault {
			defaults++
		}
	}
	total := len(params) + 1
	var sig string
	plural := "s"
	if defaults > 0 {
		sig = fmt.Sprintf("from %d to %d", total-defaults, total)
	} else {
		sig = fmt.Sprint(total)
		if total == 1 {
			plural = ""
		}
	}
	was := "were"
	if given+1 == 1 {
		was = "was"
	}
	return fmt.Sprintf("%s() takes %s positional argument%s but %d %s given", qual, sig, plural, given+1, was)
}

// missingArguments is CPython's missing_arguments: "'a'", "'a' and
// 'b'", "'a', 'b', and 'c'".
func missingArguments(qual string, names []string) string {
	var list string
	switch len(names) {
	case 1:
		list = names[0]
	case 2:
		list = names[0] + " and " + names[1]
	default:
		list = strings.Join(names[:len(names)-1], ", ") + ", and " + names[len(names)-1]
	}
	s := "s"
	if len(names) == 1 {
		s = ""
	}
	return fmt.Sprintf("%s() missing %d required positional argument%s: %s", qual, len(names), s, list)
}

// classObject shows an instance to pyval's error texts by its class name.
type classObject struct{ c *Class }

func (o classObject) ClassName() string                        { return o.c.Name }
func (o classObject) Repr() string                             { return "<" + o.c.Name + " object>" }
func (o classObject) Equal(other pyval.Value) bool             { return false }
func (o classObject) DeepCopy(map[any]pyval.Value) pyval.Value { return o }
func (o classObject) MarshalState() ([]byte, error)            { return []byte("null"), nil }

// forbidden are the names BFCL's executor refuses to eval.
var forbidden = map[string]bool{"kill": true, "exit": true, "quit": true, "remove": true, "unlink": true, "popen": true, "Popen": true, "run": true}

// InstanceName is the global name BFCL gives an instance:
// f"{model_name}_{test_entry_id}_{class_name}_instance" with "-", "."
// and "/" made "_". The checker's model_name ends in "_eval" (and
// "_ground_truth_eval" for the gold run).
func InstanceName(modelName, entryID, class string) string {
	b := []byte(modelName + "_" + entryID + "_" + class + "_instance")
	for i, c := range b {
		if c == '-' || c == '.' || c == '/' {
			b[i] = '_'
		}
	}
	return string(b)
}

// Session is one entry's instances as BFCL's executor holds them across
// the turns of one run (its globals()). What BFCL's eval would reach
// beyond the instances (Python's builtins, the executor module's own
// globals: "float('inf')", "len(x)") is a NameError here; set literals,
// comprehensions, lambdas, f-strings, bytes and starred arguments are a
// clear error; none occurs among the staged runs' 1,812 distinct calls.
type Session struct {
	// Instances are the involved classes' instances, in involved_classes
	// order (a class listed twice is one instance).
	Instances []*Instance
	names     []string       // each instance's global name
	methods   map[string]int // method name → instance (the later class wins)
	// Faults are port panics Execute caught (each also a result string);
	// empty when every call ran as ported.
	Faults []string
}

// NewSession instantiates the involved classes as execute_multi_turn_
// func_call does: each class's __init__, then, for a stateful class,
// _load_scenario of a deep copy of initialConfig[class] ({} when
// absent). modelName and entryID make the instances' global names, which
// BFCL writes into the call text before it evals it.
func NewSession(initialConfig *pyval.Dict, involved []string, modelName, entryID string) (*Session, error) {
	s := &Session{}
	seen := map[string]int{}
	for _, name := range involved {
		c, ok := Lookup(name)
		if !ok {
			return nil, fmt.Errorf("bfcl: involved class %q is none of BFCL's classes", name)
		}
		idx, dup := seen[name]
		if !dup {
			in := &Instance{Class: c}
			if c.Init != nil {
				c.Init(in)
			}
			if !c.Stateless && c.Load != nil {
				cfg := pyval.NewDict()
				if initialConfig != nil {
					if v, ok := initialConfig.Get(name); ok {
						d, ok := pyval.DeepCopy(v).(*pyval.Dict)
						if !ok {
							return nil, fmt.Errorf("bfcl: initial_config[%q] is a %s, not a dict", name, pyval.TypeName(v))
						}
						cfg = d
					}
				}
				if err := c.Load(in, cfg); err != nil {
					return nil, fmt.Errorf("bfcl: %s._load_scenario: %w", name, err)
				}
			}
			idx = len(s.Instances)
			seen[name] = idx
			s.Instances = append(s.Instances, in)
			s.names = append(s.names, InstanceName(modelName, entryID, name))
		}
	}
	key := strings.Join(involved, "\x00")
	if m, ok := sessionMethods.Load(key); ok {
		s.methods = m.(map[string]int)
		return s, nil
	}
	s.methods = map[string]int{}
	for _, name := range involved {
		c, _ := Lookup(name)
		for m := range c.Methods {
			if !strings.HasPrefix(m, "_") {
				s.methods[m] = seen[name]
			}
		}
	}
	sessionMethods.Store(key, s.methods)
	return s, nil
}

// sessionMethods holds each list of involved classes' method map, which
// no session changes: the entries have a few dozen lists.
var sessionMethods sync.Map

// Clone is a deep copy of the session: its instances' attributes copied
// with one memo, so what instances share stays shared. The instances'
// names and the method map, which nothing changes after NewSession, are
// shared.
func (s *Session) Clone() *Session {
	c := &Session{names: s.names, methods: s.methods, Instances: make([]*Instance, 0, len(s.Instances))}
	var memo map[any]pyval.Value
	for _, in := range s.Instances {
		cp := &Instance{Class: in.Class, Attrs: make([]Attr, len(in.Attrs))}
		if memo == nil && len(in.Attrs) > 0 {
			memo = map[any]pyval.Value{}
		}
		for i, a := range in.Attrs {
			cp.Attrs[i] = Attr{Name: a.Name, Value: pyval.DeepCopyMemo(a.Value, memo)}
		}
		c.Instances = append(c.Instances, cp)
	}
	return c
}

// ClassState is one instance's public attributes (names not starting
// with "_"), in order: what BFCL's state check compares.
type ClassState struct {
	Class string
	Attrs []Attr
}

// Snapshot gives each instance's public attributes, in involved order.
// The values are the instances' own, not copies.
func (s *Session) Snapshot() []ClassState {
	out := make([]ClassState, 0, len(s.Instances))
	for _, in := range s.Instances {
		st := ClassState{Class: in.Class.Name}
		for _, a := range in.Attrs {
			if !strings.HasPrefix(a.Name, "_") {
				st.Attrs = append(st.Attrs, a)
			}
		}
		out = append(out, st)
	}
	return out
}

// Instance returns the session's instance of a class.
func (s *Session) Instance(class string) (*Instance, bool) {
	for _, in := range s.Instances {
		if in.Class.Name == class {
			return in, true
		}
	}
	return nil, false
}

// Reaches reports, for each instance, whether a call can reach it: its
// global name is in the call's text as _process_method_calls rewrites
// it. Eval finds an instance by that name alone, and a method reads and
// changes its own instance only, so an instance the text does not name
// ends the call as it began.
func (s *Session) Reaches(call string) []bool {
	processed := s.processMethodCalls(call)
	out := make([]bool, len(s.names))
	for i, name := range s.names {
		out[i] = strings.Contains(processed, name)
	}
	return out
}

// Execute runs calls as execute_multi_turn_func_call does and returns its
// result strings: a str as is, a dict as json.dumps (str() where that
// fails), anything else str(); an exception "Error during execution: " +
// str(e). Each call string is first rewritten as _process_method_calls
// rewrites it, names of methods prefixed with their instance's global
// name wherever "name(" appears, string literals included.
func (s *Session) Execute(calls []string) []string {
	out := make([]string, 0, len(calls))
	for _, call := range calls {
		out = append(out, s.executeOne(call))
	}
	return out
}

func (s *Session) executeOne(call string) (result string) {
	processed := s.processMethodCalls(call)
	head := processed
	if i := strings.IndexByte(head, '('); i >= 0 {
		head = head[:i]
	}
	if strings.Contains(head, ".") {
		head = strings.Split(head, ".")[1]
	}
	if forbidden[head] {
		return "Error during execution: Function call " + head + " is not allowed."
	}
	defer func() {
		if r := recover(); r != nil {
			msg := fmt.Sprintf("port panic on %q: %v", call, r)
			s.Faults = append(s.Faults, msg)
			result = "Error during execution: " + msg
		}
	}()
	n, err := parseExpr(processed)
	if err != nil {
		return "Error during execution: " + errText(err)
	}
	v, err := (&evaluator{s: s}).eval(n)
	if err != nil {
		return "Error during execution: " + errText(err)
	}
	return ResultString(v)
}

// ResultString is how BFCL's executor turns a call's return value into
// its result string: where str() itself raises (an int of more than 4300
// digits), the result is that error's, as the conversion happens inside
// the executor's try.
func ResultString(v pyval.Value) string {
	var s string
	var err error
	switch x := v.(type) {
	case string:
		return x
	case *pyval.Dict:
		if s, err = pyval.Dumps(x); err != nil {
			s, err = pyval.StrErr(x)
		}
	default:
		s, err = pyval.StrErr(v)
	}
	if err != nil {
		return "Error during execution: " + errText(err)
	}
	return s
}

func errText(err error) string {
	if e, ok := err.(*pyval.Exception); ok {
		return e.Msg
	}
	return err.Error()
}

// processMethodCalls is _process_method_calls: every match of
// \b([a-zA-Z_]\w*)\s*(?=\() (Unicode \w, \s, \b as Python's re has them)
// becomes "instance.name" for a method some instance has, else the bare
// name; either way the whitespace before "(" is dropped.
func (s *Session) processMethodCalls(src string) string {
	var b strings.Builder
	b.Grow(len(src) + 64) // room for a call's instance name, so that it grows once at most
	i := 0
	prevWord := false // whether the character before i is a \w
	for i < len(src) {
		r, n := utf8.DecodeRuneInString(src[i:])
		if !prevWord && (r == '_' || r < utf8.RuneSelf && unicode.IsLetter(r)) {
			j := i + n
			for j < len(src) {
				r2, n2 := utf8.DecodeRuneInString(src[j:])
				if !isWordRune(r2) {
					break
				}
				j += n2
			}
			k := j
			for k < len(src) {
				r2, n2 := utf8.DecodeRuneInString(src[k:])
				if !pyval.IsSpace(r2) {
					break
				}
				k += n2
			}
			if k < len(src) && src[k] == '(' {
				name := src[i:j]
				if idx, ok := s.methods[name]; ok {
					b.WriteString(s.names[idx])
					b.WriteByte('.')
				}
				b.WriteString(name)
				i = k
				prevWord = false
				continue
			}
			b.WriteString(src[i:j])
			i = j
			prevWord = true
			continue
		}
		b.WriteString(src[i : i+n])
		i += n
		prevWord = isWordRune(r)
	}
	return b.String()
}

// isWordRune is Python's \w for str patterns: alphanumeric or "_".
func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return asciiWord[r]
	}
	return unicode.IsLetter(r) || unicode.IsNumber(r)
}

// boundMethod is instance.method, not yet called.
type boundMethod struct {
	in   *Instance
	name string
}

// instanceValue is an instance reached by its global name.
type instanceValue struct{ in *Instance }

type evaluator struct {
	s *Session // nil: literals only (ParseCall)
}

// literal evaluates a node that must be a literal, as ast.literal_eval
// takes them: constants, lists, tuples, dicts, a sign on a number.
func (ev *evaluator) literal(n node) (pyval.Value, error) {
	ok := true
	var walk func(n node)
	walk = func(n node) {
		switch x := n.(type) {
		case nConst:
		case nList:
			for _, e := range x.elts {
				walk(e)
			}
		case nTuple:
			for _, e := range x.elts {
				walk(e)
			}
		case nDict:
			for i := range x.keys {
				walk(x.keys[i])
				walk(x.vals[i])
			}
		case nUnary:
			c, isConst := x.x.(nConst)
			if !isConst || (x.op != "-" && x.op != "+") {
				ok = false
				return
			}
			switch c.v.(type) {
			case string, bool, nil, pyval.Tuple:
				ok = false
			}
		default:
			ok = false
		}
	}
	walk(n)
	if !ok {
		return nil, fmt.Errorf("an argument is no literal")
	}
	return ev.eval(n)
}

func (ev *evaluator) eval(n node) (pyval.Value, error) {
	switch x := n.(type) {
	case nConst:
		return x.v, nil
	case nName:
		if ev.s != nil {
			for i, name := range ev.s.names {
				if name == x.id {
					return instanceValue{ev.s.Instances[i]}, nil
				}
			}
		}
		return nil, &pyval.Exception{Type: "NameError", Msg: fmt.Sprintf("name '%s' is not defined", x.id)}
	case nAttr:
		v, err := ev.eval(x.x)
		if err != nil {
			return nil, err
		}
		if iv, ok := v.(instanceValue); ok {
			if _, ok := iv.in.Class.Methods[x.name]; ok {
				return boundMethod{in: iv.in, name: x.name}, nil
			}
			if a, ok := iv.in.Get(x.name); ok {
				return a, nil
			}
			return nil, pyval.AttributeError(classObject{iv.in.Class}, x.name)
		}
		return nil, pyval.AttributeError(displayValue(v), x.name)
	case nCall:
		return ev.call(x)
	case nList:
		l := &pyval.List{Items: make([]pyval.Value, 0, len(x.elts))}
		for _, e := range x.elts {
			v, err := ev.eval(e)
			if err != nil {
				return nil, err
			}
			l.Items = append(l.Items, v)
		}
		return l, nil
	case nTuple:
		t := make(pyval.Tuple, 0, len(x.elts))
		for _, e := range x.elts {
			v, err := ev.eval(e)
			if err != nil {
				return nil, err
			}
			t = append(t, v)
		}
		return t, nil
	case nDict:
		d := pyval.NewDict()
		for i := range x.keys {
			k, err := ev.eval(x.keys[i])
			if err != nil {
				return nil, err
			}
			v, err := ev.eval(x.vals[i])
			if err != nil {
				return nil, err
			}
			if err := d.SetItem(k, v); err != nil {
				return nil, err
			}
		}
		return d, nil
	case nSet:
		return nil, fmt.Errorf("a set literal is not supported by this port")
	case nUnary:
		v, err := ev.eval(x.x)
		if err != nil {
			return nil, err
		}
		switch x.op {
		case "-":
			return pyval.Neg(v)
		case "+":
			if _, err := pyval.Neg(v); err != nil {
				return nil, pyval.TypeError(fmt.Sprintf("bad operand type for unary +: '%s'", pyval.TypeName(v)))
			}
			return v, nil
		case "not":
			return !pyval.Truth(v), nil
		}
		return nil, fmt.Errorf("unary %s is not supported by this port", x.op)
	case nBin:
		l, err := ev.eval(x.l)
		if err != nil {
			return nil, err
		}
		r, err := ev.eval(x.r)
		if err != nil {
			return nil, err
		}
		switch x.op {
		case "+":
			return pyval.Add(l, r)
		case "-":
			return pyval.Sub(l, r)
		case "*":
			return pyval.Mul(l, r)
		case "/":
			return pyval.TrueDiv(l, r)
		case "//":
			return pyval.FloorDiv(l, r)
		case "%":
			return pyval.Mod(l, r)
		case "**":
			return pyval.Pow(l, r)
		}
	case nSubscript:
		v, err := ev.eval(x.x)
		if err != nil {
			return nil, err
		}
		k, err := ev.eval(x.idx)
		if err != nil {
			return nil, err
		}
		return pyval.GetItem(displayValue(v), k)
	}
	return nil, fmt.Errorf("expression %T is not supported by this port", n)
}

// displayValue gives pyval an instance or bound method under its Python
// type name for error texts.
func displayValue(v pyval.Value) pyval.Value {
	switch x := v.(type) {
	case instanceValue:
		return classObject{x.in.Class}
	case boundMethod:
		return namedType("method")
	}
	return v
}

type namedType string

func (t namedType) ClassName() string                        { return string(t) }
func (t namedType) Repr() string                             { return "<" + string(t) + ">" }
func (t namedType) Equal(other pyval.Value) bool             { return false }
func (t namedType) DeepCopy(map[any]pyval.Value) pyval.Value { return t }
func (t namedType) MarshalState() ([]byte, error)            { return []byte("null"), nil }

func (ev *evaluator) call(c nCall) (pyval.Value, error) {
	fn, err := ev.eval(c.fn)
	if err != nil {
		return nil, err
	}
	var call Call
	for _, a := range c.args {
		v, err := ev.eval(a)
		if err != nil {
			return nil, err
		}
		call.Args = append(call.Args, v)
	}
	for _, k := range c.kws {
		v, err := ev.eval(k.v)
		if err != nil {
			return nil, err
		}
		call.Kwargs = append(call.Kwargs, pyval.Item{Key: k.name, Value: v})
	}
	bm, ok := fn.(boundMethod)
	if !ok {
		return nil, pyval.TypeError(fmt.Sprintf("'%s' object is not callable", pyval.TypeName(displayValue(fn))))
	}
	call.Method = bm.name
	args, err := Bind(bm.in.Class, bm.name, call)
	if err != nil {
		return nil, err
	}
	return bm.in.Class.Methods[bm.name].Body(bm.in, args)
}
