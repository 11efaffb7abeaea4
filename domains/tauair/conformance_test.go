package tauair

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
)

// recorded is one corpus run to replay: its calls and final hash.
type recorded struct {
	name  string
	calls []Call
	hash  string
}

func corpusRuns(t testing.TB) []recorded {
	gold, err := GoldRuns()
	if err != nil {
		t.Fatal(err)
	}
	runs, err := AgentRuns()
	if err != nil {
		t.Fatal(err)
	}
	var out []recorded
	for _, g := range gold {
		out = append(out, recorded{fmt.Sprintf("gold task %d", g.TaskID), g.Steps, g.DataHash})
	}
	for i := range runs {
		calls, err := runs[i].Calls()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, recorded{runs[i].Name(), calls, runs[i].DataHash})
	}
	return out
}

// TestConformance replays every gold and GPT-4o call of the corpus with
// the Go tools: call by call the same ok/error outcome and error text and
// the same change as tau-bench's patch, and at the end tau-bench's data
// hash of the whole database.
func TestConformance(t *testing.T) {
	env, d := baseWorld(t)
	calls, writes := 0, 0
	for _, rec := range corpusRuns(t) {
		run := env.Begin(len(rec.calls))
		for i := range rec.calls {
			c := &rec.calls[i]
			st, err := StepOf(c, i)
			if err != nil {
				if strings.HasPrefix(c.Output, "Error") {
					continue // tau-bench could not parse the arguments either
				}
				t.Fatalf("%s: %v", rec.name, err)
			}
			roots := patchRoots(c.Patch)
			before := map[string]any{}
			for _, r := range roots {
				before[r] = d.root(run.View(), r)
			}
			run.Step(&st)
			ev := &run.Events()[len(run.Events())-1]
			where := fmt.Sprintf("%s, call %d (%s)", rec.name, i+1, c.Name)
			wantErr := strings.HasPrefix(c.Output, "Error")
			if ev.OK == wantErr {
				t.Fatalf("%s: ok = %t, tau-bench said %q (we said %q)", where, ev.OK, c.Output, run.Reason(ev))
			}
			if wantErr && run.Reason(ev) != c.Output {
				t.Fatalf("%s: error %q, tau-bench %q", where, run.Reason(ev), c.Output)
			}
			calls++
			if len(c.Patch) > 0 {
				writes++
			}
			ours := d.diffRoots(run, ev)
			for _, r := range ours {
				if !slices.Contains(roots, r) {
					t.Fatalf("%s: we changed %s, tau-bench did not", where, r)
				}
			}
			for _, r := range roots {
				want, err := applyPatch(before[r], r, c.Patch)
				if err != nil {
					t.Fatalf("%s: %v", where, err)
				}
				// the corpus script records a whole new record by reference,
				// so its value shows the record as the run left it: undo
				// the run's later patches of that record to see it as
				// this call left it.
				if before[r] == nil {
					for j := len(rec.calls) - 1; j > i; j-- {
						if want, err = unpatch(want, r, rec.calls[j].Patch); err != nil {
							t.Fatalf("%s: %v", where, err)
						}
					}
				}
				if path := firstDifference(r, want, d.root(run.View(), r)); path != "" {
					t.Fatalf("%s: the change differs from tau-bench's patch first at %s", where, path)
				}
			}
		}
		log := run.Finish()
		var changed []model.CellDiff
		for i := range log.Events {
			changed = append(changed, log.TypedDiff(&log.Events[i])...)
		}
		if got := d.DataHash(log.View(), changed); got != rec.hash {
			t.Fatalf("%s: data hash %s, tau-bench %s", rec.name, got, rec.hash)
		}
	}
	if calls != 158+1164 || writes != 56+175 {
		t.Errorf("replayed %d calls (%d writing), the corpus has 1322 (231 writing)", calls, writes)
	}
}

// patchRoots are the top-level records a patch touches: "/users/ID" …
func patchRoots(patch []PatchOp) []string {
	var out []string
	for _, op := range patch {
		parts := strings.SplitN(op.Path, "/", 4)
		if r := "/" + parts[1] + "/" + parts[2]; !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	return out
}

// root is one top-level record of the state as a document, nil when absent.
func (d *Domain) root(v model.StateView, r string) any {
	parts := strings.SplitN(r, "/", 3)
	if rec := (&callCtx{d: d, v: v}).root(parts[1], unescape(parts[2])); rec != nil {
		return rec
	}
	return nil
}

// baseWorld is the whole database as a task, and its tools.
func baseWorld(t testing.TB) (*pbcste.Env, *Domain) {
	db, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	env, err := pbcste.Compile(BaseTask(db))
	if err != nil {
		t.Fatal(err)
	}
	return env, NewDomain(db)
}

// diffRoots are the top-level records an event changed.
func (d *Domain) diffRoots(run *pbcste.Run, ev *pbcste.Event) []string {
	return d.changedRoots(run.TypedDiff(ev))
}

// changedRoots are the top-level records cell changes touch.
func (d *Domain) changedRoots(changed []model.CellDiff) []string {
	var out []string
	for _, cd := range changed {
		r := "/reservations/" + cd.ID
		if cd.Type == TypeUser || cd.Type == TypePaymentMethod {
			r = "/users/" + strings.SplitN(cd.ID, "/", 2)[0]
		}
		if !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	return out
}

func unescape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
}

// applyPatch applies the operations of a patch under root to a copy of
// the record.
func applyPatch(doc any, root string, patch []PatchOp) (any, error) {
	doc = clone(doc)
	for _, op := range patch {
		if op.Path != root && !strings.HasPrefix(op.Path, root+"/") {
			continue
		}
		var val any
		if len(op.Value) > 0 {
			var err error
			if val, err = decode(string(op.Value)); err != nil {
				return nil, err
			}
		}
		rest := strings.TrimPrefix(op.Path, root)
		if rest == "" {
			if op.Op == "remove" {
				doc = nil
			} else {
				doc = val
			}
			continue
		}
		keys := strings.Split(rest[1:], "/")
		var err error
		if doc, err = patchAt(doc, keys, op.Op, val); err != nil {
			return nil, fmt.Errorf("patch %s %s: %w", op.Op, op.Path, err)
		}
	}
	return doc, nil
}

// unpatch undoes the operations of a patch under root, last first, with
// the values they replaced or removed.
func unpatch(doc any, root string, patch []PatchOp) (any, error) {
	for k := len(patch) - 1; k >= 0; k-- {
		op := patch[k]
		if !strings.HasPrefix(op.Path, root+"/") {
			continue
		}
		keys := strings.Split(strings.TrimPrefix(op.Path, root)[1:], "/")
		inverse, val := "remove", any(nil)
		if op.Op != "add" {
			old, err := decode(string(op.Old))
			if err != nil {
				return nil, err
			}
			inverse, val = "replace", old
			if op.Op == "remove" {
				inverse = "add"
			}
		}
		var err error
		if doc, err = patchAt(doc, keys, inverse, val); err != nil {
			return nil, fmt.Errorf("undo %s %s: %w", op.Op, op.Path, err)
		}
	}
	return doc, nil
}

func patchAt(doc any, keys []string, op string, val any) (any, error) {
	k := unescape(keys[0])
	switch x := doc.(type) {
	case map[string]any:
		if len(keys) > 1 {
			sub, err := patchAt(x[k], keys[1:], op, val)
			x[k] = sub
			return x, err
		}
		if op == "remove" {
			delete(x, k)
		} else {
			x[k] = val
		}
		return x, nil
	case []any:
		i, err := strconv.Atoi(k)
		if err != nil || i < 0 || i > len(x) {
			return nil, fmt.Errorf("bad index %q", k)
		}
		if len(keys) > 1 {
			sub, err := patchAt(x[i], keys[1:], op, val)
			x[i] = sub
			return x, err
		}
		switch op {
		case "add":
			return slices.Insert(x, i, val), nil
		case "remove":
			return slices.Delete(x, i, i+1), nil
		}
		x[i] = val
		return x, nil
	}
	return nil, fmt.Errorf("no container at %q", k)
}

func clone(x any) any {
	b, _ := json.Marshal(x)
	if x == nil {
		return nil
	}
	y, _ := decode(string(b))
	return y
}

// firstDifference names the first path where two documents differ.
func firstDifference(path string, a, b any) string {
	ja, jb := string(appendJSON(nil, a, false)), string(appendJSON(nil, b, false))
	if ja == jb {
		return ""
	}
	ma, okA := a.(map[string]any)
	mb, okB := b.(map[string]any)
	if okA && okB {
		keys := sortedKeys(ma)
		for _, k := range sortedKeys(mb) {
			if !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
		for _, k := range keys {
			if p := firstDifference(path+"/"+k, ma[k], mb[k]); p != "" {
				return p
			}
		}
	}
	la, okA := a.([]any)
	lb, okB := b.([]any)
	if okA && okB && len(la) == len(lb) {
		for i := range la {
			if p := firstDifference(path+"/"+strconv.Itoa(i), la[i], lb[i]); p != "" {
				return p
			}
		}
	}
	return fmt.Sprintf("%s (tau-bench %s, ours %s)", path, ja, jb)
}
