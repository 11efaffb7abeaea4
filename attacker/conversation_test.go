package attacker

import (
	"context"
	"slices"
	"testing"

	"github.com/parthack/parthack/domains"
	_ "github.com/parthack/parthack/domains/tau2/airline"
	_ "github.com/parthack/parthack/domains/tau2/telecom"
	"github.com/parthack/parthack/model"
)

// TestSearchKeepsTau2Turns: on tau2 runs where the agent has no turn at
// some place among H's calls (telecom's gpt-4o runs, where the user calls
// tools on their phone; the airline run of gpt-oss-120b whose user hung
// up after tau2's greeting), every candidate the search walks to inserts
// the agent's calls only where it has a turn (never between the calls of
// one user message, nor after the run's last turn of the agent's) and
// keeps every call of H returning what it did. The same walk without the
// rule meets candidates of both kinds of place.
func TestSearchKeepsTau2Turns(t *testing.T) {
	walked := 0
	ruleless := map[bool]int{} // by whether the place is after H's last step
	for _, c := range []struct{ domain, model, task string }{{"tau2-telecom", "gpt-4o", ""}, {"tau2-airline", "gpt-oss-120b", "T2A-7"}} {
		d, err := domains.Lookup(c.domain)
		if err != nil {
			t.Fatal(err)
		}
		runs, err := d.Runs()
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range runs {
			if r.Model != c.model || c.task != "" && r.Task != c.task {
				continue
			}
			w, places := walkTurns(t, r)
			walked += w
			for end, n := range places {
				ruleless[end] += n
			}
		}
	}
	if walked == 0 || ruleless[false] == 0 || ruleless[true] == 0 {
		t.Errorf("%d candidates walked with the rule; without it, %d put a call between two of H's calls and %d after them where the agent has no turn: the test holds nothing", walked, ruleless[false], ruleless[true])
	}
}

// walkTurns walks a run's bound with its domain's conversation rule and
// holds every candidate to it, then walks it without the rule: the
// candidates with the rule, and those without it that call where the
// agent has no turn, by whether that place is after H's last step.
func walkTurns(t *testing.T, r *domains.Run) (int, map[bool]int) {
	task := r.Embedded
	h, err := r.Trajectory()
	if err != nil {
		t.Fatal(err)
	}
	conv, _ := model.ConversationOf(task.Model)
	turns := conv.Turns(h)
	if !slices.ContainsFunc(turns, func(x string) bool { return x != "" }) || task.M() == 0 || task.AttackTask == nil {
		return 0, nil
	}
	env, err := task.Env()
	if err != nil {
		t.Fatal(err)
	}
	pub := task.AttackTask(h, env.Replay(h.Steps).View())
	hlog, err := certifyHonest(env, h)
	if err != nil {
		t.Fatal(err)
	}
	s, err := newSearch(context.Background(), pub, env, h, Options{Edits: 2}, nil, hlog, nil)
	if err != nil {
		t.Fatal(err)
	}
	hOut := hlog.Outcomes()
	walked := 0
	for _, c := range s.walkAll().cands {
		walked++
		steps := s.stepsOf(c.path)
		kept := make([]int, len(c.path))
		place := 0 // the place in H the next inserted step goes
		for k, st := range c.path {
			if int(st) < len(h.Steps) {
				kept[k], place = int(st), int(st)+1
				continue
			}
			kept[k] = -1
			if turns[place] != "" {
				t.Errorf("%s: a candidate calls %s at place %d of H: %s", r.Name, steps[k].Tool, place, turns[place])
			}
		}
		if rej := model.CheckWitness(env.Task, h, steps, kept, hOut, env.Replay(steps).Outcomes()); rej != nil {
			t.Errorf("%s: the walk meets a candidate the rule refuses: %v", r.Name, rej)
		}
	}
	// The walk as it was, with no rule.
	s.conv, s.turns = nil, nil
	ruleless := map[bool]int{}
	for _, c := range s.walkAll().cands {
		place := 0
		for _, st := range c.path {
			if int(st) < len(h.Steps) {
				place = int(st) + 1
			} else if turns[place] != "" {
				ruleless[place == len(h.Steps)]++
				break
			}
		}
	}
	return walked, ruleless
}
