package telecom

import (
	"testing"

	"github.com/parthack/parthack/model"
)

// TestMoves: every move of every task is a legal call of its actor that
// the environment answers without a Python exception, from the
// initialized state or, for an inverse, right after the move it undoes;
// the phone's moves are the user's (the agent's in solo mode); the task
// offers an attacker the agent's moves only.
func TestMoves(t *testing.T) {
	db, err := Shipped()
	if err != nil {
		t.Fatal(err)
	}
	for _, solo := range []bool{false, true} {
		d := NewDomain(db, solo)
		tasks := shippedTasks(t)
		if solo {
			tasks = tasks[:10]
		}
		for _, tt := range tasks {
			task, err := Derive(d, tt)
			if err != nil {
				t.Fatal(err)
			}
			moves := task.Moves()
			agent := 0
			for _, st := range moves {
				requestor := Assistant
				if st.Actor == model.ActorUser {
					requestor = User
				}
				if known, _ := d.Tool(requestor, st.Tool); !known {
					t.Fatalf("%s: move %s by %s, who has no such tool", task.ID, st.Tool, st.Actor)
				}
				if Side(st.Tool) == User && solo == (st.Actor == model.ActorUser) {
					t.Errorf("%s: phone move %s by %s in solo=%v", task.ID, st.Tool, st.Actor, solo)
				}
				if st.Actor == model.ActorAgent {
					agent++
				}
				if _, _, fail := d.CallBy(task.Start(), requestor, st.Tool, st.Args); fail != "" {
					state := task.start.view().(entityView)
					if i := st.Index; i > 0 {
						prev := moves[i-1]
						writes, _, _ := d.CallBy(state, Assistant, prev.Tool, prev.Args)
						if err := state.apply(writes); err != nil {
							t.Fatal(err)
						}
					}
					if _, out, fail := d.CallBy(state, requestor, st.Tool, st.Args); fail != "" {
						t.Errorf("%s: move %s(%s) fails, after the move before it too: %s", task.ID, st.Tool, st.Args, out)
					}
				}
			}
			if len(task.Task.Calls) != agent {
				t.Errorf("%s: the task offers %d calls, the agent has %d moves", task.ID, len(task.Task.Calls), agent)
			}
			if len(moves) < len(Toggles) {
				t.Errorf("%s: %d moves", task.ID, len(moves))
			}
		}
	}
}
