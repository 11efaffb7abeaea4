package classes

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/parthack/parthack/domains/bfcl/pyval"
)

// tradeScenario is one line of testdata/trade/{gold,edge}.jsonl.gz, as
// testdata/trade/generate.py writes it from BFCL's own Python: a class
// loaded from config, then calls, each with BFCL's executor's result
// string and the attributes' reprs after it (null when unchanged).
type tradeScenario struct {
	Source string          `json:"source"`
	IDs    []string        `json:"ids"`
	Class  string          `json:"class"`
	Config json.RawMessage `json:"config"`
	Init   [][2]string     `json:"init"`
	Steps  []struct {
		Call   string      `json:"call"`
		Result string      `json:"result"`
		State  [][2]string `json:"state"`
	} `json:"steps"`
}

// tradeState is what generate.py records of an instance: [name,
// repr(value)] per attribute in order, the generator left out.
func tradeState(in *Instance) [][2]string {
	var out [][2]string
	for _, a := range in.Attrs {
		if a.Name != "_random" {
			out = append(out, [2]string{a.Name, pyval.Repr(a.Value)})
		}
	}
	return out
}

// tradeRoundTrip replaces the instance's attributes by what Marshal and
// Unmarshal make of them, so that later calls run on the decoded state.
func tradeRoundTrip(t *testing.T, in *Instance) {
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

// TestTradeReplaysBFCL replays every gold call sequence of the entries
// involving TradingBot or VehicleControlAPI (all three categories) and
// hand-made wrong-typed and edge calls, and holds each result string and
// each state after a call to BFCL's Python's, byte for byte. Halfway it
// runs the same calls on state that went through Marshal and Unmarshal
// after every call, random generator included.
func TestTradeReplaysBFCL(t *testing.T) {
	for _, file := range []string{"gold.jsonl.gz", "edge.jsonl.gz"} {
		for _, roundTrip := range []bool{false, true} {
			calls, equal := 0, 0
			for n, sc := range gzipJSONLines[tradeScenario](t, filepath.Join("testdata", "trade", file)) {
				cfg, err := pyval.Loads([]byte(`{"` + sc.Class + `":` + string(sc.Config) + `}`))
				if err != nil {
					t.Fatal(err)
				}
				s, err := NewSession(cfg.(*pyval.Dict), []string{sc.Class}, "gen", fmt.Sprintf("s%d", n+1))
				if err != nil {
					t.Fatalf("%s %v: %v", file, sc.IDs, err)
				}
				in := s.Instances[0]
				want := sc.Init
				if got := tradeState(in); !reflect.DeepEqual(got, want) {
					t.Errorf("%s %v: loaded state\n got %q\nwant %q", file, sc.IDs, got, want)
				}
				for i, st := range sc.Steps {
					if roundTrip {
						tradeRoundTrip(t, in)
					}
					calls++
					got := s.Execute([]string{st.Call})[0]
					if st.State != nil {
						want = st.State
					}
					gotState := tradeState(in)
					if got == st.Result && reflect.DeepEqual(gotState, want) {
						equal++
						continue
					}
					if got != st.Result {
						t.Errorf("%s %v call %d %s:\n got %s\nwant %s", file, sc.IDs, i, st.Call, got, st.Result)
					} else {
						t.Errorf("%s %v call %d %s: state\n got %q\nwant %q", file, sc.IDs, i, st.Call, gotState, want)
					}
				}
				if len(s.Faults) > 0 {
					t.Errorf("%s %v: port panics %q", file, sc.IDs, s.Faults)
				}
			}
			t.Logf("%s (round trip %v): %d/%d calls give BFCL's result and state", file, roundTrip, equal, calls)
		}
	}
}

// TestTradeTestdataIsBFCLs runs testdata/trade/generate.py, BFCL's own
// classes and executor, where python3 and BFCL's source are present, and
// holds the committed expectations to what it writes now.
func TestTradeTestdataIsBFCLs(t *testing.T) {
	dir := sharedBFCL(t)
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed")
	}
	out := t.TempDir()
	cmd := exec.Command(py, filepath.Join("testdata", "trade", "generate.py"), dir, out)
	cmd.Env = append(os.Environ(), "TZ=UTC")
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("generate.py: %v\n%s", err, msg)
	}
	for _, name := range []string{"gold.jsonl.gz", "edge.jsonl.gz"} {
		if want, got := tradeGunzip(t, filepath.Join(out, name)), tradeGunzip(t, filepath.Join("testdata", "trade", name)); !bytes.Equal(got, want) {
			t.Errorf("testdata/trade/%s is not what generate.py writes now: run it (see its doc)", name)
		}
	}
}

func tradeGunzip(t *testing.T, path string) []byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// tradeJSONEqual compares two JSON texts as values, numbers by their text
// (so 1 and 1.0 differ, as json.dumps writes them).
func tradeJSONEqual(a, b []byte) bool {
	var x, y any
	for _, p := range []struct {
		src []byte
		dst *any
	}{{a, &x}, {b, &y}} {
		d := json.NewDecoder(bytes.NewReader(p.src))
		d.UseNumber()
		if d.Decode(p.dst) != nil {
			return false
		}
	}
	return reflect.DeepEqual(x, y)
}

// TestTradeReplaysRealRuns replays the calls gpt-oss-120b and gpt-oss-20b
// made to TradingBot and VehicleControlAPI in BFCL's real runs (each
// entry's instances carried across its turns, as BFCL's harness carries
// them) and holds every result to the one the run recorded and every
// turn-start snapshot of the two classes to the run's state_info.
func TestTradeReplaysRealRuns(t *testing.T) {
	dir := sharedBFCL(t)
	type entry struct {
		InvolvedClasses []string        `json:"involved_classes"`
		InitialConfig   json.RawMessage `json:"initial_config"`
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
	owner := map[string]string{}
	for _, c := range []string{"TradingBot", "VehicleControlAPI"} {
		cl, _ := Lookup(c)
		for m := range cl.Methods {
			owner[m] = c
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "runs", "*_result.json.gz"))
	if len(files) == 0 {
		t.Skipf("no result files in %s/runs", dir)
	}
	for _, file := range files {
		calls, callsEqual, snaps, snapsEqual := 0, 0, 0, 0
		gzipLines(t, file, func(line []byte) {
			var run struct {
				ID           string            `json:"id"`
				InferenceLog []json.RawMessage `json:"inference_log"`
			}
			if err := json.Unmarshal(line, &run); err != nil {
				t.Fatal(err)
			}
			e := entries[run.ID]
			var mine []string
			for _, c := range e.InvolvedClasses {
				if c == "TradingBot" || c == "VehicleControlAPI" {
					mine = append(mine, c)
				}
			}
			if len(mine) == 0 || run.InferenceLog == nil {
				return
			}
			cfg, err := pyval.Loads(e.InitialConfig)
			if err != nil {
				t.Fatal(err)
			}
			s, err := NewSession(cfg.(*pyval.Dict), mine, "run", run.ID)
			if err != nil {
				t.Fatalf("%s: %v", run.ID, err)
			}
			for _, part := range run.InferenceLog {
				var states []struct {
					Role      string          `json:"role"`
					ClassName string          `json:"class_name"`
					Content   json.RawMessage `json:"content"`
				}
				if json.Unmarshal(part, &states) == nil {
					for _, st := range states {
						in, ok := s.Instance(st.ClassName)
						if st.Role != "state_info" || !ok {
							continue
						}
						pub := pyval.NewDict()
						for _, a := range in.Attrs {
							if !strings.HasPrefix(a.Name, "_") {
								pub.Set(a.Name, a.Value)
							}
						}
						js, err := pyval.Dumps(pub)
						if err != nil {
							t.Fatal(err)
						}
						snaps++
						if tradeJSONEqual([]byte(js), st.Content) {
							snapsEqual++
						} else {
							t.Errorf("%s %s: turn-start state of %s\n got %s\nwant %s", filepath.Base(file), run.ID, st.ClassName, js, st.Content)
						}
					}
					continue
				}
				var turn map[string]json.RawMessage
				if err := json.Unmarshal(part, &turn); err != nil {
					t.Fatal(err)
				}
				for step := 0; ; step++ {
					raw, ok := turn[fmt.Sprintf("step_%d", step)]
					if !ok {
						break
					}
					var msgs []struct {
						Role    string   `json:"role"`
						Content any      `json:"content"`
						Decoded []string `json:"model_response_decoded"`
					}
					if err := json.Unmarshal(raw, &msgs); err != nil {
						t.Fatal(err)
					}
					var decoded, results []string
					for _, m := range msgs {
						text, _ := m.Content.(string)
						switch {
						case m.Role == "handler_log" && strings.HasPrefix(text, "Successfully"):
							decoded = m.Decoded
						case m.Role == "tool":
							results = append(results, text)
						}
					}
					for i, call := range decoded {
						if i >= len(results) {
							break
						}
						name := call
						if j := strings.IndexByte(name, '('); j >= 0 {
							name = name[:j]
						}
						if parts := strings.Split(name, "."); len(parts) > 1 {
							name = parts[1]
						}
						if c, ok := owner[name]; !ok || !tradeHas(mine, c) {
							continue
						}
						calls++
						if got := s.Execute([]string{call})[0]; got == results[i] {
							callsEqual++
						} else {
							t.Errorf("%s %s step %d: %s\n got %s\nwant %s", filepath.Base(file), run.ID, step, call, got, results[i])
						}
					}
				}
			}
		})
		t.Logf("%s: %d/%d results and %d/%d turn-start snapshots equal BFCL's", filepath.Base(file), callsEqual, calls, snapsEqual, snaps)
	}
}

func tradeHas(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestTradeDefaultsDecodedOnce: a TradingBot loaded with no scenario
// takes DEFAULT_STATE from one decoding, each value a copy of its own (a
// call's changes reach neither the next load nor the default), and
// allocates about a quarter of what decoding it anew did (584 times).
func TestTradeDefaultsDecodedOnce(t *testing.T) {
	load := func() *Session {
		s, err := NewSession(nil, []string{"TradingBot"}, "m", "e")
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	first := load()
	if r := first.Execute([]string{"add_to_watchlist(stock='ZETA')"})[0]; strings.HasPrefix(r, "Error") {
		t.Fatal(r)
	}
	w1, _ := first.Instances[0].Get("watch_list")
	w2, _ := load().Instances[0].Get("watch_list")
	if pyval.Repr(w1) == pyval.Repr(w2) {
		t.Errorf("a call's change reached the next load: watch_list %s", pyval.Repr(w2))
	}
	if n := testing.AllocsPerRun(20, func() { load() }); n > 300 && !raceEnabled {
		t.Errorf("a load allocates %v times", n)
	}
}
