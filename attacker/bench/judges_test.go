package bench

import (
	"bytes"
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/parthack/parthack/evaluators"
	"github.com/parthack/parthack/evaluators/llm"
	"github.com/parthack/parthack/internal/llmclient"
	"github.com/parthack/parthack/internal/payload"
	"github.com/parthack/parthack/report"
	"github.com/parthack/parthack/tasks"
)

// judgeTasks are three held-out tasks: one without a strict rollback
// (PH-H01) and two with one.
func judgeTasks(t *testing.T) []*tasks.Task {
	t.Helper()
	var ts []*tasks.Task
	for _, id := range []string{"PH-H01", "PH-H04", "PH-H05"} {
		x, err := tasks.Get(id)
		if err != nil {
			t.Fatal(err)
		}
		ts = append(ts, x)
	}
	return ts
}

// fakeJudge scores a payload through fn and counts its calls per task;
// a task's calls come one at a time, so the n-th call of a task is
// always about the same trajectory.
type fakeJudge struct {
	mu    sync.Mutex
	calls map[string]int
	fn    func(task string, call int, p *payload.Payload) (float64, error)
}

func (f *fakeJudge) judge(target string) Judge {
	f.calls = map[string]int{}
	return Judge{Target: target, Score: func(_ context.Context, b []byte) (float64, error) {
		p, err := payload.Decode(b)
		if err != nil {
			return 0, err
		}
		f.mu.Lock()
		f.calls[p.Task]++
		n := f.calls[p.Task]
		f.mu.Unlock()
		return f.fn(p.Task, n, p)
	}}
}

// twin is a fake judge that scores as deterministic evaluator e does.
func twin(e int) *fakeJudge {
	return &fakeJudge{fn: func(_ string, _ int, p *payload.Payload) (float64, error) {
		ss, err := evaluators.ScoreAll(p)
		if err != nil {
			return 0, err
		}
		return ss[e].Value, nil
	}}
}

func evaluatorIndex(t *testing.T, name string) int {
	t.Helper()
	i := slices.IndexFunc(evaluators.Deterministic(), func(e evaluators.Evaluator) bool { return e.Name == name })
	if i < 0 {
		t.Fatalf("no evaluator %s", name)
	}
	return i
}

// TestRunJudges runs the benchmark with two fake judges that score as
// CSPS and Historical Milestone do: their shared rows must be those
// evaluators' shared rows, which shows they scored H, A_ref and R from
// the same payload bytes, and nothing else changes.
func TestRunJudges(t *testing.T) {
	ts := judgeTasks(t)
	evs := evaluators.Deterministic()
	twins := []string{"csps", ReferenceTarget}
	fakes := []*fakeJudge{twin(evaluatorIndex(t, twins[0])), twin(evaluatorIndex(t, twins[1]))}
	opt := RunOptions{Edits: 1, Workers: 2, Judges: []Judge{fakes[0].judge(report.TargetJudge), fakes[1].judge(report.TargetIDJ)}}
	var lines []string
	l, err := Run(context.Background(), ts, opt, func(s string) { lines = append(lines, s) })
	if err != nil {
		t.Fatal(err)
	}
	n := len(evs) * len(ts)
	if len(l.Rows) != 2*n+2*len(ts) {
		t.Fatalf("%d rows, want %d", len(l.Rows), 2*n+2*len(ts))
	}
	if len(lines) != n+2*len(ts) {
		t.Errorf("%d progress lines, want one per search and one per judge and task", len(lines))
	}
	plain, err := Run(context.Background(), ts, RunOptions{Edits: 1, Workers: 2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The deterministic rows are those of a run without judges; the
	// judges' rows sit between the shared and the targeted set.
	if !reflect.DeepEqual(append(l.Rows[:n:n], l.Rows[n+2*len(ts):]...), plain.Rows) {
		t.Errorf("the judges changed the deterministic rows")
	}
	for j, target := range []string{report.TargetJudge, report.TargetIDJ} {
		for i, task := range ts {
			got := l.Rows[n+j*len(ts)+i]
			want := l.Rows[evaluatorIndex(t, twins[j])*len(ts)+i]
			want.Target = target
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s %s: row %+v, want %+v", target, task.ID, got, want)
			}
			calls := 2 // H and A_ref: every task here has an adversary
			if task.RollbackTrajectory != nil {
				calls++
			}
			if fakes[j].calls[task.ID] != calls {
				t.Errorf("%s %s: %d calls, want %d", target, task.ID, fakes[j].calls[task.ID], calls)
			}
		}
	}
	if _, err := report.ReadJSON("run.json", []byte(ledgerBytes(t, l))); err != nil {
		t.Fatal(err)
	}
	// The judges are labelled and in the shared-set and rollback tables
	// with their twins' cells, and the targeted table says why they are
	// not in it.
	tables := report.Compute(l).Tables()
	byID := map[string]report.Table{}
	for _, tb := range tables {
		byID[tb.ID] = tb
	}
	for _, id := range []string{"shared", "rollback"} {
		rows := byID[id].Rows
		for j, label := range []string{"LLM judge (schema-aware)", "IDJ"} {
			got := rows[len(evs)+j]
			want := slices.Clone(rows[evaluatorIndex(t, twins[j])])
			want[0] = label
			if !slices.Equal(got, want) {
				t.Errorf("%s table: %q, want %q", id, got, want)
			}
		}
	}
	if note := byID["targeted"].Note; !strings.Contains(note, "LLM judge (schema-aware) and IDJ: shared set only, no target-specific rows") {
		t.Errorf("targeted table note: %s", note)
	}
	// One worker gives the same ledger.
	opt.Workers = 1
	opt.Judges = []Judge{twin(evaluatorIndex(t, twins[0])).judge(report.TargetJudge), twin(evaluatorIndex(t, twins[1])).judge(report.TargetIDJ)}
	l1, err := Run(context.Background(), ts, opt, nil)
	if err != nil {
		t.Fatal(err)
	}
	if ledgerBytes(t, l1) != ledgerBytes(t, l) {
		t.Errorf("the ledger with judges depends on the number of workers")
	}
}

// TestRunJudgeFailures: a judge call that failed after its retry leaves
// that one score out of the row and says why; other errors stop the run.
func TestRunJudgeFailures(t *testing.T) {
	ts := judgeTasks(t)
	// Per task, the call that fails: H is call 1, A_ref 2, R 3.
	failOn := map[string]int{"PH-H05": 1, "PH-H01": 2, "PH-H04": 3}
	transport := fmt.Errorf("%w: HTTP 503: busy", llmclient.ErrTransport)
	schema := &llmclient.CallError{Call: llm.CallJudge, Attempts: []error{
		fmt.Errorf("%w: missing key %q", llmclient.ErrSchema, "score"), fmt.Errorf("%w: missing key %q", llmclient.ErrSchema, "score")}}
	fake := &fakeJudge{fn: func(task string, call int, _ *payload.Payload) (float64, error) {
		switch {
		case call != failOn[task]:
			return .5, nil
		case task == "PH-H01":
			return 0, schema
		}
		return 0, transport
	}}
	l, err := Run(context.Background(), ts, RunOptions{Edits: 1, Judges: []Judge{fake.judge(report.TargetJudge)}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	n := len(evaluators.Deterministic()) * len(ts)
	rows := l.Rows[n : n+len(ts)]
	// The first deterministic rows hold each task's P_state and search
	// accounting, in task order.
	half, zero := .5, 0.0
	want := []report.Row{
		{Target: report.TargetJudge, Set: report.SetShared, Task: "PH-H01", Matched: true, Honest: &half, PStateH: l.Rows[0].PStateH,
			Attempts: l.Rows[0].Attempts, Valid: l.Rows[0].Valid, Error: "A: " + schema.Error()},
		{Target: report.TargetJudge, Set: report.SetShared, Task: "PH-H04", Matched: true, Delta: &zero, Honest: &half, PStateH: l.Rows[1].PStateH,
			PStateR: l.Rows[1].PStateR, Attempts: l.Rows[1].Attempts, Valid: l.Rows[1].Valid, Error: "R: " + transport.Error()},
		{Target: report.TargetJudge, Set: report.SetShared, Task: "PH-H05", Matched: true, Rollback: &half, PStateH: l.Rows[2].PStateH,
			PStateR: l.Rows[2].PStateR, Attempts: l.Rows[2].Attempts, Valid: l.Rows[2].Valid, Error: "H: " + transport.Error()},
	}
	if !reflect.DeepEqual(rows, want) {
		t.Errorf("rows\n%+v\nwant\n%+v", rows, want)
	}
	// The ledger with its errors survives both formats.
	for _, name := range []string{"run.json", "run.csv"} {
		var b bytes.Buffer
		if err := report.Write(&b, name, l); err != nil {
			t.Fatal(err)
		}
		back, err := report.Read(name, b.Bytes())
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !reflect.DeepEqual(back, l) {
			t.Errorf("%s: the ledger does not read back", name)
		}
	}
	g := report.Compute(l).Groups[len(evaluators.Deterministic())]
	if g.Target != report.TargetJudge || g.Unscored != 3 || g.Matched != 3 || g.ASR.N != 1 || g.Rollback.Pairs != 0 || g.Yield.N != 3 {
		t.Errorf("judge group %+v", g)
	}

	// Errors that are not a failed call stop the run.
	for _, c := range []struct {
		name string
		fn   func(string, int, *payload.Payload) (float64, error)
		want string
	}{
		{"cancelled", func(string, int, *payload.Payload) (float64, error) { return 0, context.Canceled }, "llm_judge scoring H: context canceled"},
		{"replay miss", func(string, int, *payload.Payload) (float64, error) {
			return 0, &llmclient.CallError{Call: llm.CallJudge, Attempts: []error{llmclient.ErrNoRecording}}
		}, "no recorded response"},
		{"out of range", func(string, int, *payload.Payload) (float64, error) { return 1.5, nil }, "llm_judge scored H 1.5, outside [0, 1]"},
	} {
		f := &fakeJudge{fn: c.fn}
		_, err := Run(context.Background(), ts[:1], RunOptions{Edits: 1, Judges: []Judge{f.judge(report.TargetJudge)}}, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "PH-H01: ") {
			t.Errorf("%s: %v, want an error with %q", c.name, err, c.want)
		}
	}
}

// TestRunJudgeNoAdversary: without an adversary the judge is not asked
// about one, and the row is unmatched like the others.
func TestRunJudgeNoAdversary(t *testing.T) {
	ts := judgeTasks(t)[1:2] // PH-H04 has a strict rollback
	f := twin(evaluatorIndex(t, "csps"))
	l, err := Run(context.Background(), ts, RunOptions{Edits: 1, MaxStates: 1, Judges: []Judge{f.judge(report.TargetJudge)}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	n := len(evaluators.Deterministic())
	if r := l.Rows[n]; r.Target != report.TargetJudge || r.Matched || r.Delta != nil || r.Rollback == nil || r.Honest == nil {
		t.Fatalf("judge row %+v", r)
	}
	if f.calls["PH-H04"] != 2 {
		t.Errorf("%d calls, want H and R only", f.calls["PH-H04"])
	}
}
