package tauair

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"

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
	users := map[string]any{}
	for _, u := range d.db.users {
		if v.Alive(TypeUser, u) {
			users[u] = c.userRecord(u)
		}
	}
	reservations := map[string]any{}
	for _, r := range d.db.reservations {
		if v.Alive(TypeReservation, r) {
			reservations[r] = c.record(TypeReservation, r)
		}
	}
	for _, r := range newReservations {
		if v.Alive(TypeReservation, r) {
			reservations[r] = c.record(TypeReservation, r)
		}
	}
	flights := map[string]any{}
	for i := range d.db.flights {
		fi := &d.db.flights[i]
		if !v.Alive(TypeFlight, fi.number) {
			continue
		}
		rec := c.record(TypeFlight, fi.number)
		dates := map[string]any{}
		for _, date := range fi.dates {
			if id := fi.number + "/" + date; v.Alive(TypeFlightDate, id) {
				day := c.record(TypeFlightDate, id)
				delete(day, "flight")
				delete(day, "date")
				dates[date] = day
			}
		}
		rec["dates"] = dates
		flights[fi.number] = rec
	}
	return map[string]any{"flights": flights, "reservations": reservations, "users": users}
}

// DataHash is tau-bench's data hash of a state: the sha256 of Python's
// str() of to_hashable(data), as tau_bench/envs/base.py computes it.
func (d *Domain) DataHash(v model.StateView) string {
	sum := sha256.Sum256(appendPyRepr(nil, d.Document(v)))
	return hex.EncodeToString(sum[:])
}
