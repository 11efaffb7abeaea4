package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parthack/parthack/store"
)

// TestTauCommands: the tau-bench domain through the CLI, as a user meets
// it: its tasks, a real run certified and scored, a pair verdict between
// two real runs, and the commands' refusals.
func TestTauCommands(t *testing.T) {
	cases := []struct {
		name string
		args []string
		code int
		out  []string // substrings of stdout
		err  string   // substring of stderr
	}{
		{"tasks", []string{"tau", "tasks"}, 0, []string{"TAU-A00  mia_li_3668", "TAU-A49"}, ""},
		{"runs of a task", []string{"tau", "runs", "--tasks", "TAU-A04"}, 0, []string{"gpt-4o-t04-trial3  TAU-A04  0       9      0       5  2/5      2/5"}, "4 runs replayed and double-certified"},
		{"replay a real run", []string{"replay", "--task", "TAU-A04", "--trajectory", "trial3"}, 0, []string{"update_reservation_flights", "P_state 2/5"}, ""},
		{"score the gold run", []string{"score", "--task", "TAU-A04", "--trajectory", "gold"}, 0, []string{"Historical Milestone  1.000", "Terminal Outcome      1.000"}, ""},
		{"pair of two real runs", []string{"certify", "--task", "TAU-A04", "--honest", "trial2", "--candidate", "trial3"}, 1, []string{"rejected: state_vector_mismatch", "flights-FQ8APE"}, ""},
		{"run of another task", []string{"certify", "--task", "TAU-A05", "--candidate", "gpt-4o-t04-trial3"}, 2, nil, "is of task TAU-A04, not TAU-A05"},
		{"validate the domain", []string{"tasks", "validate", "--domain", "tau-airline"}, 0, []string{"50 tau-airline tasks valid (30 with a goal, 20 whose gold run changes nothing)"}, ""},
		{"attack a real run", []string{"attack", "--task", "TAU-A04", "--honest", "trial3", "--edits", "2"}, 0, []string{"f(H)       0.400", "f(A)       0.600", "exhausted: this is the certified worst case"}, ""},
		{"unknown task", []string{"tau", "runs", "--tasks", "TAU-A77"}, 2, nil, "no tau-airline task"},
		{"unknown domain", []string{"bench", "--domain", "webshop"}, 2, nil, `"webshop" is not a domain`},
		{"domain with a split", []string{"bench", "--domain", "tau-airline", "--split", "all"}, 2, nil, "--split does not go with --domain"},
		{"import another format", []string{"import", "webarena", "x.json"}, 2, nil, `"webarena" is not a format`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errs := run(t, c.args...)
			if code != c.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, c.code, out, errs)
			}
			for _, want := range c.out {
				if !strings.Contains(out, want) {
					t.Errorf("stdout lacks %q:\n%s", want, out)
				}
			}
			if !strings.Contains(errs, c.err) {
				t.Errorf("stderr lacks %q:\n%s", c.err, errs)
			}
		})
	}
}

// TestImportTauBench: a file in tau-bench's run format becomes certified
// trajectories in the store, which certify reads back; a broken file is
// refused with its place named and the store left as it was.
func TestImportTauBench(t *testing.T) {
	dir := t.TempDir()
	all := filepath.Join(dir, "gpt-4o-airline.json")
	if code, _, errs := run(t, "tau", "export", all); code != 0 {
		t.Fatalf("export: %s", errs)
	}
	var runs []map[string]any
	b, err := os.ReadFile(all)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &runs); err != nil || len(runs) != 200 {
		t.Fatalf("exported %d runs: %v", len(runs), err)
	}
	some := filepath.Join(dir, "some.json")
	four := []map[string]any{runs[4], runs[54], runs[104], runs[154]} // task 4's four trials
	sb, _ := json.Marshal(four)
	if err := os.WriteFile(some, sb, 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "store.db")
	code, out, errs := run(t, "--db", db, "import", "tau-bench", some)
	if code != 0 || !strings.Contains(out, "some-t04-trial3  TAU-A04  0       9      2/5      2/5") || !strings.Contains(errs, "4 runs certified and saved") {
		t.Fatalf("import: exit %d\n%s\n%s", code, out, errs)
	}
	s, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := s.List(store.KindWitness)
	s.Close()
	if err != nil || len(recs) != 4 || recs[3].Task != "TAU-A04" || recs[3].Name != "some-t04-trial3" {
		t.Fatalf("stored %d witnesses (%v): %+v", len(recs), err, recs)
	}
	saved := filepath.Join(dir, "trial3.json")
	if err := os.WriteFile(saved, recs[3].Body, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, _ := run(t, "certify", "--task", "TAU-A04", "--honest", "trial3", "--candidate", saved); code != 0 || !strings.Contains(out, "eligible") {
		t.Fatalf("the imported run is not the corpus run: exit %d\n%s", code, out)
	}

	runs[54]["task_id"] = 50
	bad := filepath.Join(dir, "bad.json")
	bb, _ := json.Marshal([]map[string]any{runs[4], runs[54]})
	if err := os.WriteFile(bad, bb, 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs = run(t, "--db", db, "import", "tau-bench", bad)
	if code != 2 || !strings.Contains(errs, "bad.json:1:15592: run 1 (bad-t50-trial1): $[1].task_id: task_id 50: the airline test tasks are 0 … 49") {
		t.Fatalf("bad import: exit %d: %s", code, errs)
	}
	s, err = store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if recs, _ := s.List(store.KindWitness); len(recs) != 4 {
		t.Fatalf("a refused import changed the store: %d witnesses", len(recs))
	}
}

// TestTauBenchWitnesses: bench --domain writes each run's witness, and
// each one certifies eligible against its run.
func TestTauBenchWitnesses(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "witnesses")
	code, out, errs := run(t, "bench", "--domain", "tau-airline", "--tasks", "TAU-A04", "--edits", "2", "--witnesses", dir)
	if code != 0 || !strings.Contains(out, "4 failed GPT-4o runs") || !strings.Contains(errs, "4 witnesses") {
		t.Fatalf("bench: exit %d\n%s\n%s", code, out, errs)
	}
	for trial := range 4 {
		w := filepath.Join(dir, fmt.Sprintf("gpt-4o-t04-trial%d.json", trial))
		if code, out, errs := run(t, "certify", "--task", "TAU-A04", "--honest", fmt.Sprintf("trial%d", trial), "--candidate", w); code != 0 {
			t.Errorf("trial %d's witness: exit %d\n%s%s", trial, code, out, errs)
		}
	}
}
