package tauair

import (
	"fmt"
	"testing"

	"github.com/parthack/parthack/certifier"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
)

// padded is the database with k copies of every user, payment method
// and reservation under new ids: the same world, k+1 times the records.
func padded(db *DB, k int) *DB {
	out := &DB{users: db.users, pms: db.pms, reservations: db.reservations, flights: db.flights, byNumber: db.byNumber}
	out.Entities = append([]model.Entity(nil), db.Entities...)
	for c := 1; c <= k; c++ {
		for _, e := range db.Entities {
			if e.Type == TypeFlight || e.Type == TypeFlightDate {
				continue
			}
			e.ID = fmt.Sprintf("%s~%d", e.ID, c)
			out.Entities = append(out.Entities, e)
		}
	}
	return out
}

// spreadCalls are n writing calls spread over every reservation of the
// database: each renames a reservation's first passenger, then names them
// back, so every call changes the state and none fails.
func spreadCalls(db *DB, n int) []model.Step {
	start := db.Start()
	var steps []model.Step
	for i := 0; len(steps) < n; i++ {
		r := db.reservations[(i*7919)%len(db.reservations)]
		ps, _ := jsonOf(field(start, TypeReservation, r, "passengers")).([]any)
		if len(ps) == 0 {
			continue
		}
		renamed := append([]any(nil), ps...)
		first, _ := ps[0].(map[string]any)
		m := maps(first)
		m["first_name"] = "Renamed"
		renamed[0] = m
		for _, list := range [][]any{renamed, ps} {
			args := valueOf(map[string]any{"reservation_id": r, "passengers": list})
			steps = append(steps, model.Step{Index: len(steps), Action: model.Action{Op: model.OpCall, Tool: "update_reservation_passengers", Args: args}})
		}
	}
	return steps[:n]
}

// BenchmarkReplayCalls: replay and double certification of 2,000 writing
// calls spread over the database, on the database as it is (13,000
// records, 5 MB of JSON) and padded with nine copies of its users, payment methods and reservations (about 4 times the records). The cost per
// call does not grow with the database.
func BenchmarkReplayCalls(b *testing.B) {
	db, err := Load()
	if err != nil {
		b.Fatal(err)
	}
	for _, k := range []int{0, 9} {
		pdb := padded(db, k)
		task := BaseTask(pdb)
		task.Domain = NewDomain(pdb)
		steps := spreadCalls(db, 2000)
		env, err := pbcste.Compile(task)
		if err != nil {
			b.Fatal(err)
		}
		tr := &model.Trajectory{Task: task.ID, Steps: steps}
		b.Run(fmt.Sprintf("records=%d", len(pdb.Entities)), func(b *testing.B) {
			for b.Loop() {
				res, rej, err := certifier.DoubleCertify(env, tr)
				if err != nil || rej != nil {
					b.Fatal(err, rej)
				}
				if res.Log.Steps != len(steps) {
					b.Fatal("short replay")
				}
			}
			b.ReportMetric(float64(b.N*len(steps))/b.Elapsed().Seconds(), "calls/s")
			b.ReportMetric(b.Elapsed().Seconds()*1e6/float64(b.N*len(steps)), "µs/call")
		})
	}
}

// BenchmarkLoad is the database's load: its three files unpacked, read
// and made entities (13,286), as a command that needs the database pays
// it once.
func BenchmarkLoad(b *testing.B) {
	for b.Loop() {
		if _, err := load(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkInitialReprs is the Python text of every initial record, which
// the first data hash of a process writes once (a command that attacks or
// scores one task pays it whole).
func BenchmarkInitialReprs(b *testing.B) {
	_, d := baseWorld(b)
	for b.Loop() {
		d.initialReprs()
	}
}
