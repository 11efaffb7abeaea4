package telecom

import "testing"

// TestShippedHashes holds tau2's get_db_hash of both shipped databases,
// as tau2's own Python computes them (scripts/tau2_telecom_differential.py).
func TestShippedHashes(t *testing.T) {
	db, err := Shipped()
	if err != nil {
		t.Fatal(err)
	}
	h := db.start.hashes()
	const agent, user = "304cf5ef059852e117ea801ab9a5efc24c9713ec887679dc2e30acceb4b6742d", "e1f3a8637388808221228ff3f87294444e6b64caf721f5eb243a85d0a9380b28"
	if h.Agent != agent || h.User != user {
		t.Errorf("hashes %s / %s, want tau2's %s / %s", h.Agent, h.User, agent, user)
	}
}
