package tauair

import (
	"bytes"
	"testing"

	"github.com/parthack/parthack/model"
)

// TestReprOfIsTheDecodedRepr holds appendValueRepr, which writes a value's Python
// text from its canonical JSON, to appendPyRepr of the value decoded, on
// the forms a value can take (and on text reprOf must leave to the
// decoder).
func TestReprOfIsTheDecodedRepr(t *testing.T) {
	for _, text := range []string{
		`"plain"`, `"it's"`, `"say \"hi\""`, `"both ' and \""`, `"tab\there"`, `"café"`, `"\u00e9\u2028"`,
		`0`, `-7`, `-0`, `-0.0`, `123456789012`, `123456789012345678`, `-12345678901234567`, `9223372036854775807`, `[-0,9223372036854775807]`, `28.0`, `28.5`, `-0.25`, `1e+16`, `1.5e-07`, `true`, `false`,
		`[]`, `["a"]`, `["a","b"]`, `[1,2.5,null,true]`, `[[1],[]]`,
		`{}`, `{"a":1}`, `{"a":{"b":[1,{"c":"d"}]},"e":null}`, `{"b":1,"a":2}`, `{"a": 1}`,
		`{"economy":3,"business":4.0,"basic_economy":0}`, `{"k":"it's","l":"\""}`,
	} {
		v, err := model.FromJSON([]byte(text))
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		if got, want := appendValueRepr(nil, v), appendPyRepr(nil, jsonOf(v)); !bytes.Equal(got, want) {
			t.Errorf("%s (%s): appendValueRepr %s, decoded %s", text, v, got, want)
		}
	}
}

// TestHashingRecordsAreTheRecords holds each initial record's hash text,
// written straight from the state (appendRootRepr), to appendPyRepr of
// the record built from decoded values (root).
func TestHashingRecordsAreTheRecords(t *testing.T) {
	_, d := baseWorld(t)
	v := d.db.Start()
	c := &callCtx{d: d, v: v}
	n := 0
	for _, coll := range collections {
		for _, id := range d.ids(coll) {
			var want []byte
			if rec := c.root(coll, id); rec != nil {
				want = appendPyRepr(nil, rec)
			}
			if got, _ := c.appendRootRepr(nil, coll, id); !bytes.Equal(got, want) {
				t.Fatalf("%s %s: hashing text\n%s\nwant\n%s", coll, id, got, want)
			}
			n++
		}
	}
	if n < 2000 {
		t.Errorf("compared %d records", n)
	}
}
