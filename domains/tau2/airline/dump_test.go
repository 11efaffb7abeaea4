package airline

import (
	"bytes"
	"testing"

	"github.com/parthack/parthack/domains/tau2"
)

// TestHashTextsAreTheDumps holds each initial record's hash text, its
// nested values written straight from their JSON (dumped), to
// json.dumps(sort_keys=True) of the record read into Python values (py).
func TestHashTextsAreTheDumps(t *testing.T) {
	db, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	v := db.Start()
	check := func(what string, fast, slow tau2.Obj) {
		t.Helper()
		if got, want := tau2.AppendDumps(nil, fast, true), tau2.AppendDumps(nil, slow, true); !bytes.Equal(got, want) {
			t.Fatalf("%s: hash text\n%s\nwant\n%s", what, got, want)
		}
	}
	for _, id := range db.resIDs {
		check(id, reservationDump(v, id, dumped), reservationDump(v, id, py))
		if got, want := appendReservationText(nil, v, id), tau2.AppendDumps(nil, reservationDump(v, id, py), true); !bytes.Equal(got, want) {
			t.Fatalf("%s: appendReservationText\n%s\nwant\n%s", id, got, want)
		}
	}
	for _, id := range db.users {
		check(id, db.userDump(v, id, dumped), db.userDump(v, id, py))
		if got, want := db.appendUserText(nil, v, id), tau2.AppendDumps(nil, db.userDump(v, id, py), true); !bytes.Equal(got, want) {
			t.Fatalf("%s: appendUserText\n%s\nwant\n%s", id, got, want)
		}
	}
	for i := range db.flights {
		fi := &db.flights[i]
		check(fi.number, db.flightDump(v, fi, dumped), db.flightDump(v, fi, py))
		if got, want := appendFlightText(nil, v, fi), tau2.AppendDumps(nil, db.flightDump(v, fi, py), true); !bytes.Equal(got, want) {
			t.Fatalf("%s: appendFlightText\n%s\nwant\n%s", fi.number, got, want)
		}
	}
}
