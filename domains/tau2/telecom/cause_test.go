package telecom

import (
	"strings"
	"testing"

	"github.com/parthack/parthack/domains/tau2"
	"github.com/parthack/parthack/model"
)

// TestCauses: a telecom disagreement with the file says its measured
// cause, as airline's and retail's do; each case alters one recorded
// thing of a shipped run (it read "the file was made at tau2 40f46d3;
// the port is of a2c0247").
func TestCauses(t *testing.T) {
	src, err := tau2.RunFile("runs/telecom-gpt-4o.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		sim   int
		alter func(s *tau2.Simulation)
		want  []string // each disagreement: what, then its cause
	}{
		{"a JSON result", 3, func(s *tau2.Simulation) {
			text := model.TextOf(strings.Replace(s.Messages[5].Content.String(), `"full_name": "John Smith"`, `"full_name": "Jon Smith"`, 1))
			s.Messages[5].Content = &text
		}, []string{`call get_customer_by_phone: $.full_name: port "John Smith", file "Jon Smith"`}},
		{"a reward", 3, func(s *tau2.Simulation) { s.RewardInfo.Reward = 0 },
			[]string{`reward: the port's reward 1 is ENV_ASSERTION 1`}},
		{"an unmet env assertion", 0, func(s *tau2.Simulation) { s.RewardInfo.EnvAssertions[1].Met = true },
			[]string{`env_assertion 1: assert_internet_speed({"expected_speed": 200, "expected_desc": "excellent"}) on the user's side, asserted to return true: not met at the end`}},
		{"a met env assertion", 3, func(s *tau2.Simulation) { s.RewardInfo.EnvAssertions[0].Met = false },
			[]string{`env_assertion 0: assert_mobile_data_status({"expected_status": true}) on the user's side, asserted to return true: met at the end`}},
	} {
		r, err := tau2.Decode("f.json", src)
		if err != nil {
			t.Fatal(err)
		}
		c := checker(t, r)
		sim := r.Simulations[tc.sim]
		tc.alter(sim)
		rep := NewReport(r)
		if err := c.ConformRun(rep, r, sim); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, d := range rep.Disagreements {
			got = append(got, d.What+": "+d.Cause)
		}
		ok := len(got) == len(tc.want)
		for i := range tc.want {
			ok = ok && strings.HasPrefix(got[i], tc.want[i])
		}
		if !ok {
			t.Errorf("%s: disagreements\n%s\nwant\n%s", tc.name, strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
		}
	}
}
