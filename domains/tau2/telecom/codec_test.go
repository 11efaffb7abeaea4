package telecom

import (
	"reflect"
	"testing"

	"github.com/parthack/parthack/domains/tau2"
	"github.com/parthack/parthack/model"
)

// TestValuesAsDumped holds each field value of every record of both
// shipped databases, as the entity field valueOf writes (straight as
// canonical JSON where it is no plain value), to model.FromJSON of the
// field's json.dumps: the value a field read back would be.
func TestValuesAsDumped(t *testing.T) {
	db, err := Shipped()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	db.start.each(func(k *kind, id string, rec reflect.Value) {
		if !rec.IsValid() {
			return
		}
		for j, i := range k.fields {
			f := rec.Field(i)
			want := model.MustJSON(tau2.Dumps(pyOf(f), false))
			if got := valueOf(f); !reflect.DeepEqual(got, want) {
				t.Errorf("%s %s %s: %v, its dumps read back %v", k.name, id, k.def.Fields[j].Name, got, want)
			}
			n++
		}
	})
	if n < 100 {
		t.Errorf("only %d fields read", n)
	}
}
