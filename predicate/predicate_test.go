package predicate

import (
	"strings"
	"testing"

	"github.com/parthack/parthack/model"
)

// schema is one type, ticket (status, owner → user), and user (no fields).
type schema struct{}

func (schema) TypeIndex(name string) (int, bool) {
	switch name {
	case "ticket":
		return 0, true
	case "user":
		return 1, true
	}
	return 0, false
}

func (schema) FieldIndex(typ int, name string) (int, bool) {
	if typ != 0 {
		return 0, false
	}
	switch name {
	case "status":
		return 0, true
	case "owner":
		return 1, true
	}
	return 0, false
}

func (schema) RefTarget(typ, field int) (int, bool) { return 1, typ == 0 && field == 1 }

// view holds ticket T1 (alive, status "open", owner "U1") and a deleted
// user U1.
type view struct{ userAlive bool }

func (v view) Lookup(typ int, id string) (int32, bool) {
	switch {
	case typ == 0 && id == "T1":
		return 0, true
	case typ == 1 && id == "U1":
		return 1, true
	}
	return 0, false
}
func (v view) Alive(slot int32) bool { return slot == 0 || v.userAlive }
func (v view) Field(slot int32, f int) model.Value {
	return []model.Value{model.Str("open"), model.Str("U1")}[f]
}
func (v view) Count(int) int64 { return 0 }

func noCounts(*Expr) int { return 0 }

// TestCompileRefusesWhatBothEnginesRefused: the checks the environment's
// and the evaluators' copies each made alone now hold for both.
func TestCompileRefusesWhatBothEnginesRefused(t *testing.T) {
	for _, c := range []struct {
		x    model.Expr
		want string
	}{
		{model.Expr{Kind: model.ExprNot}, "not with 0 arguments"},
		{model.Expr{Kind: model.ExprAll}, "all with 0 arguments"},
		{model.Expr{Kind: model.ExprRef, Type: "ticket", ID: "T1", Field: "status"}, "is not a reference"},
		{model.Expr{Kind: model.ExprField, Type: "order", ID: "O1", Field: "status"}, "unknown entity type"},
		{model.Expr{Kind: model.ExprField, Type: "ticket", ID: "T1", Field: "title"}, "has no field"},
	} {
		if _, err := Compile(&c.x, schema{}, noCounts); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want an error with %q", c.x, err, c.want)
		}
	}
}

func TestEvalAndFootprint(t *testing.T) {
	ref, err := Compile(&model.Expr{Kind: model.ExprRef, Type: "ticket", ID: "T1", Field: "owner"}, schema{}, noCounts)
	if err != nil {
		t.Fatal(err)
	}
	if ref.Eval(view{userAlive: false}) || !ref.Eval(view{userAlive: true}) {
		t.Error("a reference holds exactly when its target is alive")
	}
	fp := ref.Footprint()
	if fp.Cells[Key{0, "T1"}] != Bit(AliveField)|Bit(1) || fp.ByType[1] != Bit(AliveField) {
		t.Errorf("footprint %+v", fp)
	}
}
