package store

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
)

func TestRecordEncoding(t *testing.T) {
	key := uintToKey(42)
	tests := []Record{
		{Kind: KindWitness, Key: 42},
		{Kind: KindNote, Key: 42, Task: "PH-H05", Name: "n", Note: "ünïcode\x00", Body: []byte{0}, Created: -1},
		{Kind: KindRun, Key: 42, Name: strings.Repeat("x", 300), Body: []byte(`{"ledger":[]}`), Created: math.MaxInt64},
	}
	for _, want := range tests {
		got, err := decode(want.Kind, key, encode(want), nil)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("decode(encode(%+v)) = %+v, %v", want, got, err)
		}
	}
}

func TestDecodeRejects(t *testing.T) {
	valid := encode(Record{Task: "PH-D01", Name: "name", Note: "note", Created: 1 << 40})
	headerLen := len(valid) // no Body: every byte is header
	tests := []struct {
		name       string
		key, value []byte
	}{
		{"short key", []byte{0, 0, 0, 1}, valid},
		{"empty value", uintToKey(1), nil},
		{"version 0", uintToKey(1), append([]byte{0}, valid[1:]...)},
		{"version 3", uintToKey(1), append([]byte{3}, valid[1:]...)},
		{"chunked without its count", uintToKey(1), append([]byte{recordChunked}, valid[1:]...)},
		{"chunked, no chunk", uintToKey(1), append(append([]byte{recordChunked}, valid[1:]...), 0, 5)},
		{"chunked, no length", uintToKey(1), append(append([]byte{recordChunked}, valid[1:]...), 1)},
		{"chunked, bytes after", uintToKey(1), append(append([]byte{recordChunked}, valid[1:]...), 1, 5, 0)},
		{"length past end", uintToKey(1), []byte{recordVersion, 200}},
	}
	for cut := 1; cut < headerLen; cut++ {
		tests = append(tests, struct {
			name       string
			key, value []byte
		}{"truncated header", uintToKey(1), valid[:cut]})
	}
	for _, tt := range tests {
		if r, err := decode(KindWitness, tt.key, tt.value, nil); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s (%x): decode = %+v, %v; want ErrCorrupt", tt.name, tt.value, r, err)
		}
	}
}
