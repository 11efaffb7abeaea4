package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parthack/parthack/domains/tau2"
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
// payload could not be made), but for the runs tau2 ended by max_steps,
// which it scores 0 whatever they did, and which are scored here as had
// they ended normally.
func TestDomainRunsRecomputeTau2Rewards(t *testing.T) {
	maxSteps := map[string]bool{"T2A-15-gpt-oss-120b-trial0": true, "T2A-28-gpt-oss-120b-trial0": true, "T2A-47-gpt-oss-120b-trial0": true}
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
			if r.Recomputed != r.Reward && !maxSteps[r.Run] {
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
