package model

import "testing"

type openDomain struct{ open bool }

func (openDomain) Name() string { return "open" }
func (openDomain) Call(StateView, string, Value) ([]Action, string, string) {
	return nil, "", "no such tool"
}
func (openDomain) EndsEpisode(string) bool { return false }
func (d openDomain) OpenTools() bool       { return d.open }

func TestMayCall(t *testing.T) {
	for _, c := range []struct {
		name string
		dom  Domain
		tool string
		want bool
	}{
		{"allowlisted", nil, "ls", true},
		{"not allowlisted, no domain", nil, "rm", false},
		{"not allowlisted, closed domain", openDomain{false}, "rm", false},
		{"not allowlisted, open domain", openDomain{true}, "echo<|channel|>commentary", true},
	} {
		task := &Task{Allowlist: Allowlist{Tools: []string{"ls"}}, Domain: c.dom}
		if got := MayCall(task, c.tool); got != c.want {
			t.Errorf("%s: MayCall(%q) = %v, want %v", c.name, c.tool, got, c.want)
		}
	}
}
