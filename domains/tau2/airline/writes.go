package airline

import (
	"slices"

	"github.com/parthack/parthack/domains/tau2"
	"github.com/parthack/parthack/model"
)

// The six WRITE tools. Each checks everything before it writes, in
// tau2's order, so an exception leaves the state as it was; where tau2
// raises only after it has changed the database, the port names the
// case (see bookPayments).

// iterate is Python's `for x in v`: a list's items, a dict's keys, a
// str's characters; anything else is not iterable.
func iterate(x any) ([]any, error) {
	switch v := x.(type) {
	case []any:
		return v, nil
	case tau2.Obj:
		out := make([]any, len(v))
		for i, m := range v {
			out[i] = m.Key
		}
		return out, nil
	case string:
		var out []any
		for _, r := range v {
			out = append(out, string(r))
		}
		return out, nil
	}
	return nil, errorf("'%s' object is not iterable", pyType(x))
}

// convertAll is tau2's `if all(isinstance(x, dict) for x in xs): xs =
// [Model(**x) for x in xs]`: every item a dict becomes a validated
// instance (the first invalid one raises); otherwise xs stays as given.
func convertAll(m *pmodel, x any) (items []any, converted bool, err error) {
	items, err = iterate(x)
	if err != nil {
		return nil, false, err
	}
	for _, it := range items {
		if _, ok := it.(tau2.Obj); !ok {
			return items, false, nil
		}
	}
	out := make([]any, len(items))
	for i, it := range items {
		o, errs := validateModel(m, it.(tau2.Obj), "")
		if len(errs) > 0 {
			return nil, false, pyError(validationError(m.name, errs))
		}
		out[i] = instance{m, o}
	}
	return out, true, nil
}

// noAttribute is the AttributeError of reading a model's attribute from
// an item tau2 left unconverted.
func noAttribute(x any, attr string) error {
	return errorf("'%s' object has no attribute '%s'", pyType(x), attr)
}

// pynum is a Python int or float, as a price becomes one.
type pynum struct {
	i     int64
	f     float64
	float bool
}

func (n pynum) val() float64 {
	if n.float {
		return n.f
	}
	return float64(n.i)
}

func (n pynum) add(m pynum) pynum {
	if n.float || m.float {
		return pynum{f: n.val() + m.val(), float: true}
	}
	return pynum{i: n.i + m.i}
}

func (n pynum) String() string { return pyStr(n.any()) }

func (n pynum) any() any {
	if n.float {
		return n.f
	}
	return n.i
}

func number(x any) float64 {
	switch v := x.(type) {
	case int64:
		return float64(v)
	case float64:
		return v
	}
	return 0
}

// pmID is a user's payment method's entity id when it exists.
func (c *callCtx) pmID(user string, pid any) (string, bool, error) {
	if !hashable(pid) {
		return "", false, pyError(unhashable(pid))
	}
	s, ok := pid.(string)
	id := user + "/" + s
	return id, ok && c.v.Alive(TypePaymentMethod, id), nil
}

func (c *callCtx) balance(pmID string) float64 {
	return number(py(c.v, TypePaymentMethod, pmID, "amount"))
}

// book_reservation.
func (c *callCtx) book() (any, error) {
	flights, flightsOK, err := convertAll(flightInfoModel, c.arg("flights"))
	if err != nil {
		return nil, err
	}
	passengers, passengersOK, err := convertAll(passengerModel, c.arg("passengers"))
	if err != nil {
		return nil, err
	}
	payments, paymentsOK, err := convertAll(paymentModel, c.arg("payment_methods"))
	if err != nil {
		return nil, err
	}
	user, err := c.user(c.arg("user_id"))
	if err != nil {
		return nil, err
	}
	rid := ""
	for _, id := range newReservations {
		if !c.v.Alive(TypeReservation, id) {
			rid = id
			break
		}
	}
	if rid == "" {
		return nil, errorf("Too many reservations")
	}
	asGiven := func(items []any, ok bool, name string) any {
		if ok {
			return items
		}
		return c.arg(name)
	}
	res, err := validateReservation(rid, user, c, asGiven(passengers, passengersOK, "passengers"), asGiven(payments, paymentsOK, "payment_methods"))
	if err != nil {
		return nil, err
	}
	cabin := res.Str("cabin")
	seats := int64(len(passengers))
	total := pynum{}
	var legs []any
	var days []string
	for _, it := range flights {
		if !flightsOK {
			return nil, noAttribute(it, "flight_number")
		}
		info := it.(instance).obj
		leg, day, err := c.newLeg(info, cabin, seats)
		if err != nil {
			return nil, err
		}
		legs = append(legs, leg)
		days = append(days, day)
		total = total.add(pynum{i: price(leg) * seats})
	}
	if c.arg("insurance") == "yes" {
		total = total.add(pynum{i: 30 * seats})
	}
	switch v := c.arg("nonfree_baggages").(type) {
	case string:
		return nil, errorf("unsupported operand type(s) for +=: 'int' and 'str'")
	case float64:
		total = total.add(pynum{f: 50 * v, float: true})
	case bool:
		if v {
			total = total.add(pynum{i: 50})
		}
	case int64:
		total = total.add(pynum{i: 50 * v})
	}
	if err := c.bookPayments(user, mustGet(res, "payment_history").([]any), total); err != nil {
		return nil, err
	}
	taken := map[string]int64{}
	for _, day := range days {
		taken[day] += seats
	}
	for _, day := range days {
		n := taken[day]
		if n == 0 {
			continue // a flight named twice loses its seats once per naming, written once
		}
		delete(taken, day)
		avail := py(c.v, TypeFlightDate, day, "available_seats").(tau2.Obj)
		left, _ := avail.Get(cabin)
		avail = slices.Clone(avail).Set(cabin, left.(int64)-n)
		c.update(TypeFlightDate, day, set("available_seats", valueOf(avail)))
	}
	if legs == nil {
		legs = []any{}
	}
	res = res.Set("flights", legs)
	fields := make([]model.Assign, 0, len(res))
	for _, m := range res {
		if m.Value != nil {
			fields = append(fields, set(m.Key, valueOf(m.Value)))
		}
	}
	c.writes = append(c.writes, model.Action{Op: model.OpCreate, Type: TypeReservation, ID: rid, Fields: fields})
	list := slices.Clone(field(c.v, TypeUser, user, "reservations").AsList())
	c.update(TypeUser, user, set("reservations", model.List(append(list, rid))))
	return res, nil
}

// validateReservation is book_reservation's Reservation(...): every
// field validated at once, its dump in field order.
func validateReservation(rid, user string, c *callCtx, passengers, payments any) (tau2.Obj, error) {
	fields := []struct {
		name string
		kind kind
		x    any
	}{
		{"origin", kStr, c.arg("origin")}, {"destination", kStr, c.arg("destination")},
		{"flight_type", flightTypeKind, c.arg("flight_type")}, {"cabin", cabinKind, c.arg("cabin")},
		{"passengers", listOf(passengerModel), passengers}, {"payment_history", listOf(paymentModel), payments},
		{"total_baggages", kInt, c.arg("total_baggages")}, {"nonfree_baggages", kInt, c.arg("nonfree_baggages")},
		{"insurance", insuranceKind, c.arg("insurance")},
	}
	var errs []lineError
	got := map[string]any{}
	for _, f := range fields {
		v, es := validate(f.kind, f.x, f.name)
		errs = append(errs, es...)
		got[f.name] = v
	}
	if len(errs) > 0 {
		return nil, pyError(validationError("Reservation", errs))
	}
	return tau2.Obj{
		{Key: "reservation_id", Value: rid}, {Key: "user_id", Value: user},
		{Key: "origin", Value: got["origin"]}, {Key: "destination", Value: got["destination"]},
		{Key: "flight_type", Value: got["flight_type"]}, {Key: "cabin", Value: got["cabin"]},
		{Key: "flights", Value: []any{}}, {Key: "passengers", Value: got["passengers"]},
		{Key: "payment_history", Value: got["payment_history"]}, {Key: "created_at", Value: "2024-05-15T15:00:00"},
		{Key: "total_baggages", Value: got["total_baggages"]}, {Key: "nonfree_baggages", Value: got["nonfree_baggages"]},
		{Key: "insurance", Value: got["insurance"]}, {Key: "status", Value: nil},
	}, nil
}

// price is a ReservationFlight's price.
func price(leg any) int64 {
	o, _ := leg.(tau2.Obj)
	x, _ := o.Get("price")
	i, _ := x.(int64)
	return i
}

// newLeg prices a flight the reservation does not hold yet, with tau2's
// checks in its order: the flight, its date, available, enough seats.
func (c *callCtx) newLeg(info tau2.Obj, cabin any, seats int64) (tau2.Obj, string, error) {
	number, date := info.Str("flight_number"), info.Str("date")
	i, ok := c.db.byNumber[number]
	if !ok {
		return nil, "", errorf("Flight %s not found", number)
	}
	day := number + "/" + date
	if !c.v.Alive(TypeFlightDate, day) {
		return nil, "", errorf("Flight %s not found on date %s", number, date)
	}
	if fieldStr(c.v, TypeFlightDate, day, "status") != "available" {
		return nil, "", errorf("Flight %s not available on date %s", number, date)
	}
	if !hashable(cabin) {
		return nil, "", pyError(unhashable(cabin))
	}
	left, ok := py(c.v, TypeFlightDate, day, "available_seats").(tau2.Obj).Get(pyStrKey(cabin))
	if !ok {
		return nil, "", pyError(keyError(cabin))
	}
	if left.(int64) < seats {
		return nil, "", errorf("Not enough seats on flight %s", number)
	}
	fare, _ := py(c.v, TypeFlightDate, day, "prices").(tau2.Obj).Get(pyStrKey(cabin))
	fi := &c.db.flights[i]
	return tau2.Obj{{Key: "flight_number", Value: number}, {Key: "origin", Value: fi.origin}, {Key: "destination", Value: fi.destination},
		{Key: "date", Value: date}, {Key: "price", Value: fare}}, day, nil
}

// pyStrKey is a dict key as the str it must be to match a cabin.
func pyStrKey(x any) string {
	if s, ok := x.(string); ok {
		return s
	}
	return "\x00" // matches no cabin
}

// bookPayments checks book_reservation's payment methods and the total,
// then deducts gift cards and spends certificates. tau2 deducts as it
// goes, so a certificate named twice raises KeyError after the first
// deductions; the port raises the same error and writes nothing.
func (c *callCtx) bookPayments(user string, payments []any, total pynum) error {
	paid := int64(0)
	for _, p := range payments {
		o := p.(tau2.Obj)
		pid, amount := o.Str("payment_id"), number(mustGet(o, "amount"))
		id, ok, _ := c.pmID(user, pid)
		if !ok {
			return errorf("Payment method %s not found", pid)
		}
		if src := fieldStr(c.v, TypePaymentMethod, id, "source"); (src == "gift_card" || src == "certificate") && c.balance(id) < amount {
			return errorf("Not enough balance in payment method %s", pid)
		}
		paid += int64(amount)
	}
	if float64(paid) != total.val() {
		return errorf("Payment amount does not add up, total price is %s, but paid %d", total, paid)
	}
	balances := map[string]float64{}
	var order []string
	spent := map[string]bool{}
	for _, p := range payments {
		o := p.(tau2.Obj)
		id := user + "/" + o.Str("payment_id")
		if spent[id] {
			return pyError(keyError(o.Str("payment_id")))
		}
		switch fieldStr(c.v, TypePaymentMethod, id, "source") {
		case "gift_card":
			b, seen := balances[id]
			if !seen {
				b = c.balance(id)
				order = append(order, id)
			}
			balances[id] = b - number(mustGet(o, "amount"))
		case "certificate":
			spent[id] = true
		}
	}
	for _, id := range order {
		c.update(TypePaymentMethod, id, set("amount", valueOf(balances[id])))
	}
	for _, p := range payments {
		if id := user + "/" + p.(tau2.Obj).Str("payment_id"); spent[id] {
			c.writes = append(c.writes, model.Action{Op: model.OpDelete, Type: TypePaymentMethod, ID: id})
			delete(spent, id)
		}
	}
	return nil
}

func mustGet(o tau2.Obj, key string) any { x, _ := o.Get(key); return x }

// paymentForUpdate is _payment_for_update: checks the payment method
// (never a certificate; a gift card must cover the price), deducts a
// gift card, and gives the Payment for a non-zero price.
func (c *callCtx) paymentForUpdate(user string, pid any, price int64) (tau2.Obj, error) {
	id, ok, err := c.pmID(user, pid)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errorf("Payment method not found")
	}
	switch fieldStr(c.v, TypePaymentMethod, id, "source") {
	case "certificate":
		return nil, errorf("Certificate cannot be used to update reservation")
	case "gift_card":
		if c.balance(id) < float64(price) {
			return nil, errorf("Gift card balance is not enough")
		}
		c.update(TypePaymentMethod, id, set("amount", valueOf(c.balance(id)-float64(price))))
	}
	if price == 0 {
		return nil, nil
	}
	return tau2.Obj{{Key: "payment_id", Value: pid}, {Key: "amount", Value: price}}, nil
}

// withPayment is the reservation's payment history with p appended.
func (c *callCtx) withPayment(rid string, p tau2.Obj) []model.Assign {
	if p == nil {
		return nil
	}
	history, _ := py(c.v, TypeReservation, rid, "payment_history").([]any)
	return []model.Assign{set("payment_history", valueOf(append(slices.Clone(history), p)))}
}

// after is the reservation's dump with the fields just written.
func (c *callCtx) after(rid string, fields []model.Assign) any {
	return reservationDump(overlay{c.v, TypeReservation, rid, fields}, rid, py)
}

// overlay is a state with one entity's fields replaced.
type overlay struct {
	model.StateView
	typ, id string
	fields  []model.Assign
}

func (o overlay) Field(typ, id, f string) (model.Value, bool) {
	if typ == o.typ && id == o.id {
		for _, a := range o.fields {
			if a.Field == f {
				return a.Value, true
			}
		}
	}
	return o.StateView.Field(typ, id, f)
}

// cancel_reservation: every payment refunded, the status cancelled.
func (c *callCtx) cancel() (any, error) {
	rid, err := c.reservation(c.arg("reservation_id"))
	if err != nil {
		return nil, err
	}
	history, _ := py(c.v, TypeReservation, rid, "payment_history").([]any)
	out := slices.Clone(history)
	for _, h := range history {
		p := h.(tau2.Obj)
		out = append(out, tau2.Obj{{Key: "payment_id", Value: mustGet(p, "payment_id")}, {Key: "amount", Value: -mustGet(p, "amount").(int64)}})
	}
	fields := []model.Assign{set("payment_history", valueOf(out)), set("status", model.Str("cancelled"))}
	c.update(TypeReservation, rid, fields...)
	return c.after(rid, fields), nil
}

// send_certificate: the first free certificate id, appended to the
// user's payment methods.
func (c *callCtx) certificate() (any, error) {
	user, err := c.user(c.arg("user_id"))
	if err != nil {
		return nil, err
	}
	for _, pm := range newCertificates {
		id := user + "/" + pm
		if c.v.Alive(TypePaymentMethod, id) {
			continue
		}
		amount, errs := validate(kFloat, c.arg("amount"), "amount")
		if len(errs) > 0 {
			return nil, pyError(validationError("Certificate", errs))
		}
		pos := int64(0)
		for _, other := range c.db.userPMs(c.v, user) {
			pos = max(pos, field(c.v, TypePaymentMethod, user+"/"+other, "position").AsInt()+1)
		}
		c.writes = append(c.writes, model.Action{Op: model.OpCreate, Type: TypePaymentMethod, ID: id, Fields: []model.Assign{
			set("user", model.Str(user)), set("id", model.Str(pm)), set("source", model.Str("certificate")),
			set("amount", valueOf(amount)), set("position", model.Int(pos))}})
		return "Certificate " + pm + " added to user " + user + " with amount " + pyStr(c.arg("amount")) + ".", nil
	}
	return nil, errorf("Too many certificates")
}

// update_reservation_baggages.
func (c *callCtx) baggages() (any, error) {
	rid, err := c.reservation(c.arg("reservation_id"))
	if err != nil {
		return nil, err
	}
	user := fieldStr(c.v, TypeReservation, rid, "user_id")
	nonfree, ok := c.arg("nonfree_baggages").(int64)
	if !ok {
		switch x := c.arg("nonfree_baggages"); x.(type) {
		case bool, float64:
			return nil, refusal("nonfree_baggages", "an integer", x)
		default:
			return nil, errorf("unsupported operand type(s) for -: '%s' and 'int'", pyType(x))
		}
	}
	price := 50 * max(0, nonfree-field(c.v, TypeReservation, rid, "nonfree_baggages").AsInt())
	payment, err := c.paymentForUpdate(user, c.arg("payment_id"), price)
	if err != nil {
		return nil, err
	}
	total, ok := c.arg("total_baggages").(int64)
	if !ok {
		return nil, refusal("total_baggages", "an integer", c.arg("total_baggages"))
	}
	fields := append(c.withPayment(rid, payment), set("total_baggages", model.Int(total)), set("nonfree_baggages", model.Int(nonfree)))
	c.update(TypeReservation, rid, fields...)
	return c.after(rid, fields), nil
}

// update_reservation_flights. A leg the reservation already holds keeps
// its price when the cabin stays; new legs are priced now; the
// difference is paid. Seats are left as they were, as tau2 leaves them.
func (c *callCtx) changeFlights() (any, error) {
	flights, flightsOK, err := convertAll(flightInfoModel, c.arg("flights"))
	if err != nil {
		return nil, err
	}
	rid, err := c.reservation(c.arg("reservation_id"))
	if err != nil {
		return nil, err
	}
	user := fieldStr(c.v, TypeReservation, rid, "user_id")
	cabin := c.arg("cabin")
	sameCabin := pyEqStr(cabin, fieldStr(c.v, TypeReservation, rid, "cabin"))
	current, _ := py(c.v, TypeReservation, rid, "flights").([]any)
	passengers, _ := py(c.v, TypeReservation, rid, "passengers").([]any)
	seats := int64(len(passengers))
	total := int64(0)
	legs := []any{}
	for _, it := range flights {
		if !flightsOK {
			return nil, noAttribute(it, "flight_number")
		}
		info := it.(instance).obj
		if sameCabin {
			if i := slices.IndexFunc(current, func(x any) bool {
				leg := x.(tau2.Obj)
				return leg.Str("flight_number") == info.Str("flight_number") && leg.Str("date") == info.Str("date")
			}); i >= 0 {
				total += price(current[i]) * seats
				legs = append(legs, current[i])
				continue
			}
		}
		leg, _, err := c.newLeg(info, cabin, seats)
		if err != nil {
			return nil, err
		}
		total += price(leg) * seats
		legs = append(legs, leg)
	}
	paid := int64(0)
	for _, x := range current {
		paid += price(x)
	}
	total -= paid * seats
	payment, err := c.paymentForUpdate(user, c.arg("payment_id"), total)
	if err != nil {
		return nil, err
	}
	newCabin, ok := cabin.(string)
	if !ok {
		return nil, refusal("cabin", "a string", cabin)
	}
	fields := append(c.withPayment(rid, payment), set("flights", valueOf(legs)), set("cabin", model.Str(newCabin)))
	c.update(TypeReservation, rid, fields...)
	return c.after(rid, fields), nil
}

// update_reservation_passengers: as many passengers as before.
func (c *callCtx) passengers() (any, error) {
	given, ok, err := convertAll(passengerModel, c.arg("passengers"))
	if err != nil {
		return nil, err
	}
	rid, err := c.reservation(c.arg("reservation_id"))
	if err != nil {
		return nil, err
	}
	current, _ := py(c.v, TypeReservation, rid, "passengers").([]any)
	if len(given) != len(current) {
		return nil, errorf("Number of passengers does not match")
	}
	if !ok {
		return nil, refusal("passengers", "a list of objects", c.arg("passengers"))
	}
	list := make([]any, len(given))
	for i, p := range given {
		list[i] = p.(instance).obj
	}
	fields := []model.Assign{set("passengers", valueOf(list))}
	c.update(TypeReservation, rid, fields...)
	return c.after(rid, fields), nil
}
