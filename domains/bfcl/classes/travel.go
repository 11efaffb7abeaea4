package classes

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/parthack/parthack/domains/bfcl/pyval"
)

// TravelToday is the day BFCL's verify_traveler_information takes as
// datetime.today() to compute a traveler's age, so its verdict depends
// on the day BFCL runs. A port makes the day an input: by default
// 2025-11-12, the day the staged real runs (gpt-oss-120b and
// gpt-oss-20b, vLLM main of 2025-11-12) were made and scored. No
// recorded result pins it closer: every date of birth in those runs is
// decades past 18. Tests set it to cross an 18th birthday.
var TravelToday = time.Date(2025, time.November, 12, 0, 0, 0, 0, time.UTC)

// travelSeed is random_seed in TravelAPI's DEFAULT_STATE.
const travelSeed = 141053

// travelClasses is str() of book_flight's set {"economy", "business",
// "first"}. A Python set prints in its strings' hash order, which
// PYTHONHASHSEED changes from process to process; this is the order
// PYTHONHASHSEED=0 gives, under which the expected results were made.
const travelClasses = "{'first', 'business', 'economy'}"

func init() {
	Register(&Class{
		Name: "TravelAPI",
		Init: func(self *Instance) {
			self.Set("_api_description", "This tool belongs to the travel system, which allows users to book flights, manage credit cards, and view budget information.")
			self.Set("_flight_cost_lookup", pyval.NewDict())
		},
		Load: travelLoad,
		Methods: map[string]*Method{
			"authenticate_travel":         {Params: travelParams("client_id", "client_secret", "refresh_token", "grant_type", "user_first_name", "user_last_name"), Body: travelAuthenticate},
			"travel_get_login_status":     {Body: travelLoginStatus},
			"get_budget_fiscal_year":      {Params: []Param{{Name: "lastModifiedAfter", HasDefault: true}, {Name: "includeRemoved", HasDefault: true}}, Body: travelBudgetFiscalYear},
			"register_credit_card":        {Params: travelParams("access_token", "card_number", "expiration_date", "cardholder_name", "card_verification_number"), Body: travelRegisterCreditCard},
			"get_flight_cost":             {Params: travelParams("travel_from", "travel_to", "travel_date", "travel_class"), Body: travelGetFlightCost},
			"get_credit_card_balance":     {Params: travelParams("access_token", "card_id"), Body: travelCreditCardBalance},
			"book_flight":                 {Params: travelParams("access_token", "card_id", "travel_date", "travel_from", "travel_to", "travel_class"), Body: travelBookFlight},
			"retrieve_invoice":            {Params: []Param{{Name: "access_token"}, {Name: "booking_id", HasDefault: true}, {Name: "insurance_id", HasDefault: true}}, Body: travelRetrieveInvoice},
			"get_booking_history":         {Params: travelParams("access_token"), Body: travelBookingHistory},
			"list_all_airports":           {Body: func(*Instance, []pyval.Value) (pyval.Value, error) { return travelAllAirports(), nil }},
			"cancel_booking":              {Params: travelParams("access_token", "booking_id"), Body: travelCancelBooking},
			"compute_exchange_rate":       {Params: travelParams("base_currency", "target_currency", "value"), Body: travelExchangeRate},
			"verify_traveler_information": {Params: travelParams("first_name", "last_name", "date_of_birth", "passport_number"), Body: travelVerifyTraveler},
			"set_budget_limit":            {Params: travelParams("access_token", "budget_limit"), Body: travelSetBudgetLimit},
			"get_nearest_airport_by_city": {Params: travelParams("location"), Body: travelNearestAirport},
			"purchase_insurance":          {Params: travelParams("access_token", "insurance_type", "booking_id", "insurance_cost", "card_id"), Body: travelPurchaseInsurance},
			"contact_customer_support":    {Params: travelParams("booking_id", "message"), Body: travelContactSupport},
			"get_all_credit_cards": {Body: func(self *Instance, _ []pyval.Value) (pyval.Value, error) {
				return travelDict("credit_card_list", travelAttr(self, "credit_card_list")), nil
			}},
		},
	})
}

// travelLoad is _load_scenario(scenario, long_context=False). With
// long_context False the long_context filler is never merged in, and
// get_flight_cost and book_flight take their short-context branches,
// the only ones ported: no method sets long_context.
func travelLoad(self *Instance, scenario *pyval.Dict) error {
	seed, ok := scenario.Get("random_seed")
	if !ok {
		seed = int64(travelSeed)
	}
	rng, err := pyval.NewRandom(seed)
	if err != nil {
		return fmt.Errorf("TravelAPI random_seed: %w", err)
	}
	self.Set("_random", rng)
	for _, name := range []string{"credit_card_list", "booking_record"} {
		v, ok := scenario.Get(name)
		if !ok {
			v = pyval.NewDict()
		}
		self.Set(name, v)
	}
	for _, name := range []string{"access_token", "token_type", "token_expires_in", "token_scope", "user_first_name", "user_last_name", "budget_limit"} {
		v, _ := scenario.Get(name)
		self.Set(name, v)
	}
	self.Set("long_context", false)
	return nil
}

// travelParams are required parameters, in order.
func travelParams(names ...string) []Param {
	out := make([]Param, len(names))
	for i, n := range names {
		out[i] = Param{Name: n}
	}
	return out
}

// travelDict is a dict literal of str keys and values, alternating.
func travelDict(kv ...pyval.Value) *pyval.Dict {
	d := pyval.NewDict()
	for i := 0; i+1 < len(kv); i += 2 {
		d.Set(kv[i], kv[i+1])
	}
	return d
}

// travelAttr is self.name (None where never set).
func travelAttr(self *Instance, name string) pyval.Value {
	v, _ := self.Get(name)
	return v
}

// travelRandint is self._random.randint(a, b).
func travelRandint(self *Instance, a, b int64) (int64, error) {
	rng, ok := travelAttr(self, "_random").(*pyval.Random)
	if !ok {
		return 0, pyval.Errorf("AttributeError", "'TravelAPI' object has no attribute '_random'")
	}
	return rng.Randint(a, b)
}

// travelID is str(self._random.randint(a, b)), the form every id takes.
func travelID(self *Instance, a, b int64) (string, error) {
	n, err := travelRandint(self, a, b)
	return strconv.FormatInt(n, 10), err
}

// travelTokenExpired is self.token_expires_in == 0.
func travelTokenExpired(self *Instance) bool {
	return pyval.Equal(travelAttr(self, "token_expires_in"), int64(0))
}

// travelWrongToken is access_token != self.access_token.
func travelWrongToken(self *Instance, token pyval.Value) bool {
	return !pyval.Equal(token, travelAttr(self, "access_token"))
}

// travelItem is container[k1][k2]...
func travelItem(container pyval.Value, keys ...pyval.Value) (pyval.Value, error) {
	v := container
	for _, k := range keys {
		var err error
		if v, err = pyval.GetItem(v, k); err != nil {
			return nil, err
		}
	}
	return v, nil
}

// travelAugmented is a op= b for op "+" or "-" on a value read from a
// container: a list extends in place, and an unsupported pair names the
// augmented operator, as Python's TypeError does.
func travelAugmented(op string, a, b pyval.Value) (pyval.Value, error) {
	if l, ok := a.(*pyval.List); ok && op == "+" {
		items, err := pyval.Iter(b)
		if err != nil {
			return nil, err
		}
		l.Items = append(l.Items, items...)
		return l, nil
	}
	f := pyval.Add
	if op == "-" {
		f = pyval.Sub
	}
	v, err := f(a, b)
	if e, ok := err.(*pyval.Exception); ok && strings.HasPrefix(e.Msg, "unsupported operand type(s) for "+op+":") {
		return nil, pyval.TypeError(strings.Replace(e.Msg, op+":", op+"=:", 1))
	}
	return v, err
}

// travelAddToBalance is self.credit_card_list[card_id]["balance"] op= amount.
func travelAddToBalance(self *Instance, card pyval.Value, op string, amount pyval.Value) error {
	c, err := travelItem(travelAttr(self, "credit_card_list"), card)
	if err != nil {
		return err
	}
	bal, err := pyval.GetItem(c, "balance")
	if err != nil {
		return err
	}
	nb, err := travelAugmented(op, bal, amount)
	if err != nil {
		return err
	}
	return pyval.SetItem(c, "balance", nb)
}

func travelAuthenticate(self *Instance, a []pyval.Value) (pyval.Value, error) {
	grantType, first, last := a[3], a[4], a[5]
	self.Set("token_expires_in", int64(2))
	token, err := travelID(self, 100000, 999999)
	if err != nil {
		return nil, err
	}
	self.Set("access_token", token)
	self.Set("token_type", "Bearer")
	self.Set("token_scope", grantType)
	self.Set("user_first_name", first)
	self.Set("user_last_name", last)
	return travelDict("expires_in", int64(2), "access_token", token, "token_type", "Bearer", "scope", grantType), nil
}

func travelLoginStatus(self *Instance, _ []pyval.Value) (pyval.Value, error) {
	notLoggedIn := travelAttr(self, "token_expires_in") == nil || travelTokenExpired(self)
	return travelDict("status", !notLoggedIn), nil
}

func travelBudgetFiscalYear(*Instance, []pyval.Value) (pyval.Value, error) {
	return travelDict("budget_fiscal_year", "2018"), nil
}

func travelRegisterCreditCard(self *Instance, a []pyval.Value) (pyval.Value, error) {
	token, number, expiration, holder, cvn := a[0], a[1], a[2], a[3], a[4]
	if travelAttr(self, "token_expires_in") == nil {
		return travelDict("error", "Token not initialized"), nil
	}
	if travelTokenExpired(self) {
		return travelDict("error", "Token expired"), nil
	}
	if travelWrongToken(self, token) {
		return travelDict("error", "Invalid access token"), nil
	}
	cards := travelAttr(self, "credit_card_list")
	if in, err := pyval.In(number, cards); err != nil || in {
		if err != nil {
			return nil, err
		}
		return travelDict("error", "Card already registered"), nil
	}
	cardID, err := travelID(self, 100000000000, 999999999999)
	if err != nil {
		return nil, err
	}
	balance, err := travelRandint(self, 10000, 99999)
	if err != nil {
		return nil, err
	}
	card := travelDict("card_number", number, "expiration_date", expiration, "cardholder_name", holder,
		"card_verification_number", cvn, "balance", balance)
	if err := pyval.SetItem(cards, cardID, card); err != nil {
		return nil, err
	}
	return travelDict("card_id", cardID), nil
}

// travelBaseCosts is get_flight_cost's base_costs, in its order.
var travelBaseCosts = []struct {
	from, to string
	cost     int64
}{
	{"SFO", "LAX", 200}, {"SFO", "JFK", 500}, {"SFO", "ORD", 400}, {"SFO", "BOS", 450}, {"SFO", "RMS", 300},
	{"SFO", "SBK", 350}, {"SFO", "MPC", 370}, {"SFO", "SVP", 320}, {"SFO", "SHD", 330}, {"SFO", "SSV", 340},
	{"SFO", "OKD", 360}, {"SFO", "WLB", 310}, {"SFO", "CRH", 380}, {"SFO", "ATV", 390}, {"SFO", "PHV", 420},
	{"SFO", "GFD", 430}, {"SFO", "CIA", 700}, {"LAX", "SFO", 100}, {"LAX", "JFK", 600}, {"LAX", "ORD", 500},
	{"LAX", "BOS", 550}, {"LAX", "RMS", 310}, {"LAX", "SBK", 320}, {"LAX", "MPC", 330}, {"LAX", "SVP", 340},
	{"LAX", "SHD", 350}, {"LAX", "SSV", 360}, {"LAX", "OKD", 370}, {"LAX", "WLB", 380}, {"LAX", "CRH", 390},
	{"LAX", "ATV", 400}, {"LAX", "PHV", 410}, {"LAX", "GFD", 420}, {"LAX", "HND", 430}, {"JFK", "ORD", 300},
	{"JFK", "BOS", 250}, {"JFK", "RMS", 450}, {"JFK", "SBK", 460}, {"JFK", "MPC", 470}, {"JFK", "SVP", 480},
	{"JFK", "SHD", 490}, {"JFK", "SSV", 500}, {"JFK", "OKD", 510}, {"JFK", "WLB", 520}, {"JFK", "CRH", 530},
	{"JFK", "ATV", 540}, {"JFK", "PHV", 550}, {"JFK", "GFD", 560}, {"JFK", "LAX", 570}, {"JFK", "HND", 800},
	{"JFK", "PVG", 950}, {"JFK", "PEK", 1000}, {"ORD", "LAX", 180}, {"ORD", "BOS", 200}, {"ORD", "RMS", 350},
	{"ORD", "SBK", 360}, {"ORD", "MPC", 370}, {"ORD", "SVP", 380}, {"ORD", "SHD", 390}, {"ORD", "SSV", 400},
	{"ORD", "OKD", 410}, {"ORD", "WLB", 420}, {"ORD", "CRH", 430}, {"ORD", "ATV", 440}, {"ORD", "PHV", 450},
	{"ORD", "GFD", 460}, {"BOS", "RMS", 400}, {"BOS", "SBK", 410}, {"BOS", "MPC", 420}, {"BOS", "SVP", 430},
	{"BOS", "SHD", 440}, {"BOS", "SSV", 450}, {"BOS", "OKD", 460}, {"BOS", "WLB", 470}, {"BOS", "CRH", 480},
	{"BOS", "ATV", 490}, {"BOS", "PHV", 500}, {"BOS", "GFD", 510}, {"RMS", "BOS", 200}, {"RMS", "JFK", 210},
	{"RMS", "SBK", 220}, {"RMS", "MPC", 230}, {"RMS", "SVP", 240}, {"RMS", "SHD", 250}, {"RMS", "SSV", 260},
	{"RMS", "OKD", 270}, {"RMS", "WLB", 280}, {"RMS", "CRH", 290}, {"RMS", "ATV", 300}, {"RMS", "PHV", 310},
	{"RMS", "GFD", 320}, {"RMS", "LAX", 330}, {"SBK", "MPC", 200}, {"SBK", "SVP", 210}, {"SBK", "SHD", 220},
	{"SBK", "SSV", 230}, {"SBK", "OKD", 240}, {"SBK", "WLB", 250}, {"SBK", "CRH", 260}, {"SBK", "ATV", 270},
	{"SBK", "PHV", 280}, {"SBK", "GFD", 290}, {"MPC", "SVP", 210}, {"MPC", "SHD", 220}, {"MPC", "SSV", 230},
	{"MPC", "OKD", 240}, {"MPC", "WLB", 250}, {"MPC", "CRH", 260}, {"MPC", "ATV", 270}, {"MPC", "PHV", 280},
	{"MPC", "GFD", 290}, {"SVP", "SHD", 230}, {"SVP", "SSV", 240}, {"SVP", "OKD", 250}, {"SVP", "WLB", 260},
	{"SVP", "CRH", 270}, {"SVP", "ATV", 280}, {"SVP", "PHV", 290}, {"SVP", "GFD", 300}, {"SHD", "SSV", 220},
	{"SHD", "OKD", 230}, {"SHD", "WLB", 240}, {"SHD", "CRH", 250}, {"SHD", "ATV", 260}, {"SHD", "PHV", 270},
	{"SHD", "GFD", 280}, {"SSV", "OKD", 240}, {"SSV", "WLB", 250}, {"SSV", "CRH", 260}, {"SSV", "ATV", 270},
	{"SSV", "PHV", 280}, {"SSV", "GFD", 290}, {"OKD", "WLB", 230}, {"OKD", "CRH", 240}, {"OKD", "ATV", 250},
	{"OKD", "PHV", 260}, {"OKD", "GFD", 270}, {"WLB", "CRH", 250}, {"WLB", "ATV", 260}, {"WLB", "PHV", 270},
	{"WLB", "GFD", 280}, {"CRH", "ATV", 240}, {"CRH", "PHV", 250}, {"CRH", "GFD", 260}, {"CRH", "SFO", 270},
	{"CRH", "RMS", 280}, {"CRH", "HKG", 290}, {"CRH", "JFK", 300}, {"ATV", "PHV", 230}, {"ATV", "GFD", 240},
	{"PHV", "GFD", 220}, {"LHR", "CDG", 100}, {"OKD", "LAX", 220},
}

// travelBaseCost is base_costs[(from, to)]: the pair is hashed first (a list
// in it raises), and only two str equal a key.
func travelBaseCost(from, to pyval.Value) (int64, bool, error) {
	if _, err := pyval.HashKey(pyval.Tuple{from, to}); err != nil {
		return 0, false, err
	}
	f, ok1 := from.(string)
	t, ok2 := to.(string)
	if ok1 && ok2 {
		for _, c := range travelBaseCosts {
			if c.from == f && c.to == t {
				return c.cost, true, nil
			}
		}
	}
	return 0, false, nil
}

// travelFlightCost is get_flight_cost's body: its one cost, also left in
// self._flight_cost_lookup under "from|to|class|date".
func travelFlightCost(self *Instance, from, to, date, class pyval.Value) (float64, error) {
	base, ok, err := travelBaseCost(from, to)
	if err != nil {
		return 0, err
	}
	if !ok {
		return 0, pyval.ValueError("No available route for the given airports.")
	}
	var factor int64
	switch class {
	case "economy":
		factor = 1
	case "business":
		factor = 2
	case "first":
		factor = 5
	default:
		return 0, pyval.ValueError("Invalid travel class. Options are: economy, business, first.")
	}
	chars, err := pyval.Iter(date)
	if err != nil {
		return 0, err
	}
	var digitSum pyval.Value = int64(0)
	for _, ch := range chars {
		s, ok := ch.(string)
		if !ok {
			return 0, pyval.AttributeError(ch, "isdigit")
		}
		if !pyval.IsDigit(s) {
			continue
		}
		n, err := travelDigitInt(s)
		if err != nil {
			return 0, err
		}
		if digitSum, err = pyval.Add(digitSum, n); err != nil {
			return 0, err
		}
	}
	odd, err := pyval.Mod(digitSum, int64(2))
	if err != nil {
		return 0, err
	}
	multiplier := int64(1)
	if pyval.Equal(odd, int64(0)) {
		multiplier = 2
	}
	cost := float64(base * factor * multiplier)
	key := pyval.Str(from) + "|" + pyval.Str(to) + "|" + pyval.Str(class) + "|" + pyval.Str(date)
	self.Set("_flight_cost_lookup", travelDict(key, travelDict("cost", cost)))
	return cost, nil
}

// travelDigitInt is int(s) for a string s.isdigit() accepts: Unicode decimal
// digits read as their values, as int() reads them; other digits
// (superscripts, circled digits) are no decimal literal.
func travelDigitInt(s string) (pyval.Value, error) {
	var b strings.Builder
	for _, r := range s {
		if !unicode.IsDigit(r) {
			return nil, pyval.ValueError("invalid literal for int() with base 10: " + pyval.StrRepr(s))
		}
		b.WriteByte(byte('0' + travelDecimalValue(r)))
	}
	return pyval.ToInt(b.String())
}

// travelDecimalValue is a Unicode decimal digit's value: decimal digits come in
// runs of ten from zero, so it is the distance from its run's start,
// modulo ten.
func travelDecimalValue(r rune) int {
	start := r
	for unicode.IsDigit(start - 1) {
		start--
	}
	return int(r-start) % 10
}

func travelGetFlightCost(self *Instance, a []pyval.Value) (pyval.Value, error) {
	cost, err := travelFlightCost(self, a[0], a[1], a[2], a[3])
	if err != nil {
		return nil, err
	}
	return travelDict("travel_cost_list", pyval.NewList(cost)), nil
}

func travelCreditCardBalance(self *Instance, a []pyval.Value) (pyval.Value, error) {
	token, card := a[0], a[1]
	if travelTokenExpired(self) {
		return travelDict("error", "Token expired"), nil
	}
	if travelWrongToken(self, token) {
		return travelDict("error", "Invalid access token"), nil
	}
	cards := travelAttr(self, "credit_card_list")
	in, err := pyval.In(card, cards)
	if err != nil {
		return nil, err
	}
	if !in {
		keys, err := pyval.Iter(cards)
		if err != nil {
			return nil, err
		}
		return travelDict("error", "Card not registered. Here are a list of card_id's: "+pyval.Str(pyval.NewList(keys...))), nil
	}
	bal, err := travelItem(cards, card, "balance")
	if err != nil {
		return nil, err
	}
	return travelDict("card_balance", bal), nil
}

// travelAirports is list_all_airports's list.
var travelAirports = []string{"RMS", "SBK", "MPC", "SVP", "SHD", "CDG", "LHR", "SSV", "OKD", "WLB", "PEK", "HND",
	"HKG", "CIA", "CRH", "ATV", "PHV", "GFD", "SFO", "LAX", "JFK", "ORD", "BOS"}

func travelAllAirports() *pyval.List {
	l := pyval.NewList()
	for _, a := range travelAirports {
		l.Items = append(l.Items, a)
	}
	return l
}

func travelBookFlight(self *Instance, a []pyval.Value) (pyval.Value, error) {
	token, card, date, from, to, class := a[0], a[1], a[2], a[3], a[4], a[5]
	fail := func(msg string) (pyval.Value, error) {
		return travelDict("booking_status", false, "error", msg), nil
	}
	if travelTokenExpired(self) {
		return fail("Token expired")
	}
	if travelWrongToken(self, token) {
		return fail("Invalid access token")
	}
	cards := travelAttr(self, "credit_card_list")
	if in, err := pyval.In(card, cards); err != nil || !in {
		if err != nil {
			return nil, err
		}
		return fail("Card not registered")
	}
	info, err := pyval.GetItem(cards, card)
	if err != nil {
		return nil, err
	}
	if in, err := pyval.In("balance", info); err != nil || !in {
		if err != nil {
			return nil, err
		}
		return fail("Balance not found")
	}
	all := travelAllAirports()
	if in, _ := pyval.In(from, all); !in {
		return fail("Invalid departure airport code: " + pyval.Str(from))
	}
	if in, _ := pyval.In(to, all); !in {
		return fail("Invalid destination airport code: " + pyval.Str(to))
	}
	if _, err := travelStrptime(date); err != nil {
		if e, ok := err.(*pyval.Exception); ok && e.Type == "ValueError" {
			return fail("Invalid date format. Use YYYY-MM-DD.")
		}
		return nil, err
	}
	if _, err := pyval.HashKey(class); err != nil {
		return nil, err
	}
	if class != "economy" && class != "business" && class != "first" {
		return fail("Invalid travel class. Must be one of " + travelClasses)
	}
	if _, err := travelFlightCost(self, from, to, date, class); err != nil {
		if e, ok := err.(*pyval.Exception); ok && e.Type == "ValueError" {
			return fail(e.Msg)
		}
		return nil, err
	}
	key := pyval.Str(from) + "|" + pyval.Str(to) + "|" + pyval.Str(class) + "|" + pyval.Str(date)
	entry, ok := travelAttr(self, "_flight_cost_lookup").(*pyval.Dict).Get(key)
	if !ok {
		return fail("No available route for the given parameters")
	}
	cost, err := pyval.GetItem(entry, "cost")
	if err != nil {
		return nil, err
	}
	bal, err := pyval.GetItem(info, "balance")
	if err != nil {
		return nil, err
	}
	if less, err := pyval.Compare("<", bal, cost); err != nil || less {
		if err != nil {
			return nil, err
		}
		return fail("Insufficient funds")
	}
	if limit := travelAttr(self, "budget_limit"); limit != nil {
		if less, err := pyval.Compare("<", bal, limit); err != nil || less {
			if err != nil {
				return nil, err
			}
			return fail("Balance is less than budget limit")
		}
	}
	if err := travelAddToBalance(self, card, "-", cost); err != nil {
		return nil, err
	}
	bookingID, err := travelID(self, 1000000, 9999999)
	if err != nil {
		return nil, err
	}
	transactionID, err := travelID(self, 10000000, 99999999)
	if err != nil {
		return nil, err
	}
	record := travelDict("card_id", card, "travel_date", date, "travel_from", from, "travel_to", to,
		"travel_class", class, "travel_cost", cost, "transaction_id", transactionID)
	if err := pyval.SetItem(travelAttr(self, "booking_record"), bookingID, record); err != nil {
		return nil, err
	}
	return travelDict("booking_id", bookingID, "transaction_id", transactionID, "booking_status", true,
		"booking_history", pyval.NewDict()), nil
}

func travelRetrieveInvoice(self *Instance, a []pyval.Value) (pyval.Value, error) {
	token, booking := a[0], a[1]
	if travelTokenExpired(self) {
		return travelDict("error", "Token expired"), nil
	}
	if travelWrongToken(self, token) {
		return travelDict("error", "Invalid access token"), nil
	}
	records := travelAttr(self, "booking_record")
	in, err := pyval.In(booking, records)
	if err != nil {
		return nil, err
	}
	if !in {
		return travelDict("error", "Booking not found"), nil
	}
	invoice := travelDict("booking_id", booking)
	for _, k := range []string{"travel_date", "travel_from", "travel_to", "travel_class", "travel_cost", "transaction_id"} {
		v, err := travelItem(records, booking, k)
		if err != nil {
			return nil, err
		}
		invoice.Set(k, v)
	}
	return travelDict("invoice", invoice), nil
}

func travelBookingHistory(self *Instance, a []pyval.Value) (pyval.Value, error) {
	if travelTokenExpired(self) {
		return travelDict("error", "Token expired"), nil
	}
	if travelWrongToken(self, a[0]) {
		return travelDict("error", "Invalid access token"), nil
	}
	return travelDict("booking_history", pyval.DeepCopy(travelAttr(self, "booking_record"))), nil
}

func travelCancelBooking(self *Instance, a []pyval.Value) (pyval.Value, error) {
	token, booking := a[0], a[1]
	fail := func(msg string) (pyval.Value, error) {
		return travelDict("cancel_status", false, "error", msg), nil
	}
	if travelTokenExpired(self) {
		return fail("Token expired")
	}
	if travelWrongToken(self, token) {
		return fail("Invalid access token")
	}
	records := travelAttr(self, "booking_record")
	in, err := pyval.In(booking, records)
	if err != nil {
		return nil, err
	}
	if !in {
		return fail("Booking not found")
	}
	card, err := travelItem(records, booking, "card_id")
	if err != nil {
		return nil, err
	}
	cost, err := travelItem(records, booking, "travel_cost")
	if err != nil {
		return nil, err
	}
	if err := travelAddToBalance(self, card, "+", cost); err != nil {
		return nil, err
	}
	if err := pyval.DelItem(records, booking); err != nil {
		return nil, err
	}
	return travelDict("cancel_status", true), nil
}

// travelExchangeRates is compute_exchange_rate's table, in its order.
var travelExchangeRates = []struct {
	base, target string
	rate         pyval.Value
}{
	{"USD", "RMB", int64(7)}, {"USD", "EUR", 0.8}, {"USD", "JPY", int64(110)}, {"USD", "GBP", 0.7},
	{"USD", "CAD", 1.3}, {"USD", "AUD", 1.4}, {"USD", "INR", int64(70)}, {"USD", "RUB", int64(60)},
	{"USD", "BRL", 3.8}, {"USD", "MXN", int64(20)},
}

func travelExchangeRate(_ *Instance, a []pyval.Value) (pyval.Value, error) {
	base, target, value := a[0], a[1], a[2]
	for _, r := range travelExchangeRates {
		switch {
		case base == r.base && target == r.target:
			v, err := pyval.Mul(value, r.rate)
			if err != nil {
				return nil, err
			}
			f, err := pyval.ToFloat(v)
			if err != nil {
				return nil, err
			}
			return travelDict("exchanged_value", f), nil
		case base == r.target && target == r.base:
			v, err := pyval.TrueDiv(value, r.rate)
			if err != nil {
				return nil, err
			}
			if v, err = pyval.Round(v, int64(2)); err != nil {
				return nil, err
			}
			return travelDict("exchanged_value", v), nil
		}
	}
	return nil, pyval.ValueError("No available exchange rate for the given currencies.")
}

func travelVerifyTraveler(self *Instance, a []pyval.Value) (pyval.Value, error) {
	first, last, birth, passport := a[0], a[1], a[2], a[3]
	fail := func(msg string) (pyval.Value, error) {
		return travelDict("verification_status", false, "verification_failure", msg), nil
	}
	wantFirst, wantLast := travelAttr(self, "user_first_name"), travelAttr(self, "user_last_name")
	if !pyval.Equal(wantFirst, first) || !pyval.Equal(wantLast, last) {
		return fail("Cannot book flight information for another user." +
			fmt.Sprintf("Expected %s %s, got %s %s", pyval.Str(wantFirst), pyval.Str(wantLast), pyval.Str(first), pyval.Str(last)))
	}
	born, err := travelStrptime(birth)
	if err != nil {
		if e, ok := err.(*pyval.Exception); ok && e.Type == "ValueError" {
			return fail("Invalid date of birth format. Please use YYYY-MM-DD.")
		}
		return nil, err
	}
	today := TravelToday
	age := today.Year() - born.year
	if today.Month() < time.Month(born.month) || today.Month() == time.Month(born.month) && today.Day() < born.day {
		age--
	}
	if age < 18 {
		return fail("Traveler must be at least 18 years old.")
	}
	p, ok := passport.(string)
	if !ok {
		return nil, pyval.AttributeError(passport, "startswith")
	}
	if !strings.HasPrefix(p, "US") {
		return fail("Passport must be issued by the United States.")
	}
	return travelDict("verification_status", true), nil
}

func travelSetBudgetLimit(self *Instance, a []pyval.Value) (pyval.Value, error) {
	if travelTokenExpired(self) {
		return travelDict("error", "Token expired"), nil
	}
	if travelWrongToken(self, a[0]) {
		return travelDict("error", "Invalid access token"), nil
	}
	limit, err := pyval.ToFloat(a[1])
	if err != nil {
		return nil, err
	}
	self.Set("budget_limit", limit)
	return travelDict("budget_limit", limit), nil
}

// travelAirportMap is get_nearest_airport_by_city's map.
var travelAirportMap = map[string]string{
	"Rivermist": "RMS", "Stonebrook": "SBK", "Maplecrest": "MPC", "Silverpine": "SVP", "Shadowridge": "SHD",
	"London": "LHR", "Paris": "CDG", "Sunset Valley": "SSV", "Oakendale": "OKD", "Willowbend": "WLB",
	"Crescent Hollow": "CRH", "Autumnville": "ATV", "Pinehaven": "PHV", "Greenfield": "GFD",
	"San Francisco": "SFO", "Los Angeles": "LAX", "New York": "JFK", "Chicago": "ORD", "Boston": "BOS",
	"Beijing": "PEK", "Hong Kong": "HKG", "Rome": "CIA", "Tokyo": "HND",
}

func travelNearestAirport(_ *Instance, a []pyval.Value) (pyval.Value, error) {
	if _, err := pyval.HashKey(a[0]); err != nil {
		return nil, err
	}
	airport := "Unknown"
	if s, ok := a[0].(string); ok {
		if code, ok := travelAirportMap[s]; ok {
			airport = code
		}
	}
	return travelDict("nearest_airport", airport), nil
}

func travelPurchaseInsurance(self *Instance, a []pyval.Value) (pyval.Value, error) {
	token, booking, cost, card := a[0], a[2], a[3], a[4]
	fail := func(msg string) (pyval.Value, error) {
		return travelDict("insurance_status", false, "error", msg), nil
	}
	if travelTokenExpired(self) {
		return fail("Token expired")
	}
	if travelWrongToken(self, token) {
		return fail("Invalid access token")
	}
	if limit := travelAttr(self, "budget_limit"); limit != nil {
		if less, err := pyval.Compare("<", limit, cost); err != nil || less {
			if err != nil {
				return nil, err
			}
			return fail("Exceeded budget limit")
		}
	}
	if in, err := pyval.In(booking, travelAttr(self, "booking_record")); err != nil || !in {
		if err != nil {
			return nil, err
		}
		return fail("Booking not found")
	}
	if in, err := pyval.In(card, travelAttr(self, "credit_card_list")); err != nil || !in {
		if err != nil {
			return nil, err
		}
		return fail("Credit card not registered")
	}
	if err := travelAddToBalance(self, card, "-", cost); err != nil {
		return nil, err
	}
	id, err := travelID(self, 100000000, 999999999)
	if err != nil {
		return nil, err
	}
	return travelDict("insurance_id", id, "insurance_status", true), nil
}

func travelContactSupport(self *Instance, a []pyval.Value) (pyval.Value, error) {
	in, err := pyval.In(a[0], travelAttr(self, "booking_record"))
	if err != nil {
		return nil, err
	}
	if !in {
		return travelDict("error", "Booking not found"), nil
	}
	return travelDict("customer_support_message", "Thank you for contacting customer support. Your message has been received and we will get back to you shortly."), nil
}

// travelDate is a date strptime read.
type travelDate struct{ year, month, day int }

// travelStrptime is datetime.strptime(s, "%Y-%m-%d") as Python's _strptime
// reads it: the pattern (?P<Y>\d\d\d\d)-(?P<m>1[0-2]|0[1-9]|[1-9])-
// (?P<d>3[01]|[12]\d|0[1-9]|[1-9]| [1-9]) matched from the start, its
// alternatives tried in order, \d any Unicode decimal digit; then the
// whole string consumed and the day checked against the month. Its
// errors are Python's: TypeError for a non-str, ValueError texts for
// the rest.
func travelStrptime(v pyval.Value) (travelDate, error) {
	s, ok := v.(string)
	if !ok {
		// CPython's argument check names None as "None", not its type.
		name := "None"
		if v != nil {
			name = pyval.TypeName(v)
		}
		return travelDate{}, pyval.TypeError("strptime() argument 1 must be str, not " + name)
	}
	noMatch := pyval.ValueError(fmt.Sprintf("time data %s does not match format '%%Y-%%m-%%d'", pyval.StrRepr(s)))
	rs := []rune(s)
	at := func(i int) rune {
		if i < len(rs) {
			return rs[i]
		}
		return -1
	}
	digit := func(i int) bool { return i < len(rs) && unicode.IsDigit(rs[i]) }
	if !(digit(0) && digit(1) && digit(2) && digit(3)) || at(4) != '-' {
		return travelDate{}, noMatch
	}
	var d travelDate
	for _, r := range rs[:4] {
		d.year = d.year*10 + travelDecimalValue(r)
	}
	i := 5
	switch c0, c1 := at(i), at(i+1); {
	case c0 == '1' && c1 >= '0' && c1 <= '2':
		d.month, i = 10+int(c1-'0'), i+2
	case c0 == '0' && c1 >= '1' && c1 <= '9':
		d.month, i = int(c1-'0'), i+2
	case c0 >= '1' && c0 <= '9':
		d.month, i = int(c0-'0'), i+1
	default:
		return travelDate{}, noMatch
	}
	if at(i) != '-' {
		return travelDate{}, noMatch
	}
	i++
	switch c0, c1 := at(i), at(i+1); {
	case c0 == '3' && (c1 == '0' || c1 == '1'):
		d.day, i = 30+int(c1-'0'), i+2
	case (c0 == '1' || c0 == '2') && digit(i+1):
		d.day, i = 10*int(c0-'0')+travelDecimalValue(c1), i+2
	case c0 == '0' && c1 >= '1' && c1 <= '9':
		d.day, i = int(c1-'0'), i+2
	case c0 >= '1' && c0 <= '9':
		d.day, i = int(c0-'0'), i+1
	case c0 == ' ' && c1 >= '1' && c1 <= '9':
		d.day, i = int(c1-'0'), i+2
	default:
		return travelDate{}, noMatch
	}
	if i < len(rs) {
		return travelDate{}, pyval.ValueError("unconverted data remains: " + string(rs[i:]))
	}
	if d.year < 1 {
		return travelDate{}, pyval.ValueError(fmt.Sprintf("year %d is out of range", d.year))
	}
	if last := time.Date(d.year, time.Month(d.month)+1, 0, 0, 0, 0, 0, time.UTC).Day(); d.day > last {
		return travelDate{}, pyval.ValueError("day is out of range for month")
	}
	return d, nil
}
