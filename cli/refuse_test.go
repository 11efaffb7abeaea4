package cli

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/parthack/parthack/domains/tau2"
	"github.com/parthack/parthack/store"
)

// storedGzip is b gzipped without compression: its bytes stand in the
// file as they are, so that one of them can be changed in place.
func storedGzip(b []byte) []byte {
	var z bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&z, gzip.NoCompression)
	zw.Write(b)
	zw.Close()
	return z.Bytes()
}

// flipped is b with one bit of the byte at i changed.
func flipped(b []byte, i int) []byte {
	out := bytes.Clone(b)
	out[i] ^= 0x02
	return out
}

// badCRC is a gzip file whose stored checksum does not match its data.
func badCRC(b []byte) []byte {
	z := gzipped(b)
	return flipped(z, len(z)-8)
}

// pointsAt checks that the error's file:line:col places the value that
// starts with want (or holds it within its first bytes).
func pointsAt(t *testing.T, errs, file, want string) {
	t.Helper()
	m := regexp.MustCompile(regexp.QuoteMeta(filepath.Base(file)) + `:(\d+):(\d+): `).FindStringSubmatch(errs)
	if m == nil {
		t.Errorf("no line:col for %s in %q", filepath.Base(file), errs)
		return
	}
	line, _ := strconv.Atoi(m[1])
	col, _ := strconv.Atoi(m[2])
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	off := 0
	for n := 1; n < line; n++ {
		i := bytes.IndexByte(src[off:], '\n')
		if i < 0 {
			t.Fatalf("the file has no line %d", line)
		}
		off += i + 1
	}
	off += col - 1
	if at := src[min(off, len(src)):min(len(src), off+len(want)+300)]; !bytes.Contains(at, []byte(want)) {
		t.Errorf("%d:%d is %q…, not the place of %q", line, col, at[:min(len(at), 60)], want)
	}
}

// TestImportRefusesAndLeavesNoStore: every way a run file can be
// unreadable, corrupt, empty or not certifiable is refused with exit 2,
// located where it has a place (file:line:col and the JSON path of the
// call or value), and a store that did not exist does not exist after.
func TestImportRefusesAndLeavesNoStore(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	plain, err := tau2.Data("runs/airline-gpt-4.1.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	var res map[string]any
	edit := func(name string, change func(res map[string]any)) string {
		res = nil
		if err := json.Unmarshal(plain, &res); err != nil {
			t.Fatal(err)
		}
		change(res)
		b, err := json.MarshalIndent(res, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		return write(name, b)
	}
	unknownTool := edit("tool.json", func(res map[string]any) {
		for _, m := range res["simulations"].([]any)[3].(map[string]any)["messages"].([]any) {
			if calls, ok := m.(map[string]any)["tool_calls"].([]any); ok && len(calls) > 0 {
				calls[0].(map[string]any)["name"] = "launch_rocket"
				return
			}
		}
	})
	// A user's message changed by one bit in the file: the JSON stays
	// good, only the checksum tells.
	stored := storedGzip(plain)
	at := bytes.Index(stored, []byte(`"role": "user"`))
	at = bytes.Index(stored[at:], []byte(`"content": "`)) + at + len(`"content": "`) + 3
	tauRuns := tauRuns(t)
	two, _ := json.Marshal([]map[string]any{tauRuns[4], tauRuns[54]})
	unknownFile, _ := json.Marshal([]any{tauRuns[54], renamedFirstCall(tauRuns[4], "get_reservation_detail")})
	tauTool := write("bad.json", unknownFile)
	if err := os.Mkdir(filepath.Join(dir, "adir"), 0o755); err != nil {
		t.Fatal(err)
	}

	for _, c := range []struct {
		name, format, file string
		want               []string
		place              string // what file:line:col must point at
	}{
		{"tau2: a checksum that does not match", "tau2", write("crc.json.gz", badCRC(plain)), []string{"crc.json.gz:", ": corrupt gzip: the unpacked data does not match the checksum", "crc error"}, ""},
		{"tau2: one bit of a message changed", "tau2", write("flip.json.gz", flipped(stored, at)), []string{"flip.json.gz: corrupt gzip", "crc error"}, ""},
		{"tau2: a truncated gzip", "tau2", write("cut.json.gz", gzipped(plain)[:1000]), []string{"cut.json.gz", "truncated gzip"}, ""},
		{"tau-bench: a checksum that does not match", "tau-bench", write("crc.json", badCRC(two)), []string{"crc.json:", ": corrupt gzip", "crc error"}, ""},
		{"tau2: a directory", "tau2", filepath.Join(dir, "adir"), []string{"adir: is a directory"}, ""},
		{"tau-bench: a directory", "tau-bench", filepath.Join(dir, "adir"), []string{"adir: is a directory"}, ""},
		{"tau2: a missing file", "tau2", filepath.Join(dir, "missing.json"), []string{"missing.json: no such file"}, ""},
		{"tau2: no simulations", "tau2", edit("empty.json", func(res map[string]any) { res["simulations"] = []any{} }),
			[]string{": simulations: the file holds no run (expected a list of at least one simulation)"}, "[]"},
		{"tau2: null simulations", "tau2", edit("null.json", func(res map[string]any) { res["simulations"] = nil }),
			[]string{": simulations: the file holds no run"}, "null"},
		{"tau-bench: an empty list", "tau-bench", write("none.json", []byte("\n [ ]\n")),
			[]string{"none.json:2:2: $: the list holds no run"}, "[ ]"},
		{"tau2: an unknown domain", "tau2", edit("dom.json", func(res map[string]any) {
			res["info"].(map[string]any)["environment_info"].(map[string]any)["domain_name"] = "banking"
		}), []string{`: info.environment_info.domain_name: "banking" is not a tau2 domain parthack has (it has airline, retail, telecom)`}, `"banking"`},
		{"tau2: an unknown tool", "tau2", unknownTool, []string{"].tool_calls[0] (simulation ", "): call 1: not certifiable: illegal_action", `no tool "launch_rocket"`}, `"launch_rocket"`},
		{"tau-bench: an unknown tool", "tau-bench", tauTool, []string{"run 1 (bad-t04-trial0), message ", ", call get_reservation_detail({", "]: not certifiable: illegal_action", ".tool_calls[0]"}, "get_reservation_detail"},
	} {
		t.Run(c.name, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "new.db")
			code, _, errs := run(t, "--db", db, "import", c.format, c.file)
			if code != 2 {
				t.Fatalf("exit %d, want 2: %s", code, errs)
			}
			for _, w := range c.want {
				if !strings.Contains(errs, w) {
					t.Errorf("stderr lacks %q:\n%s", w, errs)
				}
			}
			if strings.Count(strings.TrimSpace(errs), "\n") > 0 {
				t.Errorf("more than one line:\n%s", errs)
			}
			if c.place != "" {
				pointsAt(t, errs, c.file, c.place)
			}
			if _, err := os.Stat(db); err == nil {
				t.Errorf("a refused import left a new store %s", db)
			}
		})
	}
}

// TestStorePathRefused: a store path that names no store, or a directory
// that does not exist, is said so (exit 2), and nothing is made there.
func TestStorePathRefused(t *testing.T) {
	dir := t.TempDir()
	good := shippedRun(t, "airline-gpt-4.1.json.gz")
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"store ls on a missing store", []string{"--db", filepath.Join(dir, "none.db"), "store", "ls"}, "--db " + filepath.Join(dir, "none.db") + ": no such store"},
		{"store show on a missing store", []string{"--db", filepath.Join(dir, "none.db"), "store", "show", "x"}, "no such store"},
		{"import into a directory that is not there", []string{"--db", filepath.Join(dir, "no", "such", "x.db"), "import", "tau2", good},
			"no directory " + filepath.Join(dir, "no", "such")},
		{"import of a missing file", []string{"--db", filepath.Join(dir, "new.db"), "import", "tau2", filepath.Join(dir, "missing.json")}, "no such file"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out, errs := run(t, c.args...)
			if code != 2 || !strings.Contains(errs, c.want) || out != "" {
				t.Fatalf("exit %d, want 2 with %q:\n%s%s", code, c.want, out, errs)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 0 {
				t.Fatalf("left %v", entries)
			}
		})
	}
}

// TestMissingFileBeforeLockedStore: a trajectory file that is not there
// is said first, while another process holds the default store; the
// store's state follows.
func TestMissingFileBeforeLockedStore(t *testing.T) {
	data := t.TempDir()
	t.Setenv("XDG_DATA_HOME", data)
	path, err := store.DefaultPath()
	if err != nil {
		t.Fatal(err)
	}
	if err := store.MakeDir(path); err != nil {
		t.Fatal(err)
	}
	s, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil { // as another parthack holds it
		t.Fatal(err)
	}
	code, _, errs := run(t, "replay", "--task", example("task.json"), "--trajectory", "missing.json")
	if code != 2 || !strings.HasPrefix(errs, "parthack: read trajectory: stat missing.json: no such file or directory (nor can the store be searched") ||
		!strings.Contains(errs, "store is locked") {
		t.Fatalf("exit %d:\n%s", code, errs)
	}
}

// TestTaskFileM: a task file whose goal version has fewer than 3 or more
// than 5 predicates is refused by every command that reads it, at the
// predicates' line, column and path; tasks validate calls it invalid.
func TestTaskFileM(t *testing.T) {
	src, err := os.ReadFile(example("task.json"))
	if err != nil {
		t.Fatal(err)
	}
	var task map[string]any
	if err := json.Unmarshal(src, &task); err != nil {
		t.Fatal(err)
	}
	goal := task["goals"].([]any)[0].(map[string]any)
	preds := goal["predicates"].([]any)
	dir := t.TempDir()
	for _, n := range []int{2, 6} {
		var ps []any
		for i := range n {
			p := map[string]any{}
			b, _ := json.Marshal(preds[i%len(preds)])
			json.Unmarshal(b, &p)
			p["id"] = fmt.Sprintf("g%d", i+1)
			ps = append(ps, p)
		}
		goal["predicates"] = ps
		b, _ := json.MarshalIndent(task, "", "  ")
		file := filepath.Join(dir, fmt.Sprintf("m%d.json", n))
		if err := os.WriteFile(file, b, 0o644); err != nil {
			t.Fatal(err)
		}
		want := fmt.Sprintf(": $.goals[0].predicates: goal %s has %d predicates; a task's goal version has 3 to 5", goal["version"], n)
		for _, c := range []struct {
			args []string
			code int
		}{
			{[]string{"replay", "--task", file, "--trajectory", example("honest.json")}, 2},
			{[]string{"certify", "--task", file, "--honest", example("honest.json"), "--candidate", example("witness.json")}, 2},
			{[]string{"tasks", "validate", file}, 1},
		} {
			t.Run(fmt.Sprintf("m %d %s", n, c.args[0]), func(t *testing.T) {
				code, _, errs := run(t, c.args...)
				if code != c.code || !strings.Contains(errs, want) {
					t.Fatalf("exit %d, want %d with %q:\n%s", code, c.code, want, errs)
				}
				pointsAt(t, errs, file, "[")
			})
		}
	}
}

// TestBenchRunsCheckedFirst: bench --runs reads and certifies every run
// of every file before the first search: a run that cannot be certified,
// in the last file, is said at once (no run's search reported before),
// at its call's line, column and JSON path.
func TestBenchRunsCheckedFirst(t *testing.T) {
	good := shippedRun(t, "airline-gpt-4.1.json.gz")
	plain, err := tau2.Data("runs/airline-gpt-4.1.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	var res map[string]any
	if err := json.Unmarshal(plain, &res); err != nil {
		t.Fatal(err)
	}
	sims := res["simulations"].([]any)
	last := sims[len(sims)-1].(map[string]any)
	for _, m := range last["messages"].([]any) {
		if calls, ok := m.(map[string]any)["tool_calls"].([]any); ok && len(calls) > 0 {
			calls[0].(map[string]any)["name"] = "launch_rocket"
			break
		}
	}
	b, _ := json.MarshalIndent(res, "", " ")
	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, b, 0o644); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	code, stdout, errs := run(t, "bench", "--domain", "tau2-airline", "--runs", good, "--runs", bad,
		"--witnesses", filepath.Join(out, "w"), "--ledger-out", filepath.Join(out, "l.json"))
	want := fmt.Sprintf("simulations[%d].messages[", len(sims)-1)
	if code != 2 || !strings.Contains(errs, want) || !strings.Contains(errs, `not certifiable: illegal_action: tool "launch_rocket"`) {
		t.Fatalf("exit %d, want 2 with %q:\n%s", code, want, errs)
	}
	pointsAt(t, errs, bad, `"launch_rocket"`)
	if strings.Contains(errs, "P_state") || stdout != "" {
		t.Errorf("runs were searched before the bad one was found:\n%s%s", stdout, errs)
	}
	if entries, _ := os.ReadDir(out); len(entries) != 0 {
		t.Errorf("a refused bench left %v", entries)
	}
}

// TestBenchOutputsAllOrNothing: bench's witnesses and its two ledgers
// appear together or not at all: when one witness cannot be written (a
// directory stands in its place), no witness and no ledger is left; an
// output that cannot be written is refused before the searches.
func TestBenchOutputsAllOrNothing(t *testing.T) {
	dir := t.TempDir()
	w, l := filepath.Join(dir, "w"), filepath.Join(dir, "l.json")
	blocked := filepath.Join(w, "gpt-4o-t04-trial2.historical_milestone.json")
	if err := os.MkdirAll(blocked, 0o755); err != nil {
		t.Fatal(err)
	}
	args := []string{"bench", "--domain", "tau-airline", "--tasks", "TAU-A04", "--edits", "1"}
	code, _, errs := run(t, append(args, "--witnesses", w, "--ledger-out", l)...)
	if code != 2 || !strings.Contains(errs, blocked+": is a directory") {
		t.Fatalf("exit %d, want 2 with the blocked witness:\n%s", code, errs)
	}
	entries, _ := os.ReadDir(dir)
	inW, _ := os.ReadDir(w)
	if len(entries) != 1 || len(inW) != 1 {
		t.Fatalf("a failed bench left %v and %v in %s", entries, inW, w)
	}
	if err := os.Remove(blocked); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "l.control.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	code, _, errs = run(t, append(args, "--witnesses", filepath.Join(dir, "w2"), "--ledger-out", l)...)
	if code != 2 || !strings.Contains(errs, "--ledger-out: "+filepath.Join(dir, "l.control.json")+" is a directory") || strings.Contains(errs, "P_state") {
		t.Fatalf("exit %d, want 2 before any search:\n%s", code, errs)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Fatalf("a refused bench left %v", entries)
	}
}
