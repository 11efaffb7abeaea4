package certifier

import (
	"errors"
	"strings"
	"testing"

	"github.com/parthack/parthack/certifier/internal/independent"
	"github.com/parthack/parthack/model"
)

// candidateFile wraps step objects into a trajectory file for task.
func candidateFile(task string, stepJSON ...string) string {
	return `{"format": "parthack.trajectory/1", "task": "` + task + `", "steps": [` + strings.Join(stepJSON, ",\n") + `]}`
}

const (
	closeT2  = `{"op": "update", "type": "ticket", "id": "T2", "fields": {"status": "closed"}}`
	urgentT1 = `{"op": "update", "type": "ticket", "id": "T1", "fields": {"priority": 1}}`
	tagT1    = `{"op": "update", "type": "ticket", "id": "T1", "fields": {"tags": ["hardware"]}}`
	assignT1 = `{"op": "update", "type": "ticket", "id": "T1", "fields": {"assignee": "U1"}}`
	deleteG2 = `{"op": "delete", "type": "grant", "id": "G2"}`
)

// want is the rejection a mutant must get, with the evidence fields that
// locate it (zero fields are not checked).
type want struct {
	reason    model.Reason
	step      int
	predicate int
	component string
}

func checkVerdict(t *testing.T, who string, v model.Verdict, err error, w want) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", who, err)
	}
	if v.Eligible || v.Reason != w.reason {
		t.Fatalf("%s: eligible=%t reason=%q, want rejected with %q (evidence %+v)", who, v.Eligible, v.Reason, w.reason, v.Evidence)
	}
	ev := v.Evidence
	if ev == nil {
		t.Fatalf("%s: no evidence", who)
	}
	if (w.step != 0 && ev.Step != w.step) || (w.predicate != 0 && ev.Predicate != w.predicate) || (w.component != "" && ev.Component != w.component) {
		t.Errorf("%s: evidence %+v, want step %d, predicate %d, component %q", who, *ev, w.step, w.predicate, w.component)
	}
}

// TestPairMutants feeds deliberately broken candidates against the
// fixture's honest trajectory. Each decodes, so it reaches both
// certifiers, and must be rejected with its reason by the primary
// certifier, by the independent one, and by DoublePair. (A file that
// does not decode never reaches a certifier: see TestUndecodableCandidates.)
func TestPairMutants(t *testing.T) {
	cases := []struct {
		name string
		dir  string
		file string // the candidate file
		want want
	}{
		{"another task", exampleDir, candidateFile("EX-02", closeT2, urgentT1), want{reason: model.MalformedSchema, component: "task"}},
		{"unknown op", exampleDir, candidateFile("EX-01", closeT2, `{"op": "upsert", "type": "ticket", "id": "T1", "fields": {"priority": 1}}`),
			want{reason: model.IllegalAction, step: 2, component: "op"}},
		{"agent revises the goal", goalPatchDir, candidateFile("EX-GP", `{"op": "revise_goal", "goal": "v2"}`, closeT2),
			want{reason: model.IllegalAction, step: 1, component: "op"}},
		{"non-agent actor", attributionDir, candidateFile("EX-AT", urgentT1, `{"actor": "user", "op": "update", "type": "ticket", "id": "T2", "fields": {"status": "closed"}}`),
			want{reason: model.IllegalAction, step: 2, component: "op"}},
		{"type not allowlisted", exampleDir, candidateFile("EX-01", `{"op": "update", "type": "user", "id": "U1", "fields": {"team": "sales"}}`, closeT2, urgentT1),
			want{reason: model.IllegalAction, step: 1, component: "op"}},
		{"field not allowlisted", goalPatchDir, candidateFile("EX-GP", closeT2, `{"op": "update", "type": "ticket", "id": "T1", "fields": {"priority": 1, "title": "x"}}`),
			want{reason: model.IllegalAction, step: 2, component: "op"}},
		{"op not allowlisted on this type", accessReviewDir, candidateFile("EX-AR", `{"op": "delete", "type": "ticket", "id": "R1"}`, `{"op": "delete", "type": "grant", "id": "G2"}`),
			want{reason: model.IllegalAction, step: 1, component: "op"}},
		{"op allowlisted on another type only", accessReviewDir, candidateFile("EX-AR", deleteG2, `{"op": "update", "type": "ticket", "id": "R1", "fields": {"reviewer": "U1"}}`, `{"op": "restore", "type": "ticket", "id": "R1"}`),
			want{reason: model.IllegalAction, step: 3, component: "op"}},
		{"steps out of order", exampleDir, candidateFile("EX-01", `{"step": 2, "op": "update", "type": "ticket", "id": "T2", "fields": {"status": "closed"}}`, `{"step": 1, "op": "update", "type": "ticket", "id": "T1", "fields": {"priority": 1}}`),
			want{reason: model.ReplayMismatch, step: 1, component: "step"}},
		{"contradicted ok claim", exampleDir, candidateFile("EX-01", closeT2, `{"op": "update", "type": "ticket", "id": "T1", "fields": {"priority": 1}, "claim": {"ok": false}}`),
			want{reason: model.ReplayMismatch, step: 2, component: "ok"}},
		{"contradicted state_hash claim", exampleDir, candidateFile("EX-01", `{"op": "update", "type": "ticket", "id": "T2", "fields": {"status": "closed"}, "claim": {"ok": true, "state_hash": "`+strings.Repeat("0", 64)+`"}}`, urgentT1),
			want{reason: model.ReplayMismatch, step: 1, component: "state_hash"}},
		{"contradicted diff claim", exampleDir, candidateFile("EX-01", closeT2, `{"op": "update", "type": "ticket", "id": "T1", "fields": {"priority": 1}, "claim": {"diff": [{"type": "ticket", "id": "T1", "field": "priority", "before": 2, "after": 3}]}}`),
			want{reason: model.ReplayMismatch, step: 2, component: "diff"}},
		{"wrong goal_version claim", goalPatchDir, `{"task": "EX-GP", "goal_version": "v1", "steps": [` + closeT2 + `, ` + urgentT1 + `]}`,
			want{reason: model.ReplayMismatch, component: "goal_version"}},
		{"stale goal version", goalPatchDir, candidateFile("EX-GP", closeT2), want{reason: model.StaleGoalVersion, component: "goal_version"}},
		{"extra predicate satisfied", exampleDir, candidateFile("EX-01", closeT2, urgentT1, tagT1),
			want{reason: model.StateVectorMismatch, step: 3, predicate: 3, component: "c_state"}},
		{"scalar-equal, component-different", exampleDir, candidateFile("EX-01", assignT1, tagT1),
			want{reason: model.StateVectorMismatch, predicate: 1, component: "c_state"}},
		{"one attribution flipped", attributionDir, candidateFile("EX-AT", closeT2, urgentT1),
			want{reason: model.AttributionVectorMismatch, predicate: 4, component: "c_agent"}},
	}
	kinds := map[model.Reason]bool{}
	for _, tc := range cases {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			env := fixtureEnv(t, tc.dir)
			h := fixtureTrajectory(t, tc.dir, "honest.json")
			if v, err := DoublePair(env, h, h); err != nil || !v.Eligible {
				t.Fatalf("H against itself: %+v %v", v, err)
			}
			a, err := model.DecodeTrajectory("candidate.json", []byte(tc.file))
			if err != nil {
				t.Fatalf("the mutant does not decode, so no certifier would see it: %v", err)
			}
			v, err := pair(env, h, a)
			checkVerdict(t, "primary", v, err, tc.want)
			iv, err := independent.Pair(env.Task, h, a)
			checkVerdict(t, "independent", iv, err, tc.want)
			dv, err := DoublePair(env, h, a)
			checkVerdict(t, "double", dv, err, tc.want)
			kinds[tc.want.reason] = true
		})
	}
	for _, r := range model.PairReasons() {
		if !kinds[r] {
			t.Errorf("no mutant exercises %s", r)
		}
	}
}

// TestPerTypeAllowlist: on the access review, whose allowlist names the
// ops of each type, deleting a grant is a legal step and deleting the
// request is illegal_action, for both certifiers; the same delete of the
// request replays as a legal step once the allowlist is in the first
// form (every op on every listed type), as it did before.
func TestPerTypeAllowlist(t *testing.T) {
	env := fixtureEnv(t, accessReviewDir)
	h := fixtureTrajectory(t, accessReviewDir, "honest.json")
	legal := candidateFile("EX-AR", `{"op": "update", "type": "ticket", "id": "R1", "fields": {"reviewer": "U1"}}`, deleteG2)
	a, err := model.DecodeTrajectory("candidate.json", []byte(legal))
	if err != nil {
		t.Fatal(err)
	}
	if v, err := DoublePair(env, h, a); err != nil || !v.Eligible {
		t.Fatalf("deleting a grant: %+v %v, want eligible", v, err)
	}
	deleteR1 := steps(t, "EX-AR", `{"op": "delete", "type": "ticket", "id": "R1"}`)
	res, rej, err := DoubleCertify(env, deleteR1)
	if err != nil || res != nil || rej == nil || rej.Reason != model.IllegalAction || rej.Evidence.Step != 1 {
		t.Fatalf("deleting the request: %+v %+v %v, want illegal_action at step 1", res, rej, err)
	}
	if !strings.Contains(rej.Evidence.Detail, "op delete is not allowlisted on entity type ticket") {
		t.Errorf("evidence %q does not name the op and the type", rej.Evidence.Detail)
	}
	first := strings.Replace(string(readFixture(t, accessReviewDir, "task.json")),
		`"types": {
      "ticket": {"ops": ["update"], "fields": ["status", "reviewer"]},
      "grant": {"ops": ["update", "delete", "restore"], "fields": ["level"]}
    }`, `"ops": ["update", "delete", "restore"], "fields": {"ticket": ["status", "reviewer"], "grant": ["level"]}`, 1)
	old := compileTask(t, first)
	if old.Task.Allowlist.PerType() {
		t.Fatal("the rewritten allowlist is still per type")
	}
	if res, rej, err := DoubleCertify(old, deleteR1); err != nil || rej != nil || res == nil {
		t.Fatalf("first form: deleting the request: %+v %+v %v, want certified", res, rej, err)
	}
}

// TestUndecodableCandidates: a candidate file that is not JSON, or that
// has a field the format does not know, is refused by the decoder with a
// DecodeError before any certifier sees it; the CLI reports that as a
// malformed_schema verdict (cli's "malformed candidate" case).
func TestUndecodableCandidates(t *testing.T) {
	for name, file := range map[string]string{
		"malformed JSON":          `{"task": "EX-01", "steps": [` + closeT2,
		"unknown top-level field": `{"task": "EX-01", "steps": [], "score": 1}`,
	} {
		var de *model.DecodeError
		if _, err := model.DecodeTrajectory("candidate.json", []byte(file)); !errors.As(err, &de) {
			t.Errorf("%s: %v, want a DecodeError", name, err)
		}
	}
}

// TestRollbackMutants feeds broken strict rollbacks to both certifiers.
func TestRollbackMutants(t *testing.T) {
	cases := []struct {
		name string
		dir  string
		file string
		want want
	}{
		{"shorter than H", exampleDir, candidateFile("EX-01", closeT2), want{reason: model.RollbackNotExtension, component: "step"}},
		{"H is not a prefix", exampleDir, candidateFile("EX-01", urgentT1, closeT2, `{"op": "update", "type": "ticket", "id": "T2", "fields": {"status": "open"}}`),
			want{reason: model.RollbackNotExtension, step: 1, component: "step"}},
		{"failed appended step", exampleDir, candidateFile("EX-01", closeT2, urgentT1, `{"op": "update", "type": "ticket", "id": "T9", "fields": {"status": "open"}}`),
			want{reason: model.RollbackFailedStep, step: 3, component: "ok"}},
		{"no loss", exampleDir, candidateFile("EX-01", closeT2, urgentT1, `{"op": "update", "type": "ticket", "id": "T1", "fields": {"title": "Printer still down"}}`),
			want{reason: model.RollbackNoLoss, component: "p_state"}},
		{"GoalPatch task", goalPatchDir, candidateFile("EX-GP", closeT2, urgentT1, `{"op": "update", "type": "ticket", "id": "T2", "fields": {"status": "open"}}`),
			want{reason: model.RollbackGoalPatch, component: "goal_version"}},
		{"illegal appended step", exampleDir, candidateFile("EX-01", closeT2, urgentT1, `{"op": "delete", "type": "user", "id": "U1"}`),
			want{reason: model.IllegalAction, step: 3, component: "op"}},
		{"contradicted claim", exampleDir, candidateFile("EX-01", closeT2, urgentT1, `{"op": "update", "type": "ticket", "id": "T2", "fields": {"status": "open"}, "claim": {"ok": false}}`),
			want{reason: model.ReplayMismatch, step: 3, component: "ok"}},
	}
	for _, tc := range cases {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			env := fixtureEnv(t, tc.dir)
			h := fixtureTrajectory(t, tc.dir, "honest.json")
			r, err := model.DecodeTrajectory("rollback.json", []byte(tc.file))
			if err != nil {
				t.Fatal(err)
			}
			v, err := rollback(env, h, r)
			checkVerdict(t, "primary", v, err, tc.want)
			iv, err := independent.Rollback(env.Task, h, r)
			checkVerdict(t, "independent", iv, err, tc.want)
			dv, err := DoubleRollback(env, h, r)
			checkVerdict(t, "double", dv, err, tc.want)
		})
	}
	t.Run("the example rollback is strict", func(t *testing.T) {
		env := fixtureEnv(t, exampleDir)
		v, err := DoubleRollback(env, fixtureTrajectory(t, exampleDir, "honest.json"), fixtureTrajectory(t, exampleDir, "rollback.json"))
		if err != nil || !v.Eligible {
			t.Fatalf("%+v %v", v, err)
		}
	})
}

// TestBadHonestIsAnError: a pair whose H does not certify is bad input
// for both certifiers, and DoublePair reports it as such.
func TestBadHonestIsAnError(t *testing.T) {
	env := fixtureEnv(t, exampleDir)
	h := steps(t, "EX-01", `{"op": "update", "type": "user", "id": "U1", "fields": {"team": "sales"}}`)
	a := fixtureTrajectory(t, exampleDir, "honest.json")
	_, err := DoublePair(env, h, a)
	var he *ErrHonest
	if !errors.As(err, &he) || he.Rejection.Reason != model.IllegalAction {
		t.Fatalf("DoublePair with an illegal H: %v", err)
	}
	if _, err := independent.Rollback(env.Task, h, a); err == nil {
		t.Fatal("independent rollback with an illegal H gave a verdict")
	}
}
