package tui

import (
	"fmt"

	"github.com/charmbracelet/x/ansi"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// overlay covers the page with text to read whole: every key of the
// screen, or a task's instruction and predicates. j/k and the page keys
// scroll it; esc, q, enter or ? close it.
type overlay struct {
	title string
	lines []string
	top   int
}

// key handles a key; done reports that the overlay closes.
func (o *overlay) key(k *keyMap, msg tea.KeyMsg, height int) (*overlay, bool) {
	rows := max(height-2, 1)
	switch {
	case key.Matches(msg, k.ScrollDown):
		o.top++
	case key.Matches(msg, k.ScrollUp):
		o.top--
	case key.Matches(msg, k.PageDown):
		o.top += rows
	case key.Matches(msg, k.PageUp):
		o.top -= rows
	case key.Matches(msg, k.Back), key.Matches(msg, k.Quit), key.Matches(msg, k.Help), key.Matches(msg, k.Open), key.Matches(msg, k.ForceQuit):
		return o, true
	}
	o.top = clamp(o.top, 0, max(len(o.lines)-rows, 0))
	return o, false
}

func (o *overlay) view(c *common, width, height int) string {
	rows := max(height-2, 1)
	o.top = clamp(o.top, 0, max(len(o.lines)-rows, 0))
	title := o.title
	if len(o.lines) > rows {
		title += fmt.Sprintf(" · lines %d–%d of %d · j/k scroll", o.top+1, min(o.top+rows, len(o.lines)), len(o.lines))
	}
	title += " · esc closes"
	return c.box(title, o.lines[o.top:], width, height, true)
}

// helpOverlay lists every key of the screen in front, then the keys of
// the whole workbench, each with what it does.
func (m *workbench) helpOverlay() *overlay {
	k := m.c.keys
	groups := m.keyHelp().FullHelp()
	global := []key.Binding{k.Quit, k.ForceQuit, k.Suspend, k.Help, k.TaskInfo, k.Refresh}
	groups = append(groups, global)
	var binds []key.Binding
	seen := map[string]bool{}
	keyW := 0
	for _, g := range groups {
		for _, b := range g {
			h := b.Help()
			if !b.Enabled() || h.Key == "" || seen[h.Key+h.Desc] {
				continue
			}
			seen[h.Key+h.Desc] = true
			binds = append(binds, b)
			keyW = max(keyW, ansi.StringWidth(h.Key))
		}
	}
	// Two columns where every description fits whole, else one: a key's
	// description is never cut.
	w := max(m.width-2, 20)
	per, colW := 2, w/2
	for _, b := range binds {
		if 1+keyW+2+ansi.StringWidth(b.Help().Desc) > colW {
			per, colW = 1, w
		}
	}
	cells := make([]string, len(binds))
	for i, b := range binds {
		cells[i] = fit(" "+m.c.st.accent.Render(fit(b.Help().Key, keyW))+"  "+b.Help().Desc, colW)
	}
	// Column-major: the first half down the left, the rest on the right.
	var lines []string
	n := (len(cells) + per - 1) / per
	for i := range n {
		l := cells[i]
		if per == 2 && i+n < len(cells) {
			l += cells[i+n]
		}
		lines = append(lines, l)
	}
	return &overlay{title: "Keys · " + pageNames[m.page], lines: lines}
}

// infoTask is the task I shows in full: the one on the page in front,
// or the one under Browse's cursor.
func (m *workbench) infoTask() *suiteTask {
	if t := m.attackTask(); t != nil {
		return t
	}
	if m.page == pageBrowse && m.browse.focus == focusTasks {
		return m.browse.selected()
	}
	return nil
}

// taskOverlay shows a task whole: its title, its instruction and every
// predicate of every goal version, wrapped, never cut.
func (m *workbench) taskOverlay(t *suiteTask) *overlay {
	st := m.c.st
	w := max(m.width-4, 20)
	lines := wrap(st.bold.Render(t.Title), w)
	for _, l := range wrap(fmt.Sprintf("%s · split %s · m %d · H's progress %s", kinship(t), t.Split, t.M, t.Honest), w) {
		lines = append(lines, st.muted.Render(l))
	}
	if t.Public != nil {
		if t.Public.Instruction != "" {
			lines = append(lines, "", st.paneTitle.Render("Instruction"))
			lines = append(lines, instructionLines(t.Public.Instruction, w)...)
		}
		for _, g := range t.Public.Goals {
			lines = append(lines, "", st.paneTitle.Render(fmt.Sprintf("Predicates · goal %s", g.Version)))
			for j, p := range g.Predicates {
				for i, l := range wrap(p.Text, w-4) {
					head := "    "
					if i == 0 {
						head = fmt.Sprintf("%2d  ", j+1)
					}
					lines = append(lines, head+l)
				}
			}
		}
	}
	return &overlay{title: "Task " + t.ID, lines: lines}
}
