package tui

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/parthack/parthack/model"
)

// telecomApp opens the workbench on tau2 telecom at w × h with its first
// task in the Inspector: H, a run of GPT-4.1 with a user, holds the
// user's calls on their phone.
func telecomApp(t *testing.T, w, h int) (*workbench, int) {
	t.Helper()
	m := domainApp(t, "tau2-telecom", w, h)
	press(t, m, "enter")
	if m.page != pageInspect || m.inspect.a == nil {
		t.Fatalf("the first telecom task did not open:\n%s", screen(m))
	}
	user := -1
	for i, st := range m.inspect.task.HonestTraj.Steps {
		if st.Actor == model.ActorUser {
			user = i
			break
		}
	}
	if user < 0 {
		t.Fatalf("H of %s has no user step", m.inspect.task.ID)
	}
	return m, user
}

// TestTelecomEventLogNamesTheActor: each row of the log names its actor
// in its column: the user's calls "user", the agent's "agent".
func TestTelecomEventLogNamesTheActor(t *testing.T) {
	m, _ := telecomApp(t, 80, 24)
	a := m.inspect.a
	users := 0
	for k := 1; k <= a.events(); k++ {
		ev := &a.log.Events[k-1]
		row := m.c.eventRow(a, k, 60, markNone)
		want := " " + string(ev.Actor()) + " "
		if ev.Actor() == model.ActorUser {
			users++
			want = " user  " + ev.Action.Tool
		}
		if !strings.Contains(row, want) {
			t.Errorf("event %d (%s) row %q lacks %q", k, ev.Actor(), row, want)
		}
	}
	if users == 0 {
		t.Fatal("no event of H is the user's")
	}
}

// TestTelecomStateShowsThePhone: the whole state lists the agent's
// database first and then, under its own heading, the user's phone:
// every phone-side record (device, APN, surroundings …) under it and no
// agent record.
func TestTelecomStateShowsThePhone(t *testing.T) {
	m, _ := telecomApp(t, 80, 24)
	a := m.inspect.a
	lines := m.c.stateLines(a, a.events(), true, 200)
	side, seen := "", map[string]string{}
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "── "):
			side = strings.Trim(l, "─ ")
		case !strings.HasPrefix(l, " ") && side != "":
			typ, _, _ := strings.Cut(strings.TrimPrefix(l, "✗ "), " ")
			if prev, ok := seen[typ]; ok && prev != side {
				t.Errorf("%s records under both %q and %q", typ, prev, side)
			}
			seen[typ] = side
		}
	}
	for typ, want := range map[string]string{"phone": "the user's phone", "apn": "the user's phone", "surroundings": "the user's phone", "line": "the agent's database"} {
		if seen[typ] != want {
			t.Errorf("%s records are under %q, want %q:\n%s", typ, seen[typ], want, strings.Join(lines, "\n"))
		}
	}
}

// TestEditorKeepsTheUserSteps: a witness authors the agent's steps only.
// On a user step the editor refuses to edit, delete, move or invert it,
// and a typed call of a phone tool is refused with the reason; each says
// so in the status line and changes nothing. The agent's steps stay
// editable.
func TestEditorKeepsTheUserSteps(t *testing.T) {
	m, user := telecomApp(t, 100, 30)
	press(t, m, "e")
	e := m.editor
	if m.page != pageEditor || e.pair == nil {
		t.Fatalf("the editor did not open:\n%s", screen(m))
	}
	// H itself, its user steps kept as the user's, is an eligible pair.
	if !e.pair.verdict.Eligible {
		t.Fatalf("H against itself is not eligible: %s", e.pair.verdict.Reason)
	}
	mustSee(t, m, "user: "+e.steps[user].Tool)
	before := string(model.EncodeTrajectory(e.trajectory()))
	for _, tc := range []struct {
		name string
		keys []string
		why  string
	}{
		{"edit", []string{"e"}, "is the user's (" + e.steps[user].Tool + "); a witness authors the agent's steps only and cannot edit it"},
		{"delete", []string{"d"}, "cannot delete it"},
		{"move up", []string{"K"}, "cannot move it"},
		{"move down", []string{"J"}, "cannot move it"},
		{"invert", []string{"z"}, "cannot undo it"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			press(t, m, "0")
			for range user {
				press(t, m, "j")
			}
			press(t, m, tc.keys...)
			if e.form != nil || e.call != nil || e.line != nil {
				t.Fatalf("an entry opened on the user's step:\n%s", screen(m))
			}
			if string(model.EncodeTrajectory(e.trajectory())) != before {
				t.Fatal("the steps changed")
			}
			if !m.statusErr || !strings.Contains(m.status, tc.why) {
				t.Fatalf("status %q does not say %q", m.status, tc.why)
			}
		})
	}
	// Moving an agent step across the user's keeps the user's steps as H has them.
	if err := e.authorRule(e.steps); err != nil {
		t.Fatalf("H's own steps break the rule: %v", err)
	}
	dropped := append(append([]model.Step{}, e.steps[:user]...), e.steps[user+1:]...)
	if err := e.authorRule(dropped); err == nil || !strings.Contains(err.Error(), "a witness authors the agent's steps only") {
		t.Fatalf("dropping the user's step: %v", err)
	}
	// The user's tools, typed, are refused with the reason.
	phone := e.steps[user].Tool
	press(t, m, "0", ":")
	if e.line == nil {
		t.Fatalf(": opened no line:\n%s", screen(m))
	}
	press(t, m, phone, "enter")
	if string(model.EncodeTrajectory(e.trajectory())) != before {
		t.Fatal("a typed phone call was added")
	}
	mustSee(t, m, phone+" is the user's tool")
}

// TestEditorKeepsTau2Turns: a call of the agent's typed between two calls
// of one user message, where tau2 gives the agent no turn, is refused in
// the status line with the reason, and nothing changes.
func TestEditorKeepsTau2Turns(t *testing.T) {
	m, _ := telecomApp(t, 100, 30)
	press(t, m, "e")
	e := m.editor
	h := e.honest.traj
	conv, _ := model.ConversationOf(e.honest.log.Env.Task)
	turns := conv.Turns(h)
	k := slices.IndexFunc(turns, func(x string) bool { return strings.Contains(x, "both the user's calls") })
	read := slices.IndexFunc(h.Steps, func(st model.Step) bool { return isAgent(st.Actor) && strings.HasPrefix(st.Tool, "get_") })
	if k < 1 || read < 0 {
		t.Fatalf("H of %s has no place between two user calls (%d) or no read of the agent's (%d)", m.inspect.task.ID, k, read)
	}
	before := string(model.EncodeTrajectory(e.trajectory()))
	press(t, m, "0")
	for range k - 1 {
		press(t, m, "j")
	}
	line := h.Steps[read].Tool
	args, _ := model.Members(h.Steps[read].Args)
	for _, a := range args {
		line += " " + a.Field + "=" + a.Value.String()
	}
	press(t, m, ":", line, "enter")
	if string(model.EncodeTrajectory(e.trajectory())) != before {
		t.Fatal("the call was added")
	}
	if e.line != nil {
		t.Fatalf("the line is still open: %s\n%s", e.line.err, screen(m))
	}
	want := fmt.Sprintf("refused: step %d (%s) is the agent's, where it has no turn: %s (nothing changed)", k+1, h.Steps[read].Tool, turns[k])
	if !m.statusErr || m.status != want {
		t.Fatalf("status %q, want %q", m.status, want)
	}
}
