package telecom

import (
	"slices"
	"testing"

	"github.com/parthack/parthack/evaluators"
	"github.com/parthack/parthack/internal/payload"
	"github.com/parthack/parthack/internal/payload/builder"
	"github.com/parthack/parthack/model"
)

// payloadDB is tau2's DB check of a trajectory read off its public
// payload, as score, bench, attack and the workbench read it
// (evaluators.Tau2).
func payloadDB(t *testing.T, task *Task, tr *model.Trajectory) bool {
	t.Helper()
	env, err := task.Env()
	if err != nil {
		t.Fatal(err)
	}
	if len(task.Task.Goals[0].Predicates) == 0 {
		t.Fatalf("%s: no goal predicate, so no payload", task.ID)
	}
	p, err := builder.Build(task.Task, env.Replay(tr.Steps), builder.TurnsOf(tr))
	if err != nil {
		t.Fatal(err)
	}
	q, err := payload.Decode(p.Bytes())
	if err != nil {
		t.Fatalf("%s: the payload does not decode: %v", task.ID, err)
	}
	s, ok := evaluators.Tau2(q)
	if !ok {
		t.Fatalf("%s: the payload has no tau2 reference", task.ID)
	}
	return s.DB == 1
}

// hashDB is tau2's DB check of a trajectory by its hashes, as import's
// db_match and Replay compute it: both databases at the end equal the
// gold environment's.
func hashDB(t *testing.T, c *Checker, task *Task, tr *model.Trajectory) bool {
	t.Helper()
	env, err := task.Env()
	if err != nil {
		t.Fatal(err)
	}
	h, err := c.Domain.StateHashes(env.Replay(tr.Steps).View())
	if err != nil {
		t.Fatal(err)
	}
	return h == task.GoldHashes
}

// TestDBCheckShippedRuns: on every shipped telecom run, the DB check read
// off the public payload is the one import's db_match computes from the
// hashes, and both are the db_match tau2 recorded. Before the task's
// reference carried the gold environment's changes, the payload's check
// was "the run changed nothing": 36/40, 8/20 and 34/40 runs agreed with
// the recorded db_match, and 22 recorded true scored 0.
func TestDBCheckShippedRuns(t *testing.T) {
	want := map[string][2]int{ // runs, recorded db_match true
		"telecom-gpt-4.1.json.gz":         {40, 6},
		"telecom-gpt-4o.json.gz":          {20, 14},
		"telecom-no-user-gpt-4.1.json.gz": {40, 7},
	}
	for _, r := range files(t) {
		c := checker(t, r)
		runs, matched, agree := 0, 0, 0
		for _, sim := range r.Simulations {
			rp, err := c.Replay(r, sim)
			if err != nil {
				t.Fatal(err)
			}
			ri := sim.RewardInfo
			if ri == nil || ri.DBCheck == nil || rp.Score.Premature {
				t.Fatalf("%s %s: no db_check recorded for a run that ended normally", r.File, sim.ID)
			}
			runs++
			rec := ri.DBCheck.DBMatch
			byPayload, byHash := payloadDB(t, rp.Task, rp.Traj), rp.Hashes == rp.Task.GoldHashes
			if byPayload != byHash || byHash != rec {
				t.Errorf("%s %s: db_match by the payload %v, by the hashes %v, recorded %v", r.File, sim.ID, byPayload, byHash, rec)
				continue
			}
			agree++
			if rec {
				matched++
			}
		}
		if w := want[r.File]; runs != w[0] || agree != runs || matched != w[1] {
			t.Errorf("%s: %d runs, %d agree, %d with db_match true; want %d, all, %d", r.File, runs, agree, matched, w[0], w[1])
		}
	}
}

// TestDBCheckGoldRuns: on each of the 100 telecom tasks, the gold run as
// the domain keeps it (domains.Task.Gold), and the gold run with a VPN
// then connected and disconnected (made and deleted again: no change to
// either database), score the same DB by the payload and by the hashes.
// 58 of the gold runs score 1 both ways, as in tau2 (before: 26 by the
// payload): tau2's gold environment makes the gold calls without
// sync_tools, a run gets sync_tools after every call, and in the other 42
// tasks the sync changes the phone's surroundings (line_active,
// roaming_allowed, mobile_data_usage_exceeded) or pays a bill. Replaying
// the gold calls with a sync after each ends exactly where the gold run
// does, on every task, so the sync is the whole of the difference;
// scripts/tau2_telecom_differential.py finds the same 58 with tau2's
// own Python.
func TestDBCheckGoldRuns(t *testing.T) {
	seen := map[string]bool{}
	gold := 0
	for _, r := range files(t) {
		c := checker(t, r)
		for _, src := range r.Tasks {
			task, err := c.Derive(src)
			if err != nil {
				t.Fatal(err)
			}
			if seen[task.ID] {
				continue
			}
			seen[task.ID] = true
			actor := model.ActorUser
			if c.Domain.Solo {
				actor = model.ActorAgent
			}
			undone := &model.Trajectory{Task: task.ID, Name: "gold, a VPN made and undone", Steps: slices.Clone(task.Gold.Steps)}
			for _, tool := range []string{"connect_vpn", "disconnect_vpn"} {
				undone.Steps = append(undone.Steps, model.Step{Index: len(undone.Steps), Actor: actor,
					Action: model.Action{Op: model.OpCall, Tool: tool, Args: model.MustJSON(`{}`)}})
			}
			var db [2]bool
			for i, tr := range []*model.Trajectory{task.Gold, undone} {
				byPayload, byHash := payloadDB(t, task, tr), hashDB(t, c, task, tr)
				if byPayload != byHash {
					t.Errorf("%s, %s: DB by the payload %v, by the hashes %v", task.ID, tr.Name, byPayload, byHash)
				}
				db[i] = byHash
			}
			if db[0] != db[1] {
				t.Errorf("%s: a VPN made and undone changes the DB check from %v to %v", task.ID, db[0], db[1])
			}
			if db[0] {
				gold++
			}
			// the gold calls with sync_tools after each, as a run has them
			synced := task.start.clone()
			withUser := &Domain{db: c.Domain.db}
			for _, a := range src.Criteria.Actions {
				args, err := model.FromJSON(a.Arguments)
				if err != nil {
					t.Fatal(err)
				}
				_, _ = withUser.respond(synced, a.Requestor, a.Name, args, true)
			}
			env, err := task.Env()
			if err != nil {
				t.Fatal(err)
			}
			if h, _ := c.Domain.StateHashes(env.Replay(task.Gold.Steps).View()); h != synced.hashes() {
				t.Errorf("%s: the gold run does not end where the gold calls with sync_tools do", task.ID)
			}
		}
	}
	if len(seen) != 100 || gold != 58 {
		t.Errorf("%d tasks, %d gold runs with DB 1; want 100 and 58", len(seen), gold)
	}
}
