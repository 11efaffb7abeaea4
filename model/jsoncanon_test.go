package model

import (
	"reflect"
	"strings"
	"testing"
)

// fromTree is FromJSON the long way: the strict tree, then the mapping.
func fromTree(src []byte) (Value, error) {
	d, err := parseDoc("", src)
	if err != nil {
		return Null, err
	}
	return d.cur().anyValue()
}

// canonicalTexts are texts in FromJSON's canonical form and near misses.
var canonicalTexts = []string{
	`{}`, `[]`, `{"a":1}`, `{"a":1,"b":[2,3]}`, `{"b":1,"a":2}`, `{"a":1,"a":2}`, `{"a":{"x":1,"y":[true,false,null]}}`,
	`["a","b"]`, `["a",1]`, `[["a"]]`, `[{"b":1}]`, `["a\"b"]`, `["caf\u00e9"]`, `["café"]`, `[""]`,
	`"plain"`, `""`, `"a\\b"`, `"é"`, `0`, `-0`, `7`, `-7`, `007`, `123456789012345678`, `1234567890123456789`, `99999999999999999999`,
	`1.5`, `1.50`, `2e3`, `2000.0`, `1e+16`, `1e16`, `1e-05`, `0.0001`, `-0.0`, `0x10`, `1e400`, `1.`, `.5`,
	`true`, `false`, `null`, `nul`, `{"a":1}x`, `{"a":1} `, ` {"a":1}`, `{"a" :1}`, `{"a": 1}`, `[1, 2]`, `[1,]`, `{"a":1,}`,
	`{"a":"x` + "\x7f" + `"}`, `{"a":"x` + "\x01" + `"}`, `{"a":1e400}`, `{"a":-0}`, `{"a":01}`, `[1-2]`, `[` + "\"\xff\"" + `]`,
	`{"price":50.88,"qty":2}`, `{"price":50.880,"qty":2}`, `{"k":"v","l":{"m":[1,2.5,"x"]}}`,
}

// TestCanonicalValueIsFromJSON: where the read without a tree takes a
// text, its value is the tree's, kind and content; it takes the texts in
// the form FromJSON writes that hold only printable ASCII.
func TestCanonicalValueIsFromJSON(t *testing.T) {
	taken := 0
	for _, text := range canonicalTexts {
		want, err := fromTree([]byte(text))
		got, ok := canonicalValue([]byte(text))
		switch {
		case ok && err != nil:
			t.Errorf("%q: read as %v; FromJSON refuses it: %v", text, got, err)
		case ok && !reflect.DeepEqual(got, want):
			t.Errorf("%q: read as %#v, FromJSON reads %#v", text, got, want)
		case !ok && err == nil && want.Kind() == JSONValue && want.AsString() == text && !strings.ContainsAny(text, "\x7f\\"):
			t.Errorf("%q: canonical, yet not taken", text)
		}
		if ok {
			taken++
		}
	}
	if taken < 20 {
		t.Errorf("only %d texts taken", taken)
	}
}

// FuzzCanonicalValue: any text the read without a tree takes is read as
// the tree reads it.
func FuzzCanonicalValue(f *testing.F) {
	for _, text := range canonicalTexts {
		f.Add(text)
	}
	f.Fuzz(func(t *testing.T, text string) {
		got, ok := canonicalValue([]byte(text))
		if !ok {
			return
		}
		want, err := fromTree([]byte(text))
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: read as %#v; FromJSON: %#v, %v", text, got, want, err)
		}
	})
}
