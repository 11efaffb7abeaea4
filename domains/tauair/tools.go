package tauair

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/parthack/parthack/internal/pyarith"
	"github.com/parthack/parthack/model"
)

// Domain is tau-bench's airline tools over a PB-CSTE state.
type Domain struct {
	db       *DB
	initOnce sync.Once
	initial  map[string]map[string][]byte // collection → id → the initial record's Python text
}

// NewDomain gives the tools their static flight index.
func NewDomain(db *DB) *Domain { return &Domain{db: db} }

// Name is the domain's id.
func (d *Domain) Name() string { return DomainName }

// param is one declared parameter of a tool, as its get_info says.
type param struct {
	name string
	kind string  // string, integer, number, array, object
	item []param // for arrays of objects: the items' declared properties (all required)
}

// toolDef is one tool: its parameters in declaration order and its body.
type toolDef struct {
	class  string // the Python class, for Python's own argument errors
	params []param
	write  bool
	run    func(c *callCtx) (string, string)
}

var flightItem = []param{{name: "flight_number", kind: "string"}, {name: "date", kind: "string"}}
var passengerItem = []param{{name: "first_name", kind: "string"}, {name: "last_name", kind: "string"}, {name: "dob", kind: "string"}}
var paymentItem = []param{{name: "payment_id", kind: "string"}, {name: "amount", kind: "number"}}

// Tools are the 14 airline tools, by name.
var tools = map[string]*toolDef{
	"book_reservation": {class: "BookReservation", write: true, run: (*callCtx).book, params: []param{
		{name: "user_id", kind: "string"}, {name: "origin", kind: "string"}, {name: "destination", kind: "string"},
		{name: "flight_type", kind: "string"}, {name: "cabin", kind: "string"}, {name: "flights", kind: "array", item: flightItem},
		{name: "passengers", kind: "array", item: passengerItem}, {name: "payment_methods", kind: "array", item: paymentItem},
		{name: "total_baggages", kind: "integer"}, {name: "nonfree_baggages", kind: "integer"}, {name: "insurance", kind: "string"}}},
	"cancel_reservation": {class: "CancelReservation", write: true, run: (*callCtx).cancel, params: []param{{name: "reservation_id", kind: "string"}}},
	"send_certificate": {class: "SendCertificate", write: true, run: (*callCtx).certificate, params: []param{
		{name: "user_id", kind: "string"}, {name: "amount", kind: "number"}}},
	"update_reservation_baggages": {class: "UpdateReservationBaggages", write: true, run: (*callCtx).baggages, params: []param{
		{name: "reservation_id", kind: "string"}, {name: "total_baggages", kind: "integer"}, {name: "nonfree_baggages", kind: "integer"},
		{name: "payment_id", kind: "string"}}},
	"update_reservation_flights": {class: "UpdateReservationFlights", write: true, run: (*callCtx).changeFlights, params: []param{
		{name: "reservation_id", kind: "string"}, {name: "cabin", kind: "string"}, {name: "flights", kind: "array", item: flightItem},
		{name: "payment_id", kind: "string"}}},
	"update_reservation_passengers": {class: "UpdateReservationPassengers", write: true, run: (*callCtx).passengers, params: []param{
		{name: "reservation_id", kind: "string"}, {name: "passengers", kind: "array", item: passengerItem}}},
	"get_reservation_details": {class: "GetReservationDetails", run: (*callCtx).reservationDetails, params: []param{{name: "reservation_id", kind: "string"}}},
	"get_user_details":        {class: "GetUserDetails", run: (*callCtx).userDetails, params: []param{{name: "user_id", kind: "string"}}},
	"search_direct_flight": {class: "SearchDirectFlight", run: (*callCtx).searchDirect, params: []param{
		{name: "origin", kind: "string"}, {name: "destination", kind: "string"}, {name: "date", kind: "string"}}},
	"search_onestop_flight": {class: "SearchOnestopFlight", run: (*callCtx).searchOnestop, params: []param{
		{name: "origin", kind: "string"}, {name: "destination", kind: "string"}, {name: "date", kind: "string"}}},
	"list_all_airports":        {class: "ListAllAirports", run: (*callCtx).airports},
	"calculate":                {class: "Calculate", run: (*callCtx).calculate, params: []param{{name: "expression", kind: "string"}}},
	"think":                    {class: "Think", run: func(*callCtx) (string, string) { return "", "" }, params: []param{{name: "thought", kind: "string"}}},
	"transfer_to_human_agents": {class: "TransferToHumanAgents", run: func(*callCtx) (string, string) { return "Transfer successful", "" }, params: []param{{name: "summary", kind: "string"}}},
}

// ToolNames lists the tools in alphabetical order.
func ToolNames() []string {
	out := make([]string, 0, len(tools))
	for n := range tools {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// callCtx is one call in progress: the view it reads, its arguments and
// the writes it has decided on.
type callCtx struct {
	d      *Domain
	v      model.StateView
	args   map[string]any
	writes []model.Action
}

// Call runs one tool. Like tau-bench, a tool that returns "Error: …"
// changes nothing; unlike tau-bench, arguments of the wrong JSON type are
// refused before the tool runs (Python would pass them on and fail, or
// store them, in ways that depend on the value).
func (d *Domain) Call(v model.StateView, tool string, args model.Value) ([]model.Action, string, string) {
	t, ok := tools[tool]
	if !ok {
		msg := "Unknown action " + tool
		return nil, msg, msg
	}
	x, err := decode(string(args.AppendJSON(nil)))
	obj, isObj := x.(map[string]any)
	if err != nil || !isObj {
		msg := "Error: arguments are not a JSON object"
		return nil, msg, msg
	}
	if msg := checkArgs(t, obj); msg != "" {
		return nil, msg, msg
	}
	c := &callCtx{d: d, v: v, args: obj}
	out, failure := t.run(c)
	if failure != "" {
		return nil, failure, failure
	}
	return c.writes, out, ""
}

// checkArgs holds arguments to the tool's declared parameters, with
// Python's words for a missing or unexpected keyword.
func checkArgs(t *toolDef, args map[string]any) string {
	for _, k := range sortedKeys(args) {
		if !slices.ContainsFunc(t.params, func(p param) bool { return p.name == k }) {
			return fmt.Sprintf("Error: %s.invoke() got an unexpected keyword argument '%s'", t.class, k)
		}
	}
	var missing []string
	for _, p := range t.params {
		if _, ok := args[p.name]; !ok {
			missing = append(missing, "'"+p.name+"'")
		}
	}
	if len(missing) > 0 {
		s := "s"
		if len(missing) == 1 {
			s = ""
		}
		list := strings.Join(missing, ", ")
		if len(missing) > 1 {
			list = strings.Join(missing[:len(missing)-1], ", ") + " and " + missing[len(missing)-1]
		}
		return fmt.Sprintf("Error: %s.invoke() missing %d required positional argument%s: %s", t.class, len(missing), s, list)
	}
	for _, p := range t.params {
		if msg := checkParam(p.name, p, args[p.name]); msg != "" {
			return "Error: " + msg
		}
	}
	return ""
}

func checkParam(path string, p param, x any) string {
	ok := false
	switch p.kind {
	case "string":
		_, ok = x.(string)
	case "integer":
		n, isNum := numOf(x)
		ok = isNum && !n.isFloat
	case "number":
		_, ok = numOf(x)
	case "array":
		var items []any
		if items, ok = x.([]any); ok {
			for i, it := range items {
				obj, isObj := it.(map[string]any)
				if !isObj {
					return fmt.Sprintf("argument %s[%d] must be an object, got %s", path, i, dumps(it))
				}
				for _, q := range p.item {
					v, has := obj[q.name]
					if !has {
						return fmt.Sprintf("argument %s[%d] lacks %q", path, i, q.name)
					}
					if msg := checkParam(fmt.Sprintf("%s[%d].%s", path, i, q.name), q, v); msg != "" {
						return msg
					}
				}
			}
		}
	}
	if !ok {
		return fmt.Sprintf("argument %s must be %s, got %s", path, article(p.kind), dumps(x))
	}
	return ""
}

func article(kind string) string {
	if kind == "integer" || kind == "object" || kind == "array" {
		return "an " + kind
	}
	return "a " + kind
}

// Reading the state.

func (c *callCtx) field(typ, id, f string) model.Value {
	v, _ := c.v.Field(typ, id, f)
	return v
}

func (c *callCtx) json(typ, id, f string) any { return jsonOf(c.field(typ, id, f)) }

func (c *callCtx) text(name string) string { s, _ := c.args[name].(string); return s }

func (c *callCtx) objects(name string) []map[string]any {
	xs, _ := c.args[name].([]any)
	out := make([]map[string]any, len(xs))
	for i, x := range xs {
		out[i], _ = x.(map[string]any)
	}
	return out
}

func (c *callCtx) integer(name string) int64 { n, _ := numOf(c.args[name]); return n.i }

// record is a whole record of an entity, keys as tau-bench has them.
func (c *callCtx) record(typ, id string) map[string]any {
	et, _ := schema.Type(typ)
	out := map[string]any{}
	for _, fd := range et.Fields {
		if v := c.field(typ, id, fd.Name); !v.IsNull() {
			out[fd.Name] = jsonOf(v)
		}
	}
	return out
}

func (c *callCtx) update(typ, id string, fields ...model.Assign) {
	c.writes = append(c.writes, model.Action{Op: model.OpUpdate, Type: typ, ID: id, Fields: fields})
}

func set(field string, v model.Value) model.Assign { return model.Assign{Field: field, Value: v} }

// paymentMethod finds a user's payment method: its entity id and source.
func (c *callCtx) paymentMethod(user, pm string) (id, source string, ok bool) {
	id = user + "/" + pm
	if !c.v.Alive(TypePaymentMethod, id) {
		return "", "", false
	}
	return id, c.field(TypePaymentMethod, id, "source").AsString(), true
}

func (c *callCtx) balance(pmID string) num {
	n, _ := numOf(c.json(TypePaymentMethod, pmID, "amount"))
	return n
}

// priceFlights fills in each requested flight's price, origin and
// destination from the flight data, as book_reservation and
// update_reservation_flights do; existing returns the reservation's own
// leg for a flight kept unchanged.
func (c *callCtx) priceFlights(flights []map[string]any, cabin string, seats int, existing func(map[string]any) map[string]any) (num, string) {
	total := intNum(0)
	for _, f := range flights {
		number, _ := f["flight_number"].(string)
		date, _ := f["date"].(string)
		if old := existing(f); old != nil {
			price, _ := numOf(old["price"])
			total = total.add(price.mul(int64(seats)))
			f["price"], f["origin"], f["destination"] = old["price"], old["origin"], old["destination"]
			continue
		}
		fi, ok := c.d.db.byNumber[number]
		if !ok {
			return total, fmt.Sprintf("Error: flight %s not found", number)
		}
		info := &c.d.db.flights[fi]
		fd := number + "/" + date
		if !c.v.Alive(TypeFlightDate, fd) {
			return total, fmt.Sprintf("Error: flight %s not found on date %s", number, date)
		}
		if c.field(TypeFlightDate, fd, "status").AsString() != "available" {
			return total, fmt.Sprintf("Error: flight %s not available on date %s", number, date)
		}
		avail, _ := c.json(TypeFlightDate, fd, "available_seats").(map[string]any)
		left, ok := numOf(avail[cabin])
		if !ok {
			return total, "Error: " + string(appendPyStr(nil, cabin))
		}
		if left.less(intNum(int64(seats))) {
			return total, fmt.Sprintf("Error: not enough seats on flight %s", number)
		}
		prices, _ := c.json(TypeFlightDate, fd, "prices").(map[string]any)
		f["price"] = prices[cabin]
		f["origin"], f["destination"] = info.origin, info.destination
		price, _ := numOf(prices[cabin])
		total = total.add(price.mul(int64(seats)))
	}
	return total, ""
}

// book_reservation.
func (c *callCtx) book() (string, string) {
	user := c.text("user_id")
	if !c.v.Alive(TypeUser, user) {
		return "", "Error: user not found"
	}
	rid := "HATHAT"
	if c.v.Alive(TypeReservation, rid) {
		rid = "HATHAU"
		if c.v.Alive(TypeReservation, rid) {
			rid = "HATHAV"
		}
	}
	flights := c.objects("flights")
	for i, f := range flights {
		flights[i] = maps(f)
	}
	passengers, _ := c.args["passengers"].([]any)
	cabin := c.text("cabin")
	total, failure := c.priceFlights(flights, cabin, len(passengers), func(map[string]any) map[string]any { return nil })
	if failure != "" {
		return "", failure
	}
	if c.text("insurance") == "yes" {
		total = total.add(intNum(30 * int64(len(passengers))))
	}
	total = total.add(intNum(50 * c.integer("nonfree_baggages")))
	payments := c.objects("payment_methods")
	paid := intNum(0)
	for _, p := range payments {
		pm, _ := p["payment_id"].(string)
		amount, _ := numOf(p["amount"])
		id, source, ok := c.paymentMethod(user, pm)
		if !ok {
			return "", fmt.Sprintf("Error: payment method %s not found", pm)
		}
		if (source == "gift_card" || source == "certificate") && c.balance(id).less(amount) {
			return "", fmt.Sprintf("Error: not enough balance in payment method %s", pm)
		}
		paid = paid.add(amount)
	}
	if !paid.equal(total) {
		return "", fmt.Sprintf("Error: payment amount does not add up, total price is %s, but paid %s", total, paid)
	}
	balances := map[string]num{}
	var order []string
	deleted := map[string]bool{}
	for _, p := range payments {
		pm, _ := p["payment_id"].(string)
		amount, _ := numOf(p["amount"])
		id := user + "/" + pm
		if deleted[id] {
			// Python's del already removed it: the next lookup raises KeyError.
			return "", "Error: " + string(appendPyStr(nil, pm))
		}
		switch c.field(TypePaymentMethod, id, "source").AsString() {
		case "gift_card":
			b, seen := balances[id]
			if !seen {
				b = c.balance(id)
				order = append(order, id)
			}
			balances[id] = b.sub(amount)
		case "certificate":
			deleted[id] = true
		}
	}
	for _, id := range order {
		c.update(TypePaymentMethod, id, set("amount", balances[id].value()))
	}
	for _, p := range payments {
		if id := user + "/" + p["payment_id"].(string); deleted[id] {
			c.writes = append(c.writes, model.Action{Op: model.OpDelete, Type: TypePaymentMethod, ID: id})
			delete(deleted, id)
		}
	}
	res := map[string]any{
		"reservation_id": rid, "user_id": user, "origin": c.text("origin"), "destination": c.text("destination"),
		"flight_type": c.text("flight_type"), "cabin": cabin, "flights": toAny(flights), "passengers": passengers,
		"payment_history": c.args["payment_methods"], "created_at": "2024-05-15T15:00:00",
		"total_baggages": c.args["total_baggages"], "nonfree_baggages": c.args["nonfree_baggages"], "insurance": c.text("insurance"),
	}
	fields := c.fieldsOf(TypeReservation, res)
	if c.v.Alive(TypeReservation, rid) { // the third booking overwrites HATHAV, as tau-bench's does
		fields = append(fields, set("status", model.Null))
		c.update(TypeReservation, rid, fields...)
	} else {
		c.writes = append(c.writes, model.Action{Op: model.OpCreate, Type: TypeReservation, ID: rid, Fields: fields})
	}
	list := slices.Clone(c.field(TypeUser, user, "reservations").AsList())
	c.update(TypeUser, user, set("reservations", model.List(append(list, rid))))
	return dumps(res), ""
}

func toAny(ms []map[string]any) []any {
	out := make([]any, len(ms))
	for i, m := range ms {
		out[i] = m
	}
	return out
}

// fieldsOf maps a record to field writes, in schema order.
func (c *callCtx) fieldsOf(typ string, rec map[string]any) []model.Assign {
	et, _ := schema.Type(typ)
	var out []model.Assign
	for _, fd := range et.Fields {
		if x, ok := rec[fd.Name]; ok {
			v, _ := fieldValue(&fd, x)
			out = append(out, set(fd.Name, v))
		}
	}
	return out
}

// cancel_reservation.
func (c *callCtx) cancel() (string, string) {
	rid := c.text("reservation_id")
	if !c.v.Alive(TypeReservation, rid) {
		return "", "Error: reservation not found"
	}
	history, _ := c.json(TypeReservation, rid, "payment_history").([]any)
	out := slices.Clone(history)
	for _, h := range history {
		p, _ := h.(map[string]any)
		amount, _ := numOf(p["amount"])
		out = append(out, map[string]any{"payment_id": p["payment_id"], "amount": amount.neg()})
	}
	fields := []model.Assign{set("payment_history", valueOf(out)), set("status", model.Str("cancelled"))}
	c.update(TypeReservation, rid, fields...)
	return c.afterUpdate(rid, fields), ""
}

// send_certificate.
func (c *callCtx) certificate() (string, string) {
	user := c.text("user_id")
	if !c.v.Alive(TypeUser, user) {
		return "", "Error: user not found"
	}
	amount, _ := numOf(c.args["amount"])
	for _, n := range []int{3221322, 3221323, 3221324} {
		pm := "certificate_" + strconv.Itoa(n)
		if _, _, ok := c.paymentMethod(user, pm); ok {
			continue
		}
		c.writes = append(c.writes, model.Action{Op: model.OpCreate, Type: TypePaymentMethod, ID: user + "/" + pm, Fields: []model.Assign{
			set("user", model.Str(user)), set("id", model.Str(pm)), set("source", model.Str("certificate")), set("amount", amount.value())}})
		return fmt.Sprintf("Certificate %s added to user %s with amount %s.", pm, user, amount), ""
	}
	return "None", ""
}

// paymentFor checks the payment method of a reservation change: never a
// certificate, and a gift card must cover the price.
func (c *callCtx) paymentFor(rid string, price num) (id, source, failure string) {
	user := c.field(TypeReservation, rid, "user_id").AsString()
	id, source, ok := c.paymentMethod(user, c.text("payment_id"))
	switch {
	case !ok:
		return "", "", "Error: payment method not found"
	case source == "certificate":
		return "", "", "Error: certificate cannot be used to update reservation"
	case source == "gift_card" && c.balance(id).less(price):
		return "", "", "Error: gift card balance is not enough"
	}
	return id, source, ""
}

// charge deducts a gift card and appends a non-zero price to the history.
func (c *callCtx) charge(rid, pmID, source string, price num, fields []model.Assign) []model.Assign {
	if source == "gift_card" {
		c.update(TypePaymentMethod, pmID, set("amount", c.balance(pmID).sub(price).value()))
	}
	if !price.equal(intNum(0)) {
		history, _ := c.json(TypeReservation, rid, "payment_history").([]any)
		history = append(slices.Clone(history), map[string]any{"payment_id": c.text("payment_id"), "amount": price})
		fields = append(fields, set("payment_history", valueOf(history)))
	}
	return fields
}

// update_reservation_baggages.
func (c *callCtx) baggages() (string, string) {
	rid := c.text("reservation_id")
	if !c.v.Alive(TypeReservation, rid) {
		return "", "Error: reservation not found"
	}
	nonfree := c.integer("nonfree_baggages")
	price := intNum(50 * max(0, nonfree-c.field(TypeReservation, rid, "nonfree_baggages").AsInt()))
	pmID, source, failure := c.paymentFor(rid, price)
	if failure != "" {
		return "", failure
	}
	fields := []model.Assign{set("total_baggages", model.Int(c.integer("total_baggages"))), set("nonfree_baggages", model.Int(nonfree))}
	fields = c.charge(rid, pmID, source, price, fields)
	c.update(TypeReservation, rid, fields...)
	return c.afterUpdate(rid, fields), ""
}

// afterUpdate is the reservation's record with the fields just written,
// what a reservation tool returns.
func (c *callCtx) afterUpdate(rid string, fields []model.Assign) string {
	return c.recordText(TypeReservation, rid, fields)
}

// recordText is an entity's record as the JSON a tool returns, keys
// sorted, written from the values' own text (nested values compact)
// rather than decoded and encoded again; over is written in place of the
// entity's current fields.
func (c *callCtx) recordText(typ, id string, over []model.Assign) string {
	et, _ := schema.Type(typ)
	type kv struct {
		k string
		v model.Value
	}
	var fields []kv
	for _, fd := range et.Fields {
		v := c.field(typ, id, fd.Name)
		for _, o := range over {
			if o.Field == fd.Name {
				v = o.Value
			}
		}
		if !v.IsNull() {
			fields = append(fields, kv{fd.Name, v})
		}
	}
	slices.SortFunc(fields, func(a, b kv) int { return strings.Compare(a.k, b.k) })
	b := []byte{'{'}
	for i, f := range fields {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = model.Str(f.k).AppendJSON(b)
		b = append(b, ": "...)
		b = f.v.AppendJSON(b)
	}
	return string(append(b, '}'))
}

// update_reservation_flights. Like tau-bench's, it keeps the
// reservation's cabin as it was and leaves seat counts alone.
func (c *callCtx) changeFlights() (string, string) {
	rid := c.text("reservation_id")
	if !c.v.Alive(TypeReservation, rid) {
		return "", "Error: reservation not found"
	}
	cabin := c.text("cabin")
	sameCabin := cabin == c.field(TypeReservation, rid, "cabin").AsString()
	current, _ := c.json(TypeReservation, rid, "flights").([]any)
	passengers, _ := c.json(TypeReservation, rid, "passengers").([]any)
	flights := c.objects("flights")
	for i, f := range flights {
		flights[i] = maps(f)
	}
	total, failure := c.priceFlights(flights, cabin, len(passengers), func(f map[string]any) map[string]any {
		if !sameCabin {
			return nil
		}
		for _, x := range current {
			old, _ := x.(map[string]any)
			if old["flight_number"] == f["flight_number"] && old["date"] == f["date"] {
				return old
			}
		}
		return nil
	})
	if failure != "" {
		return "", failure
	}
	paid := intNum(0)
	for _, x := range current {
		old, _ := x.(map[string]any)
		price, _ := numOf(old["price"])
		paid = paid.add(price)
	}
	total = total.sub(paid.mul(int64(len(passengers))))
	pmID, source, failure := c.paymentFor(rid, total)
	if failure != "" {
		return "", failure
	}
	fields := []model.Assign{set("flights", valueOf(toAny(flights)))}
	fields = c.charge(rid, pmID, source, total, fields)
	c.update(TypeReservation, rid, fields...)
	return c.afterUpdate(rid, fields), ""
}

// update_reservation_passengers.
func (c *callCtx) passengers() (string, string) {
	rid := c.text("reservation_id")
	if !c.v.Alive(TypeReservation, rid) {
		return "", "Error: reservation not found"
	}
	current, _ := c.json(TypeReservation, rid, "passengers").([]any)
	given, _ := c.args["passengers"].([]any)
	if len(given) != len(current) {
		return "", "Error: number of passengers does not match"
	}
	fields := []model.Assign{set("passengers", valueOf(given))}
	c.update(TypeReservation, rid, fields...)
	return c.afterUpdate(rid, fields), ""
}

// The read-only tools.

func (c *callCtx) reservationDetails() (string, string) {
	rid := c.text("reservation_id")
	if !c.v.Alive(TypeReservation, rid) {
		return "", "Error: user not found" // sic: tau-bench's text
	}
	return c.recordText(TypeReservation, rid, nil), ""
}

func (c *callCtx) userDetails() (string, string) {
	user := c.text("user_id")
	if !c.v.Alive(TypeUser, user) {
		return "", "Error: user not found"
	}
	return dumps(c.userRecord(user)), ""
}

// userRecord is a user with their payment methods, as tau-bench keeps it.
func (c *callCtx) userRecord(user string) map[string]any {
	rec := c.record(TypeUser, user)
	pms := map[string]any{}
	for _, pm := range c.d.paymentMethodIDs(user) {
		if id := user + "/" + pm; c.v.Alive(TypePaymentMethod, id) {
			m := c.record(TypePaymentMethod, id)
			delete(m, "user")
			pms[pm] = m
		}
	}
	rec["payment_methods"] = pms
	return rec
}

// flightDay is a flight's record for one date, as search returns it.
func (c *callCtx) flightDay(fi *flightInfo, date, as string) map[string]any {
	rec := c.record(TypeFlight, fi.number)
	day := c.record(TypeFlightDate, fi.number+"/"+date)
	delete(day, "flight")
	delete(day, "date")
	for k, v := range day {
		rec[k] = v
	}
	if as != "" {
		rec["date"] = as
	}
	return rec
}

func (c *callCtx) available(number, date string) bool {
	id := number + "/" + date
	return c.v.Alive(TypeFlightDate, id) && c.field(TypeFlightDate, id, "status").AsString() == "available"
}

func (c *callCtx) searchDirect() (string, string) {
	origin, dest, date := c.text("origin"), c.text("destination"), c.text("date")
	results := []any{}
	for i := range c.d.db.flights {
		fi := &c.d.db.flights[i]
		if fi.origin == origin && fi.destination == dest && c.available(fi.number, date) {
			results = append(results, c.flightDay(fi, date, ""))
		}
	}
	return dumps(results), ""
}

func (c *callCtx) searchOnestop() (string, string) {
	origin, dest, date := c.text("origin"), c.text("destination"), c.text("date")
	results := []any{}
	for i := range c.d.db.flights {
		f1 := &c.d.db.flights[i]
		if f1.origin != origin {
			continue
		}
		for j := range c.d.db.flights {
			f2 := &c.d.db.flights[j]
			if f2.destination != dest || f1.destination != f2.origin {
				continue
			}
			date2 := date
			if strings.Contains(f1.arrival, "+1") {
				day, err := strconv.Atoi(date[max(0, len(date)-2):])
				if err != nil {
					return "", fmt.Sprintf("Error: invalid literal for int() with base 10: %s", appendPyStr(nil, date[max(0, len(date)-2):]))
				}
				date2 = "2024-05-" + strconv.Itoa(day+1) // sic: no zero padding, as tau-bench writes it
			}
			if f1.arrival > f2.departure {
				continue
			}
			if c.available(f1.number, date) && c.available(f2.number, date2) {
				// tau-bench fills the second leg from the first leg's date, then names date2.
				r2 := c.flightDay(f2, date, date2)
				results = append(results, []any{c.flightDay(f1, date, date), r2})
			}
		}
	}
	return dumps(results), ""
}

var airports = [][2]string{{"SFO", "San Francisco"}, {"JFK", "New York"}, {"LAX", "Los Angeles"}, {"ORD", "Chicago"},
	{"DFW", "Dallas"}, {"DEN", "Denver"}, {"SEA", "Seattle"}, {"ATL", "Atlanta"}, {"MIA", "Miami"}, {"BOS", "Boston"},
	{"PHX", "Phoenix"}, {"IAH", "Houston"}, {"LAS", "Las Vegas"}, {"MCO", "Orlando"}, {"EWR", "Newark"},
	{"CLT", "Charlotte"}, {"MSP", "Minneapolis"}, {"DTW", "Detroit"}, {"PHL", "Philadelphia"}, {"LGA", "LaGuardia"}}

func (c *callCtx) airports() (string, string) {
	m := map[string]any{}
	for _, a := range airports {
		m[a[0]] = a[1]
	}
	return dumps(m), ""
}

func (c *callCtx) calculate() (string, string) {
	expr := c.text("expression")
	if strings.Trim(expr, "0123456789+-*/(). ") != "" {
		return "", "Error: invalid characters in expression"
	}
	v, err := pyarith.Eval(expr)
	if err != nil {
		return "", "Error: " + err.Error()
	}
	return string(model.AppendPyFloat(nil, pyarith.Round(v, 2))), ""
}

// EndsEpisode reports whether a call of the tool ends the episode: in
// tau-bench's airline environment, transfer_to_human_agents is its one
// terminate tool, and Env.step returns done on any call of it.
func (d *Domain) EndsEpisode(tool string) bool { return tool == "transfer_to_human_agents" }
