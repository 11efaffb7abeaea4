package airline

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/parthack/parthack/domains/tau2"
	"github.com/parthack/parthack/model"
)

// Domain is tau2's airline tools over a PB-CSTE state.
type Domain struct {
	tau2.Orchestrator // tau2's turns and limits: the witness rule
	db                *DB
}

// NewDomain gives the tools the database's static indexes.
func NewDomain(db *DB) *Domain { return &Domain{db: db} }

// Name is the domain's id.
func (d *Domain) Name() string { return DomainName }

// EndsEpisode is tau2's rule: no call ends an episode, not even
// transfer_to_human_agents (see tau2.EndsEpisode).
func (d *Domain) EndsEpisode(tool string) bool { return tau2.EndsEpisode(tool) }

// toolDef is one tool: its parameters in signature order, whether it
// writes (tau2's ToolType.WRITE, the calls tau2 replays) and its body.
type toolDef struct {
	params []string
	write  bool
	run    func(c *callCtx) (any, error)
}

var tools = map[string]*toolDef{
	"book_reservation": {write: true, run: (*callCtx).book, params: []string{"user_id", "origin", "destination", "flight_type", "cabin",
		"flights", "passengers", "payment_methods", "total_baggages", "nonfree_baggages", "insurance"}},
	"calculate":                     {run: (*callCtx).calculate, params: []string{"expression"}},
	"cancel_reservation":            {write: true, run: (*callCtx).cancel, params: []string{"reservation_id"}},
	"get_flight_status":             {run: (*callCtx).flightStatus, params: []string{"flight_number", "date"}},
	"get_reservation_details":       {run: (*callCtx).reservationDetails, params: []string{"reservation_id"}},
	"get_user_details":              {run: (*callCtx).userDetails, params: []string{"user_id"}},
	"list_all_airports":             {run: (*callCtx).airports},
	"search_direct_flight":          {run: (*callCtx).searchDirect, params: []string{"origin", "destination", "date"}},
	"search_onestop_flight":         {run: (*callCtx).searchOnestop, params: []string{"origin", "destination", "date"}},
	"send_certificate":              {write: true, run: (*callCtx).certificate, params: []string{"user_id", "amount"}},
	"transfer_to_human_agents":      {run: func(*callCtx) (any, error) { return "Transfer successful", nil }, params: []string{"summary"}},
	"update_reservation_baggages":   {write: true, run: (*callCtx).baggages, params: []string{"reservation_id", "total_baggages", "nonfree_baggages", "payment_id"}},
	"update_reservation_flights":    {write: true, run: (*callCtx).changeFlights, params: []string{"reservation_id", "cabin", "flights", "payment_id"}},
	"update_reservation_passengers": {write: true, run: (*callCtx).passengers, params: []string{"reservation_id", "passengers"}},
}

// ToolNames lists the tools in alphabetical order.
func ToolNames() []string { return slices.Sorted(maps.Keys(tools)) }

// Writes reports whether a tool is one of tau2's WRITE tools.
func Writes(tool string) bool { t, ok := tools[tool]; return ok && t.write }

// pyError is an exception a tool raises: tau2 answers "Error: " and its
// text, and the call changes nothing.
type pyError string

func (e pyError) Error() string { return string(e) }

func errorf(format string, a ...any) error { return pyError(fmt.Sprintf(format, a...)) }

// refusal is a call the port refuses where tau2 would go on with an
// ill-typed value (store it, or compute with it): the port cannot hold
// what tau2 would then hold, so it says which argument and why.
func refusal(arg, want string, x any) error {
	return pyError(fmt.Sprintf("argument %s must be %s, got %s (the port refuses what tau2 would store or compute with unvalidated)", arg, want, pyRepr(x)))
}

// callCtx is one call in progress: the view it reads, its arguments and
// the writes it has decided on.
type callCtx struct {
	db     *DB
	v      model.StateView
	args   tau2.Obj
	writes []model.Action
}

// Call runs one tool as tau2's Environment.get_response does: an
// exception becomes "Error: <text>" and changes nothing; a result is
// json.dumps of its model_dump (a str as it is).
func (d *Domain) Call(v model.StateView, tool string, args model.Value) ([]model.Action, string, string) {
	fail := func(err error) ([]model.Action, string, string) {
		msg := "Error: " + err.Error()
		return nil, msg, msg
	}
	t, ok := tools[tool]
	if !ok {
		return fail(errorf("Tool '%s' not found.", tool))
	}
	x, err := tau2.ParsePy(args.AppendJSON(nil))
	obj, isObj := x.(tau2.Obj)
	if err != nil || !isObj {
		return fail(errorf("the arguments of %s are not a JSON object", tool))
	}
	if err := bind(tool, t, obj); err != nil {
		return fail(err)
	}
	c := &callCtx{db: d.db, v: v, args: obj}
	out, err := t.run(c)
	if err != nil {
		return fail(err)
	}
	if s, ok := out.(string); ok {
		return c.writes, s, ""
	}
	return c.writes, tau2.Dumps(out, false), ""
}

// bind holds keyword arguments to the tool's signature with Python's
// words: an unexpected keyword first, in the order given, then every
// missing one.
func bind(tool string, t *toolDef, args tau2.Obj) error {
	for _, m := range args {
		if !slices.Contains(t.params, m.Key) {
			return errorf("AirlineTools.%s() got an unexpected keyword argument '%s'", tool, m.Key)
		}
	}
	var missing []string
	for _, p := range t.params {
		if _, ok := args.Get(p); !ok {
			missing = append(missing, "'"+p+"'")
		}
	}
	switch len(missing) {
	case 0:
		return nil
	case 1:
		return errorf("AirlineTools.%s() missing 1 required positional argument: %s", tool, missing[0])
	case 2:
		return errorf("AirlineTools.%s() missing 2 required positional arguments: %s and %s", tool, missing[0], missing[1])
	}
	return errorf("AirlineTools.%s() missing %d required positional arguments: %s, and %s", tool, len(missing),
		strings.Join(missing[:len(missing)-1], ", "), missing[len(missing)-1])
}

func (c *callCtx) arg(name string) any { x, _ := c.args.Get(name); return x }

func (c *callCtx) update(typ, id string, fields ...model.Assign) {
	c.writes = append(c.writes, model.Action{Op: model.OpUpdate, Type: typ, ID: id, Fields: fields})
}

func set(field string, v model.Value) model.Assign { return model.Assign{Field: field, Value: v} }

// valueOf is a Python value as a field value.
func valueOf(x any) model.Value { return tau2.ModelValue(x) }

// Lookups, with tau2's texts: a dict lookup of an unhashable key raises
// TypeError; a missing key is "X not found" with the key's str().

func (c *callCtx) user(x any) (string, error) {
	if !hashable(x) {
		return "", pyError(unhashable(x))
	}
	if s, ok := x.(string); ok && c.v.Alive(TypeUser, s) {
		return s, nil
	}
	return "", errorf("User %s not found", pyStr(x))
}

func (c *callCtx) reservation(x any) (string, error) {
	if !hashable(x) {
		return "", pyError(unhashable(x))
	}
	if s, ok := x.(string); ok && c.v.Alive(TypeReservation, s) {
		return s, nil
	}
	return "", errorf("Reservation %s not found", pyStr(x))
}

// flightDate is _get_flight_instance: the flight and the date's entity id.
func (c *callCtx) flightDate(number, date any) (*flightInfo, string, error) {
	if !hashable(number) {
		return nil, "", pyError(unhashable(number))
	}
	n, isStr := number.(string)
	i, ok := c.db.byNumber[n]
	if !ok || !isStr {
		return nil, "", errorf("Flight %s not found", pyStr(number))
	}
	if !hashable(date) {
		return nil, "", pyError(unhashable(date))
	}
	day, isStr := date.(string)
	if !isStr || !c.v.Alive(TypeFlightDate, n+"/"+day) {
		return nil, "", errorf("Flight %s not found on date %s", n, pyStr(date))
	}
	return &c.db.flights[i], n + "/" + day, nil
}

// The read-only tools.

func (c *callCtx) userDetails() (any, error) {
	u, err := c.user(c.arg("user_id"))
	if err != nil {
		return nil, err
	}
	return c.db.userDump(c.v, u, py), nil
}

func (c *callCtx) reservationDetails() (any, error) {
	r, err := c.reservation(c.arg("reservation_id"))
	if err != nil {
		return nil, err
	}
	return reservationDump(c.v, r, py), nil
}

func (c *callCtx) flightStatus() (any, error) {
	_, id, err := c.flightDate(c.arg("flight_number"), c.arg("date"))
	if err != nil {
		return nil, err
	}
	return fieldStr(c.v, TypeFlightDate, id, "status"), nil
}

// direct is _search_direct_flight: the flights available on date, in
// tau2's order, from origin and to destination unless nil, leaving at
// or after leaveAfter unless "".
func (c *callCtx) direct(date, origin, destination any, leaveAfter string) ([]*flightInfo, error) {
	var out []*flightInfo
	for i := range c.db.flights {
		fi := &c.db.flights[i]
		if origin != nil && !pyEqStr(origin, fi.origin) || destination != nil && !pyEqStr(destination, fi.destination) {
			continue
		}
		if !hashable(date) {
			return nil, pyError(unhashable(date))
		}
		day, ok := date.(string)
		if !ok || !c.v.Alive(TypeFlightDate, fi.number+"/"+day) || fieldStr(c.v, TypeFlightDate, fi.number+"/"+day, "status") != "available" {
			continue
		}
		if leaveAfter != "" && fi.departure < leaveAfter {
			continue
		}
		out = append(out, fi)
	}
	return out, nil
}

func (c *callCtx) searchDirect() (any, error) {
	date := c.arg("date")
	found, err := c.direct(date, c.arg("origin"), c.arg("destination"), "")
	if err != nil {
		return nil, err
	}
	out := []any{}
	for _, fi := range found {
		out = append(out, directFlightDump(c.v, fi, date.(string), nil))
	}
	return out, nil
}

func (c *callCtx) searchOnestop() (any, error) {
	date := c.arg("date")
	first, err := c.direct(date, c.arg("origin"), nil, "")
	if err != nil {
		return nil, err
	}
	out := []any{}
	for _, f1 := range first {
		day := date.(string) // a date some flight has
		day2 := day
		if strings.Contains(f1.arrival, "+1") {
			// tau2 writes the next day unpadded: 2024-05-1 follows 2024-05-09's "0" + 1
			r := []rune(day)
			n, err := strconv.Atoi(string(r[max(0, len(r)-2):]))
			if err != nil {
				return nil, errorf("invalid literal for int() with base 10: %s", pyRepr(string(r[max(0, len(r)-2):])))
			}
			day2 = "2024-05-" + strconv.Itoa(n+1)
		}
		second, err := c.direct(day2, f1.destination, c.arg("destination"), f1.arrival)
		if err != nil {
			return nil, err
		}
		leg1 := directFlightDump(c.v, f1, day, day)
		for _, f2 := range second {
			out = append(out, []any{leg1, directFlightDump(c.v, f2, day2, day2)})
		}
	}
	return out, nil
}

var airports = [][2]string{{"SFO", "San Francisco"}, {"JFK", "New York"}, {"LAX", "Los Angeles"}, {"ORD", "Chicago"},
	{"DFW", "Dallas"}, {"DEN", "Denver"}, {"SEA", "Seattle"}, {"ATL", "Atlanta"}, {"MIA", "Miami"}, {"BOS", "Boston"},
	{"PHX", "Phoenix"}, {"IAH", "Houston"}, {"LAS", "Las Vegas"}, {"MCO", "Orlando"}, {"EWR", "Newark"},
	{"CLT", "Charlotte"}, {"MSP", "Minneapolis"}, {"DTW", "Detroit"}, {"PHL", "Philadelphia"}, {"LGA", "LaGuardia"}}

func (c *callCtx) airports() (any, error) {
	out := make([]any, len(airports))
	for i, a := range airports {
		out[i] = tau2.Obj{{Key: "iata", Value: a[0]}, {Key: "city", Value: a[1]}}
	}
	return out, nil
}
