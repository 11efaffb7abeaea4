package tui

import (
	"testing"

	"github.com/parthack/parthack/domains"
	_ "github.com/parthack/parthack/domains/all"
)

// TestDomainTaskDefaultH: the workbench opens a domain task with the H
// every command takes (domains.DefaultHonest): the first run its
// benchmark scores below 1, else its first run, else gold; a task with
// no gold run is no exception (its second run was H before).
func TestDomainTaskDefaultH(t *testing.T) {
	d, err := domains.Lookup("tau-airline")
	if err != nil {
		t.Fatal(err)
	}
	task, err := domains.TaskOf(d, "TAU-A04")
	if err != nil {
		t.Fatal(err)
	}
	all, err := d.Runs()
	if err != nil {
		t.Fatal(err)
	}
	var runs []*domains.Run
	for _, r := range all {
		if r.Task == task.ID {
			runs = append(runs, r)
		}
	}
	passed := func(rs []*domains.Run, from int) []*domains.Run {
		out := make([]*domains.Run, len(rs))
		for i, r := range rs {
			c := *r
			if i < from {
				c.Reward = 1
			}
			out[i] = &c
		}
		return out
	}
	noGold := *task
	noGold.Gold = nil
	for _, c := range []struct {
		name string
		task *domains.Task
		runs []*domains.Run
		want string
	}{
		{"the first that failed", task, passed(runs, 2), runs[2].Short},
		{"every run passed: the first", task, passed(runs, len(runs)), runs[0].Short},
		{"no gold, every run passed: the first", &noGold, passed(runs, len(runs)), runs[0].Short},
		{"no run: gold", task, nil, "gold"},
	} {
		st, err := domainTask(d, c.task, c.runs, "")
		if err != nil {
			t.Fatal(err)
		}
		if got := st.honest().label; got != c.want {
			t.Errorf("%s: H is %s, want %s", c.name, got, c.want)
		}
	}
}
