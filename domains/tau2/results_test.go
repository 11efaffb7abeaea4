package tau2

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/parthack/parthack/domains"
)

func gz(s string) []byte {
	var b bytes.Buffer
	z := gzip.NewWriter(&b)
	z.Write([]byte(s))
	z.Close()
	return b.Bytes()
}

const okFile = `{"timestamp": "t", "info": {"git_commit": "abc", "agent_info": {"llm": "m"}}, "tasks": [{"id": "1", "evaluation_criteria": {"actions": [{"name": "x", "arguments": {"a": 1}, "compare_args": null}], "reward_basis": ["DB"]}}],
 "simulations": [{"id": "s1", "task_id": "1", "termination_reason": "user_stop", "extra": {"any": "thing"}, "messages": [
  {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "name": "x", "arguments": {"a": 1}, "requestor": "assistant"}]},
  {"role": "tool", "id": "c1", "content": "ok", "requestor": "assistant", "error": false}],
  "reward_info": {"reward": 1.0, "db_check": {"db_match": true, "db_reward": 1.0}, "reward_basis": ["DB"]}}]}`

// TestDecode reads a small file plain and gzipped, and refuses bad input
// with an error that says where.
func TestDecode(t *testing.T) {
	for _, src := range [][]byte{[]byte(okFile), gz(okFile)} {
		r, err := Decode("f.json", src)
		if err != nil {
			t.Fatal(err)
		}
		if r.Info.GitCommit != "abc" || r.Info.AgentLLM != "m" || len(r.Simulations) != 1 || r.Calls() != 1 ||
			r.Tasks[0].Criteria.Actions[0].CompareArgs != nil || !r.Simulations[0].RewardInfo.DBCheck.DBMatch {
			t.Fatalf("decoded %+v", r)
		}
	}
	full := gz(okFile)
	for _, c := range []struct {
		name string
		src  []byte
		want string
	}{
		{"not JSON", []byte("hello"), "f.json:1:1: not a tau2 Results file"},
		{"a byte order mark", append([]byte("\xef\xbb\xbf"), okFile...), "f.json:1:1: the file starts with a UTF-8 byte order mark"},
		{"invalid UTF-8", []byte(strings.Replace(okFile, `"content": "ok"`, "\"content\": \"o\xffk\"", 1)), "f.json:4:45: simulations[0].messages[1].content: invalid UTF-8"},
		{"a duplicate key", []byte(strings.Replace(okFile, `"content": "ok"`, `"content": "ok", "content": "ko"`, 1)), `f.json:4:49: simulations[0].messages[1].content: duplicate key "content"`},
		{"truncated", []byte(okFile[:len(okFile)-40]), "malformed JSON: unexpected end of input"},
		{"a list", []byte(`[1, 2]`), "f.json:1:1: not a tau2 Results file"},
		{"no simulations", []byte(`{"info": {}, "tasks": []}`), `no "simulations"`},
		{"truncated gzip", full[:len(full)/2], "f.json: truncated gzip"},
		{"unknown task", []byte(strings.Replace(okFile, `"task_id": "1"`, `"task_id": "9"`, 1)),
			`f.json:2:42: simulations[0].task_id (simulation s1): task "9" is not among the file's 1 tasks`},
		{"reward not a number", []byte(strings.Replace(okFile, `"reward": 1.0`, `"reward": "high"`, 1)),
			`f.json:5:29: simulations[0].reward_info.reward (simulation s1): expected a number, got JSON string`},
		{"arguments a string", []byte(strings.Replace(okFile, `"tool_calls": [{"id": "c1", "name": "x", "arguments": {"a": 1}`, `"tool_calls": [{"id": "c1", "name": "x", "arguments": "a=1"`, 1)),
			`simulations[0].messages[0].tool_calls[0].arguments (simulation s1): expected an object`},
		{"an id mismatch", []byte(strings.Replace(okFile, `"id": "c1", "content"`, `"id": "c2", "content"`, 1)),
			`f.json:4:26: simulations[0].messages[1].id (simulation s1): tool message "c2" answers call "c1" (x, messages[0].tool_calls[0])`},
		{"bad role", []byte(strings.Replace(okFile, `"role": "tool"`, `"role": "robot"`, 1)), `messages[1].role (simulation s1): unknown role "robot"`},
		{"bad basis", []byte(strings.Replace(okFile, `"reward_basis": ["DB"]}}]`, `"reward_basis": ["VIBES"]}}]`, 1)), `tasks[0].evaluation_criteria.reward_basis[0]: unknown reward type "VIBES"`},
		{"bad requestor", []byte(strings.Replace(okFile, `"requestor": "assistant"}`, `"requestor": "robot"}`, 1)), `tool_calls[0].requestor (simulation s1): expected "assistant" or "user"`},
	} {
		_, err := Decode("f.json", c.src)
		var e *Error
		if err == nil || !errors.As(err, &e) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}

// fakeReader is a tau2 domain whose runs are named by their simulation,
// for the tests of how a file's runs are read.
type fakeReader struct{ heads []string }

func (f *fakeReader) Name() string { return "fake" }
func (f *fakeReader) Runner(res *Results) (func(*Simulation) (*domains.Run, error), []*domains.Task, error) {
	f.heads = append(f.heads, fmt.Sprintf("%s: %d tasks, %d runs held", res.Info.GitCommit, len(res.Tasks), len(res.Simulations)))
	return func(s *Simulation) (*domains.Run, error) {
		return &domains.Run{Name: fmt.Sprintf("%s/%s/%d", s.TaskID, s.ID, s.Index)}, nil
	}, nil, nil
}
func (f *fakeReader) Conformer(*Results) (func(*Simulation) error, func() *domains.Conformance, error) {
	return nil, nil, nil
}

// TestRunsStreamed: a file's runs read as its simulations arrive are
// the runs of the file decoded whole, in order; the reader learns the
// file's tasks before its first run and is never handed its runs; a
// file whose runs come before its tasks still gives them.
func TestRunsStreamed(t *testing.T) {
	fake := &fakeReader{}
	RegisterReader("fake", fake)
	file := strings.Replace(okFile, `"git_commit": "abc"`, `"git_commit": "abc", "environment_info": {"domain_name": "fake"}`, 1)
	file = strings.Replace(file, `"simulations": [{"id": "s1"`, `"simulations": [{"id": "s0", "task_id": "1", "termination_reason": "agent_stop", "messages": []}, {"id": "s1"`, 1)
	at := strings.Index(file, `"simulations"`)
	sims, before := file[at:strings.LastIndex(file, "}")], strings.TrimRight(file[1:at], ", \n")
	reordered := "{" + sims + ", " + before + "}"
	res, err := Decode("f.json", []byte(file))
	if err != nil {
		t.Fatal(err)
	}
	run, _, err := fake.Runner(res)
	if err != nil {
		t.Fatal(err)
	}
	var whole []string
	for i, sim := range res.Simulations {
		r, err := run(sim)
		if err != nil {
			t.Fatal(err)
		}
		whole = append(whole, fmt.Sprint(i, " ", r.Name))
	}
	if want := []string{"0 1/s0/0", "1 1/s1/1"}; !slices.Equal(whole, want) {
		t.Fatalf("read whole: %v, want %v", whole, want)
	}
	for _, src := range []string{file, reordered} {
		fake.heads = nil
		var got []string
		if err := streamResults("f.json", strings.NewReader(src), func(i int, r *domains.Run) error {
			got = append(got, fmt.Sprint(i, " ", r.Name))
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, whole) {
			t.Errorf("streamed: %v, want %v", got, whole)
		}
		if want := []string{"abc: 1 tasks, 0 runs held"}; !slices.Equal(fake.heads, want) {
			t.Errorf("the reader was told %v, want %v", fake.heads, want)
		}
	}
}
