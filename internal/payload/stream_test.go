package payload_test

import (
	"bytes"
	"fmt"
	"io"
	"reflect"
	"slices"
	"testing"
	"testing/iotest"

	"github.com/parthack/parthack/internal/fixture"
	"github.com/parthack/parthack/internal/payload"
	"github.com/parthack/parthack/tasks"
)

// streamDecode reads b with a Decoder from r and puts together what it
// hands on: the head, every event and the terminal state.
func streamDecode(r io.Reader) (*payload.Payload, error) {
	d := payload.NewDecoder(r)
	p, err := d.Head()
	if err != nil {
		return nil, err
	}
	p.Events = []payload.Event{}
	for {
		ev, err := d.Next()
		if err != nil {
			return nil, err
		}
		if ev == nil {
			break
		}
		p.Events = append(p.Events, *ev)
		p.Events[len(p.Events)-1].Diff = append([]payload.Cell{}, ev.Diff...) // the Decoder reuses their room
		p.Events[len(p.Events)-1].Args = slices.Clone(ev.Args)
	}
	s, err := d.Finish()
	if err != nil {
		return nil, err
	}
	p.Terminal = *s
	return p, nil
}

// readers are the ways a stream's bytes may arrive: at once, a byte at a
// time, in odd chunks.
func readers(b []byte) map[string]io.Reader {
	return map[string]io.Reader{
		"whole":    bytes.NewReader(b),
		"one byte": iotest.OneByteReader(bytes.NewReader(b)),
		"half":     iotest.HalfReader(bytes.NewReader(b)),
		"data+EOF": iotest.DataErrReader(bytes.NewReader(b)),
	}
}

// TestDecoderReadsWhatDecodeReads: for every stored trajectory of the
// example and of the suite, however its bytes arrive, a Decoder reads the
// payload Decode reads (head, events, terminal state).
func TestDecoderReadsWhatDecodeReads(t *testing.T) {
	var inputs [][]byte
	env := fixture.ExampleEnv(t)
	for _, name := range []string{"honest.json", "witness.json", "rollback.json"} {
		inputs = append(inputs, build(t, env.Task, env, fixture.Trajectory(t, name).Steps).Bytes())
	}
	inputs = append(inputs, build(t, env.Task, env, fixture.Churn(2000)).Bytes())
	suite, err := tasks.Suite()
	if err != nil {
		t.Fatal(err)
	}
	for _, task := range suite {
		senv := suiteEnv(t, task.ID)
		for _, n := range task.Trajectories() {
			inputs = append(inputs, build(t, task.Public, senv, n.Trajectory.Steps).Bytes())
		}
	}
	for _, b := range inputs {
		want, err := payload.Decode(b)
		if err != nil {
			t.Fatal(err)
		}
		want.Provenance, want.Transcript = nil, nil
		for how, r := range readers(b) {
			got, err := streamDecode(r)
			if err != nil {
				t.Fatalf("%s %s: %v", want.Task, how, err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s %s: the Decoder reads another payload than Decode", want.Task, how)
			}
		}
	}
}

// TestDecoderStrict: every mutation Decode refuses, a Decoder refuses,
// however the bytes arrive; so are a truncated payload and trailing data.
func TestDecoderStrict(t *testing.T) {
	env := fixture.ExampleEnv(t)
	good := build(t, env.Task, env, fixture.Trajectory(t, "witness.json").Steps).Bytes()
	bad := map[string][]byte{
		"trailing data":          append(bytes.Clone(good), "{}"...),
		"trailing byte":          append(bytes.Clone(good), ' '),
		"extra provenance entry": replace(t, good, `{"seq":4,"actor":"agent"}]`, `{"seq":4,"actor":"agent"},{"seq":5,"actor":"agent"}]`),
		"escaped ascii":          replace(t, good, `"EX-01"`, `"EX\u002d01"`),
		"padded int":             replace(t, good, `"seq":1,`, `"seq":01,`),
	}
	for _, c := range strictCases {
		bad[c.name] = replace(t, good, c.old, c.new)
	}
	for cut := 1; cut < len(good); cut += 97 {
		bad[fmt.Sprintf("cut at byte %d", cut)] = good[:cut]
	}
	for name, b := range bad {
		if _, err := payload.Decode(b); err == nil {
			t.Fatalf("%s: Decode accepts it: not a bad case", name)
		}
		for how, r := range readers(b) {
			if _, err := streamDecode(r); err == nil {
				t.Errorf("%s %s: the Decoder accepts what Decode refuses", name, how)
			}
		}
	}
}

// TestDecoderReadError: a reader's error ends the decoding with it.
func TestDecoderReadError(t *testing.T) {
	env := fixture.ExampleEnv(t)
	good := build(t, env.Task, env, fixture.Trajectory(t, "witness.json").Steps).Bytes()
	r := io.MultiReader(bytes.NewReader(good[:len(good)/2]), iotest.ErrReader(io.ErrUnexpectedEOF))
	if _, err := streamDecode(r); err == nil || !bytes.Contains([]byte(err.Error()), []byte("unexpected EOF")) {
		t.Errorf("error %v, want the reader's", err)
	}
}

// TestIntegers: an integer reads as Decode reads it whether it is short
// or long, and non-canonical ones are refused alike.
func TestIntegers(t *testing.T) {
	env := fixture.ExampleEnv(t)
	good := build(t, env.Task, env, fixture.Trajectory(t, "witness.json").Steps).Bytes()
	const at = `"before":2,"after":1}`
	for _, c := range []struct {
		n  string
		ok bool
	}{
		{"0", true}, {"-7", true}, {"123456789012345678", true}, {"-123456789012345678", true},
		{"9223372036854775807", true}, {"-9223372036854775808", true},
		{"9223372036854775808", false}, {"-0", false}, {"007", false}, {"1.0", false}, {"1e3", false}, {"+1", false},
	} {
		b := replace(t, good, at, `"before":2,"after":`+c.n+`}`)
		p, err := payload.Decode(b)
		if (err == nil) != c.ok {
			t.Fatalf("%s: Decode: %v", c.n, err)
		}
		for how, r := range readers(b) {
			q, err := streamDecode(r)
			if (err == nil) != c.ok {
				t.Errorf("%s %s: Decoder: %v", c.n, how, err)
				continue
			}
			if c.ok && !reflect.DeepEqual(q.Events, p.Events) {
				t.Errorf("%s %s: the Decoder reads other events than Decode", c.n, how)
			}
		}
	}
}
