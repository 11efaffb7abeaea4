package tauair

import (
	"reflect"
	"slices"
	"testing"

	"github.com/parthack/parthack/model"
)

// strictEntities are a collection's entities read through model's strict
// tree, every value by JSON.Value: what the scanner must read.
func strictEntities(t *testing.T, name string) []model.Entity {
	t.Helper()
	b, err := readGzip("db-" + name + ".json.gz")
	if err != nil {
		t.Fatal(err)
	}
	j, err := model.ParseJSON(name, b)
	if err != nil {
		t.Fatal(err)
	}
	var out []model.Entity
	entity := func(typ, id string, rec model.JSON, extra map[string]string, drop string) {
		keys, vals, err := rec.Entries()
		if err != nil {
			t.Fatal(err)
		}
		e := model.Entity{Type: typ, ID: id}
		for i, k := range keys {
			if k == drop {
				continue
			}
			v, err := vals[i].Value()
			if err != nil {
				t.Fatal(err)
			}
			e.Fields = append(e.Fields, model.Assign{Field: k, Value: v})
		}
		for k, v := range extra {
			e.Fields = append(e.Fields, model.Assign{Field: k, Value: model.Str(v)})
		}
		slices.SortFunc(e.Fields, func(a, b model.Assign) int {
			if a.Field < b.Field {
				return -1
			}
			return 1
		})
		out = append(out, e)
	}
	sorted := func(j model.JSON) ([]string, map[string]model.JSON) {
		keys, vals, err := j.Entries()
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]model.JSON{}
		for i, k := range keys {
			m[k] = vals[i]
		}
		slices.Sort(keys)
		return keys, m
	}
	ids, recs := sorted(j)
	for _, id := range ids {
		switch name {
		case "users":
			entity(TypeUser, id, recs[id], nil, "payment_methods")
			pm, _ := recs[id].Member("payment_methods")
			keys, pms := sorted(pm)
			for _, k := range keys {
				entity(TypePaymentMethod, id+"/"+k, pms[k], map[string]string{"user": id}, "")
			}
		case "reservations":
			entity(TypeReservation, id, recs[id], nil, "")
		case "flights":
			entity(TypeFlight, id, recs[id], nil, "dates")
			d, _ := recs[id].Member("dates")
			keys, dates := sorted(d)
			for _, k := range keys {
				entity(TypeFlightDate, id+"/"+k, dates[k], map[string]string{"flight": id, "date": k}, "")
			}
		}
	}
	return out
}

// TestScannerReadsWhatTheTreeReads holds the database as the scanner
// reads it to the database read through model's strict tree, entity by
// entity, value by value.
func TestScannerReadsWhatTheTreeReads(t *testing.T) {
	db, err := load()
	if err != nil {
		t.Fatal(err)
	}
	var want []model.Entity
	for _, name := range []string{"users", "reservations", "flights"} {
		want = append(want, strictEntities(t, name)...)
	}
	if len(db.Entities) != len(want) {
		t.Fatalf("%d entities, want %d", len(db.Entities), len(want))
	}
	for i := range want {
		if !reflect.DeepEqual(db.Entities[i], want[i]) {
			t.Fatalf("entity %d:\n got %v\nwant %v", i, db.Entities[i], want[i])
		}
	}
}

// scanned is a value as the scanner reads it from a document that holds
// it as a record's member; ok false where the scanner does not read the
// document.
func scanned(text string) (v model.Value, ok bool, err error) {
	s := &scanner{src: []byte(`{"k": ` + text + `}`)}
	s.canon = make([]byte, 0, len(s.src))
	rec, ok := s.document()
	if !ok {
		return model.Null, false, nil
	}
	x, _ := rec.get("k")
	v, err = s.value(x)
	return v, true, err
}

// TestScannerValues holds the scanner's value of each text to
// model.FromJSON's, and its refusals to FromJSON's errors.
func TestScannerValues(t *testing.T) {
	for _, text := range []string{
		`"plain"`, `""`, `"caf\u00e9"`, `"café"`, `"tab\there"`, `"del` + "\x7f" + `"`, `"\ud800"`, `"\ud83d\ude00"`,
		`0`, `-0`, `12`, `-12`, `123456789012345678`, `1234567890123456789`, `99999999999999999999`, `1.5`, `2e3`, `1E+2`, `-0.0`,
		`true`, `false`, `null`,
		`[]`, `["a", "b"]`, `["a", 1]`, `[ "a" , "b" ]`, `[["a"]]`, `[{"b": 1, "a": 2}]`, `[1.0]`,
		`{}`, `{"a": 1, "b": [2, 3]}`, `{"b": 1, "a": 2}`, `{"a": {"y": 1, "x": 2}}`, `{"a": 1, "a": 2}`,
		`{"a": "x\"y"}`, `{"a\u0062": 1}`, `{"a": -0}`, `{"a": 12345678901234567890}`, `{"a": 1e400}`, `{"é": 1}`,
		` { "a" : [ 1 , { "b" : null , "c" : true } ] } `, `{"a": {}, "b": []}`,
		`01`, `1.`, `.5`, `-`, `"a`, `{"a" 1}`, `[1,]`, `{"a": 1,}`, `tru`, `nul`, `"\x"`, "\"a\x01\"", "\"\xff\"",
	} {
		t.Run(text, func(t *testing.T) {
			want, werr := model.FromJSON([]byte(text))
			got, ok, err := scanned(text)
			switch {
			case !ok:
				if werr == nil {
					t.Fatalf("the scanner refuses %s; FromJSON reads %v", text, want)
				}
			case werr != nil:
				if err == nil {
					t.Fatalf("the scanner reads %v; FromJSON refuses it: %v", got, werr)
				}
			case err != nil:
				t.Fatalf("the scanner refuses it (%v); FromJSON reads %v", err, want)
			case !reflect.DeepEqual(got, want):
				t.Fatalf("got %v (kind %d), want %v (kind %d)", got, got.Kind(), want, want.Kind())
			}
		})
	}
}
