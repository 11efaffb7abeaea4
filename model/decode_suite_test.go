package model_test

import (
	"strings"
	"testing"

	"github.com/parthack/parthack/model"
)

const metaOK = `{"format": "parthack.meta/1", "id": "PH-X", "split": "held-out", "family": "Entity CRUD", "goal_form": "entity set",
 "m": 4, "honest_progress": "3/4", "tags": ["Attr"], "rollback_metric": "included", "domain": "lab inventory"}`

func TestDecodeTaskMeta(t *testing.T) {
	m, err := model.DecodeTaskMeta("meta.json", []byte(metaOK))
	if err != nil {
		t.Fatal(err)
	}
	if m.ID != "PH-X" || m.M != 4 || m.Honest != (model.Frac{Num: 3, Den: 4}) || len(m.Tags) != 1 || m.Domain != "lab inventory" {
		t.Errorf("decoded %+v", m)
	}
	cases := []struct{ from, to, want string }{
		{`"3/4"`, `"6/8"`, "lowest terms"},
		{`"3/4"`, `"5/4"`, "0 <= p <= q"},
		{`"3/4"`, `"0.75"`, "fraction"},
		{`"entity set"`, `"revision"`, "goal form of a Entity CRUD task"},
		{`["Attr"]`, `["Attr", "Attr"]`, "listed twice"},
		{`["Attr"]`, `["attr"]`, "expected one of RB, Attr"},
		{`"m": 4`, `"m": 0`, "m counts predicates"},
		{`"held-out"`, `"test"`, "expected one of development, held-out"},
		{`, "domain": "lab inventory"`, ``, `missing required field "domain"`},
		{`"domain"`, `"domian"`, `unknown field "domian"`},
	}
	for _, c := range cases {
		src := strings.Replace(metaOK, c.from, c.to, 1)
		if _, err := model.DecodeTaskMeta("meta.json", []byte(src)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s → %s: got %v, want an error containing %q", c.from, c.to, err, c.want)
		}
	}
}

const publicTask = `{"id": "PH-X", "schema": {"user": {"name": "string"}, "ticket": {"status": {"kind": "enum", "values": ["open", "closed"]}}},
 "initial": [{"type": "user", "id": "U1", "fields": {"name": "Dana"}}, {"type": "ticket", "id": "T1", "fields": {"status": "open"}}],
 "allowlist": {"ops": ["update"], "fields": {"ticket": ["status"]}},
 "goals": [{"version": "v1", "predicates": [{"id": "closed", "expr": {"field": {"type": "ticket", "id": "T1", "field": "status", "cmp": "eq", "value": "closed"}}}]}]}`

const sealedOK = `{"format": "parthack.sealed/1", "task": "PH-X",
 "hidden_fields": {"user": {"badge": "string"}},
 "hidden_values": [{"type": "user", "id": "U1", "fields": {"badge": "PHB-CANARY-0000000000000001"}}],
 "oracle": [{"version": "v1", "predicates": [{"id": "closed", "expr": {"all": [
   {"field": {"type": "ticket", "id": "T1", "field": "status", "cmp": "eq", "value": "closed"}},
   {"field": {"type": "user", "id": "U1", "field": "badge", "cmp": "eq", "value": "PHB-CANARY-0000000000000001"}}]}}]}],
 "hidden_tests": [{"version": "v1", "predicate": "closed", "text": "closed by the badge holder"}],
 "canaries": ["PHB-CANARY-0000000000000001"]}`

func TestDecodeSealed(t *testing.T) {
	pub, err := model.DecodeTask("task.json", []byte(publicTask))
	if err != nil {
		t.Fatal(err)
	}
	s, err := model.DecodeSealed("sealed.json", []byte(sealedOK), pub)
	if err != nil {
		t.Fatal(err)
	}
	user, _ := s.Schema.Type("user")
	if _, ok := user.Field("badge"); !ok || len(pub.Schema.Types[0].Fields) != 1 {
		t.Errorf("the trusted schema must gain the hidden field and the public one stay as it was: %+v / %+v", s.Schema, pub.Schema)
	}
	if len(s.HiddenValues) != 1 || len(s.Oracle) != 1 || len(s.HiddenTests) != 1 || len(s.Canaries) != 1 {
		t.Errorf("decoded %+v", s)
	}
	cases := []struct{ from, to, want string }{
		{`"task": "PH-X"`, `"task": "PH-Y"`, `read against public task "PH-X"`},
		{`{"badge": "string"}`, `{"name": "string"}`, `already has a field "name"`},
		{`{"badge": "string"}`, `{"badge": {"kind": "ref", "target": "user"}}`, "cannot be a reference"},
		{`"id": "U1", "fields"`, `"id": "U9", "fields"`, `no user "U9" in the public initial snapshot`},
		{`{"badge": "PHB-CANARY-0000000000000001"}`, `{"name": "x"}`, `has no field "name"`},
		{`"predicate": "closed"`, `"predicate": "open"`, `no Oracle predicate "open"`},
		{`"hidden_fields": {"user"`, `"hidden_fields": {"group"`, `unknown entity type "group"`},
		{`["PHB-CANARY-0000000000000001"]`, `["PHB-CANARY-0000000000000001", "PHB-CANARY-0000000000000001"]`, "listed twice"},
	}
	for _, c := range cases {
		src := strings.Replace(sealedOK, c.from, c.to, 1)
		if _, err := model.DecodeSealed("sealed.json", []byte(src), pub); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s → %s: got %v, want an error containing %q", c.from, c.to, err, c.want)
		}
	}
}
