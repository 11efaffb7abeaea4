package retail

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/parthack/parthack/domains/tau2"
	"github.com/parthack/parthack/internal/pyarith"
	"github.com/parthack/parthack/model"
)

// Domain is tau2's retail tools over a PB-CSTE state.
type Domain struct {
	tau2.Orchestrator // tau2's turns and limits: the witness rule
	db                *DB
	hash              hasher
}

// NewDomain is the retail domain over a loaded database.
func NewDomain(db *DB) *Domain { return &Domain{db: db} }

// Name is the domain's id.
func (d *Domain) Name() string { return DomainName }

// Prefix starts the ids of retail tasks: T2R-<tau2 id>.
func (d *Domain) Prefix() string { return "T2R" }

// EndsEpisode is tau2's episode rule: no call ends an episode
// (tau2.EndsEpisode says why).
func (d *Domain) EndsEpisode(tool string) bool { return tau2.EndsEpisode(tool) }

// Base is the retail world as a task with no goal yet.
func (d *Domain) Base() *model.Task {
	return &model.Task{
		ID:        "TAU2-RETAIL",
		Title:     "tau2-bench retail",
		Schema:    schema,
		Initial:   d.db.Entities,
		Allowlist: model.Allowlist{Ops: []model.Op{model.OpCall}, Tools: ToolNames(), Fields: map[string][]string{}},
		Goals:     []model.GoalVersion{{Version: "v1"}},
		Domain:    d,
	}
}

// kind is a parameter's declared Python type.
type kind int

const (
	kString kind = iota
	kStrings
)

type param struct {
	name string
	kind kind
}

// toolDef is one tool: its parameters in declaration order, whether it
// mutates state (tau2's WRITE tools) and its body.
type toolDef struct {
	params []param
	write  bool
	run    func(c *call) (any, string)
}

func strParams(names ...string) []param {
	out := make([]param, len(names))
	for i, n := range names {
		out[i] = param{n, kString}
	}
	return out
}

var addressParams = []string{"address1", "address2", "city", "state", "country", "zip"}

// tools are retail's 16 tools, by name.
var tools = map[string]*toolDef{
	"calculate":            {params: strParams("expression"), run: (*call).calculate},
	"cancel_pending_order": {params: strParams("order_id", "reason"), write: true, run: (*call).cancel},
	"exchange_delivered_order_items": {params: []param{{"order_id", kString}, {"item_ids", kStrings}, {"new_item_ids", kStrings}, {"payment_method_id", kString}},
		write: true, run: (*call).exchange},
	"find_user_id_by_name_zip": {params: strParams("first_name", "last_name", "zip"), run: (*call).findByNameZip},
	"find_user_id_by_email":    {params: strParams("email"), run: (*call).findByEmail},
	"get_order_details":        {params: strParams("order_id"), run: (*call).orderDetails},
	"get_product_details":      {params: strParams("product_id"), run: (*call).productDetails},
	"get_item_details":         {params: strParams("item_id"), run: (*call).itemDetails},
	"get_user_details":         {params: strParams("user_id"), run: (*call).userDetails},
	"list_all_product_types":   {run: (*call).productTypes},
	"modify_pending_order_address": {params: strParams(append([]string{"order_id"}, addressParams...)...), write: true,
		run: (*call).modifyOrderAddress},
	"modify_pending_order_items": {params: []param{{"order_id", kString}, {"item_ids", kStrings}, {"new_item_ids", kStrings}, {"payment_method_id", kString}},
		write: true, run: (*call).modifyItems},
	"modify_pending_order_payment": {params: strParams("order_id", "payment_method_id"), write: true, run: (*call).modifyPayment},
	"modify_user_address":          {params: strParams(append([]string{"user_id"}, addressParams...)...), write: true, run: (*call).modifyUserAddress},
	"return_delivered_order_items": {params: []param{{"order_id", kString}, {"item_ids", kStrings}, {"payment_method_id", kString}},
		write: true, run: (*call).returnItems},
	tau2.TransferTool: {params: strParams("summary"), run: func(*call) (any, string) { return "Transfer successful", "" }},
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

// Tool reports whether the assistant has the tool (retail gives the user
// none) and whether it mutates state.
func (d *Domain) Tool(requestor, name string) (known, mutates bool) {
	t, ok := tools[name]
	if !ok || requestor != "assistant" {
		return false, false
	}
	return true, t.write
}

// call is one call in progress: the state it reads, its arguments and
// the writes it has decided on.
type call struct {
	r      reader
	args   tau2.Obj
	writes []model.Action
}

// Call runs one tool as tau2's environment does: the tool's return value
// becomes the result string (a model as its JSON dump, a string as it
// is), and an exception becomes "Error: <its message>" with nothing
// changed. Arguments of a type the tool does not declare are refused
// before it runs (tau2 would pass them on, with results that depend on
// the value).
func (d *Domain) Call(v model.StateView, tool string, args model.Value) ([]model.Action, string, string) {
	t, ok := tools[tool]
	if !ok {
		msg := fmt.Sprintf("Error: Tool '%s' not found.", tool)
		return nil, msg, msg
	}
	x, err := tau2.ParsePy(args.AppendJSON(nil))
	obj, isObj := x.(tau2.Obj)
	if err != nil || !isObj {
		msg := "Error: arguments are not a JSON object"
		return nil, msg, msg
	}
	if msg := checkArgs(tool, t, obj); msg != "" {
		return nil, msg, msg
	}
	c := &call{r: reader{d.db, v}, args: obj}
	out, failure := t.run(c)
	if failure != "" {
		msg := "Error: " + failure
		return nil, msg, msg
	}
	if s, ok := out.(string); ok {
		return c.writes, s, ""
	}
	return c.writes, tau2.Dumps(out, false), ""
}

// checkArgs holds arguments to the tool's parameters, in Python's words
// for a missing or unexpected keyword argument.
func checkArgs(name string, t *toolDef, args tau2.Obj) string {
	for _, m := range args {
		if !slices.ContainsFunc(t.params, func(p param) bool { return p.name == m.Key }) {
			return fmt.Sprintf("Error: RetailTools.%s() got an unexpected keyword argument '%s'", name, m.Key)
		}
	}
	var missing []string
	for _, p := range t.params {
		if _, ok := args.Get(p.name); !ok {
			missing = append(missing, "'"+p.name+"'")
		}
	}
	if len(missing) > 0 {
		s, list := "s", strings.Join(missing, ", ")
		if len(missing) == 1 {
			s = ""
		} else {
			list = strings.Join(missing[:len(missing)-1], ", ") + " and " + missing[len(missing)-1]
		}
		return fmt.Sprintf("Error: RetailTools.%s() missing %d required positional argument%s: %s", name, len(missing), s, list)
	}
	for _, p := range t.params {
		x, _ := args.Get(p.name)
		ok := false
		switch p.kind {
		case kString:
			_, ok = x.(string)
		case kStrings:
			var xs []any
			if xs, ok = x.([]any); ok {
				ok = !slices.ContainsFunc(xs, func(y any) bool { _, s := y.(string); return !s })
			}
		}
		if !ok {
			want := "a string"
			if p.kind == kStrings {
				want = "a list of strings"
			}
			return fmt.Sprintf("Error: argument %s must be %s, got %s", p.name, want, tau2.Dumps(x, false))
		}
	}
	return ""
}

func (c *call) text(name string) string { return c.args.Str(name) }

func (c *call) list(name string) []string {
	x, _ := c.args.Get(name)
	var out []string
	for _, y := range asList(x) {
		out = append(out, y.(string))
	}
	return out
}

func (c *call) update(typ, id string, fields ...model.Assign) {
	c.writes = append(c.writes, model.Action{Op: model.OpUpdate, Type: typ, ID: id, Fields: fields})
}

func set(field string, x any) model.Assign { return model.Assign{Field: field, Value: valueOf(x)} }

// Lookups, with tau2's errors.

func (c *call) order(id string) (tau2.Obj, string) {
	if !c.r.v.Alive(TypeOrder, id) {
		return nil, "Order not found"
	}
	return c.r.order(id), ""
}

func (c *call) paymentMethod(user, pm string) (tau2.Obj, string) {
	if !c.r.v.Alive(TypeUser, user) {
		return nil, "User not found"
	}
	id := user + "/" + pm
	if !c.r.v.Alive(TypePaymentMethod, id) {
		return nil, "Payment method not found"
	}
	return c.r.paymentMethod(id), ""
}

func isGiftCard(pm tau2.Obj) bool { return pm.Str("source") == "gift_card" }

// variantOf is a product's variant record, with tau2's errors.
func (c *call) variantOf(product, item string) (tau2.Obj, string) {
	if !c.r.v.Alive(TypeProduct, product) {
		return nil, "Product not found"
	}
	vs := asObj(c.r.py(TypeProduct, product, "variants"))
	rec, ok := vs.Get(item)
	if !ok {
		return nil, "Variant not found"
	}
	return variant(asObj(rec), c.r.db.options[item]), ""
}

// num is a Python number: an int until a float joins it.
type num struct {
	isFloat bool
	f       float64
}

func numOf(x any) num {
	switch v := x.(type) {
	case float64:
		return num{true, v}
	case int64:
		return num{false, float64(v)}
	}
	return num{}
}

func (n num) py() any {
	if n.isFloat {
		return n.f
	}
	return int64(n.f)
}

// round is Python's round(x, 2): correctly rounded to two decimals; an
// int stays an int.
func (n num) round() num {
	if !n.isFloat {
		return n
	}
	f, _ := strconv.ParseFloat(strconv.FormatFloat(n.f, 'f', 2, 64), 64)
	return num{true, f}
}

func balanceOf(pm tau2.Obj) num { b, _ := pm.Get("balance"); return numOf(b) }

// setBalance writes a gift card's new balance.
func (c *call) setBalance(user, pm string, n num) {
	c.update(TypePaymentMethod, user+"/"+pm, set("balance", n.py()))
}

func count(xs []string, x string) int {
	n := 0
	for _, y := range xs {
		if y == x {
			n++
		}
	}
	return n
}

func itemIDs(items []any) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = asObj(it).Str("item_id")
	}
	return out
}

func firstItem(items []any, id string) tau2.Obj {
	for _, it := range items {
		if o := asObj(it); o.Str("item_id") == id {
			return o
		}
	}
	return nil
}

// The tools.

func (c *call) calculate() (any, string) {
	expr := c.text("expression")
	if strings.Trim(expr, "0123456789+-*/(). ") != "" {
		return nil, "Invalid characters in expression"
	}
	v, err := pyarith.Eval(expr)
	if err != nil {
		return nil, err.Error()
	}
	return string(model.AppendPyFloat(nil, num{true, v}.round().f)), ""
}

func (c *call) cancel() (any, string) {
	id := c.text("order_id")
	o, failure := c.order(id)
	if failure != "" {
		return nil, failure
	}
	if o.Str("status") != "pending" {
		return nil, "Non-pending order cannot be cancelled"
	}
	reason := c.text("reason")
	if reason != "no longer needed" && reason != "ordered by mistake" {
		return nil, "Invalid reason"
	}
	user := o.Str("user_id")
	ph, _ := o.Get("payment_history")
	history := asList(ph)
	balances := map[string]num{}
	var touched []string
	for _, p := range slices.Clone(history) {
		pay := asObj(p)
		pmID := pay.Str("payment_method_id")
		amount, _ := pay.Get("amount")
		history = append(history, tau2.Obj{{Key: "transaction_type", Value: "refund"}, {Key: "amount", Value: amount}, {Key: "payment_method_id", Value: pmID}})
		pm, failure := c.paymentMethod(user, pmID)
		if failure != "" {
			return nil, failure
		}
		if isGiftCard(pm) {
			b, seen := balances[pmID]
			if !seen {
				b = balanceOf(pm)
				touched = append(touched, pmID)
			}
			b.f += numOf(amount).f
			b.isFloat = true
			balances[pmID] = b.round()
		}
	}
	for _, pm := range touched {
		c.setBalance(user, pm, balances[pm])
	}
	c.update(TypeOrder, id, set("status", "cancelled"), set("cancel_reason", reason), set("payment_history", history))
	o.Set("status", "cancelled")
	o.Set("cancel_reason", reason)
	o.Set("payment_history", history)
	return o, ""
}

func (c *call) exchange() (any, string) {
	id := c.text("order_id")
	o, failure := c.order(id)
	if failure != "" {
		return nil, failure
	}
	if o.Str("status") != "delivered" {
		return nil, "Non-delivered order cannot be exchanged"
	}
	itemsV, _ := o.Get("items")
	items := asList(itemsV)
	all := itemIDs(items)
	olds, news := c.list("item_ids"), c.list("new_item_ids")
	for _, it := range olds {
		if count(olds, it) > count(all, it) {
			return nil, fmt.Sprintf("Number of %s not found.", it)
		}
	}
	if len(olds) != len(news) {
		return nil, "The number of items to be exchanged should match."
	}
	diff := num{}
	for i, it := range olds {
		item := firstItem(items, it)
		if item == nil {
			return nil, fmt.Sprintf("Item %s not found", it)
		}
		v, failure := c.variantOf(item.Str("product_id"), news[i])
		if failure != "" {
			return nil, failure
		}
		if avail, _ := v.Get("available"); avail != true {
			return nil, fmt.Sprintf("New item %s not found or available", news[i])
		}
		np, _ := v.Get("price")
		op, _ := item.Get("price")
		diff = num{true, diff.f + (numOf(np).f - numOf(op).f)}
	}
	diff = diff.round()
	pmID := c.text("payment_method_id")
	pm, failure := c.paymentMethod(o.Str("user_id"), pmID)
	if failure != "" {
		return nil, failure
	}
	if isGiftCard(pm) && balanceOf(pm).f < diff.f {
		return nil, "Insufficient gift card balance to pay for the price difference"
	}
	so, sn := sortedCopy(olds), sortedCopy(news)
	c.update(TypeOrder, id, set("status", "exchange requested"), set("exchange_items", toAny(so)), set("exchange_new_items", toAny(sn)),
		set("exchange_payment_method_id", pmID), set("exchange_price_difference", diff.py()))
	o.Set("status", "exchange requested")
	o.Set("exchange_items", toAny(so))
	o.Set("exchange_new_items", toAny(sn))
	o.Set("exchange_payment_method_id", pmID)
	o.Set("exchange_price_difference", diff.py())
	return o, ""
}

func toAny(xs []string) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}

func (c *call) findByNameZip() (any, string) {
	first, last, zip := strings.ToLower(c.text("first_name")), strings.ToLower(c.text("last_name")), c.text("zip")
	needle := string(model.Str(zip).AppendJSON(nil))
	for _, u := range c.r.db.users {
		// The zip first, on the address's canonical text: it rules out all
		// but a few users before any decoding (and before the records it
		// decodes into are made). A user missing or deleted has no field:
		// one lookup, not Alive and then Field.
		a, alive := c.r.v.Field(TypeUser, u, "address")
		if !alive || !strings.Contains(a.AsString(), needle) {
			continue
		}
		var addr struct{ Zip string }
		if json.Unmarshal([]byte(a.AsString()), &addr) != nil || addr.Zip != zip {
			continue
		}
		var name struct {
			First string `json:"first_name"`
			Last  string `json:"last_name"`
		}
		if json.Unmarshal(c.r.field(TypeUser, u, "name").AppendJSON(nil), &name) == nil &&
			strings.ToLower(name.First) == first && strings.ToLower(name.Last) == last {
			return u, ""
		}
	}
	return nil, "User not found"
}

func (c *call) findByEmail() (any, string) {
	email := strings.ToLower(c.text("email"))
	for _, u := range c.r.db.users {
		if e, alive := c.r.v.Field(TypeUser, u, "email"); alive && strings.ToLower(e.AsString()) == email {
			return u, ""
		}
	}
	return nil, "User not found"
}

func (c *call) orderDetails() (any, string) {
	o, failure := c.order(c.text("order_id"))
	if failure != "" {
		return nil, failure
	}
	return o, ""
}

func (c *call) productDetails() (any, string) {
	id := c.text("product_id")
	if !c.r.v.Alive(TypeProduct, id) {
		return nil, "Product not found"
	}
	return c.r.product(id), ""
}

func (c *call) itemDetails() (any, string) {
	item := c.text("item_id")
	for _, p := range c.r.db.products {
		if !c.r.v.Alive(TypeProduct, p) {
			continue
		}
		if v, failure := c.variantOf(p, item); failure == "" {
			return v, ""
		}
	}
	return nil, "Item not found"
}

func (c *call) userDetails() (any, string) {
	id := c.text("user_id")
	if !c.r.v.Alive(TypeUser, id) {
		return nil, "User not found"
	}
	return c.r.user(id), ""
}

func (c *call) productTypes() (any, string) {
	byName := tau2.Obj{}
	for _, p := range c.r.db.products {
		if c.r.v.Alive(TypeProduct, p) {
			byName = byName.Set(c.r.field(TypeProduct, p, "name").AsString(), p)
		}
	}
	return tau2.Dumps(byName, true), ""
}

// address is a UserAddress built from the call's arguments.
func (c *call) address() tau2.Obj {
	out := tau2.Obj{}
	for _, k := range addressFields {
		out = append(out, tau2.Member{Key: k, Value: c.text(k)})
	}
	return out
}

func (c *call) modifyOrderAddress() (any, string) {
	id := c.text("order_id")
	o, failure := c.order(id)
	if failure != "" {
		return nil, failure
	}
	if !strings.Contains(o.Str("status"), "pending") {
		return nil, "Non-pending order cannot be modified"
	}
	addr := c.address()
	c.update(TypeOrder, id, set("address", addr))
	o.Set("address", addr)
	return o, ""
}

func (c *call) modifyItems() (any, string) {
	id := c.text("order_id")
	o, failure := c.order(id)
	if failure != "" {
		return nil, failure
	}
	if o.Str("status") != "pending" {
		return nil, "Non-pending order cannot be modified"
	}
	itemsV, _ := o.Get("items")
	items := asList(itemsV)
	all := itemIDs(items)
	olds, news := c.list("item_ids"), c.list("new_item_ids")
	for _, it := range olds {
		if count(olds, it) > count(all, it) {
			return nil, fmt.Sprintf("%s not found", it)
		}
	}
	if len(olds) != len(news) {
		return nil, "The number of items to be exchanged should match"
	}
	diff := num{}
	var last tau2.Obj
	for i, it := range olds {
		if it == news[i] {
			return nil, "The new item id should be different from the old item id"
		}
		item := firstItem(items, it)
		if item == nil {
			return nil, fmt.Sprintf("Item %s not found", it)
		}
		v, failure := c.variantOf(item.Str("product_id"), news[i])
		if failure != "" {
			return nil, failure
		}
		if avail, _ := v.Get("available"); avail != true {
			return nil, fmt.Sprintf("New item %s not found or available", news[i])
		}
		np, _ := v.Get("price")
		op, _ := item.Get("price")
		diff = num{true, diff.f + (numOf(np).f - numOf(op).f)}
		last = v
	}
	pmID := c.text("payment_method_id")
	user := o.Str("user_id")
	pm, failure := c.paymentMethod(user, pmID)
	if failure != "" {
		return nil, failure
	}
	if isGiftCard(pm) && balanceOf(pm).f < diff.f {
		return nil, "Insufficient gift card balance to pay for the new item"
	}
	kind := "refund"
	if diff.f > 0 {
		kind = "payment"
	}
	ph, _ := o.Get("payment_history")
	history := append(slices.Clone(asList(ph)), tau2.Obj{{Key: "transaction_type", Value: kind}, {Key: "amount", Value: math.Abs(diff.f)},
		{Key: "payment_method_id", Value: pmID}})
	if isGiftCard(pm) {
		b := balanceOf(pm)
		c.setBalance(user, pmID, num{true, b.f - diff.f}.round())
	}
	// tau2 gives every changed item the price and options of the last new
	// variant, not its own.
	for i, it := range olds {
		item := firstItem(items, it)
		price, _ := last.Get("price")
		opts, _ := last.Get("options")
		item.Set("item_id", news[i])
		item.Set("price", price)
		item.Set("options", opts)
	}
	c.update(TypeOrder, id, set("items", items), set("payment_history", history), set("status", "pending (item modified)"))
	o.Set("payment_history", history)
	o.Set("status", "pending (item modified)")
	return o, ""
}

func (c *call) modifyPayment() (any, string) {
	id := c.text("order_id")
	o, failure := c.order(id)
	if failure != "" {
		return nil, failure
	}
	if !strings.Contains(o.Str("status"), "pending") {
		return nil, "Non-pending order cannot be modified"
	}
	pmID := c.text("payment_method_id")
	user := o.Str("user_id")
	pm, failure := c.paymentMethod(user, pmID)
	if failure != "" {
		return nil, failure
	}
	ph, _ := o.Get("payment_history")
	history := asList(ph)
	if len(history) != 1 || asObj(history[0]).Str("transaction_type") != "payment" {
		return nil, "There should be exactly one payment for a pending order"
	}
	first := asObj(history[0])
	if first.Str("payment_method_id") == pmID {
		return nil, "The new payment method should be different from the current one"
	}
	amountV, _ := first.Get("amount")
	amount := numOf(amountV)
	if isGiftCard(pm) && balanceOf(pm).f < amount.f {
		return nil, "Insufficient gift card balance to pay for the order"
	}
	oldID := first.Str("payment_method_id")
	history = append(slices.Clone(history),
		tau2.Obj{{Key: "transaction_type", Value: "payment"}, {Key: "amount", Value: amountV}, {Key: "payment_method_id", Value: pmID}},
		tau2.Obj{{Key: "transaction_type", Value: "refund"}, {Key: "amount", Value: amountV}, {Key: "payment_method_id", Value: oldID}})
	if isGiftCard(pm) {
		c.setBalance(user, pmID, num{true, balanceOf(pm).f - amount.f}.round())
	}
	old, failure := c.paymentMethod(user, oldID)
	if failure != "" {
		return nil, failure
	}
	if isGiftCard(old) {
		c.setBalance(user, oldID, num{true, balanceOf(old).f + amount.f}.round())
	}
	c.update(TypeOrder, id, set("payment_history", history))
	o.Set("payment_history", history)
	return o, ""
}

func (c *call) modifyUserAddress() (any, string) {
	id := c.text("user_id")
	if !c.r.v.Alive(TypeUser, id) {
		return nil, "User not found"
	}
	addr := c.address()
	c.update(TypeUser, id, set("address", addr))
	u := c.r.user(id)
	u.Set("address", addr)
	return u, ""
}

func (c *call) returnItems() (any, string) {
	id := c.text("order_id")
	o, failure := c.order(id)
	if failure != "" {
		return nil, failure
	}
	if o.Str("status") != "delivered" {
		return nil, "Non-delivered order cannot be returned"
	}
	user := o.Str("user_id")
	pmID := c.text("payment_method_id")
	pm, failure := c.paymentMethod(user, pmID)
	if failure != "" {
		return nil, failure
	}
	ph, _ := o.Get("payment_history")
	if !isGiftCard(pm) && pmID != asObj(asList(ph)[0]).Str("payment_method_id") {
		return nil, "Payment method should be the original payment method"
	}
	itemsV, _ := o.Get("items")
	all := itemIDs(asList(itemsV))
	olds := c.list("item_ids")
	for _, it := range olds {
		if count(olds, it) > count(all, it) {
			return nil, "Some item not found"
		}
	}
	so := toAny(sortedCopy(olds))
	c.update(TypeOrder, id, set("status", "return requested"), set("return_items", so), set("return_payment_method_id", pmID))
	o.Set("status", "return requested")
	o.Set("return_items", so)
	o.Set("return_payment_method_id", pmID)
	return o, ""
}
