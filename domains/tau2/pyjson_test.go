package tau2

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"reflect"
	"strings"
	"testing"

	"github.com/parthack/parthack/model"
)

// pyCases are values with the text Python's json.dumps gives them
// (sort_keys=True), checked by hand against Python 3.11.
var pyCases = []struct {
	json, want string
}{
	{`{"b": [1, 2.5, null, true], "a": "x"}`, `{"a": "x", "b": [1, 2.5, null, true]}`},
	{`[100.0, 1e16, 1e-05, 0.1, 123456789.125, -0.0, 1.5e300]`, `[100.0, 1e+16, 1e-05, 0.1, 123456789.125, -0.0, 1.5e+300]`},
	{`"caf\u00e9 \ud83d\ude00 \"q\" \\ \n\t\u0001\u007f/"`, `"caf\u00e9 \ud83d\ude00 \"q\" \\ \n\t\u0001\u007f/"`},
	{`{"é": 1, "z": 2, "A": 3}`, `{"A": 3, "z": 2, "\u00e9": 1}`},
	{`{}`, `{}`},
}

func TestDumps(t *testing.T) {
	for _, c := range pyCases {
		x, err := ParsePy([]byte(c.json))
		if err != nil {
			t.Fatal(err)
		}
		if got := Dumps(x, true); got != c.want {
			t.Errorf("dumps(%s) = %s, want %s", c.json, got, c.want)
		}
	}
}

// TestDumpsAgainstPython holds Dumps to Python's own json.dumps, when
// python3 is installed.
func TestDumpsAgainstPython(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed")
	}
	var inputs []string
	for _, c := range pyCases {
		inputs = append(inputs, c.json)
	}
	inputs = append(inputs, `[0.30000000000000004, 2.675, 1234.5678, 5e-324, 9007199254740993, "\u2028\u00a0", {"k": {"j": [1.0, "x"]}}]`)
	src, _ := json.Marshal(inputs)
	cmd := exec.Command(py, "-c", `import json,sys
for s in json.load(sys.stdin): print(json.dumps(json.loads(s), sort_keys=True))`)
	cmd.Stdin = strings.NewReader(string(src))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python3: %v", err)
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	for i, in := range inputs {
		x, err := ParsePy([]byte(in))
		if err != nil {
			t.Fatal(err)
		}
		if got := Dumps(x, true); got != lines[i] {
			t.Errorf("dumps(%s) = %s, Python %s", in, got, lines[i])
		}
	}
}

func TestPyEqual(t *testing.T) {
	for _, c := range []struct {
		a, b string
		eq   bool
	}{
		{`{"n": 1, "s": "x"}`, `{"s": "x", "n": 1.0}`, true},
		{`[true]`, `[1]`, true},
		{`{"n": 1}`, `{"n": "1"}`, false},
		{`{"n": 1}`, `{"n": 1, "m": 2}`, false},
		{`[1, 2]`, `[2, 1]`, false},
	} {
		a, _ := ParsePy([]byte(c.a))
		b, _ := ParsePy([]byte(c.b))
		if PyEqual(a, b) != c.eq {
			t.Errorf("%s == %s: want %t", c.a, c.b, c.eq)
		}
	}
}

// TestParsePyOnePass: the one-pass reading gives the tokenizer's values
// (parsePyTokens) on every shape, and leaves to it, with its error, what
// it repairs or refuses; the shipped retail database reads the same both
// ways.
func TestParsePyOnePass(t *testing.T) {
	db, err := Data("retail/db.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	inputs := []string{
		`{"b": [1, 2.5, null, true, false], "a": "x", "c": {}, "d": []}`, ` [ -0, 0, -1, 12e3, 1E-2, 1.0, 9223372036854775807, 9223372036854775808, -9223372036854775809 ] `,
		`"caf\u00e9 \ud83d\ude00 \"q\" \\ \/ \b\f\n\r\t \u0000 \u00E9 é 😀 \uFFFD"`, `"lone \ud83d surrogate"`, `"lone \ude00 low"`, `"\ud83d\u0041"`,
		"\"bad \xff byte\"", "\"bad \xff byte \\n escaped\"", `{"k": 1, "k": 2}`, `{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10,"k":11,"l":12,"m":13,"n":14,"o":15,"p":16,"q":17,"a":18}`,
		``, ` `, `1 2`, `[1,]`, `{"a" 1}`, `{"a":1,}`, `01`, `1.`, `.5`, `-`, `1e`, `1e+`, `tru`, `nul`, `"open`, "\"tab\there\"", `"\x"`, `"\u12"`,
		`[1e999]`, `{"a": [}`, `[` + strings.Repeat(`[`, 600) + strings.Repeat(`]`, 601), string(db),
	}
	// The common shape is read in one pass.
	for _, in := range append(inputs[:3:3], string(db)) {
		p := pyParser{src: []byte(in)}
		if _, ok := p.value(0); !ok {
			t.Errorf("%.60q is left to the tokenizer", in)
		}
	}
	for _, in := range inputs {
		want, werr := parsePyTokens([]byte(in))
		got, gerr := ParsePy([]byte(in))
		name := in
		if len(name) > 60 {
			name = name[:60] + "…"
		}
		if fmt.Sprint(gerr) != fmt.Sprint(werr) || !reflect.DeepEqual(got, want) {
			t.Errorf("ParsePy(%q) = %v, %v; the tokenizer gives %v, %v", name, got, gerr, want, werr)
		}
	}
}

// TestModelValue: a Python value's field value is what model.FromJSON
// gives of its json.dumps, of every kind, the shipped retail database's
// records included.
func TestModelValue(t *testing.T) {
	db, err := Data("retail/db.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	whole, err := ParsePy(db)
	if err != nil {
		t.Fatal(err)
	}
	xs := []any{nil, true, "é\"\n", int64(-3), 2.5, 1e16, []any{}, []any{"a", "b"}, []any{"a", int64(1)}, Obj{},
		Obj{{"z", 1.0}, {"a", []any{Obj{{"k", nil}}}}, {"é", "\u2028"}}, []string{"x"}, []any{[]any{}}}
	for _, coll := range whole.(Obj) {
		for _, rec := range coll.Value.(Obj) {
			xs = append(xs, rec.Value)
			for _, m := range rec.Value.(Obj) {
				xs = append(xs, m.Value)
			}
		}
	}
	for _, x := range xs {
		got, want := ModelValue(x), model.MustJSON(Dumps(x, false))
		if got.Kind() != want.Kind() || !got.Equal(want) || string(got.AppendJSON(nil)) != string(want.AppendJSON(nil)) {
			t.Fatalf("ModelValue(%.80s) = %s (kind %d), FromJSON of its dumps %s (kind %d)", Dumps(x, false), got.AppendJSON(nil), got.Kind(), want.AppendJSON(nil), want.Kind())
		}
	}
}

// TestMustPyReadsOnce: a JSON value's text is parsed once; every read
// gets a value of its own, which its reader may change without changing
// what the next read gets.
func TestMustPyReadsOnce(t *testing.T) {
	v := model.MustJSON(`{"items": [{"price": 1.5, "options": {"size": "XL"}}], "n": 3}`)
	first := MustPy(v).(Obj)
	if _, ok := pyCache.Load(v.AsString()); !ok {
		t.Fatal("the text is not kept after its first read")
	}
	first = first.Set("n", int64(4))
	items, _ := first.Get("items")
	items.([]any)[0].(Obj).Set("price", 9.0)
	items.([]any)[0] = "changed"
	again := MustPy(v)
	if want, _ := ParsePy([]byte(v.AsString())); !reflect.DeepEqual(again, want) {
		t.Errorf("read again after the first read was changed: %s, want %s", Dumps(again, false), Dumps(want, false))
	}
}
