package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/parthack/parthack/domains"
	"github.com/parthack/parthack/domains/tau2"
	"github.com/parthack/parthack/model"
)

// shippedRun writes a shipped tau2 run file to a temporary directory.
func shippedRun(t *testing.T, name string) string {
	t.Helper()
	b, err := tau2.RunFile("runs/" + name)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestImportTau2Conformance: import tau2 --dry-run --format json holds a
// real Results file to what tau2 recorded, one object per file: on the
// retail files every call's result and every reward and check agree.
func TestImportTau2Conformance(t *testing.T) {
	files := []string{shippedRun(t, "retail-gpt-4.1.json.gz"), shippedRun(t, "retail-gpt-4.1-mini.json.gz")}
	code, out, errs := run(t, append([]string{"import", "tau2", "--dry-run", "--format", "json"}, files...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var got []struct {
		File         string `json:"file"`
		Domain       string `json:"domain"`
		Runs         int    `json:"runs"`
		Calls        int    `json:"calls"`
		CallsEqual   int    `json:"calls_equal"`
		RewardsEqual int    `json:"rewards_equal"`
		Remapped     int    `json:"remapped"`
		Checks       []struct {
			Name            string
			Recorded, Equal int
		} `json:"checks"`
		Disagreements []any `json:"disagreements"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || len(got) != 2 {
		t.Fatalf("%d objects (%v):\n%s", len(got), err, out)
	}
	for _, c := range got {
		if c.Domain != "tau2-retail" || c.Calls == 0 || c.CallsEqual != c.Calls || c.RewardsEqual != c.Runs || len(c.Disagreements) != 0 {
			t.Errorf("%s: %+v", c.File, c)
		}
		for _, k := range c.Checks {
			if k.Equal != k.Recorded {
				t.Errorf("%s: %s %d of %d", c.File, k.Name, k.Equal, k.Recorded)
			}
		}
	}
	if got[0].Calls+got[1].Calls != 1172 || got[1].Remapped != 113 {
		t.Errorf("calls %d+%d (want 1,172), re-mapped %d (want 113)", got[0].Calls, got[1].Calls, got[1].Remapped)
	}
}

// TestImportTau2BadInput: a file that is no Results file, a truncated
// gzip, a run of a task the file lacks, a call of a tool the domain does
// not have and arguments that are no object are each refused, located,
// and nothing is saved, not even the good file imported beside it.
func TestImportTau2BadInput(t *testing.T) {
	dir := t.TempDir()
	good, err := tau2.RunFile("runs/retail-gpt-4.1.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	plain, err := tau2.Data("runs/retail-gpt-4.1.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// edited is the good file with the first tool call of simulation 2
	// changed by edit.
	edited := func(name string, edit func(call map[string]any)) string {
		var res map[string]any
		if err := json.Unmarshal(plain, &res); err != nil {
			t.Fatal(err)
		}
		for _, m := range res["simulations"].([]any)[2].(map[string]any)["messages"].([]any) {
			if calls, ok := m.(map[string]any)["tool_calls"].([]any); ok && len(calls) > 0 {
				edit(calls[0].(map[string]any))
				break
			}
		}
		b, err := json.MarshalIndent(res, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		return write(name, b)
	}
	other := shippedRun(t, "airline-gpt-4.1.json.gz")
	for _, tc := range []struct {
		name string
		file string
		want string
	}{
		{"not a Results file", write("list.json", []byte(`[{"task_id": 1}]`)), "list.json:1:1: not a tau2 Results file"},
		{"truncated gzip", write("cut.json.gz", good[:len(good)/2]), "cut.json.gz:"},
		{"a task the file lacks", write("lacks.json", []byte(`{"timestamp": "x", "info": {"git_commit": "a2c0247", "environment_info": {"domain_name": "retail"}, "agent_info": {"llm": "m"}, "user_info": {"llm": "m"}}, "tasks": [], "simulations": [{"id": "s", "task_id": "7", "trial": 0, "termination_reason": "user_stop", "messages": []}]}`)),
			`lacks.json:1:209: simulations[0].task_id (simulation s): task "7" is not among the file's 0 tasks`},
		{"an unknown tool", edited("tool.json", func(c map[string]any) { c["name"] = "launch_rocket" }),
			`tool.json:1481:7: simulations[2].messages[6].tool_calls[0] (simulation e5a1226c-c9bc-4596-8797-ebeae6151897): call 1: not certifiable: illegal_action: tool "launch_rocket"`},
		{"arguments no object", edited("args.json", func(c map[string]any) { c["arguments"] = []int{1, 2} }),
			"].tool_calls[0].arguments (simulation e5a1226c-c9bc-4596-8797-ebeae6151897): expected an object, got [ 1, 2 ]\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := filepath.Join(dir, tc.name+".db")
			code, _, errs := run(t, "--db", db, "import", "tau2", other, tc.file)
			if code != 2 || !strings.Contains(errs, tc.want) {
				t.Fatalf("exit %d, want 2 with %q: %s", code, tc.want, errs)
			}
			if _, err := os.Stat(db); err == nil {
				t.Fatal("a refused import left the store it created")
			}
		})
	}
}

// TestBenchTau2: bench --domain tau2-retail on one user file (--runs)
// prints the per-model table, attacks tau2's own evaluators directly, and
// the ACTION checks, historical, are inflated where the DB check is not.
func TestBenchTau2(t *testing.T) {
	f := shippedRun(t, "retail-gpt-4.1.json.gz")
	code, out, errs := run(t, "bench", "--domain", "tau2-retail", "--runs", f, "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var rep struct {
		Failed struct {
			Models []struct {
				Model        string
				Runs, Failed int
			}
			Groups []struct {
				Set, Target string
				Successes   int
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Failed.Models) != 1 || rep.Failed.Models[0].Model != "gpt-4.1" || rep.Failed.Models[0].Runs != 40 {
		t.Fatalf("models: %+v", rep.Failed.Models)
	}
	succ := map[string]int{}
	for _, g := range rep.Failed.Groups {
		if g.Set == "targeted" {
			succ[g.Target] = g.Successes
		}
	}
	if succ["tau2_db"] != 0 || succ["tau2_reward"] != 0 || succ["tau2_action"] == 0 || succ["tau2_partial_action"] == 0 {
		t.Fatalf("successes by target: %v", succ)
	}
}

// TestTelecomDirectedView: on tau2 telecom, domain runs reads who made
// each run's progress beside strict P_agent — the user, and the agent
// with the user steps it directed — and the means over each shipped file
// are those the README states.
func TestTelecomDirectedView(t *testing.T) {
	if testing.Short() {
		t.Skip("replays the 100 telecom runs")
	}
	code, out, errs := run(t, "domain", "runs", "--domain", "tau2-telecom", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var runs []struct {
		Model       string
		RawState    struct{ Num, Den int }  `json:"p_state"`
		RawAgent    struct{ Num, Den int }  `json:"p_agent"`
		RawUser     *struct{ Num, Den int } `json:"p_user"`
		RawDirected *struct{ Num, Den int } `json:"p_directed"`
	}
	if err := json.Unmarshal([]byte(out), &runs); err != nil {
		t.Fatal(err)
	}
	type sums struct{ n, state, agent, user, directed float64 }
	by := map[string]*sums{}
	frac := func(x struct{ Num, Den int }) float64 {
		if x.Den == 0 {
			return 0
		}
		return float64(x.Num) / float64(x.Den)
	}
	for _, r := range runs {
		if r.RawUser == nil || r.RawDirected == nil {
			t.Fatalf("%s: no directed view", r.Model)
		}
		s := by[r.Model]
		if s == nil {
			s = &sums{}
			by[r.Model] = s
		}
		s.n++
		s.state += frac(r.RawState)
		s.agent += frac(r.RawAgent)
		s.user += frac(*r.RawUser)
		s.directed += frac(*r.RawDirected)
	}
	want := map[string]string{"gpt-4.1": "0.562 0.079 0.208 0.287", "gpt-4o": "0.775 0.000 0.550 0.550", "gpt-4.1-no-user": "0.733 0.433 0.000 0.433"}
	for m, w := range want {
		s := by[m]
		if s == nil {
			t.Fatalf("no runs of %s", m)
		}
		if got := fmt.Sprintf("%.3f %.3f %.3f %.3f", s.state/s.n, s.agent/s.n, s.user/s.n, s.directed/s.n); got != w {
			t.Errorf("%s: P_state P_agent P_user P_directed %s, want %s", m, got, w)
		}
	}
}

// TestTau2RunByName: a tau2 run is named as `domain runs` lists it, dots
// of its model's name and all, wherever a trajectory argument is taken;
// a dotted name that is no run is a missing file.
func TestTau2RunByName(t *testing.T) {
	code, out, errs := run(t, "replay", "--task", "T2R-5", "--trajectory", "T2R-5-gpt-4.1-trial0")
	if code != 0 || !strings.Contains(out, "P_state 3/3") {
		t.Fatalf("replay: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs = run(t, "tasks", "validate", "T2R-5", "--trajectory", "T2R-5-gpt-4.1-trial0")
	if code != 0 || !strings.Contains(out, "T2R-5-gpt-4.1-trial0: double-certified, P_state 3/3, P_agent 3/3") {
		t.Fatalf("tasks validate: exit %d\n%s%s", code, out, errs)
	}
	code, _, errs = run(t, "replay", "--task", "T2R-5", "--trajectory", "nope.json")
	if code != 2 || !strings.Contains(errs, "open nope.json: no such file or directory") {
		t.Fatalf("a missing file: exit %d\n%s", code, errs)
	}
}

// TestImportTau2NLAssertionSaidOnce: a file whose task scores on
// NL_ASSERTION (an LLM judge's) is held to what tau2 recorded without it,
// said once per file, and its runs' rewards that differ are put down to it.
func TestImportTau2NLAssertionSaidOnce(t *testing.T) {
	plain, err := tau2.Data("runs/retail-gpt-4.1.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	var res map[string]any
	if err := json.Unmarshal(plain, &res); err != nil {
		t.Fatal(err)
	}
	sim := res["simulations"].([]any)[0].(map[string]any)
	for _, tk := range res["tasks"].([]any) {
		if tk := tk.(map[string]any); tk["id"] == sim["task_id"] {
			crit := tk["evaluation_criteria"].(map[string]any)
			crit["reward_basis"] = append(crit["reward_basis"].([]any), "NL_ASSERTION")
		}
	}
	sim["reward_info"].(map[string]any)["reward"] = 0.5 // no product of 0s and 1s: the judge's part
	b, err := json.MarshalIndent(res, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(t.TempDir(), "nl.json")
	if err := os.WriteFile(f, b, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := run(t, "import", "tau2", "--dry-run", f)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if n := strings.Count(out, "an LLM judge's verdict, which is not computed"); n != 1 {
		t.Errorf("the note is said %d times:\n%s", n, out)
	}
	if !strings.Contains(out, ": reward: port ") || !strings.Contains(out, "recorded 0.5 — its basis holds NL_ASSERTION, an LLM judge's verdict, not computed") {
		t.Errorf("the reward's disagreement is not put down to NL_ASSERTION:\n%s", out)
	}
}

// TestDomainRunsRecomputeTau2Rewards: `domain runs` recomputes tau2's
// reward of every shipped airline and retail run as tau2 recorded it,
// the runs of tasks with no goal predicate too (they read 0 when their
// payload could not be made), and the runs tau2 ended itself (max_steps,
// too_many_errors), which it scores 0 whatever they did (T2A-15, 28 and
// 47 of gpt-oss-120b read 1 when the payload did not say how they ended).
func TestDomainRunsRecomputeTau2Rewards(t *testing.T) {
	for _, d := range []string{"tau2-airline", "tau2-retail"} {
		code, out, errs := run(t, "domain", "runs", "--domain", d, "--json")
		if code != 0 {
			t.Fatalf("%s: exit %d\n%s", d, code, errs)
		}
		var runs []struct {
			Run        string  `json:"run"`
			Reward     float64 `json:"reward"`
			Recomputed float64 `json:"recomputed_reward"`
			M          int     `json:"m"`
		}
		if err := json.Unmarshal([]byte(out), &runs); err != nil {
			t.Fatal(err)
		}
		goalless := 0
		for _, r := range runs {
			if r.M == 0 {
				goalless++
			}
			if r.Recomputed != r.Reward {
				t.Errorf("%s: recomputed %g, tau2 recorded %g (m %d)", r.Run, r.Recomputed, r.Reward, r.M)
			}
		}
		if goalless == 0 {
			t.Errorf("%s: no run of a goalless task: the test holds nothing", d)
		}
	}
}

// TestScoreGoallessTask: score and payload on a task with no goal
// predicate say why there is nothing to score, and where the benchmark's
// reward of its runs is.
func TestScoreGoallessTask(t *testing.T) {
	for _, args := range [][]string{{"score", "--task", "T2A-6", "--trajectory", "gold"}, {"payload", "--task", "TAU-A13", "--trajectory", "gold"}} {
		code, _, errs := run(t, args...)
		if code != 2 || !strings.Contains(errs, "has no goal predicate (its gold run changes nothing)") || !strings.Contains(errs, "`domain runs`") {
			t.Errorf("%v: exit %d\n%s", args, code, errs)
		}
	}
}

// TestAttackTargetsTau2Evaluators: attack takes every evaluator of a tau2
// task's domain as its target, as bench does, lists them in its help and
// in its error for an unknown one, and says why a same-end witness
// inflates tau2's ACTION check: a gold call that failed (T2A-24), one that
// changed nothing (T2A-11), a change a later call overwrites (T2A-29).
func TestAttackTargetsTau2Evaluators(t *testing.T) {
	for _, tc := range []struct {
		task, honest, target, rise string
	}{
		{"T2A-24", "gpt-4.1-trial0", "tau2_action", "failed_call"},
		{"T2A-11", "gpt-oss-120b-trial0", "tau2_action", "no_op_repeat"},
		{"T2A-29", "gpt-4o-2024-11-20-trial0", "tau2_action", "change_undo"},
		{"T2A-24", "gpt-4.1-trial0", "tau2_partial_action", "failed_call"},
	} {
		t.Run(tc.task+" "+tc.target, func(t *testing.T) {
			code, out, errs := run(t, "attack", "--task", tc.task, "--honest", tc.honest, "--target", tc.target, "--json")
			var r struct {
				Target string
				Delta  float64
				Rule   string `json:"end_rule"`
				End    string `json:"end_state"`
				Rise   string
			}
			if err := json.Unmarshal([]byte(out), &r); code != 0 || err != nil || r.Target != tc.target || r.Delta <= 0.1 || r.Rule != "same_end" || r.End != "same" || r.Rise != tc.rise {
				t.Fatalf("exit %d, %v: %+v, want rise %s\n%s%s", code, err, r, tc.rise, out, errs)
			}
		})
	}
	code, _, errs := run(t, "attack", "--task", "T2A-24", "--honest", "gpt-4.1-trial0", "--target", "nope")
	if code != 2 || !strings.Contains(errs, `unknown target evaluator "nope" (one of historical_milestone,`) || !strings.Contains(errs, "tau2_action, tau2_partial_action, ") {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if code, out, _ := run(t, "attack", "--help"); code != 0 || !strings.Contains(out, "tau2_partial_action") || !strings.Contains(out, "benchmark_reward") {
		t.Fatalf("attack --help lists no domain evaluator:\n%s", out)
	}
}

// TestPrematureRun: gpt-oss-120b's run of T2A-15, which tau2 ended at
// max_steps, scores tau2's reward 0 with no component (it read 1, and
// DB and COMMUNICATE 1) and says why in score and replay; bench leaves
// it out of both tables, counting it by model and reason, and attacks
// the run it keeps beside it; import counts it.
func TestPrematureRun(t *testing.T) {
	code, out, errs := run(t, "score", "--task", "T2A-15", "--trajectory", "gpt-oss-120b-trial0", "--json")
	if code != 0 {
		t.Fatalf("score: exit %d\n%s", code, errs)
	}
	var sc struct {
		Rewards []struct {
			Name  string  `json:"name"`
			Value float64 `json:"value"`
		} `json:"rewards"`
		Termination string `json:"termination_reason"`
	}
	if err := json.Unmarshal([]byte(out), &sc); err != nil {
		t.Fatal(err)
	}
	// tau2's own evaluators (PR #151's included) compute nothing more;
	// ToolSandbox's and AgentBoard's rules read the run as it stands.
	tau2Rows := 0
	for _, r := range sc.Rewards {
		if strings.HasPrefix(r.Name, "tau2_") {
			tau2Rows++
		}
	}
	if tau2Rows != 1 || sc.Rewards[0].Name != "tau2_reward" || sc.Rewards[0].Value != 0 || sc.Termination != "max_steps" {
		t.Errorf("score --json: %+v, want tau2_reward 0 alone of tau2's and termination_reason max_steps", sc)
	}
	const said = "ended by max_steps: tau2 scores 0"
	for _, cmd := range []string{"score", "replay"} {
		code, out, errs := run(t, cmd, "--task", "T2A-15", "--trajectory", "gpt-oss-120b-trial0")
		if code != 0 || !strings.Contains(out, said) {
			t.Errorf("%s: exit %d, does not say %q:\n%s%s", cmd, code, said, out, errs)
		}
	}
	code, out, errs = run(t, "bench", "--domain", "tau2-airline", "--tasks", "T2A-15", "--format", "json")
	if code != 0 {
		t.Fatalf("bench: exit %d\n%s", code, errs)
	}
	var b struct {
		LeftOut []struct {
			Model, Reason string
			Runs          int
		} `json:"left_out"`
		Runs []struct {
			Run      string `json:"run"`
			Excluded string `json:"excluded"`
			Control  bool   `json:"control"`
		} `json:"runs"`
		Failed struct {
			Tasks int `json:"tasks"`
		} `json:"failed"`
	}
	if err := json.Unmarshal([]byte(out), &b); err != nil {
		t.Fatal(err)
	}
	if len(b.LeftOut) != 1 || b.LeftOut[0].Model != "gpt-oss-120b" || b.LeftOut[0].Reason != said || b.LeftOut[0].Runs != 1 {
		t.Errorf("bench left out %+v, want gpt-oss-120b's one run, %q", b.LeftOut, said)
	}
	failed := 0
	for _, r := range b.Runs {
		if (r.Excluded != "") != (r.Run == "T2A-15-gpt-oss-120b-trial0") {
			t.Errorf("bench: run %s excluded %q", r.Run, r.Excluded)
		}
		if r.Excluded == "" && !r.Control {
			failed++
		}
	}
	if failed == 0 || b.Failed.Tasks != failed {
		t.Errorf("bench: %d failed runs in the table, want the %d failed runs it keeps", b.Failed.Tasks, failed)
	}
	_, _, errs = run(t, "import", "tau2", "--dry-run", filepath.Join("..", "domains", "tau2", "data", "runs", "airline-gpt-oss-120b.json.gz"))
	if !strings.Contains(errs, "import: 6 runs ended before their conversation did (max_steps 5, too_many_errors 1)") {
		t.Errorf("import does not count the runs tau2 ended itself:\n%s", errs)
	}
}

// TestCertifyHoldsTau2Witnesses: certify holds a hand-made witness of a
// tau2 run to tau2's rule, beyond equal certified vectors: a certificate
// sent before a call of H that reads the user makes that call answer
// otherwise than H recorded (replay_mismatch at that step), and ten
// failed calls reach max_errors, where tau2 ends the run
// (illegal_action at the tenth). Both were eligible.
func TestCertifyHoldsTau2Witnesses(t *testing.T) {
	d, task, err := domains.FindTask("T2A-12")
	if err != nil {
		t.Fatal(err)
	}
	r, err := domains.RunOf(d, task.ID, "claude-sonnet-4-5-trial0")
	if err != nil {
		t.Fatal(err)
	}
	h, err := r.Trajectory()
	if err != nil {
		t.Fatal(err)
	}
	if h.Steps[1].Tool != "get_user_details" {
		t.Fatalf("H's step 2 is %s", h.Steps[1].Tool)
	}
	user := h.Steps[1].Args
	call := func(tool, args string) model.Step {
		return model.Step{Action: model.Action{Op: model.OpCall, Tool: tool, Args: model.MustJSON(args)}}
	}
	uid, _ := model.Members(user)
	cert := call("send_certificate", `{"user_id": "`+uid[0].Value.AsString()+`", "amount": 100}`)
	var failing []model.Step
	for range 10 {
		failing = append(failing, call("get_user_details", `{"user_id": "nobody_0000"}`))
	}
	dir := t.TempDir()
	for _, c := range []struct {
		name   string
		steps  []model.Step
		reason model.Reason
		step   int
		says   string
	}{
		{"certificate", slices.Insert(slices.Clone(h.Steps), 1, cert), model.ReplayMismatch, 3, "is H's step 2, which returns otherwise in the witness than in H"},
		{"errors", slices.Insert(slices.Clone(h.Steps), 1, failing...), model.IllegalAction, 11, "failed call 10, and the run ends at 10 (too_many_errors)"},
	} {
		file := filepath.Join(dir, c.name+".json")
		if err := os.WriteFile(file, model.EncodeTrajectory(&model.Trajectory{Task: task.ID, Steps: c.steps}), 0o644); err != nil {
			t.Fatal(err)
		}
		code, out, errs := run(t, "certify", "--task", task.ID, "--honest", "claude-sonnet-4-5-trial0", "--candidate", file, "--json")
		var v model.Verdict
		if err := json.Unmarshal([]byte(out), &v); code != 1 || err != nil {
			t.Fatalf("%s: exit %d, %v\n%s%s", c.name, code, err, out, errs)
		}
		if v.Eligible || v.Reason != c.reason || v.Evidence == nil || v.Evidence.Step != c.step || !strings.Contains(v.Evidence.Detail, c.says) {
			t.Errorf("%s: %+v %+v, want %s at step %d saying %q", c.name, v, v.Evidence, c.reason, c.step, c.says)
		}
	}
}
