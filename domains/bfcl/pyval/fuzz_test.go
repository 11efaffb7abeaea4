package pyval_test

import (
	"testing"

	"github.com/parthack/parthack/domains/bfcl/pyval"
)

// FuzzLoads holds json.loads to never panicking, and what it reads to
// survive json.dumps and Marshal unchanged.
func FuzzLoads(f *testing.F) {
	for _, s := range []string{`{"a": [1, 2.5, -0.0, 1e400, NaN, "\u00e9\ud83d\ude00"], "a": null}`, `[`, `"\ud800"`,
		`123456789012345678901234567890`, `{"1": {"2": [true, false]}}`, `-Infinity`, ` [ ] `} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := pyval.Loads(data)
		if err != nil {
			return
		}
		m1, err := pyval.Marshal(v)
		if err != nil {
			return // a str holding bytes that are not UTF-8
		}
		js, err := pyval.Dumps(v)
		if err != nil {
			t.Fatalf("Dumps(Loads(%q)): %v", data, err)
		}
		back, err := pyval.Loads([]byte(js))
		if err != nil {
			t.Fatalf("Loads(Dumps) of %q: %v", data, err)
		}
		m2, _ := pyval.Marshal(back)
		if string(m1) != string(m2) {
			t.Fatalf("%q: Loads(Dumps(v)) = %s, v = %s", data, m2, m1)
		}
		u, err := pyval.Unmarshal(m1)
		if err != nil {
			t.Fatalf("Unmarshal(Marshal) of %q: %v", data, err)
		}
		if m3, _ := pyval.Marshal(u); string(m3) != string(m1) {
			t.Fatalf("%q: Marshal(Unmarshal(m)) = %s, m = %s", data, m3, m1)
		}
	})
}
