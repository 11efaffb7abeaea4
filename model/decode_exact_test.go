package model

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
)

// exactDecode is the slow, exact path every fast result is held to: the
// tokenizer's whole tree, then decodeTrajectory on it.
func exactDecode(file string, src []byte) (*Trajectory, error) {
	if err := checkBOM(file, src); err != nil {
		return nil, err
	}
	d, err := parseTokens(file, src)
	if err != nil {
		return nil, err
	}
	return decodeTrajectory(d, nil)
}

// checkFastMatchesExact fails unless DecodeTrajectory, and
// StreamTrajectory at several batch sizes, give for src exactly what the
// exact path gives: the same trajectory, or the same error message.
func checkFastMatchesExact(t *testing.T, name string, src []byte) {
	t.Helper()
	want, werr := exactDecode("x.json", src)
	got, gerr := DecodeTrajectory("x.json", src)
	if fmt.Sprint(werr) != fmt.Sprint(gerr) {
		t.Fatalf("%s: DecodeTrajectory error %v, exact error %v", name, gerr, werr)
	}
	if werr == nil && !reflect.DeepEqual(want, got) {
		t.Fatalf("%s: DecodeTrajectory and the exact path differ:\n%+v\n%+v", name, got, want)
	}
	for _, batch := range []int{1, 1000} {
		checkStream(t, fmt.Sprintf("%s, batch %d", name, batch), src, batch, want, werr)
	}
}

// checkStream holds StreamTrajectory to the exact path's result: batches
// of 1 to batch steps that are never the same array, which together are
// want's steps (before an error, a prefix of them).
func checkStream(t *testing.T, name string, src []byte, batch int, want *Trajectory, werr error) {
	t.Helper()
	var steps []Step
	var arrays []*Step
	tr, n, err := StreamTrajectory("x.json", src, batch, func(b []Step) {
		if len(b) == 0 || len(b) > batch {
			t.Fatalf("%s: a batch of %d steps", name, len(b))
		}
		for _, a := range arrays {
			if a == &b[0] {
				t.Fatalf("%s: a batch shares its array with an earlier one", name)
			}
		}
		arrays = append(arrays, &b[0])
		steps = append(steps, b...)
	})
	if fmt.Sprint(werr) != fmt.Sprint(err) {
		t.Fatalf("%s: StreamTrajectory error %v, exact error %v", name, err, werr)
	}
	if werr != nil {
		if tr != nil || n != 0 {
			t.Fatalf("%s: an error with a trajectory or a count", name)
		}
		return
	}
	if tr.Steps != nil || n != len(want.Steps) || len(steps) != n {
		t.Fatalf("%s: %d steps handed on, n = %d, Steps %v; want %d", name, len(steps), n, tr.Steps, len(want.Steps))
	}
	if len(steps) > 0 && !reflect.DeepEqual(steps, want.Steps) {
		t.Fatalf("%s: streamed steps differ:\n%+v\n%+v", name, steps, want.Steps)
	}
	rest := *want
	rest.Steps = nil
	if !reflect.DeepEqual(*tr, rest) {
		t.Fatalf("%s: streamed trajectory differs:\n%+v\n%+v", name, *tr, rest)
	}
}

// exactBase exercises the fast step path and every way out of it: keys
// in any order, blank and non-blank strings, every scalar, calls, claims,
// goals, escapes, lists, non-integral and huge numbers, empty fields,
// multi-line steps, a transcript.
const exactBase = `{"format": "parthack.trajectory/1", "task": "EX-01", "name": "n", "steps": [
  {"op": "update", "type": "ticket", "id": "T1", "fields": {"status": "open", "priority": 3, "flag": true, "off": false, "x": null, "neg": -12}},
  {"fields": {"a": "b"}, "id": "T2", "comment": "é ok", "actor": "agent", "step": 2, "type": "ticket", "op": "create"},
  {"op": "delete", "type": "ticket", "id": "T3", "fields": {}, "comment": ""},
  {"op": "update", "type": "ticket", "id": "T1", "fields": {"tags": ["a", "b"], "n": 1.5, "big": 123456789012345678901}},
  {"op": "update", "type": "t\u0069cket", "id": "T1", "fields": {"s": "a\"b"}},
  {"op": "call", "tool": "book", "args": {"a": [1, 2.5], "b": {"c": "d"}}, "step": 6, "actor": "agent"},
  {"op": "revise_goal", "goal": "v2"},
  {"op": "update", "type": "ticket", "id": "T1", "claim": {"ok": true, "diff": [{"field": "status", "before": null, "after": "open"}]}},
  {"op": "update", "type": "ticket", "id": "T1", "fields": {"n": 0, "m": -0, "k": 999999999999999999}}, {"op": "restore",
   "type": "ticket",
   "id": "T4"}
], "transcript": [{"role": "user", "content": "hi", "step": 1}, {"role": "assistant", "content": "ok", "step": 10}]}`

// exactInputs are documents for the differential tests: the base,
// hand-written cases, every trajectory-like file of the repository and,
// when mutate, every single-byte replacement of the base by a byte that
// breaks or changes something, and every cut of it.
func exactInputs(t *testing.T, mutate bool) map[string][]byte {
	inputs := map[string][]byte{"base": []byte(exactBase)}
	for i := range len(exactBase) {
		if !mutate {
			break
		}
		for _, c := range []byte{'x', '"', '}', ',', '1', '\\', 0xff} {
			b := []byte(exactBase)
			b[i] = c
			inputs[fmt.Sprintf("base[%d]=%q", i, c)] = b
		}
		inputs[fmt.Sprintf("base[:%d]", i)] = []byte(exactBase[:i])
	}
	for i, s := range exactCases {
		inputs[fmt.Sprintf("case %d", i)] = []byte(s)
	}
	for _, pat := range []string{"../testdata/example/*.json", "../testdata/fuzz/FuzzDecodeTrajectory/*", "../testdata/fuzz/FuzzReplay/*", "../testdata/certifier/*/*.json", "../tasks/*/*/*.json"} {
		files, _ := filepath.Glob(pat)
		for _, f := range files {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			inputs[f] = src
		}
	}
	return inputs
}

// exactCases break one thing each, mostly where the fast paths decide.
var exactCases = []string{
	``, ` `, `{`, `{}`, `[]`, `null`, `{"task": "EX-01", "steps": []}`, `{"task": "EX-01", "steps": []} x`,
	`{"task": "EX-01", "steps": [], "steps": []}`,
	`{"task": "EX-01", "steps": [{"op": "update", "type": "t", "id": "1"}]}` + " \n\t\r",
	`{"task": "EX-01", "steps": [{"op": "update", "type": "t", "id": "1"}]}` + "\f",
	`{"task": "EX-01", "steps": [{"op": "update", "type": "t", "id": "1"} {"op": "update", "type": "t", "id": "2"}]}`,
	`{"task": "EX-01", "steps": [{"op": "update", "type": "t", "id": "1"},]}`,
	`{"task": "EX-01", "steps": [,{"op": "update", "type": "t", "id": "1"}]}`,
	`{"task": "EX-01", "steps": [{"op": "update" "type": "t", "id": "1"}]}`,
	`{"task": "EX-01", "steps": [{"op": "update", "type": "t", "id": "1",}]}`,
	`{"task": "EX-01", "steps": [{"op" "update", "type": "t", "id": "1"}]}`,
	`{"task": "EX-01", "steps": [{"op": "update", "op": "update", "type": "t", "id": "1"}]}`,
	`{"task": "EX-01", "steps": [{"op": "update", "type": "t", "id": "1", "fields": {"a": 1, "a": 2}}]}`,
	`{"task": "EX-01", "steps": [{"op": " ", "type": "t", "id": "1"}]}`,
	`{"task": "EX-01", "steps": [{"op": "update", "type": "\u00a0", "id": "1"}]}`,
	`{"task": "EX-01", "steps": [{"op": "update", "type": "` + "\u00a0" + `", "id": "1"}]}`,
	`{"task": "EX-01", "steps": [{"op": "update", "type": "t", "id": "1", "actor": ""}]}`,
	`{"task": "EX-01", "steps": [{"op": "update", "type": "t", "id": "1", "step": 0}]}`,
	`{"task": "EX-01", "steps": [{"op": "update", "type": "t", "id": "1", "step": -1}]}`,
	`{"task": "EX-01", "steps": [{"op": "update", "type": "t", "id": "1", "step": 1.0}]}`,
	`{"task": "EX-01", "steps": [{"op": "update", "type": "t", "id": "1", "step": 1e3}]}`,
	`{"task": "EX-01", "steps": [{"op": "update", "type": "t", "id": "1", "step": 01}]}`,
	`{"task": "EX-01", "steps": [{"op": "update", "type": "t", "id": "1", "step": 9223372036854775807}]}`,
	`{"task": "EX-01", "steps": [{"op": "update", "type": "t", "id": "1", "step": 9223372036854775808}]}`,
	`{"task": "EX-01", "steps": [{"op": "update", "type": "t", "id": "1", "fields": {"a": -}}]}`,
	`{"task": "EX-01", "steps": [{"op": "update", "type": "t", "id": "1", "fields": {"a": 1.}}]}`,
	`{"task": "EX-01", "steps": [{"op": "update", "type": "t", "id": "1", "fields": {"a": .5}}]}`,
	`{"task": "EX-01", "steps": [{"op": "update", "type": "t", "id": "1", "fields": {"a": 1e}}]}`,
	`{"task": "EX-01", "steps": [{"op": "update", "type": "t", "id": "1", "fields": {"a": 1E+}}]}`,
	`{"task": "EX-01", "steps": [{"op": "update", "type": "t", "id": "1", "fields": {"a": 1E+2}}]}`,
	`{"task": "EX-01", "steps": [{"op": "update", "type": "t", "id": "1", "fields": {"a": tru}}]}`,
	`{"task": "EX-01", "steps": [{"op": "update", "type": "t", "id": "1", "fields": {"a": nulls}}]}`,
	`{"task": "EX-01", "steps": [{"op": "update", "type": "t", "id": "1", "fields": {"a": {}}}]}`,
	`{"task": "EX-01", "steps": [{"op": "update", "type": "t", "id": "1", "fields": []}]}`,
	`{"task": "EX-01", "steps": [{"op": "update", "type": "t", "id": "1", "fields": null}]}`,
	`{"task": "EX-01", "steps": [{"op": "update", "type": "t", "id": "1", "fields": {"a": "x` + "\t" + `"}}]}`,
	`{"task": "EX-01", "steps": [{"op": "update", "type": "t", "id": "1", "fields": {"a": "x\q"}}]}`,
	`{"task": "EX-01", "steps": [{"op": "update", "type": "t", "id": "1", "fields": {"a": "x\u12"}}]}`,
	`{"task": "EX-01", "steps": [{"op": "update", "type": "t", "id": "1", "fields": {"a": "\ud800"}}]}`,
	`{"task": "EX-01", "steps": [{"op": "update", "type": "t", "id": "1", "fields": {"a": "` + "\xc3" + `"}}]}`,
	`{"task": "EX-01", "steps": [{"op": "update", "type": "t", "id": "1", "fields": {"a": "` + "\xe2\x82" + `"}}]}`,
	`{"task": "EX-01", "steps": [{"op": "update", "type": "t", "id": "1", "comment": "` + "\xff" + `"}]}`,
	`{"task": "EX-01", "steps": [{"op": "update", "type": "t", "id": "1", "bogus": 1}, {"op": 3}]}`,
	`{"task": "EX-01", "steps": [{"op": "update", "type": "t", "id": "1", "bogus": 1}, {"op": "update", "type": "t", "id": "2"}]}`,
	`{"task": "EX-01", "steps": [{"op": "update", "type": "t"}, {"op": "update", "type": "t", "id": "2"}]} x`,
	`{"task": "EX-01", "steps": [{"op": "update", "type": "t", "id": "1"}, {"op": "update", "type": "t", "id": "2", "step": 0}, {"op": "update", "type": "t", "id": "3"}]}`,
	`{"task": "EX-01", "steps": [{"op": "call", "type": "t", "id": "1"}]}`,
	`{"task": "EX-01", "steps": [{"op": "revise_goal", "type": "t", "id": "1"}]}`,
	`{"task": "EX-01", "steps": [{"op": "update", "id": "1"}]}`,
	`{"task": "EX-01", "steps": [{}]}`,
	`{"task": "EX-01", "steps": [1]}`,
	`{"task": "EX-01", "steps": {"op": "update"}}`,
	`{"task": "", "steps": [{"op": "update", "type": "t", "id": "1"}]}`,
	`{"task": "EX-01", "steps": [{"op": "update", "type": "t", "id": "1"}], "transcript": [{"role": "user", "content": "", "step": 2}]}`,
	`{"task": "EX-01", "steps": [{"op": "update", "type": "t", "id": "1"}], "bogus": [}`,
	`{"steps": [{"op": "update", "type": "t", "id": "1"}], "task": "EX-01", "steps": 1}`,
	`[{"task": "EX-01", "steps": [{"op": "update", "type": "t", "id": "1"}]}]`,
	`{"x": {"steps": [{"op": 1}]}, "task": "EX-01", "steps": []}`,
	"\xef\xbb\xbf{}", "\xff\xfe{}",
	`{"task": "EX-01", "steps": [` + deep(maxDepth) + `]}`,
	`{"task": "EX-01", "steps": [` + deep(maxDepth-1) + `]}`,
}

// deep is an array nested n levels deep.
func deep(n int) string {
	b := make([]byte, 0, 2*n)
	for range n {
		b = append(b, '[')
	}
	for range n {
		b = append(b, ']')
	}
	return string(b)
}

// TestFastDecodeMatchesExact: whatever is wrong and wherever, the fast
// decoder (the strict fast parser, the fast step path and their fallbacks)
// gives the exact path's trajectory or error message.
func TestFastDecodeMatchesExact(t *testing.T) {
	for name, src := range exactInputs(t, !testing.Short()) {
		checkFastMatchesExact(t, name, src)
	}
}

// FuzzFastDecodeMatchesExact is TestFastDecodeMatchesExact on any bytes.
func FuzzFastDecodeMatchesExact(f *testing.F) {
	for _, src := range exactInputs(&testing.T{}, false) {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		checkFastMatchesExact(t, "fuzz", src)
	})
}

// TestFastStepTakesCommonSteps: the fast step path decodes the common
// shapes itself, exactly as decodeStep does, and leaves the others to it.
func TestFastStepTakesCommonSteps(t *testing.T) {
	fast := []string{
		`{"op": "update", "type": "ticket", "id": "T1", "fields": {"status": "open"}}`,
		`{"op":"update","type":"ticket","id":"T1","fields":{"a":1,"b":-2,"c":true,"d":false,"e":null,"f":"é"}}`,
		`{ "comment" : "" , "step" : 7 , "actor" : "user" , "id" : "x" , "type" : "y" , "op" : "create" , "fields" : { } }`,
		"{\n\"op\": \"delete\",\n\"type\": \"t\", \"id\": \"1\"\n}",
	}
	general := []string{
		`{"op": "call", "tool": "t", "args": {}}`,
		`{"op": "update", "type": "t", "id": "1", "claim": {"ok": true}}`,
		`{"op": "update", "type": "t", "id": "1", "fields": {"a": ["x"]}}`,
		`{"op": "update", "type": "t", "id": "1", "fields": {"a": 1.0}}`,
		`{"op": "update", "type": "t\n", "id": "1"}`,
		`{"op": "update", "type": "t", "id": "1", "comment": "\u0041"}`,
		`{"op": "update", "type": "t", "id": " "}`,
		`{"op": "update", "type": "t"}`,
		`{"op": "update", "type": "t", "id": "1", "step": 0}`,
		`{}`,
	}
	for _, s := range append(fast, general...) {
		src := []byte(s)
		f := &fastParser{d: &doc{src: src}, intern: map[string]string{}, recent: new([256]string)}
		var st Step
		end, ok := f.fastStep(&st, 0)
		if want := slices.Contains(fast, s); ok != want {
			t.Errorf("%s: fast path taken %v, want %v", s, ok, want)
			continue
		}
		if !ok {
			continue
		}
		d, err := parseTokens("x.json", src)
		if err != nil {
			t.Fatal(err)
		}
		want, err := decodeStep(d.cur(), 0)
		if err != nil {
			t.Fatal(err)
		}
		st.Line = want.Line
		if end != len(src) || !reflect.DeepEqual(st, want) {
			t.Errorf("%s: fast step %+v (ends at %d), decodeStep %+v", s, st, end, want)
		}
	}
}

// FuzzFastParserIsStrict: the fast parser accepts exactly what the
// tokenizer accepts (valid JSON without duplicate keys, repaired strings
// or deep nesting) and builds the same tree from it.
func FuzzFastParserIsStrict(f *testing.F) {
	for _, src := range exactInputs(&testing.T{}, false) {
		f.Add(src)
	}
	f.Add([]byte(`[1, -0, 0.5e+3, 1E2, "a\u00e9\n", true, false, null, {"a": {}, "b": []}]`))
	f.Fuzz(func(t *testing.T, src []byte) {
		d := &doc{src: src}
		ok := (&fastParser{d: d}).document()
		slow, err := parseTokens("f.json", src)
		if ok != (err == nil) {
			t.Fatalf("fast parser accepts: %v; tokenizer error: %v", ok, err)
		}
		if ok && (!json.Valid(src) || !reflect.DeepEqual(d.root, slow.root)) {
			t.Fatalf("fast parser accepts what json.Valid refuses or builds another tree")
		}
	})
}
