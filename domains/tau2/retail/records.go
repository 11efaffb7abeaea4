package retail

import (
	"slices"
	"strings"
	"sync"

	"github.com/parthack/parthack/domains/tau2"
	"github.com/parthack/parthack/model"
)

// Records rebuild tau2's pydantic records from a state, fields in the
// models' declaration order (what a tool result shows) and dicts in
// db.json's order; the hash sorts them.

// reader reads records from one state.
type reader struct {
	db *DB
	v  model.StateView
}

func (r reader) field(typ, id, f string) model.Value { v, _ := r.v.Field(typ, id, f); return v }

func (r reader) py(typ, id, f string) any {
	v := r.field(typ, id, f)
	switch {
	case v.IsNull():
		return nil
	case v.Kind() == model.StringValue:
		return v.AsString()
	}
	return tau2.MustPy(v)
}

// fields is an entity's named fields, in order, None where unset.
func (r reader) fields(typ, id string, names ...string) tau2.Obj {
	out := make(tau2.Obj, len(names))
	for i, n := range names {
		out[i] = tau2.Member{Key: n, Value: r.py(typ, id, n)}
	}
	return out
}

var orderFields = []string{"order_id", "user_id", "address", "items", "status", "fulfillments", "payment_history", "cancel_reason",
	"exchange_items", "exchange_new_items", "exchange_payment_method_id", "exchange_price_difference", "return_items", "return_payment_method_id"}

var addressFields = []string{"address1", "address2", "city", "country", "state", "zip"}

// order is an Order as model_dump gives it.
func (r reader) order(id string) tau2.Obj {
	o := r.fields(TypeOrder, id, orderFields...)
	addr, _ := o.Get("address")
	o.Set("address", asObj(addr).Order(addressFields...))
	items, _ := o.Get("items")
	for i, it := range asList(items) {
		rec := asObj(it).Order("name", "product_id", "item_id", "price", "options")
		opts, _ := rec.Get("options")
		rec.Set("options", r.db.orderOptions(rec.Str("item_id"), asObj(opts)))
		asList(items)[i] = rec
	}
	fs, _ := o.Get("fulfillments")
	for i, f := range asList(fs) {
		asList(fs)[i] = asObj(f).Order("tracking_id", "item_ids")
	}
	ph, _ := o.Get("payment_history")
	for i, p := range asList(ph) {
		asList(ph)[i] = asObj(p).Order("transaction_type", "amount", "payment_method_id")
	}
	return o
}

// orderOptions puts an item's options in the order of the variant they
// were copied from: the item's own, or, after modify_pending_order_items
// gave an item another variant's options (tau2 copies the last new
// variant's to every item it changes), the variant they equal.
func (db *DB) orderOptions(item string, opts tau2.Obj) tau2.Obj {
	if keys, ok := db.options[item]; ok && sameKeys(keys, opts) {
		return opts.Order(keys...)
	}
	for _, p := range db.products {
		for _, vid := range db.variants[p] {
			if keys := db.options[vid]; sameKeys(keys, opts) && db.optionsEqual(p, vid, opts) {
				return opts.Order(keys...)
			}
		}
	}
	return opts
}

func sameKeys(keys []string, o tau2.Obj) bool {
	if len(keys) != len(o) {
		return false
	}
	for _, m := range o {
		if !slices.Contains(keys, m.Key) {
			return false
		}
	}
	return true
}

func (db *DB) optionsEqual(product, vid string, opts tau2.Obj) bool {
	v, _ := db.Start().Field(TypeProduct, product, "variants")
	variants := asObj(tau2.MustPy(v))
	rec, _ := variants.Get(vid)
	o, _ := asObj(rec).Get("options")
	return tau2.PyEqual(o, opts)
}

// paymentMethod is a payment method as its pydantic model dumps it.
func (r reader) paymentMethod(id string) tau2.Obj {
	switch r.field(TypePaymentMethod, id, "source").AsString() {
	case "credit_card":
		return r.fields(TypePaymentMethod, id, "source", "id", "brand", "last_four")
	case "gift_card":
		return r.fields(TypePaymentMethod, id, "source", "id", "balance")
	}
	return r.fields(TypePaymentMethod, id, "source", "id")
}

// user is a User with its payment methods.
func (r reader) user(id string) tau2.Obj {
	u := r.fields(TypeUser, id, "user_id", "name", "address", "email", "orders")
	name, _ := u.Get("name")
	u.Set("name", asObj(name).Order("first_name", "last_name"))
	addr, _ := u.Get("address")
	u.Set("address", asObj(addr).Order(addressFields...))
	pms := tau2.Obj{}
	for _, pm := range r.db.pms[id] {
		if pid := id + "/" + pm; r.v.Alive(TypePaymentMethod, pid) {
			pms = append(pms, tau2.Member{Key: pm, Value: r.paymentMethod(pid)})
		}
	}
	orders, _ := u.Get("orders")
	return append(u[:4:4], tau2.Member{Key: "payment_methods", Value: pms}, tau2.Member{Key: "orders", Value: orders})
}

// variant is one Variant of a product.
func variant(rec tau2.Obj, keys []string) tau2.Obj {
	v := rec.Order("item_id", "options", "available", "price")
	opts, _ := v.Get("options")
	return v.Set("options", asObj(opts).Order(keys...))
}

// product is a Product, its variants in db.json's order.
func (r reader) product(id string) tau2.Obj {
	p := r.fields(TypeProduct, id, "name", "product_id", "variants")
	vs, _ := p.Get("variants")
	variants := tau2.Obj{}
	for _, vid := range r.db.variants[id] {
		if rec, ok := asObj(vs).Get(vid); ok {
			variants = append(variants, tau2.Member{Key: vid, Value: variant(asObj(rec), r.db.options[vid])})
		}
	}
	return p.Set("variants", variants)
}

// Hashing.

// collections are the database's top-level keys, sorted.
var collections = []string{"orders", "products", "users"}

// rootOf names the top-level record an entity belongs to.
func rootOf(typ, id string) (coll, key string) {
	switch typ {
	case TypeOrder:
		return "orders", id
	case TypeProduct:
		return "products", id
	case TypePaymentMethod:
		user, _, _ := strings.Cut(id, "/")
		return "users", user
	}
	return "users", id
}

// record is a top-level record's sorted text, nil when it is absent.
func (r reader) record(coll, id string) []byte {
	var rec tau2.Obj
	switch coll {
	case "orders":
		if !r.v.Alive(TypeOrder, id) {
			return nil
		}
		rec = r.order(id)
	case "products":
		if !r.v.Alive(TypeProduct, id) {
			return nil
		}
		rec = r.product(id)
	default:
		if !r.v.Alive(TypeUser, id) {
			return nil
		}
		rec = r.user(id)
	}
	return tau2.AppendDumps(nil, rec, true)
}

// hasher keeps every initial record's text, computed once.
type hasher struct {
	once    sync.Once
	initial map[string]map[string][]byte
}

func (d *Domain) ids(coll string) []string {
	switch coll {
	case "orders":
		return d.db.sorted.orders
	case "products":
		return d.db.sorted.products
	}
	return d.db.sorted.users
}

// Hash is tau2's DB hash of a state: get_dict_hash(db.model_dump()).
func (d *Domain) Hash(v model.StateView, changed []model.CellDiff) string {
	d.hash.once.Do(func() {
		start := reader{d.db, d.db.Start()}
		d.hash.initial = map[string]map[string][]byte{}
		for _, coll := range collections {
			d.hash.initial[coll] = map[string][]byte{}
			for _, id := range d.ids(coll) {
				d.hash.initial[coll][id] = start.record(coll, id)
			}
		}
	})
	dirty := map[[2]string]bool{}
	for _, c := range changed {
		coll, key := rootOf(c.Type, c.ID)
		dirty[[2]string{coll, key}] = true
	}
	r := reader{d.db, v}
	colls := make([]tau2.Collection, len(collections))
	for i, coll := range collections {
		colls[i] = tau2.Collection{Name: coll, IDs: d.ids(coll), Text: func(id string) []byte {
			if dirty[[2]string{coll, id}] {
				return r.record(coll, id)
			}
			return d.hash.initial[coll][id]
		}}
	}
	return tau2.DBHash(colls)
}
