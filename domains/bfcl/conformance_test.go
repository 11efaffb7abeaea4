package bfcl

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/parthack/parthack/domains/bfcl/classes"
	"github.com/parthack/parthack/domains/bfcl/pyval"
)

// runFiles are the six real result files under dir/runs, sorted.
func runFiles(t *testing.T, dir string) []string {
	t.Helper()
	fs, err := filepath.Glob(filepath.Join(dir, "runs", "*_result.json.gz"))
	if err != nil || len(fs) != 6 {
		t.Fatalf("%s/runs: %d result files, want 6 (%v)", dir, len(fs), err)
	}
	return fs
}

var runKeyRe = regexp.MustCompile(`(gpt-oss-\d+b)-.*multi_turn_(\w+?)_result`)

// runKey names a run file by model and category: "gpt-oss-120b-base".
func runKey(f string) string {
	m := runKeyRe.FindStringSubmatch(filepath.Base(f))
	if m == nil {
		return f
	}
	return m[1] + "-" + m[2]
}

// requireClasses skips a test that replays real runs in a build without
// every class BFCL's entries involve (the ports live in their own files).
func requireClasses(t *testing.T) {
	t.Helper()
	var missing []string
	for class := range funcDocFiles {
		if _, ok := classes.Lookup(class); !ok {
			missing = append(missing, class)
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		t.Skipf("classes not ported in this build: %s", strings.Join(missing, ", "))
	}
}

// TestConformRealRuns replays the six real runs through the port: each
// file's counts, its disagreements with their causes, and every verdict
// BFCL's score file gives.
func TestConformRealRuns(t *testing.T) {
	dir := sharedBFCL(t)
	requireClasses(t)
	type counts struct{ entries, calls, callsEqual, snapshots, snapshotsEqual, valid int }
	// Every result and every snapshot equal: the port's MathAPI sums as
	// Python 3.12 does, the runs' Python (under 3.11 one
	// standard_deviation result differs in its last digit).
	want := map[string]counts{
		"gpt-oss-120b-base":       {200, 1447, 1447, 1470, 1470, 100},
		"gpt-oss-120b-miss_func":  {200, 1545, 1545, 1692, 1692, 91},
		"gpt-oss-120b-miss_param": {200, 1595, 1595, 1772, 1772, 83},
		"gpt-oss-20b-base":        {200, 1550, 1550, 1414, 1414, 95},
		"gpt-oss-20b-miss_func":   {200, 1412, 1412, 1624, 1624, 82},
		"gpt-oss-20b-miss_param":  {200, 1609, 1609, 1688, 1688, 83},
	}
	// The disagreements, each "id turn step what: cause": none.
	wantDiffs := map[string][]string{}
	for _, f := range runFiles(t, dir) {
		key := runKey(f)
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := Conform(f, fh)
		fh.Close()
		if err != nil {
			t.Fatal(err)
		}
		got := counts{rep.Entries, rep.Calls, rep.CallsEqual, rep.Snapshots, rep.SnapshotsEqual, rep.Valid}
		if got != want[key] {
			t.Errorf("%s: entries, calls, equal, snapshots, equal, valid %v; want %v", key, got, want[key])
		}
		if m := runKeyRe.FindStringSubmatch(f); rep.Category != "multi_turn_"+m[2] {
			t.Errorf("%s: category %s", key, rep.Category)
		}
		var diffs []string
		for _, d := range rep.Disagreements {
			diffs = append(diffs, fmt.Sprintf("%s %d %d %s: %s", d.ID, d.Turn, d.Step, d.What, d.Cause))
		}
		if !reflect.DeepEqual(diffs, wantDiffs[key]) {
			t.Errorf("%s: disagreements\n%s\nwant\n%s", key, strings.Join(diffs, "\n"), strings.Join(wantDiffs[key], "\n"))
		}
		sf := strings.Replace(f, "_result", "_score", 1)
		sh, err := os.Open(sf)
		if err != nil {
			t.Fatal(err)
		}
		s, err := ReadScores(sf, sh)
		sh.Close()
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range rep.AgainstScores(s) {
			t.Errorf("%s: %s: the port's verdict %s, BFCL's %s", key, d.ID, d.Got, d.Want)
		}
		var failed []string
		for _, e := range s.Failed {
			failed = append(failed, e.ID)
		}
		if !reflect.DeepEqual(rep.InvalidIDs, failed) {
			t.Errorf("%s: invalid ids differ from the score file's", key)
		}
		for _, v := range rep.Verdicts {
			if e, ok := s.ByID(v.ID); ok && e.ErrorMessage != v.ErrorMessage {
				t.Errorf("%s: %s: message %q, BFCL's %q", key, v.ID, v.ErrorMessage, e.ErrorMessage)
			}
		}
	}
}

// TestConformErrors: a file whose entries are not one category's shipped
// entries, each once, is refused at the entry's id.
func TestConformErrors(t *testing.T) {
	e0 := `{"id": "multi_turn_base_0", "result": "Error during inference: x"}`
	for _, c := range []struct{ src, want string }{
		{`{"id": "multi_turn_base_300", "result": []}`, `f.json:1:8: $.id: bfcl: no multi-turn entry "multi_turn_base_300" (ids are multi_turn_base_N, multi_turn_miss_func_N, multi_turn_miss_param_N, N from 0 to 199)`},
		{e0 + "\n" + `{"id": "multi_turn_miss_func_0", "result": "Error during inference: x"}`, `f.json:2:8: $.id: expected an entry of multi_turn_base, the category of the file's first (BFCL writes one file a category), got multi_turn_miss_func_0`},
		{e0 + "\n" + e0, `f.json:2:8: $.id: entry multi_turn_base_0 appears twice`},
	} {
		_, err := Conform("f.json", strings.NewReader(c.src))
		if err == nil || err.Error() != c.want {
			t.Errorf("%.50s…:\n got %v\nwant %s", c.src, err, c.want)
		}
	}
	rep, err := Conform("f.json", strings.NewReader(e0))
	if err != nil || rep.Entries != 1 || rep.Valid != 0 || !reflect.DeepEqual(rep.InvalidIDs, []string{"multi_turn_base_0"}) || rep.Verdicts[0].ErrorType != ErrInferenceError {
		t.Errorf("an inference error: %v %+v", err, rep)
	}
}

// TestReplay: the replay compares every logged result and snapshot with
// the port's and says why each differs: the call answered otherwise from
// a logged state, a SyntaxError worded otherwise, or an earlier
// difference it follows.
func TestReplay(t *testing.T) {
	state := func(count int64) []Snapshot {
		d := pyval.NewDict()
		d.Set("count", count)
		return []Snapshot{{Class: counter, Content: d}}
	}
	step := func(call, result string) Step {
		return Step{Decoded: []string{call}, LoggedDecoded: []string{call}, Results: []string{result}}
	}
	res := &Result{ID: "multi_turn_base_900", Logged: true, Turns: []Turn{
		{Start: state(0), Steps: []Step{step("inc(n=2)", `{"count": 2}`), step("get()", "5"), {Decoded: []string{}, LoggedDecoded: []string{}}}},
		{Start: state(2), Steps: []Step{step("inc(n=1", "Error during execution: '(' was not closed (<string>, line 9)"),
			{Decoded: []string{"get()"}, LoggedDecodeError: "Expecting value: line 1 column 1 (char 0)"}}},
		{Start: state(7), Steps: []Step{step("get()", "2")}},
	}, Final: state(2)}
	rep := &Report{}
	if err := rep.replay(counterEntry(nil, nil, nil), res); err != nil {
		t.Fatal(err)
	}
	if rep.Calls != 4 || rep.CallsEqual != 2 || rep.Snapshots != 4 || rep.SnapshotsEqual != 3 {
		t.Errorf("calls %d/%d, snapshots %d/%d", rep.CallsEqual, rep.Calls, rep.SnapshotsEqual, rep.Snapshots)
	}
	var got []string
	for _, d := range rep.Disagreements {
		got = append(got, fmt.Sprintf("%d %d %s: %s | %s | %s", d.Turn, d.Step, d.What, d.Got, d.Want, d.Cause))
	}
	want := []string{
		"0 1 call: 2 | 5 | the state before the call equals the logged one: the port's ParthackTestCounter.get answers otherwise",
		"1 0 call: Error during execution: '(' was never closed (<string>, line 1) | Error during execution: '(' was not closed (<string>, line 9) | the call is not valid Python (BFCL's eval raised SyntaxError): the port's parser words the error otherwise",
		"1 1 decode: [get()] | error: Expecting value: line 1 column 1 (char 0) | the port decodes the step otherwise than BFCL's handler logged",
		"2 0 snapshot: ParthackTestCounter.count = 2 | ParthackTestCounter.count = 7 | follows the result of turn 1 step 0 call 0",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("disagreements\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// The end state is placed at the turn that would follow the last.
	res = &Result{ID: "multi_turn_base_900", Logged: true, Turns: []Turn{{Start: state(0), Steps: []Step{step("inc(n=1)", `{"count": 1}`)}}}, Final: state(5)}
	rep = &Report{}
	if err := rep.replay(counterEntry(nil), res); err != nil {
		t.Fatal(err)
	}
	if len(rep.Disagreements) != 1 || rep.Disagreements[0].Turn != 1 || rep.Disagreements[0].Got != "ParthackTestCounter.count = 1" ||
		rep.Disagreements[0].Cause != "no call result differed before it: the port's state diverges without a visible result" {
		t.Errorf("end state: %+v", rep.Disagreements)
	}
}
