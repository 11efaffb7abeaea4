package model

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"
)

// TestStreamJSONArray: a list read element by element is parsed as
// strictly as a whole file, its errors at the file's line and column
// with the element's path; good elements arrive in order.
func TestStreamJSONArray(t *testing.T) {
	cases := []struct {
		name, src string
		n         int    // elements handed on before the error
		err       string // "" when the file is good
	}{
		{"good", "[\n {\"a\": 1},\n [2, \"x\"],\n 3, \"s\", null\n]\n", 5, ""},
		{"empty", "[ ]", 0, ""},
		{"not an array", "{\"a\": 1}", 0, "f.json:1:1: $: expected an array, got an object"},
		{"empty file", "", 0, "f.json:1:1: $: malformed JSON: unexpected end of input"},
		{"bom", "\xef\xbb\xbf[]", 0, "f.json:1:1: $: the file starts with a UTF-8 byte order mark"},
		{"duplicate key on line 3", "[\n {},\n   {\"a\": 1, \"a\": 2}]", 1, "f.json:3:13: $[1].a: duplicate key \"a\""},
		{"invalid UTF-8", "[{}, {\"k\": \"\xff\"}]", 1, "f.json:1:13: $[1].k: invalid UTF-8: byte 0xFF"},
		{"truncated", "[{}, {\"k\": [1, 2", 1, "f.json:1:17: $[1]: malformed JSON: unexpected end of input"},
		{"mismatched bracket", "[{\"k\": [1}]", 0, "f.json:1:10: $[0].k: malformed JSON: invalid character '}' after array element"},
		{"trailing comma", "[1,]", 1, "f.json:1:4: $[1]: malformed JSON: invalid character ']'"},
		{"missing comma", "[1 2]", 1, "f.json:1:4: $[0]: malformed JSON: expected ',' or ']' after element 0, got '2'"},
		{"data after", "[1] x", 1, "f.json:1:5: $: malformed JSON: unexpected data after the top-level value: 'x'"},
		{"too deep", "[" + strings.Repeat("[", 300), 0, "nesting deeper than 200"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n := 0
			err := StreamJSONArray("f.json", strings.NewReader(c.src), nil, func(i int, v JSON) error {
				if i != n {
					t.Errorf("element %d handed on as %d", n, i)
				}
				n++
				return nil
			})
			if n != c.n {
				t.Errorf("%d elements handed on, want %d", n, c.n)
			}
			switch {
			case c.err == "" && err != nil:
				t.Errorf("error %v", err)
			case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
				t.Errorf("error %v, want it to contain %q", err, c.err)
			}
		})
	}
}

// TestStreamJSONObject: an object read member by member, its streamed
// arrays element by element, is parsed as strictly as a whole file, its
// errors at the file's line and column with the member's path.
func TestStreamJSONObject(t *testing.T) {
	cases := []struct {
		name, src string
		got       string // the members and elements handed on, in order
		err       string // "" when the file is good
	}{
		{"good", "{\"info\": {\"a\": 1},\n \"runs\": [{\"k\": 1}, 2],\n \"n\": 3, \"s\": \"x\", \"z\": null}\n", "info runs runs[0] runs[1] n s z ", ""},
		{"an array not streamed", "{\"list\": [1, 2]}", "list ", ""},
		{"a streamed key not an array", "{\"runs\": 7}", "runs ", ""},
		{"empty", "{ }", "", ""},
		{"escaped key", "{\"r\\u0075ns\": [1]}", "runs runs[0] ", ""},
		{"not an object", "[1]", "", "f.json:1:1: $: expected an object, got an array"},
		{"bom", "\xef\xbb\xbf{}", "", "f.json:1:1: $: the file starts with a UTF-8 byte order mark"},
		{"duplicate key", "{\"a\": 1,\n \"a\": 2}", "a ", "f.json:2:2: $.a: duplicate key \"a\""},
		{"invalid UTF-8 in a run", "{\"runs\": [{}, {\"k\": \"\xff\"}]}", "runs runs[0] ", "f.json:1:22: $.runs[1].k: invalid UTF-8: byte 0xFF"},
		{"truncated in a run", "{\"runs\": [{}, {\"k\": [1, 2", "runs runs[0] ", "$.runs[1]: malformed JSON: unexpected end of input"},
		{"truncated after a member", "{\"a\": 1", "a ", "$.a: malformed JSON: unexpected end of input: the object is not closed"},
		{"missing colon", "{\"a\" 1}", "", "$.a: malformed JSON: expected ':' after key \"a\", got '1'"},
		{"missing comma", "{\"a\": 1 \"b\": 2}", "a ", "$.a: malformed JSON: expected ',' or '}' after member \"a\""},
		{"data after", "{} x", "", "$: malformed JSON: unexpected data after the top-level value: 'x'"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got strings.Builder
			err := StreamJSONObject("f.json", strings.NewReader(c.src), []string{"runs"},
				func(key string, v JSON) error {
					if key == "runs" && v.Kind() == "array" {
						got.WriteString(key + " ")
						return nil // a streamed array's elements follow
					}
					if _, err := ParseJSON("raw", v.Raw()); err != nil {
						t.Errorf("member %s: its text %q does not parse: %v", key, v.Raw(), err)
					}
					got.WriteString(key + " ")
					return nil
				},
				func(key string, i int, v JSON) error {
					fmt.Fprintf(&got, "%s[%d] ", key, i)
					return nil
				})
			if got.String() != c.got {
				t.Errorf("handed on %q, want %q", got.String(), c.got)
			}
			switch {
			case c.err == "" && err != nil:
				t.Errorf("error %v", err)
			case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
				t.Errorf("error %v, want it to contain %q", err, c.err)
			}
		})
	}
}

// TestJSONReads: the typed reads of the strict cursor fail at the value.
func TestJSONReads(t *testing.T) {
	v, err := ParseJSON("f.json", []byte("{\n  \"n\": 1.5,\n  \"s\": 2\n}"))
	if err != nil {
		t.Fatal(err)
	}
	o, err := v.Object("n", "s")
	if err != nil {
		t.Fatal(err)
	}
	n, _ := o.Need("n")
	if f, err := n.Float(); err != nil || f != 1.5 {
		t.Errorf("Float: %v %v", f, err)
	}
	if _, err := n.Int(); err == nil || err.Error() != "f.json:2:8: $.n: expected an integer, got 1.5" {
		t.Errorf("Int: %v", err)
	}
	s, _ := o.Need("s")
	if _, err := s.Str(); err == nil || err.Error() != "f.json:3:8: $.s: expected string, got number 2" {
		t.Errorf("Str: %v", err)
	}
	if _, err := o.Need("x"); err == nil || !strings.Contains(err.Error(), `missing required field "x"`) {
		t.Errorf("Need: %v", err)
	}
	if _, err := v.Object("n"); err == nil || !strings.Contains(err.Error(), `$.s: unknown field "s"`) {
		t.Errorf("Object: %v", err)
	}
}

// failingReader gives src, then err instead of the end of input, as a
// gzip stream whose checksum fails gives its error only at its end.
type failingReader struct {
	src string
	err error
}

func (r *failingReader) Read(p []byte) (int, error) {
	if r.src == "" {
		return 0, r.err
	}
	n := copy(p, r.src)
	r.src = r.src[n:]
	return n, nil
}

// TestStreamReadError: an error reading the input, wherever it comes
// (after the whole value, between values, inside one), is the error,
// located, never taken for the input's end: a whole file whose checksum
// fails at its end is refused, and a truncated one is not called empty.
func TestStreamReadError(t *testing.T) {
	bad := errors.New("corrupt gzip: crc error")
	for _, c := range []struct {
		name, src string
		object    bool
		err       string
	}{
		{"array: after the value", "[1, 2]\n", false, "f.json:2:1: $: corrupt gzip: crc error"},
		{"array: before any", "", false, "f.json:1:1: $: corrupt gzip"},
		{"array: between elements", "[1, ", false, "f.json:1:5: $[1]: corrupt gzip"},
		{"array: inside an element", "[1, {\"a\"", false, "$[1]: corrupt gzip"},
		{"object: after the value", "{\"runs\": [1]}", true, "f.json:1:14: $: corrupt gzip"},
		{"object: before a key", "{\"a\": 1, ", true, "$: corrupt gzip"},
		{"object: after a key", "{\"a\"", true, "$.a: corrupt gzip"},
		{"object: inside a run", "{\"runs\": [1, ", true, "$.runs[1]: corrupt gzip"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := &failingReader{c.src, bad}
			var err error
			if c.object {
				err = StreamJSONObject("f.json", r, []string{"runs"}, func(string, JSON) error { return nil },
					func(string, int, JSON) error { return nil })
			} else {
				err = StreamJSONArray("f.json", r, nil, func(int, JSON) error { return nil })
			}
			if err == nil || !strings.Contains(err.Error(), c.err) || strings.Contains(err.Error(), "end of input") {
				t.Fatalf("error %v, want it to contain %q", err, c.err)
			}
		})
	}
}

// TestStreamedArrayPlaced: a streamed array is handed on before its
// elements, placed at its '[' with its path, so that one with no element
// can be refused where it stands.
func TestStreamedArrayPlaced(t *testing.T) {
	var got []string
	place := func(v JSON) {
		line, col := v.Pos()
		got = append(got, fmt.Sprintf("%s %d:%d %v", v.Path(), line, col, v.Errorf("empty")))
	}
	src := "\n  [ ]"
	if err := StreamJSONArray("f.json", strings.NewReader(src), func(v JSON) error { place(v); return nil },
		func(int, JSON) error { t.Error("an element of an empty array"); return nil }); err != nil {
		t.Fatal(err)
	}
	src = "{\"a\": 1,\n \"runs\":   []}"
	if err := StreamJSONObject("f.json", strings.NewReader(src), []string{"runs"}, func(key string, v JSON) error {
		if key == "runs" {
			place(v)
		}
		return nil
	}, func(string, int, JSON) error { return nil }); err != nil {
		t.Fatal(err)
	}
	want := []string{"$ 2:3 f.json:2:3: $: empty", "$.runs 2:12 f.json:2:12: $.runs: empty"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("placed %q, want %q", got, want)
	}
}

// TestStreamLargeAndSplitValues: a value larger than the reader's buffer
// (read in parts, joined) or one read a byte at a time reads whole, its
// strings exact, and the places after it (line and column) are right.
func TestStreamLargeAndSplitValues(t *testing.T) {
	big := strings.Repeat(`ab\"c\\d\n`, 400_000) // 3.6 MB of escapes, no raw newline
	src := "[\n {\"s\": \"" + big + "\",\n  \"n\": [1, 2]},\n 7,\n {\"a\": 1, \"a\": 2}]"
	want := strings.Repeat("ab\"c\\d\n", 400_000)
	for _, c := range []struct {
		name string
		r    io.Reader
	}{{"large", strings.NewReader(src)}, {"a byte at a time", iotest.OneByteReader(strings.NewReader(src))}} {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			err := StreamJSONArray("f.json", c.r, nil, func(i int, v JSON) error {
				if i == 0 {
					s, _ := v.Member("s")
					str, err := s.Str()
					if err != nil || str != want {
						t.Errorf("the large string reads %d bytes (%v), want %d", len(str), err, len(want))
					}
				}
				got = append(got, v.Kind())
				return nil
			})
			if err == nil || !strings.Contains(err.Error(), `f.json:5:11: $[2].a: duplicate key "a"`) {
				t.Errorf("error %v, want the duplicate key at 5:11", err)
			}
			if strings.Join(got, " ") != "object number" {
				t.Errorf("handed on %v", got)
			}
		})
	}
}

// TestStreamLargeValueAllocs: reading a value of one large string takes
// its bytes in parts, joined once, and the string shares them: about
// its size in heap allocations (the parts but the first are scratch
// memory outside the heap, given back as they are joined), not twice
// its size, nor a growing buffer's copies and a copy of the string on
// top (seven times). A large value the file ends inside gives its
// parts back and says so.
func TestStreamLargeValueAllocs(t *testing.T) {
	const size = 16 << 20
	src := "[{\"content\": \"" + strings.Repeat("hello world ", size/12) + "\"}]"
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	err := StreamJSONArray("f.json", strings.NewReader(src), nil, func(int, JSON) error { return nil })
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 3*size/2 {
		t.Errorf("%d MB allocated to read a %d MB value, want at most %d", got>>20, size>>20, 3*size/2>>20)
	}
	err = StreamJSONArray("f.json", strings.NewReader(src[:len(src)-10]), nil, func(int, JSON) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "the file ends inside element 0") {
		t.Errorf("a large value cut short: %v", err)
	}
}

// TestJSONRaw: a value's text is what encoding/json keeps of it as a
// json.RawMessage, inside a streamed element as in a whole document.
func TestJSONRaw(t *testing.T) {
	src := `{"a": [ {"s": "x\"}]\\", "n": -1.5e3, "t": true, "z": null, "o": {"k": [1, {}]}} ], "b": 12}`
	var want map[string]json.RawMessage
	if err := json.Unmarshal([]byte(src), &want); err != nil {
		t.Fatal(err)
	}
	var inner []map[string]json.RawMessage
	if err := json.Unmarshal(want["a"], &inner); err != nil {
		t.Fatal(err)
	}
	j, err := ParseJSON("f.json", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	a, _ := j.Member("a")
	b, _ := j.Member("b")
	el, _ := a.Item(0)
	keys, vals, err := el.Entries()
	if err != nil || len(keys) != 5 {
		t.Fatalf("entries %v, %v", keys, err)
	}
	got := map[string]string{"a": string(a.Raw()), "b": string(b.Raw())}
	exp := map[string]string{"a": string(want["a"]), "b": string(want["b"])}
	for i, k := range keys {
		got["a."+k], exp["a."+k] = string(vals[i].Raw()), string(inner[0][k])
	}
	if !reflect.DeepEqual(got, exp) {
		t.Fatalf("raw texts\n%v\nwant\n%v", got, exp)
	}
	// A member's Value is FromJSON of its text.
	for i, k := range keys {
		got, gerr := vals[i].Value()
		want, werr := FromJSON(vals[i].Raw())
		if gerr != nil || werr != nil || !got.Equal(want) || got.Kind() != want.Kind() {
			t.Errorf("Value of %s: %v (%v), FromJSON %v (%v)", k, got, gerr, want, werr)
		}
	}
	tv, _ := el.Member("t")
	if b, err := tv.Bool(); !b || err != nil {
		t.Fatalf("Bool: %v, %v", b, err)
	}
	if _, err := b.Bool(); err == nil || !strings.Contains(err.Error(), "$.b: expected boolean, got number 12") {
		t.Fatalf("Bool of a number: %v", err)
	}
	// An element of a streamed array: its text is the element's.
	err = StreamJSONObject("f.json", strings.NewReader(src), []string{"a"}, func(string, JSON) error { return nil },
		func(_ string, _ int, v JSON) error {
			o, _ := v.Member("o")
			if string(o.Raw()) != string(inner[0]["o"]) {
				t.Fatalf("streamed element's member: %s", o.Raw())
			}
			return nil
		})
	if err != nil {
		t.Fatal(err)
	}
}

// TestUnescape: a string with escapes reads as encoding/json reads it,
// and one it would repair (a lone surrogate, invalid UTF-8) is refused.
func TestUnescape(t *testing.T) {
	for _, lit := range []string{`"a\"b\\c\/d\be\ff\ng\rh\ti"`, `"\u00e9\u0000\u001f\uFFFF \ud83d\ude00 é😀"`, `"\\"`, `"x\n"`,
		`"\u12AB\uabcd"`, `"` + strings.Repeat(`long \" text `, 10000) + `"`} {
		var want string
		if err := json.Unmarshal([]byte(lit), &want); err != nil {
			t.Fatal(err)
		}
		if got, ok := unescape([]byte(lit)); !ok || got != want {
			t.Errorf("unescape(%.40s) = %q, %v; encoding/json reads %q", lit, got, ok, want)
		}
	}
	for _, lit := range []string{`"\ud83d"`, `"\ude00\ud83d"`, "\"\\n\xff\"", `"\ud83d\u0041"`} {
		if got, ok := unescape([]byte(lit)); ok {
			t.Errorf("unescape(%q) = %q, want it refused", lit, got)
		}
	}
}
