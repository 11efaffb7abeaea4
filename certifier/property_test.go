package certifier

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
)

// terminal reads the certified vectors at termination off the log's last
// event, as pbcste's forward tracking computed them: a third code path
// beside the two certifiers.
func terminal(t *testing.T, env *pbcste.Env, tr *model.Trajectory) (goal int, cstate, cagent uint64) {
	t.Helper()
	log := env.Replay(tr.Steps)
	if len(log.Events) == 0 {
		t.Fatal("empty log")
	}
	last := log.Events[len(log.Events)-1]
	return int(last.Goal), last.CState, last.CAgent
}

// TestMatchedVectorInvariance is Proposition 1 as a property: over random
// pairs of trajectories on the fixture tasks, a pair is eligible exactly
// when both end on the same goal version with equal c_state and c_agent,
// and for every eligible pair any φ(c_state, c_agent) gives Δ = 0. For
// ineligible pairs on one goal version, a random lookup table φ tells
// them apart, so the vectors are all φ may see.
func TestMatchedVectorInvariance(t *testing.T) {
	for _, dir := range fixtureDirs {
		t.Run(dir, func(t *testing.T) {
			env := fixtureEnv(t, dir)
			r := rand.New(rand.NewPCG(1, uint64(len(dir))))
			table := map[string]float64{}
			phiTable := func(c *model.Certificate) float64 {
				k := fmt.Sprint(c.GoalVersion, c.CState, c.CAgent)
				if _, ok := table[k]; !ok {
					table[k] = r.Float64()
				}
				return table[k]
			}
			weights := map[string][2][]float64{}
			phiLinear := func(c *model.Certificate) float64 {
				w, ok := weights[c.GoalVersion]
				if !ok {
					for i := range w {
						w[i] = make([]float64, len(c.CState))
						for j := range w[i] {
							w[i][j] = r.NormFloat64()
						}
					}
					weights[c.GoalVersion] = w
				}
				f := 0.0
				for j := range c.CState {
					f += w[0][j]*float64(c.CState[j]) + w[1][j]*float64(c.CAgent[j])
				}
				return f
			}
			eligible, rejected := 0, 0
			for range 400 {
				h := randomTrajectory(r, env.Task, 1+r.IntN(5))
				a := randomTrajectory(r, env.Task, 1+r.IntN(5))
				v, err := DoublePair(env, h, a)
				if err != nil {
					t.Fatalf("H %s\nA %s\n%v", model.EncodeTrajectory(h), model.EncodeTrajectory(a), err)
				}
				hg, hs, ha := terminal(t, env, h)
				ag, as, aa := terminal(t, env, a)
				matched := hg == ag && hs == as && ha == aa
				if v.Eligible != matched {
					t.Fatalf("eligible=%t (%s) but matched vectors=%t\nH %s\nA %s", v.Eligible, v.Reason, matched, model.EncodeTrajectory(h), model.EncodeTrajectory(a))
				}
				if v.Honest == nil || v.Candidate == nil {
					t.Fatalf("a legal pair lacks a certificate: %+v", v)
				}
				if bitsOf(v.Honest.CState) != hs || bitsOf(v.Honest.CAgent) != ha || bitsOf(v.Candidate.CState) != as || bitsOf(v.Candidate.CAgent) != aa {
					t.Fatalf("certificates disagree with the log's last event\nH %s\nA %s", model.EncodeTrajectory(h), model.EncodeTrajectory(a))
				}
				dTable := phiTable(v.Candidate) - phiTable(v.Honest)
				dLinear := phiLinear(v.Candidate) - phiLinear(v.Honest)
				if v.Eligible {
					eligible++
					if dTable != 0 || dLinear != 0 {
						t.Fatalf("eligible pair with Δ = %g (table), %g (linear)", dTable, dLinear)
					}
				} else {
					rejected++
					if hg == ag && dTable == 0 {
						t.Fatalf("ineligible pair (%s) that a random lookup table cannot tell apart", v.Reason)
					}
				}
			}
			if eligible < 20 || rejected < 20 {
				t.Fatalf("generator too lopsided: %d eligible, %d rejected", eligible, rejected)
			}
		})
	}
}

// historical is f_hist = max over t of ψ(c_state at t), the initial
// snapshot included, each step under the goal version active then.
func historical(env *pbcste.Env, log *pbcste.Log) model.Frac {
	init := env.Initial()
	var bits uint64
	for j, p := range env.Goals()[0].Preds {
		if init.Eval(p) {
			bits |= 1 << uint(j)
		}
	}
	best := psi(bits, len(env.Goals()[0].Preds))
	for _, ev := range log.Events {
		if f := psi(ev.CState, len(env.Goals()[ev.Goal].Preds)); best.Less(f) {
			best = f
		}
	}
	return best
}

// TestHistoricalWitness is Proposition 2, constructively: take a random
// H, find the event where its ψ(c_state) peaks, insert there one update
// from the alphabet that satisfies one more predicate and then its legal
// undo (the diff's before values written back). The result must be
// eligible, with equal vectors, and strictly higher max-over-time ψ.
func TestHistoricalWitness(t *testing.T) {
	env := fixtureEnv(t, exampleDir)
	r := rand.New(rand.NewPCG(7, 7))
	built := 0
	for range 150 {
		h := randomTrajectory(r, env.Task, 1+r.IntN(6))
		hlog := env.Replay(h.Steps)
		hmax := historical(env, hlog)
		// k is the number of H's steps taken when H peaks.
		k, peakBits := 0, uint64(0)
		for _, ev := range hlog.Events {
			if psi(ev.CState, 4) == hmax && ev.Step >= 0 {
				k, peakBits = ev.Step+1, ev.CState
				break
			}
		}
		for _, peak := range alphabetUpdates(env.Task) {
			pre := append(append([]model.Step(nil), h.Steps[:k]...), peak)
			plog := env.Replay(pre)
			pev := &plog.Events[len(plog.Events)-1]
			if !pev.OK || pev.CState&peakBits != peakBits || !hmax.Less(psi(pev.CState, 4)) {
				continue
			}
			undo := model.Step{Action: model.Action{Op: model.OpUpdate, Type: peak.Type, ID: peak.ID}}
			for _, d := range plog.TypedDiff(pev) {
				undo.Fields = append(undo.Fields, model.Assign{Field: d.Field, Value: d.Before})
			}
			a := &model.Trajectory{Task: h.Task, Steps: append(append(pre, undo), h.Steps[k:]...)}
			v, err := DoublePair(env, h, a)
			if err != nil {
				t.Fatal(err)
			}
			if !v.Eligible {
				t.Fatalf("witness rejected: %s %+v\nH %s\nA %s", v.Reason, v.Evidence, model.EncodeTrajectory(h), model.EncodeTrajectory(a))
			}
			if amax := historical(env, env.Replay(a.Steps)); !hmax.Less(amax) {
				t.Fatalf("witness max ψ %s is not above H's %s", amax, hmax)
			}
			built++
			break
		}
	}
	if built < 50 {
		t.Fatalf("only %d witnesses built", built)
	}
}

// alphabetUpdates lists every single-field update the alphabet allows.
func alphabetUpdates(task *model.Task) []model.Step {
	var out []model.Step
	for _, typ := range slices.Sorted(maps.Keys(task.Alphabet)) {
		at := task.Alphabet[typ]
		for _, id := range at.IDs {
			for _, f := range at.Fields {
				for _, v := range f.Values {
					out = append(out, model.Step{Action: model.Action{Op: model.OpUpdate, Type: typ, ID: id, Fields: []model.Assign{{Field: f.Field, Value: v}}}})
				}
			}
		}
	}
	return out
}

// TestReplayClaimsAgree copies the primary's replay into claims (ok,
// state hash and diff of every step, the final goal version) and has
// both certifiers check them: the independent state hash and diffs must
// equal the environment's at every step.
func TestReplayClaimsAgree(t *testing.T) {
	for _, dir := range fixtureDirs {
		t.Run(dir, func(t *testing.T) {
			env := fixtureEnv(t, dir)
			r := rand.New(rand.NewPCG(3, uint64(len(dir))))
			for range 150 {
				tr := randomTrajectory(r, env.Task, r.IntN(12))
				log := env.Replay(tr.Steps)
				for i := range log.Events {
					ev := &log.Events[i]
					if ev.Step < 0 {
						continue
					}
					tr.Steps[ev.Step].Number = ev.Step + 1
					tr.Steps[ev.Step].Claim = model.Claim{HasOK: true, OK: ev.OK, StateHash: ev.Hash.String(), HasDiff: true, Diff: log.TypedDiff(ev)}
				}
				tr.GoalClaim = log.Goal().Version
				// Through the file format, as a recorded trajectory arrives.
				back, err := model.DecodeTrajectory("claims.json", model.EncodeTrajectory(tr))
				if err != nil {
					t.Fatal(err)
				}
				if _, rej, err := DoubleCertify(env, back); err != nil || rej != nil {
					t.Fatalf("%s\nrejection %v, error %v", model.EncodeTrajectory(tr), rej, err)
				}
			}
		})
	}
}

// randomTask generates a task over the example's schema: a random
// initial snapshot (tombstones included), two goal versions of random
// predicates (every expression form, refs with and without a target,
// counts with filters), and a random script of non-agent writes,
// deletions, restores and goal revisions.
func randomTask(r *rand.Rand) *model.Task {
	str, strs := model.Str, func(xs ...string) model.Value { return model.List(xs) }
	pick := func(xs ...string) string { return xs[r.IntN(len(xs))] }
	task := &model.Task{ID: "RND", Schema: model.Schema{Types: []model.EntityType{
		{Name: "user", Fields: []model.FieldDef{{Name: "name", Kind: model.KindString}, {Name: "team", Kind: model.KindEnum, Values: []string{"it", "sales"}}}},
		{Name: "ticket", Fields: []model.FieldDef{
			{Name: "title", Kind: model.KindString},
			{Name: "status", Kind: model.KindEnum, Values: []string{"open", "pending", "closed"}},
			{Name: "assignee", Kind: model.KindRef, Target: "user"},
			{Name: "tags", Kind: model.KindStrings},
			{Name: "priority", Kind: model.KindInt},
		}},
	}}}
	task.Initial = []model.Entity{
		{Type: "user", ID: "U1", Fields: []model.Assign{{Field: "team", Value: str("it")}}},
		{Type: "user", ID: "U2", Deleted: r.IntN(3) == 0, Fields: []model.Assign{{Field: "team", Value: str("sales")}}},
		{Type: "ticket", ID: "T1", Fields: []model.Assign{{Field: "status", Value: str("open")}, {Field: "assignee", Value: str("U1")}, {Field: "tags", Value: strs()}, {Field: "priority", Value: model.Int(2)}}},
		{Type: "ticket", ID: "T2", Deleted: r.IntN(3) == 0, Fields: []model.Assign{{Field: "status", Value: str(pick("open", "closed"))}, {Field: "priority", Value: model.Int(3)}}},
	}
	task.Allowlist = model.Allowlist{Ops: []model.Op{model.OpCreate, model.OpUpdate, model.OpDelete, model.OpRestore},
		Fields: map[string][]string{"ticket": {"title", "status", "assignee", "tags", "priority"}, "user": {"team"}}}
	values := map[string][]model.Value{
		"status":   {str("open"), str("pending"), str("closed")},
		"assignee": {str("U1"), str("U2"), model.Null},
		"tags":     {strs("hardware"), strs(), strs("hardware", "net")},
		"priority": {model.Int(1), model.Int(2), model.Int(3)},
		"title":    {str("a"), str("b")},
		"team":     {str("it"), str("sales")},
	}
	task.Alphabet = model.Alphabet{
		"ticket": {IDs: []string{"T1", "T2", "T3"}},
		"user":   {IDs: []string{"U1", "U2", "U3"}, Fields: []model.AlphabetField{{Field: "team", Values: values["team"]}}},
	}
	for _, f := range []string{"status", "assignee", "tags", "priority", "title"} {
		at := task.Alphabet["ticket"]
		at.Fields = append(at.Fields, model.AlphabetField{Field: f, Values: values[f]})
		task.Alphabet["ticket"] = at
	}
	cond := func() model.Cond {
		switch f := pick("status", "priority", "tags", "assignee"); f {
		case "status":
			return model.Cond{Field: f, Cmp: model.CmpIn, Values: []model.Value{str("open"), str(pick("pending", "closed"))}}
		case "priority":
			return model.Cond{Field: f, Cmp: model.Cmps()[r.IntN(len(model.Cmps())-2)+1], Value: model.Int(int64(1 + r.IntN(3))), Values: []model.Value{model.Int(1)}}
		case "tags":
			return model.Cond{Field: f, Cmp: model.CmpContains, Value: str("hardware")}
		default:
			return model.Cond{Field: f, Cmp: pick2(r, model.CmpEq, model.CmpNe), Value: str(pick("U1", "U2"))}
		}
	}
	var expr func(depth int) model.Expr
	expr = func(depth int) model.Expr {
		n := 5
		if depth > 0 {
			n = 8
		}
		ticket := pick("T1", "T2", "T3")
		switch r.IntN(n) {
		case 0:
			c := cond()
			return model.Expr{Kind: model.ExprField, Type: "ticket", ID: ticket, Field: c.Field, Cmp: c.Cmp, Value: c.Value, Values: c.Values}
		case 1:
			return model.Expr{Kind: pick2(r, model.ExprAlive, model.ExprAbsent), Type: pick("ticket", "user"), ID: pick(ticket, "U1", "U2", "U3")}
		case 2:
			counts := []model.Cmp{model.CmpEq, model.CmpNe, model.CmpLt, model.CmpLe, model.CmpGt, model.CmpGe}
			e := model.Expr{Kind: model.ExprCount, Type: "ticket", Cmp: counts[r.IntN(len(counts))], N: int64(r.IntN(3))}
			for range r.IntN(3) {
				e.Where = append(e.Where, cond())
			}
			return e
		case 3, 4:
			return model.Expr{Kind: model.ExprRef, Type: "ticket", ID: ticket, Field: "assignee", Target: pick("", "", "U1", "U2")}
		case 5:
			return model.Expr{Kind: model.ExprAll, Args: []model.Expr{expr(depth - 1), expr(depth - 1)}}
		case 6:
			return model.Expr{Kind: model.ExprAny, Args: []model.Expr{expr(depth - 1), expr(depth - 1)}}
		}
		return model.Expr{Kind: model.ExprNot, Args: []model.Expr{expr(depth - 1)}}
	}
	for _, v := range []string{"v1", "v2"} {
		g := model.GoalVersion{Version: v}
		for j := range 2 + r.IntN(3) {
			g.Predicates = append(g.Predicates, model.Predicate{ID: fmt.Sprintf("g%d", j+1), Expr: expr(2)})
		}
		task.Goals = append(task.Goals, g)
	}
	after := 0
	for range r.IntN(4) {
		after += r.IntN(3)
		ev := model.ScriptedEvent{After: after, Actor: []model.Actor{model.ActorUser, model.ActorEnvironment, model.ActorSystem}[r.IntN(3)]}
		switch r.IntN(5) {
		case 0:
			ev.Action = model.Action{Op: model.OpReviseGoal, Goal: pick("v1", "v2")}
		case 1:
			ev.Action = model.Action{Op: pick2(r, model.OpDelete, model.OpRestore), Type: pick("ticket", "user"), ID: pick("T1", "T2", "U1", "U2")}
		case 2:
			ev.Action = model.Action{Op: model.OpCreate, Type: "ticket", ID: pick("T2", "T3"), Fields: []model.Assign{{Field: "status", Value: str("open")}}}
		default:
			f := pick("status", "assignee", "tags", "priority")
			ev.Action = model.Action{Op: model.OpUpdate, Type: "ticket", ID: pick("T1", "T2", "T3"), Fields: []model.Assign{{Field: f, Value: values[f][r.IntN(len(values[f]))]}}}
		}
		task.Script = append(task.Script, ev)
	}
	return task
}

func pick2[T any](r *rand.Rand, a, b T) T {
	if r.IntN(2) == 0 {
		return a
	}
	return b
}

// TestRandomTasksAgree is the differential test of double certification
// on generated tasks: every certification, pair and rollback must come
// out the same from both certifiers.
func TestRandomTasksAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 17))
	verdicts := map[model.Reason]int{}
	for range 150 {
		task := randomTask(r)
		env, err := pbcste.Compile(task)
		if err != nil {
			t.Fatal(err)
		}
		for range 10 {
			h := randomTrajectory(r, task, r.IntN(6))
			a := randomTrajectory(r, task, r.IntN(6))
			rb := &model.Trajectory{Task: task.ID, Steps: append(append([]model.Step(nil), h.Steps...), randomTrajectory(r, task, 1+r.IntN(2)).Steps...)}
			if _, _, err := DoubleCertify(env, a); err != nil {
				t.Fatalf("%+v\n%s\n%v", task, model.EncodeTrajectory(a), err)
			}
			v, err := DoublePair(env, h, a)
			if err != nil {
				t.Fatalf("%+v\nH %s\nA %s\n%v", task, model.EncodeTrajectory(h), model.EncodeTrajectory(a), err)
			}
			verdicts[v.Reason]++
			if _, err := DoubleRollback(env, h, rb); err != nil {
				t.Fatalf("%+v\nH %s\nR %s\n%v", task, model.EncodeTrajectory(h), model.EncodeTrajectory(rb), err)
			}
		}
	}
	for _, reason := range []model.Reason{"", model.StaleGoalVersion, model.StateVectorMismatch, model.AttributionVectorMismatch} {
		if verdicts[reason] == 0 {
			t.Errorf("no pair came out %q: %v", reason, verdicts)
		}
	}
}
