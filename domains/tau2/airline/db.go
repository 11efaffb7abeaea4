// Package airline is tau2-bench's airline domain as a parthack World
// (github.com/sierra-research/tau2-bench, MIT, tools as at commit
// a2c0247): its database as typed entities, its 14 tools ported one by
// one (names, argument checks, error texts, the tool message as tau2
// writes it), tau2's DB hash of a state, and the moves a search attacker
// may insert into a run.
//
// tau2's airline db.json is not shipped with parthack. It is tau-bench's
// airline data (domains/tauair's corpus) in tau2's shape: users carry
// their user_id, payment methods keep tau-bench's order
// (data/payment-order.txt, for the users whose order is not sorted), and
// data/revisions.json holds the records the shipped runs prove tau2
// revised, each with its evidence.
package airline

import (
	"bufio"
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/parthack/parthack/domains/tau2"
	"github.com/parthack/parthack/domains/tauair"
	"github.com/parthack/parthack/model"
)

// DomainName is the domain's id in task files, ledgers and the CLI.
const DomainName = "tau2-airline"

// Entity types and where they sit in tau2's FlightDB.
const (
	TypeUser          = "user"           // users[id]
	TypePaymentMethod = "payment_method" // users[user].payment_methods[pm], id "{user}/{pm}"
	TypeReservation   = "reservation"    // reservations[id]
	TypeFlight        = "flight"         // flights[number], without its dates
	TypeFlightDate    = "flight_date"    // flights[number].dates[date], id "{number}/{date}"
)

func str(name string) model.FieldDef   { return model.FieldDef{Name: name, Kind: model.KindString} }
func jsonf(name string) model.FieldDef { return model.FieldDef{Name: name, Kind: model.KindJSON} }
func intf(name string) model.FieldDef  { return model.FieldDef{Name: name, Kind: model.KindInt} }

// schema is FlightDB as typed entities. Nested records a tool writes as
// a whole (a reservation's flights, passengers and payment history; a
// flight date's seats and prices) are json fields; payment methods and
// flight dates, which tools address by key, are entities of their own.
// A payment method's position is its place in the user's
// payment_methods dict, which orders get_user_details' text.
var schema = model.Schema{Types: []model.EntityType{
	{Name: TypeUser, Fields: []model.FieldDef{str("user_id"), jsonf("name"), jsonf("address"), str("email"), str("dob"),
		jsonf("saved_passengers"), {Name: "membership", Kind: model.KindEnum, Values: []string{"gold", "silver", "regular"}},
		{Name: "reservations", Kind: model.KindStrings}}},
	{Name: TypePaymentMethod, Fields: []model.FieldDef{{Name: "user", Kind: model.KindRef, Target: TypeUser}, str("id"),
		{Name: "source", Kind: model.KindEnum, Values: []string{"credit_card", "gift_card", "certificate"}},
		str("brand"), str("last_four"), jsonf("amount"), intf("position")}},
	{Name: TypeReservation, Fields: []model.FieldDef{str("reservation_id"), str("user_id"), str("origin"), str("destination"),
		str("flight_type"), str("cabin"), jsonf("flights"), jsonf("passengers"), jsonf("payment_history"), str("created_at"),
		intf("total_baggages"), intf("nonfree_baggages"), str("insurance"), str("status")}},
	{Name: TypeFlight, Fields: []model.FieldDef{str("flight_number"), str("origin"), str("destination"),
		str("scheduled_departure_time_est"), str("scheduled_arrival_time_est")}},
	{Name: TypeFlightDate, Fields: []model.FieldDef{str("flight"), str("date"), str("status"), jsonf("available_seats"), jsonf("prices"),
		str("actual_departure_time_est"), str("actual_arrival_time_est"), str("estimated_departure_time_est"), str("estimated_arrival_time_est")}},
}}

//go:embed data/payment-order.txt
var paymentOrderText []byte

//go:embed data/revisions.json
var revisionsJSON []byte

// Revision is one record tau2's data has otherwise than tau-bench's,
// with the evidence that shows it.
type Revision struct {
	Type     string          `json:"type"`
	ID       string          `json:"id"`
	Record   json.RawMessage `json:"record"`    // tau2's record, every field
	TauBench string          `json:"tau_bench"` // what tau-bench has instead
	Evidence string          `json:"evidence"`
}

// Revisions are the records revised from tau-bench's data, in file order.
func Revisions() ([]Revision, error) {
	var out []Revision
	dec := json.NewDecoder(bytes.NewReader(revisionsJSON))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&out); err != nil {
		return nil, fmt.Errorf("airline: data/revisions.json: %w", err)
	}
	return out, nil
}

// DB is the airline database as loaded: its entities in a fixed order
// and the indexes of what no tool changes.
type DB struct {
	Entities []model.Entity
	users    []string            // sorted
	pms      map[string][]string // a user's initial payment method ids, in dict order
	flights  []flightInfo        // by flight number, the order of tau2's flights dict
	byNumber map[string]int
	resIDs   []string // the initial reservations, sorted

	startOnce sync.Once
	start     *snapshot
	textOnce  sync.Once
	texts     map[[2]string][]byte // initial record texts for the hash
	hashes    tau2.HashMemo        // the hashes of states, by what sets them apart
}

// flightInfo is what search reads of a flight: none of it ever changes.
type flightInfo struct {
	number, origin, destination, departure, arrival string
	dates                                           []string
}

var loadOnce = sync.OnceValues(load)

// Load builds the database once; callers must not change it.
func Load() (*DB, error) { return loadOnce() }

func load() (*DB, error) {
	tb, err := tauair.Load()
	if err != nil {
		return nil, fmt.Errorf("airline: tau-bench's data: %w", err)
	}
	order, err := paymentOrder()
	if err != nil {
		return nil, err
	}
	revs, err := Revisions()
	if err != nil {
		return nil, err
	}
	revised := map[[2]string]*Revision{}
	for i := range revs {
		r := &revs[i]
		revised[[2]string{r.Type, r.ID}] = r
	}
	db := &DB{pms: map[string][]string{}, byNumber: map[string]int{}, Entities: make([]model.Entity, 0, len(tb.Entities))}
	var pmEntities []model.Entity
	for _, e := range tb.Entities {
		fields := e.Fields
		switch e.Type {
		case TypeUser:
			fields = append([]model.Assign{{Field: "user_id", Value: model.Str(e.ID)}}, fields...)
			db.users = append(db.users, e.ID)
		case TypePaymentMethod:
			user, pm, _ := strings.Cut(e.ID, "/")
			db.pms[user] = append(db.pms[user], pm)
			pmEntities = append(pmEntities, e)
			continue // added below, once each user's order is known
		case TypeReservation:
			db.resIDs = append(db.resIDs, e.ID)
		}
		if r := revised[[2]string{e.Type, e.ID}]; r != nil {
			if fields, err = revisedFields(e, r); err != nil {
				return nil, err
			}
			delete(revised, [2]string{e.Type, e.ID})
		}
		ne := model.Entity{Type: e.Type, ID: e.ID, Fields: fields}
		if err := checkEntity(&ne); err != nil {
			return nil, err
		}
		db.Entities = append(db.Entities, ne)
	}
	for _, r := range revs {
		if revised[[2]string{r.Type, r.ID}] != nil {
			return nil, fmt.Errorf("airline: data/revisions.json: %s %s is not in tau-bench's data", r.Type, r.ID)
		}
	}
	for _, user := range slices.Sorted(maps.Keys(order)) {
		listed := order[user]
		have := slices.Sorted(slices.Values(db.pms[user]))
		if !slices.Equal(have, slices.Sorted(slices.Values(listed))) {
			return nil, fmt.Errorf("airline: data/payment-order.txt: user %s lists %v, tau-bench's data has %v", user, listed, have)
		}
		db.pms[user] = listed
	}
	for _, e := range pmEntities {
		user, pm, _ := strings.Cut(e.ID, "/")
		pos := slices.Index(db.pms[user], pm)
		fields := append(make([]model.Assign, 0, len(e.Fields)+1), e.Fields...) // room for the position
		for i := range fields {
			if fields[i].Field == "amount" {
				// pydantic reads a gift card's and a certificate's amount as
				// a float (280 is 280.0), so a write of 280.0 changes nothing.
				fields[i].Value = valueOf(asFloat(tau2.MustPy(fields[i].Value)))
			}
		}
		ne := model.Entity{Type: e.Type, ID: e.ID, Fields: append(fields, model.Assign{Field: "position", Value: model.Int(int64(pos))})}
		if err := checkEntity(&ne); err != nil {
			return nil, err
		}
		db.Entities = append(db.Entities, ne)
	}
	for _, e := range db.Entities {
		if e.Type != TypeFlight {
			continue
		}
		str := func(f string) string {
			i := slices.IndexFunc(e.Fields, func(a model.Assign) bool { return a.Field == f })
			if i < 0 {
				return ""
			}
			return e.Fields[i].Value.AsString()
		}
		fi := flightInfo{number: e.ID, origin: str("origin"), destination: str("destination"),
			departure: str("scheduled_departure_time_est"), arrival: str("scheduled_arrival_time_est")}
		db.byNumber[e.ID] = len(db.flights)
		db.flights = append(db.flights, fi)
	}
	for _, e := range db.Entities {
		if e.Type == TypeFlightDate {
			num, date, _ := strings.Cut(e.ID, "/")
			fi := &db.flights[db.byNumber[num]]
			fi.dates = append(fi.dates, date)
		}
	}
	return db, nil
}

// paymentOrder reads data/payment-order.txt: a user id and their payment
// method ids in dict order, one user a line.
func paymentOrder() (map[string][]string, error) {
	out := map[string][]string{}
	sc := bufio.NewScanner(bytes.NewReader(paymentOrderText))
	for line := 1; sc.Scan(); line++ {
		f := strings.Fields(sc.Text())
		if len(f) < 2 {
			return nil, fmt.Errorf("airline: data/payment-order.txt:%d: want a user id and payment method ids", line)
		}
		if _, dup := out[f[0]]; dup {
			return nil, fmt.Errorf("airline: data/payment-order.txt:%d: user %s listed twice", line, f[0])
		}
		out[f[0]] = f[1:]
	}
	return out, sc.Err()
}

// revisedFields is a revision's record as the entity's fields, with the
// entity's own key fields kept.
func revisedFields(e model.Entity, r *Revision) ([]model.Assign, error) {
	x, err := model.FromJSON(r.Record)
	if err != nil {
		return nil, fmt.Errorf("airline: data/revisions.json: %s %s: %w", r.Type, r.ID, err)
	}
	members, ok := model.Members(x)
	if !ok {
		return nil, fmt.Errorf("airline: data/revisions.json: %s %s: record is not an object", r.Type, r.ID)
	}
	var out []model.Assign
	for _, a := range e.Fields {
		if a.Field == "flight" || a.Field == "date" {
			out = append(out, a) // a flight date's place in its flight
		}
	}
	return append(out, members...), nil
}

// checkEntity holds an entity to the schema: every field declared, of
// its kind.
func checkEntity(e *model.Entity) error {
	et, ok := schema.Type(e.Type)
	if !ok {
		return fmt.Errorf("airline: entity %s %s: no such type", e.Type, e.ID)
	}
	for _, a := range e.Fields {
		fd, ok := et.Field(a.Field)
		if !ok {
			return fmt.Errorf("airline: %s %s: field %q is not in the schema", e.Type, e.ID, a.Field)
		}
		if msg := model.CheckValue(fd, a.Value); msg != "" {
			return fmt.Errorf("airline: %s %s: %s", e.Type, e.ID, msg)
		}
	}
	return nil
}

// Start is the database as loaded, read as a state (made the first time:
// a command that neither hashes nor searches never reads it).
func (d *DB) Start() model.StateView {
	d.startOnce.Do(func() { d.start = snapshotOf(d.Entities) })
	return d.start
}

// snapshot is a set of entities read as a state.
type snapshot struct {
	byKey map[[2]string]*model.Entity
}

func snapshotOf(es []model.Entity) *snapshot {
	s := &snapshot{byKey: make(map[[2]string]*model.Entity, len(es))}
	for i := range es {
		s.byKey[[2]string{es[i].Type, es[i].ID}] = &es[i]
	}
	return s
}

// recordView is a snapshot that looks each record up once for the reads
// of its fields one after another (the initial hash texts read some
// 60,000 fields).
type recordView struct {
	*snapshot
	key [2]string
	e   *model.Entity
}

func (r *recordView) Field(typ, id, field string) (model.Value, bool) {
	if key := [2]string{typ, id}; r.e == nil || key != r.key {
		e, ok := r.byKey[key]
		if !ok {
			return model.Null, false
		}
		r.key, r.e = key, e
	}
	if r.e.Deleted {
		return model.Null, false
	}
	for _, a := range r.e.Fields {
		if a.Field == field {
			return a.Value, true
		}
	}
	return model.Null, true
}

func (s *snapshot) Alive(typ, id string) bool {
	e, ok := s.byKey[[2]string{typ, id}]
	return ok && !e.Deleted
}

func (s *snapshot) Field(typ, id, field string) (model.Value, bool) {
	e, ok := s.byKey[[2]string{typ, id}]
	if !ok || e.Deleted {
		return model.Null, false
	}
	for _, a := range e.Fields {
		if a.Field == field {
			return a.Value, true
		}
	}
	return model.Null, true
}
