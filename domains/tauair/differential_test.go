package tauair

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/parthack/parthack/model"
)

// pyCall is a tool call as scripts/tau_differential.py takes it.
type pyCall struct {
	Name   string          `json:"name"`
	Kwargs json.RawMessage `json:"kwargs"`
}

type pySeq struct {
	Name  string   `json:"name"`
	Calls []pyCall `json:"calls"`
	Hash  bool     `json:"hash"` // ask for tau-bench's data hash (half a second in Python)
}

type pyOutcome struct {
	Name    string                     `json:"name"`
	Outputs []string                   `json:"outputs"`
	Records map[string]json.RawMessage `json:"records"`
	Hash    string                     `json:"hash"`
}

// TestDifferential runs call sequences the corpus does not hold through
// tau-bench's own Python tools and through the Go port, and asks the same
// output or error text from every call (sameOutput), the same records written, and on
// every 20th sequence the same data hash of the whole database.
// The sequences are what the search attacker builds: every goal task's
// gold run and GPT-4o runs with each call of its attack alphabet
// (AttackTask) appended, prepended, and appended after another. It needs
// a tau-bench checkout: TAU_BENCH_DIR=path (scripts/tau-differential.sh
// clones one); without it the test is skipped.
func TestDifferential(t *testing.T) {
	dir := os.Getenv("TAU_BENCH_DIR")
	if dir == "" {
		t.Skip("TAU_BENCH_DIR is not set: run scripts/tau-differential.sh")
	}
	seqs := attackSequences(t)
	outcomes := runPython(t, dir, seqs)
	env, d := baseWorld(t)
	records, hashes := 0, 0
	for i, seq := range seqs {
		want := outcomes[i]
		run := env.Begin(len(seq.Calls))
		for k, c := range seq.Calls {
			st, err := StepOf(&Call{Name: c.Name, Kwargs: c.Kwargs}, k)
			if err != nil {
				t.Fatalf("%s: %v", seq.Name, err)
			}
			run.Step(&st)
			ev := &run.Events()[len(run.Events())-1]
			got := run.Output(ev)
			if !ev.OK {
				got = run.Reason(ev)
			}
			if !sameOutput(got, want.Outputs[k]) {
				t.Fatalf("%s, call %d %s(%s):\n  Go:        %.300q\n  tau-bench: %.300q", seq.Name, k+1, c.Name, c.Kwargs, got, want.Outputs[k])
			}
		}
		log := run.Finish()
		var changed []model.CellDiff
		for k := range log.Events {
			changed = append(changed, log.TypedDiff(&log.Events[k])...)
		}
		for _, r := range d.changedRoots(changed) {
			if _, ok := want.Records[r]; !ok {
				t.Fatalf("%s: we changed %s, which no call of it names", seq.Name, r)
			}
		}
		for r, raw := range want.Records {
			rec, err := decode(string(raw))
			if err != nil {
				t.Fatal(err)
			}
			if path := firstDifference(r, rec, d.root(log.View(), r)); path != "" {
				t.Fatalf("%s: the records differ first at %s", seq.Name, path)
			}
			records++
		}
		if seq.Hash {
			hashes++
			if got := d.DataHash(log.View(), changed); got != want.Hash {
				t.Fatalf("%s: data hash %s, tau-bench %s", seq.Name, got, want.Hash)
			}
		}
	}
	t.Logf("%d sequences, %d calls, %d records written and %d data hashes agree with tau-bench", len(seqs), countCalls(seqs), records, hashes)
}

func countCalls(seqs []pySeq) int {
	n := 0
	for _, s := range seqs {
		n += len(s.Calls)
	}
	return n
}

// attackSequences builds the sequences: for each goal task and each of its
// runs (gold, trial0…3) h, with A the attack alphabet at h's end: h, h+a
// and a+h for every a in A, and h+a+b for consecutive a, b of A.
func attackSequences(t *testing.T) []pySeq {
	ts, err := Tasks()
	if err != nil {
		t.Fatal(err)
	}
	runs, err := AgentRuns()
	if err != nil {
		t.Fatal(err)
	}
	var out []pySeq
	for _, task := range ts {
		if task.M() == 0 {
			continue
		}
		env, err := task.Env()
		if err != nil {
			t.Fatal(err)
		}
		hs := map[string][]Call{"gold": task.Gold.Steps}
		names := []string{"gold"}
		for i := range runs {
			if runs[i].TaskID == task.Index {
				calls, err := runs[i].Calls()
				if err != nil {
					t.Fatal(err)
				}
				hs[runs[i].Name()] = calls
				names = append(names, runs[i].Name())
			}
		}
		for _, name := range names {
			h := pyCalls(hs[name])
			tr := &model.Trajectory{}
			for k := range hs[name] {
				if st, err := StepOf(&hs[name][k], k); err == nil {
					tr.Steps = append(tr.Steps, st)
				}
			}
			alphabet := task.AttackTask(env.Replay(tr.Steps).View()).Calls
			base := fmt.Sprintf("%s %s", task.ID, name)
			out = append(out, pySeq{Name: base, Calls: h})
			for k, a := range alphabet {
				pa := pyCall{Name: a.Tool, Kwargs: json.RawMessage(a.Args.AsString())}
				out = append(out,
					pySeq{Name: fmt.Sprintf("%s + %s #%d", base, a.Tool, k), Calls: append(append([]pyCall(nil), h...), pa)},
					pySeq{Name: fmt.Sprintf("%s #%d + %s", a.Tool, k, base), Calls: append([]pyCall{pa}, h...)})
				if k+1 < len(alphabet) {
					b := alphabet[k+1]
					pb := pyCall{Name: b.Tool, Kwargs: json.RawMessage(b.Args.AsString())}
					out = append(out, pySeq{Name: fmt.Sprintf("%s + #%d + #%d", base, k, k+1), Calls: append(append([]pyCall(nil), h...), pa, pb)})
				}
			}
		}
	}
	for i := range out {
		out[i].Hash = i%20 == 0
	}
	return out
}

// sameOutput compares a tool's output: the same text, or the same JSON
// document with its keys in another order. The port renders records with
// sorted keys where tau-bench keeps Python's insertion order (documented
// in corpus/PROVENANCE.md); numbers keep their int or float form.
func sameOutput(ours, theirs string) bool {
	if ours == theirs {
		return true
	}
	a, errA := decode(ours)
	b, errB := decode(theirs)
	return errA == nil && errB == nil && string(appendJSON(nil, a, false)) == string(appendJSON(nil, b, false))
}

// pyCalls keeps the calls whose arguments decode as an object: the
// others fail to parse in tau-bench's agent loop before any tool runs.
func pyCalls(calls []Call) []pyCall {
	out := []pyCall{}
	for i := range calls {
		if _, err := StepOf(&calls[i], i); err == nil {
			out = append(out, pyCall{Name: calls[i].Name, Kwargs: calls[i].Kwargs})
		}
	}
	return out
}

// runPython runs the sequences through scripts/tau_differential.py.
func runPython(t *testing.T, dir string, seqs []pySeq) []pyOutcome {
	_, file, _, _ := runtime.Caller(0)
	script := filepath.Join(filepath.Dir(file), "..", "..", "scripts", "tau_differential.py")
	var in bytes.Buffer
	for _, s := range seqs {
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		in.Write(append(b, '\n'))
	}
	cmd := exec.Command("python3", script, dir)
	cmd.Stdin = &in
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("tau_differential.py: %v\n%s", err, stderr.String())
	}
	var res []pyOutcome
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<26)
	for sc.Scan() {
		var o pyOutcome
		if err := json.Unmarshal(sc.Bytes(), &o); err != nil {
			t.Fatal(err)
		}
		res = append(res, o)
	}
	if len(res) != len(seqs) {
		t.Fatalf("tau-bench answered %d of %d sequences", len(res), len(seqs))
	}
	return res
}
