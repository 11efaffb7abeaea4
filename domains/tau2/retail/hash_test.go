package retail

import "testing"

// TestInitialHash holds the hash of the shipped db.json to tau2's own
// (RetailTools(RetailDB.load(db.json)).get_db_hash() under tau2 a2c0247,
// pydantic 2.13).
func TestInitialHash(t *testing.T) {
	db, err := Shipped()
	if err != nil {
		t.Fatal(err)
	}
	const want = "b25c9cb211f5efcaee5dd646054a73c4a9f43f4f5acc32c10713cd9f9ac20e9c"
	if got := NewDomain(db).Hash(db.Start(), nil); got != want {
		t.Fatalf("hash of the initial database = %s, tau2's is %s", got, want)
	}
}
