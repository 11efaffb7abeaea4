package cli

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"

	"github.com/parthack/parthack/store"
)

// tauRuns exports the corpus' 200 runs in tau-bench's run format and
// returns them decoded, to build import inputs from.
func tauRuns(t *testing.T) []map[string]any {
	t.Helper()
	all := filepath.Join(t.TempDir(), "all.json")
	if code, _, errs := run(t, "domain", "export", "--domain", "tau-airline", all); code != 0 {
		t.Fatalf("export: %s", errs)
	}
	b, err := os.ReadFile(all)
	if err != nil {
		t.Fatal(err)
	}
	var runs []map[string]any
	if err := json.Unmarshal(b, &runs); err != nil {
		t.Fatal(err)
	}
	return runs
}

// TestImportBadInput: every way a run file can be wrong is refused with
// the file, line and column, the run's index (and name when it can be
// read), the JSON path or the message and call, and what was expected;
// nothing is saved.
// renamedFirstCall is a copy of a tau-bench run (as tauRuns gives it)
// whose first call is of the tool name, recorded as tau-bench records
// any call: its tool message names the tool too.
func renamedFirstCall(run map[string]any, name string) map[string]any {
	var out map[string]any
	b, _ := json.Marshal(run)
	json.Unmarshal(b, &out)
	for _, m := range out["traj"].([]any) {
		m := m.(map[string]any)
		if calls, ok := m["tool_calls"].([]any); ok && len(calls) > 0 {
			calls[0].(map[string]any)["function"].(map[string]any)["name"] = name
		} else if m["role"] == "tool" {
			m["name"] = name
			break
		}
	}
	return out
}

// withCallAppended is a copy of a tau-bench run with a call of
// get_user_details appended, answered by its tool message.
func withCallAppended(run map[string]any, id, args string) map[string]any {
	var out map[string]any
	b, _ := json.Marshal(run)
	json.Unmarshal(b, &out)
	out["traj"] = append(out["traj"].([]any),
		map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{
			map[string]any{"id": id, "type": "function", "function": map[string]any{"name": "get_user_details", "arguments": args}}}},
		map[string]any{"role": "tool", "tool_call_id": id, "name": "get_user_details", "content": "{}"})
	return out
}

func TestImportBadInput(t *testing.T) {
	runs := tauRuns(t)
	two, err := json.MarshalIndent([]map[string]any{runs[4], runs[54]}, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	unknownFile, _ := json.Marshal([]any{runs[54], renamedFirstCall(runs[4], "get_reservation_detail")})
	// The run ends with a call of transfer_to_human_agents (step 6).
	afterEndFile, _ := json.Marshal([]any{withCallAppended(runs[4], "c2", `{"user_id":"omar_rossi_1241"}`)})

	cases := []struct {
		name string
		src  []byte
		want []string
	}{
		{"byte order mark", append([]byte{0xEF, 0xBB, 0xBF}, two...), []string{"bom.json:1:1: $: the file starts with a UTF-8 byte order mark"}},
		{"truncated", two[:len(two)/2], []string{":112:95: run 0: $[0]: malformed JSON: unexpected end of input: the file ends inside element 0"}},
		{"truncated gzip", gzipped(two)[:len(gzipped(two))/2], []string{"bad.json:", ": run 0: $[0]: truncated gzip: the compressed stream ends early"}},
		{"invalid UTF-8 in a message", bytes.Replace(two, []byte(`"content": "`), []byte("\"content\": \"\xff"), 1), []string{":8:17: run 0: $[0].traj[0].content: invalid UTF-8: byte 0xFF"}},
		{"invalid UTF-8 in arguments", bytes.Replace(two, []byte(`"arguments": "{`), []byte("\"arguments\": \"{\xfe"), 1), []string{"run 0: $[0].traj[", ".function.arguments: invalid UTF-8: byte 0xFE"}},
		{"duplicate key", bytes.Replace(two, []byte(`"trial": `), []byte(`"trial": 1, "trial": `), 1), []string{":184:15: run 0: $[0].trial: duplicate key \"trial\""}},
		{"wrong type", bytes.Replace(two, []byte(`"trial": 0`), []byte(`"trial": "0"`), 1), []string{":184:12: run 0: $[0].trial: expected number, got \"0\""}},
		{"not a list", []byte(`{"task_id": 1}`), []string{"not tau-bench's run format (a JSON list of runs)", ":1:1: $: expected an array, got an object"}},
		{"trailing comma", bytes.Replace(two, []byte("}\n]"), []byte("},\n]"), 1), []string{"run 2: $[2]: malformed JSON: invalid character ']'"}},
		{"data after the list", append(two, " x"...), []string{":258:3: $: malformed JSON: unexpected data after the top-level value"}},
		{"unknown field", bytes.Replace(two, []byte(`"trial": 0`), []byte(`"trial": 0, "model": "gpt"`), 1), []string{"$[0].model: unknown field \"model\""}},
		{"task out of range", bytes.Replace(two, []byte(`"task_id": 4`), []byte(`"task_id": 50`), 1), []string{"run 0 (bad-t50-trial0): $[0].task_id: task_id 50: the airline test tasks are 0 … 49"}},
		{"unknown tool", unknownFile, []string{"bad.json:1:15202: run 1 (bad-t04-trial0), message 4, call get_reservation_detail({", "): $[1].traj[4].tool_calls[0]: not certifiable: illegal_action", `no tool "get_reservation_detail"; its tools, closest first: get_reservation_details, `}},
		{"a call after the episode ended", afterEndFile, []string{"bad.json:1:15597: run 0 (bad-t04-trial0), message 26, call get_user_details({", "): $[0].traj[26].tool_calls[0]: not certifiable: illegal_action: step 7 (call of get_user_details) comes after step 6, a call of transfer_to_human_agents"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			name := "bad.json"
			if c.name == "byte order mark" {
				name = "bom.json"
			}
			f := filepath.Join(dir, name)
			if err := os.WriteFile(f, c.src, 0o644); err != nil {
				t.Fatal(err)
			}
			db := filepath.Join(dir, "store.db")
			code, _, errs := run(t, "--db", db, "import", "tau-bench", f)
			if code != 2 {
				t.Fatalf("exit %d, want 2: %s", code, errs)
			}
			for _, w := range c.want {
				if !strings.Contains(errs, w) {
					t.Errorf("stderr lacks %q:\n%s", w, errs)
				}
			}
			if _, err := os.Stat(db); err == nil {
				t.Errorf("a refused import left the store it created")
			}
		})
	}
}

// TestImportRepeats: a file that repeats runs, gzipped, stores each name
// once and says how many were skipped; --rename keeps them under new
// names; a second import of the same file skips every run.
func TestImportRepeats(t *testing.T) {
	runs := tauRuns(t)
	rep := []map[string]any{runs[4], runs[54], runs[4], runs[54], runs[4]}
	b, _ := json.Marshal(rep)
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(b)
	zw.Close()
	dir := t.TempDir()
	f := filepath.Join(dir, "rep.json") // gzipped whatever its name
	if err := os.WriteFile(f, z.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "store.db")
	code, out, errs := run(t, "--db", db, "import", "tau-bench", f)
	if code != 0 || !strings.Contains(errs, "3 runs skipped: their names are already in the store or earlier in the files (rep-t04-trial0, rep-t04-trial1, rep-t04-trial0)") || !strings.Contains(errs, "2 runs certified and saved") {
		t.Fatalf("import: exit %d\n%s\n%s", code, out, errs)
	}
	code, _, errs = run(t, "--db", db, "import", "tau-bench", f, "--rename")
	if code != 0 || !strings.Contains(errs, "5 runs certified and saved") {
		t.Fatalf("import --rename: exit %d\n%s", code, errs)
	}
	code, out, _ = run(t, "--db", db, "store", "ls", "--json")
	if code != 0 {
		t.Fatalf("store ls: exit %d", code)
	}
	var ls []struct{ Kind, Task, Name string }
	if err := json.Unmarshal([]byte(out), &ls); err != nil {
		t.Fatalf("store ls --json: %v\n%s", err, out)
	}
	var names []string
	for _, r := range ls {
		names = append(names, r.Name)
	}
	want := "rep-t04-trial0 rep-t04-trial1 rep-t04-trial0-2 rep-t04-trial1-2 rep-t04-trial0-3 rep-t04-trial1-3 rep-t04-trial0-4"
	if strings.Join(names, " ") != want {
		t.Errorf("stored %v, want %s", names, want)
	}
}

// TestStoreCommands: what import saved is listed, shown, exported, opened
// by name by certify, and removed, from the command line.
func TestStoreCommands(t *testing.T) {
	runs := tauRuns(t)
	dir := t.TempDir()
	f := filepath.Join(dir, "some.json")
	b, _ := json.Marshal([]map[string]any{runs[4], runs[154]}) // task 4, trials 0 and 3
	if err := os.WriteFile(f, b, 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "store.db")
	if code, _, errs := run(t, "--db", db, "import", "tau-bench", f); code != 0 {
		t.Fatalf("import: %s", errs)
	}
	code, out, _ := run(t, "--db", db, "store", "ls")
	if code != 0 || !strings.Contains(out, "witness:2  TAU-A04  some-t04-trial3  imported from some.json (run 1): the benchmark's reward 0") {
		t.Fatalf("store ls: exit %d\n%s", code, out)
	}
	code, out, _ = run(t, "--db", db, "store", "show", "some-t04-trial3", "--json")
	var shown struct {
		Ref  string
		Body struct{ Transcript []any }
	}
	if code != 0 || json.Unmarshal([]byte(out), &shown) != nil || shown.Ref != "witness:2" || len(shown.Body.Transcript) == 0 {
		t.Fatalf("store show --json: exit %d\n%s", code, out)
	}
	exported := filepath.Join(dir, "trial3.json")
	if code, _, errs := run(t, "--db", db, "store", "export", "witness:2", exported); code != 0 {
		t.Fatalf("store export: %s", errs)
	}
	if code, out, errs := run(t, "--db", db, "certify", "--task", "TAU-A04", "--honest", exported, "--candidate", "some-t04-trial3"); code != 0 || !strings.Contains(out, "eligible") {
		t.Fatalf("certify by stored name: exit %d\n%s%s", code, out, errs)
	}
	if code, out, errs := run(t, "--db", db, "replay", "--task", "TAU-A04", "--trajectory", "some-t04-trial3"); code != 0 || !strings.Contains(out, "update_reservation_flights") {
		t.Fatalf("replay by stored name: exit %d\n%s%s", code, out, errs)
	}
	if code, _, errs := run(t, "--db", db, "store", "rm", "some-t04-trial3"); code != 0 || !strings.Contains(errs, `removed witness:2 "some-t04-trial3" (task TAU-A04)`) {
		t.Fatalf("store rm: exit %d: %s", code, errs)
	}
	code, _, errs := run(t, "--db", db, "score", "--task", "TAU-A04", "--trajectory", "some-t04-trial3")
	if code != 2 || !strings.Contains(errs, `TAU-A04 has no run "some-t04-trial3"`) {
		t.Fatalf("a removed name still resolves: exit %d: %s", code, errs)
	}
	if code, _, errs := run(t, "--db", db, "store", "show", "nothing"); code != 2 || !strings.Contains(errs, `no record named "nothing"`) {
		t.Fatalf("store show of a missing name: exit %d: %s", code, errs)
	}
}

// TestGzippedInputs: a gzipped task or trajectory file is read by its
// bytes, whatever its name, to the same output as the plain file.
func TestGzippedInputs(t *testing.T) {
	dir := t.TempDir()
	gz := func(src string) string {
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		var z bytes.Buffer
		zw := gzip.NewWriter(&z)
		zw.Write(b)
		zw.Close()
		p := filepath.Join(dir, filepath.Base(src))
		if err := os.WriteFile(p, z.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	_, want, _ := run(t, "replay", "--task", example("task.json"), "--trajectory", example("witness.json"))
	code, got, errs := run(t, "replay", "--task", gz(example("task.json")), "--trajectory", gz(example("witness.json")))
	if code != 0 || got != want {
		t.Fatalf("gzipped replay: exit %d\n%s\n%s", code, got, errs)
	}
}

// TestImportStreamsToStore: an import writes its runs as it certifies
// them, in several transactions, never one for the whole file (bbolt
// holds a transaction's pages in memory until it commits: 200 MB of runs
// took 1.1 GB in one); a run refused after several of them were written
// still leaves the store without any of the file's runs.
func TestImportStreamsToStore(t *testing.T) {
	runs := tauRuns(t)
	var many []map[string]any
	for range 3 {
		many = append(many, runs...)
	}
	bad := renamedFirstCall(runs[4], "get_reservation_detail")
	dir := t.TempDir()
	good, refused := filepath.Join(dir, "many.json"), filepath.Join(dir, "refused.json")
	b, _ := json.Marshal(many)
	if err := os.WriteFile(good, b, 0o644); err != nil {
		t.Fatal(err)
	}
	b, _ = json.Marshal(append(many, bad))
	if err := os.WriteFile(refused, b, 0o644); err != nil {
		t.Fatal(err)
	}
	// txid is the id of the store's last write transaction.
	txid := func(db string) int {
		t.Helper()
		bdb, err := bolt.Open(db, 0o600, &bolt.Options{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		defer bdb.Close()
		var id int
		bdb.View(func(tx *bolt.Tx) error { id = tx.ID(); return nil })
		return id
	}
	listed := func(db string) int {
		t.Helper()
		code, out, errs := run(t, "--db", db, "store", "ls", "--json")
		var ls []any
		if code != 0 || json.Unmarshal([]byte(out), &ls) != nil {
			t.Fatalf("store ls: exit %d\n%s%s", code, out, errs)
		}
		return len(ls)
	}

	db := filepath.Join(dir, "refused.db")
	code, _, errs := run(t, "--db", db, "import", "tau-bench", "--rename", refused)
	if code != 2 || !strings.Contains(errs, "refused.json:1:9696407: run 600 (refused-t04-trial0), message 4") || strings.Contains(errs, "remove the records") {
		t.Fatalf("import of a file whose last run is refused: exit %d\n%s", code, errs)
	}
	if _, err := os.Stat(db); err == nil {
		t.Fatal("a refused import left the store it created")
	}

	db = filepath.Join(dir, "store.db")
	s, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	before := txid(db)
	code, _, errs = run(t, "--db", db, "import", "tau-bench", "--rename", good)
	if code != 0 || !strings.Contains(errs, "600 runs certified and saved") {
		t.Fatalf("import: exit %d\n%s", code, errs)
	}
	info, err := os.Stat(db)
	if err != nil {
		t.Fatal(err)
	}
	// One transaction begins the import, one publishes it, and the runs
	// (about 11 MB) take at least two more.
	if n := txid(db) - before; n < 4 {
		t.Errorf("600 runs (a %d-byte store) saved in %d transactions, want at least 4", info.Size(), n)
	}
	if n := listed(db); n != 600 {
		t.Errorf("%d records listed, want 600", n)
	}
}

// gzipped is b gzipped.
func gzipped(b []byte) []byte {
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(b)
	zw.Close()
	return z.Bytes()
}
