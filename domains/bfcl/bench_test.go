package bfcl

import "testing"

// BenchmarkLoad times what a command about any BFCL entry does first:
// the six shipped files of questions and answers gunzipped and decoded,
// and the classes' function docs.
func BenchmarkLoad(b *testing.B) {
	if _, err := Entries(); err != nil { // load's once spent, so none loads after
		b.Fatal(err)
	}
	for b.Loop() {
		loaded.entries, loaded.byID, loaded.docs, loaded.err = nil, nil, nil, nil
		load()
		if loaded.err != nil {
			b.Fatal(loaded.err)
		}
	}
}
