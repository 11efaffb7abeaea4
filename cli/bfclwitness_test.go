package cli

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parthack/parthack/domains/bfcl"
	"github.com/parthack/parthack/model"
)

// bfclRun is the line of one entry of a staged BFCL result file, from the
// nearest shared/realworld/bfcl above the package ($BFCL_DIR where set);
// the test is skipped with a note where there is none (BFCL's runs are
// test data, not shipped).
func bfclRun(t *testing.T, file, id string) string {
	t.Helper()
	dir := os.Getenv("BFCL_DIR")
	for d, _ := filepath.Abs("."); dir == ""; d = filepath.Dir(d) {
		if cand := filepath.Join(d, "shared", "realworld", "bfcl"); fileExists(filepath.Join(cand, "runs", file)) {
			dir = cand
		} else if filepath.Dir(d) == d {
			t.Skip("no shared/realworld/bfcl above this package and BFCL_DIR unset: BFCL's runs are test data read from ../shared, not shipped")
		}
	}
	f, err := os.Open(filepath.Join(dir, "runs", file))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(z)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), `{"id": "`+id+`"`) {
			return sc.Text() + "\n"
		}
	}
	t.Fatalf("%s: no entry %s (%v)", file, id, sc.Err())
	return ""
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// TestBFCLWitnessRecords: bench --witnesses over a BFCL result file writes
// each witness beside its trajectory as one BFCL result entry, one line
// (RUN.TARGET.bfcl.json, the name the differential script reads), which
// reads back as the witness, replays with every call and snapshot of its
// log equal, and claims what the checker gives it.
func TestBFCLWitnessRecords(t *testing.T) {
	line := bfclRun(t, "gpt-oss-120b-2025-11-12-main-multi_turn_base_result.json.gz", "multi_turn_base_84")
	runs := filepath.Join(t.TempDir(), "gpt-oss-120b-multi_turn_base_result.json")
	if err := os.WriteFile(runs, []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "w")
	if code, _, errs := run(t, "bench", "--domain", "bfcl-multi-turn", "--runs", runs, "--witnesses", dir); code != 0 {
		t.Fatalf("bench: exit %d\n%s", code, errs)
	}
	index := readWitnessIndex(t, dir)
	if len(index.Witnesses) == 0 {
		t.Fatal("no witnesses")
	}
	var h *model.Trajectory
	if err := bfcl.StreamResults(runs, strings.NewReader(line), func(r *bfcl.Result) error {
		e, err := bfcl.EntryByID(r.ID)
		if err == nil {
			h, err = bfcl.Trajectory(r, e)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	// drops says a trajectory lacks one of H's calls.
	drops := func(a *model.Trajectory) bool {
		n := map[string]int{}
		for _, s := range h.Steps {
			n[s.Tool+s.Args.String()]++
		}
		for _, s := range a.Steps {
			n[s.Tool+s.Args.String()]--
		}
		for _, k := range n {
			if k > 0 {
				return true
			}
		}
		return false
	}
	dropping := 0
	for _, w := range index.Witnesses {
		if w.Record != strings.TrimSuffix(w.File, ".json")+".bfcl.json" {
			t.Errorf("%s: record %q", w.File, w.Record)
			continue
		}
		body, err := os.ReadFile(filepath.Join(dir, w.Record))
		if err != nil {
			t.Fatal(err)
		}
		if bytes.IndexByte(body, '\n') != len(body)-1 {
			t.Errorf("%s: not one line", w.Record)
		}
		var claims struct {
			Claims map[string]any `json:"claims"`
		}
		if err := json.Unmarshal(body, &claims); err != nil {
			t.Fatalf("%s: %v", w.Record, err)
		}
		var res *bfcl.Result
		if err := bfcl.StreamResults(w.Record, bytes.NewReader(body), func(r *bfcl.Result) error { res = r; return nil }); err != nil {
			t.Fatal(err)
		}
		e, err := bfcl.EntryByID(res.ID)
		if err != nil || res.ID != w.Task {
			t.Fatalf("%s: entry %s of task %s: %v", w.Record, res.ID, w.Task, err)
		}
		back, err := bfcl.Trajectory(res, e)
		if err != nil {
			t.Fatal(err)
		}
		tb, err := os.ReadFile(filepath.Join(dir, w.File))
		if err != nil {
			t.Fatal(err)
		}
		a, err := model.DecodeTrajectory(w.File, tb)
		if err != nil {
			t.Fatal(err)
		}
		if len(back.Steps) != len(a.Steps) {
			t.Errorf("%s: %d steps read back, the witness has %d", w.Record, len(back.Steps), len(a.Steps))
		} else {
			for i := range a.Steps {
				if !model.SameStep(&back.Steps[i], &a.Steps[i]) {
					t.Errorf("%s: step %d reads back as %v, the witness's is %v", w.Record, i+1, back.Steps[i], a.Steps[i])
				}
			}
		}
		if drops(back) {
			dropping++
		}
		rep, err := bfcl.Conform(w.Record, bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		if rep.Calls == 0 || rep.CallsEqual != rep.Calls || rep.Snapshots == 0 || rep.SnapshotsEqual != rep.Snapshots || len(rep.Disagreements) > 0 {
			t.Errorf("%s: calls %d/%d, snapshots %d/%d equal, %v", w.Record, rep.CallsEqual, rep.Calls, rep.SnapshotsEqual, rep.Snapshots, rep.Disagreements)
		}
		valid := 0.0
		if bfcl.Check(e, res.ModelTurns()).Valid {
			valid = 1
		}
		if got, ok := claims.Claims[bfcl.ValidName].(float64); !ok || got != valid {
			t.Errorf("%s: claims %s %v, the checker gives %v", w.Record, bfcl.ValidName, got, valid)
		}
	}
	if dropping == 0 {
		t.Errorf("none of %d witnesses drops a call of H's", len(index.Witnesses))
	}
}
