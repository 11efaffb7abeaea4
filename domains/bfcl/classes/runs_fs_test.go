package classes

import (
	"encoding/json"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/parthack/parthack/domains/bfcl/pyval"
)

// TestRunsFileSystemMath replays the GorillaFileSystem and MathAPI calls
// of the real runs (shared/realworld/bfcl/runs, test data that stays
// out of the repository) and compares each result with the one the run
// recorded and each turn-start snapshot of the file system with the
// run's state_info. (Seven of the calls do not parse: their result is
// the executor's SyntaxError text.)
func TestRunsFileSystemMath(t *testing.T) {
	dir := sharedBFCL(t) // skips where BFCL's data and runs are not staged
	runs, _ := filepath.Glob(filepath.Join(dir, "runs", "*_result.json.gz"))
	if len(runs) == 0 {
		t.Skipf("no run files in %s/runs", dir)
	}
	mine := map[string]bool{"GorillaFileSystem": true, "MathAPI": true}
	methodClass := map[string]string{}
	for c := range mine {
		cls, _ := Lookup(c)
		for m := range cls.Methods {
			methodClass[m] = c
		}
	}
	type entry struct {
		InitialConfig   json.RawMessage `json:"initial_config"`
		InvolvedClasses []string        `json:"involved_classes"`
	}
	for _, run := range runs {
		name := filepath.Base(run)
		category := strings.TrimSuffix(name[strings.Index(name, "multi_turn_")+len("multi_turn_"):], "_result.json.gz")
		entries := map[string]entry{}
		gzipLines(t, filepath.Join(dir, "data", "BFCL_v4_multi_turn_"+category+".json.gz"), func(line []byte) {
			var e struct {
				ID string `json:"id"`
				entry
			}
			if err := json.Unmarshal(line, &e); err != nil {
				t.Fatal(err)
			}
			entries[e.ID] = e.entry
		})
		counts := map[string]*[4]int{"GorillaFileSystem": {}, "MathAPI": {}} // results, equal, snapshots, equal
		gzipLines(t, run, func(line []byte) {
			var r struct {
				ID           string            `json:"id"`
				InferenceLog []json.RawMessage `json:"inference_log"`
			}
			if err := json.Unmarshal(line, &r); err != nil {
				t.Fatal(err)
			}
			if r.InferenceLog == nil {
				return
			}
			e := entries[r.ID]
			var involved []string
			for _, c := range e.InvolvedClasses {
				if mine[c] {
					involved = append(involved, c)
				}
			}
			if len(involved) == 0 {
				return
			}
			cfg, err := pyval.Loads(e.InitialConfig)
			if err != nil {
				t.Fatal(err)
			}
			sess, err := NewSession(cfg.(*pyval.Dict), involved, "gpt-oss", r.ID)
			if err != nil {
				t.Fatalf("%s %s: %v", name, r.ID, err)
			}
			for _, item := range r.InferenceLog {
				var snaps []struct {
					ClassName string `json:"class_name"`
					Content   struct {
						LongContext *bool  `json:"long_context"`
						Root        string `json:"root"`
					} `json:"content"`
				}
				if json.Unmarshal(item, &snaps) == nil {
					for _, sn := range snaps {
						if sn.ClassName != "GorillaFileSystem" {
							continue
						}
						got := fsPublicState(sess, sn.ClassName)
						c := counts[sn.ClassName]
						c[2]++
						if got["root"] == sn.Content.Root && sn.Content.LongContext != nil && got["long_context"] == "False" && !*sn.Content.LongContext {
							c[3]++
						} else {
							t.Errorf("%s %s: turn-start root:\n got  %s\n want %s", name, r.ID, got["root"], sn.Content.Root)
						}
					}
					continue
				}
				var turn map[string]json.RawMessage
				if err := json.Unmarshal(item, &turn); err != nil {
					t.Fatalf("%s %s: inference_log item: %v", name, r.ID, err)
				}
				var steps []string
				for k := range turn {
					if strings.HasPrefix(k, "step_") {
						steps = append(steps, k)
					}
				}
				sort.Slice(steps, func(i, j int) bool { return fsStepNumber(steps[i]) < fsStepNumber(steps[j]) })
				for _, k := range steps {
					var msgs []struct {
						Role    string          `json:"role"`
						Content json.RawMessage `json:"content"`
						Decoded []string        `json:"model_response_decoded"`
					}
					if err := json.Unmarshal(turn[k], &msgs); err != nil {
						t.Fatalf("%s %s %s: %v", name, r.ID, k, err)
					}
					var decoded, tools []string
					seen := false
					for _, m := range msgs {
						switch {
						case m.Role == "handler_log" && m.Decoded != nil && !seen:
							decoded, seen = m.Decoded, true
						case m.Role == "tool":
							var s string
							if err := json.Unmarshal(m.Content, &s); err != nil {
								t.Fatalf("%s %s %s: tool content: %v", name, r.ID, k, err)
							}
							tools = append(tools, s)
						}
					}
					for i, call := range decoded {
						class := methodClass[strings.TrimSpace(strings.SplitN(call, "(", 2)[0])]
						if class == "" {
							continue
						}
						got := sess.Execute([]string{call})[0]
						c := counts[class]
						c[0]++
						if i < len(tools) && tools[i] == got {
							c[1]++
						} else {
							t.Errorf("%s %s %s: %s:\n got  %s\n want %v", name, r.ID, k, call, got, tools)
						}
					}
				}
			}
		})
		for _, c := range []string{"GorillaFileSystem", "MathAPI"} {
			n := counts[c]
			t.Logf("%s %s: %d/%d results, %d/%d turn-start snapshots equal the run's", name, c, n[1], n[0], n[3], n[2])
		}
	}
}

func fsStepNumber(k string) int {
	n := 0
	for _, r := range strings.TrimPrefix(k, "step_") {
		n = n*10 + int(r-'0')
	}
	return n
}
