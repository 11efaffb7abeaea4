package cli

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/parthack/parthack/tasks/sealed"
)

func suiteFile(id, name string) string { return filepath.Join("..", "tasks", "data", id, name) }

func TestTasksCommands(t *testing.T) {
	cases := []struct {
		name     string
		args     []string
		code     int
		want     []string
		wantErr  string
		wantNone []string
	}{
		{"manifest table", []string{"tasks"}, 0, []string{"P_state(H)", "PH-D01", "PH-H18  held-out     Fixed-goal interaction  fixed goal  4  3/4         RB    included"}, "", nil},
		{"validate", []string{"tasks", "validate"}, 0, []string{"24 tasks valid\nmanifest "}, "", nil},
		{"show without sealed", []string{"tasks", "show", "PH-H05"}, 0,
			[]string{"Instruction", "Public goal schema", "kim-timesheet", "Honest trajectory (3 steps)", "after agent step 1  user"}, "", []string{"PHB-CANARY-", "Oracle", "bank_iban"}},
		{"show sealed", []string{"tasks", "show", "PH-H05", "--sealed"}, 0, []string{"Oracle predicates", "bank_iban", "hidden", "Canaries", "PHB-CANARY-0af05caf6db5cba8"}, "", nil},
		{"show unknown id", []string{"tasks", "show", "PH-H99"}, 2, nil, "valid ids: PH-D01", nil},
		{"certify with suite id and default honest", []string{"certify", "--task", "PH-D03", "--candidate", suiteFile("PH-D03", "witness.json")}, 0, []string{"eligible"}, "", nil},
		{"suite attribution control", []string{"certify", "--task", "PH-H14", "--candidate", suiteFile("PH-H14", "attribution.json")}, 1, []string{"attribution_vector_mismatch"}, "", nil},
		{"suite rollback", []string{"certify", "--task", "PH-H13", "--rollback", suiteFile("PH-H13", "rollback.json")}, 0, []string{"certified strict rollback"}, "", nil},
		{"replay with suite id", []string{"replay", "--task", "PH-D05", "--trajectory", suiteFile("PH-D05", "honest.json")}, 0, []string{"revise_goal", "goal v2"}, "", nil},
		{"unknown suite id", []string{"replay", "--task", "PH-X01", "--trajectory", suiteFile("PH-D05", "honest.json")}, 2, nil, "no suite task", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := run(t, c.args...)
			if code != c.code {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, c.code, out, errOut)
			}
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("stdout lacks %q:\n%s", w, out)
				}
			}
			for _, w := range c.wantNone {
				if strings.Contains(out, w) {
					t.Errorf("stdout must not contain %q", w)
				}
			}
			if c.wantErr != "" && !strings.Contains(errOut, c.wantErr) {
				t.Errorf("stderr lacks %q: %s", c.wantErr, errOut)
			}
		})
	}
}

func TestTasksJSON(t *testing.T) {
	code, out, errOut := run(t, "tasks", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rows []map[string]any
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatal(err)
	}
	if len(rows) != 24 {
		t.Fatalf("%d rows, want 24", len(rows))
	}
	want := []string{"family", "honest_progress", "id", "m", "rollback_metric", "split", "tags"}
	for _, r := range rows {
		var keys []string
		for k := range r {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		if !slices.Equal(keys, want) {
			t.Fatalf("keys %v, want exactly %v", keys, want)
		}
	}
	h03 := rows[8]
	if h03["id"] != "PH-H03" || h03["honest_progress"] != "2/5" || h03["m"] != 5.0 || h03["rollback_metric"] != "excluded" {
		t.Errorf("PH-H03 row: %v", h03)
	}
	if tags, ok := rows[9]["tags"].([]any); !ok || len(tags) != 1 || tags[0] != "RB" {
		t.Errorf("PH-H04 tags: %v", rows[9]["tags"])
	}
}

// TestTasksShowLeaksNoCanary shows every task without --sealed and finds
// none of its canaries.
func TestTasksShowLeaksNoCanary(t *testing.T) {
	code, out, _ := run(t, "tasks", "--json")
	if code != 0 {
		t.Fatal("tasks --json failed")
	}
	var rows []struct{ ID string }
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		code, shown, errOut := run(t, "tasks", "show", r.ID)
		if code != 0 {
			t.Fatalf("%s: %s", r.ID, errOut)
		}
		canaries, err := sealed.Canaries(r.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range canaries {
			if strings.Contains(shown, c) {
				t.Errorf("%s: tasks show prints canary %s", r.ID, c)
			}
		}
	}
}
