package cli

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"text/tabwriter"

	"github.com/parthack/parthack/evaluators"
	"github.com/parthack/parthack/internal/fixture"
	"github.com/parthack/parthack/internal/payload"
	"github.com/parthack/parthack/internal/worker"
	"github.com/parthack/parthack/model"
)

// hashWriter keeps the sha256 and the length of what is written, and
// nothing else.
type hashWriter struct {
	h hash.Hash
	n int
}

func newHashWriter() *hashWriter { return &hashWriter{h: sha256.New()} }

func (w *hashWriter) Write(b []byte) (int, error) { w.n += len(b); return w.h.Write(b) }
func (w *hashWriter) sum() string                 { return hex.EncodeToString(w.h.Sum(nil)) }

// childArgs names the environment variable that makes this test binary a
// parthack process of its own, for TestLongTrajectoryIsStreamed to
// measure: the command's arguments, separated by newlines.
const childArgs = "PARTHACK_TEST_CHILD_ARGS"

// childPeak names the file a child writes its peak RSS to, as
// /proc/self/status has it (VmHWM): the rusage its parent gets counts
// the parent's memory, which the child shared until it executed.
const childPeak = "PARTHACK_TEST_CHILD_PEAK"

// TestMain runs the binary as parthack when childArgs is set, and as
// the worker's launcher when the worker starts it as one.
func TestMain(m *testing.M) {
	worker.LaunchIfRequested()
	if args := os.Getenv(childArgs); args != "" {
		code := Main(strings.Split(args, "\n"), os.Stdin, os.Stdout, os.Stderr)
		status, err := os.ReadFile("/proc/self/status")
		if err == nil {
			for line := range strings.Lines(string(status)) {
				if strings.HasPrefix(line, "VmHWM:") {
					err = os.WriteFile(os.Getenv(childPeak), []byte(strings.TrimSpace(strings.TrimPrefix(line, "VmHWM:"))), 0o644)
				}
			}
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			code = 3
		}
		os.Exit(code)
	}
	os.Exit(m.Run())
}

// runChild runs parthack with args in a process of its own and returns
// its exit code, stdout's sha256 and length, stderr and peak RSS.
func runChild(t *testing.T, args ...string) (code int, out *hashWriter, errOut string, peakRSS int64) {
	t.Helper()
	peak := filepath.Join(t.TempDir(), "peak")
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), childArgs+"="+strings.Join(args, "\n"), childPeak+"="+peak)
	out = newHashWriter()
	var errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = out, &errb
	err := cmd.Run()
	if ee := (*exec.ExitError)(nil); err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	hwm, err := os.ReadFile(peak)
	if err != nil {
		t.Fatalf("%v: %s", err, errb.String())
	}
	kb, err := strconv.ParseInt(strings.TrimSuffix(string(hwm), " kB"), 10, 64)
	if err != nil {
		t.Fatalf("VmHWM %q: %v", hwm, err)
	}
	return cmd.ProcessState.ExitCode(), out, errb.String(), kb << 10
}

// TestLongTrajectoryIsStreamed: payload, payload --projection idj, score,
// score --json and score --steps of a 200,000-step file (16 MB) hold
// neither the trajectory, nor its events, nor the payload (61 MB of it):
// the whole process's peak RSS stays far below what holding them takes.
// The payload printed is the one its sha256 on stderr names, and score
// names the same.
func TestLongTrajectoryIsStreamed(t *testing.T) {
	if testing.Short() {
		t.Skip("200,000 steps")
	}
	path := filepath.Join(t.TempDir(), "churn.json")
	if err := fixture.WriteChurnFile(path, 200_000); err != nil {
		t.Fatal(err)
	}
	task := example("task.json")
	const bound = 100 << 20
	var payloadHash string
	for _, args := range [][]string{
		{"payload", "--task", task, "--trajectory", path},
		{"payload", "--task", task, "--trajectory", path, "--projection", "idj"},
		{"score", "--task", task, "--trajectory", path},
		{"score", "--task", task, "--trajectory", path, "--json"},
		{"score", "--task", task, "--trajectory", path, "--steps"},
	} {
		code, out, errOut, rss := runChild(t, args...)
		if code != ExitOK {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		t.Logf("%s: peak RSS %d MB, printed %d MB", strings.Join(args, " "), rss>>20, out.n>>20)
		if rss > bound && !raceEnabled {
			t.Errorf("%v: peak RSS %d MB printing %d MB; bound %d MB", args, rss>>20, out.n>>20, bound>>20)
		}
		switch {
		case args[0] == "payload":
			if errOut != "sha256 "+out.sum()+"\n" {
				t.Errorf("%v: stderr %q; the bytes printed hash to %s", args, errOut, out.sum())
			}
			if len(args) == 5 {
				payloadHash = out.sum()
			}
		case len(args) == 5:
			_, text, _ := run(t, args...)
			if payloadHash == "" || !strings.Contains(text, "payload sha256 "+payloadHash) {
				t.Errorf("score names another payload than payload prints (%s): %s", payloadHash, text)
			}
		}
	}
}

// TestStepsAsWhole: score --steps, as text and as JSON, written as the
// prefixes are scored, is byte for byte what tabwriter and encoding/json
// write of the whole series, on a churn long enough for every score to
// take many values and the event column several widths, and on one whose
// failed steps name ops that are not ASCII or hold a tab.
func TestStepsAsWhole(t *testing.T) {
	path := filepath.Join(t.TempDir(), "churn.json")
	if err := fixture.WriteChurnFile(path, 1200); err != nil {
		t.Fatal(err)
	}
	odd := fixture.Churn(40)
	odd[7].Op, odd[9].Op = "été", "up\tdate"
	oddPath := filepath.Join(t.TempDir(), "odd.json")
	if err := os.WriteFile(oddPath, model.EncodeTrajectory(&model.Trajectory{Task: "EX-01", Steps: odd}), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{path, oddPath} {
		stepsAsWhole(t, path)
	}
}

func stepsAsWhole(t *testing.T, path string) {
	t.Helper()
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
	if strings.Contains(path, "odd") && !strings.Contains(text.String(), "date (failed)") {
		t.Fatalf("%s: no odd op in the table", path)
	}
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
