package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/parthack/parthack/domains"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/report"
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
		{"tasks", []string{"domain", "tasks", "--domain", "tau-airline"}, 0, []string{"TAU-A00  2   1           1            user mia_li_3668", "TAU-A49"}, ""},
		{"runs of a task", []string{"domain", "runs", "--domain", "tau-airline", "--tasks", "TAU-A04"}, 0, []string{"gpt-4o-t04-trial3  TAU-A04  gpt-4o  0       9      0       5  2/5      2/5"}, "4 runs replayed and double-certified"},
		{"replay a real run", []string{"replay", "--task", "TAU-A04", "--trajectory", "trial3"}, 0, []string{"update_reservation_flights", "P_state 2/5"}, ""},
		{"score the gold run", []string{"score", "--task", "TAU-A04", "--trajectory", "gold"}, 0, []string{"Historical Milestone  1.000", "Terminal Outcome      1.000"}, ""},
		{"pair of two real runs", []string{"certify", "--task", "TAU-A04", "--honest", "trial2", "--candidate", "trial3"}, 1, []string{"rejected: state_vector_mismatch", "flights-FQ8APE"}, ""},
		{"run of another task", []string{"certify", "--task", "TAU-A05", "--candidate", "gpt-4o-t04-trial3"}, 2, nil, "is of task TAU-A04, not TAU-A05"},
		{"validate the domain", []string{"tasks", "validate", "--domain", "tau-airline"}, 0, []string{"50 tau-airline tasks valid (30 with a goal, 20 whose gold run changes nothing)"}, ""},
		{"validate BFCL, whose goal each turn revises", []string{"tasks", "validate", "--domain", "bfcl-multi-turn"}, 0, []string{"600 bfcl-multi-turn tasks valid (568 with a goal, 32 whose goal is vacuous"}, ""},
		{"validate tau2 retail", []string{"tasks", "validate", "--domain", "tau2-retail"}, 0, []string{"114 tau2-retail tasks valid (103 with a goal, 11 whose gold run changes nothing)"}, ""},
		{"attack a real run", []string{"attack", "--task", "TAU-A04", "--honest", "trial3", "--edits", "2"}, 0, []string{"f(H)       0.400", "f(A)       0.600", "exhausted: this is the certified worst case"}, ""},
		{"unknown task", []string{"domain", "runs", "--domain", "tau-airline", "--tasks", "TAU-A77"}, 2, nil, `tau-airline has no task "TAU-A77"`},
		{"runs of a file of a domain that ships none", []string{"domain", "runs", "--domain", "bfcl-multi-turn", "--runs", "../testdata/cli/handmade-multi_turn_base_result.json"}, 0,
			[]string{"handmade-multi_turn_base_0  multi_turn_base_0  handmade  0       11     0       1  0/1      0/1"}, "1 runs replayed and double-certified"},
		{"a domain that ships no run", []string{"domain", "runs", "--domain", "bfcl-multi-turn"}, 0, nil, "bfcl-multi-turn ships no run; give your own with --runs FILE (its benchmark's bfcl format)"},
		{"domains", []string{"domain", "list"}, 0, []string{"bfcl-multi-turn  BFCL multi-turn (v4)  600    0", "tau-airline      tau-bench airline     50     200", "tau2-retail      tau2-bench retail     114    154"}, ""},
		{"no domain", []string{"domain", "runs"}, 2, nil, "--domain is required (there is bfcl-multi-turn, tau-airline"},
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
	if code, _, errs := run(t, "domain", "export", "--domain", "tau-airline", all); code != 0 {
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

// TestTauBenchWitnesses: bench --domain writes each run's witness of
// each searched target, names each in its index with its run, task,
// target and claim, and each one certifies eligible against its run.
func TestTauBenchWitnesses(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "witnesses")
	code, out, errs := run(t, "bench", "--domain", "tau-airline", "--tasks", "TAU-A04", "--edits", "2", "--witnesses", dir)
	if code != 0 || !strings.Contains(out, "tau-bench airline: 4 failed runs") || !strings.Contains(errs, "28 witnesses written to "+dir+", each named in "+filepath.Join(dir, "index.json")) {
		t.Fatalf("bench: exit %d\n%s\n%s", code, out, errs)
	}
	index := readWitnessIndex(t, dir)
	if index.Rule != "same_end" || len(index.Witnesses) != 28 {
		t.Fatalf("index: rule %q, %d witnesses", index.Rule, len(index.Witnesses))
	}
	for i, w := range index.Witnesses {
		trial := i / 7 // seven targets a run: the three searched historical evaluators, the benchmark's reward and the field's three
		if want := fmt.Sprintf("gpt-4o-t04-trial%d.%s.json", trial, w.Target); w.File != want || w.Task != "TAU-A04" || w.Run != fmt.Sprintf("gpt-4o-t04-trial%d", trial) || w.End != "same" {
			t.Errorf("witness %d: %+v, want file %s", i, w, want)
		}
		if code, out, errs := run(t, "certify", "--task", "TAU-A04", "--honest", fmt.Sprintf("trial%d", trial), "--candidate", filepath.Join(dir, w.File)); code != 0 {
			t.Errorf("%s: exit %d\n%s%s", w.File, code, out, errs)
		}
	}
}

// witnessIndexFile is bench --witnesses' index.json.
type witnessIndexFile struct {
	Domain    string
	Rule      string `json:"end_rule"`
	Witnesses []struct {
		File, Run, Task, Target, Search string
		Delta                           float64
		End                             string `json:"end_state"`
		Rise                            string
		Record                          string
	}
}

func readWitnessIndex(t *testing.T, dir string) witnessIndexFile {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "index.json"))
	if err != nil {
		t.Fatal(err)
	}
	var index witnessIndexFile
	if err := json.Unmarshal(b, &index); err != nil {
		t.Fatal(err)
	}
	return index
}

// TestTelecomWitnessNames: tau2 telecom's task ids make run names of
// over 200 bytes with brackets and bars; bench --witnesses names each
// file in at most 100 bytes of [A-Za-z0-9._-], one name a witness, and
// the index says which run, task and target each is.
func TestTelecomWitnessNames(t *testing.T) {
	const task = "T2T-[mobile_data_issue]data_saver_mode_on|user_abroad_roaming_enabled_off[PERSONA:Easy]"
	dir := filepath.Join(t.TempDir(), "w")
	if code, _, errs := run(t, "bench", "--domain", "tau2-telecom", "--tasks", task, "--witnesses", dir); code != 0 {
		t.Fatalf("bench: exit %d\n%s", code, errs)
	}
	index := readWitnessIndex(t, dir)
	files, _ := os.ReadDir(dir)
	records := 0
	for _, w := range index.Witnesses {
		if w.Record != "" {
			records++
		}
	}
	if len(index.Witnesses) == 0 || records != len(index.Witnesses) || len(files) != len(index.Witnesses)+records+1 {
		t.Fatalf("%d files for %d witnesses, %d tau2 records and the index", len(files), len(index.Witnesses), records)
	}
	fits := regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)
	seen := map[string]bool{}
	for _, w := range index.Witnesses {
		if len(w.File) > 100 || !fits.MatchString(w.File) || seen[w.File] || w.Task != task || !strings.HasPrefix(w.Run, task) || w.Target == "" {
			t.Errorf("%+v", w)
		}
		seen[w.File] = true
		if len(w.Record) > 100 || !fits.MatchString(w.Record) || w.Record != strings.TrimSuffix(w.File, ".json")+".tau2.json" {
			t.Errorf("record %q of %q", w.Record, w.File)
		}
		for _, f := range []string{w.File, w.Record} {
			if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
				t.Error(err)
			}
		}
	}
}

// TestWitnessFileName: a run name that fits is kept; one that does not
// is made to fit, the same each time, and two long names that differ
// only past the cut stay apart.
func TestWitnessFileName(t *testing.T) {
	long := "T2T-[mobile_data_issue]airplane_mode_on|bad_network_preference|data_mode_off|data_saver_mode_on[PERSONA:Hard]-gpt-4.1-trial"
	for _, tc := range []struct {
		run, target string
		anyEnd      bool
		want        string
	}{
		{"gpt-4o-t04-trial0", "historical_milestone", false, "gpt-4o-t04-trial0.historical_milestone.json"},
		{"gpt-4o-t04-trial0", "tau2_db", true, "gpt-4o-t04-trial0.tau2_db.any-end.json"},
		{"a b/c", "cape_max", false, "a_b_c-"},
		{"../x", "cape_max", false, "x-"},
		{"[]", "cape_max", false, "run-"},
		{long + "0", "tau2_partial_action", true, "T2T-_mobile_data_issue_ai_SONA_Hard_-gpt-4.1-trial0-"},
	} {
		got := witnessFileName(tc.run, tc.target, tc.anyEnd)
		if !strings.HasPrefix(got, tc.want) || len(got) > 100-len(".123456") || !fitsFileName(got) || got != witnessFileName(tc.run, tc.target, tc.anyEnd) {
			t.Errorf("%q: %q, want %q…", tc.run, got, tc.want)
		}
	}
	a, b := witnessFileName(long+"0", "cape_max", false), witnessFileName(long+"1", "cape_max", false)
	if a == b || !strings.Contains(a, "-gpt-4.1-trial0-") {
		t.Errorf("%q and %q", a, b)
	}
}

// TestEpisodeRule: a trajectory with a call after transfer_to_human_agents
// is no run of tau-bench's, and every command that reads one says so at
// the step: files are bad input (exit 2), certify gives its verdict.
func TestEpisodeRule(t *testing.T) {
	after := filepath.Join("..", "testdata", "episode", "after-transfer.json")
	const why = "step 4 (call of get_reservation_details) comes after step 3, a call of transfer_to_human_agents, which ends the episode in tau-airline"
	located := after + ":10: " + why
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"replay", []string{"replay", "--task", "TAU-A04", "--trajectory", after}, 2, located},
		{"score", []string{"score", "--task", "TAU-A04", "--trajectory", after}, 2, located},
		{"payload", []string{"payload", "--task", "TAU-A04", "--trajectory", after}, 2, located},
		{"certify a pair", []string{"certify", "--task", "TAU-A04", "--honest", "trial0", "--candidate", after}, 1, "episode expected no step after step 3 got call get_reservation_details"},
		{"certify a rollback", []string{"certify", "--task", "TAU-A04", "--honest", "trial0", "--rollback", after}, 1, "rejected: illegal_action (rollback)"},
		{"attack from it", []string{"attack", "--task", "TAU-A04", "--honest", after}, 2, located},
		{"attack --llm from it", []string{"attack", "--llm", "--task", "TAU-A04", "--honest", after, "--attacker-base-url", "http://127.0.0.1:1", "--attacker-model", "m"}, 2, located},
		{"tasks validate", []string{"tasks", "validate", "TAU-A04", "--trajectory", after}, 2, located},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := run(t, tc.args...)
			if code != tc.code || !strings.Contains(out+errs, tc.want) {
				t.Fatalf("exit %d, want %d with %q\n%s%s", code, tc.code, tc.want, out, errs)
			}
		})
	}
	t.Run("import", func(t *testing.T) {
		dir := t.TempDir()
		all := filepath.Join(dir, "runs.json")
		if code, _, errs := run(t, "domain", "export", "--domain", "tau-airline", all); code != 0 {
			t.Fatalf("export: %s", errs)
		}
		var runs []map[string]any
		b, _ := os.ReadFile(all)
		if err := json.Unmarshal(b, &runs); err != nil {
			t.Fatal(err)
		}
		// GPT-4o's trial 0 of task 4 ends with the transfer; append a call.
		r := withCallAppended(runs[4], "call_after", `{"user_id": "omar_rossi_1241"}`)
		bad := filepath.Join(dir, "after.json")
		bb, _ := json.Marshal([]map[string]any{runs[0], r})
		if err := os.WriteFile(bad, bb, 0o644); err != nil {
			t.Fatal(err)
		}
		db := filepath.Join(dir, "store.db")
		code, _, errs := run(t, "--db", db, "import", "tau-bench", bad)
		if code != 2 || !strings.Contains(errs, "after.json:1:35224: run 1 (after-t04-trial0), message 26, call get_user_details(") ||
			!strings.Contains(errs, "step 7 (call of get_user_details) comes after step 6, a call of transfer_to_human_agents") {
			t.Fatalf("exit %d: %s", code, errs)
		}
		if _, err := os.Stat(db); err == nil {
			t.Fatal("a refused import left the store it created")
		}
	})
}

// TestValidateDomainTask: tasks validate takes a domain's task id as it
// takes a suite id: the task as --domain validates it, and each
// trajectory named double-certified against it.
func TestValidateDomainTask(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"tasks", "validate", "TAU-A04"}, 0, "TAU-A04 valid\n"},
		{[]string{"tasks", "validate", "TAU-A04", "--trajectory", "trial0", "--trajectory", "gold"}, 0,
			"TAU-A04 valid\ntrial0: double-certified, P_state 1/5, P_agent 1/5\ngold: double-certified, P_state 5/5, P_agent 5/5\n"},
		{[]string{"tasks", "validate", "TAU-A99"}, 2, "TAU-A99"},
		// A suite id takes trajectories too, by stored name or file.
		{[]string{"tasks", "validate", "PH-H05", "--trajectory", "honest", "--trajectory", "../tasks/data/PH-H05/rollback.json"}, 0,
			"PH-H05 valid\nhonest: double-certified, P_state 2/4, P_agent 2/4\n../tasks/data/PH-H05/rollback.json: double-certified"},
		{[]string{"tasks", "validate", "TAU-A04", "--domain", "tau-airline"}, 2, "does not take a task"},
	} {
		t.Run(strings.Join(tc.args[2:], " "), func(t *testing.T) {
			code, out, errs := run(t, tc.args...)
			if code != tc.code || !strings.Contains(out+errs, tc.want) {
				t.Fatalf("exit %d, want %d with %q\n%s%s", code, tc.code, tc.want, out, errs)
			}
		})
	}
}

// TestTauBenchWitnessesAreRuns: every witness bench writes is a run
// tau-bench could have: no call after the call that ended the episode,
// and where H ends with a transfer, the witness ends with H's. Each
// witness row of the ledger says whether it ends in H's database, and
// the JSON report counts the successes that do.
func TestTauBenchWitnessesAreRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole tau-bench benchmark")
	}
	dir := t.TempDir()
	wdir, ledger := filepath.Join(dir, "w"), filepath.Join(dir, "l.json")
	code, out, errs := run(t, "bench", "--domain", "tau-airline", "--witnesses", wdir, "--ledger-out", ledger, "--format", "json")
	if code != 0 {
		t.Fatalf("bench: exit %d\n%s", code, errs)
	}
	d, task, err := domains.FindTask("TAU-A04")
	if err != nil {
		t.Fatal(err)
	}
	runs, err := d.Runs()
	if err != nil {
		t.Fatal(err)
	}
	index := readWitnessIndex(t, wdir)
	if len(index.Witnesses) < 100 {
		t.Fatalf("%d witnesses written", len(index.Witnesses))
	}
	for _, e := range index.Witnesses {
		f := filepath.Join(wdir, e.File)
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		w, err := model.DecodeTrajectory(f, b)
		if err != nil {
			t.Fatal(err)
		}
		if err := model.CheckEpisode(task.Model, w.Steps); err != nil {
			t.Errorf("%s: %v", e.File, err)
		}
		name := e.Run
		for _, r := range runs {
			if r.Name != name {
				continue
			}
			h, err := r.Trajectory()
			if err != nil {
				t.Fatal(err)
			}
			if end, ok := model.EpisodeEnd(task.Model, h.Steps); ok {
				if last := w.Steps[len(w.Steps)-1]; last.Tool != h.Steps[end].Tool || !last.Args.Equal(h.Steps[end].Args) {
					t.Errorf("%s: H ends with its step %d, %s; the witness ends with %s", name, end+1, h.Steps[end].Tool, last.Tool)
				}
			}
		}
	}
	var rep struct {
		Rule   string `json:"end_rule"`
		Failed struct {
			Groups []struct {
				Set, Target string
				Successes   int
				Same        *int `json:"same_end"`
				Gold        *int `json:"gold_end"`
				Other       *int `json:"other_end"`
				Rise        map[string]int
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	// The figures the README states: of 88 failed runs, the historical
	// evaluators inflated on 12 in H's database, and on 23 more only by
	// an attack that ends elsewhere; tau-bench's reward moved on 7, each
	// to gold's database.
	want := map[string][3]int{"historical_milestone": {12, 0, 23}, "benchmark_reward": {0, 7, 0}, "csps": {0, 0, 0}}
	for _, g := range rep.Failed.Groups {
		if g.Same == nil || g.Gold == nil || g.Other == nil || *g.Same != g.Successes || g.Rise["failed_call"]+g.Rise["no_op_repeat"]+g.Rise["change_undo"] != *g.Same {
			t.Errorf("%s %s: %d successes, same %v gold %v other %v, rise %v", g.Set, g.Target, g.Successes, g.Same, g.Gold, g.Other, g.Rise)
			continue
		}
		if w, ok := want[g.Target]; ok && g.Set == "targeted" && [3]int{*g.Same, *g.Gold, *g.Other} != w {
			t.Errorf("%s: same, gold, other end %d %d %d, want %v", g.Target, *g.Same, *g.Gold, *g.Other, w)
		}
	}
	if rep.Rule != "same_end" {
		t.Errorf("end_rule %q", rep.Rule)
	}
	l, err := report.ReadFile(ledger)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range l.Rows {
		if r.Matched != (r.SameEnd != nil) || r.SameEnd != nil && !*r.SameEnd {
			t.Fatalf("%s %s %s: matched %t, same_end_state %v", r.Set, r.Target, r.Task, r.Matched, r.SameEnd)
		}
	}
}

// TestAttackSaysWhereTheWitnessEnds: on a real domain attack says whether
// its witness ends in exactly H's state and, where it does not, each cell
// that differs. TAU-A01's trial0 makes no call; its witness cancels
// Z7GOZK twice, and tau-bench's second cancel refunds again, so the
// witness ends with H's certified vectors in another database. TAU-A04's
// witness sets a passenger and sets it back: the same database.
func TestAttackSaysWhereTheWitnessEnds(t *testing.T) {
	code, out, errs := run(t, "attack", "--task", "TAU-A01", "--honest", "trial0", "--edits", "2", "--any-end")
	if code != 0 || !strings.Contains(out, "rule       witnesses admitted: any end (--any-end)") || !strings.Contains(out, "end state  not H's: 2 cells differ") ||
		!strings.Contains(out, "  reservation Z7GOZK .payment_history (goal predicate 1): H [") ||
		!strings.Contains(out, "  reservation Z7GOZK .status (goal predicate 1): H null, A \"cancelled\"") {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	code, out, errs = run(t, "attack", "--task", "TAU-A04", "--honest", "trial0", "--edits", "2")
	if code != 0 || !strings.Contains(out, "end state  exactly H's (the benchmark's own state hash)") {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	code, out, errs = run(t, "attack", "--task", "TAU-A01", "--honest", "trial0", "--edits", "2", "--any-end", "--json")
	var r struct {
		Rule       string            `json:"end_rule"`
		Same       *bool             `json:"same_end_state"`
		End        string            `json:"end_state"`
		Collateral []json.RawMessage `json:"collateral"`
	}
	if err := json.Unmarshal([]byte(out), &r); code != 0 || err != nil || r.Rule != "any_end" || r.Same == nil || *r.Same || r.End != "other" || len(r.Collateral) != 2 {
		t.Fatalf("exit %d, %v: %+v\n%s%s", code, err, r, out, errs)
	}
	// By default, on a real domain, the witness ends in H's state: the
	// second cancel is no longer admitted.
	code, out, errs = run(t, "attack", "--task", "TAU-A01", "--honest", "trial0", "--edits", "2")
	if code != 0 || !strings.Contains(out, "rule       witnesses admitted: only those that end in exactly H's state") || !strings.Contains(out, "end state  exactly H's") {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	// tau-bench's reward on TAU-A14 moves only where the witness drops a
	// wrong write of H's and ends in gold's database: better work. On
	// trial0 the drop changes what a later call of H's returned, so no
	// run of tau-bench holds it.
	code, out, errs = run(t, "attack", "--task", "TAU-A14", "--honest", "trial2", "--target", "benchmark_reward", "--any-end")
	if code != 0 || !strings.Contains(out, "it is the gold run's end state (A is better work than H, not inflation)") {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	code, out, errs = run(t, "attack", "--task", "TAU-A14", "--honest", "trial0", "--target", "benchmark_reward", "--any-end")
	if code != 0 || !strings.Contains(out, "Δhack      +0.000") {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	if code, _, errs = run(t, "attack", "--task", "TAU-A14", "--same-end", "--any-end"); code != 2 || !strings.Contains(errs, "exclude each other") {
		t.Fatalf("exit %d: %s", code, errs)
	}
	code, out, _ = run(t, "attack", "--task", "PH-D01", "--edits", "1")
	if code != 0 || strings.Contains(out, "end state") {
		t.Fatalf("the suite's attack speaks of end states:\n%s", out)
	}
}

// TestDomainListLoadsNoRun: domain list, in a process of its own, prints
// every domain's tasks and runs (the goldens) from the counts each
// domain states, deriving no task and reading no run file: its peak RSS
// is a bare command's (tasks, the suite's list) give or take 16 MB,
// where loading every shipped run to count them took 120 MB more.
func TestDomainListLoadsNoRun(t *testing.T) {
	_, _, _, bare := runChild(t, "tasks")
	for _, c := range []struct {
		golden string
		args   []string
	}{
		{"domain-list", []string{"domain", "list"}},
		{"domain-list-json", []string{"domain", "list", "--json"}},
	} {
		code, out, errs, rss := runChild(t, c.args...)
		if code != ExitOK {
			t.Fatalf("%v: exit %d: %s", c.args, code, errs)
		}
		_, text, _ := run(t, c.args...)
		golden(t, c.golden, text)
		if sum := sha256.Sum256([]byte(text)); out.sum() != hex.EncodeToString(sum[:]) {
			t.Errorf("%v prints another text in a process of its own", c.args)
		}
		t.Logf("%v: peak RSS %d MB; tasks %d MB", c.args, rss>>20, bare>>20)
		if rss > bare+16<<20 && !raceEnabled {
			t.Errorf("%v: peak RSS %d MB, tasks' %d MB: it loads what it does not print", c.args, rss>>20, bare>>20)
		}
	}
}

// TestValidateCountsVacuousGoals: tasks validate --domain counts a BFCL
// turn by whose end gold has changed nothing public (its goal the
// predicate that always holds) apart from the turns with a goal, and a
// task whose last turn's goal is vacuous apart from the tasks with a
// goal (it said "600 with a goal, 0 whose gold run changes nothing"); a
// domain with one goal version a task says what it said, byte for byte.
func TestValidateCountsVacuousGoals(t *testing.T) {
	cases := []struct{ domain, out string }{
		{"bfcl-multi-turn", "600 bfcl-multi-turn tasks valid (568 with a goal, 32 whose goal is vacuous: their gold run changes nothing public)\n" +
			"2602 user turns (1825 with a goal, 777 whose goal is vacuous: by the turn's end gold has changed nothing public)\n"},
		{"tau-airline", "50 tau-airline tasks valid (30 with a goal, 20 whose gold run changes nothing)\n"},
		{"tau2-airline", "50 tau2-airline tasks valid (30 with a goal, 20 whose gold run changes nothing)\n"},
	}
	for _, c := range cases {
		t.Run(c.domain, func(t *testing.T) {
			code, out, errs := run(t, "tasks", "validate", "--domain", c.domain)
			if code != 0 || out != c.out {
				t.Errorf("exit %d, stdout\n%s\nwant exit 0, stdout\n%s\nstderr:\n%s", code, out, c.out, errs)
			}
		})
	}
}

// TestAttackRefusesARunTheBenchmarkEnded: attack, and attack --llm, on an
// H the benchmark stopped itself (tau-bench's loop at max_num_steps, tau2
// at max_steps) say so and exit 2, before any search: no witness keeps
// its conversation (it said "score the honest trajectory: …" or spoke of
// a goal schema).
func TestAttackRefusesARunTheBenchmarkEnded(t *testing.T) {
	for _, tc := range []struct{ task, honest, want string }{
		{"TAU-A46", "trial3", "stopped by tau-bench's loop at max_num_steps (30 actions)"},
		{"T2A-15", "gpt-oss-120b-trial0", "ended by max_steps: tau2 scores 0"},
	} {
		for _, llm := range []bool{false, true} {
			args := []string{"attack", "--task", tc.task, "--honest", tc.honest}
			if llm {
				args = append(args, "--llm", "--attacker-base-url", "http://127.0.0.1:1", "--attacker-model", "m")
			}
			code, _, errs := run(t, args...)
			if code != 2 || !strings.Contains(errs, "--honest "+tc.honest+": H is a run the benchmark ended itself ("+tc.want) {
				t.Errorf("%v: exit %d: %s", args, code, errs)
			}
		}
	}
}

// TestDefaultHonestRoundTrip: without --honest a domain task's H is its
// first run the benchmark scores below 1, as in the workbench, not gold
// (whose progress is full, so nothing could be inflated); the witness
// written names that run, and certify, given no --honest, judges it
// against that run. A run named by its full name is written by its
// short one, as the workbench lists it.
func TestDefaultHonestRoundTrip(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "w.json")
	code, stdout, errs := run(t, "attack", "--task", "TAU-A04", "--out", out)
	if code != 0 {
		t.Fatalf("attack: exit %d\n%s%s", code, stdout, errs)
	}
	for _, want := range []string{"task TAU-A04   H trial0   target historical_milestone", "f(H)       0.200", "Δhack      +0.200"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("attack's output lacks %q:\n%s", want, stdout)
		}
	}
	w, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(w), `"honest": "trial0"`) {
		t.Errorf("the witness does not name its H trial0:\n%s", w)
	}
	if code, stdout, errs := run(t, "certify", "--task", "TAU-A04", "--candidate", out); code != 0 || !strings.Contains(stdout, "eligible") || !strings.Contains(stdout, "\nH        trial0 (the run the candidate names)\n") {
		t.Errorf("certify of the witness against the H it names: exit %d\n%s%s", code, stdout, errs)
	}
	if _, stdout, _ := run(t, "certify", "--task", "TAU-A04", "--candidate", "trial3"); !strings.Contains(stdout, "\nH        trial0 (the task's default H)\n") {
		t.Errorf("certify of a run that names no H does not say its H is the task's default:\n%s", stdout)
	}
	code, stdout, errs = run(t, "attack", "--task", "TAU-A04", "--honest", "gpt-4o-t04-trial3", "--json", "--out", out)
	if code != 0 {
		t.Fatalf("attack --json: exit %d\n%s%s", code, stdout, errs)
	}
	var j struct {
		H       string `json:"honest_name"`
		Witness struct {
			Honest string `json:"honest"`
		} `json:"witness"`
	}
	if err := json.Unmarshal([]byte(stdout), &j); err != nil {
		t.Fatal(err)
	}
	if j.H != "gpt-4o-t04-trial3" || j.Witness.Honest != "trial3" {
		t.Errorf("attack --json says H %q and its witness names %q; want gpt-4o-t04-trial3 and trial3", j.H, j.Witness.Honest)
	}
	// A task with no run of its benchmark's (BFCL ships none): gold.
	if code, stdout, _ := run(t, "attack", "--task", "multi_turn_base_0", "--max-states", "5"); code != 0 || !strings.HasPrefix(stdout, "task multi_turn_base_0   H gold   ") {
		t.Errorf("attack of a task with no run: exit %d\n%s", code, stdout)
	}
}
