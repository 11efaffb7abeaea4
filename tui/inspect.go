package tui

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/store"
)

// inspector steps through one trajectory's event log: the log on the
// left, the cursor event's typed diff and predicate table on the right,
// progress over time below.
type inspector struct {
	c             *common
	width, height int

	task    *suiteTask
	choices []choice // the task's trajectories, plus an opened one
	which   int
	// from is H where the trajectory was opened as a candidate (from
	// Compare); zero: the task's.
	from choice
	// marked is, per task, the run H made H for S, e and c whatever run
	// is on screen, for the session.
	marked map[string]choice
	a      *analysis // nil while loading
	gen    int
	err    error
	want   int // cursor to place when the analysis arrives; -1 is the end

	cursor, top int // cursor is a position 0..events: after that many events
	focus       int // focusLog or focusDetail
	detailTop   int
	whole       bool // the detail shows the whole state, not only what the event touched
	fullTurns   bool // the conversation shows every turn whole

	searching bool
	search    textinput.Model
	query     string

	note *prompt
	// notes are the saved notes, each shown at the event it was written
	// on (noteTarget) when its trajectory is on screen.
	notes []store.Record

	chart  *chartCache
	detail *detailCache
	rows   *rowCache
}

// choice is one trajectory the inspector can show.
type choice struct {
	label string
	traj  *model.Trajectory
}

const (
	focusLog = iota
	focusDetail
)

func newInspector(c *common) *inspector {
	return &inspector{c: c, chart: &chartCache{}, detail: &detailCache{}, rows: &rowCache{}, search: newInput(""), marked: map[string]choice{}}
}

// open shows tr (one of t's trajectories, or another one such as a stored
// witness, read against H h) and starts its analysis.
func (m *inspector) open(t *suiteTask, tr *model.Trajectory, label string, cursor int, h choice) tea.Cmd {
	m.task, m.choices, m.which, m.from = t, nil, -1, h
	for _, ch := range t.stored() {
		if ch.traj == tr {
			m.which = len(m.choices)
		}
		m.choices = append(m.choices, ch)
	}
	if m.which < 0 {
		m.which = len(m.choices)
		m.choices = append(m.choices, choice{label, tr})
	}
	return m.load(cursor)
}

func (m *inspector) load(cursor int) tea.Cmd {
	m.gen++
	m.a, m.err, m.want = nil, nil, cursor
	m.cursor, m.top, m.detailTop = 0, 0, 0
	ch := m.choices[m.which]
	return analyzeCmd(m.c.ws, m.task, ch.traj, ch.label, ownerInspector, m.gen)
}

// show puts a finished analysis on screen at cursor (-1: the end).
func (m *inspector) show(a *analysis, cursor int) {
	m.a, m.err = a, nil
	if cursor < 0 || cursor > a.events() {
		cursor = a.events()
	}
	m.cursor, m.detailTop = cursor, 0
	m.top = listWindow(0, m.cursor, a.events()+1, m.logRows())
}

// present shows an analysis already made, as the only trajectory.
func (m *inspector) present(a *analysis, cursor int) {
	m.gen++
	m.task, m.choices, m.which = a.task, []choice{{a.label, a.traj}}, 0
	m.show(a, cursor)
}

// current is the trajectory on screen.
func (m *inspector) current() choice { return m.choices[m.which] }

// honest is H for S, e and c: the run marked with H, else the run on
// screen when it is one of the task's runs (t cycles them), else the H
// it was opened against, else the task's.
func (m *inspector) honest() choice {
	if h, ok := m.marked[m.task.ID]; ok {
		return h
	}
	if cur := m.current(); m.task.isRun(cur.traj) {
		return cur
	}
	return m.task.orHonest(m.from)
}

// mark makes the run on screen H for S, e and c whatever run is on
// screen; on the run already marked it takes the mark back.
func (m *inspector) mark() tea.Cmd {
	cur := m.current()
	if h, ok := m.marked[m.task.ID]; ok && h.traj == cur.traj {
		delete(m.marked, m.task.ID)
		return status("no run is marked H: S, e and c take the run on screen as H", false)
	}
	m.marked[m.task.ID] = cur
	return status(fmt.Sprintf("H is %s: S searches from it, e edits against it, c compares it with the run on screen (H here again unmarks it)", cur.label), false)
}

func (m *inspector) SetSize(w, h int) {
	m.width, m.height = w, h
	if m.a != nil {
		m.top = listWindow(m.top, m.cursor, m.a.events()+1, m.logRows())
	}
}

func (m *inspector) Typing() bool { return m.searching || m.note != nil }

// Loading reports whether the trajectory on screen is still being
// replayed, certified and scored.
func (m *inspector) Loading() bool { return m.task != nil && m.a == nil && m.err == nil }

// layout splits the screen: log and detail side by side, the chart and
// any prompt below.
func (m *inspector) layout() (logW, topH, chartH, promptH, lanes int) {
	if m.note != nil {
		promptH = m.note.height()
	}
	lanes = 4
	if m.height >= 30 {
		lanes = 1 + len(m.c.ws.evaluators)
	}
	chartH = lanes + 3
	if m.height-promptH < 14 {
		chartH, lanes = 0, 0
	}
	// A run of a task with no goal has no progress to chart: in its
	// place, why, and the benchmark's own scores.
	if m.a != nil && m.a.noGoal != nil {
		chartH, lanes = len(m.noGoalLines(m.width-2))+2, 0
	}
	topH = m.height - chartH - promptH
	logW = clamp(m.width*2/5, 30, 64)
	// A wide terminal gives the log the room to show whole events, up
	// to half the width.
	if m.a != nil && m.width >= 160 {
		logW = clamp(m.a.widestRow+2, logW, m.width/2)
	}
	return
}

func (m *inspector) logRows() int {
	_, topH, _, _, _ := m.layout()
	rows := topH - 2
	if m.searching {
		rows--
	}
	return max(rows, 1)
}

func (m *inspector) detailRows() int {
	_, topH, _, _, _ := m.layout()
	return max(topH-2, 1)
}

func (m *inspector) update(msg tea.Msg) (*inspector, tea.Cmd) {
	switch msg := msg.(type) {
	case analysisMsg:
		if msg.owner != ownerInspector || msg.gen != m.gen {
			return m, nil
		}
		if msg.err != nil {
			m.err = msg.err
			return m, nil
		}
		m.show(msg.a, m.want)
		return m, nil
	case searchMsg:
		if msg.gen == m.gen && m.a != nil {
			if msg.at < 0 {
				return m, status(fmt.Sprintf("no event matches %q", msg.query), true)
			}
			m.step(msg.at - m.cursor)
			return m, status(fmt.Sprintf("match %d/%d for %q", msg.nth, msg.total, msg.query), false)
		}
	case tea.MouseMsg:
		// The pane under the pointer takes the focus; a click on the
		// log moves the cursor to that row.
		if msg.Action != tea.MouseActionPress || m.a == nil {
			break
		}
		logW, topH, _, _, _ := m.layout()
		if msg.Y >= topH {
			break
		}
		m.focus = focusLog
		if msg.X >= logW {
			m.focus = focusDetail
		}
		switch msg.Button {
		case tea.MouseButtonWheelUp:
			m.scroll(-3)
		case tea.MouseButtonWheelDown:
			m.scroll(3)
		case tea.MouseButtonLeft:
			if k := m.top + msg.Y - 1; m.focus == focusLog && msg.Y >= 1 && msg.Y <= m.logRows() && k <= m.a.events() {
				m.step(k - m.cursor)
			}
		}
	case tea.KeyMsg:
		return m.key(msg)
	}
	return m, nil
}

func (m *inspector) key(msg tea.KeyMsg) (*inspector, tea.Cmd) {
	k := m.c.keys
	if m.note != nil {
		done, cancel, cmd := m.note.update(msg)
		switch {
		case cancel:
			m.note = nil
		case done:
			text := strings.TrimSpace(m.note.value(0))
			m.note = nil
			if text == "" {
				return m, status("empty note not saved", true)
			}
			name := fmt.Sprintf("%s %s after event %d", m.task.ID, m.current().label, m.cursor)
			return m, saveCmd(m.c.dbPath, store.Record{Kind: store.KindNote, Task: m.task.ID, Name: name, Note: text})
		}
		return m, cmd
	}
	if m.searching {
		switch {
		case key.Matches(msg, k.Cancel):
			m.searching = false
			m.search.Blur()
		case key.Matches(msg, k.Submit):
			m.searching = false
			m.search.Blur()
			// An empty search repeats the previous one, shown as the
			// placeholder.
			if q := strings.TrimSpace(m.search.Value()); q != "" {
				m.query = q
			}
			return m, m.find(1)
		default:
			var cmd tea.Cmd
			m.search, cmd = m.search.Update(msg)
			return m, cmd
		}
		return m, nil
	}
	if m.a == nil {
		return m, nil // the analysis failed: only the root's keys act
	}
	page := m.logRows()
	if m.focus == focusDetail {
		page = m.detailRows()
	}
	switch {
	case key.Matches(msg, k.StepPrev):
		m.step(-1)
	case key.Matches(msg, k.StepNext):
		m.step(1)
	case key.Matches(msg, k.First):
		m.step(-m.cursor)
	case key.Matches(msg, k.Last):
		m.step(m.a.events() - m.cursor)
	case key.Matches(msg, k.ScrollUp):
		m.scroll(-1)
	case key.Matches(msg, k.ScrollDown):
		m.scroll(1)
	case key.Matches(msg, k.PageUp):
		if m.focus == focusLog {
			m.step(-page)
		} else {
			m.scroll(-page)
		}
	case key.Matches(msg, k.PageDown):
		if m.focus == focusLog {
			m.step(page)
		} else {
			m.scroll(page)
		}
	case key.Matches(msg, k.Tab):
		m.focus = 1 - m.focus
	case key.Matches(msg, k.WholeState):
		m.whole = !m.whole
	case key.Matches(msg, k.FullTurns):
		m.fullTurns = !m.fullTurns
	case key.Matches(msg, k.Search):
		// A new search starts empty; the previous query is the
		// placeholder, and enter alone repeats it.
		m.searching = true
		m.search.SetValue("")
		m.search.Placeholder = m.query
		return m, m.search.Focus()
	case key.Matches(msg, k.NextMatch):
		return m, m.find(1)
	case key.Matches(msg, k.PrevMatch):
		return m, m.find(-1)
	case key.Matches(msg, k.Switch):
		if len(m.choices) > 1 {
			m.which = (m.which + 1) % len(m.choices)
			return m, m.load(m.cursor)
		}
	case key.Matches(msg, k.Compare):
		return m, m.compare("pair")
	case key.Matches(msg, k.Rollback):
		return m, m.compare("rollback")
	case key.Matches(msg, k.MarkHonest):
		return m, m.mark()
	case key.Matches(msg, m.c.checksKey(m.task)):
		o := m.c.checksOverlay(m.width, m.task.ID, m.a)
		return m, func() tea.Msg { return overlayMsg{o} }
	case key.Matches(msg, k.EditWitness) && m.a.noGoal != nil:
		return m, status("no witness to craft: "+m.a.noGoal.Error(), true)
	case key.Matches(msg, k.EditWitness):
		tr, kind := m.current().traj, "pair"
		if tr == m.task.Rollback {
			kind = "rollback"
		}
		return m, m.c.navigate(openEditorMsg{task: m.task, start: tr, kind: kind, h: m.honest()})
	case key.Matches(msg, k.Annotate):
		m.note = newPrompt(m.c, fmt.Sprintf("Note on %s · %s after event %d", m.task.ID, m.current().label, m.cursor), field{"note", ""})
	}
	return m, nil
}

// compare opens H against the trajectory on screen, or against the
// task's own witness or rollback when H is on screen.
func (m *inspector) compare(kind string) tea.Cmd {
	if m.a.noGoal != nil {
		return status("no pair to compare: "+m.a.noGoal.Error(), true)
	}
	h, cur := m.honest(), m.current()
	cand, label := cur.traj, cur.label
	if cand == h.traj || (kind == "rollback" && cur.label != "rollback" && m.task.Rollback != nil) {
		cand, label = m.task.Witness, ""
		if kind == "rollback" {
			cand = m.task.Rollback
		}
	}
	if cand == nil {
		what := map[string]string{"pair": "witness", "rollback": "rollback"}[kind]
		return status(fmt.Sprintf("task %s has no %s for H %s: e crafts one, S searches for one, or H marks this run H and t shows another to compare", m.task.ID, what, h.label), true)
	}
	return m.c.navigate(openCompareMsg{task: m.task, kind: kind, h: h.traj, hLabel: h.label, a: cand, aLabel: label})
}

// reopenNote puts a note that could not be saved back into its prompt.
func (m *inspector) reopenNote(text string) {
	if m.task == nil || m.a == nil {
		return
	}
	m.note = newPrompt(m.c, fmt.Sprintf("Note on %s · %s after event %d", m.task.ID, m.current().label, m.cursor), field{"note", text})
}

// step moves the cursor by d positions, keeping it visible.
func (m *inspector) step(d int) {
	m.cursor = clamp(m.cursor+d, 0, m.a.events())
	m.detailTop = 0
	m.top = listWindow(m.top, m.cursor, m.a.events()+1, m.logRows())
}

// scroll moves the focused pane's view without moving the cursor.
func (m *inspector) scroll(d int) {
	if m.a == nil {
		return
	}
	if m.focus == focusDetail {
		m.detailTop = max(m.detailTop+d, 0)
		return
	}
	m.top = clamp(m.top+d, 0, max(m.a.events()+1-m.logRows(), 0))
}

// searchMsg is where a search landed: a cursor position or -1.
type searchMsg struct {
	gen        int
	at         int
	query      string
	nth, total int // the match landed on, of all matches
}

// find searches the log from the cursor in direction dir, wrapping.
func (m *inspector) find(dir int) tea.Cmd {
	if m.query == "" || m.a == nil {
		return nil
	}
	a, q, from, gen := m.a, strings.ToLower(m.query), m.cursor, m.gen
	return func() tea.Msg {
		n := a.events() + 1
		at := -1
		// The cursor's own position last: a lone match under the
		// cursor is still a match, "1/1".
		for i := 1; i <= n && at < 0; i++ {
			k := ((from+dir*i)%n + n) % n
			if strings.Contains(strings.ToLower(searchText(a, k)), q) {
				at = k
			}
		}
		if at < 0 {
			return searchMsg{gen: gen, at: -1, query: q}
		}
		nth, total := 0, 0
		for k := range n {
			if strings.Contains(strings.ToLower(searchText(a, k)), q) {
				total++
				if k <= at {
					nth++
				}
			}
		}
		return searchMsg{gen: gen, at: at, query: q, nth: nth, total: total}
	}
}

// searchText is what `/` matches against at position k.
func searchText(a *analysis, k int) string {
	if k == 0 {
		return "0 initial snapshot"
	}
	ev := &a.log.Events[k-1]
	return strconv.Itoa(k) + " " + string(ev.Actor()) + " " + a.task.describeStep(ev.Actor(), ev.Action) + " " + a.log.Reason(ev)
}

func (m *inspector) View() string {
	if m.task == nil {
		return padLines(nil, m.width, m.height)
	}
	if m.a == nil {
		msg := "replaying, certifying and scoring " + m.current().label + " …"
		if m.err != nil {
			// Whole, wrapped: the cause is at the end of the chain.
			lines := []string{""}
			for _, l := range wrap("error: "+m.err.Error(), max(m.width-4, 10)) {
				lines = append(lines, "  "+m.c.st.statusErr.Render(l))
			}
			return padLines(lines, m.width, m.height)
		}
		return padLines([]string{"", "  " + msg}, m.width, m.height)
	}
	logW, topH, chartH, _, lanes := m.layout()
	detailW := m.width - logW
	out := joinColumns(m.logView(logW, topH), m.detailView(detailW, topH))
	if m.a.noGoal != nil {
		out += "\n" + m.c.box("No goal predicate", m.noGoalLines(m.width-2), m.width, chartH, false)
	} else if chartH > 0 {
		ls := chartLanes(m.c.ws, m.a, lanes)
		body := m.c.chart(m.chart, m.a, ls, m.cursor, m.width-2)
		out += "\n" + m.c.box(m.c.chartTitle("Progress over time · value at cursor → final", len(ls)), body, m.width, chartH, false)
	}
	if m.note != nil {
		out += "\n" + m.note.view(m.width)
	}
	return out
}

// noGoalLines say why a run of a task with no goal predicate has no
// progress over time, and give the benchmark's own scores of it.
func (m *inspector) noGoalLines(width int) []string {
	st := m.c.st
	out := wrap(st.muted.Render(m.a.noGoal.Error()+"; c, e and S say so too"), width)
	if len(m.a.bench) > 0 {
		out = append(out, wrap(m.a.task.Bench+" at termination: "+benchSummary(m.a), width)...)
	}
	return out
}

func (m *inspector) logView(w, h int) string {
	a := m.a
	rows := m.logRows()
	lines := make([]string, 0, rows+1)
	noted := m.noted()
	for k := m.top; k < min(m.top+rows, a.events()+1); k++ {
		mark := markNone
		if k == m.cursor {
			mark = markCursor
		}
		if mark == markNone {
			row := m.rows.row(m.c, a, k, w-2)
			if noted[k] {
				// The row's lead, a space, marks the note.
				row = strings.Replace(row, " ", m.c.st.accent.Render("✎"), 1)
			}
			lines = append(lines, row)
		} else {
			lines = append(lines, m.c.eventRow(a, k, w-2, mark))
		}
	}
	if m.searching {
		for len(lines) < rows {
			lines = append(lines, "")
		}
		lines = append(lines, m.c.st.accent.Render("/")+inputView(m.search))
	}
	title := fmt.Sprintf("%s · %s · %d events%s", m.task.ID, m.current().label, a.events(), a.rewardNote())
	return m.c.box(title, lines, w, h, m.focus == focusLog)
}

// notesAt are the notes written on the trajectory on screen after k
// events.
func (m *inspector) notesAt(k int) []store.Record {
	var out []store.Record
	for _, r := range m.notes {
		if label, at, ok := noteTarget(r); ok && r.Task == m.task.ID && label == m.current().label && at == k {
			out = append(out, r)
		}
	}
	return out
}

// noted are the cursor positions of the trajectory on screen that have
// a note.
func (m *inspector) noted() map[int]bool {
	out := map[int]bool{}
	for _, r := range m.notes {
		if label, at, ok := noteTarget(r); ok && r.Task == m.task.ID && label == m.current().label {
			out[at] = true
		}
	}
	return out
}

func (m *inspector) detailView(w, h int) string {
	lines := m.detail.lines(m.c, m.a, m.cursor, w-2, m.whole, m.fullTurns)
	// A note written here comes first, whole.
	if notes := m.notesAt(m.cursor); len(notes) > 0 {
		var head []string
		for _, r := range notes {
			head = append(head, m.c.st.accent.Render(fit(fmt.Sprintf("✎ note %d", r.Key), w-2)))
			head = append(head, wrap(r.Note, w-2)...)
		}
		lines = append(append(head, ""), lines...)
	}
	top := clamp(m.detailTop, 0, max(len(lines)-(h-2), 0))
	m.detailTop = top // scrolling past the end does not pile up
	title := "Initial snapshot"
	if m.cursor > 0 {
		title = fmt.Sprintf("Event %d of %d", m.cursor, m.a.events())
	}
	return m.c.box(title, lines[top:], w, h, m.focus == focusDetail)
}

func (m *inspector) ShortHelp() []key.Binding {
	k := m.c.keys
	if m.note != nil {
		return m.note.keys()
	}
	if m.searching {
		return []key.Binding{k.Submit, k.Cancel}
	}
	if m.focus == focusDetail {
		return []key.Binding{k.AttackCancel, k.ScrollDown, k.ScrollUp, k.PageDown, k.StepNext, k.StepPrev, k.Tab, k.Attack, k.Back, k.Help}
	}
	return []key.Binding{k.AttackCancel, k.StepNext, k.StepPrev, k.First, k.Last, k.Search, k.Compare, k.EditWitness, k.Attack, k.Tab, k.Back, k.Help}
}

func (m *inspector) FullHelp() [][]key.Binding {
	k := m.c.keys
	if m.note != nil || m.searching {
		return [][]key.Binding{m.ShortHelp()}
	}
	return [][]key.Binding{
		{k.StepNext, k.StepPrev, k.First, k.Last},
		{k.ScrollDown, k.ScrollUp, k.PageDown, k.PageUp},
		{k.Search, k.NextMatch, k.PrevMatch, k.Tab},
		{k.Switch, k.MarkHonest, k.Compare, k.Rollback, k.EditWitness},
		{k.WholeState, k.FullTurns, m.c.checksKey(m.task), k.Annotate, k.Attack, k.AttackCancel},
		{k.Back},
		{k.Quit, k.Help},
	}
}
