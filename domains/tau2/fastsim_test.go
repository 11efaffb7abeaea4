package tau2

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/parthack/parthack/model"
)

// exactAndFast decodes every simulation of a Results file both ways:
// from its tree (fastSimulation, nil where it leaves the run to the exact
// path) and from its text (simulation, placed as the stream places it;
// nil where it refuses the run).
func exactAndFast(t *testing.T, name string, src []byte) (fast, exact []*Simulation) {
	t.Helper()
	d := &decoder{file: name}
	err := model.StreamJSONObject(name, bytes.NewReader(src), []string{"simulations"},
		func(key string, v model.JSON) error {
			if key != "tasks" {
				return nil
			}
			// The tasks both ways too.
			d.base, d.at = key, v
			fastTasks, ok := fastTasks(v)
			var raws []json.RawMessage
			if err := d.into("tasks", v.Raw(), &raws); err != nil {
				return err
			}
			for i, r := range raws {
				exact, err := d.task(fmt.Sprintf("tasks[%d]", i), r)
				switch {
				case err != nil:
					return err
				case !ok:
					t.Errorf("%s: tasks left to the exact path", name)
					return nil
				case !reflect.DeepEqual(fastTasks[i], exact):
					t.Errorf("%s: task %d decoded from its tree:\n%+v\nfrom its text:\n%+v", name, i, fastTasks[i], exact)
				}
			}
			return nil
		},
		func(_ string, i int, v model.JSON) error {
			d.base, d.at = fmt.Sprintf("simulations[%d]", i), v
			f, _ := d.fastSimulation(i, v)
			s, err := d.simulation(i, v.Raw())
			if err == nil {
				d.placeCalls(i, s)
			}
			fast, exact = append(fast, f), append(exact, s) // s nil: the run is refused
			return nil
		})
	if err != nil {
		t.Fatal(err)
	}
	return fast, exact
}

// TestFastSimulationIsExact: every simulation of every shipped file is
// decoded from its tree, to exactly what decoding its text gives (every
// field, every call's place in the file).
func TestFastSimulationIsExact(t *testing.T) {
	for _, name := range RunFiles("") {
		gzipped, err := RunFile(name)
		if err != nil {
			t.Fatal(err)
		}
		z, err := gzip.NewReader(bytes.NewReader(gzipped))
		if err != nil {
			t.Fatal(err)
		}
		var src bytes.Buffer
		if _, err := src.ReadFrom(z); err != nil {
			t.Fatal(err)
		}
		fast, exact := exactAndFast(t, name, src.Bytes())
		for i := range exact {
			if fast[i] == nil {
				t.Errorf("%s: simulation %d left to the exact path", name, i)
				continue
			}
			if !reflect.DeepEqual(fast[i], exact[i]) {
				t.Errorf("%s: simulation %d decoded from its tree:\n%+v\nfrom its text:\n%+v", name, i, fast[i], exact[i])
			}
		}
	}
}

// TestFastSimulationShapes: on the shapes a file may give a run (nulls,
// empty lists, absent members, members of other types), the tree's
// decoding either leaves the run to the exact path or agrees with it.
func TestFastSimulationShapes(t *testing.T) {
	for _, c := range []struct {
		name, from, to string
		fast           bool // whether the tree's decoding takes it
	}{
		{"the common shape", "", "", true},
		{"text beside calls", `"content": null, "tool_calls"`, `"content": "calling", "tool_calls"`, true},
		{"a number as content", `"content": null, "tool_calls"`, `"content": 7, "tool_calls"`, false},
		{"empty tool_calls", `"content": null, "tool_calls": [{"id": "c1", "name": "x", "arguments": {"a": 1}, "requestor": "assistant"}]},
  {"role": "tool", "id": "c1", "content": "ok", "requestor": "assistant", "error": false}]`, `"content": "hi", "tool_calls": []}]`, true},
		{"null arguments", `"arguments": {"a": 1}, "requestor": "assistant"}`, `"arguments": null, "requestor": "assistant"}`, true},
		{"no requestor", `"arguments": {"a": 1}, "requestor": "assistant"}`, `"arguments": {"a": 1}}`, true},
		{"a null requestor", `"arguments": {"a": 1}, "requestor": "assistant"}`, `"arguments": {"a": 1}, "requestor": null}`, true},
		{"a null call id", `{"id": "c1", "name": "x"`, `{"id": null, "name": "x"`, false},
		{"null id of a tool message", `"role": "tool", "id": "c1"`, `"role": "tool", "id": null`, false},
		{"a number trial", `"task_id": "1",`, `"task_id": "1", "trial": 3,`, true},
		{"a null trial", `"task_id": "1",`, `"task_id": "1", "trial": null,`, true},
		{"a fractional trial", `"task_id": "1",`, `"task_id": "1", "trial": 1.5,`, false},
		{"recorded members", `"task_id": "1",`, `"task_id": "1", "seed": 300, "timestamp": null, "duration": 1.25e1,`, true},
		{"an error that is null", `"error": false`, `"error": null`, true},
		{"an empty basis", `"reward_basis": ["DB"]}}]}`, `"reward_basis": []}}]}`, true},
		{"a null basis", `"reward_basis": ["DB"]}}]}`, `"reward_basis": null}}]}`, true},
		{"a breakdown", `"reward_basis": ["DB"]}}]}`, `"reward_basis": ["DB"], "reward_breakdown": {"DB": 1, "COMMUNICATE": 0.5}}}]}`, true},
		{"an empty breakdown", `"reward_basis": ["DB"]}}]}`, `"reward_basis": ["DB"], "reward_breakdown": {}}}]}`, true},
		{"a null in the breakdown", `"reward_basis": ["DB"]}}]}`, `"reward_basis": ["DB"], "reward_breakdown": {"DB": null}}}]}`, false},
		{"checks", `"reward_basis": ["DB"]}}]}`, `"reward_basis": ["DB"], "action_checks": [{"action": {"action_id": "a", "name": "x", "arguments": {"a": 1}, "compare_args": []}, "action_match": true},
			{"action": {"name": "y", "requestor": "user", "compare_args": null}, "action_match": false}], "communicate_checks": [{"info": "i", "met": true}], "env_assertions": [{"met": false}]}}]}`, true},
		{"a null db_check", `"db_check": {"db_match": true, "db_reward": 1.0}`, `"db_check": null`, true},
		{"a null db_reward", `"db_reward": 1.0`, `"db_reward": null`, true},
		{"a null reward_info", `"reward_info": {"reward": 1.0, "db_check": {"db_match": true, "db_reward": 1.0}, "reward_basis": ["DB"]}`, `"reward_info": null`, true},
		{"a huge reward", `"reward": 1.0`, `"reward": 1e999`, false},
	} {
		src := strings.Replace(okFile, c.from, c.to, 1)
		if c.from != "" && src == okFile {
			t.Fatalf("%s: %q is not in the file", c.name, c.from)
		}
		fast, exact := exactAndFast(t, "f.json", []byte(src))
		switch {
		case (fast[0] != nil) != c.fast:
			t.Errorf("%s: taken by the tree's decoding: %v, want %v", c.name, fast[0] != nil, c.fast)
		case fast[0] != nil && exact[0] == nil:
			t.Errorf("%s: the tree's decoding takes a run the exact path refuses", c.name)
		case fast[0] != nil && !reflect.DeepEqual(fast[0], exact[0]):
			t.Errorf("%s: decoded from its tree:\n%+v\nfrom its text:\n%+v", c.name, fast[0], exact[0])
		}
	}
}
