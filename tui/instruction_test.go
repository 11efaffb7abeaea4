package tui

import (
	"strings"
	"testing"
)

// TestInstructionLines: plain text is wrapped; a JSON object (a tau2
// user scenario) is laid out member by member as tau2 shows it, null
// members left out, short values beside their name, long ones wrapped
// under it and indented.
func TestInstructionLines(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		w        int
		want     []string
	}{
		{"plain text", "Cancel the trip and refund it.", 20, []string{"Cancel the trip and", "refund it."}},
		{"not an object", `["a"]`, 20, []string{`["a"]`}},
		{"broken JSON", `{"persona":`, 20, []string{`{"persona":`}},
		{"tau2 scenario", `{"persona": null, "instructions": {"domain": "retail", "reason_for_call": "You received order #W1 and want to return it.", "known_info": "You are Yusuf.", "unknown_info": null}}`, 30,
			[]string{"Instructions:", "  Domain: retail", "  Reason for call:", "    You received order #W1 and", "    want to return it.", "  Known info: You are Yusuf."}},
		{"numbers and lists compact", `{"n": 3, "ids": [1, 2]}`, 30, []string{"N: 3", "Ids: [1,2]"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := instructionLines(tc.in, tc.w)
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}
