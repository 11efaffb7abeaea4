package telecom

import (
	"fmt"
	"reflect"
	"slices"
	"sync"

	"github.com/parthack/parthack/domains/tau2"
	"github.com/parthack/parthack/model"
)

// Entity types. The agent's side is tau2's TelecomDB; the user's side
// its TelecomUserDB, the phone's nested records entities of their own.
const (
	TypePlan     = "plan"
	TypeCustomer = "customer"
	TypeLine     = "line"
	TypeBill     = "bill"
	TypeDevice   = "device"
	TypeBooks    = "telecom_db" // the order of TelecomDB's lists, id "db"

	TypePhone        = "phone"           // the user's phone, id "device"
	TypeAPN          = "apn"             // its active APN settings, id "active_apn_settings"
	TypeVPN          = "vpn"             // its VPN details, id "vpn_details"; absent is None
	TypeApp          = "app"             // an installed app, by name
	TypeSurroundings = "surroundings"    // id "surroundings"
	TypePayment      = "payment_request" // id "payment_request"; absent is None
)

// Singleton ids.
const (
	BooksID        = "db"
	PhoneID        = "device"
	APNID          = "active_apn_settings"
	VPNID          = "vpn_details"
	SurroundingsID = "surroundings"
	PaymentID      = "payment_request"
)

var (
	kPlan     = kindOf(TypePlan, Plan{})
	kCustomer = kindOf(TypeCustomer, Customer{})
	kLine     = kindOf(TypeLine, Line{})
	kBill     = kindOf(TypeBill, Bill{})
	kDevice   = kindOf(TypeDevice, Device{})
	kBooks    = kindOf(TypeBooks, Books{})
	kPhone    = kindOf(TypePhone, Phone{})
	kAPN      = kindOf(TypeAPN, APN{})
	kVPN      = kindOf(TypeVPN, VPN{})
	kApp      = kindOf(TypeApp, App{})
	kSur      = kindOf(TypeSurroundings, Surroundings{})
	kPay      = kindOf(TypePayment, PaymentRequest{})

	agentKinds = []*kind{kPlan, kCustomer, kLine, kBill, kDevice, kBooks}
	userKinds  = []*kind{kPhone, kAPN, kVPN, kApp, kSur, kPay}
)

// schema is both databases as typed entities.
var schema = func() model.Schema {
	var s model.Schema
	for _, k := range append(slices.Clone(agentKinds), userKinds...) {
		s.Types = append(s.Types, k.def)
	}
	return s
}()

// world is both databases as Go records: a tool runs on it as tau2's
// runs on its pydantic models, and what it changed becomes the call's
// writes. A world read from a state reads a record of the agent's books
// only when a tool first looks it up, and keeps a copy of each record as
// read: a call costs what it touches, not the size of the databases.
type world struct {
	src  model.StateView          // the state read; nil when every record is in memory
	read map[recKey]reflect.Value // a copy of each record as src holds it
	err  error                    // the first record of src that did not read

	books     Books
	plans     map[string]*Plan
	customers map[string]*Customer
	lines     map[string]*Line
	bills     map[string]*Bill
	devices   map[string]*Device

	phone Phone
	apn   APN
	vpn   *VPN // nil: vpn_details is None
	apps  []*App
	sur   Surroundings
	pay   *PaymentRequest // nil: payment_request is None

	// orig is the shipped databases' world this one was cloned from, nil
	// when none; a record that is one value to orig's of its key has its
	// entity and its text, made once (orig.memo).
	orig *world
	memo *startMemo
}

// startMemo is each record of a world as an entity of an initial
// snapshot and as the text of its json.dumps(sort_keys=True), made once,
// with the record itself to hold another world's to.
type startMemo struct {
	once sync.Once
	recs map[recKey]*memoRec
	// agent is tau2's hash of the world's agent database, made once.
	agentOnce sync.Once
	agent     string
}

type memoRec struct {
	rec    reflect.Value
	entity model.Entity
	text   tau2.Raw
}

// memoOf is a record's memo when w was cloned from a world that has one
// and the record is one value to that world's record of its key (same),
// so that its entity and text are that one's; nil otherwise.
func (w *world) memoOf(k *kind, id string, rec reflect.Value) *memoRec {
	if w.orig == nil || w.orig.memo == nil {
		return nil
	}
	m := w.orig.memo
	m.once.Do(func() {
		m.recs = map[recKey]*memoRec{}
		w.orig.each(func(k *kind, id string, rec reflect.Value) {
			if rec.IsValid() {
				m.recs[recKey{k, id}] = &memoRec{rec: rec, entity: k.entity(rec), text: tau2.AppendDumps(nil, pyOf(rec), true)}
			}
		})
	})
	if r, ok := m.recs[recKey{k, id}]; ok && same(rec, r.rec) {
		return r
	}
	return nil
}

// recKey is a record of a world: its kind and id.
type recKey struct {
	k  *kind
	id string
}

func emptyWorld() *world {
	return &world{plans: map[string]*Plan{}, customers: map[string]*Customer{}, lines: map[string]*Line{},
		bills: map[string]*Bill{}, devices: map[string]*Device{}}
}

// readWorld reads both databases from a state: the order of the books
// and the phone's records at once (the phone's tools read them directly,
// and sync_tools reads the surroundings after every call), the agent's
// records when looked up. apps are the phone's apps in tau2's dict order
// (no tool installs or removes one).
func readWorld(v model.StateView, apps []string) (*world, error) {
	w := emptyWorld()
	w.src, w.read = v, map[recKey]reflect.Value{}
	for _, one := range []struct {
		k   *kind
		id  string
		dst any
	}{{kBooks, BooksID, &w.books}, {kPhone, PhoneID, &w.phone}, {kAPN, APNID, &w.apn}, {kSur, SurroundingsID, &w.sur}} {
		if err := w.readRec(one.k, one.id, reflect.ValueOf(one.dst).Elem()); err != nil {
			return nil, err
		}
	}
	if v.Alive(TypeVPN, VPNID) {
		w.vpn = &VPN{}
		if err := w.readRec(kVPN, VPNID, reflect.ValueOf(w.vpn).Elem()); err != nil {
			return nil, err
		}
	}
	if v.Alive(TypePayment, PaymentID) {
		w.pay = &PaymentRequest{}
		if err := w.readRec(kPay, PaymentID, reflect.ValueOf(w.pay).Elem()); err != nil {
			return nil, err
		}
	}
	for _, name := range apps {
		a := &App{}
		if err := w.readRec(kApp, name, reflect.ValueOf(a).Elem()); err != nil {
			return nil, err
		}
		w.apps = append(w.apps, a)
	}
	return w, nil
}

// readRec fills a record from src and keeps a copy of it as read.
func (w *world) readRec(k *kind, id string, rec reflect.Value) error {
	if err := k.read(w.src, id, rec); err != nil {
		return err
	}
	w.read[recKey{k, id}] = deepCopy(rec)
	return nil
}

// lookup is the record of the agent's books with an id, read from src
// the first time; nil when the books do not list it, or when it does
// not read (w.err says why).
func lookup[T any](w *world, k *kind, ids []string, into map[string]*T, id string) *T {
	if rec, ok := into[id]; ok || w.src == nil || w.err != nil || !slices.Contains(ids, id) {
		return rec
	}
	if !w.src.Alive(k.name, id) {
		w.err = fmt.Errorf("%s %s is listed in %s but not alive", k.name, id, TypeBooks)
		return nil
	}
	rec := new(T)
	if err := w.readRec(k, id, reflect.ValueOf(rec).Elem()); err != nil {
		w.err = err
		return nil
	}
	into[id] = rec
	return rec
}

// readAll reads every record of the agent's books not read yet.
func (w *world) readAll() error {
	for _, id := range w.books.Plans {
		lookup(w, kPlan, w.books.Plans, w.plans, id)
	}
	for _, id := range w.books.Customers {
		lookup(w, kCustomer, w.books.Customers, w.customers, id)
	}
	for _, id := range w.books.Lines {
		lookup(w, kLine, w.books.Lines, w.lines, id)
	}
	for _, id := range w.books.Bills {
		lookup(w, kBill, w.books.Bills, w.bills, id)
	}
	for _, id := range w.books.Devices {
		lookup(w, kDevice, w.books.Devices, w.devices, id)
	}
	return w.err
}

// readFull reads both databases from a state, every record.
func readFull(v model.StateView, apps []string) (*world, error) {
	w, err := readWorld(v, apps)
	if err != nil {
		return nil, err
	}
	if err := w.readAll(); err != nil {
		return nil, err
	}
	return w, nil
}

// each calls f on every record of the world in memory, as (kind, id,
// record or an invalid value when absent): a record of the agent's books
// not read yet is left out.
func (w *world) each(f func(k *kind, id string, rec reflect.Value)) {
	f(kBooks, BooksID, reflect.ValueOf(&w.books).Elem())
	eachOf(f, kPlan, w.books.Plans, w.plans)
	eachOf(f, kCustomer, w.books.Customers, w.customers)
	eachOf(f, kLine, w.books.Lines, w.lines)
	eachOf(f, kBill, w.books.Bills, w.bills)
	eachOf(f, kDevice, w.books.Devices, w.devices)
	f(kPhone, PhoneID, reflect.ValueOf(&w.phone).Elem())
	f(kAPN, APNID, reflect.ValueOf(&w.apn).Elem())
	f(kVPN, VPNID, optional(w.vpn))
	for _, a := range w.apps {
		f(kApp, a.AppName, reflect.ValueOf(a).Elem())
	}
	f(kSur, SurroundingsID, reflect.ValueOf(&w.sur).Elem())
	f(kPay, PaymentID, optional(w.pay))
}

func eachOf[T any](f func(k *kind, id string, rec reflect.Value), k *kind, ids []string, recs map[string]*T) {
	for _, id := range ids {
		if rec, ok := recs[id]; ok {
			f(k, id, reflect.ValueOf(rec).Elem())
		}
	}
}

func optional[T any](p *T) reflect.Value {
	if p == nil {
		return reflect.Value{}
	}
	return reflect.ValueOf(p).Elem()
}

// writesFrom are the primitive writes that take the state w was read
// from to w: an update per changed record (its changed fields only), a
// create per new one, a delete per one gone. The state itself is the
// "before", so a call reads the world once. A record no tool looked up
// is unchanged, and so is a field equal to its copy as read: the state
// holds what the port wrote (every task's initial snapshot is a world's
// entities, every later value a write of writesFrom), which reads back
// to itself.
func (w *world) writesFrom(before model.StateView) []model.Action {
	var out []model.Action
	w.each(func(k *kind, id string, rec reflect.Value) {
		existed := before.Alive(k.name, id)
		switch {
		case !rec.IsValid() && existed:
			out = append(out, model.Action{Op: model.OpDelete, Type: k.name, ID: id})
		case !rec.IsValid():
		case !existed:
			e := k.entity(rec)
			out = append(out, model.Action{Op: model.OpCreate, Type: k.name, ID: id, Fields: e.Fields})
		default:
			was, read := w.read[recKey{k, id}]
			if read && same(rec, was) {
				return
			}
			var changed []model.Assign
			for j, i := range k.fields {
				if read && same(rec.Field(i), was.Field(i)) {
					continue
				}
				v := valueOf(rec.Field(i))
				old, _ := before.Field(k.name, id, k.def.Fields[j].Name)
				if !v.Equal(old) {
					changed = append(changed, model.Assign{Field: k.def.Fields[j].Name, Value: v})
				}
			}
			if len(changed) > 0 {
				out = append(out, model.Action{Op: model.OpUpdate, Type: k.name, ID: id, Fields: changed})
			}
		}
	})
	return out
}

// changesFrom are the cells in which w differs from before, both in
// memory, as a log's net changes name them: a field whose value differs,
// a record w holds and before does not as created (alive from null, then
// each field set), one before holds and w does not as deleted (alive
// only). A gold end state that no log reached (tau2 makes the gold calls
// without sync_tools) is thus a reference the payload can carry.
func (w *world) changesFrom(before *world) []model.CellDiff {
	was := map[recKey]reflect.Value{}
	var order []recKey
	before.each(func(k *kind, id string, rec reflect.Value) {
		if rec.IsValid() {
			was[recKey{k, id}] = rec
			order = append(order, recKey{k, id})
		}
	})
	var out []model.CellDiff
	w.each(func(k *kind, id string, rec reflect.Value) {
		if !rec.IsValid() {
			return
		}
		old, existed := was[recKey{k, id}]
		delete(was, recKey{k, id})
		if !existed {
			out = append(out, model.CellDiff{Type: k.name, ID: id, Field: model.AliveField, Before: model.Null, After: model.Bool(true)})
		} else if same(rec, old) {
			return // one value to valueOf, field by field: no cell differs
		}
		var olds []model.Value
		if existed {
			olds = k.values(old)
		}
		for j, v := range k.values(rec) {
			prev := model.Null
			if existed {
				prev = olds[j]
			}
			if !prev.Equal(v) {
				out = append(out, model.CellDiff{Type: k.name, ID: id, Field: k.def.Fields[j].Name, Before: prev, After: v})
			}
		}
	})
	for _, key := range order {
		if _, gone := was[key]; gone {
			out = append(out, model.CellDiff{Type: key.k.name, ID: key.id, Field: model.AliveField, Before: model.Bool(true), After: model.Bool(false)})
		}
	}
	return out
}

// entities are the world as an initial snapshot.
func (w *world) entities() []model.Entity {
	var out []model.Entity
	w.each(func(k *kind, id string, rec reflect.Value) {
		if !rec.IsValid() {
			return
		}
		if m := w.memoOf(k, id, rec); m != nil {
			out = append(out, m.entity) // its fields shared, as a snapshot's are: no one writes them
		} else {
			out = append(out, k.entity(rec))
		}
	})
	return out
}

// agentDump is TelecomDB.model_dump(), of a world with every record in
// memory, for json.dumps(sort_keys=True): a record with a memo (memoOf)
// is its text, spliced in.
func (w *world) agentDump() tau2.Obj {
	list := func(k *kind, ids []string, rec func(string) any) []any {
		out := make([]any, len(ids))
		for i, id := range ids {
			r := reflect.ValueOf(rec(id)).Elem()
			if m := w.memoOf(k, id, r); m != nil {
				out[i] = m.text
			} else {
				out[i] = pyOf(r)
			}
		}
		return out
	}
	return tau2.Obj{
		{Key: "plans", Value: list(kPlan, w.books.Plans, func(id string) any { return w.plans[id] })},
		{Key: "customers", Value: list(kCustomer, w.books.Customers, func(id string) any { return w.customers[id] })},
		{Key: "lines", Value: list(kLine, w.books.Lines, func(id string) any { return w.lines[id] })},
		{Key: "bills", Value: list(kBill, w.books.Bills, func(id string) any { return w.bills[id] })},
		{Key: "devices", Value: list(kDevice, w.books.Devices, func(id string) any { return w.devices[id] })},
	}
}

// userDump is TelecomUserDB.model_dump().
func (w *world) userDump() tau2.Obj {
	phone := pyOf(reflect.ValueOf(&w.phone).Elem()).(tau2.Obj)
	phone = append(phone, tau2.Member{Key: "active_apn_settings", Value: pyOf(reflect.ValueOf(&w.apn).Elem())})
	var vpn any
	if w.vpn != nil {
		vpn = pyOf(reflect.ValueOf(w.vpn).Elem())
	}
	apps := tau2.Obj{}
	for _, a := range w.apps {
		apps = append(apps, tau2.Member{Key: a.AppName, Value: appDump(a)})
	}
	phone = append(phone, tau2.Member{Key: "vpn_details", Value: vpn}, tau2.Member{Key: "app_statuses", Value: apps})
	sur := pyOf(reflect.ValueOf(&w.sur).Elem()).(tau2.Obj)
	var pay any
	if w.pay != nil {
		pay = pyOf(reflect.ValueOf(w.pay).Elem())
	}
	sur = append(sur, tau2.Member{Key: "payment_request", Value: pay})
	return tau2.Obj{{Key: "device", Value: phone}, {Key: "surroundings", Value: sur}}
}

func appDump(a *App) tau2.Obj {
	return tau2.Obj{{Key: "app_name", Value: a.AppName}, {Key: "permissions", Value: a.permissions()}}
}

// permissions is AppPermissions.model_dump().
func (a *App) permissions() tau2.Obj {
	return tau2.Obj{{Key: "sms", Value: a.SMS}, {Key: "storage", Value: a.Storage}, {Key: "phone", Value: a.Phone}, {Key: "network", Value: a.Network}}
}

// Hashes are tau2's get_db_hash of each side of a world: the agent's
// database and the user's.
type Hashes struct{ Agent, User string }

// String joins the two hashes: two states have equal strings when tau2's
// DB check finds both databases equal.
func (h Hashes) String() string { return h.Agent + "/" + h.User }

func (w *world) hashes() Hashes {
	h := Hashes{User: tau2.DictHash(w.userDump())}
	if w.agentAsOrig() {
		m := w.orig.memo
		m.agentOnce.Do(func() { m.agent = tau2.DictHash(w.orig.agentDump()) })
		h.Agent = m.agent
	} else {
		h.Agent = tau2.DictHash(w.agentDump())
	}
	return h
}

// agentAsOrig reports whether the agent's database is its origin's, one
// value record by record (memoOf) and in the same order, so that its hash
// is the origin's, made once.
func (w *world) agentAsOrig() bool {
	if w.orig == nil || w.orig.memo == nil || !same(reflect.ValueOf(&w.books).Elem(), reflect.ValueOf(&w.orig.books).Elem()) {
		return false
	}
	all := true
	w.each(func(k *kind, id string, rec reflect.Value) {
		if all && slices.Contains(agentKinds, k) && k != kBooks && w.memoOf(k, id, rec) == nil {
			all = false
		}
	})
	return all
}

// view is the world as a read-only state.
func (w *world) view() model.StateView {
	v := entityView{}
	for _, e := range w.entities() {
		fields := map[string]model.Value{}
		for _, a := range e.Fields {
			fields[a.Field] = a.Value
		}
		v[[2]string{e.Type, e.ID}] = fields
	}
	return v
}

// clone is a deep copy of a world in memory, itself in memory, cloned
// from w's origin (w itself when it has a memo and none).
func (w *world) clone() *world {
	c := emptyWorld()
	if c.orig = w.orig; c.orig == nil && w.memo != nil {
		c.orig = w
	}
	c.books, c.phone, c.apn, c.sur = *dup(&w.books), *dup(&w.phone), *dup(&w.apn), *dup(&w.sur)
	c.vpn, c.pay = dup(w.vpn), dup(w.pay)
	dupAll(c.plans, w.plans)
	dupAll(c.customers, w.customers)
	dupAll(c.lines, w.lines)
	dupAll(c.bills, w.bills)
	dupAll(c.devices, w.devices)
	for _, a := range w.apps {
		c.apps = append(c.apps, dup(a))
	}
	return c
}

// dup is a deep copy of a record, nil for nil.
func dup[T any](rec *T) *T {
	if rec == nil {
		return nil
	}
	return deepCopy(reflect.ValueOf(rec).Elem()).Addr().Interface().(*T)
}

func dupAll[T any](dst, src map[string]*T) {
	for id, rec := range src {
		dst[id] = dup(rec)
	}
}

// entityView reads entities held in memory: alive ones only.
type entityView map[[2]string]map[string]model.Value

func (v entityView) Alive(typ, id string) bool { _, ok := v[[2]string{typ, id}]; return ok }

func (v entityView) Field(typ, id, field string) (model.Value, bool) {
	fields, ok := v[[2]string{typ, id}]
	if !ok {
		return model.Null, false
	}
	x, ok := fields[field]
	if !ok {
		return model.Null, true
	}
	return x, true
}

// apply makes writes on the view, as the environment would.
func (v entityView) apply(writes []model.Action) error {
	for _, a := range writes {
		k := [2]string{a.Type, a.ID}
		switch a.Op {
		case model.OpCreate:
			v[k] = map[string]model.Value{}
		case model.OpDelete:
			delete(v, k)
			continue
		}
		fields, ok := v[k]
		if !ok {
			return fmt.Errorf("%s %s %s: no such entity", a.Op, a.Type, a.ID)
		}
		for _, f := range a.Fields {
			fields[f.Field] = f.Value
		}
	}
	return nil
}
