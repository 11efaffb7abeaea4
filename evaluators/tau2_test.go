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
		ended  string // the payload's termination_reason
		want   Tau2Score
	}{
		{"gold run", dbComm, []payload.Event{cancel}, "Your refund is on its way", "", Tau2Score{Reward: 1, DB: 1, Communicate: 1, Action: 1, PartialAction: 1}},
		{"nothing said", dbComm, []payload.Event{cancel}, "Done", "", Tau2Score{Reward: 0, DB: 1, Communicate: 0, Action: 1, PartialAction: 1}},
		// The inflation parthack measures: the change made and undone
		// keeps ACTION and partial credit; only the DB check sees it.
		{"made and undone", dbComm, []payload.Event{cancel, undo}, "refund", "", Tau2Score{Reward: 0, DB: 0, Communicate: 1, Action: 1, PartialAction: 1}},
		{"made and undone, ACTION basis", []string{"ACTION"}, []payload.Event{cancel, undo}, "", "", Tau2Score{Reward: 1, DB: 0, Communicate: 0, Action: 1, PartialAction: 1}},
		{"other arguments", []string{"ACTION", "NL_ASSERTION"}, []payload.Event{otherReason}, "", "", Tau2Score{Reward: 0, DB: 1, Communicate: 0, Action: 0, PartialAction: 0, Skipped: []string{"NL_ASSERTION"}}},
		// A run tau2 ended itself scores 0 and no component, however
		// well it did (tau2's evaluate_simulation).
		{"gold run ended by max_steps", dbComm, []payload.Event{cancel}, "Your refund is on its way", "max_steps", Tau2Score{Premature: "max_steps"}},
		{"gold run ended by too_many_errors", []string{"ACTION"}, []payload.Event{cancel}, "", "too_many_errors", Tau2Score{Premature: "too_many_errors"}},
		{"gold run, user_stop written out", dbComm, []payload.Event{cancel}, "Your refund is on its way", "user_stop", Tau2Score{Reward: 1, DB: 1, Communicate: 1, Action: 1, PartialAction: 1}},
	} {
		p := tau2Payload(c.basis, c.events, c.said)
		p.Termination = c.ended
		got, ok := Tau2(p)
		if !ok {
			t.Fatalf("%s: no tau2 reference", c.name)
		}
		if got.Reward != c.want.Reward || got.DB != c.want.DB || got.Communicate != c.want.Communicate || got.Action != c.want.Action ||
			got.PartialAction != c.want.PartialAction || len(got.Skipped) != len(c.want.Skipped) || got.Premature != c.want.Premature {
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

// TestTau2DBEndState: the DB check compares the two end databases, as
// tau2's hashes of them do: a record that is not alive at the end holds
// no field, and one made and deleted again is no change, whatever the
// run did to it on the way (a telecom VPN connected and disconnected).
func TestTau2DBEndState(t *testing.T) {
	cancel := payload.Cell{Type: "order", ID: "#W1", Field: "status", Before: model.Str("pending"), After: model.Str("cancelled")}
	vpnMade := []payload.Cell{{Type: "vpn", ID: "vpn_details", Field: model.AliveField, Before: model.Null, After: model.Bool(true)},
		{Type: "vpn", ID: "vpn_details", Field: "server", Before: model.Null, After: model.Str("192.168.1.1")}}
	vpnGone := payload.Cell{Type: "vpn", ID: "vpn_details", Field: model.AliveField, Before: model.Bool(true), After: model.Bool(false)}
	noteSet := payload.Cell{Type: "card", ID: "c1", Field: "note", Before: model.Str(""), After: model.Str("spent")}
	cardGone := payload.Cell{Type: "card", ID: "c1", Field: model.AliveField, Before: model.Bool(true), After: model.Bool(false)}
	ev := func(diff ...payload.Cell) payload.Event { return callEvent("t", `{}`, diff...) }
	for _, c := range []struct {
		name   string
		gold   []payload.Cell
		events []payload.Event
		want   float64
	}{
		{"gold change", []payload.Cell{cancel}, []payload.Event{ev(cancel)}, 1},
		{"gold change and a record made and deleted", []payload.Cell{cancel}, []payload.Event{ev(cancel), ev(vpnMade...), ev(vpnGone)}, 1},
		{"a record made and left", []payload.Cell{cancel}, []payload.Event{ev(cancel), ev(vpnMade...)}, 0},
		{"a record changed, then deleted as gold deletes it", []payload.Cell{cancel, cardGone}, []payload.Event{ev(cancel), ev(noteSet), ev(cardGone)}, 1},
		{"a record deleted that gold keeps", []payload.Cell{cancel}, []payload.Event{ev(cancel), ev(cardGone)}, 0},
		{"gold made and deleted a record, the run made none", []payload.Cell{cancel, {Type: "vpn", ID: "vpn_details", Field: model.AliveField, Before: model.Null, After: model.Bool(false)},
			vpnMade[1]}, []payload.Event{ev(cancel)}, 1},
		{"nothing done", []payload.Cell{cancel}, nil, 0},
	} {
		p := tau2Payload([]string{"DB"}, c.events, "")
		p.Reference.Changes = c.gold
		got, ok := Tau2(p)
		if !ok || got.DB != c.want {
			t.Errorf("%s: DB %v, want %v", c.name, got.DB, c.want)
		}
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
