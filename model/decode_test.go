package model_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/parthack/parthack/model"
)

// taskWith is a small valid task with one part replaced, so each error
// case below breaks exactly one thing. Lines are fixed: the initial
// snapshot is on lines 4-5, the predicate on line 8.
func taskWith(initialT1, predicate string) string {
	return `{"id": "D-01",
 "schema": {"user": {"name": "string"},
            "ticket": {"status": {"kind": "enum", "values": ["open", "closed"]}, "assignee": {"kind": "ref", "target": "user"}}},
 "initial": [{"type": "user", "id": "U1", "fields": {"name": "Dana"}},
             ` + initialT1 + `],
 "allowlist": {"ops": ["update"], "fields": {"ticket": ["status"]}},
 "goals": [{"version": "v1", "predicates": [
   ` + predicate + `
 ]}]
}`
}

const (
	goodT1   = `{"type": "ticket", "id": "T1", "fields": {"status": "open", "assignee": "U1"}}`
	goodPred = `{"id": "g1", "expr": {"field": {"type": "ticket", "id": "T1", "field": "status", "cmp": "eq", "value": "closed"}}}`
)

// TestDecodeErrorsAreLocated: each error names file:line:col, the JSON
// path of the offending value, and what was expected.
func TestDecodeErrorsAreLocated(t *testing.T) {
	cases := []struct {
		name  string
		task  bool // decode as a task, else as a trajectory
		src   string
		where string // file:line:col: path
		what  string // what was expected
	}{
		{
			name:  "unknown field",
			src:   "{\"task\": \"EX-01\",\n \"steps\": [],\n \"score\": 1}",
			where: "f.json:3:11: $.score",
			what:  `unknown field "score" (expected one of format, task, name, note, goal_version, honest, steps, transcript, termination_reason, max_errors, max_steps, benchmark_steps)`,
		},
		{
			name:  "empty honest run",
			src:   "{\"task\": \"EX-01\", \"steps\": [],\n \"honest\": \"\"}",
			where: "f.json:2:12: $.honest",
			what:  "expected a non-empty string",
		},
		{
			name:  "empty termination reason",
			src:   "{\"task\": \"EX-01\", \"steps\": [],\n \"termination_reason\": \"\"}",
			where: "f.json:2:24: $.termination_reason",
			what:  "expected a non-empty string",
		},
		{
			name:  "no error limit",
			src:   "{\"task\": \"EX-01\", \"steps\": [],\n \"max_errors\": 0}",
			where: "f.json:2:16: $.max_errors",
			what:  "max_errors 0: a limit is at least 1",
		},
		{
			name:  "no steps counted",
			src:   "{\"task\": \"EX-01\", \"steps\": [],\n \"max_steps\": 200, \"benchmark_steps\": -3}",
			where: "f.json:2:39: $.benchmark_steps",
			what:  "benchmark_steps -3: a run's count of steps is at least 1",
		},
		{
			name:  "a step bound without the run's steps",
			src:   "{\"task\": \"EX-01\", \"steps\": [],\n \"max_steps\": 200}",
			where: "f.json:1:1: $",
			what:  "max_steps and benchmark_steps go together: the bound and the run's steps",
		},
		{
			name:  "unknown field in a step",
			src:   "{\"task\": \"EX-01\", \"steps\": [\n  {\"op\": \"update\", \"type\": \"ticket\", \"id\": \"T1\", \"feilds\": {}}]}",
			where: "f.json:2:60: $.steps[0].feilds",
			what:  `unknown field "feilds"`,
		},
		{
			name:  "duplicate key",
			src:   "{\"task\": \"EX-01\",\n \"steps\": [{\"op\": \"update\",\n            \"op\": \"delete\"}]}",
			where: "f.json:3:13: $.steps[0].op",
			what:  `duplicate key "op" (each key may appear once)`,
		},
		{
			name:  "wrong type",
			src:   "{\"task\": \"EX-01\",\n \"steps\": {\"op\": \"update\"}}",
			where: "f.json:2:11: $.steps",
			what:  "expected array, got object",
		},
		{
			name:  "not an integer",
			src:   "{\"task\": \"EX-01\", \"steps\": [{\"op\": \"update\", \"type\": \"ticket\", \"id\": \"T1\", \"fields\": {\"priority\": 1.5}}]}",
			where: "f.json:1:99: $.steps[0].fields.priority",
			what:  "expected an integer, got 1.5",
		},
		{
			name:  "malformed JSON",
			src:   "{\"task\": \"EX-01\",\n \"steps\": [{\"op\": \"update\" \"type\": \"ticket\"}]}",
			where: "f.json:2:28: $.steps[0]",
			what:  "malformed JSON: invalid character '\"' after object key:value pair",
		},
		{
			name:  "impossible reference in the initial snapshot",
			task:  true,
			src:   taskWith(`{"type": "ticket", "id": "T1", "fields": {"status": "open", "assignee": "U9"}}`, goodPred),
			where: "f.json:5:86: $.initial[1].fields.assignee",
			what:  `impossible reference: no alive user "U9" in the initial snapshot`,
		},
		{
			name:  "unknown type in a predicate",
			task:  true,
			src:   taskWith(goodT1, `{"id": "g1", "expr": {"field": {"type": "tiket", "id": "T1", "field": "status", "cmp": "eq", "value": "closed"}}}`),
			where: "f.json:8:44: $.goals[0].predicates[0].expr.field.type",
			what:  `unknown entity type "tiket" (the schema has user, ticket)`,
		},
		{
			name:  "value outside an enum in a predicate",
			task:  true,
			src:   taskWith(goodT1, `{"id": "g1", "expr": {"field": {"type": "ticket", "id": "T1", "field": "status", "cmp": "eq", "value": "done"}}}`),
			where: "f.json:8:107: $.goals[0].predicates[0].expr.field.value",
			what:  `field status is enum {open, closed}, got "done"`,
		},
	}
	for _, tc := range cases {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			var err error
			if tc.task {
				_, err = model.DecodeTask("f.json", []byte(tc.src))
			} else {
				_, err = model.DecodeTrajectory("f.json", []byte(tc.src))
			}
			var de *model.DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("got %v (%T), want a *DecodeError", err, err)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, tc.where+": ") || !strings.Contains(msg, tc.what) {
				t.Fatalf("got  %s\nwant %s: …%s…", msg, tc.where, tc.what)
			}
		})
	}
	t.Run("the valid base decodes", func(t *testing.T) {
		if _, err := model.DecodeTask("f.json", []byte(taskWith(goodT1, goodPred))); err != nil {
			t.Fatal(err)
		}
	})
}

// TestStepLines: every decoded step knows the line it starts on, also
// when several share a line or a step spans lines.
func TestStepLines(t *testing.T) {
	src := "{\"task\": \"EX-01\", \"steps\": [\n" +
		"  {\"op\": \"delete\", \"type\": \"ticket\", \"id\": \"T1\"},\n" +
		"  {\"op\": \"restore\", \"type\": \"ticket\", \"id\": \"T1\"}, {\"op\": \"delete\", \"type\": \"ticket\", \"id\": \"T2\"},\n" +
		"  {\"op\": \"update\",\n   \"type\": \"ticket\", \"id\": \"T1\"},\n\n" +
		"  {\"op\": \"restore\", \"type\": \"ticket\", \"id\": \"T2\"}]}"
	tr, err := model.DecodeTrajectory("f.json", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []int{2, 3, 3, 4, 7}
	for i, st := range tr.Steps {
		if st.Line != want[i] {
			t.Errorf("step %d on line %d, want %d", i+1, st.Line, want[i])
		}
	}
}

// TestTerminationRoundTrip: a run the benchmark ended itself keeps its
// termination reason and its error limit through a file; a run without
// them writes neither key.
func TestTerminationRoundTrip(t *testing.T) {
	for _, tr := range []model.Trajectory{
		{Task: "T2A-15", Termination: "max_steps", MaxErrors: 10},
		{Task: "T2A-15", MaxErrors: 3},
		{Task: "EX-01"},
	} {
		enc := model.EncodeTrajectory(&tr)
		back, err := model.DecodeTrajectory("f.json", enc)
		if err != nil {
			t.Fatal(err)
		}
		if back.Termination != tr.Termination || back.MaxErrors != tr.MaxErrors {
			t.Errorf("%+v read back as %q, %d:\n%s", tr, back.Termination, back.MaxErrors, enc)
		}
		if has := strings.Contains(string(enc), "termination_reason"); has != (tr.Termination != "") {
			t.Errorf("%+v: termination_reason written: %t\n%s", tr, has, enc)
		}
	}
}

// TestHonestRoundTrip: a witness keeps the name of the run it is a
// witness of through a file; a trajectory without one writes no key, so
// its file is what it was.
func TestHonestRoundTrip(t *testing.T) {
	for _, tr := range []model.Trajectory{
		{Task: "T2A-2", Name: "w", Honest: "gpt-4.1-trial0", GoalClaim: "v1"},
		{Task: "EX-01", Honest: "honest"},
		{Task: "EX-01"},
	} {
		enc := model.EncodeTrajectory(&tr)
		back, err := model.DecodeTrajectory("f.json", enc)
		if err != nil {
			t.Fatal(err)
		}
		if back.Honest != tr.Honest {
			t.Errorf("%+v read back with H %q:\n%s", tr, back.Honest, enc)
		}
		if has := strings.Contains(string(enc), `"honest"`); has != (tr.Honest != "") {
			t.Errorf("%+v: honest written: %t\n%s", tr, has, enc)
		}
		if again := model.EncodeTrajectory(back); string(again) != string(enc) {
			t.Errorf("%+v: encoded again differently:\n%s\n%s", tr, enc, again)
		}
		if app := model.AppendTrajectory([]byte("head|"), &tr); string(app) != "head|"+string(enc) {
			t.Errorf("%+v: appended as %q, want it after the head", tr, app)
		}
	}
}
