package tauair

import (
	"bytes"
	"testing"

	"github.com/parthack/parthack/model"
)

// TestReprOfIsTheDecodedRepr holds reprOf, which writes a value's Python
// text from its canonical JSON, to appendPyRepr of the value decoded, on
// the forms a value can take (and on text reprOf must leave to the
// decoder).
func TestReprOfIsTheDecodedRepr(t *testing.T) {
	for _, text := range []string{
		`"plain"`, `"it's"`, `"say \"hi\""`, `"both ' and \""`, `"tab\there"`, `"café"`, `"\u00e9\u2028"`,
		`0`, `-7`, `123456789012`, `28.0`, `28.5`, `-0.25`, `1e+16`, `1.5e-07`, `true`, `false`,
		`[]`, `["a"]`, `["a","b"]`, `[1,2.5,null,true]`, `[[1],[]]`,
		`{}`, `{"a":1}`, `{"a":{"b":[1,{"c":"d"}]},"e":null}`, `{"b":1,"a":2}`, `{"a": 1}`,
		`{"economy":3,"business":4.0,"basic_economy":0}`, `{"k":"it's","l":"\""}`,
	} {
		v, err := model.FromJSON([]byte(text))
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		if got, want := reprOf(v), appendPyRepr(nil, jsonOf(v)); !bytes.Equal(got, want) {
			t.Errorf("%s (%s): reprOf %s, decoded %s", text, v, got, want)
		}
	}
}

// TestHashingRecordsAreTheRecords holds each initial record's hashing
// text (fields written as pyText) to its text built from decoded values.
func TestHashingRecordsAreTheRecords(t *testing.T) {
	_, d := baseWorld(t)
	v := d.db.Start()
	plain, hashing := &callCtx{d: d, v: v}, &callCtx{d: d, v: v, hashing: true}
	n := 0
	for _, coll := range collections {
		for _, id := range d.ids(coll) {
			want := appendPyRepr(nil, plain.root(coll, id))
			if got := appendPyRepr(nil, hashing.root(coll, id)); !bytes.Equal(got, want) {
				t.Fatalf("%s %s: hashing text\n%s\nwant\n%s", coll, id, got, want)
			}
			n++
		}
	}
	if n < 2000 {
		t.Errorf("compared %d records", n)
	}
}
