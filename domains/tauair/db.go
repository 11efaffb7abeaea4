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
	"bytes"
	"compress/gzip"
	"embed"
	"encoding/binary"
	"fmt"
	"slices"
	"strings"
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
	start     model.StateView
}

// Start is the database as loaded, read as a state.
func (d *DB) Start() model.StateView {
	d.startOnce.Do(func() { d.start = model.Entities(d.Entities) })
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
	gz, err := corpus.ReadFile("corpus/" + name)
	if err != nil {
		return nil, err
	}
	z, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	// The gzip trailer's last four bytes are the text's size (mod 2^32):
	// the buffer is made once, not grown.
	size := 0
	if len(gz) >= 4 {
		size = int(binary.LittleEndian.Uint32(gz[len(gz)-4:]))
	}
	buf := bytes.NewBuffer(make([]byte, 0, size+bytes.MinRead))
	if _, err := buf.ReadFrom(z); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return buf.Bytes(), nil
}

// readCollection reads one collection of the database: an object of
// records by id, each an object. Text the scanner does not read is
// parsed by model.ParseJSON for its located error.
func readCollection(name string) (*scanner, *record, error) {
	file := "db-" + name + ".json.gz"
	b, err := readGzip(file)
	if err != nil {
		return nil, nil, err
	}
	// Every canonical text is its value's bytes less white space: the
	// collection's never outgrow its text.
	s := &scanner{src: b, canon: make([]byte, 0, len(b))}
	if r, ok := s.document(); ok {
		return s, r, nil
	}
	j, err := model.ParseJSON(file, b)
	if err == nil {
		err = j.Errorf("expected an object of records by id, got %s", j.Kind())
	}
	return nil, nil, err
}

// records are a collection's records by id, ids sorted.
func (s *scanner) records(file string, all *record) ([]string, []*record, error) {
	order := make([]int, len(all.keys))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return strings.Compare(all.keys[a], all.keys[b]) })
	ids, recs := make([]string, len(order)), make([]*record, len(order))
	for i, o := range order {
		ids[i] = all.keys[o]
		if all.subs == nil || all.subs[o] == nil {
			return nil, nil, s.notRecord(file, ids[i])
		}
		recs[i] = all.subs[o]
	}
	return ids, recs, nil
}

// notRecord is the located error of a record that is no object.
func (s *scanner) notRecord(file, id string) error {
	j, err := model.ParseJSON(file, s.src)
	if err != nil {
		return err
	}
	v, _ := j.Member(id)
	return v.Errorf("expected a record (an object), got %s", v.Kind())
}

// str is a record's string for a key, "" when absent or no string.
func (s *scanner) str(r *record, key string) string {
	v, ok := r.get(key)
	if !ok {
		return ""
	}
	return s.strOf(v)
}

func load() (*DB, error) {
	// The three files are unpacked, read and made entities side by side,
	// each into a part of its own; the database is the parts in order,
	// the error the first part's.
	var users, reservations, flights DB
	parts := []struct {
		db   *DB
		name string
		read func(*DB, string, *scanner, *record) error
	}{{&users, "users", (*DB).readUsers}, {&reservations, "reservations", (*DB).readReservations}, {&flights, "flights", (*DB).readFlights}}
	errs := make([]error, len(parts))
	var wg sync.WaitGroup
	for i, p := range parts {
		p.db.byNumber, p.db.pms = map[string]int{}, map[string][]string{}
		wg.Go(func() {
			s, r, err := readCollection(p.name)
			if err == nil {
				err = p.read(p.db, "db-"+p.name+".json.gz", s, r)
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

// nested is a record's member that is itself a record of records (a
// user's payment methods, a flight's dates): its keys sorted, each
// member's record (empty where it is no object); none when the member is
// absent or no object.
func nested(r *record, key string) ([]string, []*record) {
	all := r.sub(key)
	if all == nil {
		return nil, nil
	}
	keys := slices.Sorted(slices.Values(all.keys))
	recs := make([]*record, len(keys))
	for i, k := range keys {
		if recs[i] = all.sub(k); recs[i] == nil {
			recs[i] = &record{}
		}
	}
	return keys, recs
}

// readUsers makes the users and their payment methods entities.
func (db *DB) readUsers(file string, s *scanner, users *record) error {
	ids, recs, err := s.records(file, users)
	if err != nil {
		return err
	}
	for i, id := range ids {
		u := recs[i]
		e, err := s.entityOf(TypeUser, id, u, nil, "payment_methods")
		if err != nil {
			return err
		}
		db.Entities = append(db.Entities, e)
		db.users = append(db.users, id)
		pms, pmRecs := nested(u, "payment_methods")
		for j, pm := range pms {
			e, err := s.entityOf(TypePaymentMethod, id+"/"+pm, pmRecs[j], []model.Assign{{Field: "user", Value: model.Str(id)}}, "")
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
func (db *DB) readReservations(file string, s *scanner, reservations *record) error {
	ids, recs, err := s.records(file, reservations)
	if err != nil {
		return err
	}
	for i, id := range ids {
		db.reservations = append(db.reservations, id)
		e, err := s.entityOf(TypeReservation, id, recs[i], nil, "")
		if err != nil {
			return err
		}
		db.Entities = append(db.Entities, e)
	}
	return nil
}

// readFlights makes the flights and their dates entities, and the
// flights' index.
func (db *DB) readFlights(file string, s *scanner, flights *record) error {
	ids, recs, err := s.records(file, flights)
	if err != nil {
		return err
	}
	for i, num := range ids {
		f := recs[i]
		e, err := s.entityOf(TypeFlight, num, f, nil, "dates")
		if err != nil {
			return err
		}
		db.Entities = append(db.Entities, e)
		fi := flightInfo{number: num, origin: s.str(f, "origin"), destination: s.str(f, "destination"),
			departure: s.str(f, "scheduled_departure_time_est"), arrival: s.str(f, "scheduled_arrival_time_est")}
		dates, dateRecs := nested(f, "dates")
		for j, d := range dates {
			e, err := s.entityOf(TypeFlightDate, num+"/"+d, dateRecs[j], []model.Assign{{Field: "date", Value: model.Str(d)}, {Field: "flight", Value: model.Str(num)}}, "")
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
// but the one dropped, with the strings of extra set (the keys its place
// in the database gives it: a payment method's user), fields in the
// order of their names.
func (s *scanner) entityOf(typ, id string, rec *record, extra []model.Assign, drop string) (model.Entity, error) {
	et, _ := schema.Type(typ)
	e := model.Entity{Type: typ, ID: id}
	over := func(k string) bool {
		return k == drop || slices.ContainsFunc(extra, func(a model.Assign) bool { return a.Field == k })
	}
	n := len(extra)
	for _, k := range rec.keys {
		if !over(k) {
			n++
		}
	}
	if n == 0 {
		return e, nil
	}
	e.Fields = make([]model.Assign, 0, n)
	for i, k := range rec.keys {
		if over(k) {
			continue
		}
		v, err := s.value(rec.vals[i])
		if err != nil {
			return e, fmt.Errorf("tau-airline database: %s %s: %w", typ, id, err)
		}
		e.Fields = append(e.Fields, model.Assign{Field: k, Value: v})
	}
	if !slices.IsSortedFunc(e.Fields, byField) {
		slices.SortFunc(e.Fields, byField)
	}
	for _, a := range extra { // each into its place: the slice has room
		i, _ := slices.BinarySearchFunc(e.Fields, a, byField)
		e.Fields = slices.Insert(e.Fields, i, a)
	}
	for _, a := range e.Fields {
		fd, ok := et.Field(a.Field)
		if !ok {
			return e, fmt.Errorf("tau-airline database: %s %s: key %q has no field in the schema", typ, id, a.Field)
		}
		if msg := model.CheckValue(fd, a.Value); msg != "" {
			return e, fmt.Errorf("tau-airline database: %s %s: %s", typ, id, msg)
		}
	}
	return e, nil
}

func byField(a, b model.Assign) int { return strings.Compare(a.Field, b.Field) }

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
