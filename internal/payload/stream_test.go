package payload_test

import (
	"bytes"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/parthack/parthack/internal/fixture"
	"github.com/parthack/parthack/internal/payload"
	"github.com/parthack/parthack/tasks"
)

// streamDecode reads b with a Decoder from r and puts together what it
// hands on: the head, every event and the terminal state.
func streamDecode(r io.Reader) (*payload.Payload, error) { return decodeStream(r, false) }

// decodeStream is streamDecode, its events taken by Next or, with each,
// by EachEvent.
func decodeStream(r io.Reader, each bool) (*payload.Payload, error) {
	d := payload.NewDecoder(r)
	p, err := d.Head()
	if err != nil {
		return nil, err
	}
	p.Events = []payload.Event{}
	keep := func(ev *payload.Event) error {
		p.Events = append(p.Events, *ev)
		p.Events[len(p.Events)-1].Diff = append([]payload.Cell{}, ev.Diff...) // the Decoder reuses their room
		p.Events[len(p.Events)-1].Args = slices.Clone(ev.Args)
		return nil
	}
	if each {
		if err := d.EachEvent(keep); err != nil {
			return nil, err
		}
	}
	for {
		ev, err := d.Next()
		if err != nil {
			return nil, err
		}
		if ev == nil {
			break
		}
		keep(ev)
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
		for _, each := range []bool{false, true} {
			for how, r := range readers(b) {
				got, err := decodeStream(r, each)
				if err != nil {
					t.Fatalf("%s %s (EachEvent %v): %v", want.Task, how, each, err)
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s %s (EachEvent %v): the Decoder reads another payload than Decode", want.Task, how, each)
				}
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
		for _, each := range []bool{false, true} {
			for how, r := range readers(b) {
				if _, err := decodeStream(r, each); err == nil {
					t.Errorf("%s %s (EachEvent %v): the Decoder accepts what Decode refuses", name, how, each)
				}
			}
		}
	}
}

// TestEachEventStops: EachEvent stops at fn's first error and returns
// it, even when the decoder would refuse a later event; and returns the
// decoder's error when fn had none before it.
func TestEachEventStops(t *testing.T) {
	env := fixture.ExampleEnv(t)
	good := build(t, env.Task, env, fixture.Churn(2000)).Bytes()
	// An event the decoder refuses, late in the payload.
	late := bytes.Index(good, []byte(`{"seq":1900,`)) // the event, not its provenance
	bad := append(bytes.Clone(good[:late]), bytes.Replace(good[late:], []byte(`"seq":1900,`), []byte(`"seq":01900,`), 1)...)
	stop := fmt.Errorf("the engine stops")
	for _, c := range []struct {
		name   string
		b      []byte
		stopAt int // fn fails on this event (from 1), 0 never
		want   error
		seen   int
	}{
		{"fn fails first", bad, 10, stop, 10},
		{"decoder fails first", bad, 0, nil, 1899},
		{"fn fails on a good payload", good, 1500, stop, 1500},
	} {
		d := payload.NewDecoder(bytes.NewReader(c.b))
		if _, err := d.Head(); err != nil {
			t.Fatal(err)
		}
		seen := 0
		err := d.EachEvent(func(ev *payload.Event) error {
			seen++
			if ev.Seq != seen {
				return fmt.Errorf("event %d has seq %d", seen, ev.Seq)
			}
			if seen == c.stopAt {
				return stop
			}
			return nil
		})
		switch {
		case c.want != nil && err != c.want:
			t.Errorf("%s: error %v, want fn's", c.name, err)
		case c.want == nil && (err == nil || !strings.Contains(err.Error(), "01900 is not in canonical form")):
			t.Errorf("%s: error %v, want the decoder's at the 1,900th event", c.name, err)
		}
		if seen != c.seen {
			t.Errorf("%s: fn saw %d events, want %d", c.name, seen, c.seen)
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
