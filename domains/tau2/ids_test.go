package tau2_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/parthack/parthack/domains"
	_ "github.com/parthack/parthack/domains/all"
	"github.com/parthack/parthack/domains/tau2"
)

// rewriteIDs is a Results file (plain JSON) with the id of every tool
// call and tool message rewritten, every other byte as it was: a call's
// new id is newID(its tool's name), and its tool message (the one tau2
// pairs with it) gets the same.
func rewriteIDs(t *testing.T, src []byte, newID func(name string) string) []byte {
	t.Helper()
	r, err := tau2.Decode("f.json", src)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string // in the order the file holds them
	for _, sim := range r.Simulations {
		ex, err := tau2.Pair(sim.Messages)
		if err != nil {
			t.Fatal(err)
		}
		answer := map[int]string{}
		for _, e := range ex {
			answer[e.Result] = newID(sim.Messages[e.Msg].ToolCalls[e.Call].Name)
		}
		for j, m := range sim.Messages {
			if m.Role == "tool" {
				ids = append(ids, answer[j])
			}
			for _, tc := range m.ToolCalls {
				ids = append(ids, newID(tc.Name))
			}
		}
	}
	// Walk the file's tokens, keeping the path, and splice each id at
	// simulations[i].messages[j].id or ….tool_calls[k].id.
	type frame struct {
		object, wantKey bool
		key             string
	}
	var stack []frame
	var out bytes.Buffer
	dec := json.NewDecoder(bytes.NewReader(src))
	copied, last, n := 0, 0, 0
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		value := true
		switch v := tok.(type) {
		case json.Delim:
			value = v == '}' || v == ']'
			if value {
				stack = stack[:len(stack)-1]
			} else {
				stack = append(stack, frame{object: v == '{', wantKey: v == '{'})
			}
		case string:
			if top := &stack[len(stack)-1]; top.object && top.wantKey {
				top.key, top.wantKey, value = v, false, false
				break
			}
			var keys []string
			for _, f := range stack {
				keys = append(keys, f.key)
			}
			if p := strings.Join(keys, "/"); p == "simulations//messages//id" || p == "simulations//messages//tool_calls//id" {
				end := int(dec.InputOffset())
				start := last + bytes.IndexByte(src[last:end], '"')
				q, _ := json.Marshal(ids[n])
				out.Write(src[copied:start])
				out.Write(q)
				copied, n = end, n+1
			}
		}
		if value && len(stack) > 0 && stack[len(stack)-1].object {
			stack[len(stack)-1].wantKey = true
		}
		last = int(dec.InputOffset())
	}
	out.Write(src[copied:])
	if n != len(ids) {
		t.Fatalf("%d ids spliced, the runs hold %d", n, len(ids))
	}
	if r, err = tau2.Decode("f.json", out.Bytes()); err != nil {
		t.Fatal(err)
	}
	for _, sim := range r.Simulations {
		for _, m := range sim.Messages {
			for _, tc := range m.ToolCalls {
				if tc.ID != newID(tc.Name) {
					t.Fatalf("simulation %d: call %q (%s) kept its id", sim.Index, tc.ID, tc.Name)
				}
			}
		}
	}
	return out.Bytes()
}

// dryRun is what `import tau2 --dry-run` makes of a file: its
// conformance, and each run's reward and trajectory (with every call's
// recorded result in its transcript), as JSON.
func dryRun(t *testing.T, name string, src []byte) (string, []string) {
	t.Helper()
	f, err := domains.FormatOf("tau2")
	if err != nil {
		t.Fatal(err)
	}
	var runs []string
	c, err := f.Conform(name, bytes.NewReader(src), func(i int, r *domains.Run) error {
		tr, err := r.Trajectory()
		if err != nil {
			return err
		}
		b, err := json.Marshal(struct {
			Name   string
			Reward float64
			Traj   any
		}{r.Name, r.Reward, tr})
		runs = append(runs, string(b))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	return string(b), runs
}

// TestRewrittenIDs: a shipped file whose call ids are rewritten as
// other tau2 files have them (every id "", as a telecom test file; one
// id per tool reused across turns, as a third-party airline file:
// gem_get_reservation_details_0 every time) replays exactly as the file
// itself: the same conformance (counts, disagreements and their causes)
// and the same runs, rewards and trajectories, every call with its
// recorded result. Looked up by id, every call of a run got the last
// result under its id.
func TestRewrittenIDs(t *testing.T) {
	for _, name := range []string{"runs/airline-gpt-oss-120b.json.gz", "runs/retail-gpt-4.1.json.gz", "runs/telecom-gpt-4o.json.gz"} {
		src, err := tau2.Data(name)
		if err != nil {
			t.Fatal(err)
		}
		want, wantRuns := dryRun(t, "f.json", src)
		for _, c := range []struct {
			ids   string
			newID func(string) string
		}{
			{`every id ""`, func(string) string { return "" }},
			{"one id per tool", func(tool string) string { return "gem_" + tool + "_0" }},
		} {
			got, gotRuns := dryRun(t, "f.json", rewriteIDs(t, src, c.newID))
			if got != want {
				t.Errorf("%s, %s: conformance\n%.600s\nwant\n%.600s", name, c.ids, got, want)
			}
			if len(gotRuns) != len(wantRuns) {
				t.Fatalf("%s, %s: %d runs, want %d", name, c.ids, len(gotRuns), len(wantRuns))
			}
			for i := range gotRuns {
				if gotRuns[i] != wantRuns[i] {
					t.Errorf("%s, %s: run %d differs:\n%.300s\nwant\n%.300s", name, c.ids, i, gotRuns[i], wantRuns[i])
					break
				}
			}
		}
	}
}
