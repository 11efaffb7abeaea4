package airline

import (
	"bytes"
	"cmp"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/parthack/parthack/domains/tau2"
	"github.com/parthack/parthack/model"
)

// A record's model_dump(): tau2's pydantic models write their fields in
// declaration order, and a tool message is json.dumps of that dump. The
// functions here build each model's dump from a state, as a tau2.Obj.

var (
	nameKeys      = []string{"first_name", "last_name"}
	addressKeys   = []string{"address1", "address2", "city", "country", "state", "zip"}
	passengerKeys = []string{"first_name", "last_name", "dob"}
	legKeys       = []string{"flight_number", "origin", "destination", "date", "price"}
	paymentKeys   = []string{"payment_id", "amount"}
	cabinKeys     = []string{"basic_economy", "economy", "business"}
)

// newCertificates are the ids send_certificate gives, in the order it
// tries them.
var newCertificates = []string{"certificate_3221322", "certificate_3221323", "certificate_3221324"}

// newReservations are the ids book_reservation gives, in order.
var newReservations = []string{"HATHAT", "HATHAU", "HATHAV"}

func field(v model.StateView, typ, id, f string) model.Value { x, _ := v.Field(typ, id, f); return x }

func fieldStr(v model.StateView, typ, id, f string) string { return field(v, typ, id, f).AsString() }

// py is a field's value as Python holds it once loaded; nil when unset.
func py(v model.StateView, typ, id, f string) any {
	x := field(v, typ, id, f)
	if x.IsNull() {
		return nil
	}
	return tau2.MustPy(x)
}

// dumped is py's value for a hash text: a nested value's json.dumps
// with sorted keys written straight from its canonical JSON (tau2.Raw)
// where that text is plain, which saves reading it into Python values.
// A record dumped so is only for AppendDumps with sorted keys: its
// nested dicts keep the order of their JSON, not their model's.
func dumped(v model.StateView, typ, id, f string) any {
	x := field(v, typ, id, f)
	if x.Kind() == model.JSONValue {
		s := x.AsString()
		if b, ok := tau2.AppendPlainDumps(make([]byte, 0, len(s)+len(s)/4), s); ok {
			return tau2.Raw(b)
		}
	}
	return py(v, typ, id, f)
}

// fieldReader reads a field as Python holds it: py, or dumped for a hash
// text.
type fieldReader func(v model.StateView, typ, id, f string) any

// ordered gives a nested record its model's key order; a model field
// the record lacks dumps as None (address2 is Optional).
func ordered(x any, keys []string, fillNone bool) any {
	o, ok := x.(tau2.Obj)
	if !ok {
		return x
	}
	o = o.Order(keys...)
	if fillNone {
		for _, k := range keys {
			if _, ok := o.Get(k); !ok {
				o = o.Set(k, nil)
			}
		}
	}
	return o
}

// orderedList gives each dict of a list its model's key order.
func orderedList(x any, keys []string) any {
	xs, ok := x.([]any)
	if !ok {
		return x
	}
	out := make([]any, len(xs))
	for i, it := range xs {
		out[i] = ordered(it, keys, false)
	}
	return out
}

// userPMs are a user's alive payment methods in dict order.
func (d *DB) userPMs(v model.StateView, user string) []string {
	var ids []string
	for _, pm := range slices.Concat(d.pms[user], newCertificates) {
		if v.Alive(TypePaymentMethod, user+"/"+pm) && !slices.Contains(ids, pm) {
			ids = append(ids, pm)
		}
	}
	slices.SortStableFunc(ids, func(a, b string) int {
		return int(field(v, TypePaymentMethod, user+"/"+a, "position").AsInt() - field(v, TypePaymentMethod, user+"/"+b, "position").AsInt())
	})
	return ids
}

// paymentMethodDump is CreditCard, GiftCard or Certificate dumped.
func paymentMethodDump(v model.StateView, id string) tau2.Obj {
	src := fieldStr(v, TypePaymentMethod, id, "source")
	o := tau2.Obj{{Key: "source", Value: src}, {Key: "id", Value: fieldStr(v, TypePaymentMethod, id, "id")}}
	if src == "credit_card" {
		return append(o, tau2.Member{Key: "brand", Value: fieldStr(v, TypePaymentMethod, id, "brand")},
			tau2.Member{Key: "last_four", Value: fieldStr(v, TypePaymentMethod, id, "last_four")})
	}
	return append(o, tau2.Member{Key: "amount", Value: asFloat(py(v, TypePaymentMethod, id, "amount"))})
}

// asFloat is a number as a float field holds it.
func asFloat(x any) any {
	if i, ok := x.(int64); ok {
		return float64(i)
	}
	return x
}

// userDump is User.model_dump().
func (d *DB) userDump(v model.StateView, user string, read fieldReader) tau2.Obj {
	pms := tau2.Obj{}
	for _, pm := range d.userPMs(v, user) {
		pms = append(pms, tau2.Member{Key: pm, Value: paymentMethodDump(v, user+"/"+pm)})
	}
	reservations := []any{}
	for _, r := range field(v, TypeUser, user, "reservations").AsList() {
		reservations = append(reservations, r)
	}
	return tau2.Obj{
		{Key: "user_id", Value: fieldStr(v, TypeUser, user, "user_id")},
		{Key: "name", Value: ordered(read(v, TypeUser, user, "name"), nameKeys, false)},
		{Key: "address", Value: ordered(py(v, TypeUser, user, "address"), addressKeys, true)},
		{Key: "email", Value: fieldStr(v, TypeUser, user, "email")},
		{Key: "dob", Value: fieldStr(v, TypeUser, user, "dob")},
		{Key: "payment_methods", Value: pms},
		{Key: "saved_passengers", Value: orderedList(read(v, TypeUser, user, "saved_passengers"), passengerKeys)},
		{Key: "membership", Value: fieldStr(v, TypeUser, user, "membership")},
		{Key: "reservations", Value: reservations},
	}
}

// reservationDump is Reservation.model_dump().
func reservationDump(v model.StateView, id string, read fieldReader) tau2.Obj {
	o := tau2.Obj{}
	for _, f := range []string{"reservation_id", "user_id", "origin", "destination", "flight_type", "cabin"} {
		o = append(o, tau2.Member{Key: f, Value: fieldStr(v, TypeReservation, id, f)})
	}
	o = append(o,
		tau2.Member{Key: "flights", Value: orderedList(read(v, TypeReservation, id, "flights"), legKeys)},
		tau2.Member{Key: "passengers", Value: orderedList(read(v, TypeReservation, id, "passengers"), passengerKeys)},
		tau2.Member{Key: "payment_history", Value: orderedList(read(v, TypeReservation, id, "payment_history"), paymentKeys)},
		tau2.Member{Key: "created_at", Value: fieldStr(v, TypeReservation, id, "created_at")},
		tau2.Member{Key: "total_baggages", Value: field(v, TypeReservation, id, "total_baggages").AsInt()},
		tau2.Member{Key: "nonfree_baggages", Value: field(v, TypeReservation, id, "nonfree_baggages").AsInt()},
		tau2.Member{Key: "insurance", Value: fieldStr(v, TypeReservation, id, "insurance")},
		tau2.Member{Key: "status", Value: read(v, TypeReservation, id, "status")},
	)
	return o
}

// statusFields are each flight status model's fields after status.
var statusFields = map[string][]string{
	"available": {"available_seats", "prices"},
	"landed":    {"actual_departure_time_est", "actual_arrival_time_est"},
	"cancelled": nil,
	"delayed":   {"estimated_departure_time_est", "estimated_arrival_time_est"},
	"flying":    {"actual_departure_time_est", "estimated_arrival_time_est"},
	"on time":   {"estimated_departure_time_est", "estimated_arrival_time_est"},
}

// flightDateDump is one FlightDateStatus model dumped.
func flightDateDump(v model.StateView, id string, read fieldReader) tau2.Obj {
	status := fieldStr(v, TypeFlightDate, id, "status")
	o := tau2.Obj{{Key: "status", Value: status}}
	for _, f := range statusFields[status] {
		o = append(o, tau2.Member{Key: f, Value: ordered(read(v, TypeFlightDate, id, f), cabinKeys, false)})
	}
	return o
}

// flightDump is Flight.model_dump(), its dates included.
func (d *DB) flightDump(v model.StateView, fi *flightInfo, read fieldReader) tau2.Obj {
	dates := tau2.Obj{}
	for _, date := range fi.dates {
		dates = append(dates, tau2.Member{Key: date, Value: flightDateDump(v, fi.number+"/"+date, read)})
	}
	return tau2.Obj{
		{Key: "flight_number", Value: fi.number}, {Key: "origin", Value: fi.origin}, {Key: "destination", Value: fi.destination},
		{Key: "scheduled_departure_time_est", Value: fi.departure}, {Key: "scheduled_arrival_time_est", Value: fi.arrival},
		{Key: "dates", Value: dates},
	}
}

// appendFlightText writes AppendDumps(flightDump(v, fi, dumped), true),
// a flight's hash text, straight, without the dump's dicts: the initial
// texts write some 9,000 flight dates (TestHashTextsAreTheDumps holds
// the two to the same text).
func appendFlightText(b []byte, v model.StateView, fi *flightInfo) []byte {
	dates := fi.dates
	if !slices.IsSorted(dates) {
		dates = slices.Sorted(slices.Values(dates))
	}
	b = append(b, `{"dates": {`...)
	for i, date := range dates {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = tau2.AppendStr(b, date)
		b = append(b, ": {"...)
		id := fi.number + "/" + date
		status := fieldStr(v, TypeFlightDate, id, "status")
		for j, k := range statusKeys(status) {
			if j > 0 {
				b = append(b, ", "...)
			}
			b = tau2.AppendStr(b, k)
			b = append(b, ": "...)
			if k == "status" {
				b = tau2.AppendStr(b, status)
			} else {
				b = appendFieldDumps(b, v, TypeFlightDate, id, k)
			}
		}
		b = append(b, '}')
	}
	b = append(b, "}"...)
	for _, m := range [...]struct{ key, value string }{
		{"destination", fi.destination}, {"flight_number", fi.number}, {"origin", fi.origin},
		{"scheduled_arrival_time_est", fi.arrival}, {"scheduled_departure_time_est", fi.departure},
	} {
		b = append(b, ", "...)
		b = tau2.AppendStr(b, m.key)
		b = append(b, ": "...)
		b = tau2.AppendStr(b, m.value)
	}
	return append(b, '}')
}

// appendReservationText writes AppendDumps(reservationDump(v, id,
// dumped), true), a reservation's hash text, straight, its keys in
// sorted order (TestHashTextsAreTheDumps holds the two to the same text).
func appendReservationText(b []byte, v model.StateView, id string) []byte {
	b = append(b, '{')
	for i, k := range reservationKeysSorted {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = tau2.AppendStr(b, k)
		b = append(b, ": "...)
		switch k {
		case "flights", "passengers", "payment_history", "status":
			b = appendFieldDumps(b, v, TypeReservation, id, k)
		case "total_baggages", "nonfree_baggages":
			b = strconv.AppendInt(b, field(v, TypeReservation, id, k).AsInt(), 10)
		default:
			b = tau2.AppendStr(b, fieldStr(v, TypeReservation, id, k))
		}
	}
	return append(b, '}')
}

// reservationKeysSorted are Reservation's fields, sorted.
var reservationKeysSorted = []string{"cabin", "created_at", "destination", "flight_type", "flights", "insurance",
	"nonfree_baggages", "origin", "passengers", "payment_history", "reservation_id", "status", "total_baggages", "user_id"}

// appendUserText writes AppendDumps(d.userDump(v, user, dumped), true),
// a user's hash text, straight, its keys in sorted order
// (TestHashTextsAreTheDumps holds the two to the same text).
func (d *DB) appendUserText(b []byte, v model.StateView, user string) []byte {
	b = append(b, `{"address": `...)
	b = tau2.AppendDumps(b, ordered(py(v, TypeUser, user, "address"), addressKeys, true), true)
	for _, k := range [...]string{"dob", "email", "membership"} {
		b = append(b, ", "...)
		b = tau2.AppendStr(b, k)
		b = append(b, ": "...)
		b = tau2.AppendStr(b, fieldStr(v, TypeUser, user, k))
	}
	b = append(b, `, "name": `...)
	b = appendFieldDumps(b, v, TypeUser, user, "name")
	b = append(b, `, "payment_methods": {`...)
	pms := d.userPMs(v, user)
	slices.Sort(pms)
	for i, pm := range pms {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = tau2.AppendStr(b, pm)
		b = append(b, ": "...)
		b = tau2.AppendDumps(b, paymentMethodDump(v, user+"/"+pm), true)
	}
	b = append(b, `}, "reservations": [`...)
	for i, r := range field(v, TypeUser, user, "reservations").AsList() {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = tau2.AppendStr(b, r)
	}
	b = append(b, `], "saved_passengers": `...)
	b = appendFieldDumps(b, v, TypeUser, user, "saved_passengers")
	b = append(b, `, "user_id": `...)
	b = tau2.AppendStr(b, fieldStr(v, TypeUser, user, "user_id"))
	return append(b, '}')
}

// appendFieldDumps writes json.dumps(sort_keys=True) of a field as py
// reads it, from its canonical JSON where that is plain.
func appendFieldDumps(b []byte, v model.StateView, typ, id, f string) []byte {
	switch x := field(v, typ, id, f); x.Kind() {
	case model.NullValue:
		return append(b, "null"...)
	case model.IntValue:
		return strconv.AppendInt(b, x.AsInt(), 10)
	case model.StringValue:
		if utf8.ValidString(x.AsString()) {
			return tau2.AppendStr(b, x.AsString())
		}
	case model.JSONValue:
		if out, ok := tau2.AppendPlainDumps(b, x.AsString()); ok {
			return out
		}
	}
	return tau2.AppendDumps(b, py(v, typ, id, f), true)
}

// statusKeys are a flight date's keys for its status, sorted.
func statusKeys(status string) []string {
	if keys, ok := statusKeysSorted[status]; ok {
		return keys
	}
	return []string{"status"}
}

var statusKeysSorted = func() map[string][]string {
	out := map[string][]string{}
	for status, fields := range statusFields {
		out[status] = slices.Sorted(slices.Values(append([]string{"status"}, fields...)))
	}
	return out
}()

// directFlightDump is DirectFlight.model_dump(): a flight on a date it
// is available, date as given (None for search_direct_flight's).
func directFlightDump(v model.StateView, fi *flightInfo, day string, date any) tau2.Obj {
	id := fi.number + "/" + day
	return tau2.Obj{
		{Key: "flight_number", Value: fi.number}, {Key: "origin", Value: fi.origin}, {Key: "destination", Value: fi.destination},
		{Key: "status", Value: "available"},
		{Key: "scheduled_departure_time_est", Value: fi.departure}, {Key: "scheduled_arrival_time_est", Value: fi.arrival},
		{Key: "date", Value: date},
		{Key: "available_seats", Value: ordered(py(v, TypeFlightDate, id, "available_seats"), cabinKeys, false)},
		{Key: "prices", Value: ordered(py(v, TypeFlightDate, id, "prices"), cabinKeys, false)},
	}
}

// Hash is tau2's get_db_hash of a state: sha256 of json.dumps of
// FlightDB.model_dump() with sorted keys. changed lists the cells written
// since the initial snapshot; every other record's text is the initial
// one, computed once.
func (d *DB) Hash(v model.StateView, changed []model.CellDiff) string {
	d.textOnce.Do(d.initialTexts)
	dirty := map[[2]string]bool{}
	for _, c := range changed {
		dirty[rootOf(c.Type, c.ID)] = true
	}
	// The records written whose text is not the initial one are the state
	// as the hash reads it (tau2.HashMemo).
	texts := map[[2]string][]byte{}
	var key []byte
	for _, k := range slices.SortedFunc(maps.Keys(dirty), func(a, b [2]string) int {
		return cmp.Or(strings.Compare(a[0], b[0]), strings.Compare(a[1], b[1]))
	}) {
		var text []byte
		switch k[0] {
		case "flights":
			text = d.flightText(v, k[1])
		case "reservations":
			text = reservationText(v, k[1])
		case "users":
			text = d.userText(v, k[1])
		}
		if initial := d.texts[k]; (text == nil) != (initial == nil) || !bytes.Equal(text, initial) {
			texts[k] = text
			key = tau2.AppendStateKey(key, k[0], k[1], text)
		}
	}
	return d.hashes.Hash(key, func() string {
		text := func(coll string) func(string) []byte {
			return func(id string) []byte {
				if t, ok := texts[[2]string{coll, id}]; ok {
					return t
				}
				return d.texts[[2]string{coll, id}]
			}
		}
		resIDs := slices.Sorted(slices.Values(slices.Concat(d.resIDs, newReservations)))
		flightIDs := make([]string, len(d.flights))
		for i := range d.flights {
			flightIDs[i] = d.flights[i].number
		}
		slices.Sort(flightIDs)
		return tau2.DBHash([]tau2.Collection{
			{Name: "flights", IDs: flightIDs, Text: text("flights")},
			{Name: "reservations", IDs: resIDs, Text: text("reservations")},
			{Name: "users", IDs: d.users, Text: text("users")},
		})
	})
}

func (d *DB) flightText(v model.StateView, id string) []byte {
	return tau2.AppendDumps(nil, d.flightDump(v, &d.flights[d.byNumber[id]], dumped), true)
}

func reservationText(v model.StateView, id string) []byte {
	if !v.Alive(TypeReservation, id) {
		return nil
	}
	return tau2.AppendDumps(nil, reservationDump(v, id, dumped), true)
}

func (d *DB) userText(v model.StateView, id string) []byte {
	return tau2.AppendDumps(nil, d.userDump(v, id, dumped), true)
}

// initialTexts writes every initial record's hash text once, the texts
// side by side in large chunks.
func (d *DB) initialTexts() {
	v := &recordView{snapshot: d.Start().(*snapshot)}
	d.texts = make(map[[2]string][]byte, len(d.flights)+len(d.resIDs)+len(d.users))
	var buf []byte
	put := func(coll, id string, text func([]byte) []byte) {
		if cap(buf)-len(buf) < 16<<10 {
			buf = make([]byte, 0, 256<<10)
		}
		start := len(buf)
		buf = text(buf)
		d.texts[[2]string{coll, id}] = buf[start:len(buf):len(buf)]
	}
	for _, id := range d.resIDs {
		if v.Alive(TypeReservation, id) {
			put("reservations", id, func(b []byte) []byte { return appendReservationText(b, v, id) })
		} else {
			d.texts[[2]string{"reservations", id}] = nil
		}
	}
	for _, id := range d.users {
		put("users", id, func(b []byte) []byte { return d.appendUserText(b, v, id) })
	}
	for i := range d.flights {
		put("flights", d.flights[i].number, func(b []byte) []byte { return appendFlightText(b, v, &d.flights[i]) })
	}
}

// rootOf is the FlightDB record an entity lies in: its collection and key.
func rootOf(typ, id string) [2]string {
	switch typ {
	case TypeUser:
		return [2]string{"users", id}
	case TypePaymentMethod:
		user, _, _ := strings.Cut(id, "/")
		return [2]string{"users", user}
	case TypeReservation:
		return [2]string{"reservations", id}
	}
	number, _, _ := strings.Cut(id, "/")
	return [2]string{"flights", number}
}
