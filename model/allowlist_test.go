package model_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/parthack/parthack/model"
)

// withAllowlist is taskWith's valid task with its allowlist (line 6)
// replaced.
func withAllowlist(allowlist string) string {
	return strings.Replace(taskWith(goodT1, goodPred), `{"ops": ["update"], "fields": {"ticket": ["status"]}}`, allowlist, 1)
}

// TestPerTypeAllowlist: the per-type form names each type's ops and
// writable fields; the first form still means every op on every listed
// type.
func TestPerTypeAllowlist(t *testing.T) {
	task, err := model.DecodeTask("f.json", []byte(withAllowlist(
		`{"types": {"ticket": {"ops": ["update", "delete"], "fields": ["status"]}, "user": {"ops": ["create"]}}}`)))
	if err != nil {
		t.Fatal(err)
	}
	al := &task.Allowlist
	if !al.PerType() || !slices.Equal(al.Ops, []model.Op{model.OpCreate, model.OpUpdate, model.OpDelete}) {
		t.Fatalf("ops %v, per type %t: want the union in canonical order", al.Ops, al.PerType())
	}
	for _, c := range []struct {
		op   model.Op
		typ  string
		want bool
	}{{model.OpDelete, "ticket", true}, {model.OpDelete, "user", false}, {model.OpCreate, "user", true}, {model.OpCreate, "ticket", false}} {
		if got := al.AllowsOpOn(c.op, c.typ); got != c.want {
			t.Errorf("AllowsOpOn(%s, %s) = %t", c.op, c.typ, got)
		}
	}
	if !al.AllowsType("user") || al.AllowsField("user", "name") || !al.AllowsField("ticket", "status") {
		t.Errorf("fields %v", al.Fields)
	}

	first, err := model.DecodeTask("f.json", []byte(taskWith(goodT1, goodPred)))
	if err != nil {
		t.Fatal(err)
	}
	fa := &first.Allowlist
	if fa.PerType() || !fa.AllowsOpOn(model.OpUpdate, "ticket") || fa.AllowsOpOn(model.OpUpdate, "user") || !slices.Equal(fa.OpsOn("ticket"), []model.Op{model.OpUpdate}) {
		t.Errorf("first form: %+v", fa)
	}
	b, err := model.Canonical(fa)
	if err != nil || strings.Contains(string(b), "TypeOps") {
		t.Errorf("the first form's canonical encoding changed: %s %v", b, err)
	}
}

func TestPerTypeAllowlistErrors(t *testing.T) {
	for _, c := range []struct{ allowlist, where, what string }{
		{`{"ops": ["update"], "types": {"ticket": {"ops": ["update"], "fields": ["status"]}}}`, "$.allowlist.ops", `either "ops" and "fields"`},
		{`{"types": {"ticket": {"ops": ["update"]}}}`, "$.allowlist.types.ticket.ops", "op update needs at least one writable field"},
		{`{"types": {"ticket": {"ops": ["delete"], "fields": ["status"]}}}`, "$.allowlist.types.ticket.fields", "writable fields need op create or update"},
		{`{"types": {"ticket": {"ops": []}}}`, "$.allowlist.types.ticket.ops", "allows no op"},
		{`{"types": {"grant": {"ops": ["delete"]}}}`, "$.allowlist.types.grant", `unknown entity type "grant"`},
		{`{"types": {"ticket": {"ops": ["revise_goal"]}}}`, "$.allowlist.types.ticket.ops[0]", "script it instead"},
		{`{"types": {"ticket": {"ops": ["update"], "fields": ["title"]}}}`, "$.allowlist.types.ticket.fields", `no field "title"`},
	} {
		_, err := model.DecodeTask("f.json", []byte(withAllowlist(c.allowlist)))
		var de *model.DecodeError
		if !errors.As(err, &de) || !strings.Contains(err.Error(), c.where+": ") || !strings.Contains(err.Error(), c.what) {
			t.Errorf("%s: got %v, want %s: …%s…", c.allowlist, err, c.where, c.what)
		}
	}
}

// TestSchemaMemberAccepted: "$schema" names the file's JSON Schema for
// editors; the decoder accepts it (a string) and ignores it.
func TestSchemaMemberAccepted(t *testing.T) {
	src := strings.Replace(taskWith(goodT1, goodPred), `{"id": "D-01",`, `{"$schema": "../schema/task.schema.json", "id": "D-01",`, 1)
	if _, err := model.DecodeTask("f.json", []byte(src)); err != nil {
		t.Fatal(err)
	}
	if _, err := model.DecodeTrajectory("f.json", []byte(`{"$schema": "trajectory.schema.json", "task": "D-01", "steps": []}`)); err != nil {
		t.Fatal(err)
	}
	if _, err := model.DecodeTrajectory("f.json", []byte(`{"$schema": 1, "task": "D-01", "steps": []}`)); err == nil {
		t.Fatal(`"$schema": 1 decoded`)
	}
}
