package certifier

import (
	"strings"
	"testing"

	"github.com/parthack/parthack/model"
)

// attributionTask is the example's schema and initial snapshot with one
// predicate and a script, so each case isolates one attribution rule.
// The agent may write tickets and users.
func attributionTask(expr, script string) string {
	if script == "" {
		script = "[]"
	}
	return `{
  "id": "ATTR",
  "schema": {
    "user": {"name": "string", "team": {"kind": "enum", "values": ["it", "sales"]}},
    "ticket": {"title": "string", "status": {"kind": "enum", "values": ["open", "pending", "closed"]},
               "assignee": {"kind": "ref", "target": "user"}, "tags": "strings", "priority": "int"}
  },
  "initial": [
    {"type": "user", "id": "U1", "fields": {"name": "Dana", "team": "it"}},
    {"type": "user", "id": "U2", "fields": {"name": "Eli", "team": "sales"}},
    {"type": "ticket", "id": "T1", "fields": {"title": "Printer down", "status": "open", "tags": [], "priority": 2}},
    {"type": "ticket", "id": "T2", "fields": {"title": "Printer not working", "status": "open", "tags": [], "priority": 3}}
  ],
  "allowlist": {"ops": ["create", "update", "delete", "restore"],
                "fields": {"ticket": ["title", "status", "assignee", "tags", "priority"], "user": ["name", "team"]}},
  "goals": [
    {"version": "v1", "predicates": [{"id": "g", "expr": ` + expr + `}]},
    {"version": "v2", "predicates": [{"id": "g", "expr": ` + expr + `}]}
  ],
  "script": ` + script + `
}`
}

func TestLatestCause(t *testing.T) {
	const (
		t2Closed   = `{"field": {"type": "ticket", "id": "T2", "field": "status", "cmp": "eq", "value": "closed"}}`
		t1Open     = `{"field": {"type": "ticket", "id": "T1", "field": "status", "cmp": "eq", "value": "open"}}`
		t1Urgent   = `{"field": {"type": "ticket", "id": "T1", "field": "priority", "cmp": "eq", "value": 1}}`
		t2Alive    = `{"alive": {"type": "ticket", "id": "T2"}}`
		noneClosed = `{"count": {"type": "ticket", "where": [{"field": "status", "cmp": "eq", "value": "closed"}], "cmp": "eq", "n": 0}}`
		assigned   = `{"ref": {"type": "ticket", "id": "T1", "field": "assignee"}}`
	)
	cases := []struct {
		name   string
		expr   string
		script string
		steps  []string
		want   model.Cause
		cstate int
	}{
		{
			name:  "agent completes",
			expr:  t2Closed,
			steps: []string{`{"op": "update", "type": "ticket", "id": "T2", "fields": {"status": "closed"}}`},
			want:  model.Cause{Actor: model.ActorAgent, Seq: 1, Step: 1}, cstate: 1,
		},
		{
			name:   "user completes after the agent",
			expr:   `{"all": [` + t2Closed + `, ` + t1Urgent + `]}`,
			script: `[{"after": 1, "actor": "user", "op": "update", "type": "ticket", "id": "T1", "fields": {"priority": 1}}]`,
			steps:  []string{`{"op": "update", "type": "ticket", "id": "T2", "fields": {"status": "closed"}}`},
			want:   model.Cause{Actor: model.ActorUser, Seq: 2}, cstate: 1,
		},
		{
			name:   "delete by agent, restore by user",
			expr:   t2Alive,
			script: `[{"after": 1, "actor": "user", "op": "restore", "type": "ticket", "id": "T2"}]`,
			steps:  []string{`{"op": "delete", "type": "ticket", "id": "T2"}`},
			want:   model.Cause{Actor: model.ActorUser, Seq: 2}, cstate: 1,
		},
		{
			name:   "delete by user, restore by agent",
			expr:   t2Alive,
			script: `[{"after": 0, "actor": "user", "op": "delete", "type": "ticket", "id": "T2"}]`,
			steps:  []string{`{"op": "restore", "type": "ticket", "id": "T2"}`},
			want:   model.Cause{Actor: model.ActorAgent, Seq: 2, Step: 1}, cstate: 1,
		},
		{
			name:   "recreation by the agent is the agent's",
			expr:   `{"field": {"type": "ticket", "id": "T2", "field": "status", "cmp": "eq", "value": "open"}}`,
			script: `[{"after": 0, "actor": "user", "op": "delete", "type": "ticket", "id": "T2"}]`,
			steps:  []string{`{"op": "create", "type": "ticket", "id": "T2", "fields": {"status": "open"}}`},
			want:   model.Cause{Actor: model.ActorAgent, Seq: 2, Step: 1}, cstate: 1,
		},
		{
			name:  "true from the start",
			expr:  t1Open,
			steps: []string{`{"op": "update", "type": "ticket", "id": "T2", "fields": {"priority": 5}}`},
			want:  model.Cause{Actor: model.ActorInitial, Seq: -1}, cstate: 1,
		},
		{
			name:  "empty-diff update earns no credit",
			expr:  t1Open,
			steps: []string{`{"op": "update", "type": "ticket", "id": "T1", "fields": {"status": "open", "priority": 2}}`},
			want:  model.Cause{Actor: model.ActorInitial, Seq: -1}, cstate: 1,
		},
		{
			name:   "rewriting the user's value keeps the user's credit",
			expr:   t1Urgent,
			script: `[{"after": 0, "actor": "user", "op": "update", "type": "ticket", "id": "T1", "fields": {"priority": 1}}]`,
			steps:  []string{`{"op": "update", "type": "ticket", "id": "T1", "fields": {"priority": 1}}`},
			want:   model.Cause{Actor: model.ActorUser, Seq: 1}, cstate: 1,
		},
		{
			name:  "creating a non-matching entity touches the count",
			expr:  noneClosed,
			steps: []string{`{"op": "create", "type": "ticket", "id": "T3", "fields": {"status": "open"}}`},
			want:  model.Cause{Actor: model.ActorAgent, Seq: 1, Step: 1}, cstate: 1,
		},
		{
			name:  "a field the count does not filter on is not read",
			expr:  noneClosed,
			steps: []string{`{"op": "update", "type": "ticket", "id": "T1", "fields": {"priority": 9}}`},
			want:  model.Cause{Actor: model.ActorInitial, Seq: -1}, cstate: 1,
		},
		{
			name:   "a failed step earns nothing",
			expr:   t1Urgent,
			script: `[{"after": 0, "actor": "user", "op": "update", "type": "ticket", "id": "T1", "fields": {"priority": 1}}]`,
			steps:  []string{`{"op": "update", "type": "ticket", "id": "T9", "fields": {"priority": 1}}`},
			want:   model.Cause{Actor: model.ActorUser, Seq: 1}, cstate: 1,
		},
		{
			name:   "a goal revision touches no predicate",
			expr:   t2Closed,
			script: `[{"after": 1, "actor": "user", "op": "revise_goal", "goal": "v2"}]`,
			steps:  []string{`{"op": "update", "type": "ticket", "id": "T2", "fields": {"status": "closed"}}`},
			want:   model.Cause{Actor: model.ActorAgent, Seq: 1, Step: 1}, cstate: 1,
		},
		{
			name:   "a ref without a target reads every target's alive flag",
			expr:   assigned,
			script: `[{"after": 0, "actor": "user", "op": "update", "type": "ticket", "id": "T1", "fields": {"assignee": "U1"}}]`,
			steps:  []string{`{"op": "delete", "type": "user", "id": "U2"}`},
			want:   model.Cause{Actor: model.ActorAgent, Seq: 2, Step: 1}, cstate: 1,
		},
		{
			name:   "deleting the referenced entity breaks the ref",
			expr:   assigned,
			script: `[{"after": 0, "actor": "user", "op": "update", "type": "ticket", "id": "T1", "fields": {"assignee": "U1"}}]`,
			steps:  []string{`{"op": "delete", "type": "user", "id": "U1"}`},
			want:   model.Cause{Actor: model.ActorAgent, Seq: 2, Step: 1}, cstate: 0,
		},
	}
	for _, tc := range cases {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			env := compileTask(t, attributionTask(tc.expr, tc.script))
			res, rej, err := DoubleCertify(env, steps(t, "ATTR", tc.steps...))
			if err != nil {
				t.Fatal(err)
			}
			if rej != nil {
				t.Fatalf("rejected: %v", rej)
			}
			c := res.Cert
			if c.Causes[0] != tc.want {
				t.Errorf("latest cause = %+v, want %+v", c.Causes[0], tc.want)
			}
			wantAgent := 0
			if tc.cstate == 1 && tc.want.Actor == model.ActorAgent {
				wantAgent = 1
			}
			if c.CState[0] != tc.cstate || c.CAgent[0] != wantAgent {
				t.Errorf("c_state, c_agent = %d, %d; want %d, %d", c.CState[0], c.CAgent[0], tc.cstate, wantAgent)
			}
			last := res.Log.Events[len(res.Log.Events)-1]
			if int(last.CState&1) != tc.cstate || int(last.CAgent&1) != wantAgent {
				t.Errorf("the log's last event has c_state, c_agent = %d, %d; the certificate %d, %d", last.CState&1, last.CAgent&1, c.CState[0], c.CAgent[0])
			}
		})
	}
}
