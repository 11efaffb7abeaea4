package bfcl

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
)

// TestDecodeStep holds the decoding of a step to BFCL's
// convert_to_function_call, run in Python 3.11 on each step (the decoded
// call strings, or str(e) of what it raised).
func TestDecodeStep(t *testing.T) {
	for _, c := range []struct {
		step    string
		decoded []string
		err     string
	}{
		{`[{"cd": "{\"folder\": \"document\"}"}]`, []string{"cd(folder='document')"}, ""},
		{`[{"ls": "{\"a\": false}"}]`, []string{"ls(a=False)"}, ""},
		{`[{"echo": ""}]`, nil, "Expecting value: line 1 column 1 (char 0)"},
		{`[{"f": "[1]"}]`, nil, "'list' object has no attribute 'items'"},
		{`"hello"`, nil, "'str' object has no attribute 'items'"},
		{`""`, []string{}, ""},
		{`[]`, []string{}, ""},
		{`null`, nil, "'NoneType' object is not iterable"},
		{`[{"a": "{}"}, {"b": "{\"x\": 1.5, \"y\": [1, \"q\", null, true], \"z\": {\"k\": -2e-07}}"}]`, []string{"a()", "b(x=1.5,y=[1, 'q', None, True],z={'k': -2e-07})"}, ""},
		{`[{"post_tweet": "{\"content\": \"it's \\u00a0 \\\"q\\\" \\u65e5\\n\"}"}]`, []string{`post_tweet(content='it\'s \xa0 "q" 日\n')`}, ""},
		{`{"sort": "{\"file_name\": \"a.txt\"}"}`, []string{"sort(file_name='a.txt')"}, ""},
		{`[{"f": {"x": 1}}]`, []string{"f(x=1)"}, ""},
		{`[{"f": 5}]`, nil, "'int' object has no attribute 'items'"},
		{`[{"f": null}]`, nil, "'NoneType' object has no attribute 'items'"},
		{`[5]`, nil, "'int' object has no attribute 'items'"},
		{`[[1]]`, nil, "'list' object has no attribute 'items'"},
		{`["x"]`, nil, "'str' object has no attribute 'items'"},
		{`[{"f": "{\"a\": 1, \"a\": 2, \"b\": 3}"}]`, []string{"f(a=2,b=3)"}, ""},
		{`[{"f": "{\"n\": 12345678901234567890, \"m\": 1e400, \"k\": NaN}"}]`, []string{"f(n=12345678901234567890,m=inf,k=nan)"}, ""},
		{`[{"f": "{\"a\": 1}"}, {"g": "{bad"}]`, nil, "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"},
		{`[{"f": "{bad"}, {"g": 5}]`, nil, "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"},
		{`[{"f": "\"text\""}]`, nil, "'str' object has no attribute 'items'"},
		{`[{"f": "{\"a\": 1}", "g": "{\"b\": 2}"}]`, []string{"f(a=1)", "g(b=2)"}, ""},
		{`[{"startEngine": "{\"ignitionMode:\": \"START\"}"}]`, []string{"startEngine(ignitionMode:='START')"}, ""},
	} {
		c0, err := parseLine("r.json", c.step, 1)
		if err != nil {
			t.Fatal(err)
		}
		s, err := decodeStep(c0, c.step)
		if err != nil {
			t.Fatalf("%s: %v", c.step, err)
		}
		if !reflect.DeepEqual(s.Decoded, c.decoded) || s.DecodeError != c.err {
			t.Errorf("%s: decoded %q, error %q; want %q, %q", c.step, s.Decoded, s.DecodeError, c.decoded, c.err)
		}
		if s.Empty() != (len(c.decoded) == 0) {
			t.Errorf("%s: Empty() %v", c.step, s.Empty())
		}
		if text := strings.HasPrefix(c.step, `"`); s.IsText != text || text && `"`+s.Text+`"` != c.step {
			t.Errorf("%s: text %v %q", c.step, s.IsText, s.Text)
		}
	}
}

// resultLine is a BFCL result entry of one turn: a call, then an empty
// response, with its inference_log.
const resultLine = `{"id": "multi_turn_base_0", "result": [[[{"cd": "{\"folder\": \"a\"}"}], []]], "inference_log": [` +
	`[{"role": "state_info", "class_name": "GorillaFileSystem", "content": {"long_context": false, "root": "<Directory: w>"}}], ` +
	`{"begin_of_turn_query": [{"role": "user", "content": "hi"}], ` +
	`"step_0": [{"role": "assistant", "content": [{"cd": "{\"folder\": \"a\"}"}]}, {"role": "handler_log", "content": "Successfully decoded model response.", "model_response_decoded": ["cd(folder='a')"]}, {"role": "tool", "content": "{\"current_working_directory\": \"a\"}"}], ` +
	`"step_1": [{"role": "assistant", "content": []}, {"role": "handler_log", "content": "Successfully decoded model response.", "model_response_decoded": []}, {"role": "handler_log", "content": "Empty response from the model. Proceed to next turn.", "model_response_decoded": []}]}, ` +
	`[{"role": "state_info", "class_name": "GorillaFileSystem", "content": {"long_context": false, "root": "<Directory: w2>"}}]]}`

func readAll(t *testing.T, src []byte) ([]*Result, error) {
	t.Helper()
	var out []*Result
	err := StreamResults("r.json", bytes.NewReader(src), func(r *Result) error { out = append(out, r); return nil })
	return out, err
}

func TestStreamResults(t *testing.T) {
	failed := `{"id": "multi_turn_base_1", "result": "Error during inference: boom", "traceback": "..."}`
	rs, err := readAll(t, []byte(resultLine+"\n"+failed+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 2 {
		t.Fatalf("%d entries", len(rs))
	}
	r := rs[0]
	if r.ID != "multi_turn_base_0" || r.Category != "multi_turn_base" || r.Line != 1 || !r.Logged || r.Failed || len(r.Turns) != 1 {
		t.Fatalf("entry: %+v", r)
	}
	tu := r.Turns[0]
	if !reflect.DeepEqual(tu.Query, []Message{{"user", "hi"}}) || len(tu.Start) != 1 || tu.Start[0].Class != "GorillaFileSystem" || len(tu.Steps) != 2 {
		t.Fatalf("turn: %+v", tu)
	}
	s0, s1 := tu.Steps[0], tu.Steps[1]
	if !reflect.DeepEqual(s0.Decoded, []string{"cd(folder='a')"}) || !reflect.DeepEqual(s0.LoggedDecoded, s0.Decoded) ||
		!reflect.DeepEqual(s0.Results, []string{`{"current_working_directory": "a"}`}) || !reflect.DeepEqual(s0.Calls, []Call{{"cd", `{"folder": "a"}`}}) {
		t.Errorf("step 0: %+v", s0)
	}
	if !s1.Empty() || s1.Results != nil {
		t.Errorf("step 1: %+v", s1)
	}
	if len(r.Final) != 1 || fmt.Sprint(r.Final[0].Content.Items()[1].Value) != "<Directory: w2>" {
		t.Errorf("final: %+v", r.Final)
	}
	if got := r.ModelTurns(); !reflect.DeepEqual(got, [][][]string{{{"cd(folder='a')"}}}) {
		t.Errorf("model turns %q", got)
	}
	if f := rs[1]; !f.Failed || f.InferenceError != "Error during inference: boom" || f.Line != 2 {
		t.Errorf("failed entry: %+v", f)
	}
}

// TestStreamResultsErrors: every refusal names the file, line, column and
// JSON path, and what was expected.
func TestStreamResultsErrors(t *testing.T) {
	at := func(line, sub string) string { return fmt.Sprint(strings.Index(line, sub) + 1) }
	replace := func(old, new string) string {
		if !strings.Contains(resultLine, old) {
			t.Fatalf("%q not in the line", old)
		}
		return strings.Replace(resultLine, old, new, 1)
	}
	notList := `{"id": "multi_turn_base_0", "result": 5}`
	badTurn := `{"id": "multi_turn_base_0", "result": [{"a": 1}]}`
	noID := `{"result": []}`
	badID := `{"id": "simple_3", "result": []}`
	moreLog := replace(`]]}`, `], {"begin_of_turn_query": []}]}`)
	badAssistant := replace(`"content": []}, {"role": "handler_log"`, `"content": [{"ls": "{}"}]}, {"role": "handler_log"`)
	badStep := replace(`"step_1"`, `"step_2"`)
	badRole := replace(`{"role": "tool"`, `{"role": "user"`)
	twoStates := replace(`{"begin_of_turn_query"`, `[], {"begin_of_turn_query"`)
	badState := replace(`"role": "state_info", "class_name": "GorillaFileSystem", "content": {"long_context": false, "root": "<Directory: w>"}`, `"role": "state_info", "class_name": "GorillaFileSystem", "content": "x"`)
	deep := `{"id": "multi_turn_base_0", "result": [[[{"f": "` + strings.Repeat("[", 501) + `"}]]]}`
	for _, c := range []struct{ src, want string }{
		{resultLine + "\n{\"id\": \n", `r.json:2:8: $.id: malformed JSON: Expecting value`},
		{deep, `r.json:1:` + at(deep, `"[[`) + `: $.result[0][0][0].f: the arguments are nested deeper than 500 levels (parthack's bound)`},
		{notList, `r.json:1:` + at(notList, "5") + `: $.result: expected a list of turns, or the text of an inference error, got the number 5`},
		{badTurn, `r.json:1:` + at(badTurn, "{\"a\"") + `: $.result[0]: expected a list, got an object`},
		{noID, `r.json:1:1: $: missing "id"`},
		{badID, `r.json:1:` + at(badID, `"simple`) + `: $.id: expected a multi-turn entry's id (multi_turn_<category>_N), got "simple_3"`},
		{"[]", `r.json:1:1: $: expected an object, got a list`},
		{"\n", `r.json:1:1: $: malformed JSON: Expecting value`},
		{moreLog, `r.json:1:` + at(moreLog, `{"begin_of_turn_query": []}`) + `: $.inference_log[3]: the log has more turns than result (1)`},
		{badAssistant, `r.json:1:` + at(badAssistant, `[{"ls"`) + `: $.inference_log[1].step_1[0].content: expected the step's response as result records it`},
		{badStep, `r.json:1:` + at(badStep, `[{"role": "assistant", "content": []}`) + `: $.inference_log[1].step_2: expected step_1, the turn's next step, got "step_2"`},
		{badRole, `r.json:1:` + at(badRole, `"user", "content": "{`) + `: $.inference_log[1].step_0[2].role: expected assistant, handler_log, tool or inference_input, got "user"`},
		{twoStates, `r.json:1:` + at(twoStates, `[], {"begin`) + `: $.inference_log[1]: expected a turn's log (an object) after a state snapshot, got another snapshot`},
		{badState, `r.json:1:` + at(badState, `"x"`) + `: $.inference_log[0][0].content: expected an object, got "x"`},
	} {
		_, err := readAll(t, []byte(c.src))
		if err == nil || err.Error() != c.want {
			t.Errorf("%.60s…:\n got %v\nwant %s", c.src, err, c.want)
		}
	}
}

func gz(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

// TestStreamResultsGzip: a gzipped file is read as its text; a damaged
// one is refused for its damage, however its text parses.
func TestStreamResultsGzip(t *testing.T) {
	z := gz(t, []byte(resultLine+"\n"))
	rs, err := readAll(t, z)
	if err != nil || len(rs) != 1 || rs[0].ID != "multi_turn_base_0" {
		t.Fatalf("gzipped: %v, %d entries", err, len(rs))
	}
	crc := bytes.Clone(z)
	crc[len(crc)-8] ^= 0xff // the stored CRC-32
	truncated := z[:len(z)/2]
	for _, c := range []struct {
		src  []byte
		want string
	}{
		{crc, "corrupt gzip: the unpacked data does not match the checksum the file stores (gzip -t: crc error)"},
		{truncated, "truncated gzip: the compressed stream ends early"},
		{z[:5], "truncated gzip: the compressed stream ends early"},
	} {
		_, err := readAll(t, c.src)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("got %v, want %s", err, c.want)
		}
	}
}

// TestRealResults reads the six real result files: every entry decodes,
// and every step's decoding is the one BFCL's handler logged.
func TestRealResults(t *testing.T) {
	dir := sharedBFCL(t)
	for _, f := range runFiles(t, dir) {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		n, steps, failed := 0, 0, 0
		err = StreamResults(f, fh, func(r *Result) error {
			n++
			if r.Failed {
				failed++
			}
			for i, tu := range r.Turns {
				for k, s := range tu.Steps {
					steps++
					got, want := decodeText(s.Decoded, s.DecodeError), decodeText(s.LoggedDecoded, s.LoggedDecodeError)
					if got != want {
						t.Errorf("%s turn %d step %d: decoded %s, BFCL logged %s", r.ID, i, k, got, want)
					}
				}
			}
			return nil
		})
		fh.Close()
		if err != nil || n != 200 || steps == 0 {
			t.Errorf("%s: %v, %d entries, %d steps", f, err, n, steps)
		}
	}
}
