package classes

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/parthack/parthack/domains/bfcl/pyval"
)

// realCalls gathers every gold call and every decoded model call of the
// staged data and runs, once each, sorted, and the result each decoded
// call got in the runs (BFCL's harness under Python 3.12) where a step
// logs one tool result per call.
func realCalls(t *testing.T, root string) ([]string, map[string]string) {
	t.Helper()
	seen := map[string]bool{}
	logged := map[string]string{}
	step := func(msgs []any) {
		var calls, results []any
		for _, m := range msgs {
			mm, _ := m.(map[string]any)
			if d, ok := mm["model_response_decoded"].([]any); ok && mm["role"] == "handler_log" {
				calls = d
			}
			if mm["role"] == "tool" {
				results = append(results, mm["content"])
			}
		}
		if len(calls) != len(results) {
			return
		}
		for i, c := range calls {
			cs, ok1 := c.(string)
			rs, ok2 := results[i].(string)
			if ok1 && ok2 {
				logged[cs] = rs
			}
		}
	}
	var walk func(x any)
	walk = func(x any) {
		switch v := x.(type) {
		case map[string]any:
			if d, ok := v["model_response_decoded"].([]any); ok {
				for _, c := range d {
					if s, ok := c.(string); ok {
						seen[s] = true
					}
				}
			}
			for k, e := range v {
				if msgs, ok := e.([]any); ok && strings.HasPrefix(k, "step_") {
					step(msgs)
				}
				walk(e)
			}
		case []any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	files, _ := filepath.Glob(filepath.Join(root, "data", "possible_answer", "*.json.gz"))
	runs, _ := filepath.Glob(filepath.Join(root, "runs", "*_result.json.gz"))
	for _, f := range append(files, runs...) {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(fh)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(zr)
		sc.Buffer(make([]byte, 1<<20), 1<<28)
		for sc.Scan() {
			var entry map[string]any
			if err := json.Unmarshal(sc.Bytes(), &entry); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			if gt, ok := entry["ground_truth"].([]any); ok {
				for _, turn := range gt {
					for _, c := range turn.([]any) {
						seen[c.(string)] = true
					}
				}
			}
			walk(entry["inference_log"])
		}
		if err := sc.Err(); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		fh.Close()
	}
	out := make([]string, 0, len(seen))
	for c := range seen {
		out = append(out, c)
	}
	sort.Strings(out)
	return out, logged
}

// bindingError matches the TypeErrors of Python's argument binding.
var bindingError = regexp.MustCompile(`^Error during execution: \w+\.\w+\(\) (got an unexpected keyword argument|missing \d+ required|takes .* positional argument|got multiple values)`)

// TestRealCalls holds ParseCall and the executor's rewriting to BFCL's
// Python on every gold call and every decoded model call of the staged
// runs: the same literals as ast.literal_eval, the same SyntaxError
// texts, the same string from _process_method_calls; and where the runs
// logged a SyntaxError, NameError or binding TypeError (Python 3.12's
// texts), the executor gives that result.
func TestRealCalls(t *testing.T) {
	root := sharedBFCL(t)
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed")
	}
	calls, logged := realCalls(t, root)
	var in strings.Builder
	for _, c := range calls {
		b, _ := json.Marshal(c)
		in.Write(b)
		in.WriteByte('\n')
	}
	cmd := exec.Command(py, "testdata/realcalls.py", root)
	cmd.Stdin = strings.NewReader(in.String())
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python3 realcalls.py: %v", err)
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != len(calls)+1 {
		t.Fatalf("python3 gave %d lines for %d calls", len(lines), len(calls))
	}
	var head struct {
		Mapping map[string]string              `json:"mapping"`
		Classes map[string]string              `json:"classes"`
		Params  map[string]map[string][][3]any `json:"params"`
	}
	if err := json.Unmarshal([]byte(lines[0]), &head); err != nil {
		t.Fatal(err)
	}
	// A session of stand-in instances with the classes' real signatures:
	// every method fails if called, as only texts raised before a call
	// are compared.
	s := &Session{methods: map[string]int{}}
	index := map[string]int{}
	unported := func(*Instance, []pyval.Value) (pyval.Value, error) {
		return nil, fmt.Errorf("stand-in method called")
	}
	for m, inst := range head.Mapping {
		i, ok := index[inst]
		if !ok {
			i = len(s.names)
			index[inst] = i
			s.names = append(s.names, inst)
			class := head.Classes[inst]
			c := &Class{Name: class, Methods: map[string]*Method{}}
			for name, params := range head.Params[class] {
				meth := &Method{Body: unported}
				for _, p := range params {
					prm := Param{Name: p[0].(string), HasDefault: p[1].(bool)}
					if prm.HasDefault {
						prm.Default = mustValue(t, p[2].(string))
					}
					meth.Params = append(meth.Params, prm)
				}
				c.Methods[name] = meth
			}
			s.Instances = append(s.Instances, &Instance{Class: c})
		}
		s.methods[m] = i
	}
	syntax, literal := 0, 0
	for i, call := range calls {
		var want struct {
			Processed string `json:"processed"`
			Syntax    string `json:"syntax"`
			Literal   *struct {
				Args, Kwargs string
			} `json:"literal"`
		}
		if err := json.Unmarshal([]byte(lines[i+1]), &want); err != nil {
			t.Fatal(err)
		}
		if got := s.processMethodCalls(call); got != want.Processed {
			t.Errorf("_process_method_calls(%q) = %q, want %q", call, got, want.Processed)
		}
		c, err := ParseCall(call)
		switch {
		case want.Syntax != "":
			syntax++
			if err == nil || errText(err) != want.Syntax {
				t.Errorf("ParseCall(%q) = %v, want SyntaxError %q", call, err, want.Syntax)
			}
		case want.Literal == nil:
			if err == nil {
				t.Errorf("ParseCall(%q) took what ast.literal_eval refuses", call)
			}
		default:
			literal++
			if err != nil {
				t.Errorf("ParseCall(%q): %v", call, err)
				continue
			}
			kws := pyval.NewList()
			for _, kw := range c.Kwargs {
				kws.Append(pyval.Tuple{kw.Key, kw.Value})
			}
			if g := mustMarshal(t, pyval.NewList(c.Args...)); g != want.Literal.Args {
				t.Errorf("ParseCall(%q).Args = %s, want %s", call, g, want.Literal.Args)
			}
			if g := mustMarshal(t, kws); g != want.Literal.Kwargs {
				t.Errorf("ParseCall(%q).Kwargs = %s, want %s", call, g, want.Literal.Kwargs)
			}
		}
	}
	checked := 0
	for call, want := range logged {
		if !strings.HasSuffix(want, "(<string>, line 1)") && !strings.Contains(want, "is not defined") &&
			!bindingError.MatchString(want) {
			continue
		}
		checked++
		processed := s.processMethodCalls(call)
		n, err := parseExpr(processed)
		if err == nil {
			_, err = (&evaluator{s: s}).eval(n)
		}
		if got := "Error during execution: " + errText(err); err == nil || got != want {
			t.Errorf("%s: %v, the run logged %q", call, err, want)
		}
	}
	if checked == 0 {
		t.Errorf("the runs logged no SyntaxError or NameError")
	}
	t.Logf("%d distinct calls: %d of literals, %d syntax errors; %d logged SyntaxError, NameError and binding results equal", len(calls), literal, syntax, checked)
}
