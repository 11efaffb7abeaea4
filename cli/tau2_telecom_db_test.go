package cli

import "testing"

// TestScoreTelecomDB: score's tau2 DB row on a tau2 telecom run is the
// db_match tau2 recorded for it, both databases against tau2's gold
// environment (it read "the run changed nothing" before: 0 on the
// first run, whose gold toggles airplane mode off). The second run
// passes tau2's reward (ENV_ASSERTION) and still fails its DB check.
func TestScoreTelecomDB(t *testing.T) {
	for _, c := range []struct {
		task, run string
		db        float64
	}{
		{"T2T-[service_issue]airplane_mode_on[PERSONA:None]", "gpt-4o-trial0", 1},
		{"T2T-[mms_issue]break_app_sms_permission[PERSONA:None]", "gpt-4o-trial0", 0},
	} {
		code, out, errs := run(t, "score", "--task", c.task, "--trajectory", c.task+"-"+c.run, "--json")
		if code != 0 || errs != "" {
			t.Fatalf("%s: exit %d: %s", c.task, code, errs)
		}
		got := -1.0
		for _, r := range decodeScore(t, out).Rewards {
			if r.Name == "tau2_db" {
				got = r.Value
			}
		}
		if got != c.db {
			t.Errorf("%s %s: tau2 DB %v, want tau2's db_match %v", c.task, c.run, got, c.db)
		}
	}
}
