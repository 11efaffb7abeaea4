package tui

import (
	"strings"
	"testing"

	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/store"
)

// TestBrowseShowsLongIDs: on tau2 telecom, whose task ids name a whole
// scenario, Browse's id column grows with the terminal and cuts an id
// from its middle, so ids that differ at their end (the persona) read
// apart; at 80 columns too no two rows read the same (issue 30: all 100
// telecom tasks read "T2T-[mo…", even at 200 columns).
func TestBrowseShowsLongIDs(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}, {200, 60}} {
		m := domainApp(t, "tau2-telecom", size[0], size[1])
		leftW, _ := m.browse.panes()
		idW := m.browse.columns(leftW - 2).id
		if size[0] == 200 && idW < 40 {
			t.Errorf("at %d columns the id column is %d wide", size[0], idW)
		}
		rows := map[string]bool{}
		for _, l := range strings.Split(screen(m), "\n") {
			if i := strings.Index(l, "T2T-"); i >= 0 {
				id := strings.Fields(l[i:])[0]
				if rows[id] && !strings.Contains(id, "…") {
					continue
				}
				rows[id] = true
			}
		}
		if size[0] > 80 && len(rows) < 10 || idW < 9 {
			t.Errorf("at %d×%d only %d distinct ids show:\n%s", size[0], size[1], len(rows), screen(m))
		}
		if size[0] == 200 {
			mustSee(t, m, "[PERSONA:Easy]")
		}
	}
}

// TestSavedListScopedAndNamed: the Saved list lists the open tasks'
// records only, counts the others, and shows a telecom witness's name
// beside its long task id (issue 30: it showed every domain's records,
// and a telecom witness's name never).
func TestSavedListScopedAndNamed(t *testing.T) {
	m := domainApp(t, "tau2-telecom", 80, 24)
	task := m.c.ws.tasks[0]
	s, err := store.Open(m.c.dbPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []store.Record{
		{Kind: store.KindWitness, Task: task.ID, Name: "roaming toggled", Body: model.EncodeTrajectory(task.HonestTraj)},
		{Kind: store.KindNote, Task: "PH-D01", Name: "a suite note", Note: "elsewhere"},
	} {
		if _, err := s.Put(r); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	drive(t, m, listRecordsCmd(m.c.dbPath))
	mustSee(t, m, "Saved · 1", "roaming toggled", "+ 1 saved for tasks not open", "the suite or a task file 1")
	mustNotSee(t, m, "a suite note")
}

// TestHeaderNamesTheRunOnTelecom: below 200 columns the header still
// names the run on screen beside a telecom task's long id, which gives
// way from its middle (issue 30: it never named the trajectory there).
func TestHeaderNamesTheRunOnTelecom(t *testing.T) {
	for _, w := range []int{80, 120} {
		m := domainApp(t, "tau2-telecom", w, 24)
		press(t, m, "enter")
		head := strings.SplitN(screen(m), "\n", 2)[0]
		if label := m.inspect.current().label; !strings.Contains(head, label+" (H) · ") || !strings.Contains(head, "reward 0") || !strings.Contains(head, "T2T-") {
			t.Errorf("at %d columns the header does not name %s:\n%s", w, label, head)
		}
	}
}
