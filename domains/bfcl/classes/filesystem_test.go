package classes

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parthack/parthack/domains/bfcl/pyval"
)

// fsReplayStep is one call of a generated sequence and what BFCL's own
// Python gave for it (testdata/fs/generate.py).
type fsReplayStep struct {
	Call   string            `json:"call"`
	Result string            `json:"result"`
	State  map[string]string `json:"state"`
}

type fsReplaySeq struct {
	ID            string          `json:"id"`
	InitialConfig json.RawMessage `json:"initial_config"`
	Calls         []fsReplayStep  `json:"calls"`
}

// fsPublicState is what the generator writes after a call: repr of each
// public attribute of the class's instance.
func fsPublicState(s *Session, class string) map[string]string {
	for _, st := range s.Snapshot() {
		if st.Class == class {
			out := map[string]string{}
			for _, a := range st.Attrs {
				out[a.Name] = pyval.Repr(a.Value)
			}
			return out
		}
	}
	return nil
}

// fsReplayFile runs every sequence of a generated file through the port's
// executor, one call at a time, and compares each result string and
// each state with Python's; it returns how many of each were equal.
func fsReplayFile(t *testing.T, class, path string) (results, states, calls int) {
	t.Helper()
	for _, seq := range gzipJSONLines[fsReplaySeq](t, path) {
		cfg := pyval.NewDict()
		if len(seq.InitialConfig) > 0 {
			v, err := pyval.Loads(seq.InitialConfig)
			if err != nil {
				t.Fatalf("%s %s: initial_config: %v", path, seq.ID, err)
			}
			cfg.Set(class, v)
		}
		sess, err := NewSession(cfg, []string{class}, "gen", seq.ID)
		if err != nil {
			t.Fatalf("%s %s: %v", path, seq.ID, err)
		}
		for i, step := range seq.Calls {
			calls++
			got := sess.Execute([]string{step.Call})[0]
			if got == step.Result {
				results++
			} else {
				t.Errorf("%s %s #%d %s:\n got  %s\n want %s", filepath.Base(path), seq.ID, i, step.Call, got, step.Result)
			}
			if step.State == nil {
				continue
			}
			gotState := fsPublicState(sess, class)
			equal := len(gotState) == len(step.State)
			for k, want := range step.State {
				if gotState[k] != want {
					equal = false
					t.Errorf("%s %s #%d %s: %s:\n got  %s\n want %s", filepath.Base(path), seq.ID, i, step.Call, k, gotState[k], want)
				}
			}
			if equal {
				states++
			}
		}
		if len(sess.Faults) > 0 {
			t.Errorf("%s %s: port panics: %v", path, seq.ID, sess.Faults)
		}
	}
	return results, states, calls
}

// TestFileSystemGold replays every gold call of every entry involving
// GorillaFileSystem (the three categories) and the hand-made edge calls,
// against BFCL's own results and states.
func TestFileSystemGold(t *testing.T) {
	for _, name := range []string{"gold", "edge"} {
		t.Run(name, func(t *testing.T) {
			results, states, calls := fsReplayFile(t, "GorillaFileSystem", filepath.Join("testdata", "fs", name+".jsonl.gz"))
			t.Logf("%d calls: %d results and %d states equal Python's", calls, results, states)
			if calls == 0 {
				t.Fatal("no calls replayed")
			}
		})
	}
}

// TestFileSystemMarshal: a session's file system, marshalled attribute by
// attribute and read back, behaves as the original does: the current
// directory is the same object as the one inside root (an mkdir there
// shows in root), and a directory moved with mv keeps sharing its
// contents with the children's old parent.
func TestFileSystemMarshal(t *testing.T) {
	cfg, err := pyval.Loads([]byte(`{"GorillaFileSystem": {"root": {"w": {"type": "directory", "contents": {
		"a": {"type": "directory", "contents": {"b": {"type": "directory", "contents": {"f": {"type": "file", "content": "x"}}}}}}}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	setup := []string{"cd(folder='a')", "cd(folder='b')", "cd(folder='..')", "cd(folder='..')",
		"mv(source='a', destination='a2')", "cd(folder='a2')", "cd(folder='b')", "cd(folder='..')"}
	after := []string{"pwd()", "mkdir(dir_name='new')", "ls()", "cd(folder='..')", "find()", "cd(folder='a2')", "ls()", "cd(folder='b')", "echo(content='y', file_name='f')", "cd(folder='/')", "find()"}
	for _, by := range []string{"marshal", "clone"} {
		t.Run(by, func(t *testing.T) {
			orig, err := NewSession(cfg.(*pyval.Dict), []string{"GorillaFileSystem"}, "m", "e")
			if err != nil {
				t.Fatal(err)
			}
			orig.Execute(setup)
			var copied *Session
			if by == "clone" {
				copied = orig.Clone()
			} else {
				if copied, err = NewSession(cfg.(*pyval.Dict), []string{"GorillaFileSystem"}, "m", "e"); err != nil {
					t.Fatal(err)
				}
				var attrs []Attr
				for _, a := range orig.Instances[0].Attrs {
					data, err := pyval.Marshal(a.Value)
					if err != nil {
						t.Fatalf("Marshal %s: %v", a.Name, err)
					}
					v, err := pyval.Unmarshal(data)
					if err != nil {
						t.Fatalf("Unmarshal %s: %v", a.Name, err)
					}
					again, _ := pyval.Marshal(v)
					if string(again) != string(data) {
						t.Errorf("%s: Marshal after Unmarshal differs:\n%s\n%s", a.Name, again, data)
					}
					attrs = append(attrs, Attr{Name: a.Name, Value: v})
				}
				copied.Instances[0].Attrs = attrs
			}
			want := orig.Execute(after)
			got := copied.Execute(after)
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("after %s:\n got  %q\n want %q", by, got, want)
			}
			if g, w := fsPublicState(copied, "GorillaFileSystem"), fsPublicState(orig, "GorillaFileSystem"); g["root"] != w["root"] {
				t.Errorf("root after %s:\n got  %s\n want %s", by, g["root"], w["root"])
			}
		})
	}
}

// encodedAlike is what fsSameGraph answers: whether MarshalState writes
// the same bytes for the two graphs (each from its top, then the
// directory itself).
func encodedAlike(a, b *fsDir) bool {
	ja, erra := a.MarshalState()
	jb, errb := b.MarshalState()
	return erra == nil && errb == nil && string(ja) == string(jb)
}

// TestSameGraphAsEncoded holds fsSameGraph, which walks two file systems
// in step, to the comparison of their encodings: copies, a file touched
// or written, a moved directory's shared contents against the same tree
// unshared, and the current directory against the root.
func TestSameGraphAsEncoded(t *testing.T) {
	const tree = `{"GorillaFileSystem": {"root": {"w": {"type": "directory", "contents": {
		"a": {"type": "directory", "contents": {"b": {"type": "directory", "contents": {"f": {"type": "file", "content": "x"}}}}}}}}}}`
	fs := func(calls ...string) (root, cur *fsDir) {
		cfg, err := pyval.Loads([]byte(tree))
		if err != nil {
			t.Fatal(err)
		}
		s, err := NewSession(cfg.(*pyval.Dict), []string{"GorillaFileSystem"}, "m", "e")
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range s.Execute(calls) {
			if strings.HasPrefix(r, "Error during execution") {
				t.Fatalf("%v: %s", calls, r)
			}
		}
		root, cur, err = fsDirs(s.Instances[0])
		if err != nil {
			t.Fatal(err)
		}
		return root, cur
	}
	written := func(content string) *fsDir {
		r, _ := fs("cd(folder='a')", "cd(folder='b')", "echo(content='"+content+"', file_name='f')")
		return r
	}
	root, _ := fs()
	moved, _ := fs("mv(source='a', destination='a2')")
	_, inB := fs("cd(folder='a')", "cd(folder='b')")
	for _, c := range []struct {
		name string
		a, b *fsDir
		want bool
	}{
		{"a copy", root, pyval.DeepCopy(root).(*fsDir), true},
		{"another load", root, func() *fsDir { r, _ := fs(); return r }(), true},
		{"a file touched", root, func() *fsDir { r, _ := fs("touch(file_name='g')"); return r }(), false},
		{"a file written", written("y"), written("z"), false},
		{"a moved directory, copied", moved, pyval.DeepCopy(moved).(*fsDir), true},
		{"a moved directory's contents shared, and a copy made apart", moved,
			func() *fsDir { r, _ := fs("cp(source='a', destination='a2')", "rm(file_name='a')"); return r }(), false},
		{"the current directory and the root", inB, root, false},
		{"the current directory and its copy", inB, pyval.DeepCopy(inB).(*fsDir), true},
	} {
		if got, enc := fsSameGraph(c.a, c.b), encodedAlike(c.a, c.b); got != enc || got != c.want {
			t.Errorf("%s: fsSameGraph %v, encodings alike %v, want %v", c.name, got, enc, c.want)
		}
	}
	cp := pyval.DeepCopy(moved).(*fsDir)
	// Its pairing maps alone: no name, key or file marshalled.
	if n := testing.AllocsPerRun(20, func() { fsSameGraph(moved, cp) }); n > 8 && !raceEnabled {
		t.Errorf("fsSameGraph of a copy allocates %v times", n)
	}
}

// TestDirectoryStateAsJSONMarshal holds a file system's MarshalState,
// written straight, to json.Marshal's text of its graph: after every
// call of every generated sequence (gold's calls of every entry, the
// edge calls), and for names and contents json.Marshal escapes.
func TestDirectoryStateAsJSONMarshal(t *testing.T) {
	check := func(where string, in *Instance) {
		t.Helper()
		for _, a := range in.Attrs {
			d, ok := a.Value.(*fsDir)
			if !ok {
				continue
			}
			st, err := d.graph()
			if err != nil {
				t.Fatalf("%s: %s: %v", where, a.Name, err)
			}
			want, err := json.Marshal(st)
			if err != nil {
				t.Fatal(err)
			}
			if got, err := d.MarshalState(); err != nil || string(got) != string(want) {
				t.Fatalf("%s: %s:\n got  %s (%v)\n want %s", where, a.Name, got, err, want)
			}
		}
	}
	n := 0
	for _, name := range []string{"gold", "edge"} {
		for _, seq := range gzipJSONLines[fsReplaySeq](t, filepath.Join("testdata", "fs", name+".jsonl.gz")) {
			cfg := pyval.NewDict()
			if len(seq.InitialConfig) > 0 {
				v, err := pyval.Loads(seq.InitialConfig)
				if err != nil {
					t.Fatal(err)
				}
				cfg.Set("GorillaFileSystem", v)
			}
			sess, err := NewSession(cfg, []string{"GorillaFileSystem"}, "gen", seq.ID)
			if err != nil {
				t.Fatal(err)
			}
			check(seq.ID, sess.Instances[0])
			for i, step := range seq.Calls {
				sess.Execute([]string{step.Call})
				check(fmt.Sprintf("%s #%d %s", seq.ID, i, step.Call), sess.Instances[0])
				n++
			}
		}
	}
	if n == 0 {
		t.Fatal("no calls made")
	}
	cfg, err := pyval.Loads([]byte(`{"GorillaFileSystem": {"root": {"<w&>": {"type": "directory", "contents": {
		"a>b": {"type": "file", "content": "<html> & \u2028 \u2029 \u00e9"}}}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	sess, err := NewSession(cfg.(*pyval.Dict), []string{"GorillaFileSystem"}, "m", "e")
	if err != nil {
		t.Fatal(err)
	}
	sess.Execute([]string{"mkdir(dir_name='x&y')", "cd(folder='x&y')", "echo(content='<&>', file_name='<f>')"})
	check("escapes", sess.Instances[0])
	for _, raw := range []string{`"<a & b>"`, "\"\u2028\u2029 x\"", `{"k":["&",1]}`, `null`} {
		want, _ := json.Marshal(json.RawMessage(raw))
		if got := appendRawJSON(nil, json.RawMessage(raw)); string(got) != string(want) {
			t.Errorf("%s: %s, json.Marshal %s", raw, got, want)
		}
	}
	if got := appendRawJSON(nil, nil); string(got) != "null" {
		t.Errorf("nil: %s", got)
	}
}
