package tau2

import "testing"

// TestApart: where two results of one call part is measured: the first
// JSON path whose values differ as Python compares them, or the first
// differing character.
func TestApart(t *testing.T) {
	for _, c := range []struct{ port, file, want string }{
		{`{"flights": [{"status": "landed"}]}`, `{"flights": [{"status": "delayed"}]}`, `$.flights[0].status: port "landed", file "delayed"`},
		{`{"a": 1, "b": 2}`, `{"a": 1}`, `$.b: port 2, file absent`},
		{`{"a": 1}`, `{"a": 1, "zip code": "x"}`, `$["zip code"]: port absent, file "x"`},
		{`[1, 2]`, `[1, 2, 3]`, `$[2]: port absent, file 3`},
		{`{"a": {"b": [1]}}`, `{"a": {"b": "1"}}`, `$.a.b: port [1], file "1"`},
		{`{"a": 1, "b": 2}`, `{"b": 2, "a": 1.0}`, `equal as JSON values; the texts differ at character 3: port "{\"a\": 1, \"b\": 2}", file "{\"b\": 2, \"a\": 1.0}"`},
		{"Transfer successful", "Transfer failed", `character 10: port "Transfer successful", file "Transfer failed"`},
		{"Error: no such user: mei_brown_7075", "Error: no such user: mei_brown_707", `character 35: port "…r: mei_brown_7075", file (the text ends)`},
	} {
		if got := Apart(c.port, c.file); got != c.want {
			t.Errorf("Apart(%q, %q) = %q, want %q", c.port, c.file, got, c.want)
		}
	}
}
