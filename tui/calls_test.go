package tui

import (
	"slices"
	"strings"
	"testing"

	"github.com/parthack/parthack/domains"
	"github.com/parthack/parthack/model"
)

// TestCallLineTypesATauCall: on TAU-A04 the `:` line completes the tool,
// its arguments (each with its type) and the values the task makes
// sensible; the call goes in, is replayed (✓) and certified; z on it
// inserts the domain's call that restores the passengers, before the
// transfer that ends the episode, and the pair is eligible and inflated.
func TestCallLineTypesATauCall(t *testing.T) {
	m := tauApp(t, 80, 24)
	openTask(t, m, "TAU-A04")
	press(t, m, "e")
	e := m.editor
	press(t, m, "$", "k", ":")
	if e.line == nil || e.line.tools == nil {
		t.Fatalf("`:` did not open a call line:\n%s", screen(m))
	}
	mustSee(t, m, "New call 6")
	for _, tc := range []struct{ typed, want, hint string }{
		{"update_reservation_p", "update_reservation_passengers ", "reservation_id (string)"},
		{"r", "update_reservation_passengers reservation_id=", "value of reservation_id"},
		{"FQ", "update_reservation_passengers reservation_id=FQ8APE ", ""},
		{"pas", "update_reservation_passengers reservation_id=FQ8APE passengers=", "value of passengers"},
		{"", `update_reservation_passengers reservation_id=FQ8APE passengers=[{"dob":"19`, "tab cycles"},
		{"", `update_reservation_passengers reservation_id=FQ8APE passengers=[{"dob":"1970-06-06","first_name":"Omar","last_name":"Rossi"}]`, ""},
	} {
		press(t, m, tc.typed, "tab")
		if tc.typed == "update_reservation_p" {
			mustSee(t, m, "passengers (array)")
		}
		if got := e.line.input.Value(); got != tc.want {
			t.Fatalf("after %q tab: %q, want %q", tc.typed, got, tc.want)
		}
		if tc.hint != "" {
			mustSee(t, m, tc.hint)
		}
	}
	press(t, m, "enter")
	if e.line != nil || len(e.steps) != 7 || e.steps[5].Tool != "update_reservation_passengers" {
		t.Fatalf("the call was not added:\n%s", screen(m))
	}
	mustSee(t, m, "6 ✓ update_reservation_passenger", "✗ rejected: state_vector_mismatch", "7 · "+episodeMark+" transfer_to_human_agents")

	press(t, m, "z")
	if len(e.steps) != 8 || e.steps[6].Tool != "update_reservation_passengers" || e.steps[7].Tool != "transfer_to_human_agents" {
		t.Fatalf("z did not insert the restoring call before the transfer:\n%s", screen(m))
	}
	if want := `{"passengers":[{"dob":"1960-12-01","first_name":"Ivan","last_name":"Garcia"}],"reservation_id":"FQ8APE"}`; e.steps[6].Args.String() != want {
		t.Fatalf("the restoring call passes %s, want %s", e.steps[6].Args, want)
	}
	if m.statusErr || m.status != "step 7, a call of update_reservation_passengers, undoes step 6" {
		t.Fatalf("status %q", m.status)
	}
	if !e.pair.verdict.Eligible {
		t.Fatalf("the witness is not eligible:\n%s", screen(m))
	}
	mustSee(t, m, "✓ eligible", "Historical Milestone 0.20  0.40  +0.20")
}

// TestCallFormEditsArguments: enter on a call opens its arguments as
// typed fields; an integer that is not one and JSON that does not parse
// are refused on apply, naming the argument and where; a fixed value
// replaces the call.
func TestCallFormEditsArguments(t *testing.T) {
	m := tauApp(t, 80, 24)
	openTask(t, m, "TAU-A04")
	press(t, m, "e")
	e := m.editor
	press(t, m, "$", "k", "enter")
	f := e.call
	if f == nil || !f.replace {
		t.Fatalf("enter on a call did not open its form:\n%s", screen(m))
	}
	var got []string
	for _, r := range f.rows[1:] {
		got = append(got, r.param.Name+"="+r.input.Value())
	}
	want := []string{"reservation_id=FQ8APE", "cabin=economy",
		`flights=[{"date":"2024-05-25","flight_number":"HAT056"},{"date":"2024-05-25","flight_number":"HAT138"}]`, "payment_id=credit_card_7407366"}
	if !slices.Equal(got, want) || f.rows[0].input.Value() != "update_reservation_flights" {
		t.Fatalf("rows %q, want %q", got, want)
	}
	// The tool's hint names few tools, so that the arguments show at
	// 80×24: the domain has 14; typing narrows them (below).
	mustSee(t, m, "one of the domain's 14 tools", "FQ8APE", "credit_card_74073")
	if scr := screen(m); strings.Contains(scr, "get_flight_status") {
		t.Errorf("the tool's hint lists every tool:\n%s", scr)
	}
	press(t, m, "down", "down", "down")
	mustSee(t, m, "array, as JSON", "ctrl+n offers")
	press(t, m, "end", "backspace", "backspace", "enter")
	if f.err != `flights: not valid JSON at line 1, column 94: $[1]: malformed JSON: unexpected end of input` {
		t.Fatalf("error %q", f.err)
	}
	press(t, m, "ctrl+u", `[{"date":"2024-05-26","flight_number":"HAT056"}]`, "enter")
	if e.call != nil || e.steps[4].Tool != "update_reservation_flights" || !strings.Contains(e.steps[4].Args.String(), `"2024-05-26"`) {
		t.Fatalf("the edited call did not replace step 5:\n%s", screen(m))
	}

	// A new call: the tool picked with ctrl+n, an integer argument typed.
	press(t, m, "i", "ctrl+u", "upd")
	mustSee(t, m, "14 tools, 3", `starting "upd" · ctrl+n`, "update_reservation_flights ·")
	press(t, m, "ctrl+u", "update_reservation_baggages", "down", "FQ8APE", "down", "two", "enter")
	if e.call == nil || e.call.err != `total_baggages: "two" is not an integer` {
		t.Fatalf("a bad integer: %+v", e.call)
	}
	press(t, m, "ctrl+u", "2", "down", "1", "down", "gift_card_8190333", "enter")
	if e.call != nil || e.steps[4].Tool != "update_reservation_baggages" ||
		e.steps[4].Args.String() != `{"nonfree_baggages":1,"payment_id":"gift_card_8190333","reservation_id":"FQ8APE","total_baggages":2}` {
		t.Fatalf("the new call: %v\n%s", e.steps[4].Args, screen(m))
	}
}

// TestParseArg: what a person types for each kind of argument.
func TestParseArg(t *testing.T) {
	for _, tc := range []struct{ kind, text, want, err string }{
		{"string", "FQ8APE", `"FQ8APE"`, ""},
		{"string", `"two words"`, `"two words"`, ""},
		{"string", `"open`, "", `"open is not a JSON string`},
		{"string", "null", "null", ""},
		{"integer", "3", "3", ""},
		{"integer", "3.5", "", `"3.5" is not an integer`},
		{"number", "209.5", "209.5", ""},
		{"number", "[1]", "", "[1] is not a number"},
		{"boolean", "true", "true", ""},
		{"array", `["a","b"]`, `["a","b"]`, ""},
		{"array", `[{"b":1,"a":2}]`, `[{"a":2,"b":1}]`, ""},
		{"array", `{"a":1}`, "", `{"a":1} is not an array`},
		{"array", `[{"a":}]`, "", "not valid JSON at line 1, column 7: $[0].a: malformed JSON"},
		{"object", `{"a":[1]}`, `{"a":[1]}`, ""},
	} {
		v, err := parseArg(tc.kind, tc.text)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s %s: error %v, want %q", tc.kind, tc.text, err, tc.err)
		case tc.err == "" && (err != nil || v.String() != tc.want):
			t.Errorf("%s %s: %v %v, want %s", tc.kind, tc.text, v, err, tc.want)
		}
	}
}

// TestSensibleValues: on every registered domain, the values offered
// for an argument are those the task's calls pass and those the state
// holds for the user they name: the user's reservations, payment
// methods, flight dates (airline); orders, items, payment methods
// (retail).
func TestSensibleValues(t *testing.T) {
	for _, tc := range []struct {
		task string
		arg  string
		want []string
	}{
		{"TAU-A04", "reservation_id", []string{"FQ8APE", "UM3OG5", "5RJ7UH", "QKRY03"}},
		{"TAU-A04", "payment_id", []string{"gift_card_8190333", "credit_card_7407366"}},
		{"TAU-A04", "date", []string{"2024-05-25"}},
		{"TAU-A04", "cabin", []string{"economy"}},
		{"T2A-2", "reservation_id", []string{"SDZQKO", "4OG6T3"}},
		{"T2A-2", "amount", []string{"50"}},
		{"T2A-2", "flight_number", nil},
		{"T2R-0", "order_id", []string{"#W2378156"}},
		{"T2R-0", "item_ids", []string{`["1151293680","4983901480"]`, "1151293680"}},
		{"T2R-0", "payment_method_id", []string{"credit_card_9513926"}},
	} {
		t.Run(tc.task+"/"+tc.arg, func(t *testing.T) {
			d, dt, err := domains.FindTask(tc.task)
			if err != nil {
				t.Fatal(err)
			}
			st := &suiteTask{ID: dt.ID, Public: dt.Model, HonestTraj: dt.Gold, Runs: []choice{{"gold", dt.Gold}}}
			tools := domainTools(st)
			if len(tools) == 0 || len(tools) != len(d.Tools()) {
				t.Fatalf("%s: %d tools, the domain describes %d", d.Name(), len(tools), len(d.Tools()))
			}
			env, err := newWorkspace([]*suiteTask{st}).env(st)
			if err != nil {
				t.Fatal(err)
			}
			av := sensibleValues(tools, taskCalls(st, st.HonestTraj, env), env.Initial(), &env.Task.Schema)
			if tc.want == nil && tc.arg == "flight_number" {
				// tau2's get_flight_status takes one: the user's flights.
				if len(av[tc.arg]) == 0 {
					t.Fatalf("no flight number offered: %q", av)
				}
				return
			}
			for _, w := range tc.want {
				if !slices.Contains(av[tc.arg], w) {
					t.Errorf("%s lacks %s: %q", tc.arg, w, av[tc.arg])
				}
			}
		})
	}
}

// TestUndoCallOnlyWhereTheDomainHasOne: a call that changed nothing, and
// one whose change no call of the domain restores, are refused in the
// status line with the reason; the steps stay as they were.
func TestUndoCallOnlyWhereTheDomainHasOne(t *testing.T) {
	m := tauApp(t, 80, 24)
	openTask(t, m, "TAU-A04")
	press(t, m, "e")
	e := m.editor
	before := model.EncodeTrajectory(e.trajectory())
	for _, tc := range []struct{ keys, want string }{
		{"0", "step 1 changed nothing: nothing to undo"},
		{"$", "step 6 changed nothing: nothing to undo"},
	} {
		press(t, m, tc.keys, "z")
		if !m.statusErr || m.status != tc.want {
			t.Errorf("z on %s: status %q, want %q", tc.keys, m.status, tc.want)
		}
	}
	if string(model.EncodeTrajectory(e.trajectory())) != string(before) {
		t.Fatal("a refused z changed the steps")
	}
}

// TestEveryDomainDescribesItsTools: the editor types calls on every
// registered domain, so each describes every tool its tasks allow, each
// argument with a JSON kind the editor reads.
func TestEveryDomainDescribesItsTools(t *testing.T) {
	kinds := []string{"string", "integer", "number", "boolean", "array", "object"}
	for _, d := range domains.All() {
		t.Run(d.Name(), func(t *testing.T) {
			tools := d.Tools()
			if len(tools) == 0 {
				t.Fatalf("%s describes no tools: the editor cannot type its calls", d.Name())
			}
			for _, tool := range tools {
				for _, p := range tool.Params {
					if !slices.Contains(kinds, p.Kind) {
						t.Errorf("%s.%s has kind %q, not one of %v", tool.Name, p.Name, p.Kind, kinds)
					}
				}
			}
			ts, err := d.Tasks()
			if err != nil || len(ts) == 0 {
				t.Fatalf("tasks: %v", err)
			}
			for _, name := range ts[0].Model.Allowlist.Tools {
				if _, ok := toolNamed(tools, name); !ok {
					t.Errorf("%s allows %s, which the domain does not describe", ts[0].ID, name)
				}
			}
		})
	}
}

// TestCallFormKeepsAnUnknownArgument: an imported call that passes an
// argument its tool does not take shows it in the form, marked, and
// keeps it on apply unless it is cleared; an unknown tool is refused
// with the domain's tools.
func TestCallFormKeepsAnUnknownArgument(t *testing.T) {
	m := tauApp(t, 80, 24)
	openTask(t, m, "TAU-A04")
	press(t, m, "e")
	e := m.editor
	steps := slices.Clone(e.steps)
	steps[0].Args = model.MustJSON(`{"user_id":"omar_rossi_1241","verbose":true}`)
	drive(t, m, e.edit(steps))
	press(t, m, "0", "enter")
	mustSee(t, m, "verbose", "✗ not an argument of")
	press(t, m, "enter")
	if e.call != nil || e.steps[0].Args.String() != `{"user_id":"omar_rossi_1241","verbose":true}` {
		t.Fatalf("the argument was not kept: %v", e.steps[0].Args)
	}
	press(t, m, "enter", "down", "down", "ctrl+u", "enter")
	if e.call != nil || e.steps[0].Args.String() != `{"user_id":"omar_rossi_1241"}` {
		t.Fatalf("clearing the argument did not drop it: %v", e.steps[0].Args)
	}
	press(t, m, "enter", "ctrl+u", "get_user", "enter")
	if e.call == nil || !strings.HasPrefix(e.call.err, `no tool "get_user" in tau-airline (tools: book_reservation, `) {
		t.Fatalf("an unknown tool: %+v", e.call)
	}
}

// TestSameArgCalls: the undo candidates beside the move generator's are
// the domain's other writing tools, called with the arguments of the call
// that they take, where the call has every one they require.
func TestSameArgCalls(t *testing.T) {
	tools := []domains.Tool{
		{Name: "enable_roaming", Writes: true, Params: []domains.Param{{Name: "customer_id", Required: true}, {Name: "line_id", Required: true}}},
		{Name: "disable_roaming", Writes: true, Params: []domains.Param{{Name: "customer_id", Required: true}, {Name: "line_id", Required: true}}},
		{Name: "get_customer", Params: []domains.Param{{Name: "customer_id", Required: true}}},
		{Name: "suspend_line", Writes: true, Params: []domains.Param{{Name: "customer_id", Required: true}, {Name: "line_id", Required: true}, {Name: "reason", Required: true}}},
		{Name: "refuel", Writes: true, Params: []domains.Param{{Name: "line_id", Required: true}, {Name: "gb", Required: false}}},
	}
	call := model.Action{Op: model.OpCall, Tool: "enable_roaming", Args: buildArgs([]model.Assign{
		{Field: "customer_id", Value: model.Str("C1")}, {Field: "line_id", Value: model.Str("L1")}})}
	var got []string
	for _, a := range sameArgCalls(tools, &call) {
		got = append(got, a.Tool+" "+a.Args.String())
	}
	want := []string{`disable_roaming {"customer_id":"C1","line_id":"L1"}`, `refuel {"line_id":"L1"}`}
	if !slices.Equal(got, want) {
		t.Errorf("candidates %q, want %q", got, want)
	}
	if sameArgCalls(tools, &model.Action{Op: model.OpUpdate, Type: "t", ID: "x"}) != nil {
		t.Error("an update has no same-argument calls")
	}
}
