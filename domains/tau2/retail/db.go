// Package retail is tau2-bench's retail domain as a PB-CSTE domain
// (github.com/sierra-research/tau2-bench, MIT, data and tools of commit
// a2c0247): its database (db.json: products, users, orders) as typed
// entities, its 16 tools ported one by one over a model.StateView with
// tau2's argument checks, error texts and result strings, and tau2's DB
// hash of a state. The package holds no gold runs: tasks come from
// tau2's files through package tau2.
package retail

import (
	"fmt"
	"slices"
	"sync"

	"github.com/parthack/parthack/domains/tau2"
	"github.com/parthack/parthack/model"
)

// DomainName is the domain's id in task files, ledgers and the CLI.
const DomainName = "tau2-retail"

// Entity types. A user's payment methods are entities of their own, as
// tools address them by id and change a gift card's balance.
const (
	TypeProduct       = "product"        // /products/{product_id}
	TypeUser          = "user"           // /users/{user_id}, without payment_methods
	TypePaymentMethod = "payment_method" // /users/{user}/payment_methods/{id}, id "{user}/{id}"
	TypeOrder         = "order"          // /orders/{order_id}
)

// Order statuses and cancel reasons, as tau2's data model has them.
var (
	orderStatuses = []string{"processed", "pending", "pending (item modified)", "delivered", "cancelled", "exchange requested", "return requested"}
	cancelReasons = []string{"no longer needed", "ordered by mistake"}
)

func str(name string) model.FieldDef   { return model.FieldDef{Name: name, Kind: model.KindString} }
func jsonf(name string) model.FieldDef { return model.FieldDef{Name: name, Kind: model.KindJSON} }
func strs(name string) model.FieldDef  { return model.FieldDef{Name: name, Kind: model.KindStrings} }

// schema is the retail database as typed entities: each field one key of
// tau2's record, a null field an absent (None) key; nested records a
// tool writes whole (addresses, items, payments) are json fields.
var schema = model.Schema{Types: []model.EntityType{
	{Name: TypeProduct, Fields: []model.FieldDef{str("name"), str("product_id"), jsonf("variants")}},
	{Name: TypeUser, Fields: []model.FieldDef{str("user_id"), jsonf("name"), jsonf("address"), str("email"), strs("orders")}},
	{Name: TypePaymentMethod, Fields: []model.FieldDef{{Name: "user", Kind: model.KindRef, Target: TypeUser},
		{Name: "source", Kind: model.KindEnum, Values: []string{"credit_card", "gift_card", "paypal"}},
		str("id"), str("brand"), str("last_four"), jsonf("balance")}},
	{Name: TypeOrder, Fields: []model.FieldDef{str("order_id"), str("user_id"), jsonf("address"), jsonf("items"),
		{Name: "status", Kind: model.KindEnum, Values: orderStatuses}, jsonf("fulfillments"), jsonf("payment_history"),
		{Name: "cancel_reason", Kind: model.KindEnum, Values: cancelReasons}, strs("exchange_items"), strs("exchange_new_items"),
		str("exchange_payment_method_id"), jsonf("exchange_price_difference"), strs("return_items"), str("return_payment_method_id")}},
}}

// DB is the retail database as loaded: its entities, and the orders of
// keys Python's dicts keep (db.json's), which tool results show and
// no tool changes.
type DB struct {
	Entities []model.Entity
	products []string            // product ids in db.json's order
	users    []string            // user ids in db.json's order
	orders   []string            // order ids in db.json's order
	pms      map[string][]string // a user's payment method ids in db.json's order
	variants map[string][]string // a product's variant ids in db.json's order
	options  map[string][]string // a variant's option keys in db.json's order
	optionOf map[string]string   // a variant's item id → its product id

	sorted struct{ products, users, orders []string }

	startOnce sync.Once
	start     model.StateView
}

var loadOnce = sync.OnceValues(func() (*DB, error) {
	src, err := tau2.Data("retail/db.json.gz")
	if err != nil {
		return nil, err
	}
	return Load(src)
})

// Shipped is tau2's retail db.json as shipped with parthack, decoded
// once; callers must not change it.
func Shipped() (*DB, error) { return loadOnce() }

// Load decodes a retail db.json as tau2's RetailDB model validates it:
// prices, balances and amounts are floats. The text tau2 ships is read
// by scanDB; any other by parseDB.
func Load(src []byte) (*DB, error) {
	if db, ok := scanDB(src); ok {
		return db, nil
	}
	return parseDB(src)
}

// parseDB is Load through the Python values of the whole text.
func parseDB(src []byte) (*DB, error) {
	x, err := tau2.ParsePy(src)
	if err != nil {
		return nil, fmt.Errorf("retail db.json: %w", err)
	}
	top, ok := x.(tau2.Obj)
	if !ok {
		return nil, fmt.Errorf("retail db.json: not an object")
	}
	db := &DB{pms: map[string][]string{}, variants: map[string][]string{}, options: map[string][]string{}, optionOf: map[string]string{}}
	for _, k := range []string{"products", "users", "orders"} {
		if x, _ := top.Get(k); asObj(x) == nil {
			return nil, fmt.Errorf("retail db.json: %q is not an object", k)
		}
	}
	products, _ := top.Get("products")
	for _, m := range products.(tau2.Obj) {
		p, _ := m.Value.(tau2.Obj)
		vs, _ := p.Get("variants")
		variants, _ := vs.(tau2.Obj)
		for i, v := range variants {
			rec, _ := v.Value.(tau2.Obj)
			rec = floats(rec, "price")
			variants[i].Value = rec
			db.variants[m.Key] = append(db.variants[m.Key], v.Key)
			opts, _ := rec.Get("options")
			for _, o := range asObj(opts) {
				db.options[v.Key] = append(db.options[v.Key], o.Key)
			}
			db.optionOf[v.Key] = m.Key
		}
		db.products = append(db.products, m.Key)
		if err := db.add(TypeProduct, m.Key, p); err != nil {
			return nil, err
		}
	}
	users, _ := top.Get("users")
	for _, m := range users.(tau2.Obj) {
		u, _ := m.Value.(tau2.Obj)
		pmv, _ := u.Get("payment_methods")
		for _, pm := range asObj(pmv) {
			rec := floats(asObj(pm.Value), "balance")
			rec = append(tau2.Obj{{Key: "user", Value: m.Key}}, rec...)
			db.pms[m.Key] = append(db.pms[m.Key], pm.Key)
			if err := db.add(TypePaymentMethod, m.Key+"/"+pm.Key, rec); err != nil {
				return nil, err
			}
		}
		db.users = append(db.users, m.Key)
		if err := db.add(TypeUser, m.Key, without(u, "payment_methods")); err != nil {
			return nil, err
		}
	}
	orders, _ := top.Get("orders")
	for _, m := range orders.(tau2.Obj) {
		o := asObj(m.Value)
		for _, list := range []struct{ key, num string }{{"items", "price"}, {"payment_history", "amount"}} {
			xs, _ := o.Get(list.key)
			for i, it := range asList(xs) {
				asList(xs)[i] = floats(asObj(it), list.num)
			}
		}
		o = floats(o, "exchange_price_difference")
		db.orders = append(db.orders, m.Key)
		if err := db.add(TypeOrder, m.Key, o); err != nil {
			return nil, err
		}
	}
	db.sorted.products = sortedCopy(db.products)
	db.sorted.users = sortedCopy(db.users)
	db.sorted.orders = sortedCopy(db.orders)
	return db, nil
}

func sortedCopy(xs []string) []string { out := slices.Clone(xs); slices.Sort(out); return out }

func asObj(x any) tau2.Obj { o, _ := x.(tau2.Obj); return o }
func asList(x any) []any   { l, _ := x.([]any); return l }

// floats makes the named numbers of a record Python floats, as pydantic
// validates a float field.
func floats(rec tau2.Obj, keys ...string) tau2.Obj {
	for i, m := range rec {
		if n, ok := m.Value.(int64); ok && slices.Contains(keys, m.Key) {
			rec[i].Value = float64(n)
		}
	}
	return rec
}

func without(rec tau2.Obj, key string) tau2.Obj {
	return slices.DeleteFunc(slices.Clone(rec), func(m tau2.Member) bool { return m.Key == key })
}

// add makes one record an entity of typ, each key its field.
func (db *DB) add(typ, id string, rec tau2.Obj) error {
	et, _ := schema.Type(typ)
	e := model.Entity{Type: typ, ID: id}
	for _, m := range rec {
		fd, ok := et.Field(m.Key)
		if !ok {
			return fmt.Errorf("retail db.json: %s %s: key %q has no field in the schema", typ, id, m.Key)
		}
		v := valueOf(m.Value)
		if msg := model.CheckValue(fd, v); msg != "" {
			return fmt.Errorf("retail db.json: %s %s: %s", typ, id, msg)
		}
		if !v.IsNull() {
			e.Fields = append(e.Fields, model.Assign{Field: m.Key, Value: v})
		}
	}
	db.Entities = append(db.Entities, e)
	return nil
}

// valueOf is a Python value as a field value.
func valueOf(x any) model.Value { return tau2.ModelValue(x) }

// Start is the database as loaded, read as a state.
func (db *DB) Start() model.StateView {
	db.startOnce.Do(func() { db.start = model.Entities(db.Entities) })
	return db.start
}
