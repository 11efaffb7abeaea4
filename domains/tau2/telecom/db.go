package telecom

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/parthack/parthack/domains/tau2"
)

// DB is tau2's two telecom databases as loaded: the agent's (db.toml)
// and the user's phone and surroundings (user_db.toml).
type DB struct {
	start *world
	apps  []string // the phone's apps, in user_db.toml's order
}

var loadOnce = sync.OnceValues(func() (*DB, error) {
	agent, err := tau2.Data("telecom/db.toml")
	if err != nil {
		return nil, err
	}
	user, err := tau2.Data("telecom/user_db.toml")
	if err != nil {
		return nil, err
	}
	return Load(agent, user)
})

// Shipped is tau2's telecom databases as shipped with parthack (commit
// a2c0247), decoded once; callers must not change them.
func Shipped() (*DB, error) { return loadOnce() }

// Load decodes db.toml and user_db.toml as tau2's TelecomDB and
// TelecomUserDB validate them, every field a file leaves out taking the
// model's default.
func Load(agentTOML, userTOML []byte) (*DB, error) {
	a, err := parseTOML("db.toml", agentTOML)
	if err != nil {
		return nil, err
	}
	u, err := parseTOML("user_db.toml", userTOML)
	if err != nil {
		return nil, err
	}
	w := emptyWorld()
	w.books.ID = BooksID
	for _, m := range a {
		var err error
		switch m.Key {
		case "plans":
			w.books.Plans, err = loadList(m, w.plans, func() *Plan { return &Plan{} }, func(p *Plan) string { return p.PlanID })
		case "customers":
			w.books.Customers, err = loadList(m, w.customers, newCustomer, func(c *Customer) string { return c.CustomerID })
		case "lines":
			w.books.Lines, err = loadList(m, w.lines, newLine, func(l *Line) string { return l.LineID })
		case "bills":
			w.books.Bills, err = loadList(m, w.bills, newBill, func(b *Bill) string { return b.BillID })
		case "devices":
			w.books.Devices, err = loadList(m, w.devices, func() *Device { return &Device{} }, func(d *Device) string { return d.DeviceID })
		default:
			err = fmt.Errorf("db.toml: unexpected table %q (TelecomDB has plans, customers, lines, bills, devices)", m.Key)
		}
		if err != nil {
			return nil, err
		}
	}
	db := &DB{}
	w.phone, w.apn, w.sur = defaultPhone(), defaultAPN(), defaultSurroundings()
	w.apps = defaultApps()
	for _, m := range u {
		switch m.Key {
		case "device":
			if err := loadPhone(w, asObj(m.Value)); err != nil {
				return nil, fmt.Errorf("user_db.toml: device: %w", err)
			}
		case "surroundings":
			sur := asObj(m.Value)
			if p, ok := sur.Get("payment_request"); ok && p != nil {
				w.pay = &PaymentRequest{ID: PaymentID}
				if err := fromPy(p, reflect.ValueOf(w.pay).Elem()); err != nil {
					return nil, fmt.Errorf("user_db.toml: surroundings.payment_request: %w", err)
				}
			}
			if err := fromPy(without(sur, "payment_request"), reflect.ValueOf(&w.sur).Elem()); err != nil {
				return nil, fmt.Errorf("user_db.toml: surroundings: %w", err)
			}
		default:
			return nil, fmt.Errorf("user_db.toml: unexpected table %q (TelecomUserDB has device, surroundings)", m.Key)
		}
	}
	for _, a := range w.apps {
		db.apps = append(db.apps, a.AppName)
	}
	w.memo = &startMemo{} // the tasks' worlds are clones of it
	db.start = w
	return db, nil
}

func asObj(x any) tau2.Obj { o, _ := x.(tau2.Obj); return o }

func without(o tau2.Obj, keys ...string) tau2.Obj {
	return slices.DeleteFunc(slices.Clone(o), func(m tau2.Member) bool { return slices.Contains(keys, m.Key) })
}

// loadList reads one of TelecomDB's lists into records by id, and
// returns the ids in order.
func loadList[T any](m tau2.Member, into map[string]*T, fresh func() *T, id func(*T) string) ([]string, error) {
	items, ok := m.Value.([]any)
	if !ok {
		return nil, fmt.Errorf("db.toml: %s is not an array of tables", m.Key)
	}
	var ids []string
	for i, it := range items {
		rec := fresh()
		if err := fromPy(it, reflect.ValueOf(rec).Elem()); err != nil {
			return nil, fmt.Errorf("db.toml: %s[%d]: %w", m.Key, i, err)
		}
		pyDatetimes(reflect.ValueOf(rec).Elem())
		k := id(rec)
		if _, dup := into[k]; dup || k == "" {
			return nil, fmt.Errorf("db.toml: %s[%d]: id %q is empty or repeated", m.Key, i, k)
		}
		into[k] = rec
		ids = append(ids, k)
	}
	return ids, nil
}

// pyDatetimes writes a record's datetime fields as str() of a Python
// datetime does: TOML's "2025-01-15T10:30:00" is "2025-01-15 10:30:00".
func pyDatetimes(rec reflect.Value) {
	t := rec.Type()
	for i := range t.NumField() {
		if t.Field(i).Tag.Get("datetime") == "" {
			continue
		}
		f := rec.Field(i)
		if f.Kind() == reflect.Pointer {
			if f.IsNil() {
				continue
			}
			f = f.Elem()
		}
		f.SetString(strings.Replace(f.String(), "T", " ", 1))
	}
}

// Pydantic's defaults, for what a file leaves out.

func newCustomer() *Customer {
	return &Customer{AccountStatus: "Pending Verification", PaymentMethods: []PaymentMethod{}, LineIDs: []string{}, BillIDs: []string{},
		CreatedAt: "2025-01-01"} // DEFAULT_START_DATE is a date, which pydantic leaves as it is
}

func newLine() *Line { return &Line{Status: "Pending Activation"} }

func newBill() *Bill { return &Bill{LineItems: []LineItem{}, Status: "Draft"} }

func defaultPhone() Phone {
	return Phone{ID: PhoneID, SIMStatus: "active", SignalStrength: "good", Technology: "5G", ConnectionStatus: "connected",
		BatteryLevel: 80, DataEnabled: true, ModePreference: "4g_5g_preferred", WifiSignal: "none"}
}

func str(s string) *string { return &s }

func defaultAPN() APN {
	return APN{ID: APNID, Name: "internet", MMSAPN: str("mms"), MMSCURL: str("http://mms.carrier.com/mms/wapenc")}
}

func defaultApps() []*App {
	return []*App{{AppName: "messaging", SMS: true, Storage: true, Phone: true}, {AppName: "browser", Network: true, Storage: true}}
}

func defaultSurroundings() Surroundings {
	return Surroundings{ID: SurroundingsID, Signal: Strength{G2: "poor", G3: "fair", G4: "good", G5: "excellent"}, LineActive: true}
}

// loadPhone reads user_db.toml's [device]: the phone's own keys, its
// APN settings, VPN details and apps.
func loadPhone(w *world, dev tau2.Obj) error {
	if x, ok := dev.Get("active_apn_settings"); ok {
		w.apn = defaultAPN()
		if err := fromPy(x, reflect.ValueOf(&w.apn).Elem()); err != nil {
			return fmt.Errorf("active_apn_settings: %w", err)
		}
	}
	if x, ok := dev.Get("vpn_details"); ok && x != nil {
		w.vpn = &VPN{ID: VPNID, Performance: "unknown"}
		if err := fromPy(x, reflect.ValueOf(w.vpn).Elem()); err != nil {
			return fmt.Errorf("vpn_details: %w", err)
		}
	}
	if x, ok := dev.Get("app_statuses"); ok {
		w.apps = nil
		for _, m := range asObj(x) {
			a := &App{AppName: m.Key}
			rec := asObj(m.Value)
			if n, ok := rec.Get("app_name"); ok {
				s, _ := n.(string)
				a.AppName = s
			}
			if p, ok := rec.Get("permissions"); ok {
				if err := fromPy(p, reflect.ValueOf(a).Elem()); err != nil {
					return fmt.Errorf("app_statuses.%s.permissions: %w", m.Key, err)
				}
			}
			if a.AppName != m.Key {
				return fmt.Errorf("app_statuses.%s: app_name is %q; parthack keys an app by its name", m.Key, a.AppName)
			}
			w.apps = append(w.apps, a)
		}
	}
	return fromPy(without(dev, "active_apn_settings", "vpn_details", "app_statuses"), reflect.ValueOf(&w.phone).Elem())
}
