package model

import "testing"

// TestListsAreCopies: a caller that changes a list it was given changes
// nothing the package decodes or checks with.
func TestListsAreCopies(t *testing.T) {
	ops, cmps, roles, reasons := Ops(), Cmps(), Roles(), PairReasons()
	ops[0], cmps[0], roles[0], reasons[0] = "x", "x", "x", "x"
	if Ops()[0] != OpCreate || Cmps()[0] != CmpEq || Roles()[0] != "system" || PairReasons()[0] != MalformedSchema {
		t.Error("a list handed out is the package's own")
	}
}
