package airline

import (
	"strings"
	"testing"

	"github.com/parthack/parthack/domains/tau2"
	"github.com/parthack/parthack/model"
)

// readRecords are the records a read-only call's result shows: the
// entity keys it reads whole.
func readRecords(tool string, args tau2.Obj, result string) [][2]string {
	switch tool {
	case "get_user_details":
		return [][2]string{{TypeUser, args.Str("user_id")}}
	case "get_reservation_details":
		return [][2]string{{TypeReservation, args.Str("reservation_id")}}
	case "get_flight_status":
		return [][2]string{{TypeFlightDate, args.Str("flight_number") + "/" + args.Str("date")}}
	case "search_direct_flight", "search_onestop_flight":
		x, err := tau2.ParsePy([]byte(result))
		if err != nil {
			return nil
		}
		var out [][2]string
		var walk func(any)
		walk = func(x any) {
			switch v := x.(type) {
			case []any:
				for _, it := range v {
					walk(it)
				}
			case tau2.Obj:
				date := v.Str("date")
				if date == "" {
					date = args.Str("date") // search_direct_flight leaves a flight's date None
				}
				out = append(out, [2]string{TypeFlightDate, v.Str("flight_number") + "/" + date})
			}
		}
		walk(x)
		return out
	}
	return nil
}

// TestRecordsConfirmed replays, on the initial database, every read-only
// call of the shipped airline runs made before the run's first write
// that succeeded (tau2's state then is its initial database) and holds
// its result to the recorded one; it counts the records so read: each
// is confirmed, and those data/revisions.json revises are confirmed only
// with their revision. Records no run reads that way cannot be confirmed.
func TestRecordsConfirmed(t *testing.T) {
	db, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	d := NewDomain(db)
	revs, err := Revisions()
	if err != nil {
		t.Fatal(err)
	}
	revised := map[[2]string]bool{}
	for _, r := range revs {
		revised[[2]string{r.Type, r.ID}] = true
	}
	read := map[[2]string]bool{} // record → every read of it agreed
	calls := 0
	for _, r := range shippedRuns(t) {
		for _, sim := range r.Simulations {
			results, err := tau2.Recorded(r, sim)
			if err != nil {
				t.Fatal(err)
			}
			i := 0
		run:
			for _, m := range sim.Messages {
				for _, tc := range m.ToolCalls {
					want := results[i]
					i++
					if Writes(tc.Name) {
						if !strings.HasPrefix(want, "Error: ") {
							break run
						}
						continue
					}
					args := model.MustJSON(string(tc.Arguments))
					_, got, _ := d.Call(db.Start(), tc.Name, args)
					recs := readRecords(tc.Name, tau2.ArgsOf(args), want)
					if recs == nil || strings.HasPrefix(want, "Error: ") {
						continue
					}
					calls++
					for _, k := range recs {
						ok, seen := read[k]
						read[k] = (ok || !seen) && got == want
					}
					if got != want {
						t.Errorf("%s: simulation %d: %s(%s) before any write: port %.200q, tau2 %.200q", r.File, sim.Index, tc.Name, tc.Arguments, got, want)
					}
				}
			}
		}
	}
	inDB := map[string]int{}
	for _, e := range db.Entities {
		inDB[e.Type]++
	}
	type figures struct{ read, confirmed, revised int }
	byType := map[string]*figures{TypeUser: {}, TypeReservation: {}, TypeFlightDate: {}}
	for k, ok := range read {
		f := byType[k[0]]
		f.read++
		switch {
		case ok && revised[k]:
			f.revised++
		case ok:
			f.confirmed++
		}
	}
	want := map[string]figures{TypeUser: {33, 33, 0}, TypeReservation: {114, 113, 1}, TypeFlightDate: {405, 404, 1}}
	for _, typ := range []string{TypeUser, TypeReservation, TypeFlightDate} {
		f := byType[typ]
		if *f != want[typ] {
			t.Errorf("%s: %+v, want %+v", typ, *f, want[typ])
		}
		t.Logf("%s: %d in the database, %d read before a write, %d confirmed as tau-bench's (in tau2's shape), %d confirmed with a revision, %d unconfirmable",
			typ, inDB[typ], f.read, f.confirmed, f.revised, inDB[typ]-f.read)
	}
	if calls != 1098 {
		t.Errorf("%d read-only calls before a write, want 1098", calls)
	}
	for k := range revised {
		if !read[k] {
			t.Errorf("revision of %s %s: no run reads it before a write, or a read disagrees", k[0], k[1])
		}
	}
}
