package bfcl

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/parthack/parthack/model"
)

// witnessH is a hand-made run of multi_turn_base_0 in BFCL's shape: a
// step of two parallel calls, a step of one dict with two calls, an empty
// response, a text answer, a bare dict as a step.
const witnessH = `{"id": "multi_turn_base_0", "result": [` +
	`[[{"ls": "{\"a\": false}"}, {"cd": "{\"folder\": \"document\"}"}], [{"mkdir": "{\"dir_name\": \"temp\"}", "ls": "{}"}], []], ` +
	`[[{"cd": "{\"folder\": \"temp\"}"}], "Done."], ` +
	`[[]], ` +
	`[{"pwd": "{}"}, []]], "input_token_count": [[1, 2, 3], [4, 5], [6], [7, 8]], "latency": [[0.5, 0.5, 0.5], [0.5, 0.5], [0.5], [0.5, 0.5]]}`

// readOne reads the one entry of a result line.
func readOne(t *testing.T, line string) *Result {
	t.Helper()
	rs, err := readAll(t, []byte(line))
	if err != nil || len(rs) != 1 {
		t.Fatalf("%d entries, %v", len(rs), err)
	}
	return rs[0]
}

// member is the text of a top-level member of a one-line entry, as the
// line has it.
func member(t *testing.T, line, key string) string {
	t.Helper()
	c, err := parseLine("r.json", line, 1)
	if err != nil {
		t.Fatal(err)
	}
	for i, k := range c.n.keys {
		if k == key {
			it := c.n.items[i]
			return line[it.off:it.end]
		}
	}
	return ""
}

// agentCall is an agent's call of the witness.
func agentCall(tool, args string) model.Step {
	return model.Step{Action: model.Action{Op: model.OpCall, Tool: tool, Args: model.MustJSON(args)}}
}

// sameSteps says two trajectories' steps are the same actors' same calls.
func sameSteps(a, b []model.Step) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !model.SameStep(&a[i], &b[i]) {
			return false
		}
	}
	return true
}

// TestWitnessOfH: H as its own witness is H's result, byte for byte (its
// token counts and latencies left out), and reads back as H.
func TestWitnessOfH(t *testing.T) {
	res := readOne(t, witnessH)
	e, err := EntryByID(res.ID)
	if err != nil {
		t.Fatal(err)
	}
	h, err := Trajectory(res, e)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := Witness(res, e, h)
	if err != nil {
		t.Fatal(err)
	}
	line := string(rec)
	if got, want := member(t, line, "result"), member(t, witnessH, "result"); got != want {
		t.Errorf("result\n got %s\nwant %s", got, want)
	}
	if want := `{"id": "multi_turn_base_0", "result": ` + member(t, witnessH, "result") + `}`; line != want {
		t.Errorf("record\n got %s\nwant %s", line, want)
	}
	back, err := Trajectory(readOne(t, line), e)
	if err != nil {
		t.Fatal(err)
	}
	if !sameSteps(back.Steps, h.Steps) {
		t.Errorf("read back %v, want H's %v", back.Steps, h.Steps)
	}
}

// TestWitnessInsertsAndDrops: each inserted call is a step of its own
// after the step of the kept call before it, splitting a step of parallel
// calls where it falls between them; a dropped call leaves its step (and
// a step left empty goes); the closing responses stay. The record reads
// back as the witness, and its log is true of it: every call and snapshot
// replays equal.
func TestWitnessInsertsAndDrops(t *testing.T) {
	res := readOne(t, witnessH)
	e, err := EntryByID(res.ID)
	if err != nil {
		t.Fatal(err)
	}
	// As if H's log held its queries and a snapshot at every turn's start
	// and after the last: the witness's log then holds them too.
	res.Logged = true
	for i := range res.Turns {
		res.Turns[i].Start = []Snapshot{}
		res.Turns[i].Query = e.Question[i]
	}
	res.Final = []Snapshot{}
	u := UserStep
	a := &model.Trajectory{Task: e.ID, Steps: []model.Step{
		u(0),
		agentCall("du", `{"human_readable": true}`), // at the turn's start
		agentCall("ls", `{"a": false}`),
		agentCall("ls", `{"a": true}`), // between two parallel calls
		agentCall("cd", `{"folder": "document"}`),
		// mkdir dropped from its step
		agentCall("ls", `{}`),
		agentCall("touch", `{"file_name": "n.txt"}`), // after the turn's last call, before its empty response
		u(1),
		// cd dropped: its step goes, the text answer stays
		u(2),
		u(3),
		agentCall("pwd", `{}`),
		agentCall("cat", `{"file_name": "final_report.pdf"}`), // after a bare dict's call
	}}
	rec, err := Witness(res, e, a)
	if err != nil {
		t.Fatal(err)
	}
	line := string(rec)
	want := `[` +
		`[[{"du": "{\"human_readable\":true}"}], [{"ls": "{\"a\": false}"}], [{"ls": "{\"a\":true}"}], [{"cd": "{\"folder\": \"document\"}"}], [{"ls": "{}"}], [{"touch": "{\"file_name\":\"n.txt\"}"}], []], ` +
		`["Done."], ` +
		`[[]], ` +
		`[{"pwd": "{}"}, [{"cat": "{\"file_name\":\"final_report.pdf\"}"}], []]]`
	if got := member(t, line, "result"); got != want {
		t.Errorf("result\n got %s\nwant %s", got, want)
	}
	if strings.Contains(line, "\n") || member(t, line, "latency") != "" || member(t, line, "input_token_count") != "" {
		t.Errorf("record is not one line without H's token counts and latencies: %s", line)
	}
	back := readOne(t, line)
	tr, err := Trajectory(back, e)
	if err != nil {
		t.Fatal(err)
	}
	if !sameSteps(tr.Steps, a.Steps) {
		t.Errorf("read back\n%v\nwant\n%v", tr.Steps, a.Steps)
	}
	rep, err := Conform("w.bfcl.json", strings.NewReader(line))
	if err != nil {
		t.Fatal(err)
	}
	// 8 calls; 2 stateful classes at 4 turns' starts and after the last.
	if rep.Calls != 8 || rep.CallsEqual != 8 || rep.Snapshots != 10 || rep.SnapshotsEqual != 10 || len(rep.Disagreements) != 0 {
		t.Errorf("conformance: calls %d/%d, snapshots %d/%d, %v", rep.CallsEqual, rep.Calls, rep.SnapshotsEqual, rep.Snapshots, rep.Disagreements)
	}
	if q := member(t, line, "inference_log"); !strings.Contains(q, `"begin_of_turn_query": [{"role": "user", "content": `) ||
		!strings.Contains(q, `{"role": "handler_log", "content": "Error decoding the model response. Proceed to next turn.", "error": "'str' object has no attribute 'items'"}`) {
		t.Errorf("log: %s", q)
	}
}

// TestWitnessRefuses: a trajectory BFCL could not have recorded as a run
// of H's entry is a clear error.
func TestWitnessRefuses(t *testing.T) {
	res := readOne(t, witnessH)
	e, err := EntryByID(res.ID)
	if err != nil {
		t.Fatal(err)
	}
	u := UserStep
	ls := agentCall("ls", `{"a": false}`)
	for _, c := range []struct {
		name  string
		res   string
		steps []model.Step
		want  string
	}{
		{"a user turn dropped", witnessH, []model.Step{u(0), ls, u(1), u(3)}, "drops or moves user turn 2"},
		{"a user turn added", witnessH, []model.Step{u(0), u(1), u(2), u(3), u(4)}, "a user's turn H does not have"},
		{"a call before the first turn", witnessH, []model.Step{agentCall("pwd", `{"x": 1}`), u(0), u(1), u(2), u(3)}, "before the first user turn"},
		{"arguments no object", witnessH, []model.Step{u(0), agentCall("pwd", `[1]`), u(1), u(2), u(3)}, "no JSON object"},
		{"an inference error", `{"id": "multi_turn_base_0", "result": "Error code: 500"}`, nil, "inference failed"},
	} {
		r := readOne(t, c.res)
		_, err := Witness(r, e, &model.Trajectory{Task: e.ID, Steps: c.steps})
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "entry multi_turn_base_0: ") {
			t.Errorf("%s: %v, want …%s…", c.name, err, c.want)
		}
	}
}

// TestWitnessOfRealRuns: on the staged runs, H as its own witness is its
// entry's line less token counts and latencies, byte for byte, its
// inference_log written by replaying H through the port; the runs BFCL
// ended itself are refused.
func TestWitnessOfRealRuns(t *testing.T) {
	dir := sharedBFCL(t)
	requireClasses(t)
	written, refused := 0, 0
	for _, f := range runFiles(t, dir) {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		z, err := gzip.NewReader(fh)
		if err != nil {
			t.Fatal(err)
		}
		br := bufio.NewReaderSize(z, 1<<20)
		for n := 1; ; n++ {
			line, err := br.ReadString('\n')
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			line = strings.TrimSuffix(line, "\n")
			res := readOne(t, line)
			e, err := EntryByID(res.ID)
			if err != nil {
				t.Fatal(err)
			}
			h, err := Trajectory(res, e)
			if err != nil {
				t.Fatal(err)
			}
			rec, err := Witness(res, e, h)
			if res.Failed || res.ForceQuit {
				if err == nil {
					t.Errorf("%s:%d: a run BFCL ended itself is recorded", f, n)
				}
				refused++
				continue
			}
			if err != nil {
				t.Errorf("%s:%d: %v", f, n, err)
				continue
			}
			want := `{"id": ` + member(t, line, "id") + `, "result": ` + member(t, line, "result") + `, "inference_log": ` + member(t, line, "inference_log") + `}`
			if !bytes.Equal(rec, []byte(want)) {
				t.Errorf("%s:%d (%s): the record of H is not its entry less token counts and latencies", f, n, res.ID)
			}
			written++
		}
		fh.Close()
	}
	// 1,200 entries: 42 inference errors and 22 force-quit.
	if written != 1136 || refused != 64 {
		t.Errorf("%d recorded, %d refused; want 1136 and 64", written, refused)
	}
}
