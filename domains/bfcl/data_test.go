package bfcl

import (
	"bufio"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/parthack/parthack/domains/bfcl/pyval"
)

// sharedBFCL is the staged BFCL folder (source, data, runs): $BFCL_DIR, or
// the nearest shared/realworld/bfcl above the package; the test is
// skipped with a note when there is none.
func sharedBFCL(t *testing.T) string {
	t.Helper()
	if d := os.Getenv("BFCL_DIR"); d != "" {
		return d
	}
	dir, _ := filepath.Abs(".")
	for {
		cand := filepath.Join(dir, "shared", "realworld", "bfcl")
		if st, err := os.Stat(filepath.Join(cand, "runs")); err == nil && st.IsDir() {
			return cand
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skip("no shared/realworld/bfcl above this package and BFCL_DIR unset: BFCL's runs are test data read from ../shared, not shipped")
		}
		dir = parent
	}
}

// TestShippedFiles holds every file under data/ to its row of NOTICE: git's
// blob id of its content (gunzipped where it is gzipped), gorilla
// 8db0b7ca's for that path.
func TestShippedFiles(t *testing.T) {
	notice, err := data.ReadFile("data/NOTICE")
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]string{}
	for _, line := range strings.Split(string(notice), "\n") {
		f := strings.Split(line, "|")
		if len(f) == 4 && strings.TrimSpace(f[1]) != "here" && !strings.HasPrefix(strings.TrimSpace(f[1]), "---") {
			rows[strings.TrimSpace(f[1])] = strings.TrimSpace(f[2])
		}
	}
	seen := 0
	err = fs.WalkDir(data, "data", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || p == "data/NOTICE" {
			return err
		}
		name := strings.TrimPrefix(p, "data/")
		want, ok := rows[name]
		if !ok {
			t.Errorf("%s is shipped but NOTICE has no row for it", name)
			return nil
		}
		seen++
		b, err := shipped(name)
		if err != nil {
			return err
		}
		h := sha1.New()
		fmt.Fprintf(h, "blob %d\x00", len(b))
		h.Write(b)
		if got := hex.EncodeToString(h.Sum(nil)); got != want {
			t.Errorf("%s: git blob %s, NOTICE says %s", name, got, want)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen != len(rows) {
		t.Errorf("NOTICE has %d rows, %d files are shipped", len(rows), seen)
	}
}

func TestEntries(t *testing.T) {
	es, err := Entries()
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, e := range es {
		count[e.Category]++
		if len(e.GroundTruth) != len(e.Question) {
			t.Errorf("%s: %d gold turns, %d question turns", e.ID, len(e.GroundTruth), len(e.Question))
		}
		if (e.Category == "multi_turn_miss_func") != (len(e.MissedFunction) > 0) {
			t.Errorf("%s: missed_function %v", e.ID, e.MissedFunction)
		}
	}
	if want := map[string]int{"multi_turn_base": 200, "multi_turn_miss_func": 200, "multi_turn_miss_param": 200}; !reflect.DeepEqual(count, want) {
		t.Errorf("entries per category %v, want %v", count, want)
	}
	if es[0].ID != "multi_turn_base_0" || es[200].ID != "multi_turn_miss_func_0" || es[599].ID != "multi_turn_miss_param_199" {
		t.Errorf("order: %s, %s, %s", es[0].ID, es[200].ID, es[599].ID)
	}
	e, err := EntryByID("multi_turn_miss_func_0")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(e.MissedFunction, map[int][]string{3: {"sort"}}) || len(e.Question[3]) != 0 {
		t.Errorf("miss_func_0: missed %v, turn 3 %v", e.MissedFunction, e.Question[3])
	}
	if want := []string{"cd(folder='document')", "mkdir(dir_name='temp')", "mv(source='final_report.pdf', destination='temp')"}; !reflect.DeepEqual(e.GroundTruth[0], want) {
		t.Errorf("miss_func_0 gold turn 0: %q", e.GroundTruth[0])
	}
	if !reflect.DeepEqual(e.InvolvedClasses, []string{"TwitterAPI", "GorillaFileSystem"}) || !reflect.DeepEqual(e.ExcludedFunction, []string{"cp"}) {
		t.Errorf("miss_func_0: involved %v, excluded %v", e.InvolvedClasses, e.ExcludedFunction)
	}
	tw, _ := e.InitialConfig.Get("TwitterAPI")
	if got := pyval.Repr(tw); !strings.HasPrefix(got, "{'tweet_counter': 3, 'tweets': {'0': {'id': 0,") {
		t.Errorf("miss_func_0 TwitterAPI config: %s", got)
	}
	var unrunnable []string
	for _, e := range es {
		if e.Unrunnable() != "" {
			unrunnable = append(unrunnable, strings.TrimPrefix(e.ID, "multi_turn_miss_func_"))
		}
	}
	if got := strings.Join(unrunnable, " "); got != "101 102 115 120 122 124 129 130" {
		t.Errorf("unrunnable miss_func entries: %s", got)
	}
	if _, err := EntryByID("multi_turn_base_200"); err == nil {
		t.Error("multi_turn_base_200 found")
	}
}

func TestFuncDocs(t *testing.T) {
	want := map[string]int{"GorillaFileSystem": 18, "MathAPI": 17, "MessageAPI": 10, "TwitterAPI": 14, "TicketAPI": 9, "TradingBot": 20, "TravelAPI": 18, "VehicleControlAPI": 22}
	for class, n := range want {
		docs, err := FuncDocs(class)
		if err != nil {
			t.Fatal(err)
		}
		if len(docs) != n {
			t.Errorf("%s: %d docs, want %d", class, len(docs), n)
		}
	}
	docs, _ := FuncDocs("MathAPI")
	d := docs[0]
	if d.Name != "absolute_value" || d.Parameters.Type != "dict" || len(d.Parameters.Properties) != 1 ||
		d.Parameters.Properties[0].Name != "number" || d.Parameters.Properties[0].Schema.Type != "float" ||
		!reflect.DeepEqual(d.Parameters.Required, []string{"number"}) || d.Response.Properties[0].Name != "result" {
		t.Errorf("absolute_value: %+v", d)
	}
	docs, _ = FuncDocs("GorillaFileSystem")
	for _, d := range docs {
		if d.Name == "ls" {
			a := d.Parameters.Properties[0].Schema
			if !a.HasDefault || a.Default != false {
				t.Errorf("ls's a: default %v (%v)", a.Default, a.HasDefault)
			}
		}
	}
	if _, err := FuncDocs("WebSearchAPI"); err == nil {
		t.Error("WebSearchAPI has docs")
	}
}

// TestPyJSON holds the parser to Python 3.11's json.loads (its C
// scanner) on testdata/pyjson.jsonl, which testdata/pyjson_gen.py wrote:
// each text's value (as repr) or its error text.
func TestPyJSON(t *testing.T) {
	f, err := os.Open("testdata/pyjson.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		var c struct{ Text, Repr, Error string }
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		n++
		v, jerr := parseJSON(c.Text, false)
		got := ""
		if jerr != nil {
			got = "error " + jerr.pyMessage(c.Text)
		} else {
			got = "repr " + pyval.Repr(v.py())
		}
		want := "repr " + c.Repr
		if c.Error != "" {
			want = "error " + c.Error
		}
		if got != want {
			t.Errorf("json.loads(%q):\n got %s\nwant %s", c.Text, got, want)
		}
	}
	if n < 600 {
		t.Fatalf("only %d cases", n)
	}
}

// TestDecodeQuestionErrors: bad entries are refused with the file, line,
// column and JSON path of the value, and what was expected.
func TestDecodeQuestionErrors(t *testing.T) {
	good := `"question": [[{"role": "user", "content": "hi"}]], "initial_config": {}, "involved_classes": ["MathAPI"], "path": []`
	for _, c := range []struct{ line, want string }{
		{`[1]`, `q.json:7:1: $: expected an object, got a list`},
		{`{"id": }`, `q.json:7:8: $.id: malformed JSON: Expecting value`},
		{`{"id": "multi_turn_base_1", "id": "x"}`, `q.json:7:29: $: malformed JSON: key "id" repeats (a file BFCL writes has each key once)`},
		{`{"id": "multi_turn_base_1", "extra": 1, ` + good + `}`, `q.json:7:1: $: unexpected key "extra" (expected id, question, initial_config, involved_classes, path, excluded_function, missed_function)`},
		{`{"id": "multi_turn_miss_func_1", ` + good + `}`, `q.json:7:8: $.id: expected an id of category multi_turn_base (multi_turn_base_N), got "multi_turn_miss_func_1"`},
		{`{"id": "multi_turn_base_1", "question": [[{"role": "user", "content": 5}]]}`, `q.json:7:71: $.question[0][0].content: expected a string, got the number 5`},
		{`{"id": "multi_turn_base_1", "question": [], "initial_config": []}`, `q.json:7:63: $.initial_config: expected an object, got a list`},
		{`{"id": "multi_turn_base_1", "question": [], "initial_config": {}, "involved_classes": ["Shell"], "path": []}`, `q.json:7:88: $.involved_classes[0]: expected one of BFCL's multi-turn classes, got "Shell"`},
		{`{"id": "multi_turn_base_1", ` + good + `, "missed_function": {"one": ["sort"]}}`, `q.json:7:174: $.missed_function.one: expected a turn index from 0 to 0 as the key, got "one"`},
		{`{"id": "multi_turn_base_1", ` + good + `, "missed_function": {"0": "sort"}}`, `q.json:7:172: $.missed_function.0: expected a list, got "sort"`},
		{`{"id": "multi_turn_base_1", ` + good[:len(good)-12] + `}`, `q.json:7:1: $: missing "path"`},
		{"{\"id\": \"multi_turn_base_\xff\"}", `q.json:7:25: invalid UTF-8: byte 0xFF is not part of a UTF-8 character (BFCL's files are UTF-8)`},
	} {
		c0, err := parseLine("q.json", c.line, 7)
		if err == nil {
			_, err = decodeQuestion(c0, "multi_turn_base")
		}
		if err == nil || err.Error() != c.want {
			t.Errorf("%s:\n got %v\nwant %s", c.line, err, c.want)
		}
	}
}

// TestDecodeCategoryErrors: a category's files are read on every core,
// yet the error is the one a reader line by line meets first: every
// question before any answer, and an answer's pairing with its question
// before a later answer's syntax.
func TestDecodeCategoryErrors(t *testing.T) {
	q := func(n int) string {
		return fmt.Sprintf(`{"id": "multi_turn_base_%d", "question": [[{"role": "user", "content": "hi"}]], "initial_config": {}, "involved_classes": ["MathAPI"], "path": []}`, n)
	}
	a := func(n int) string {
		return fmt.Sprintf(`{"id": "multi_turn_base_%d", "ground_truth": [["mean(numbers=[1])"]]}`, n)
	}
	lines := func(ls ...string) []byte { return []byte(strings.Join(ls, "\n") + "\n") }
	many := make([]string, 64)
	for i := range many {
		many[i] = q(i)
	}
	manyA := make([]string, 64)
	for i := range manyA {
		manyA[i] = a(i)
	}
	for _, c := range []struct {
		name   string
		qs, as []byte
		want   string
	}{
		{"question syntax before an answer's", lines(q(0), `{"id": }`), lines(`[`), `q.json:2:8: $.id: malformed JSON: Expecting value`},
		{"the first bad question of many", lines(append(append(slices.Clone(many[:40]), `[1]`), append(many[41:], `[2]`)...)...), lines(a(0)), `q.json:41:1: $: expected an object, got a list`},
		{"pairing before a later answer's syntax", lines(q(0), q(1), q(2)), lines(a(0), a(2), `{"id": }`), `a.json:2:8: $.id: expected "multi_turn_base_1", the id of line 2 of q.json (BFCL pairs questions and answers by position)`},
		{"an answer with no question", lines(q(0)), lines(a(0), a(1)), `a.json:2:8: $.id: entry "multi_turn_base_1" has no question: q.json holds 1`},
		{"too few answers", lines(q(0), q(1)), lines(a(0)), `bfcl data a.json: 1 answers for 2 questions of q.json`},
		{"turns unpaired", lines(q(0)), lines(`{"id": "multi_turn_base_0", "ground_truth": []}`), `a.json:1:45: $.ground_truth: expected 1 turns, one per turn of the question, got 0`},
	} {
		_, err := decodeCategory("multi_turn_base", "q.json", c.qs, "a.json", c.as)
		if err == nil || err.Error() != c.want {
			t.Errorf("%s:\n got %v\nwant %s", c.name, err, c.want)
		}
	}
	es, err := decodeCategory("multi_turn_base", "q.json", lines(many...), "a.json", lines(manyA...))
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range es {
		if want := fmt.Sprintf("multi_turn_base_%d", i); e.ID != want || len(e.GroundTruth) != 1 {
			t.Fatalf("entry %d is %s with %d turns of ground truth, want %s, in the file's order, with 1", i, e.ID, len(e.GroundTruth), want)
		}
	}
}
