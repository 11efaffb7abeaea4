package evaluators_test

import (
	"bytes"
	"slices"
	"testing"
	"testing/iotest"

	"github.com/parthack/parthack/evaluators"
	"github.com/parthack/parthack/internal/fixture"
	"github.com/parthack/parthack/internal/payload"
	"github.com/parthack/parthack/internal/payload/builder"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
)

// TestStreamIsPrefixes: scoring a payload's bytes as they arrive gives,
// prefix by prefix, what Prefixes gives on the payload decoded whole, with
// each prefix's event, for every stored trajectory of the suite and a
// long churn.
func TestStreamIsPrefixes(t *testing.T) {
	type input struct {
		name string
		pub  *model.Task
		env  *pbcste.Env
		tr   *model.Trajectory
	}
	ex := fixture.ExampleEnv(t)
	inputs := []input{{"churn", ex.Task, ex, &model.Trajectory{Task: "EX-01", Steps: fixture.Churn(5000)}}}
	for _, st := range suite(t) {
		for _, n := range st.Trajectories() {
			inputs = append(inputs, input{st.ID + " " + n.File, st.Public, st.env, n.Trajectory})
		}
	}
	for _, in := range inputs {
		built, err := builder.Build(in.pub, in.env.Replay(in.tr.Steps), nil)
		if err != nil {
			t.Fatal(err)
		}
		b := built.Bytes()
		p, err := payload.Decode(b)
		if err != nil {
			t.Fatal(err)
		}
		want, err := evaluators.Prefixes(p)
		if err != nil {
			t.Fatal(err)
		}
		k := 0
		head, err := evaluators.Stream(iotest.HalfReader(bytes.NewReader(b)), func(n int, ev *payload.Event, scores []float64) {
			if n != k {
				t.Fatalf("%s: prefix %d recorded after %d", in.name, n, k-1)
			}
			if (n == 0) != (ev == nil) || (ev != nil && ev.Seq != n) {
				t.Fatalf("%s: prefix %d handed event %+v", in.name, n, ev)
			}
			for i := range want {
				if scores[i] != want[i].Values[n] {
					t.Fatalf("%s: prefix %d: %s %v, Prefixes %v", in.name, n, want[i].Name, scores[i], want[i].Values[n])
				}
			}
			k++
		})
		if err != nil {
			t.Fatalf("%s: %v", in.name, err)
		}
		if k != len(p.Events)+1 || head.Task != p.Task {
			t.Errorf("%s: %d prefixes of %d events, task %s", in.name, k, len(p.Events), head.Task)
		}
	}
}

// TestStreamRefusesWhatDecodeRefuses: a payload whose terminal state the
// log does not rebuild, or whose bytes are not canonical, is an error.
func TestStreamRefusesWhatDecodeRefuses(t *testing.T) {
	ex := fixture.ExampleEnv(t)
	built, err := builder.Build(ex.Task, ex.Replay(fixture.Trajectory(t, "witness.json").Steps), nil)
	if err != nil {
		t.Fatal(err)
	}
	b := built.Bytes()
	term := bytes.Index(b, []byte(`"terminal":`))
	for name, bad := range map[string][]byte{
		"terminal not rebuilt": slices.Concat(b[:term], bytes.Replace(b[term:], []byte(`"status":"closed"`), []byte(`"status":"open"`), 1)),
		"white space":          bytes.Replace(b, []byte(`"seq":2,`), []byte(`"seq": 2,`), 1),
	} {
		if bytes.Equal(bad, b) {
			t.Fatalf("%s: no change", name)
		}
		if _, err := evaluators.Stream(bytes.NewReader(bad), func(int, *payload.Event, []float64) {}); err == nil {
			t.Errorf("%s: Stream scored it", name)
		}
	}
}
