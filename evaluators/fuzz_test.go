package evaluators_test

import (
	"testing"

	"github.com/parthack/parthack/evaluators"
	"github.com/parthack/parthack/internal/fixture"
	"github.com/parthack/parthack/internal/payload"
	"github.com/parthack/parthack/internal/payload/builder"
)

// FuzzPrefixes feeds arbitrary bytes through the evaluator's path: what
// Decode accepts re-encodes to the same bytes, and scoring it either
// fails with an error or agrees with itself; it never panics.
func FuzzPrefixes(f *testing.F) {
	env := fixture.ExampleEnv(f)
	for _, name := range []string{"honest.json", "witness.json", "rollback.json"} {
		p, err := builder.Build(env.Task, env.Replay(fixture.Trajectory(f, name).Steps), nil)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(p.Bytes())
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := payload.Decode(b)
		if err != nil {
			return
		}
		if string(p.Bytes()) != string(b) {
			t.Fatal("decoded payload does not re-encode to its bytes")
		}
		series, err := evaluators.Prefixes(p)
		scores, err2 := evaluators.ScoreAll(p)
		if (err == nil) != (err2 == nil) {
			t.Fatalf("Prefixes error %v, ScoreAll error %v", err, err2)
		}
		if err != nil {
			return
		}
		for i, s := range series {
			if len(s.Values) != len(p.Events)+1 || s.Values[len(p.Events)] != scores[i].Value {
				t.Fatalf("%s: prefixes disagree with ScoreAll", s.Name)
			}
			for _, v := range s.Values {
				if !(v >= 0 && v <= 1) {
					t.Fatalf("%s: score %v outside [0, 1]", s.Name, v)
				}
			}
		}
	})
}
