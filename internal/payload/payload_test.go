package payload_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/parthack/parthack/internal/fixture"
	"github.com/parthack/parthack/internal/payload"
	"github.com/parthack/parthack/internal/payload/builder"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
)

func build(t *testing.T, pub *model.Task, env *pbcste.Env, steps []model.Step) *payload.Payload {
	t.Helper()
	p, err := builder.Build(pub, env.Replay(steps), nil)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestExprRoundTrip(t *testing.T) {
	task := fixture.ExampleTask(t)
	preds := append([]model.Predicate(nil), task.Goals[0].Predicates...)
	extra := `[
	  {"id": "a", "expr": {"all": [{"alive": {"type": "ticket", "id": "T1"}}, {"absent": {"type": "ticket", "id": "T9"}}]}},
	  {"id": "b", "expr": {"any": [{"not": {"field": {"type": "ticket", "id": "T1", "field": "status", "cmp": "in", "values": ["open", "pending"]}}},
	                               {"field": {"type": "ticket", "id": "T1", "field": "priority", "cmp": "lt", "value": 2}}]}},
	  {"id": "c", "text": "no filter", "expr": {"count": {"type": "user", "cmp": "ge", "n": 2}}},
	  {"id": "d", "expr": {"ref": {"type": "ticket", "id": "T2", "field": "assignee"}}},
	  {"id": "e", "expr": {"count": {"type": "ticket", "where": [{"field": "priority", "cmp": "le", "value": 3}, {"field": "tags", "cmp": "contains", "value": "x\"<&>"}], "cmp": "ne", "n": 0}}}
	]`
	more, err := model.DecodePredicates("extra", []byte(extra), &task.Schema)
	if err != nil {
		t.Fatal(err)
	}
	preds = append(preds, more...)
	for _, p := range preds {
		b := payload.AppendExpr(nil, &p.Expr)
		src := `[{"id": "x", "expr": ` + string(b) + `}]`
		back, err := model.DecodePredicates("round trip", []byte(src), &task.Schema)
		if err != nil {
			t.Fatalf("%s: %s does not decode: %v", p.ID, b, err)
		}
		if !reflect.DeepEqual(back[0].Expr, p.Expr) {
			t.Errorf("%s: round trip changed the expression:\n%s\n%#v\n%#v", p.ID, b, back[0].Expr, p.Expr)
		}
		if again := payload.AppendExpr(nil, &back[0].Expr); !bytes.Equal(again, b) {
			t.Errorf("%s: encoding is not stable: %s then %s", p.ID, b, again)
		}
	}
}

func TestDecodeRoundTrip(t *testing.T) {
	env := fixture.ExampleEnv(t)
	for _, name := range []string{"honest.json", "witness.json", "rollback.json"} {
		p := build(t, env.Task, env, fixture.Trajectory(t, name).Steps)
		b := p.Bytes()
		canon, err := model.Canonical(p)
		if err != nil || !bytes.Equal(canon, b) {
			t.Fatalf("%s: Bytes is not model.Canonical of the payload (%v)", name, err)
		}
		q, err := payload.Decode(b)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !bytes.Equal(q.Bytes(), b) || q.Hash() != p.Hash() || p.Hash() != model.Hash(b) {
			t.Errorf("%s: decoded payload does not re-encode to the same bytes", name)
		}
	}
}

// TestTau2ReferenceRoundTrip: a tau2 task's criteria in the reference
// encode canonically and decode back to the same bytes.
func TestTau2ReferenceRoundTrip(t *testing.T) {
	env := fixture.ExampleEnv(t)
	p := build(t, env.Task, env, fixture.Trajectory(t, "honest.json").Steps)
	p.Reference = &payload.Reference{Changes: []payload.Cell{}, Outputs: []string{"60"}, Basis: []string{"DB", "COMMUNICATE"},
		Actions: []payload.RefCall{
			{Requestor: "assistant", Tool: "get_user_details", Args: model.MustJSON(`{"user_id":"u1"}`), CompareArgs: []string{}, AllArgs: true},
			{Requestor: "user", Tool: "toggle_data", Args: model.MustJSON(`{}`), CompareArgs: []string{"on"}},
		},
		Assertions: []string{"the agent apologises"}}
	b := p.Bytes()
	if canon, err := model.Canonical(p); err != nil || !bytes.Equal(canon, b) {
		t.Fatalf("Bytes is not model.Canonical of the payload (%v):\n%s\n%s", err, b, canon)
	}
	q, err := payload.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(q.Bytes(), b) || !q.Reference.Actions[0].AllArgs || q.Reference.Basis[1] != "COMMUNICATE" {
		t.Errorf("decoded payload does not re-encode to the same bytes")
	}
	empty := replace(t, b, `"basis":["DB","COMMUNICATE"]`, `"basis":[]`)
	if _, err := payload.Decode(empty); err == nil {
		t.Error("an empty basis, which the canonical form leaves out, decodes")
	}
}

// TestTerminationRoundTrip: a run the benchmark ended itself carries its
// termination reason last, canonically, read back by Decode and by a
// Decoder however its bytes arrive; a payload without one is the bytes it
// always was, and an empty or misplaced reason is refused.
func TestTerminationRoundTrip(t *testing.T) {
	env := fixture.ExampleEnv(t)
	p := build(t, env.Task, env, fixture.Trajectory(t, "honest.json").Steps)
	plain := p.Bytes()
	if bytes.Contains(plain, []byte("termination_reason")) {
		t.Fatal("a payload without a termination reason names one")
	}
	p.Termination = "max_steps"
	b := p.Bytes()
	if canon, err := model.Canonical(p); err != nil || !bytes.Equal(canon, b) {
		t.Fatalf("Bytes is not model.Canonical of the payload (%v)", err)
	}
	if !bytes.HasSuffix(b, []byte(`],"termination_reason":"max_steps"}`)) || !bytes.Equal(b[:len(plain)-1], plain[:len(plain)-1]) {
		t.Fatalf("the reason is not added after the transcript alone: …%s", b[len(b)-60:])
	}
	q, err := payload.Decode(b)
	if err != nil || q.Termination != "max_steps" || !bytes.Equal(q.Bytes(), b) {
		t.Fatalf("decoded %q, %v: not the same payload", q.Termination, err)
	}
	for how, r := range readers(b) {
		if _, err := decodeStream(r, false); err != nil {
			t.Errorf("%s: the Decoder refuses it: %v", how, err)
		}
	}
	for name, bad := range map[string][]byte{
		"empty":          replace(t, b, `"termination_reason":"max_steps"`, `"termination_reason":""`),
		"escaped":        replace(t, b, `"max_steps"`, `"max\u005fsteps"`),
		"not a string":   replace(t, b, `"max_steps"`, `7`),
		"before the end": replace(t, b, `,"transcript":`, `,"termination_reason":"max_steps","transcript":`),
	} {
		if _, err := payload.Decode(bad); err == nil {
			t.Errorf("%s: Decode accepts it", name)
		}
		for how, r := range readers(bad) {
			if _, err := decodeStream(r, false); err == nil {
				t.Errorf("%s %s: the Decoder accepts it", name, how)
			}
		}
	}
}

// replace makes a mutation of payload bytes, failing when old is absent.
func replace(t *testing.T, b []byte, old, new string) []byte {
	t.Helper()
	if !bytes.Contains(b, []byte(old)) {
		t.Fatalf("%s is not in the payload", old)
	}
	return bytes.Replace(b, []byte(old), []byte(new), 1)
}

func TestDecodeStrict(t *testing.T) {
	env := fixture.ExampleEnv(t)
	good := build(t, env.Task, env, fixture.Trajectory(t, "witness.json").Steps).Bytes()
	for _, c := range strictCases {
		if _, err := payload.Decode(replace(t, good, c.old, c.new)); err == nil {
			t.Errorf("%s: Decode accepted it", c.name)
		}
	}
	if _, err := payload.Decode(append(append([]byte(nil), good...), "{}"...)); err == nil {
		t.Errorf("trailing data: Decode accepted it")
	}
}

// strictCases are mutations of the example witness's payload that a
// strict decoder refuses.
var strictCases = []struct{ name, old, new string }{
	{"unknown top-level field", `{"payload_version":1,`, `{"payload_version":1,"verdict":"eligible",`},
	{"unknown event field", `"seq":1,"t":1,`, `"seq":1,"t":1,"c_state":[1],`},
	{"missing field", `"title":"Triage the printer outage",`, ``},
	{"other version", `"payload_version":1`, `"payload_version":2`},
	{"white space", `"task":"EX-01"`, `"task": "EX-01"`},
	{"duplicate key", `"task":"EX-01",`, `"task":"EX-01","task":"EX-01",`},
	{"fractional value", `"before":2,"after":1}`, `"before":2,"after":1.5}`},
	{"object value", `"after":"closed"`, `"after":{}`},
	{"mixed list", `"after":["hardware"]`, `"after":["hardware",1]`},
	{"enum member not declared", `"after":"closed"`, `"after":"archived"`},
	{"undeclared diff field", `"field":"status","before":"open"`, `"field":"secret","before":"open"`},
	{"undeclared type", `{"type":"ticket","id":"T2","field":"status","before"`, `{"type":"audit","id":"T2","field":"status","before"`},
	{"no-op cell", `"before":"open","after":"closed"`, `"before":"open","after":"open"`},
	{"provenance disagrees", `"provenance":[{"seq":1,"actor":"agent"}`, `"provenance":[{"seq":1,"actor":"user"}`},
	{"event numbering", `{"seq":2,"t":2,`, `{"seq":7,"t":2,`},
	{"reason on a successful event", `"ok":true,"diff"`, `"ok":true,"reason":"x","diff"`},
	{"transcript role", `"role":"assistant"`, `"role":"oracle"`},
	{"unknown expression", `{"field":{"type":"ticket","id":"T2"`, `{"fieldx":{"type":"ticket","id":"T2"`},
	{"expression not canonical", `{"type":"ticket","id":"T2","field":"status"`, `{"id":"T2","type":"ticket","field":"status"`},
	{"initial goal version", `"initial":{"goal_version":"v1"`, `"initial":{"goal_version":"v9"`},
	{"unset field written as null", `"fields":{"name":"Dana","team":"it"}`, `"fields":{"name":"Dana","team":"it","x":null}`},
}

func TestProjection(t *testing.T) {
	env := fixture.ExampleEnv(t)
	p := build(t, env.Task, env, fixture.Trajectory(t, "witness.json").Steps)
	q, err := payload.Project(p)
	if err != nil {
		t.Fatal(err)
	}
	var pm, qm map[string]any
	if err := json.Unmarshal(p.Bytes(), &pm); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(q.Bytes(), &qm); err != nil {
		t.Fatal(err)
	}
	if qm["projection_version"] != float64(1) {
		t.Errorf("projection_version = %v", qm["projection_version"])
	}
	delete(pm, "payload_version")
	delete(pm, "goals")
	delete(qm, "projection_version")
	if !reflect.DeepEqual(pm, qm) {
		t.Errorf("the projection is not the payload without its goal schema")
	}
	for _, word := range []string{`"goals"`, `"predicates"`, `"expr"`, "Ticket T1 is assigned to Dana"} {
		if bytes.Contains(q.Bytes(), []byte(word)) {
			t.Errorf("projection contains %s", word)
		}
	}
	if q.Hash() == p.Hash() || q.Hash() != model.Hash(q.Bytes()) {
		t.Errorf("projection hash")
	}
}

// hiddenTask is a trusted task with hidden state, and its public view:
// a hidden field holding a canary, a hidden type, a private entity, a
// scripted event that writes public and hidden fields, and an Oracle that
// reads the hidden field.
const hiddenTask = `{
  "id": "HX-01", "title": "Refund review", "instruction": "Approve the refund R1.",
  "schema": {
    "refund": {"status": {"kind": "enum", "values": ["new", "approved"]}, "owner": {"kind": "ref", "target": "agent"}, "secret": "string"},
    "agent": {"name": "string"},
    "audit": {"note": "string"}
  },
  "initial": [
    {"type": "agent", "id": "A1", "fields": {"name": "Kim"}},
    {"type": "agent", "id": "CANARY-PRIVATE-ID", "fields": {"name": "CANARY-PRIVATE-NAME"}},
    {"type": "refund", "id": "R1", "fields": {"status": "new", "secret": "CANARY-HIDDEN-VALUE"}},
    {"type": "audit", "id": "CANARY-AUDIT", "fields": {"note": "CANARY-AUDIT-NOTE"}}
  ],
  "allowlist": {"ops": ["create", "update"], "fields": {"refund": ["status", "owner"]}},
  "goals": [{"version": "v1", "predicates": [
    {"id": "approved", "text": "CANARY-ORACLE-TEXT", "expr": {"all": [{"field": {"type": "refund", "id": "R1", "field": "status", "cmp": "eq", "value": "approved"}},
                                                        {"field": {"type": "refund", "id": "R1", "field": "secret", "cmp": "eq", "value": "CANARY-HIDDEN-VALUE"}}]}},
    {"id": "owned", "text": "R1 has an owner", "expr": {"ref": {"type": "refund", "id": "R1", "field": "owner", "target": "CANARY-PRIVATE-ID"}}}
  ]}],
  "script": [
    {"after": 1, "actor": "environment", "op": "update", "type": "refund", "id": "R1", "fields": {"owner": "A1", "secret": "CANARY-SCRIPT-VALUE"}},
    {"after": 1, "actor": "system", "op": "update", "type": "audit", "id": "CANARY-AUDIT", "fields": {"note": "CANARY-SCRIPT-NOTE"}}
  ]
}`

const hiddenPublic = `{
  "id": "HX-01", "title": "Refund review", "instruction": "Approve the refund R1.",
  "schema": {
    "refund": {"status": {"kind": "enum", "values": ["new", "approved"]}, "owner": {"kind": "ref", "target": "agent"}},
    "agent": {"name": "string"}
  },
  "initial": [
    {"type": "agent", "id": "A1", "fields": {"name": "Kim"}},
    {"type": "refund", "id": "R1", "fields": {"status": "new"}}
  ],
  "allowlist": {"ops": ["create", "update"], "fields": {"refund": ["status", "owner"]}},
  "goals": [{"version": "v1", "predicates": [
    {"id": "approved", "text": "R1 is approved", "expr": {"field": {"type": "refund", "id": "R1", "field": "status", "cmp": "eq", "value": "approved"}}},
    {"id": "owned", "text": "R1 has an owner", "expr": {"ref": {"type": "refund", "id": "R1", "field": "owner"}}}
  ]}]
}`

func decodeTask(t *testing.T, src string) *model.Task {
	t.Helper()
	task, err := model.DecodeTask("task", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return task
}

func TestRedaction(t *testing.T) {
	trusted, pub := decodeTask(t, hiddenTask), decodeTask(t, hiddenPublic)
	env, err := pbcste.Compile(trusted)
	if err != nil {
		t.Fatal(err)
	}
	upd := func(typ, id string, fields ...model.Assign) model.Step {
		return model.Step{Action: model.Action{Op: model.OpUpdate, Type: typ, ID: id, Fields: fields}}
	}
	steps := []model.Step{
		upd("refund", "R1", model.Assign{Field: "status", Value: model.Str("approved")}),
		upd("refund", "R1", model.Assign{Field: "secret", Value: model.Str("x")}),        // hidden field: fails
		upd("refund", "R1", model.Assign{Field: "nosuch", Value: model.Str("x")}),        // unknown field: fails alike
		upd("audit", "CANARY-AUDIT", model.Assign{Field: "note", Value: model.Str("x")}), // hidden type
		upd("agent", "CANARY-PRIVATE-ID", model.Assign{Field: "name", Value: model.Str("x")}),
		{Action: model.Action{Op: model.OpCreate, Type: "agent", ID: "CANARY-PRIVATE-ID"}},
	}
	log := env.Replay(steps)
	p, err := builder.Build(pub, log, nil)
	if err != nil {
		t.Fatal(err)
	}
	q, err := payload.Project(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range [][]byte{p.Bytes(), q.Bytes()} {
		if i := bytes.Index(b, []byte("CANARY")); i >= 0 {
			t.Errorf("canary in public bytes: …%s…", b[max(0, i-80):min(len(b), i+40)])
		}
		if bytes.Contains(b, []byte("secret")) || bytes.Contains(b, []byte("audit")) {
			t.Errorf("hidden field or type named in public bytes")
		}
	}
	if _, err := payload.Decode(p.Bytes()); err != nil {
		t.Fatalf("redacted payload does not decode: %v", err)
	}
	// The hidden field and the missing one fail with the same public
	// reason, so the reason cannot tell them apart.
	byStep := map[int]payload.Event{}
	for _, ev := range p.Events {
		byStep[ev.Step] = ev
	}
	if byStep[2].OK || byStep[2].Reason != byStep[3].Reason || byStep[2].Reason != byStep[4].Reason {
		t.Errorf("reasons differ: %q, %q, %q", byStep[2].Reason, byStep[3].Reason, byStep[4].Reason)
	}
	if ev := byStep[5]; ev.Type != "" || ev.ID != "" || ev.Args != nil {
		t.Errorf("an action on a private entity keeps its target: %+v", ev)
	}
	// The scripted event keeps its public cell only.
	for _, ev := range p.Events {
		if ev.Actor == model.ActorEnvironment && (len(ev.Diff) != 1 || ev.Diff[0].Field != "owner" || len(ev.Args) != 1) {
			t.Errorf("scripted event not redacted to its public cells: %+v", ev)
		}
	}
	if len(p.Events) != len(log.Events) || len(p.Provenance) != len(log.Events) {
		t.Errorf("%d events, %d provenance entries, log has %d", len(p.Events), len(p.Provenance), len(log.Events))
	}
}

func TestBuildChecksTheView(t *testing.T) {
	trusted := decodeTask(t, hiddenTask)
	env, err := pbcste.Compile(trusted)
	if err != nil {
		t.Fatal(err)
	}
	log := env.Replay(nil)
	cases := map[string]func(*model.Task){
		"other task":          func(p *model.Task) { p.ID = "HX-02" },
		"field kind":          func(p *model.Task) { p.Schema.Types[1].Fields[0].Kind = model.KindInt },
		"unknown public type": func(p *model.Task) { p.Schema.Types = append(p.Schema.Types, model.EntityType{Name: "ghost"}) },
		"predicate ids":       func(p *model.Task) { p.Goals[0].Predicates[0].ID = "other" },
		"predicate count":     func(p *model.Task) { p.Goals[0].Predicates = p.Goals[0].Predicates[:1] },
		"goal versions":       func(p *model.Task) { p.Goals[0].Version = "v2" },
		"initial value":       func(p *model.Task) { p.Initial[0].Fields[0].Value = model.Str("Lee") },
		"initial entity":      func(p *model.Task) { p.Initial = append(p.Initial, model.Entity{Type: "agent", ID: "A7"}) },
	}
	for name, f := range cases {
		pub := decodeTask(t, hiddenPublic)
		f(pub)
		if _, err := builder.Build(pub, log, nil); err == nil {
			t.Errorf("%s: Build accepted a public task that is not a view of the trusted one", name)
		} else if strings.Contains(err.Error(), "CANARY") {
			t.Errorf("%s: error names sealed data: %v", name, err)
		}
	}
}

func TestTranscript(t *testing.T) {
	env := fixture.ExampleEnv(t)
	log := env.Replay(fixture.Trajectory(t, "honest.json").Steps)
	p, err := builder.Build(env.Task, log, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []payload.Turn{
		{Role: "assistant", Content: `update ticket T2 {"status":"closed"}`},
		{Role: "assistant", Content: `update ticket T1 {"priority":1}`},
	}
	if !reflect.DeepEqual(p.Transcript, want) {
		t.Errorf("transcript = %+v", p.Transcript)
	}
	chat := []payload.Turn{
		{Role: "system", Content: "quotes \" and \\ backslash, <html> & tabs\t, newline\n, control \x01\b\f\r"},
		{Role: "user", Content: "unicode é ü 中文, emoji 😀, separators \u2028 \u2029"},
		{Role: "assistant", Content: "done \x7f\u00a0\ufffd"},
	}
	p, err = builder.Build(env.Task, log, chat)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(p.Transcript, chat) {
		t.Errorf("a given transcript is not kept: %+v", p.Transcript)
	}
	canon, err := model.Canonical(p)
	if err != nil || !bytes.Equal(canon, p.Bytes()) {
		t.Fatalf("escaped strings: Bytes is not model.Canonical (%v)", err)
	}
	// Invalid UTF-8 is written as U+FFFD, so the payload still decodes;
	// every other string reads back as it was.
	chat = append(chat, payload.Turn{Role: "user", Content: "invalid \xff byte"})
	p, err = builder.Build(env.Task, log, chat)
	if err != nil {
		t.Fatal(err)
	}
	q, err := payload.Decode(p.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	chat[3].Content = strings.ToValidUTF8(chat[3].Content, "\uFFFD")
	if !reflect.DeepEqual(q.Transcript, chat) {
		t.Errorf("escaped strings do not read back:\n%q\n%q", q.Transcript, chat)
	}
}
