package cli

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"text/tabwriter"
	"time"

	"github.com/parthack/parthack/evaluators"
	"github.com/parthack/parthack/internal/fixture"
	"github.com/parthack/parthack/internal/payload"
	"github.com/parthack/parthack/model"
)

// peakHeap runs f and returns how far the live heap (HeapAlloc, the GC
// kept tight) rose above where it started while f ran.
func peakHeap(f func()) uint64 {
	defer debug.SetGCPercent(debug.SetGCPercent(10))
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	base := m.HeapAlloc
	var peak atomic.Uint64
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			if m.HeapAlloc > base && m.HeapAlloc-base > peak.Load() {
				peak.Store(m.HeapAlloc - base)
			}
			select {
			case <-stop:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}()
	f()
	close(stop)
	<-done
	return peak.Load()
}

// hashWriter keeps the sha256 and the length of what is written, and
// nothing else.
type hashWriter struct {
	h interface {
		Write([]byte) (int, error)
		Sum([]byte) []byte
	}
	n int
}

func newHashWriter() *hashWriter { return &hashWriter{h: sha256.New()} }

func (w *hashWriter) Write(b []byte) (int, error) { w.n += len(b); return w.h.Write(b) }
func (w *hashWriter) sum() string                 { return hex.EncodeToString(w.h.Sum(nil)) }

// TestLongTrajectoryIsStreamed: payload, payload --projection idj, score,
// score --json and score --steps of a 200,000-step file never hold the
// trajectory, its events or the payload (about 64 MB of it): the live
// heap stays far below that. The payload printed is the one its sha256
// on stderr names, and score names the same.
func TestLongTrajectoryIsStreamed(t *testing.T) {
	if testing.Short() {
		t.Skip("200,000 steps")
	}
	path := filepath.Join(t.TempDir(), "churn.json")
	if err := fixture.WriteChurnFile(path, 200_000); err != nil {
		t.Fatal(err)
	}
	task := example("task.json")
	const bound = 40 << 20
	var payloadHash string
	for _, args := range [][]string{
		{"payload", "--task", task, "--trajectory", path},
		{"payload", "--task", task, "--trajectory", path, "--projection", "idj"},
		{"score", "--task", task, "--trajectory", path},
		{"score", "--task", task, "--trajectory", path, "--json"},
		{"score", "--task", task, "--trajectory", path, "--steps"},
	} {
		out := newHashWriter()
		var errb bytes.Buffer
		var code int
		peak := peakHeap(func() { code = Main(args, strings.NewReader(""), out, &errb) })
		if code != ExitOK {
			t.Fatalf("%v: exit %d: %s", args[:1], code, errb.String())
		}
		t.Logf("%v: peak %d MB, printed %d MB", args[:1], peak>>20, out.n>>20)
		if peak > bound {
			t.Errorf("%v: the live heap rose %d MB printing %d MB; bound %d MB", args, peak>>20, out.n>>20, bound>>20)
		}
		switch {
		case args[0] == "payload":
			if got := errb.String(); got != "sha256 "+out.sum()+"\n" {
				t.Errorf("%v: stderr %q; the bytes printed hash to %s", args, got, out.sum())
			}
			if len(args) == 5 {
				payloadHash = out.sum()
			}
		case len(args) == 5:
			if payloadHash == "" {
				t.Fatal("no payload hash to compare")
			}
			var m bytes.Buffer
			Main(args, strings.NewReader(""), &m, &errb)
			if !strings.Contains(m.String(), "payload sha256 "+payloadHash) {
				t.Errorf("score names another payload than payload prints: %s", m.String())
			}
		}
	}
}

// TestStepsAsWhole: score --steps, as text and as JSON, written as the
// prefixes are scored, is byte for byte what tabwriter and encoding/json
// write of the whole series, on a churn long enough for every score to
// take many values and the event column several widths.
func TestStepsAsWhole(t *testing.T) {
	path := filepath.Join(t.TempDir(), "churn.json")
	if err := fixture.WriteChurnFile(path, 1200); err != nil {
		t.Fatal(err)
	}
	task := example("task.json")
	_, b, err := (&env{}).publicPayload(task, path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := payload.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	series, err := evaluators.Prefixes(p)
	if err != nil {
		t.Fatal(err)
	}
	hash := model.Hash(b)

	var text bytes.Buffer
	fmt.Fprintf(&text, "task %s   trajectory -   events %d   payload sha256 %s\n\n", p.Task, len(p.Events), hash)
	tw := tabwriter.NewWriter(&text, 0, 0, 2, ' ', 0)
	head := []string{"event", "actor", "op"}
	for _, ev := range evaluators.Deterministic() {
		head = append(head, ev.Label)
	}
	fmt.Fprintln(tw, strings.Join(head, "\t"))
	type stepJSON struct {
		Event  int                `json:"event"`
		Actor  model.Actor        `json:"actor,omitempty"`
		Op     model.Op           `json:"op,omitempty"`
		OK     bool               `json:"ok"`
		Scores map[string]float64 `json:"scores"`
	}
	doc := struct {
		Task  string     `json:"task"`
		Hash  string     `json:"payload_sha256"`
		Steps []stepJSON `json:"steps"`
	}{Task: p.Task, Hash: hash}
	for k := 0; k <= len(p.Events); k++ {
		st := stepJSON{Event: k, OK: true, Scores: map[string]float64{}}
		actor, op := "-", "initial"
		if k > 0 {
			ev := &p.Events[k-1]
			st.Actor, st.Op, st.OK = ev.Actor, ev.Op, ev.OK
			actor, op = string(ev.Actor), string(ev.Op)
			if !ev.OK {
				op += " (failed)"
			}
		}
		row := []string{strconv.Itoa(k), actor, op}
		for _, s := range series {
			st.Scores[s.Name] = s.Values[k]
			row = append(row, strconv.FormatFloat(s.Values[k], 'f', 3, 64))
		}
		fmt.Fprintln(tw, strings.Join(row, "\t"))
		doc.Steps = append(doc.Steps, st)
	}
	tw.Flush()
	var js bytes.Buffer
	if err := writeJSON(&js, doc); err != nil {
		t.Fatal(err)
	}
	for want, args := range map[string][]string{
		text.String(): {"score", "--task", task, "--trajectory", path, "--steps"},
		js.String():   {"score", "--task", task, "--trajectory", path, "--steps", "--json"},
	} {
		code, out, errOut := run(t, args...)
		if code != ExitOK || out != want {
			t.Errorf("%v: exit %d %s; output is not the whole series' (%d bytes, want %d)", args, code, errOut, len(out), len(want))
		}
	}
}

// TestAppendJSONFloat: floats are written as encoding/json writes them.
func TestAppendJSONFloat(t *testing.T) {
	for _, f := range []float64{0, 1, 0.25, 1.0 / 3, 2.0 / 3, 1e-7, 3e-10, 1e21, 123456789.125, -0.5, 5e-324} {
		var want bytes.Buffer
		if err := writeJSON(&want, f); err != nil {
			t.Fatal(err)
		}
		if got := string(appendJSONFloat(nil, f)) + "\n"; got != want.String() {
			t.Errorf("%v: %q, encoding/json %q", f, got, want.String())
		}
	}
}
