package worker

import (
	"strings"
	"testing"
)

func TestParseAnswer(t *testing.T) {
	for _, c := range []struct {
		in        string
		score     float64
		rationale string
	}{
		{`{"score":0.5}`, 0.5, ""},
		{" {\"score\": 0, \"rationale\": \"none done\"}\n", 0, "none done"},
		{`{"rationale":"all","score":1}`, 1, "all"},
		{`{"score":1e0}`, 1, ""},
		{`{"score":2.5e-1}`, 0.25, ""},
	} {
		r, err := parseAnswer([]byte(c.in))
		if err != nil || r.Score != c.score || r.Rationale != c.rationale {
			t.Errorf("%q: %+v, %v", c.in, r, err)
		}
	}
	for _, c := range []struct{ in, want string }{
		{`{"score": 1.5}`, "score 1.5 is not in [0, 1]"},
		{`{"score": -0.1}`, "score -0.1 is not in [0, 1]"},
		{`{"score": 1e400}`, "is not in [0, 1]"},
		{`{"score": "0.5"}`, `score is the string "0.5", not a number`},
		{`{"score": null}`, "score is null"},
		{`{"score": [0.5]}`, "score is an array"},
		{`{"score": 0.5, "rationale": 3}`, "rationale is 3, not a string"},
		{`{"score": 0.5, "cited": []}`, `unknown key "cited"`},
		{`{"score": 0.5, "score": 0.7}`, `key "score" twice`},
		{`{"rationale": "hm"}`, "no score"},
		{`{"score": 0.5} {"score": 1}`, "more after the answer"},
		{`{"score": 0.5}x`, "more after the answer"},
		{`{"score": 0.5`, "not valid JSON"},
		{`[0.5]`, "not a JSON object"},
		{`0.5`, "not a JSON object"},
		{"score: 0.5", "not a JSON object"},
		{"", "no answer on stdout"},
		{" \n", "no answer on stdout"},
		{"{\"score\": 0.5, \"rationale\": \"\xff\"}", "not valid UTF-8"},
	} {
		if _, err := parseAnswer([]byte(c.in)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v; want %q", c.in, err, c.want)
		}
	}
}

func TestBuffers(t *testing.T) {
	h := &headBuffer{max: 4}
	for _, s := range []string{"ab", "cd", "ef"} {
		if n, err := h.Write([]byte(s)); n != 2 || err != nil {
			t.Fatalf("write: %d, %v", n, err)
		}
	}
	if string(h.buf) != "abcd" || !h.over {
		t.Errorf("head %q, over %v", h.buf, h.over)
	}
	tb := &tailBuffer{max: 6}
	for _, s := range []string{"abc", "def", "g", "\x1b[2Jhi"} {
		tb.Write([]byte(s))
	}
	if got := tb.String(); got != "\uFFFD[2Jhi" {
		t.Errorf("tail %q", got)
	}
	tb.Write([]byte("0123456789"))
	if got := tb.String(); got != "456789" {
		t.Errorf("tail %q", got)
	}
}
