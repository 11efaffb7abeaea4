package model

import "testing"

// TestEntitiesView reads a snapshot as a state: a deleted or absent
// entity is not alive and has no field; an alive one's field it does not
// list reads as null.
func TestEntitiesView(t *testing.T) {
	v := Entities([]Entity{
		{Type: "user", ID: "u1", Fields: []Assign{{Field: "name", Value: Str("Ana")}}},
		{Type: "user", ID: "u2", Deleted: true, Fields: []Assign{{Field: "name", Value: Str("Bo")}}},
	})
	cases := []struct {
		typ, id, field string
		alive, ok      bool
		want           Value
	}{
		{"user", "u1", "name", true, true, Str("Ana")},
		{"user", "u1", "email", true, true, Null},
		{"user", "u2", "name", false, false, Null},
		{"user", "u3", "name", false, false, Null},
		{"order", "u1", "name", false, false, Null},
	}
	for _, c := range cases {
		if got := v.Alive(c.typ, c.id); got != c.alive {
			t.Errorf("Alive(%s, %s) = %v, want %v", c.typ, c.id, got, c.alive)
		}
		got, ok := v.Field(c.typ, c.id, c.field)
		if ok != c.ok || !got.Equal(c.want) {
			t.Errorf("Field(%s, %s, %s) = %v, %v; want %v, %v", c.typ, c.id, c.field, got, ok, c.want, c.ok)
		}
	}
}
