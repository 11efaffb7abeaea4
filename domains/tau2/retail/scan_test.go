package retail

import (
	"reflect"
	"strings"
	"testing"

	"github.com/parthack/parthack/domains/tau2"
)

// TestScanReadsWhatParseReads holds the database as scanDB reads it to
// the database read through tau2's Python values (parseDB), entities,
// orders of keys and all: the shipped db.json, and small ones with what
// pydantic reads otherwise (integers it makes floats) or the scanner
// leaves to parseDB (escapes, non-ASCII, a key twice, an item that is no
// record), each read as parseDB reads it.
func TestScanReadsWhatParseReads(t *testing.T) {
	shipped, err := tau2.Data("retail/db.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	small := func(order, user, product string) string {
		return `{"products": {"p1": ` + product + `}, "users": {"u1": ` + user + `}, "orders": {"#1": ` + order + `}}`
	}
	product := `{"name": "T", "product_id": "p1", "variants": {"v2": {"item_id": "v2", "options": {"size": "M", "color": "red"}, "available": true, "price": 50}, "v1": {"item_id": "v1", "options": {"color": "blue"}, "available": false, "price": 10.5}}}`
	user := `{"user_id": "u1", "name": {"last_name": "B", "first_name": "A"}, "address": {"zip": "1", "city": "X"}, "email": "a@b", "payment_methods": {"gift_card_1": {"source": "gift_card", "id": "gift_card_1", "balance": 20}, "paypal_2": {"source": "paypal", "id": "paypal_2"}}, "orders": ["#1"]}`
	order := `{"order_id": "#1", "user_id": "u1", "address": {"zip": "1"}, "items": [{"name": "T", "product_id": "p1", "item_id": "v1", "price": 10, "options": {"color": "blue"}}], "status": "pending", "fulfillments": [], "payment_history": [{"transaction_type": "payment", "amount": 10, "payment_method_id": "paypal_2"}], "exchange_price_difference": 3}`
	texts := map[string]string{
		"shipped":        string(shipped),
		"small":          small(order, user, product),
		"escape":         small(order, strings.Replace(user, `"A"`, `"A\u00e9"`, 1), product),
		"non-ASCII":      small(order, strings.Replace(user, `"A"`, `"Aé"`, 1), product),
		"key twice":      small(order, user, strings.Replace(product, `"name": "T"`, `"name": "T", "name": "U"`, 1)),
		"item no record": small(strings.Replace(order, `"items": [{`, `"items": ["x", {`, 1), user, product),
		"long integer":   small(strings.Replace(order, `"price": 10,`, `"price": 12345678901234567890,`, 1), user, product),
		"float":          small(strings.Replace(order, `"amount": 10,`, `"amount": 1e2,`, 1), user, product),
		"not JSON":       small(order, user, product[:len(product)-1]),
	}
	scanned := 0
	for name, text := range texts {
		want, werr := parseDB([]byte(text))
		got, gerr := Load([]byte(text))
		if fast, ok := scanDB([]byte(text)); ok {
			scanned++
			if werr != nil {
				t.Errorf("%s: scanned, yet parseDB refuses it: %v", name, werr)
				continue
			}
			got = fast
		}
		switch {
		case (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error():
			t.Errorf("%s: Load's error %v, parseDB's %v", name, gerr, werr)
		case werr == nil && !reflect.DeepEqual(got, want):
			for i := range want.Entities {
				if i >= len(got.Entities) || !reflect.DeepEqual(got.Entities[i], want.Entities[i]) {
					t.Errorf("%s: entity %d:\n got %v\nwant %v", name, i, got.Entities[i], want.Entities[i])
					break
				}
			}
			t.Errorf("%s: the databases differ", name)
		}
	}
	if scanned < 3 {
		t.Errorf("only %d texts scanned", scanned)
	}
}
