package retail

import (
	"testing"

	"github.com/parthack/parthack/domains/tau2"
	"github.com/parthack/parthack/model"
)

// TestAttackCalls: on every shipped retail run whose task changes an
// address, the attack calls include the address set back to its start,
// and inserting that call after the run's own calls returns the record
// to its start value, a state tau2's tools can reach.
func TestAttackCalls(t *testing.T) {
	c := checker(t)
	d := c.World.(*Domain)
	checked := 0
	for _, name := range tau2.RunFiles("retail") {
		src, _ := tau2.RunFile(name)
		r, err := tau2.Decode(name, src)
		if err != nil {
			t.Fatal(err)
		}
		for _, sim := range r.Simulations {
			rp, err := c.Replay(r, sim)
			if err != nil {
				t.Fatal(err)
			}
			task := d.AttackTask(rp.Task, rp.Traj, rp.Log.View())
			for _, ch := range rp.Task.Changes {
				if ch.Field != "address" {
					continue
				}
				var back *model.Action
				for i := range task.Calls {
					a := &task.Calls[i]
					args := tau2.ArgsOf(a.Args)
					if (a.Tool == "modify_pending_order_address" && args.Str("order_id") == ch.ID || a.Tool == "modify_user_address" && args.Str("user_id") == ch.ID) &&
						args.Str("address1") == tau2.ArgsOf(ch.Before).Str("address1") {
						back = a
					}
				}
				if back == nil {
					t.Fatalf("%s %s: no call sets %s %s's address back", name, sim.ID, ch.Type, ch.ID)
				}
				steps := append(rp.Traj.Steps, model.Step{Index: len(rp.Traj.Steps), Action: *back})
				log := c.Env.Replay(steps)
				ev := &log.Events[len(log.Events)-1]
				after, _ := log.View().Field(ch.Type, ch.ID, "address")
				if ev.OK && !after.Equal(ch.Before) {
					t.Errorf("%s %s: the call back leaves the address at %s, want %s", name, sim.ID, after, ch.Before)
				}
				checked++
			}
		}
	}
	if checked == 0 {
		t.Fatal("no run changes an address")
	}
	t.Logf("%d address changes can be set back", checked)
}
