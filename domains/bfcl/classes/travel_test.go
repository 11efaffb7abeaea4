package classes

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/parthack/parthack/domains/bfcl/pyval"
)

// travelCase is one call sequence gen_travel.py ran through BFCL's own
// TravelAPI: each call's result string and the state after it.
type travelCase struct {
	Source string `json:"source"`
	ID     string `json:"id"`
	Config string `json:"config"`
	Note   string `json:"note"`
	Calls  []struct {
		Turn   int    `json:"turn"`
		Call   string `json:"call"`
		Result string `json:"result"`
		State  string `json:"state"`
		Lookup string `json:"lookup"`
	} `json:"calls"`
}

// travelSession is a session of TravelAPI alone, loaded from config (the
// JSON of initial_config["TravelAPI"], "" for the default state).
func travelSession(t *testing.T, config, entry string) *Session {
	t.Helper()
	initial := pyval.NewDict()
	if config != "" {
		v, err := pyval.Loads([]byte(config))
		if err != nil {
			t.Fatalf("%s: config: %v", entry, err)
		}
		initial.Set("TravelAPI", v)
	}
	s, err := NewSession(initial, []string{"TravelAPI"}, "gen", entry)
	if err != nil {
		t.Fatalf("%s: %v", entry, err)
	}
	return s
}

// travelState is repr() of the instance's public attributes as a dict,
// in vars() order, as gen_travel.py writes it.
func travelState(s *Session) string {
	d := pyval.NewDict()
	for _, a := range s.Snapshot()[0].Attrs {
		d.Set(a.Name, a.Value)
	}
	return pyval.Repr(d)
}

// travelRoundTrip replaces every attribute by its pyval.Marshal round trip, so
// the next call runs on state as a saved session restores it.
func travelRoundTrip(t *testing.T, in *Instance) {
	t.Helper()
	for i, a := range in.Attrs {
		b, err := pyval.Marshal(a.Value)
		if err != nil {
			t.Fatalf("Marshal %s: %v", a.Name, err)
		}
		v, err := pyval.Unmarshal(b)
		if err != nil {
			t.Fatalf("Unmarshal %s: %v", a.Name, err)
		}
		in.Attrs[i].Value = v
	}
}

// TestTravelAgainstPython replays the call sequences BFCL's own
// TravelAPI ran in gen_travel.py (every gold sequence of the entries
// involving TravelAPI, and hand-made wrong-typed and edge calls) and
// requires each result string, each public state and the private flight
// cost cache to equal Python's byte for byte, the state round-tripping
// through pyval.Marshal before every call.
func TestTravelAgainstPython(t *testing.T) {
	for _, file := range []string{"gold.jsonl.gz", "hand.jsonl.gz"} {
		t.Run(file, func(t *testing.T) {
			cases := gzipJSONLines[travelCase](t, filepath.Join("testdata", "travel", file))
			calls, results, states := 0, 0, 0
			for _, c := range cases {
				s := travelSession(t, c.Config, c.ID)
				in, _ := s.Instance("TravelAPI")
				for i, call := range c.Calls {
					travelRoundTrip(t, in)
					got := s.Execute([]string{call.Call})[0]
					calls++
					where := fmt.Sprintf("%s call %d (turn %d) %s", c.ID, i, call.Turn, call.Call)
					if got == call.Result {
						results++
					} else {
						t.Errorf("%s:\n got  %s\n want %s", where, got, call.Result)
					}
					if st := travelState(s); st == call.State {
						states++
					} else {
						t.Errorf("%s: state\n got  %s\n want %s", where, st, call.State)
					}
					if lk := pyval.Repr(travelAttr(in, "_flight_cost_lookup")); lk != call.Lookup {
						t.Errorf("%s: _flight_cost_lookup\n got  %s\n want %s", where, lk, call.Lookup)
					}
				}
				if len(s.Faults) > 0 {
					t.Errorf("%s: port panics: %v", c.ID, s.Faults)
				}
			}
			t.Logf("%d sequences, %d calls: %d results and %d states equal Python's", len(cases), calls, results, states)
		})
	}
}

// TestTravelAttrOrder checks the attributes are vars()'s, in its order:
// __init__'s two private ones, then _load_scenario's.
func TestTravelAttrOrder(t *testing.T) {
	s := travelSession(t, "", "order")
	var names []string
	for _, a := range s.Instances[0].Attrs {
		names = append(names, a.Name)
	}
	want := "_api_description _flight_cost_lookup _random credit_card_list booking_record access_token token_type token_expires_in token_scope user_first_name user_last_name budget_limit long_context"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("attributes\n got  %s\n want %s", got, want)
	}
}

// TestTravelToday checks the age verify_traveler_information computes
// follows TravelToday, not the clock: one date of birth is 18 on one day
// and 17 the day before.
func TestTravelToday(t *testing.T) {
	defer func(d time.Time) { TravelToday = d }(TravelToday)
	call := "verify_traveler_information(first_name='Ann', last_name='Lee', date_of_birth='2008-03-01', passport_number='US1')"
	for _, tc := range []struct {
		today time.Time
		want  string
	}{
		{time.Date(2026, time.March, 1, 0, 0, 0, 0, time.UTC), `{"verification_status": true}`},
		{time.Date(2026, time.February, 28, 0, 0, 0, 0, time.UTC), `{"verification_status": false, "verification_failure": "Traveler must be at least 18 years old."}`},
		{time.Date(2025, time.November, 12, 0, 0, 0, 0, time.UTC), `{"verification_status": false, "verification_failure": "Traveler must be at least 18 years old."}`},
		{time.Date(2027, time.January, 1, 0, 0, 0, 0, time.UTC), `{"verification_status": true}`},
	} {
		TravelToday = tc.today
		s := travelSession(t, `{"user_first_name": "Ann", "user_last_name": "Lee"}`, "today")
		if got := s.Execute([]string{call})[0]; got != tc.want {
			t.Errorf("today %s: got %s, want %s", tc.today.Format("2006-01-02"), got, tc.want)
		}
	}
}

// TestTravelStrptime checks datetime.strptime(s, "%Y-%m-%d") against
// what Python gave in gen_travel.py: the date, or the exception's type
// and text (TravelAPI catches the ValueErrors, so their texts show only
// here; the TypeErrors reach the result string).
func TestTravelStrptime(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "travel", "strptime.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Input json.RawMessage `json:"input"`
		Date  []int           `json:"date"`
		Error string          `json:"error"`
	}
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatalf("strptime.json: %v", err)
	}
	for _, tc := range cases {
		in, err := pyval.Loads(tc.Input)
		if err != nil {
			t.Fatalf("strptime.json input %s: %v", tc.Input, err)
		}
		d, err := travelStrptime(in)
		got := ""
		if e, ok := err.(*pyval.Exception); ok {
			got = e.Type + ": " + e.Msg
		} else if err != nil {
			got = err.Error()
		}
		want := travelDate{}
		if len(tc.Date) == 3 {
			want = travelDate{tc.Date[0], tc.Date[1], tc.Date[2]}
		}
		if got != tc.Error || d != want {
			t.Errorf("strptime(%s): got %v %q, want %v %q", tc.Input, d, got, want, tc.Error)
		}
	}
}

// TestTravelRealRuns replays the TravelAPI calls of the staged real runs
// (gpt-oss-120b and gpt-oss-20b, base, miss_func and miss_param) on a
// session of TravelAPI alone, and requires each result to equal the tool
// result BFCL recorded and each turn-start snapshot of TravelAPI to
// equal the recorded state_info. Other classes' calls in the same
// entries touch only their own instances, so they are skipped.
func TestTravelRealRuns(t *testing.T) {
	dir := sharedBFCL(t)
	type entry struct {
		InitialConfig json.RawMessage `json:"initial_config"`
		Involved      []string        `json:"involved_classes"`
	}
	entries := map[string]entry{}
	for _, cat := range []string{"base", "miss_func", "miss_param"} {
		gzipLines(t, filepath.Join(dir, "data", "BFCL_v4_multi_turn_"+cat+".json.gz"), func(line []byte) {
			var e struct {
				ID string `json:"id"`
				entry
			}
			if err := json.Unmarshal(line, &e); err != nil {
				t.Fatal(err)
			}
			entries[e.ID] = e.entry
		})
	}
	methods := travelMethods(t)
	files, _ := filepath.Glob(filepath.Join(dir, "runs", "*_result.json.gz"))
	if len(files) == 0 {
		t.Skip("no runs/*_result.json.gz in " + dir)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			var n, calls, equal, snaps, snapsEqual, mixed int
			gzipLines(t, file, func(line []byte) {
				var r struct {
					ID  string            `json:"id"`
					Log []json.RawMessage `json:"inference_log"`
				}
				if err := json.Unmarshal(line, &r); err != nil {
					t.Fatal(err)
				}
				e := entries[r.ID]
				if !travelContains(e.Involved, "TravelAPI") || r.Log == nil {
					return
				}
				n++
				if len(e.Involved) > 1 {
					mixed++
				}
				cfg, err := pyval.Loads(e.InitialConfig)
				if err != nil {
					t.Fatalf("%s: initial_config: %v", r.ID, err)
				}
				var travelCfg string
				if v, ok := cfg.(*pyval.Dict).Get("TravelAPI"); ok {
					js, _ := pyval.Dumps(v)
					travelCfg = js
				}
				s := travelSession(t, travelCfg, r.ID)
				for ti, part := range r.Log {
					if part[0] == '[' {
						var infos []struct {
							Class   string          `json:"class_name"`
							Content json.RawMessage `json:"content"`
						}
						if err := json.Unmarshal(part, &infos); err != nil {
							t.Fatalf("%s: %v", r.ID, err)
						}
						for _, info := range infos {
							if info.Class != "TravelAPI" {
								continue
							}
							snaps++
							rec, err := pyval.Loads(info.Content)
							if err != nil {
								t.Fatalf("%s: state_info: %v", r.ID, err)
							}
							want, _ := pyval.Dumps(rec)
							d := pyval.NewDict()
							for _, a := range s.Snapshot()[0].Attrs {
								d.Set(a.Name, a.Value)
							}
							got, _ := pyval.Dumps(d)
							if got == want {
								snapsEqual++
							} else {
								t.Errorf("%s: snapshot before log part %d\n got  %s\n want %s", r.ID, ti, got, want)
							}
						}
						continue
					}
					var turn map[string]json.RawMessage
					if err := json.Unmarshal(part, &turn); err != nil {
						t.Fatalf("%s: %v", r.ID, err)
					}
					for step := 0; ; step++ {
						raw, ok := turn[fmt.Sprintf("step_%d", step)]
						if !ok {
							break
						}
						var msgs []struct {
							Role    string          `json:"role"`
							Content json.RawMessage `json:"content"`
							Decoded []string        `json:"model_response_decoded"`
						}
						if err := json.Unmarshal(raw, &msgs); err != nil {
							t.Fatalf("%s: %v", r.ID, err)
						}
						var decoded, tools []string
						for _, m := range msgs {
							switch {
							case m.Role == "handler_log" && m.Decoded != nil && decoded == nil:
								decoded = m.Decoded
							case m.Role == "tool":
								var c string
								if err := json.Unmarshal(m.Content, &c); err != nil {
									t.Fatalf("%s: tool content: %v", r.ID, err)
								}
								tools = append(tools, c)
							}
						}
						for i, call := range decoded {
							if i >= len(tools) || !methods[strings.TrimSpace(strings.SplitN(call, "(", 2)[0])] {
								continue
							}
							calls++
							if got := s.Execute([]string{call})[0]; got == tools[i] {
								equal++
							} else {
								t.Errorf("%s step %d: %s\n got  %s\n want %s", r.ID, step, call, got, tools[i])
							}
						}
					}
				}
				if len(s.Faults) > 0 {
					t.Errorf("%s: port panics: %v", r.ID, s.Faults)
				}
			})
			t.Logf("%d entries (%d with other classes' calls interleaved, their calls skipped), %d TravelAPI calls, %d results equal the recorded; %d snapshots, %d equal",
				n, mixed, calls, equal, snaps, snapsEqual)
		})
	}
}

func travelMethods(t *testing.T) map[string]bool {
	c, ok := Lookup("TravelAPI")
	if !ok {
		t.Fatal("TravelAPI is not registered")
	}
	out := map[string]bool{}
	for m := range c.Methods {
		out[m] = true
	}
	return out
}

func travelContains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
