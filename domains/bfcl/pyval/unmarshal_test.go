package pyval

import (
	"bytes"
	"math"
	"math/big"
	"reflect"
	"strings"
	"testing"
)

// marshalledTexts are Marshal's texts of values of every kind, the first
// canonical of them, and then texts Marshal never writes (whitespace,
// other keys and orders, escapes, numbers and values Unmarshal refuses).
func marshalledTexts(t testing.TB) (texts [][]byte, canonical int) {
	r, err := NewRandom(int64(42))
	if err != nil {
		t.Fatal(err)
	}
	huge, _ := new(big.Int).SetString("-123456789012345678901234567890", 10)
	values := []Value{
		nil, true, false, int64(0), int64(-7), int64(math.MaxInt64), int64(math.MinInt64), huge,
		0.1, math.Copysign(0, -1), math.NaN(), math.Inf(-1), 1e16, "", "plain", "a \"quoted\"\n\ttab \\ é 日本 \u2028 \x7f",
		NewList(), NewList(int64(1), "two", NewList(nil, Tuple{}), Tuple{int64(3), 4.5}),
		DictOf(Item{Key: "k", Value: int64(1)}, Item{Key: int64(2), Value: NewList()}, Item{Key: Tuple{"a", int64(1)}, Value: DictOf()},
			Item{Key: true, Value: "bool key"}, Item{Key: 2.5, Value: nil}, Item{Key: nil, Value: r}),
		r,
	}
	var out [][]byte
	for _, v := range values {
		m, err := Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	canonical = len(out)
	deep := strings.Repeat("[", 1200) + strings.Repeat("]", 1200)
	for _, s := range []string{
		" null", "null ", "[1, 2]", `[1,]`, `[,1]`, `[`, `]`, `01`, `-0`, `-`, `1.5`, `1e3`, `9223372036854775808`, `"\u00e9\ud800x"`,
		"\"a\x00\"", "\"\xff\"", `"\q"`, `"open`, `{"dict":[[1,2]],"x":1}`, `{"x":1,"dict":[[1,2]]}`, `{"tuple":null}`, `{"dict":null}`,
		`{"dict":[[1]]}`, `{"dict":[[[1],2]]}`, `{"dict":[[1,2],[true,3]]}`, `{"d\u0069ct":[]}`, `{"int":"+5"}`, `{"int":5}`,
		`{"int":"12345678901234567890123"}`, `{"int":"1_0"}`, `{"float":"nan"}`, `{"float":"-0.0"}`, `{"float":"x"}`,
		`{"state":null,"object":"Random"}`, `{"object":"Nope","state":1}`, `{"object":"Random","state":{"mt":[1],"mti":0}}`,
		`{"object":"Random","state":{"mt":[1,],"mti":0}}`, `{"object":"Random","state":[1.5e+3,-0.25E-2,"x",{},[],{"a":null}]}`,
		deep, `{}`, `[]`, ``, `{"tuple":[]} `,
	} {
		out = append(out, []byte(s))
	}
	return out, canonical
}

// checkRead holds readMarshalled to the general reading of the same text:
// a text it reads, Unmarshal's general way reads to the same value.
func checkRead(t *testing.T, data []byte) bool {
	got, ok := readMarshalled(data)
	want, err := unmarshalJSON(data)
	if !ok {
		return false
	}
	if err != nil {
		t.Fatalf("%q: read as %v; the general reading fails: %v", data, got, err)
	}
	g, gerr := Marshal(got)
	w, werr := Marshal(want)
	if gerr != nil || werr != nil || !bytes.Equal(g, w) {
		t.Fatalf("%q: read as %s (%v); the general reading %s (%v)", data, g, gerr, w, werr)
	}
	if !bytes.Contains(data, []byte("nan")) && !reflect.DeepEqual(got, want) {
		t.Fatalf("%q: read as %#v; the general reading %#v", data, got, want)
	}
	return true
}

// TestReadMarshalled: Marshal's own texts are read in one pass, to the
// value the general reading gives; any other text the one pass reads,
// it reads alike.
func TestReadMarshalled(t *testing.T) {
	texts, canonical := marshalledTexts(t)
	for i, data := range texts {
		if read := checkRead(t, data); i < canonical && !read {
			t.Errorf("%q: Marshal's text left to the general reading", data)
		}
	}
}

// FuzzReadMarshalled: whatever the text, the one pass reads it as the
// general reading does, or leaves it to it.
func FuzzReadMarshalled(f *testing.F) {
	texts, _ := marshalledTexts(f)
	for _, data := range texts {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkRead(t, data) })
}
