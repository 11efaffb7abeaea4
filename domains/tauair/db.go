// Package tauair is tau-bench's airline world as a PB-CSTE domain
// (github.com/sierra-research/tau-bench, MIT, commit 59a200c): its
// database as typed entities, its 14 tools as the agent's actions, its
// data hash, its 50 test tasks as PB-CSTE tasks and its run format. The
// tools are a port of tau-bench's Python, read from its source; the
// corpus in corpus/ (tau-bench's database, gold runs and 200 GPT-4o runs,
// with every call's exact change) is the conformance test.
//
// This package holds the gold runs, so it is private: evaluators never
// import it.
package tauair

import (
	"compress/gzip"
	"embed"
	"fmt"
	"io"
	"slices"
	"sync"

	"github.com/parthack/parthack/model"
)

//go:embed corpus
var corpus embed.FS

// DomainName is the domain's id in task files, ledgers and the CLI.
const DomainName = "tau-airline"

// Entity types and how they sit in tau-bench's database.
const (
	TypeUser          = "user"           // /users/{id}
	TypePaymentMethod = "payment_method" // /users/{user}/payment_methods/{pm}, id "{user}/{pm}"
	TypeReservation   = "reservation"    // /reservations/{id}
	TypeFlight        = "flight"         // /flights/{number}, without its dates
	TypeFlightDate    = "flight_date"    // /flights/{number}/dates/{date}, id "{number}/{date}"
)

func str(name string) model.FieldDef   { return model.FieldDef{Name: name, Kind: model.KindString} }
func jsonf(name string) model.FieldDef { return model.FieldDef{Name: name, Kind: model.KindJSON} }

// schema is the airline database as typed entities. Each field is one key
// of tau-bench's record; a null field is an absent key. Nested records a
// tool writes as a whole (a reservation's flights, passengers and payment
// history) are json fields; payment methods and flight dates, which
// tools address by key, are entities of their own.
var schema = model.Schema{Types: []model.EntityType{
	{Name: TypeUser, Fields: []model.FieldDef{jsonf("name"), jsonf("address"), str("email"), str("dob"),
		{Name: "membership", Kind: model.KindEnum, Values: []string{"regular", "silver", "gold"}},
		jsonf("saved_passengers"), {Name: "reservations", Kind: model.KindStrings}}},
	{Name: TypePaymentMethod, Fields: []model.FieldDef{{Name: "user", Kind: model.KindRef, Target: TypeUser}, str("id"),
		{Name: "source", Kind: model.KindEnum, Values: []string{"credit_card", "gift_card", "certificate"}},
		str("brand"), str("last_four"), jsonf("amount")}},
	{Name: TypeReservation, Fields: []model.FieldDef{str("reservation_id"), str("user_id"), str("origin"), str("destination"),
		str("flight_type"), str("cabin"), jsonf("flights"), jsonf("passengers"), jsonf("payment_history"), str("created_at"),
		{Name: "total_baggages", Kind: model.KindInt}, {Name: "nonfree_baggages", Kind: model.KindInt}, str("insurance"), str("status")}},
	{Name: TypeFlight, Fields: []model.FieldDef{str("flight_number"), str("origin"), str("destination"),
		str("scheduled_departure_time_est"), str("scheduled_arrival_time_est")}},
	{Name: TypeFlightDate, Fields: []model.FieldDef{str("flight"), str("date"), str("status"), jsonf("available_seats"), jsonf("prices"),
		str("actual_departure_time_est"), str("actual_arrival_time_est"), str("estimated_departure_time_est"), str("estimated_arrival_time_est")}},
}}

// DB is the airline database as loaded: its entities in a fixed order and
// the indexes the tools use for what no tool changes (flights).
type DB struct {
	Entities     []model.Entity
	users        []string
	pms          map[string][]string // a user's initial payment method ids
	reservations []string
	flights      []flightInfo // by flight number
	byNumber     map[string]int

	startOnce sync.Once
	start     *initialView
}

// Start is the database as loaded, read as a state.
func (d *DB) Start() model.StateView {
	d.startOnce.Do(func() {
		d.start = &initialView{byKey: map[[2]string]*model.Entity{}}
		for i := range d.Entities {
			e := &d.Entities[i]
			d.start.byKey[[2]string{e.Type, e.ID}] = e
		}
	})
	return d.start
}

// flightInfo is what search reads of a flight: none of it ever changes.
type flightInfo struct {
	number, origin, destination, departure, arrival string
	dates                                           []string
}

var loadOnce = sync.OnceValues(load)

// Load decodes the embedded database once; callers must not change it.
func Load() (*DB, error) { return loadOnce() }

func readGzip(name string) ([]byte, error) {
	f, err := corpus.Open("corpus/" + name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	b, err := io.ReadAll(z)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return b, nil
}

// readCollection parses one collection of the database strictly: an
// object of records by id, each an object.
func readCollection(name string) (model.JSON, error) {
	b, err := readGzip("db-" + name + ".json.gz")
	if err != nil {
		return model.JSON{}, err
	}
	j, err := model.ParseJSON("db-"+name+".json.gz", b)
	if err != nil {
		return model.JSON{}, err
	}
	if j.Kind() != "object" {
		return model.JSON{}, j.Errorf("expected an object of records by id, got %s", j.Kind())
	}
	return j, nil
}

// record is one record of a collection, read from its tree.
type record struct {
	keys []string
	vals []model.JSON
}

// records are a collection's records by id, ids sorted.
func records(j model.JSON) ([]string, map[string]record, error) {
	ids, vals, _ := j.Entries()
	out := make(map[string]record, len(ids))
	for i, id := range ids {
		r, err := recordOf(vals[i])
		if err != nil {
			return nil, nil, err
		}
		out[id] = r
	}
	slices.Sort(ids)
	return ids, out, nil
}

func recordOf(j model.JSON) (record, error) {
	if j.Kind() != "object" {
		return record{}, j.Errorf("expected a record (an object), got %s", j.Kind())
	}
	keys, vals, _ := j.Entries()
	return record{keys, vals}, nil
}

// get is a record's value for a key.
func (r record) get(key string) (model.JSON, bool) {
	for i, k := range r.keys {
		if k == key {
			return r.vals[i], true
		}
	}
	return model.JSON{}, false
}

// str is a record's string for a key, "" when absent or no string.
func (r record) str(key string) string {
	v, ok := r.get(key)
	if !ok {
		return ""
	}
	s, _ := v.Str()
	return s
}

func load() (*DB, error) {
	// The three files are unpacked, parsed and made entities side by
	// side, each into a part of its own; the database is the parts in
	// order, the error the first part's.
	var users, reservations, flights DB
	parts := []struct {
		db   *DB
		name string
		read func(*DB, model.JSON) error
	}{{&users, "users", (*DB).readUsers}, {&reservations, "reservations", (*DB).readReservations}, {&flights, "flights", (*DB).readFlights}}
	errs := make([]error, len(parts))
	var wg sync.WaitGroup
	for i, p := range parts {
		p.db.byNumber, p.db.pms = map[string]int{}, map[string][]string{}
		wg.Go(func() {
			j, err := readCollection(p.name)
			if err == nil {
				err = p.read(p.db, j)
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	db := &DB{Entities: slices.Concat(users.Entities, reservations.Entities, flights.Entities),
		users: users.users, pms: users.pms, reservations: reservations.reservations, flights: flights.flights, byNumber: flights.byNumber}
	return db, nil
}

// readUsers makes the users and their payment methods entities.
func (db *DB) readUsers(users model.JSON) error {
	ids, byID, err := records(users)
	if err != nil {
		return err
	}
	for _, id := range ids {
		u := byID[id]
		e, err := entityOf(TypeUser, id, u, nil, "payment_methods")
		if err != nil {
			return err
		}
		db.Entities = append(db.Entities, e)
		db.users = append(db.users, id)
		pms := record{}
		if v, ok := u.get("payment_methods"); ok && v.Kind() == "object" {
			pms, _ = recordOf(v)
		}
		for _, pm := range slices.Sorted(slices.Values(pms.keys)) {
			rec, _ := pms.get(pm)
			r := record{}
			if rec.Kind() == "object" {
				r, _ = recordOf(rec)
			}
			e, err := entityOf(TypePaymentMethod, id+"/"+pm, r, map[string]string{"user": id})
			if err != nil {
				return err
			}
			db.Entities = append(db.Entities, e)
			db.pms[id] = append(db.pms[id], pm)
		}
	}
	return nil
}

// readReservations makes the reservations entities.
func (db *DB) readReservations(reservations model.JSON) error {
	ids, byID, err := records(reservations)
	if err != nil {
		return err
	}
	for _, id := range ids {
		db.reservations = append(db.reservations, id)
		e, err := entityOf(TypeReservation, id, byID[id], nil)
		if err != nil {
			return err
		}
		db.Entities = append(db.Entities, e)
	}
	return nil
}

// readFlights makes the flights and their dates entities, and the
// flights' index.
func (db *DB) readFlights(flights model.JSON) error {
	ids, byID, err := records(flights)
	if err != nil {
		return err
	}
	for _, num := range ids {
		f := byID[num]
		e, err := entityOf(TypeFlight, num, f, nil, "dates")
		if err != nil {
			return err
		}
		db.Entities = append(db.Entities, e)
		fi := flightInfo{number: num, origin: f.str("origin"), destination: f.str("destination"),
			departure: f.str("scheduled_departure_time_est"), arrival: f.str("scheduled_arrival_time_est")}
		dates := record{}
		if v, ok := f.get("dates"); ok && v.Kind() == "object" {
			dates, _ = recordOf(v)
		}
		for _, d := range slices.Sorted(slices.Values(dates.keys)) {
			rec, _ := dates.get(d)
			r := record{}
			if rec.Kind() == "object" {
				r, _ = recordOf(rec)
			}
			e, err := entityOf(TypeFlightDate, num+"/"+d, r, map[string]string{"flight": num, "date": d})
			if err != nil {
				return err
			}
			db.Entities = append(db.Entities, e)
			fi.dates = append(fi.dates, d)
		}
		db.byNumber[num] = len(db.flights)
		db.flights = append(db.flights, fi)
	}
	return nil
}

// entityOf maps one record to an entity of typ, every key to its field
// but those dropped, with the strings of extra set (the keys its place
// in the database gives it: a payment method's user).
func entityOf(typ, id string, rec record, extra map[string]string, drop ...string) (model.Entity, error) {
	et, _ := schema.Type(typ)
	e := model.Entity{Type: typ, ID: id}
	keys := make([]string, 0, len(rec.keys)+len(extra))
	for _, k := range rec.keys {
		if _, over := extra[k]; !over && !slices.Contains(drop, k) {
			keys = append(keys, k)
		}
	}
	for k := range extra {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if len(keys) > 0 {
		e.Fields = make([]model.Assign, 0, len(keys))
	}
	for _, k := range keys {
		fd, ok := et.Field(k)
		if !ok {
			return e, fmt.Errorf("tau-airline database: %s %s: key %q has no field in the schema", typ, id, k)
		}
		var v model.Value
		if s, ok := extra[k]; ok {
			v = model.Str(s)
		} else {
			x, _ := rec.get(k)
			var err error
			if v, err = x.Value(); err != nil {
				return e, fmt.Errorf("tau-airline database: %s %s: %w", typ, id, err)
			}
		}
		if msg := model.CheckValue(fd, v); msg != "" {
			return e, fmt.Errorf("tau-airline database: %s %s: %s", typ, id, msg)
		}
		e.Fields = append(e.Fields, model.Assign{Field: k, Value: v})
	}
	return e, nil
}

// maps copies a record without the given keys.
func maps(m map[string]any, drop ...string) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		if !slices.Contains(drop, k) {
			out[k] = v
		}
	}
	return out
}

// fieldValue is a record's value as a field of fd's kind.
func fieldValue(fd *model.FieldDef, x any) (model.Value, error) {
	v := valueOf(x) // a list of strings maps to a strings value already
	if msg := model.CheckValue(fd, v); msg != "" {
		return model.Null, fmt.Errorf("%s", msg)
	}
	return v, nil
}
