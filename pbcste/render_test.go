package pbcste_test

import (
	"github.com/parthack/parthack/internal/fixture"
	"testing"

	"github.com/parthack/parthack/model"
)

// TestAppendRecordIsCanonical holds the hand-written encoder to the
// reflective one on every kind of event: ok, failed, empty diff, lists,
// nulls, several fields out of order.
func TestAppendRecordIsCanonical(t *testing.T) {
	env := fixture.ExampleEnv(t)
	steps := append(fixture.Churn(40),
		model.Step{Action: model.Action{Op: model.OpUpdate, Type: "ticket", ID: "T1", Fields: []model.Assign{
			{Field: "tags", Value: model.List([]string{"a\"b", "<x>"})}, {Field: "assignee", Value: model.Str("U2")}}}},
		model.Step{Action: model.Action{Op: model.OpUpdate, Type: "ticket", ID: "T1", Fields: []model.Assign{{Field: "assignee", Value: model.Str("U2")}}}},
		model.Step{Action: model.Action{Op: model.OpDelete, Type: "ticket", ID: "T2"}},
		model.Step{Action: model.Action{Op: model.OpCreate, Type: "ticket", ID: "T2", Fields: []model.Assign{{Field: "title", Value: model.Str("again")}}}},
		model.Step{Action: model.Action{Op: model.OpCreate, Type: "ticket", ID: "T3", Fields: []model.Assign{{Field: "priority", Value: model.Int(-4)}}}},
	)
	log := env.Replay(steps)
	for i := range log.Events {
		want, err := model.Canonical(log.Record(i))
		if err != nil {
			t.Fatal(err)
		}
		if got := log.AppendRecord(nil, i); string(got) != string(want) {
			t.Fatalf("event %d:\n got %s\nwant %s", i+1, got, want)
		}
	}
}
