package evaluators

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/parthack/parthack/internal/payload"
	"github.com/parthack/parthack/model"
)

// fieldCase is a hand-made run of a two-order task whose gold run
// cancels #W1 and then #W2, and the score each source's rule gives it.
type fieldCase struct {
	name          string
	initial       map[string]string // order → status at the start (default pending)
	events        []payload.Event
	prm, ts, prog float64
}

// Events of the two-order task.
func cancelOrder(id string) payload.Event {
	return callEvent("cancel_pending_order", `{"order_id":"`+id+`","reason":"no longer needed"}`,
		payload.Cell{Type: "order", ID: id, Field: "status", Before: model.Str("pending"), After: model.Str("cancelled")})
}

func restoreOrder(id string) payload.Event {
	return callEvent("restore_order", `{"order_id":"`+id+`"}`,
		payload.Cell{Type: "order", ID: id, Field: "status", Before: model.Str("cancelled"), After: model.Str("pending")})
}

func failed(ev payload.Event) payload.Event {
	ev.OK, ev.Reason, ev.Diff = false, "Error: order not found", nil
	return ev
}

// fieldCases are the hand-made trajectories; each expected value is the
// one the source's own rule gives (scripts/field_evaluators_differential.py
// runs the sources' functions on the same runs).
func fieldCases() []fieldCase {
	read := callEvent("get_order_details", `{"order_id":"#W1"}`)
	return []fieldCase{
		{name: "gold run", events: []payload.Event{cancelOrder("#W1"), cancelOrder("#W2")}, prm: 1, ts: 1, prog: 1},
		// #W2's gold call is matched by name alone by the call on #W1.
		{name: "one of two", events: []payload.Event{read, cancelOrder("#W1")}, prm: .75, ts: .5, prog: .5},
		{name: "made and undone", events: []payload.Event{cancelOrder("#W1"), restoreOrder("#W1")}, prm: .75, ts: .5, prog: .5},
		{name: "both made, both undone", events: []payload.Event{cancelOrder("#W1"), cancelOrder("#W2"), restoreOrder("#W1"), restoreOrder("#W2")}, prm: 1, ts: 1, prog: 1},
		// The milestones are a chain in gold's order: #W2 held only before
		// #W1 did, so one of them is matched; the calls are all there.
		{name: "out of gold's order", events: []payload.Event{cancelOrder("#W2"), restoreOrder("#W2"), cancelOrder("#W1")}, prm: 1, ts: .5, prog: .5},
		// Both in the same snapshot: a milestone may match the snapshot of
		// the one before it.
		{name: "reversed, both kept", events: []payload.Event{cancelOrder("#W2"), cancelOrder("#W1")}, prm: 1, ts: 1, prog: 1},
		// tau2's ACTION check credits a call that failed; so does PR #151.
		{name: "failed call", events: []payload.Event{failed(cancelOrder("#W1"))}, prm: .75, ts: 0, prog: 0},
		// compare_args null and no argument in common: the PR's empty
		// intersection is a full match.
		{name: "no arguments", events: []payload.Event{callEvent("cancel_pending_order", `{}`)}, prm: 1, ts: 0, prog: 0},
		{name: "other reason", events: []payload.Event{callEvent("cancel_pending_order", `{"order_id":"#W1","reason":"ordered by mistake"}`)}, prm: .5, ts: 0, prog: 0},
		{name: "other tool", events: []payload.Event{callEvent("cancel_order", `{"order_id":"#W1","reason":"no longer needed"}`)}, prm: 0, ts: 0, prog: 0},
		// A goal that holds before any step: AgentBoard never scores the
		// initial state, and a read changes nothing; ToolSandbox's
		// snapshots start with it.
		{name: "held at the start", initial: map[string]string{"#W1": "cancelled"}, events: []payload.Event{read}, prm: 0, ts: .5, prog: 0},
		{name: "held at the start, then a write", initial: map[string]string{"#W1": "cancelled"}, events: []payload.Event{restoreOrder("#W1"), cancelOrder("#W1")}, prm: .75, ts: .5, prog: .5},
	}
}

// orderPayload is the two-order task's payload of a run.
func orderPayload(initial map[string]string, events []payload.Event) *payload.Payload {
	goal := func(id string) payload.Predicate {
		return payload.Predicate{ID: "status-" + id, Text: "order " + id + " is cancelled", Expr: payload.Expr{Expr: model.Expr{
			Kind: model.ExprField, Type: "order", ID: id, Field: "status", Cmp: model.CmpEq, Value: model.Str("cancelled")}}}
	}
	p := &payload.Payload{
		Version: payload.Version, Task: "T2R-X",
		Schema: []payload.EntityType{{Name: "order", Fields: []payload.FieldDef{{Name: "status", Kind: model.KindString}}}},
		Goals:  []payload.Goal{{Version: "v1", Predicates: []payload.Predicate{goal("#W1"), goal("#W2")}}},
		Reference: &payload.Reference{
			Changes: []payload.Cell{
				{Type: "order", ID: "#W1", Field: "status", Before: model.Str("pending"), After: model.Str("cancelled")},
				{Type: "order", ID: "#W2", Field: "status", Before: model.Str("pending"), After: model.Str("cancelled")}},
			Outputs: []string{},
			Basis:   []string{"DB"},
			Actions: []payload.RefCall{
				{Requestor: "assistant", Tool: "cancel_pending_order", Args: model.MustJSON(`{"order_id":"#W1","reason":"no longer needed"}`), AllArgs: true},
				{Requestor: "assistant", Tool: "cancel_pending_order", Args: model.MustJSON(`{"order_id":"#W2","reason":"no longer needed"}`), AllArgs: true}},
		},
		Initial: payload.State{GoalVersion: "v1"},
	}
	for _, id := range []string{"#W1", "#W2"} {
		status := "pending"
		if s, ok := initial[id]; ok {
			status = s
		}
		p.Initial.Entities = append(p.Initial.Entities, payload.Entity{Type: "order", ID: id, Fields: payload.Fields{{Name: "status", Value: model.Str(status)}}})
	}
	for i, ev := range events {
		ev.Seq, ev.T, ev.Step, ev.GoalVersion = i+1, i+1, i+1, "v1"
		p.Events = append(p.Events, ev)
		p.Provenance = append(p.Provenance, payload.Provenance{Seq: i + 1, Actor: ev.Actor})
	}
	return p
}

func TestFieldEvaluators(t *testing.T) {
	for _, c := range fieldCases() {
		p := orderPayload(c.initial, c.events)
		for _, f := range []struct {
			name  string
			score func(*payload.Payload) (float64, bool)
			want  float64
		}{{PRMPartialActionName, PRMPartialAction, c.prm}, {ToolSandboxMilestoneName, ToolSandboxMilestone, c.ts}, {AgentBoardProgressName, AgentBoardProgress, c.prog}} {
			got, ok := f.score(p)
			if !ok || got != f.want {
				t.Errorf("%s: %s = %v (ok %t), want %v", c.name, f.name, got, ok, f.want)
			}
		}
	}
}

// TestFieldEvaluatorsEdges: what each source says of a task with no gold
// call or no gold change, compare_args, and a payload with no reference.
func TestFieldEvaluatorsEdges(t *testing.T) {
	p := orderPayload(nil, []payload.Event{callEvent("cancel_pending_order", `{"order_id":"#W1","reason":"x","n":1.0}`)})
	p.Reference.Actions = []payload.RefCall{
		{Tool: "cancel_pending_order", Args: model.MustJSON(`{"order_id":"#W1","reason":"no longer needed"}`), CompareArgs: []string{"order_id"}},
		{Tool: "cancel_pending_order", Args: model.MustJSON(`{"order_id":"#W1","reason":"x","n":1}`), AllArgs: true},
		{Tool: "cancel_pending_order", Args: model.MustJSON(`{"order_id":"#W1"}`), CompareArgs: []string{}},
	}
	if got, _ := PRMPartialAction(p); got != 1 {
		t.Errorf("compare_args and Python's numbers: %v, want 1", got)
	}
	// The PR compares every gold argument against every argument of the
	// call: a call passing an argument gold does not is half a match
	// (tau2's own check compares the call's arguments only, and matches).
	p.Reference.Actions = []payload.RefCall{{Tool: "cancel_pending_order", Args: model.MustJSON(`{"order_id":"#W1","reason":"x"}`), AllArgs: true}}
	if got, _ := PRMPartialAction(p); got != .5 {
		t.Errorf("an extra argument: %v, want .5", got)
	}
	p.Reference.Actions, p.Reference.Changes = nil, nil
	for _, f := range []func(*payload.Payload) (float64, bool){PRMPartialAction, ToolSandboxMilestone} {
		if got, ok := f(p); !ok || got != 1 {
			t.Errorf("no gold call or change: %v (ok %t), want 1", got, ok)
		}
	}
	p.Reference = nil
	for _, f := range []func(*payload.Payload) (float64, bool){PRMPartialAction, ToolSandboxMilestone} {
		if _, ok := f(p); ok {
			t.Error("a payload with no reference is scored")
		}
	}
	if _, ok := AgentBoardProgress(p); !ok {
		t.Error("AgentBoard's progress reads the goals, not the reference, and is not scored")
	}
}

// TestToolSandboxCreatedAndDeleted: a record gold creates is matched
// where it is alive with gold's values, one gold deletes where it is gone.
func TestToolSandboxCreatedAndDeleted(t *testing.T) {
	p := orderPayload(nil, nil)
	p.Reference.Changes = []payload.Cell{
		{Type: "order", ID: "#W3", Field: model.AliveField, Before: model.Null, After: model.Bool(true)},
		{Type: "order", ID: "#W3", Field: "status", Before: model.Null, After: model.Str("pending")},
		{Type: "order", ID: "#W2", Field: model.AliveField, Before: model.Bool(true), After: model.Bool(false)},
	}
	create := payload.Event{Op: model.OpCreate, OK: true, Actor: model.ActorAgent, Diff: []payload.Cell{
		{Type: "order", ID: "#W3", Field: model.AliveField, Before: model.Null, After: model.Bool(true)},
		{Type: "order", ID: "#W3", Field: "status", Before: model.Null, After: model.Str("pending")}}}
	del := payload.Event{Op: model.OpDelete, OK: true, Actor: model.ActorAgent, Diff: []payload.Cell{
		{Type: "order", ID: "#W2", Field: model.AliveField, Before: model.Bool(true), After: model.Bool(false)}}}
	for _, c := range []struct {
		name   string
		events []payload.Event
		want   float64
	}{{"both", []payload.Event{create, del}, 1}, {"created only", []payload.Event{create}, .5}, {"deleted only", []payload.Event{del}, .5}, {"neither", nil, 0}} {
		q := orderPayload(nil, c.events)
		q.Reference = p.Reference
		if got, _ := ToolSandboxMilestone(q); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// TestFieldEvaluatorsDifferential scores the hand-made runs with each
// source's own Python (scripts/field_evaluators_differential.py) when
// FIELD_EVALUATORS_SRC names the sources at their pinned commits
// (scripts/field-evaluators-differential.sh extracts them).
func TestFieldEvaluatorsDifferential(t *testing.T) {
	src := os.Getenv("FIELD_EVALUATORS_SRC")
	if src == "" {
		t.Skip("FIELD_EVALUATORS_SRC names no sources: the scores are held to the hand-computed values only")
	}
	type runCase struct {
		Name    string             `json:"name"`
		Payload json.RawMessage    `json:"payload"`
		Got     map[string]float64 `json:"got"`
	}
	var cases []runCase
	for _, c := range fieldCases() {
		p := orderPayload(c.initial, c.events)
		got := map[string]float64{}
		for _, f := range Field() {
			got[f.Name], _ = f.Score(p)
		}
		cases = append(cases, runCase{c.name, p.Bytes(), got})
	}
	b, err := json.Marshal(cases)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "cases.json")
	if err := os.WriteFile(file, b, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("python3", "../scripts/field_evaluators_differential.py", src, file).CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	t.Logf("%s", out)
}
