package bfcl

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestReadScores(t *testing.T) {
	good := `{"accuracy": 0.5, "correct_count": 1, "total_count": 2}
{"id": "multi_turn_base_3", "model_name": "m", "test_category": "multi_turn_base", "valid": false, "error": {"error_message": ["Model was force-terminated during inference phase."], "error_type": "multi_turn:force_terminated"}}
`
	s, err := ReadScores("s.json", strings.NewReader(good))
	if err != nil {
		t.Fatal(err)
	}
	e, ok := s.ByID("multi_turn_base_3")
	if s.Accuracy != 0.5 || s.CorrectCount != 1 || s.TotalCount != 2 || !ok || e.ErrorType != ErrForceTerminated || e.ModelName != "m" || e.Line != 2 ||
		e.ErrorMessage != "Model was force-terminated during inference phase." {
		t.Errorf("scores %+v, entry %+v", s, e)
	}
	if _, ok := s.ByID("multi_turn_base_0"); ok {
		t.Error("a valid entry is listed")
	}
	lines := strings.Split(good, "\n")
	entry := lines[1]
	for _, c := range []struct{ src, want string }{
		{"", `s.json: empty: a score file's first line is its accuracy ({"accuracy": …, "correct_count": …, "total_count": …})`},
		{`{"accuracy": 0.4, "correct_count": 1, "total_count": 2}` + "\n" + entry, `s.json:1:14: $.accuracy: expected correct_count / total_count = 1 / 2, got 0.4`},
		{`{"accuracy": 0.5, "correct_count": 1, "total_count": 2}`, `s.json:1:1: $: total_count 2 less correct_count 1 is 1 failed entries, but the file has 0`},
		{`{"accuracy": 0.5, "correct_count": "1", "total_count": 2}`, `s.json:1:36: $.correct_count: expected an integer, got "1"`},
		{lines[0] + "\n" + strings.Replace(entry, `"valid": false`, `"valid": true`, 1), fmt.Sprintf("s.json:2:%d: $.valid: expected false (a score file lists the entries that failed), got true", strings.Index(entry, `false`)+1)},
		{lines[0] + "\n" + strings.Replace(entry, `"error_type"`, `"kind"`, 1), fmt.Sprintf("s.json:2:%d: $.error: missing \"error_type\"", strings.Index(entry, `{"error_message"`)+1)},
		{lines[0] + "\n" + entry + "\n" + entry, `s.json:3:1: $: entry "multi_turn_base_3" is scored twice`},
	} {
		_, err := ReadScores("s.json", strings.NewReader(c.src))
		if err == nil || err.Error() != c.want {
			t.Errorf("%.50s…:\n got %v\nwant %s", c.src, err, c.want)
		}
	}
}

// TestRealScores reads BFCL's six score files of the real runs: the
// accuracies the bfcl README lists.
func TestRealScores(t *testing.T) {
	dir := sharedBFCL(t)
	want := map[string]int{"gpt-oss-120b-base": 100, "gpt-oss-120b-miss_func": 91, "gpt-oss-120b-miss_param": 83,
		"gpt-oss-20b-base": 95, "gpt-oss-20b-miss_func": 82, "gpt-oss-20b-miss_param": 83}
	for _, f := range runFiles(t, dir) {
		sf := strings.Replace(f, "_result", "_score", 1)
		fh, err := os.Open(sf)
		if err != nil {
			t.Fatal(err)
		}
		s, err := ReadScores(sf, fh)
		fh.Close()
		if err != nil {
			t.Fatal(err)
		}
		if w := want[runKey(f)]; s.CorrectCount != w || s.TotalCount != 200 || len(s.Failed) != 200-w {
			t.Errorf("%s: %d/%d correct, %d failed listed; want %d/200", sf, s.CorrectCount, s.TotalCount, len(s.Failed), w)
		}
	}
}
