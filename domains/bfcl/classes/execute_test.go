package classes

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/parthack/parthack/domains/bfcl/pyval"
)

// The expected values are CPython's and BFCL's own executor's, written by
// ../pyval/testdata/gen.py into ../pyval/testdata/cases.json (regenerate
// with `python3 domains/bfcl/pyval/testdata/gen.py`; its executor runs
// need /work/shared/realworld/bfcl/source).

type executorCases struct {
	Executor struct {
		Process []struct{ Call, Processed string } `json:"process"`
		Syntax  []struct {
			Src   string  `json:"src"`
			Error *string `json:"error"`
		} `json:"syntax"`
		Literals []struct {
			Src    string `json:"src"`
			Method string `json:"method"`
			Args   string `json:"args"`
			Kwargs string `json:"kwargs"`
		} `json:"literals"`
	} `json:"executor"`
	Bind []struct {
		Method, Args string
		Error        *string
	} `json:"bind"`
	Runs *struct {
		Initial  string   `json:"initial"`
		Involved []string `json:"involved"`
		Model    string   `json:"model"`
		Entry    string   `json:"entry"`
		Runs     []struct {
			Calls   []string `json:"calls"`
			Results []string `json:"results"`
		} `json:"runs"`
		State        map[string]string `json:"state"`
		InitialAfter string            `json:"initial_after"`
	} `json:"executor_runs"`
}

func loadCases(t *testing.T) *executorCases {
	t.Helper()
	data, err := os.ReadFile("../pyval/testdata/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var c executorCases
	if err := json.Unmarshal(data, &c); err != nil {
		t.Fatal(err)
	}
	return &c
}

func mustMarshal(t *testing.T, v pyval.Value) string {
	t.Helper()
	b, err := pyval.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestProcessMethodCalls(t *testing.T) {
	s := &Session{names: []string{"M_e_A_instance", "M_e_B_instance"},
		methods: map[string]int{"ls": 0, "cd": 0, "echo": 1, "mv": 1}}
	for _, tc := range loadCases(t).Executor.Process {
		if got := s.processMethodCalls(tc.Call); got != tc.Processed {
			t.Errorf("_process_method_calls(%q) = %q, want %q", tc.Call, got, tc.Processed)
		}
	}
}

func TestSyntaxErrors(t *testing.T) {
	for _, tc := range loadCases(t).Executor.Syntax {
		_, err := parseExpr(tc.Src)
		switch {
		case tc.Error == nil && err != nil:
			t.Errorf("parse(%q): %v, want no error", tc.Src, err)
		case tc.Error != nil && (err == nil || errText(err) != *tc.Error):
			t.Errorf("parse(%q) error %v, want %q", tc.Src, err, *tc.Error)
		}
	}
}

func TestParseCall(t *testing.T) {
	for _, tc := range loadCases(t).Executor.Literals {
		c, err := ParseCall(tc.Src)
		if tc.Method == "" {
			if err == nil {
				t.Errorf("ParseCall(%q) = %+v, want an error (ast.literal_eval refuses it)", tc.Src, c)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseCall(%q): %v", tc.Src, err)
			continue
		}
		if c.Method != tc.Method {
			t.Errorf("ParseCall(%q).Method = %q, want %q", tc.Src, c.Method, tc.Method)
		}
		if g := mustMarshal(t, pyval.NewList(c.Args...)); g != tc.Args {
			t.Errorf("ParseCall(%q).Args = %s, want %s", tc.Src, g, tc.Args)
		}
		kws := pyval.NewList()
		for _, kw := range c.Kwargs {
			kws.Append(pyval.Tuple{kw.Key, kw.Value})
		}
		if g := mustMarshal(t, kws); g != tc.Kwargs {
			t.Errorf("ParseCall(%q).Kwargs = %s, want %s", tc.Src, g, tc.Kwargs)
		}
	}
	for _, src := range []string{"f(x=g())", "f(x=y)", "3", "f(x=1"} {
		if _, err := ParseCall(src); err == nil {
			t.Errorf("ParseCall(%q) took what is no call of literals", src)
		}
	}
}

func TestBind(t *testing.T) {
	noop := func(*Instance, []pyval.Value) (pyval.Value, error) { return nil, nil }
	c := &Class{Name: "TicketAPI", Methods: map[string]*Method{
		"create_ticket":    {Params: []Param{{Name: "title"}, {Name: "description", Default: "", HasDefault: true}, {Name: "priority", Default: int64(1), HasDefault: true}}, Body: noop},
		"close_ticket":     {Params: []Param{{Name: "ticket_id"}}, Body: noop},
		"get_user_tickets": {Body: noop},
		"three":            {Params: []Param{{Name: "a"}, {Name: "b"}, {Name: "c"}}, Body: noop},
		"edit":             {Params: []Param{{Name: "ticket_id"}, {Name: "updates"}}, Body: noop},
	}}
	for _, tc := range loadCases(t).Bind {
		call, err := ParseCall(tc.Method + tc.Args)
		if err != nil {
			t.Fatalf("ParseCall(%s%s): %v", tc.Method, tc.Args, err)
		}
		args, err := Bind(c, tc.Method, call)
		switch {
		case tc.Error == nil && err != nil:
			t.Errorf("%s%s: %v, want no error", tc.Method, tc.Args, err)
		case tc.Error != nil && (err == nil || errText(err) != *tc.Error):
			t.Errorf("%s%s: error %v, want %q", tc.Method, tc.Args, err, *tc.Error)
		case tc.Error == nil && len(args) != len(c.Methods[tc.Method].Params):
			t.Errorf("%s%s bound %d arguments, want %d", tc.Method, tc.Args, len(args), len(c.Methods[tc.Method].Params))
		}
	}
}

// toyClasses mirror gen.py's TOY classes, which BFCL's own executor ran;
// they share the registry with the real classes, under names none of
// those has.
func toyClasses() []*Class {
	attr := func(in *Instance, name string) pyval.Value { v, _ := in.Get(name); return v }
	alpha := &Class{Name: "Alpha",
		Init: func(in *Instance) {
			in.Set("items", pyval.NewList())
			in.Set("_hidden", int64(0))
		},
		Load: func(in *Instance, sc *pyval.Dict) error {
			in.Set("items", orDefault(sc, "items", pyval.NewList()))
			in.Set("name", orDefault(sc, "name", "alpha"))
			return nil
		},
		Methods: map[string]*Method{
			"ls": {Params: []Param{{Name: "a", Default: false, HasDefault: true}}, Body: func(in *Instance, a []pyval.Value) (pyval.Value, error) {
				return pyval.DictOf(pyval.Item{Key: "items", Value: attr(in, "items")}, pyval.Item{Key: "a", Value: a[0]}), nil
			}},
			"cd": {Params: []Param{{Name: "folder"}}, Body: func(in *Instance, a []pyval.Value) (pyval.Value, error) {
				attr(in, "items").(*pyval.List).Append(a[0])
				h, err := pyval.Add(attr(in, "_hidden"), int64(1))
				in.Set("_hidden", h)
				return nil, err
			}},
			"echo": {Params: []Param{{Name: "content"}, {Name: "file_name", HasDefault: true}}, Body: func(in *Instance, a []pyval.Value) (pyval.Value, error) {
				return pyval.Add("alpha:", a[0])
			}},
			"kill": {Body: func(*Instance, []pyval.Value) (pyval.Value, error) { return "killed", nil }},
			"boom": {Params: []Param{{Name: "x"}}, Body: func(in *Instance, a []pyval.Value) (pyval.Value, error) {
				return pyval.TrueDiv(int64(1), a[0])
			}},
			"lst": {Body: func(*Instance, []pyval.Value) (pyval.Value, error) {
				return pyval.NewList(int64(1), "a", nil, 2.5), nil
			}},
			"num": {Params: []Param{{Name: "x"}}, Body: func(in *Instance, a []pyval.Value) (pyval.Value, error) {
				return pyval.Mul(a[0], int64(2))
			}},
			"obj": {Body: func(*Instance, []pyval.Value) (pyval.Value, error) {
				return pyval.DictOf(pyval.Item{Key: "c", Value: pyval.Complex{Re: 1, Im: 2}}), nil
			}},
			"big": {Params: []Param{{Name: "n"}}, Body: func(in *Instance, a []pyval.Value) (pyval.Value, error) {
				p, err := pyval.Pow(int64(10), a[0])
				if err != nil {
					return nil, err
				}
				return pyval.DictOf(pyval.Item{Key: "result", Value: p}), nil
			}},
			"keys": {Body: func(*Instance, []pyval.Value) (pyval.Value, error) {
				return pyval.DictOf(pyval.Item{Key: int64(1), Value: "int key"}, pyval.Item{Key: 2.5, Value: "float key"}, pyval.Item{Key: nil, Value: true}), nil
			}},
		}}
	beta := &Class{Name: "Beta",
		Load: func(in *Instance, sc *pyval.Dict) error { in.Set("log", pyval.NewList()); return nil },
		Methods: map[string]*Method{
			"echo": {Params: []Param{{Name: "content"}, {Name: "file_name", HasDefault: true}}, Body: func(in *Instance, a []pyval.Value) (pyval.Value, error) {
				attr(in, "log").(*pyval.List).Append(a[0])
				return pyval.Add("beta:", a[0])
			}},
			"mv": {Params: []Param{{Name: "source"}, {Name: "destination"}}, Body: func(in *Instance, a []pyval.Value) (pyval.Value, error) {
				msg, err := pyval.Format(a[0], "")
				if err != nil {
					return nil, err
				}
				dst, err := pyval.Format(a[1], "")
				if err != nil {
					return nil, err
				}
				return pyval.DictOf(pyval.Item{Key: "result", Value: "'" + msg + "' moved to '" + dst + "'"}), nil
			}},
		}}
	gamma := &Class{Name: "Gamma", Stateless: true,
		Init: func(in *Instance) { in.Set("_d", "x") },
		Load: func(*Instance, *pyval.Dict) error { panic("a stateless class is never loaded") },
		Methods: map[string]*Method{
			"add": {Params: []Param{{Name: "a"}, {Name: "b"}}, Body: func(in *Instance, a []pyval.Value) (pyval.Value, error) {
				r, err := pyval.Add(a[0], a[1])
				if err != nil {
					return nil, err
				}
				return pyval.DictOf(pyval.Item{Key: "result", Value: r}), nil
			}},
		}}
	return []*Class{alpha, beta, gamma}
}

func orDefault(d *pyval.Dict, k string, def pyval.Value) pyval.Value {
	if v, ok := d.Get(k); ok {
		return v
	}
	return def
}

func TestExecuteMatchesBFCL(t *testing.T) {
	c := loadCases(t)
	if c.Runs == nil {
		t.Skip("cases.json was generated without BFCL's multi_turn_utils.py (../shared absent)")
	}
	for _, tc := range toyClasses() {
		Register(tc)
		name := tc.Name
		t.Cleanup(func() { delete(registry, name) })
	}
	cfg := mustValue(t, c.Runs.Initial).(*pyval.Dict)
	s, err := NewSession(cfg, c.Runs.Involved, c.Runs.Model, c.Runs.Entry)
	if err != nil {
		t.Fatal(err)
	}
	var clone *Session
	for r, run := range c.Runs.Runs {
		got := s.Execute(run.Calls)
		for i := range run.Calls {
			if got[i] != run.Results[i] {
				t.Errorf("run %d: %s = %q, want %q", r, run.Calls[i], got[i], run.Results[i])
			}
		}
		if r == 0 {
			clone = s.Clone()
		}
	}
	if len(s.Faults) > 0 {
		t.Errorf("faults: %v", s.Faults)
	}
	for i, n := range c.Runs.Involved {
		d := pyval.NewDict()
		for _, a := range s.Instances[i].Attrs {
			d.Set(a.Name, a.Value)
		}
		if g := pyval.Repr(d); g != c.Runs.State[n] {
			t.Errorf("vars(%s) = %s, want %s", n, g, c.Runs.State[n])
		}
	}
	if g := mustMarshal(t, cfg); g != c.Runs.InitialAfter {
		t.Errorf("initial_config changed by the run: %s", g)
	}
	// The clone taken after the first batch did not see the second.
	beta, _ := clone.Instance("Beta")
	log, _ := beta.Get("log")
	if n := log.(*pyval.List).Len(); n != 3 {
		t.Errorf("the clone's Beta.log has %d entries, want 3 (its own history)", n)
	}
	snap := s.Snapshot()
	if len(snap) != 3 || len(snap[0].Attrs) != 2 || snap[0].Attrs[0].Name != "items" || snap[0].Attrs[1].Name != "name" || len(snap[2].Attrs) != 0 {
		t.Errorf("Snapshot = %+v, want public attributes only", snap)
	}
}

func mustValue(t *testing.T, tagged string) pyval.Value {
	t.Helper()
	v, err := pyval.Unmarshal([]byte(tagged))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestLexPlainCall: lexing a call whose string literals hold no escape
// allocates its token list and each literal's value as a Python value,
// no copy of a literal's text and no string of an operator.
func TestLexPlainCall(t *testing.T) {
	src := `inst.mv(source='final_report.pdf', destination="temp", n=3)`
	toks, err := lex(src)
	if err != nil {
		t.Fatal(err)
	}
	if got := toks[6].val; got != "final_report.pdf" {
		t.Fatalf("the first literal lexes as %v", got)
	}
	// The token list, and the two literals' values boxed.
	if n := testing.AllocsPerRun(100, func() { _, _ = lex(src) }); n > 3 && !raceEnabled {
		t.Errorf("lex allocates %v times, want 3", n)
	}
}

// TestSharedAttrCopiedOnFirstRead: a call gets a shared attribute's deep
// copy where it first reads it and changes only that copy; an attribute
// it never reads stays shared, the value itself.
func TestSharedAttrCopiedOnFirstRead(t *testing.T) {
	s, err := NewSession(nil, []string{"TicketAPI"}, "m", "e")
	if err != nil {
		t.Fatal(err)
	}
	in := s.Instances[0]
	shared := map[string]pyval.Value{}
	for i := range in.Attrs {
		shared[in.Attrs[i].Name] = in.Attrs[i].Value
		in.Attrs[i].Shared = true
	}
	for _, r := range s.Execute([]string{"ticket_login(username='u', password='p')", "create_ticket(title='t')"}) {
		if strings.HasPrefix(r, "Error") || strings.Contains(r, "error") {
			t.Fatal(r)
		}
	}
	if got := pyval.Repr(shared["ticket_queue"]); got != "[]" {
		t.Errorf("the shared ticket_queue became %s", got)
	}
	q, _ := in.Get("ticket_queue")
	if l, ok := q.(*pyval.List); !ok || len(l.Items) != 1 {
		t.Errorf("the instance's ticket_queue is %s, want the ticket created", pyval.Repr(q))
	}
	for _, a := range in.Attrs {
		if a.Name == "_api_description" && (!a.Shared || a.Value != shared[a.Name]) {
			t.Errorf("%s, which no call read, was copied", a.Name)
		}
	}
}

// TestInstanceName: BFCL's re.sub(r"[-./]", "_", name), byte for byte,
// whatever the model's name and the entry's id hold.
func TestInstanceName(t *testing.T) {
	re := regexp.MustCompile(`[-./]`)
	for _, c := range []struct{ model, entry, class string }{
		{"parthack", "multi_turn_base_0", "GorillaFileSystem"},
		{"gpt-4o-2024-08-06_eval", "multi_turn_miss_param_17", "TwitterAPI"},
		{"meta-llama/Llama-3.1-8B", "a.b/c-d", "MathAPI"},
		{"é-ü.日本/x", "\xff-\xfe.", "TicketAPI"},
		{"", "", ""},
	} {
		want := re.ReplaceAllString(c.model+"_"+c.entry+"_"+c.class+"_instance", "_")
		if got := InstanceName(c.model, c.entry, c.class); got != want {
			t.Errorf("InstanceName(%q, %q, %q) = %q, want %q", c.model, c.entry, c.class, got, want)
		}
	}
}

// TestLexerKept: a lexer kept from one text (parseExpr's) reads the next
// as a new one does, whatever the first left in it (brackets open, lines
// counted, an error).
func TestLexerKept(t *testing.T) {
	texts := []string{"mv(source='a', destination=['b', {'c': (1,)}])", "ls(a=True", "f(x='''\n\n''', y=1)", "f(", "'unclosed",
		"cd(folder='x')", "f(0x1F, 1_000, 1j, .5)", "a.b.c(1)(2)[3]", ""}
	kept := new(lexer)
	for _, first := range texts {
		for _, next := range texts {
			kept.lex(first)
			got, gerr := kept.lex(next)
			want, werr := lex(next)
			if fmt.Sprint(gerr) != fmt.Sprint(werr) || !reflect.DeepEqual(got, want) {
				t.Fatalf("after %q, %q lexes to %v, %v; anew %v, %v", first, next, got, gerr, want, werr)
			}
		}
	}
}

// TestWordRunes: the ASCII table of letters, digits and "_" answers as
// Python's identifier and \w classes do (unicode's tables), for every
// rune up to U+00FF.
func TestWordRunes(t *testing.T) {
	for r := rune(0); r < 0x100; r++ {
		ident := r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.In(r, unicode.Mn, unicode.Mc, unicode.Pc)
		word := r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r)
		if isIdentChar(r) != ident || isWordRune(r) != word {
			t.Errorf("%U: identifier %v, \\w %v; want %v, %v", r, isIdentChar(r), isWordRune(r), ident, word)
		}
	}
}
