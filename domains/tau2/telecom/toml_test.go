package telecom

import (
	"strings"
	"testing"

	"github.com/parthack/parthack/domains/tau2"
)

// TestLoadErrors: a database the reader or the models refuse is named by
// file, line and what was expected; nothing is loaded.
func TestLoadErrors(t *testing.T) {
	user := []byte("[device]\nairplane_mode = false\n")
	for _, tc := range []struct{ agent, user, want string }{
		{"[[plans]]\nplan_id = \"P1\nname = \"x\"\n", "", "db.toml:2: plan_id: unterminated string"},
		{"[[plans]]\nplan_id = 'P1'\n", "", `db.toml:2: plan_id: unsupported value "'P1'"`},
		{"[[plans]]\nplan_id = \"P1\"\nplan_id = \"P2\"\n", "", `db.toml:3: key "plan_id" defined twice`},
		{"[[plans]]\nplan_id = \"P1\"\ncolour = \"red\"\n", "", `db.toml: plans[0]: unexpected key "colour" (a Plan has no such field)`},
		{"[[plans]]\nplan_id = \"P1\"\ndata_limit_gb = \"lots\"\n", "", `db.toml: plans[0]: data_limit_gb: expected float64, got "lots"`},
		{"[[plans]]\nplan_id = \"P1\"\n[[plans]]\nplan_id = \"P1\"\n", "", `db.toml: plans[1]: id "P1" is empty or repeated`},
		{"[shops]\n", "", `db.toml: unexpected table "shops"`},
		{"", "[device]\nairplane_mode = 1\n", "user_db.toml: device: airplane_mode: expected bool, got 1"},
		{"", "[device]\nflux = true\n", `user_db.toml: device: unexpected key "flux" (a Phone has no such field)`},
	} {
		u := user
		if tc.user != "" {
			u = []byte(tc.user)
		}
		db, err := Load([]byte(tc.agent), u)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) || db != nil {
			t.Errorf("%q / %q: got %v, want %s…", tc.agent, tc.user, err, tc.want)
		}
	}
}

// TestParseTOML reads what the shipped files use: nested tables, arrays
// of tables under the last element, arrays, comments, numbers.
func TestParseTOML(t *testing.T) {
	src := "# c\n[[a]]\nx = 1 # one\ny = [\"p\", \"q#\"]\n[a.b]\nz = 2.5\n[[a]]\nx = -3\ns = \"t\\\"u\"\n[c.d]\nok = true\n"
	o, err := parseTOML("t.toml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	got := tau2.Dumps(o, false)
	want := `{"a": [{"x": 1, "y": ["p", "q#"], "b": {"z": 2.5}}, {"x": -3, "s": "t\"u"}], "c": {"d": {"ok": true}}}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
