package classes

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/parthack/parthack/domains/bfcl/pyval"
)

// TestMathGold replays every gold MathAPI call of the three categories,
// the hand-made edge calls and 600 seeded logarithm and square_root
// calls against BFCL's own result strings.
func TestMathGold(t *testing.T) {
	for _, name := range []string{"gold", "edge"} {
		t.Run(name, func(t *testing.T) {
			results, _, calls := fsReplayFile(t, "MathAPI", filepath.Join("testdata", "math", name+".jsonl.gz"))
			t.Logf("%d calls: %d results equal Python's", calls, results)
			if calls == 0 {
				t.Fatal("no calls replayed")
			}
		})
	}
}

// TestMathResultsMarshal: every result of the edge calls (mpf, mpc and
// Decimal values among them) reads back from Marshal to a value with the
// same result string.
func TestMathResultsMarshal(t *testing.T) {
	c, _ := Lookup("MathAPI")
	self := &Instance{Class: c}
	c.Init(self)
	objects := 0
	for _, seq := range gzipJSONLines[fsReplaySeq](t, filepath.Join("testdata", "math", "edge.jsonl.gz")) {
		for _, step := range seq.Calls {
			call, err := ParseCall(step.Call) // fails on 10**20, which Execute evaluates
			if err != nil {
				continue
			}
			args, err := Bind(c, call.Method, call)
			if err != nil {
				continue
			}
			v, err := c.Methods[call.Method].Body(self, args)
			if err != nil {
				continue
			}
			data, err := pyval.Marshal(v)
			if err != nil {
				t.Fatalf("%s: Marshal: %v", step.Call, err)
			}
			back, err := pyval.Unmarshal(data)
			if err != nil {
				t.Fatalf("%s: Unmarshal %s: %v", step.Call, data, err)
			}
			if got, want := ResultString(back), ResultString(v); got != want {
				t.Errorf("%s: after Marshal %s:\n got  %s\n want %s", step.Call, data, got, want)
			}
			if strings.Contains(string(data), `"object"`) {
				objects++
			}
		}
	}
	if objects < 100 {
		t.Errorf("only %d results held an mpf, mpc or Decimal", objects)
	}
}
