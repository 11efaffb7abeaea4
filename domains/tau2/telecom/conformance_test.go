package telecom

import (
	"encoding/json"
	"os"
	"path"
	"testing"

	"github.com/parthack/parthack/domains/tau2"
)

// files are the shipped telecom run files, decoded once per test.
func files(t *testing.T) []*tau2.Results {
	t.Helper()
	names := tau2.RunFiles("telecom")
	if len(names) != 3 {
		t.Fatalf("shipped telecom run files: %v, want 3", names)
	}
	var out []*tau2.Results
	for _, n := range names {
		src, err := tau2.RunFile(n)
		if err != nil {
			t.Fatal(err)
		}
		r, err := tau2.Decode(path.Base(n), src)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

func checker(t *testing.T, r *tau2.Results) *Checker {
	t.Helper()
	c, err := NewChecker(Solo(r))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestConformance replays every shipped telecom run: every result
// string, env assertion, db_match, action check and reward equals the
// recorded one.
func TestConformance(t *testing.T) {
	want := map[string][3]int{ // runs, calls, user calls
		"telecom-gpt-4.1.json.gz":         {40, 689, 482},
		"telecom-gpt-4o.json.gz":          {20, 215, 125},
		"telecom-no-user-gpt-4.1.json.gz": {40, 626, 0},
	}
	for _, r := range files(t) {
		rep, err := checker(t, r).Conform(r)
		if err != nil {
			t.Fatal(err)
		}
		w := want[r.File]
		if rep.Runs != w[0] || rep.Calls != w[1] || rep.UserCalls != w[2] {
			t.Errorf("%s: %d runs, %d calls, %d by the user; want %v", r.File, rep.Runs, rep.Calls, rep.UserCalls, w)
		}
		t.Logf("%s: %d/%d calls, %d/%d rewards, db_match %d/%d, env %d/%d, actions %d/%d", r.File, rep.CallsEqual, rep.Calls,
			rep.RewardsEqual, rep.Runs, rep.DBEqual, rep.DBChecks, rep.EnvEqual, rep.EnvChecks, rep.ActionEqual, rep.ActionChecks)
		for i, d := range rep.Disagreements {
			if i < 10 {
				t.Errorf("%s run %d (%s) call %d: %s: got %q, want %q", r.File, d.Index, d.Sim, d.Call, d.What, d.Got, d.Want)
			}
		}
	}
}

// TestDump writes, for scripts/tau2_telecom_differential.py, each run's
// result strings, both end hashes, the gold hashes, db_match (by the
// hashes and by the payload) and the env assertions, and the same of
// each task's gold run (to $TAU2_TELECOM_DUMP; skipped without it).
func TestDump(t *testing.T) {
	out := os.Getenv("TAU2_TELECOM_DUMP")
	if out == "" {
		t.Skip("TAU2_TELECOM_DUMP is not set")
	}
	type run struct {
		ID             string   `json:"id"`
		Outputs        []string `json:"outputs"`
		AgentHash      string   `json:"agent_hash"`
		UserHash       string   `json:"user_hash"`
		GoldAgentHash  string   `json:"gold_agent_hash"`
		GoldUserHash   string   `json:"gold_user_hash"`
		DBMatch        bool     `json:"db_match"`
		PayloadDBMatch bool     `json:"payload_db_match"`
		Env            []bool   `json:"env"`
	}
	dump, gold := map[string][]run{}, map[string][]run{}
	for _, r := range files(t) {
		c := checker(t, r)
		for _, sim := range r.Simulations {
			rp, err := c.Replay(r, sim)
			if err != nil {
				t.Fatal(err)
			}
			dump[r.File] = append(dump[r.File], run{ID: sim.ID, Outputs: rp.Outputs, AgentHash: rp.Hashes.Agent, UserHash: rp.Hashes.User,
				GoldAgentHash: rp.Task.GoldHashes.Agent, GoldUserHash: rp.Task.GoldHashes.User,
				DBMatch: rp.Hashes == rp.Task.GoldHashes, PayloadDBMatch: payloadDB(t, rp.Task, rp.Traj), Env: rp.Env})
		}
		for _, src := range r.Tasks {
			task, err := c.Derive(src)
			if err != nil {
				t.Fatal(err)
			}
			env, err := task.Env()
			if err != nil {
				t.Fatal(err)
			}
			h, err := c.Domain.StateHashes(env.Replay(task.Gold.Steps).View())
			if err != nil {
				t.Fatal(err)
			}
			gold[r.File] = append(gold[r.File], run{ID: src.ID, AgentHash: h.Agent, UserHash: h.User,
				GoldAgentHash: task.GoldHashes.Agent, GoldUserHash: task.GoldHashes.User,
				DBMatch: h == task.GoldHashes, PayloadDBMatch: payloadDB(t, task, task.Gold)})
		}
	}
	b, err := json.Marshal(map[string]any{"runs": dump, "gold": gold, "probes": runProbes(t)})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
