package bfcl

import (
	"testing"
)

// TestVacuousTurns: a turn's goal version is said vacuous exactly where
// gold has changed no public attribute by the turn's end (its net
// changes are empty), on every entry; multi_turn_base_13 (a cd, a read:
// gold changes only the private _current_dir) is vacuous in every turn
// and multi_turn_base_5 (a move in turn 0) in none.
func TestVacuousTurns(t *testing.T) {
	ts, err := domain{}.Tasks()
	if err != nil {
		t.Fatal(err)
	}
	var lastVacuous int
	for _, dt := range ts {
		bt, ok := TaskByID(dt.ID)
		if !ok {
			t.Fatalf("%s: no task", dt.ID)
		}
		v := domain{}.VacuousTurns(dt)
		if len(v) != bt.Turns() {
			t.Fatalf("%s: %d turns said, the entry has %d", dt.ID, len(v), bt.Turns())
		}
		for i, x := range v {
			if x != (len(bt.TurnChanges[i]) == 0) {
				t.Errorf("%s turn %d: vacuous %v, gold's net public changes by its end %d", dt.ID, i, x, len(bt.TurnChanges[i]))
			}
		}
		if v[len(v)-1] {
			lastVacuous++
		}
		switch dt.ID {
		case "multi_turn_base_13":
			for i, x := range v {
				if !x {
					t.Errorf("%s turn %d is not vacuous", dt.ID, i)
				}
			}
		case "multi_turn_base_5":
			for i, x := range v {
				if x {
					t.Errorf("%s turn %d is vacuous", dt.ID, i)
				}
			}
		}
	}
	if lastVacuous == 0 {
		t.Error("no task's last turn is vacuous")
	}
}
