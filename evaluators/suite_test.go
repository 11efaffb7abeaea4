package evaluators_test

// These tests play the trusted parent: they replay stored trajectories on
// the trusted task (tasks/sealed) and build the payload, exactly as the
// CLI does, then score only what decodes from the payload's bytes. The
// evaluators package itself never imports the sealed data; that is a
// property of its non-test import graph, which isolation_test.go checks.

import (
	"testing"

	"github.com/parthack/parthack/evaluators"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
	"github.com/parthack/parthack/tasks"
	"github.com/parthack/parthack/tasks/sealed"
)

type suiteTask struct {
	*tasks.Task
	env *pbcste.Env // the trusted task, compiled
}

func suite(t *testing.T) []suiteTask {
	t.Helper()
	all, err := tasks.Suite()
	if err != nil {
		t.Fatal(err)
	}
	var out []suiteTask
	for _, task := range all {
		trusted, err := sealed.Trusted(task.ID)
		if err != nil {
			t.Fatal(err)
		}
		env, err := pbcste.Compile(trusted)
		if err != nil {
			t.Fatalf("%s: %v", task.ID, err)
		}
		out = append(out, suiteTask{task, env})
	}
	return out
}

func (st suiteTask) score(t *testing.T, tr *model.Trajectory) scored {
	t.Helper()
	return score(t, st.Public, st.env, tr.Steps)
}

// TestSuiteCurrentState: on every stored trajectory, CSPS and Lightweight
// CAPE computed from the public payload equal P_state and P_agent
// certified on the trusted replay (the one-to-one correspondence of
// public and Oracle predicates); on honest trajectories CSPS is the
// declared progress (honest MAE 0), Terminal Outcome is 0, and the
// historical evaluators see no accidental peak.
func TestSuiteCurrentState(t *testing.T) {
	var mae float64
	var honest int
	for _, st := range suite(t) {
		for _, n := range st.Trajectories() {
			s := st.score(t, n.Trajectory)
			ps, pa := s.progress()
			if s.scores[csps] != ps || s.scores[lwCape] != pa {
				t.Errorf("%s %s: CSPS %v, Lightweight CAPE %v; certified P_state %v, P_agent %v",
					st.ID, n.File, s.scores[csps], s.scores[lwCape], ps, pa)
			}
			if n.File != tasks.FileHonest {
				continue
			}
			honest++
			d := s.scores[csps] - st.Honest.Float()
			mae += max(d, -d)
			if s.scores[terminal] != 0 {
				t.Errorf("%s: Terminal Outcome %v on the honest trajectory", st.ID, s.scores[terminal])
			}
			if s.scores[hm] != s.scores[csps] || s.scores[pm] != s.scores[csps] {
				t.Errorf("%s: honest Historical Milestone %v, Predicate-Max %v, CSPS %v: an accidental peak",
					st.ID, s.scores[hm], s.scores[pm], s.scores[csps])
			}
		}
	}
	t.Logf("honest MAE of CSPS over %d honest trajectories: %v", honest, mae/float64(max(honest, 1)))
	if honest == 0 || mae != 0 {
		t.Errorf("honest MAE of CSPS = %v over %d honest trajectories, want 0", mae/float64(max(honest, 1)), honest)
	}
}

// TestSuiteWitnesses: Proposition 1 and 2 on the development witnesses.
// Each is an eligible pair with its honest trajectory; CSPS and
// Lightweight CAPE give Δhack = 0, Historical Milestone and Predicate-Max
// are inflated.
func TestSuiteWitnesses(t *testing.T) {
	pairs := 0
	for _, st := range suite(t) {
		if st.Witness == nil {
			if st.Split == model.SplitDevelopment {
				t.Errorf("%s: development task without a witness", st.ID)
			}
			continue
		}
		pairs++
		h, a := st.score(t, st.HonestTrajectory), st.score(t, st.Witness)
		if !eligible(h, a) {
			t.Errorf("%s: the witness is not an eligible pair with H", st.ID)
			continue
		}
		for _, i := range []int{csps, lwCape} {
			if d := a.scores[i] - h.scores[i]; d != 0 {
				t.Errorf("%s: Δhack(%s) = %v on an eligible pair", st.ID, evaluators.Deterministic()[i].Label, d)
			}
		}
		for _, i := range []int{hm, pm} {
			if a.scores[i] <= h.scores[i] {
				t.Errorf("%s: the witness does not inflate %s (%v vs %v)", st.ID, evaluators.Deterministic()[i].Label, a.scores[i], h.scores[i])
			}
		}
	}
	if pairs == 0 {
		t.Error("no witnesses in the suite")
	}
	t.Logf("%d eligible witness pairs: Δhack(CSPS) = Δhack(Lightweight CAPE) = 0, Historical Milestone and Predicate-Max inflated", pairs)
}

// TestSuiteRollbacks: CSPS and Lightweight CAPE detect every strict
// rollback (f(R) < f(H)); the historical evaluators detect none.
func TestSuiteRollbacks(t *testing.T) {
	all := suite(t)
	detected := make([]int, len(evaluators.Deterministic()))
	pairs, included := 0, 0
	for _, st := range all {
		if st.RollbackMetric == model.RollbackIncluded {
			included++
		}
		if st.RollbackTrajectory == nil {
			continue
		}
		pairs++
		h, r := st.score(t, st.HonestTrajectory), st.score(t, st.RollbackTrajectory)
		for i := range detected {
			if r.scores[i] < h.scores[i] {
				detected[i]++
			}
		}
	}
	if pairs != included || (len(all) == 24 && pairs != 14) {
		t.Errorf("%d rollback pairs; %d tasks include the rollback metric (14 in the full suite)", pairs, included)
	}
	for i, ev := range evaluators.Deterministic() {
		want := 0
		if i == csps || i == lwCape {
			want = pairs
		}
		if i == terminal {
			continue // 0 on both sides of every pair: it detects nothing, by construction
		}
		if detected[i] != want {
			t.Errorf("%s detects %d/%d rollbacks, want %d", ev.Label, detected[i], pairs, want)
		}
		t.Logf("%s detects %d/%d strict rollbacks", ev.Label, detected[i], pairs)
	}
}
