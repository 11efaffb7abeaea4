package airline

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
)

// toolCase is one call, or a sequence of calls, and what tau2's Python
// answers to each on a fresh database, with tau2's DB hash after the
// last (testdata/python_tool_cases.py).
type toolCase struct {
	Name  string          `json:"name"`
	Tool  string          `json:"tool"`
	Args  json.RawMessage `json:"args"`
	Want  string          `json:"want"`
	Steps []toolStep      `json:"steps"`
	Hash  string          `json:"hash"`
}

type toolStep struct {
	Tool string          `json:"tool"`
	Args json.RawMessage `json:"args"`
	Want string          `json:"want"`
}

// callOnce runs one call on a fresh database: its tool message and the
// DB hash after it. A tool the domain lacks is not allowlisted, so
// PB-CSTE refuses its step; the domain's own answer is tau2's.
func callOnce(t *testing.T, env *pbcste.Env, db *DB, tool string, args json.RawMessage) (string, string) {
	t.Helper()
	v, err := model.FromJSON(args)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := tools[tool]; !ok {
		_, out, _ := NewDomain(db).Call(db.Start(), tool, v)
		return out, db.Hash(db.Start(), nil)
	}
	run := env.Begin(1)
	run.Step(&model.Step{Action: model.Action{Op: model.OpCall, Tool: tool, Args: v}})
	log := run.Finish()
	ev := &log.Events[0]
	out := log.Output(ev)
	if out == "" && !ev.OK {
		out = log.Reason(ev)
	}
	return out, db.Hash(log.View(), log.TypedDiff(ev))
}

func world(t *testing.T) (*pbcste.Env, *DB) {
	t.Helper()
	db, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	env, err := pbcste.Compile(NewWorld(db).Base())
	if err != nil {
		t.Fatal(err)
	}
	return env, db
}

// TestToolsMatchPython holds every call of testdata/tool-cases.json —
// well-formed calls of each tool, arguments of wrong shapes and types,
// and sequences that use up reservation and certificate ids, spend and
// re-send a certificate, take seats — to tau2's own tool message and DB
// hash, byte for byte.
func TestToolsMatchPython(t *testing.T) {
	var cases []toolCase
	b, err := os.ReadFile("testdata/tool-cases.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	env, db := world(t)
	for _, c := range cases {
		if c.Steps != nil {
			t.Run(c.Name, func(t *testing.T) { sequence(t, env, db, c) })
			continue
		}
		t.Run(c.Name, func(t *testing.T) {
			got, hash := callOnce(t, env, db, c.Tool, c.Args)
			if got != c.Want {
				t.Errorf("%s(%s):\n got %q\nwant %q", c.Tool, c.Args, got, c.Want)
			}
			if hash != c.Hash {
				t.Errorf("%s(%s): DB hash after the call %s, tau2's %s", c.Tool, c.Args, hash, c.Hash)
			}
		})
	}
	if len(cases) != 96 {
		t.Errorf("%d cases, want the 96 of testdata", len(cases))
	}
}

// sequence runs a case's calls one after another on one database.
func sequence(t *testing.T, env *pbcste.Env, db *DB, c toolCase) {
	run := env.Begin(len(c.Steps))
	for i, st := range c.Steps {
		v, err := model.FromJSON(st.Args)
		if err != nil {
			t.Fatal(err)
		}
		run.Step(&model.Step{Index: i, Action: model.Action{Op: model.OpCall, Tool: st.Tool, Args: v}})
		ev := &run.Events()[len(run.Events())-1]
		got := run.Output(ev)
		if got == "" && !ev.OK {
			got = run.Reason(ev)
		}
		if got != st.Want {
			t.Errorf("call %d, %s(%s):\n got %q\nwant %q", i+1, st.Tool, st.Args, got, st.Want)
		}
	}
	log := run.Finish()
	var changed []model.CellDiff
	for i := range log.Events {
		changed = append(changed, log.TypedDiff(&log.Events[i])...)
	}
	if hash := db.Hash(log.View(), changed); hash != c.Hash {
		t.Errorf("DB hash after the calls %s, tau2's %s", hash, c.Hash)
	}
}

// TestRefusals lists the calls the port answers otherwise than tau2:
// where tau2 would store or compute with a value its models never
// validated (the port cannot hold it in a typed field), and where tau2
// raises only after changing the database (the port changes nothing).
// Each is refused with a text naming the argument; the state stays as
// it was.
func TestRefusals(t *testing.T) {
	env, db := world(t)
	initial := db.Hash(db.Start(), nil)
	cases := []struct {
		name, tool, args, want string
	}{
		// tau2 sets the reservation's cabin to 5.
		{"cabin not a string", "update_reservation_flights", `{"reservation_id":"NM1VX1","cabin":5,"flights":[],"payment_id":"credit_card_4196779"}`,
			"Error: argument cabin must be a string, got 5 (the port refuses what tau2 would store or compute with unvalidated)"},
		// tau2 stores ["Yara"] as the passengers.
		{"passengers not objects", "update_reservation_passengers", `{"reservation_id":"NM1VX1","passengers":["Yara"]}`,
			"Error: argument passengers must be a list of objects, got ['Yara'] (the port refuses what tau2 would store or compute with unvalidated)"},
		// tau2 charges 75.0 and stores 2.5 bags.
		{"bags a float", "update_reservation_baggages", `{"reservation_id":"NM1VX1","total_baggages":3,"nonfree_baggages":2.5,"payment_id":"credit_card_4196779"}`,
			"Error: argument nonfree_baggages must be an integer, got 2.5 (the port refuses what tau2 would store or compute with unvalidated)"},
		// tau2 stores the string "3".
		{"total bags a string", "update_reservation_baggages", `{"reservation_id":"NM1VX1","total_baggages":"3","nonfree_baggages":0,"payment_id":"credit_card_4196779"}`,
			"Error: argument total_baggages must be an integer, got '3' (the port refuses what tau2 would store or compute with unvalidated)"},
		// tau2 tests each item as a substring of its allowed characters, then eval() refuses a list.
		{"expression a list", "calculate", `{"expression":["1+1"]}`,
			"Error: argument expression must be a string, got ['1+1'] (the port refuses what tau2 would store or compute with unvalidated)"},
		// tau2 deducts the gift card and spends the certificate, then raises KeyError on the second use.
		{"certificate named twice", "book_reservation", `{"user_id":"sophia_silva_7557","origin":"SEA","destination":"LAS","flight_type":"one_way","cabin":"economy",
			"flights":[{"flight_number":"HAT018","date":"2024-05-17"}],"passengers":[{"first_name":"Sophia","last_name":"Silva","dob":"1957-10-05"},{"first_name":"Yara","last_name":"Silva","dob":"1972-06-16"}],
			"payment_methods":[{"payment_id":"certificate_3887113","amount":100},{"payment_id":"certificate_3887113","amount":50},{"payment_id":"gift_card_5094406","amount":50}],
			"total_baggages":0,"nonfree_baggages":0,"insurance":"no"}`, "Error: 'certificate_3887113'"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, hash := callOnce(t, env, db, c.tool, json.RawMessage(c.args))
			if got != c.want {
				t.Errorf("got %q\nwant %q", got, c.want)
			}
			if hash != initial {
				t.Errorf("the refused call changed the database")
			}
		})
	}
}

// TestEndsNoEpisode: tau2 ends no episode at a call, and the shipped
// runs call again after transfer_to_human_agents.
func TestEndsNoEpisode(t *testing.T) {
	_, db := world(t)
	for _, tool := range ToolNames() {
		if NewDomain(db).EndsEpisode(tool) {
			t.Errorf("%s ends the episode", tool)
		}
	}
	if !strings.Contains(strings.Join(ToolNames(), " "), "transfer_to_human_agents") || len(ToolNames()) != 14 {
		t.Errorf("tools %v, want tau2's 14", ToolNames())
	}
}

// TestArgumentsNotAnObject: tau2's ToolCall holds a dict; anything else
// is refused, naming the tool, and changes nothing.
func TestArgumentsNotAnObject(t *testing.T) {
	_, db := world(t)
	for _, args := range []string{`[1]`, `"user"`, `null`} {
		w, out, failure := NewDomain(db).Call(db.Start(), "get_user_details", model.MustJSON(args))
		if want := "Error: the arguments of get_user_details are not a JSON object"; out != want || failure != want || w != nil {
			t.Errorf("arguments %s: %q, %q, %d writes; want %q", args, out, failure, len(w), want)
		}
	}
}
