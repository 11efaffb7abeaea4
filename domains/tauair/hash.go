package tauair

import (
	"crypto/sha256"
	"encoding/hex"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/parthack/parthack/model"
)

// Ids a tool can create: book_reservation's three reservation ids and
// send_certificate's three certificate ids per user.
var (
	newReservations = []string{"HATHAT", "HATHAU", "HATHAV"}
	newCertificates = []string{"certificate_3221322", "certificate_3221323", "certificate_3221324"}
)

// paymentMethodIDs lists every payment method id a user can have: the
// initial ones and the certificates send_certificate adds, sorted.
func (d *DB) paymentMethodIDs(user string) []string {
	ids := slices.Clone(d.pms[user])
	for _, c := range newCertificates {
		if !slices.Contains(ids, c) {
			ids = append(ids, c)
		}
	}
	slices.Sort(ids)
	return ids
}

func (d *Domain) paymentMethodIDs(user string) []string { return d.db.paymentMethodIDs(user) }

// Document rebuilds tau-bench's database from a state: {"flights": …,
// "reservations": …, "users": …}, each record with the keys of its
// non-null fields.
func (d *Domain) Document(v model.StateView) map[string]any {
	c := &callCtx{d: d, v: v}
	out := map[string]any{}
	for _, coll := range collections {
		recs := map[string]any{}
		for _, id := range d.ids(coll) {
			if rec := c.root(coll, id); rec != nil {
				recs[id] = rec
			}
		}
		out[coll] = recs
	}
	return out
}

// collections are the database's top-level keys, sorted.
var collections = []string{"flights", "reservations", "users"}

// ids lists every id a collection can hold, sorted.
func (d *Domain) ids(coll string) []string {
	switch coll {
	case "flights":
		out := make([]string, len(d.db.flights))
		for i := range d.db.flights {
			out[i] = d.db.flights[i].number
		}
		return out
	case "reservations":
		out := slices.Clone(d.db.reservations)
		for _, r := range newReservations {
			if !slices.Contains(out, r) {
				out = append(out, r)
			}
		}
		slices.Sort(out)
		return out
	}
	return d.db.users
}

// root is one top-level record as tau-bench keeps it, nil when absent.
func (c *callCtx) root(coll, id string) map[string]any {
	switch coll {
	case "users":
		if c.v.Alive(TypeUser, id) {
			return c.userRecord(id)
		}
	case "reservations":
		if c.v.Alive(TypeReservation, id) {
			return c.record(TypeReservation, id)
		}
	case "flights":
		fi, ok := c.d.db.byNumber[id]
		if !ok || !c.v.Alive(TypeFlight, id) {
			return nil
		}
		rec := c.record(TypeFlight, id)
		dates := map[string]any{}
		for _, date := range c.d.db.flights[fi].dates {
			if fd := id + "/" + date; c.v.Alive(TypeFlightDate, fd) {
				day := c.record(TypeFlightDate, fd)
				delete(day, "flight")
				delete(day, "date")
				dates[date] = day
			}
		}
		rec["dates"] = dates
		return rec
	}
	return nil
}

// RootOf names the top-level record an entity belongs to.
func RootOf(typ, id string) (coll, key string) {
	switch typ {
	case TypeUser:
		return "users", id
	case TypePaymentMethod:
		user, _, _ := strings.Cut(id, "/")
		return "users", user
	case TypeReservation:
		return "reservations", id
	}
	number, _, _ := strings.Cut(id, "/")
	return "flights", number
}

// DataHash is tau-bench's data hash of a state: the sha256 of Python's
// str() of to_hashable(data), as tau_bench/envs/base.py computes it.
// changed lists the entities written since the initial snapshot (e.g. a
// log's diffs); every other record's text is the initial one, computed
// once, so a hash costs the records changed and one pass of sha256.
func (d *Domain) DataHash(v model.StateView, changed []model.CellDiff) string {
	d.initOnce.Do(d.initialReprs)
	dirty := map[[2]string]bool{}
	for _, cd := range changed {
		coll, key := RootOf(cd.Type, cd.ID)
		dirty[[2]string{coll, key}] = true
	}
	c := &callCtx{d: d, v: v}
	h := sha256.New()
	b := make([]byte, 0, 64<<10)
	b = append(b, '(')
	for ci, coll := range collections {
		if ci > 0 {
			b = append(b, ", "...)
		}
		b = append(b, '(')
		b = appendPyStr(b, coll)
		b = append(b, ", ("...)
		n := 0
		for _, id := range d.ids(coll) {
			var text []byte
			if dirty[[2]string{coll, id}] {
				if t, ok := c.appendRootRepr(nil, coll, id); ok {
					text = t
				}
			} else {
				text = d.initial[coll][id]
			}
			if text == nil {
				continue
			}
			if n > 0 {
				b = append(b, ", "...)
			}
			n++
			b = append(b, '(')
			b = appendPyStr(b, id)
			b = append(b, ", "...)
			b = append(b, text...)
			b = append(b, ')')
			if len(b) > 60<<10 {
				h.Write(b)
				b = b[:0]
			}
		}
		if n == 1 {
			b = append(b, ',')
		}
		b = append(b, "))"...)
	}
	b = append(b, ')')
	h.Write(b)
	return hex.EncodeToString(h.Sum(nil))
}

// initialReprs computes every initial record's Python text once, the
// records of a collection split among the cores (each its own reader of
// the loaded database): every command that hashes a state waits for it.
func (d *Domain) initialReprs() {
	v := d.db.Start()
	d.initial = map[string]map[string][]byte{}
	for _, coll := range collections {
		ids := d.ids(coll)
		reprs := make([][]byte, len(ids))
		parts := min(runtime.GOMAXPROCS(0), len(ids))
		var wg sync.WaitGroup
		for p := range parts {
			wg.Go(func() {
				c := &callCtx{d: d, v: v}
				var buf []byte // the texts side by side, in chunks
				for k := p * len(ids) / parts; k < (p+1)*len(ids)/parts; k++ {
					if cap(buf)-len(buf) < 16<<10 {
						buf = make([]byte, 0, 256<<10)
					}
					start := len(buf)
					if b, ok := c.appendRootRepr(buf, coll, ids[k]); ok {
						buf = b
						reprs[k] = buf[start:len(buf):len(buf)]
					}
				}
			})
		}
		wg.Wait()
		d.initial[coll] = map[string][]byte{}
		for k, id := range ids {
			if reprs[k] != nil {
				d.initial[coll][id] = reprs[k]
			}
		}
	}
}
