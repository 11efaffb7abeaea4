package classes

import (
	"regexp"
	"sync"
	"time"

	"github.com/parthack/parthack/domains/bfcl/pyval"
)

// TradingBot is BFCL's trading_bot.py: orders, an account, a watch list
// and stock quotes, ported method by method over pyval values.
//
// Time: CURRENT_TIME is the naive datetime(2024, 9, 1, 10, 30), and a
// deposit's or withdrawal's timestamp is datetime.fromtimestamp of a
// random draw between CURRENT_TIME.timestamp() and a day later, both read
// in the local time zone. The port reads both in UTC. The zone's offset
// cancels unless its clock changes within that day, and no zone of the
// tz database does (2024-09-01 10:30 to 09-02 10:30): BFCL's Python
// writes the same timestamps under TZ=UTC, America/Los_Angeles,
// Asia/Kolkata and Pacific/Chatham, and the real runs' recorded ones
// (the seed's first draw, "2024-09-02 05:40:15") agree.
// get_transaction_history compares naive datetimes, with no zone.
func init() {
	Register(&Class{
		Name: "TradingBot",
		Init: func(self *Instance) {
			self.Set("_api_description", "This tool belongs to the trading system, which allows users to trade stocks, manage their account, and view stock information.")
		},
		Load: tradingLoad,
		Methods: map[string]*Method{
			"get_current_time":            {Body: tradingGetCurrentTime},
			"get_symbol_by_name":          {Params: tradeParams("name"), Body: tradingGetSymbolByName},
			"get_stock_info":              {Params: tradeParams("symbol"), Body: tradingGetStockInfo},
			"get_order_details":           {Params: tradeParams("order_id"), Body: tradingGetOrderDetails},
			"cancel_order":                {Params: tradeParams("order_id"), Body: tradingCancelOrder},
			"place_order":                 {Params: tradeParams("order_type", "symbol", "price", "amount"), Body: tradingPlaceOrder},
			"withdraw_funds":              {Params: tradeParams("amount"), Body: tradingWithdrawFunds},
			"get_account_info":            {Body: tradingGetAccountInfo},
			"trading_login":               {Params: tradeParams("username", "password"), Body: tradingLogin},
			"trading_get_login_status":    {Body: tradingGetLoginStatus},
			"trading_logout":              {Body: tradingLogout},
			"fund_account":                {Params: tradeParams("amount"), Body: tradingFundAccount},
			"remove_stock_from_watchlist": {Params: tradeParams("symbol"), Body: tradingRemoveStockFromWatchlist},
			"get_watchlist":               {Body: tradingGetWatchlist},
			"get_order_history":           {Body: tradingGetOrderHistory},
			"get_transaction_history": {Params: []Param{
				{Name: "start_date", HasDefault: true}, {Name: "end_date", HasDefault: true},
			}, Body: tradingGetTransactionHistory},
			"get_available_stocks":   {Params: tradeParams("sector"), Body: tradingGetAvailableStocks},
			"filter_stocks_by_price": {Params: tradeParams("stocks", "min_price", "max_price"), Body: tradingFilterStocksByPrice},
			"add_to_watchlist":       {Params: tradeParams("stock"), Body: tradingAddToWatchlist},
			"notify_price_change":    {Params: tradeParams("stocks", "threshold"), Body: tradingNotifyPriceChange},
		},
	})
}

// tradingCurrentTime is trading_bot.py's CURRENT_TIME, read in UTC.
var tradingCurrentTime = time.Date(2024, 9, 1, 10, 30, 0, 0, time.UTC)

// tradingDefaultState is trading_bot.py's DEFAULT_STATE but its orders,
// whose keys are ints there: _load_scenario turns digit-string keys into
// ints, so JSON's string keys load alike.
const tradingDefaultState = `{
 "orders": {
  "12345": {"id": 12345, "order_type": "Buy", "symbol": "AAPL", "price": 210.65, "amount": 10, "status": "Completed"},
  "12446": {"id": 12446, "order_type": "Sell", "symbol": "GOOG", "price": 2840.56, "amount": 5, "status": "Pending"}
 },
 "account_info": {"account_id": 12345, "balance": 10000.0, "binding_card": 1974202140965533},
 "authenticated": false,
 "market_status": "Closed",
 "order_counter": 12446,
 "stocks": {
  "AAPL": {"price": 227.16, "percent_change": 0.17, "volume": 2.552, "MA(5)": 227.11, "MA(20)": 227.09},
  "GOOG": {"price": 2840.34, "percent_change": 0.24, "volume": 1.123, "MA(5)": 2835.67, "MA(20)": 2842.15},
  "TSLA": {"price": 667.92, "percent_change": -0.12, "volume": 1.654, "MA(5)": 671.15, "MA(20)": 668.20},
  "MSFT": {"price": 310.23, "percent_change": 0.09, "volume": 3.234, "MA(5)": 309.88, "MA(20)": 310.11},
  "NVDA": {"price": 220.34, "percent_change": 0.34, "volume": 1.234, "MA(5)": 220.45, "MA(20)": 220.67},
  "ALPH": {"price": 1320.45, "percent_change": -0.08, "volume": 1.567, "MA(5)": 1321.12, "MA(20)": 1325.78},
  "OMEG": {"price": 457.23, "percent_change": 0.12, "volume": 2.345, "MA(5)": 456.78, "MA(20)": 458.12},
  "QUAS": {"price": 725.89, "percent_change": -0.03, "volume": 1.789, "MA(5)": 726.45, "MA(20)": 728.00},
  "NEPT": {"price": 88.34, "percent_change": 0.19, "volume": 0.654, "MA(5)": 88.21, "MA(20)": 88.67},
  "SYNX": {"price": 345.67, "percent_change": 0.11, "volume": 2.112, "MA(5)": 345.34, "MA(20)": 346.12},
  "ZETA": {"price": 22.09, "percent_change": -0.05, "volume": 0.789, "MA(5)": 22.12, "MA(20)": 22.34}
 },
 "watch_list": ["NVDA"],
 "transaction_history": [],
 "random_seed": 1053520
}`

// tradeParams are parameters without defaults.
func tradeParams(names ...string) []Param {
	ps := make([]Param, len(names))
	for i, n := range names {
		ps[i] = Param{Name: n}
	}
	return ps
}

// tradeAttr reads an attribute _load_scenario set.
func tradeAttr(self *Instance, name string) pyval.Value {
	v, _ := self.Get(name)
	return v
}

// tradeDictGet is v.get(key, def) on a value that should be a dict.
func tradeDictGet(v, key, def pyval.Value) (pyval.Value, error) {
	d, ok := v.(*pyval.Dict)
	if !ok {
		return nil, pyval.AttributeError(v, "get")
	}
	return d.GetOr(key, def)
}

// tradeErr is {"error": msg}.
func tradeErr(msg string) *pyval.Dict { return pyval.DictOf(pyval.Item{Key: "error", Value: msg}) }

// tradeDict is a dict of alternating str keys and values.
func tradeDict(kv ...pyval.Value) *pyval.Dict {
	d := pyval.NewDict()
	for i := 0; i+1 < len(kv); i += 2 {
		d.Set(kv[i], kv[i+1])
	}
	return d
}

// tradingDefault is DEFAULT_STATE, decoded once: a load takes a deep
// copy of each value it uses, as _load_scenario reads its deep copy.
var tradingDefault = sync.OnceValues(func() (pyval.Value, error) { return pyval.Loads([]byte(tradingDefaultState)) })

func tradingLoad(self *Instance, scenario *pyval.Dict) error {
	def, err := tradingDefault()
	if err != nil {
		return err
	}
	dflt := def.(*pyval.Dict)
	get := func(key string) (pyval.Value, error) {
		if v, ok := scenario.Get(key); ok {
			return v, nil
		}
		d, _ := dflt.Get(key)
		return pyval.DeepCopy(d), nil
	}
	orders, err := get("orders")
	if err != nil {
		return err
	}
	od, ok := orders.(*pyval.Dict)
	if !ok {
		return pyval.AttributeError(orders, "items")
	}
	converted := pyval.NewDict()
	for _, it := range od.Items() {
		k := it.Key
		if s, ok := k.(string); ok && pyval.IsDigit(s) {
			if k, err = pyval.ToInt(s); err != nil {
				return err
			}
		}
		if err := converted.SetItem(k, it.Value); err != nil {
			return err
		}
	}
	self.Set("orders", converted)
	for _, name := range []string{"account_info", "authenticated", "market_status", "order_counter", "stocks", "watch_list", "transaction_history"} {
		v, err := get(name)
		if err != nil {
			return err
		}
		self.Set(name, v)
	}
	self.Set("long_context", false)
	seed, err := get("random_seed")
	if err != nil {
		return err
	}
	r, err := pyval.NewRandom(seed)
	if err != nil {
		return err
	}
	self.Set("_random", r)
	return nil
}

// tradingTimestamp is _generate_transaction_timestamp: a second drawn in
// the day after CURRENT_TIME, written as "2024-09-02 05:40:15".
func tradingTimestamp(self *Instance) (string, error) {
	r, ok := tradeAttr(self, "_random").(*pyval.Random)
	if !ok {
		return "", pyval.AttributeError(tradeAttr(self, "_random"), "randint")
	}
	start := tradingCurrentTime.Unix()
	end := tradingCurrentTime.AddDate(0, 0, 1).Unix()
	t, err := r.Randint(start, end)
	if err != nil {
		return "", err
	}
	return time.Unix(t, 0).UTC().Format("2006-01-02 15:04:05"), nil
}

func tradingGetCurrentTime(self *Instance, args []pyval.Value) (pyval.Value, error) {
	return tradeDict("current_time", tradingCurrentTime.Format("03:04 PM")), nil
}

func tradingGetSymbolByName(self *Instance, args []pyval.Value) (pyval.Value, error) {
	symbols := tradeDict(
		"Apple", "AAPL", "Google", "GOOG", "Tesla", "TSLA", "Microsoft", "MSFT",
		"Nvidia", "NVDA", "Zeta Corp", "ZETA", "Alpha Tech", "ALPH",
		"Omega Industries", "OMEG", "Quasar Ltd.", "QUAS", "Neptune Systems", "NEPT",
		"Synex Solutions", "SYNX", "Amazon", "AMZN", "Gorilla", "GORI",
	)
	s, err := symbols.GetOr(args[0], "Stock not found")
	if err != nil {
		return nil, err
	}
	return tradeDict("symbol", s), nil
}

func tradingGetStockInfo(self *Instance, args []pyval.Value) (pyval.Value, error) {
	symbol, stocks := args[0], tradeAttr(self, "stocks")
	in, err := pyval.In(symbol, stocks)
	if err != nil {
		return nil, err
	}
	if !in {
		return tradeErr("Stock with symbol '" + pyval.Str(symbol) + "' not found."), nil
	}
	return pyval.GetItem(stocks, symbol)
}

func tradingGetOrderDetails(self *Instance, args []pyval.Value) (pyval.Value, error) {
	id, orders := args[0], tradeAttr(self, "orders")
	in, err := pyval.In(id, orders)
	if err != nil {
		return nil, err
	}
	if !in {
		keys := pyval.NewList(orders.(*pyval.Dict).Keys()...)
		return tradeErr("Order with ID " + pyval.Str(id) + " not found." + "Here is the list of orders_id: " + pyval.Str(keys)), nil
	}
	return pyval.GetItem(orders, id)
}

func tradingCancelOrder(self *Instance, args []pyval.Value) (pyval.Value, error) {
	id, orders := args[0], tradeAttr(self, "orders")
	in, err := pyval.In(id, orders)
	if err != nil {
		return nil, err
	}
	if !in {
		return tradeErr("Order with ID " + pyval.Str(id) + " not found."), nil
	}
	order, err := pyval.GetItem(orders, id)
	if err != nil {
		return nil, err
	}
	status, err := pyval.GetItem(order, "status")
	if err != nil {
		return nil, err
	}
	if pyval.Equal(status, "Completed") {
		return tradeErr("Can't cancel order " + pyval.Str(id) + ". Order is already completed."), nil
	}
	if err := pyval.SetItem(order, "status", "Cancelled"); err != nil {
		return nil, err
	}
	return tradeDict("order_id", id, "status", "Cancelled"), nil
}

func tradingPlaceOrder(self *Instance, args []pyval.Value) (pyval.Value, error) {
	orderType, symbol, price, amount := args[0], args[1], args[2], args[3]
	if !pyval.Truth(tradeAttr(self, "authenticated")) {
		return tradeErr("User not authenticated. Please log in to place an order."), nil
	}
	in, err := pyval.In(symbol, tradeAttr(self, "stocks"))
	if err != nil {
		return nil, err
	}
	if !in {
		return tradeErr("Invalid stock symbol: " + pyval.Str(symbol)), nil
	}
	nonPositive, err := pyval.Compare("<=", price, int64(0))
	if err != nil {
		return nil, err
	}
	if !nonPositive {
		if nonPositive, err = pyval.Compare("<=", amount, int64(0)); err != nil {
			return nil, err
		}
	}
	if nonPositive {
		return tradeErr("Price and amount must be positive values."), nil
	}
	kind, ok := orderType.(string)
	if !ok {
		return nil, pyval.AttributeError(orderType, "lower")
	}
	if pyval.Lower(kind) == "buy" {
		p, err := pyval.ToFloat(price)
		if err != nil {
			return nil, err
		}
		n, err := pyval.ToInt(amount)
		if err != nil {
			return nil, err
		}
		cost, err := pyval.Mul(p, n)
		if err != nil {
			return nil, err
		}
		balance, err := tradeDictGet(tradeAttr(self, "account_info"), "balance", int64(0))
		if err != nil {
			return nil, err
		}
		short, err := pyval.Compare(">", cost, balance)
		if err != nil {
			return nil, err
		}
		if short {
			c, err := pyval.Format(cost, ".2f")
			if err != nil {
				return nil, err
			}
			b, err := tradeDictGet(tradeAttr(self, "account_info"), "balance", int64(0))
			if err != nil {
				return nil, err
			}
			bs, err := pyval.Format(b, ".2f")
			if err != nil {
				return nil, err
			}
			return tradeErr("Insufficient funds: required $" + c + " but only $" + bs + " available."), nil
		}
	}
	p, err := pyval.ToFloat(price)
	if err != nil {
		return nil, err
	}
	id := tradeAttr(self, "order_counter")
	order := tradeDict("id", id, "order_type", orderType, "symbol", symbol, "price", p, "amount", amount, "status", "Open")
	if err := pyval.SetItem(tradeAttr(self, "orders"), id, order); err != nil {
		return nil, err
	}
	next, err := pyval.Add(id, int64(1))
	if err != nil {
		return nil, err
	}
	self.Set("order_counter", next)
	// BFCL answers "Pending" where the order it stored is "Open".
	return tradeDict("order_id", id, "order_type", orderType, "status", "Pending", "price", p, "amount", amount), nil
}

// tradingRecord is self.transaction_history.append({...}): the append is
// looked up before the timestamp is drawn, as Python evaluates it.
func tradingRecord(self *Instance, kind string, amount pyval.Value) error {
	h := tradeAttr(self, "transaction_history")
	l, ok := h.(*pyval.List)
	if !ok {
		return pyval.AttributeError(h, "append")
	}
	ts, err := tradingTimestamp(self)
	if err != nil {
		return err
	}
	l.Append(tradeDict("type", kind, "amount", amount, "timestamp", ts))
	return nil
}

func tradingWithdrawFunds(self *Instance, args []pyval.Value) (pyval.Value, error) {
	amount := args[0]
	if !pyval.Truth(tradeAttr(self, "authenticated")) {
		return tradeErr("User not authenticated. Please log in to make a transaction."), nil
	}
	if !pyval.Equal(tradeAttr(self, "market_status"), "Open") {
		return tradeErr("Market is closed. Transactions are not allowed."), nil
	}
	if bad, err := pyval.Compare("<=", amount, int64(0)); err != nil || bad {
		if err != nil {
			return nil, err
		}
		return tradeErr("Transaction amount must be positive."), nil
	}
	account := tradeAttr(self, "account_info")
	balance, err := pyval.GetItem(account, "balance")
	if err != nil {
		return nil, err
	}
	if over, err := pyval.Compare(">", amount, balance); err != nil || over {
		if err != nil {
			return nil, err
		}
		return tradeErr("Insufficient funds for withdrawal."), nil
	}
	if err := tradeAugment(account, "balance", pyval.Sub, amount); err != nil {
		return nil, err
	}
	if err := tradingRecord(self, "withdrawal", amount); err != nil {
		return nil, err
	}
	balance, err = pyval.GetItem(account, "balance")
	if err != nil {
		return nil, err
	}
	return tradeDict("status", "Withdrawal successful", "new_balance", balance), nil
}

// tradeAugment is container[key] op= v.
func tradeAugment(container, key pyval.Value, op func(a, b pyval.Value) (pyval.Value, error), v pyval.Value) error {
	old, err := pyval.GetItem(container, key)
	if err != nil {
		return err
	}
	nv, err := op(old, v)
	if err != nil {
		return err
	}
	return pyval.SetItem(container, key, nv)
}

func tradingGetAccountInfo(self *Instance, args []pyval.Value) (pyval.Value, error) {
	if !pyval.Truth(tradeAttr(self, "authenticated")) {
		return tradeErr("User not authenticated. Please log in to view account information."), nil
	}
	return tradeAttr(self, "account_info"), nil
}

func tradingLogin(self *Instance, args []pyval.Value) (pyval.Value, error) {
	if pyval.Truth(tradeAttr(self, "authenticated")) {
		return tradeDict("status", "Already logged in"), nil
	}
	self.Set("authenticated", true)
	return tradeDict("status", "Logged in successfully"), nil
}

func tradingGetLoginStatus(self *Instance, args []pyval.Value) (pyval.Value, error) {
	return tradeDict("status", pyval.Truth(tradeAttr(self, "authenticated"))), nil
}

func tradingLogout(self *Instance, args []pyval.Value) (pyval.Value, error) {
	if !pyval.Truth(tradeAttr(self, "authenticated")) {
		return tradeDict("status", "No user is currently logged in"), nil
	}
	self.Set("authenticated", false)
	return tradeDict("status", "Logged out successfully"), nil
}

func tradingFundAccount(self *Instance, args []pyval.Value) (pyval.Value, error) {
	amount := args[0]
	if !pyval.Truth(tradeAttr(self, "authenticated")) {
		return tradeErr("User not authenticated. Please log in to fund the account."), nil
	}
	if bad, err := pyval.Compare("<=", amount, int64(0)); err != nil || bad {
		if err != nil {
			return nil, err
		}
		return tradeErr("Funding amount must be positive."), nil
	}
	account := tradeAttr(self, "account_info")
	if err := tradeAugment(account, "balance", pyval.Add, amount); err != nil {
		return nil, err
	}
	if err := tradingRecord(self, "deposit", amount); err != nil {
		return nil, err
	}
	balance, err := pyval.GetItem(account, "balance")
	if err != nil {
		return nil, err
	}
	return tradeDict("status", "Account funded successfully", "new_balance", balance), nil
}

func tradingRemoveStockFromWatchlist(self *Instance, args []pyval.Value) (pyval.Value, error) {
	symbol := args[0]
	if !pyval.Truth(tradeAttr(self, "authenticated")) {
		return tradeErr("User not authenticated. Please log in to modify the watchlist."), nil
	}
	watch := tradeAttr(self, "watch_list")
	in, err := pyval.In(symbol, watch)
	if err != nil {
		return nil, err
	}
	if !in {
		return tradeErr("Stock " + pyval.Str(symbol) + " not found in watchlist."), nil
	}
	l, ok := watch.(*pyval.List)
	if !ok {
		return nil, pyval.AttributeError(watch, "remove")
	}
	if err := l.Remove(symbol); err != nil {
		return nil, err
	}
	return tradeDict("status", "Stock "+pyval.Str(symbol)+" removed from watchlist successfully."), nil
}

func tradingGetWatchlist(self *Instance, args []pyval.Value) (pyval.Value, error) {
	if !pyval.Truth(tradeAttr(self, "authenticated")) {
		return pyval.NewList("Error: User not authenticated. Please log in to view the watchlist."), nil
	}
	return tradeDict("watchlist", tradeAttr(self, "watch_list")), nil
}

func tradingGetOrderHistory(self *Instance, args []pyval.Value) (pyval.Value, error) {
	if !pyval.Truth(tradeAttr(self, "authenticated")) {
		return pyval.NewList(tradeErr("User not authenticated. Please log in to view order history.")), nil
	}
	return tradeDict("history", pyval.NewList(tradeAttr(self, "orders").(*pyval.Dict).Keys()...)), nil
}

func tradingGetTransactionHistory(self *Instance, args []pyval.Value) (pyval.Value, error) {
	if !pyval.Truth(tradeAttr(self, "authenticated")) {
		return pyval.NewList(tradeErr("User not authenticated. Please log in to view transaction history.")), nil
	}
	start, end := tradeDateMin, tradeDateMax
	var err error
	if pyval.Truth(args[0]) {
		if start, err = tradeStrptime(args[0], tradeDateFormat); err != nil {
			return nil, err
		}
	}
	if pyval.Truth(args[1]) {
		if end, err = tradeStrptime(args[1], tradeDateFormat); err != nil {
			return nil, err
		}
	}
	history, err := pyval.Iter(tradeAttr(self, "transaction_history"))
	if err != nil {
		return nil, err
	}
	filtered := pyval.NewList()
	for _, tr := range history {
		ts, err := pyval.GetItem(tr, "timestamp")
		if err != nil {
			return nil, err
		}
		t, err := tradeStrptime(ts, tradeStampFormat)
		if err != nil {
			return nil, err
		}
		if !start.After(t) && !t.After(end) {
			filtered.Append(tr)
		}
	}
	return tradeDict("transaction_history", filtered), nil
}

func tradingGetAvailableStocks(self *Instance, args []pyval.Value) (pyval.Value, error) {
	sectors := tradeDict(
		"Technology", pyval.NewList("AAPL", "GOOG", "MSFT", "NVDA"),
		"Automobile", pyval.NewList("TSLA", "F", "GM"),
	)
	l, err := sectors.GetOr(args[0], pyval.NewList())
	if err != nil {
		return nil, err
	}
	return tradeDict("stock_list", l), nil
}

// tradingPrice is self.stocks.get(symbol, {}).get("price", 0).
func tradingPrice(self *Instance, symbol pyval.Value) (pyval.Value, error) {
	stock, err := tradeDictGet(tradeAttr(self, "stocks"), symbol, pyval.NewDict())
	if err != nil {
		return nil, err
	}
	return tradeDictGet(stock, "price", int64(0))
}

func tradingFilterStocksByPrice(self *Instance, args []pyval.Value) (pyval.Value, error) {
	symbols, err := pyval.Iter(args[0])
	if err != nil {
		return nil, err
	}
	filtered := pyval.NewList()
	for _, symbol := range symbols {
		p, err := tradingPrice(self, symbol)
		if err != nil {
			return nil, err
		}
		ok, err := pyval.Compare(">=", p, args[1])
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		if p, err = tradingPrice(self, symbol); err != nil {
			return nil, err
		}
		if ok, err = pyval.Compare("<=", p, args[2]); err != nil {
			return nil, err
		}
		if ok {
			filtered.Append(symbol)
		}
	}
	return tradeDict("filtered_stocks", filtered), nil
}

func tradingAddToWatchlist(self *Instance, args []pyval.Value) (pyval.Value, error) {
	stock, watch := args[0], tradeAttr(self, "watch_list")
	in, err := pyval.In(stock, watch)
	if err != nil {
		return nil, err
	}
	if !in {
		known, err := pyval.In(stock, tradeAttr(self, "stocks"))
		if err != nil {
			return nil, err
		}
		if known {
			l, ok := watch.(*pyval.List)
			if !ok {
				return nil, pyval.AttributeError(watch, "append")
			}
			l.Append(stock)
		}
	}
	return tradeDict("watchlist", watch), nil
}

func tradingNotifyPriceChange(self *Instance, args []pyval.Value) (pyval.Value, error) {
	symbols, err := pyval.Iter(args[0])
	if err != nil {
		return nil, err
	}
	stocks := tradeAttr(self, "stocks")
	changed := pyval.NewList()
	for _, symbol := range symbols {
		in, err := pyval.In(symbol, stocks)
		if err != nil {
			return nil, err
		}
		if !in {
			continue
		}
		stock, err := pyval.GetItem(stocks, symbol)
		if err != nil {
			return nil, err
		}
		pc, err := pyval.GetItem(stock, "percent_change")
		if err != nil {
			return nil, err
		}
		if pc, err = pyval.Abs(pc); err != nil {
			return nil, err
		}
		big, err := pyval.Compare(">=", pc, args[1])
		if err != nil {
			return nil, err
		}
		if big {
			changed.Append(symbol)
		}
	}
	if changed.Len() == 0 {
		return tradeDict("notification", "No significant price changes in the selected stocks."), nil
	}
	names, err := pyval.Join(", ", changed)
	if err != nil {
		return nil, err
	}
	return tradeDict("notification", "Stocks "+names+" have significant price changes."), nil
}

// The formats get_transaction_history parses with datetime.strptime, and
// the regular expressions Python's _strptime builds for them (its \d and
// \s are Unicode's, its alternatives tried in order, as Go's are).
const (
	tradeDateFormat  = "%Y-%m-%d"
	tradeStampFormat = "%Y-%m-%d %H:%M:%S"
	tradeDateRE      = `^(?i)(\p{Nd}\p{Nd}\p{Nd}\p{Nd})-(1[0-2]|0[1-9]|[1-9])-(3[0-1]|[1-2]\p{Nd}|0[1-9]|[1-9]| [1-9])`
	tradeSpaceRE     = `[\t-\r\x1c-\x1f\x85\p{Z}]+`
	tradeClockRE     = `(2[0-3]|[0-1]\p{Nd}|\p{Nd}):([0-5]\p{Nd}|\p{Nd}):(6[0-1]|[0-5]\p{Nd}|\p{Nd})`
)

var (
	tradeDateMin = time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC)
	tradeDateMax = time.Date(9999, 12, 31, 23, 59, 59, 999999000, time.UTC)
	tradePattern = map[string]*regexp.Regexp{
		tradeDateFormat:  regexp.MustCompile(tradeDateRE),
		tradeStampFormat: regexp.MustCompile(tradeDateRE + tradeSpaceRE + tradeClockRE),
	}
)

// tradeStrptime is datetime.strptime(v, format) for the two formats
// above, with Python's errors: a non-str argument, data not matching,
// data left over, a date or second out of range.
func tradeStrptime(v pyval.Value, format string) (time.Time, error) {
	s, ok := v.(string)
	if !ok {
		name := pyval.TypeName(v)
		if v == nil {
			name = "None"
		}
		return time.Time{}, pyval.TypeError("strptime() argument 1 must be str, not " + name)
	}
	m := tradePattern[format].FindStringSubmatchIndex(s)
	if m == nil {
		return time.Time{}, pyval.ValueError("time data " + pyval.StrRepr(s) + " does not match format " + pyval.StrRepr(format))
	}
	if m[1] != len(s) {
		return time.Time{}, pyval.ValueError("unconverted data remains: " + s[m[1]:])
	}
	var f [6]int
	for i := 0; 2*i+2 < len(m); i++ {
		n, err := pyval.ToInt(s[m[2*i+2]:m[2*i+3]])
		if err != nil {
			return time.Time{}, err
		}
		f[i] = int(n.(int64))
	}
	year, month, day := f[0], f[1], f[2]
	if year < 1 {
		return time.Time{}, pyval.ValueError("year 0 is out of range")
	}
	if day > time.Date(year, time.Month(month)+1, 0, 0, 0, 0, 0, time.UTC).Day() {
		return time.Time{}, pyval.ValueError("day is out of range for month")
	}
	if f[5] > 59 {
		return time.Time{}, pyval.ValueError("second must be in 0..59")
	}
	return time.Date(year, time.Month(month), day, f[3], f[4], f[5], 0, time.UTC), nil
}
