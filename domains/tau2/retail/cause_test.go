package retail

import (
	"strings"
	"testing"

	"github.com/parthack/parthack/domains/tau2"
	"github.com/parthack/parthack/model"
)

// TestCauses: a disagreement with the file says its measured cause:
// where the two results of a call part, or what decided the port's
// verdict; each case alters one recorded thing of a shipped run (it read
// "the file was made at tau2 b02b509; the port is of a2c0247").
func TestCauses(t *testing.T) {
	src, err := tau2.RunFile("runs/retail-gpt-4.1.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	c := checker(t)
	for _, tc := range []struct {
		name  string
		sim   int
		alter func(s *tau2.Simulation)
		want  []string // each disagreement: what, then its cause
	}{
		{"a JSON result", 0, func(s *tau2.Simulation) { setResult(s, 9, `"Bluetooth Speaker"`, `"Bluetooth Speakers"`) },
			[]string{`call get_order_details: $.items[0].name: port "Bluetooth Speaker", file "Bluetooth Speakers"`}},
		{"a result that is no JSON", 0, func(s *tau2.Simulation) { setResult(s, 5, "6490", "6409") },
			[]string{`call find_user_id_by_email: character 18: port "…sabella_lopez_6490", file "…sabella_lopez_6409"`}},
		{"a reward", 0, func(s *tau2.Simulation) { s.RewardInfo.Reward = 0 },
			[]string{`reward: the port's reward 1 is DB 1 × COMMUNICATE 1`}},
		{"db_match where the run ends in gold's state", 0, func(s *tau2.Simulation) { s.RewardInfo.DBCheck.DBMatch = false },
			[]string{`db_match: the run's end state is gold's: it changes 1 cell, as gold does`}},
		{"db_match where it does not", 14, func(s *tau2.Simulation) { s.RewardInfo.DBCheck.DBMatch = true },
			[]string{`db_match: the run's end state differs from gold's in`}},
		{"a matched action check", 0, func(s *tau2.Simulation) { s.RewardInfo.ActionChecks[0].ActionMatch = false },
			[]string{`action_check 0 (find_user_id_by_email): call 1 (find_user_id_by_email) matches it`}},
		{"an unmatched action check", 14, func(s *tau2.Simulation) { s.RewardInfo.ActionChecks[11].ActionMatch = true },
			[]string{`action_check 11 (return_delivered_order_items): no call matches it: the run's first return_delivered_order_items differs in "item_ids"`}},
		{"a communicate check", 0, func(s *tau2.Simulation) { s.RewardInfo.CommunicateChecks[1].Met = false },
			[]string{`communicate_check 1 ("mastercard"): messages[`}},
		{"a run ended by max_steps", 0, func(s *tau2.Simulation) { s.TerminationReason = "max_steps" },
			[]string{"reward: the run ended by max_steps: tau2 scores it 0 and computes no component",
				"db_match: the run ended by max_steps"}},
	} {
		r, err := tau2.Decode("f.json", src)
		if err != nil {
			t.Fatal(err)
		}
		sim := r.Simulations[tc.sim]
		tc.alter(sim)
		rep := c.NewReport(r)
		if err := c.ConformRun(rep, r, sim); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, d := range rep.Disagreements {
			got = append(got, d.What+": "+d.Cause)
		}
		ok := len(got) >= len(tc.want)
		for i := range tc.want {
			ok = ok && strings.HasPrefix(got[i], tc.want[i])
		}
		if !ok {
			t.Errorf("%s: disagreements\n%s\nwant ones starting\n%s", tc.name, strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
		}
	}
}

// setResult replaces old by new in a run's tool message msg.
func setResult(s *tau2.Simulation, msg int, old, new string) {
	text := model.TextOf(strings.Replace(s.Messages[msg].Content.String(), old, new, 1))
	s.Messages[msg].Content = &text
}
