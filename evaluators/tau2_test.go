package evaluators

import (
	"testing"

	"github.com/parthack/parthack/internal/payload"
	"github.com/parthack/parthack/model"
)

// tau2Payload is a retail-like run: the agent cancels order #W1 (the
// gold call), then each case adds what it does after.
func tau2Payload(basis []string, events []payload.Event, said string) *payload.Payload {
	return &payload.Payload{
		Version: payload.Version,
		Reference: &payload.Reference{
			Changes: []payload.Cell{{Type: "order", ID: "#W1", Field: "status", Before: model.Str("pending"), After: model.Str("cancelled")}},
			Outputs: []string{"refund"},
			Basis:   basis,
			Actions: []payload.RefCall{{Requestor: "assistant", Tool: "cancel_pending_order",
				Args: model.MustJSON(`{"order_id":"#W1","reason":"no longer needed"}`), AllArgs: true}},
		},
		Events:     events,
		Transcript: []payload.Turn{{Role: "assistant", Content: said}},
	}
}

func callEvent(tool, args string, diff ...payload.Cell) payload.Event {
	v := model.MustJSON(args)
	ms, _ := model.Members(v)
	var fs payload.Fields
	for _, m := range ms {
		fs = append(fs, payload.Field{Name: m.Field, Value: m.Value})
	}
	return payload.Event{Op: model.OpCall, Tool: tool, Args: fs, OK: true, Diff: diff, Actor: model.ActorAgent}
}

func TestTau2(t *testing.T) {
	cancel := callEvent("cancel_pending_order", `{"order_id":"#W1","reason":"no longer needed"}`,
		payload.Cell{Type: "order", ID: "#W1", Field: "status", Before: model.Str("pending"), After: model.Str("cancelled")})
	undo := callEvent("restore_order", `{"order_id":"#W1"}`,
		payload.Cell{Type: "order", ID: "#W1", Field: "status", Before: model.Str("cancelled"), After: model.Str("pending")})
	otherReason := callEvent("cancel_pending_order", `{"order_id":"#W1","reason":"ordered by mistake"}`,
		payload.Cell{Type: "order", ID: "#W1", Field: "status", Before: model.Str("pending"), After: model.Str("cancelled")})
	dbComm := []string{"DB", "COMMUNICATE"}
	for _, c := range []struct {
		name   string
		basis  []string
		events []payload.Event
		said   string
		want   Tau2Score
	}{
		{"gold run", dbComm, []payload.Event{cancel}, "Your refund is on its way", Tau2Score{Reward: 1, DB: 1, Communicate: 1, Action: 1, PartialAction: 1}},
		{"nothing said", dbComm, []payload.Event{cancel}, "Done", Tau2Score{Reward: 0, DB: 1, Communicate: 0, Action: 1, PartialAction: 1}},
		// The inflation parthack measures: the change made and undone
		// keeps ACTION and partial credit; only the DB check sees it.
		{"made and undone", dbComm, []payload.Event{cancel, undo}, "refund", Tau2Score{Reward: 0, DB: 0, Communicate: 1, Action: 1, PartialAction: 1}},
		{"made and undone, ACTION basis", []string{"ACTION"}, []payload.Event{cancel, undo}, "", Tau2Score{Reward: 1, DB: 0, Communicate: 0, Action: 1, PartialAction: 1}},
		{"other arguments", []string{"ACTION", "NL_ASSERTION"}, []payload.Event{otherReason}, "", Tau2Score{Reward: 0, DB: 1, Communicate: 0, Action: 0, PartialAction: 0, Skipped: []string{"NL_ASSERTION"}}},
	} {
		got, ok := Tau2(tau2Payload(c.basis, c.events, c.said))
		if !ok {
			t.Fatalf("%s: no tau2 reference", c.name)
		}
		if got.Reward != c.want.Reward || got.DB != c.want.DB || got.Communicate != c.want.Communicate || got.Action != c.want.Action ||
			got.PartialAction != c.want.PartialAction || len(got.Skipped) != len(c.want.Skipped) {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
	if _, ok := Tau2(&payload.Payload{Reference: &payload.Reference{}}); ok {
		t.Error("a payload without a tau2 basis is scored")
	}
}

// TestTau2ArgsAsPython: compare_args picks the arguments, and numbers
// compare as Python's (1 == 1.0).
func TestTau2ArgsAsPython(t *testing.T) {
	p := tau2Payload([]string{"ACTION"}, []payload.Event{callEvent("book", `{"n":1.0,"note":"x"}`)}, "")
	p.Reference.Actions = []payload.RefCall{
		{Tool: "book", Args: model.MustJSON(`{"n":1,"note":"y"}`), CompareArgs: []string{"n"}},
		{Tool: "book", Args: model.MustJSON(`{"n":1,"note":"y"}`), AllArgs: true},
	}
	got, _ := Tau2(p)
	if got.PartialAction != 0.5 || got.Action != 0 {
		t.Errorf("%+v: want the first gold call matched, the second not", got)
	}
}

// TestTau2Golds: each gold call is matched by the first call that
// matches it, as ACTION matches, or said to be missing or to differ in
// the arguments it names; the matched count is ACTION's.
func TestTau2Golds(t *testing.T) {
	cancel := callEvent("cancel_pending_order", `{"order_id":"#W1","reason":"no longer needed"}`)
	lookup := callEvent("get_order_details", `{"order_id":"#W1"}`)
	otherReason := callEvent("cancel_pending_order", `{"order_id":"#W1","reason":"ordered by mistake"}`)
	for _, c := range []struct {
		name   string
		events []payload.Event
		event  int
		why    string
	}{
		{"matched", []payload.Event{lookup, cancel}, 2, ""},
		{"matched after a near miss", []payload.Event{otherReason, cancel}, 2, ""},
		{"wrong arguments", []payload.Event{lookup, otherReason}, 0, `wrong arguments: the call at event 2 has reason "ordered by mistake" (gold "no longer needed")`},
		{"missing", []payload.Event{lookup}, 0, "missing: no call of cancel_pending_order"},
	} {
		p := tau2Payload([]string{"ACTION"}, c.events, "")
		got := Tau2Golds(p)
		if len(got) != 1 || got[0].Event != c.event || got[0].Why != c.why {
			t.Errorf("%s: %+v, want event %d, %q", c.name, got, c.event, c.why)
		}
		s, _ := Tau2(p)
		if (got[0].Event > 0) != (s.Action == 1) {
			t.Errorf("%s: matched %v but ACTION %g", c.name, got[0].Event > 0, s.Action)
		}
	}
	p := tau2Payload([]string{"COMMUNICATE"}, nil, "Your Refund, of $5, is on its way")
	p.Reference.Outputs = []string{"refund", "store credit"}
	if got := OutputsSaid(p); len(got) != 2 || !got[0] || got[1] {
		t.Errorf("outputs said %v, want [true false]", got)
	}
}
