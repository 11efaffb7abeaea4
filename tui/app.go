package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/store"
)

// page names a screen of the workbench.
type page int

const (
	pageBrowse page = iota
	pageInspect
	pageCompare
	pageEditor
)

var pageNames = map[page]string{pageBrowse: "Browse", pageInspect: "Inspector", pageCompare: "Compare", pageEditor: "Witness editor"}

// Navigation and status messages children send to the root.
type (
	openTaskMsg struct {
		task   *suiteTask
		traj   *model.Trajectory
		label  string
		cursor int
	}
	openCompareMsg struct {
		task *suiteTask
		kind string
		h, a *model.Trajectory
	}
	openEditorMsg struct {
		task  *suiteTask
		start *model.Trajectory
		rec   store.Record
		// unsaved marks a witness that lives nowhere else yet (imported,
		// or found by the search attacker): it keeps its own name and
		// note and counts as unsaved until it is saved.
		unsaved bool
		// kind is "pair" for a witness, "rollback" for a strict
		// rollback, "" to let the first certificate decide.
		kind string
	}
	statusMsg struct {
		text string
		err  bool
	}
)

func navigate(msg tea.Msg) tea.Cmd { return func() tea.Msg { return msg } }

func status(text string, isErr bool) tea.Cmd {
	return func() tea.Msg { return statusMsg{text: text, err: isErr} }
}

// workbench is the root model: global keys first, then the page in front gets
// the message; sizes go to every page; results of slow work go to the
// page that asked for them, whichever page is in front.
type workbench struct {
	c      *common
	width  int
	height int
	page   page
	back   []page

	browse  *browser
	inspect *inspector
	compare *comparer
	editor  *editor
	demo    *demo // non-nil in demo mode
	attack  *attackPanel

	help      help.Model
	status    string
	statusErr bool
	// quitArmed is set by a q that would drop an unsaved witness; the
	// next q quits. discardArmed is the same for esc on the editor.
	quitArmed, discardArmed bool
}

func newModel(c *common) *workbench {
	h := help.New()
	h.Styles = c.st.help
	m := &workbench{c: c, browse: newBrowser(c), inspect: newInspector(c), compare: newComparer(c), editor: newEditor(c),
		attack: newAttackPanel(c), help: h}
	m.enableKeys()
	return m
}

func (m *workbench) Init() tea.Cmd {
	if m.demo != nil {
		return m.demo.init()
	}
	return listRecordsCmd(m.c.dbPath)
}

// front is the page in front as a pane.
func (m *workbench) front() pane {
	switch m.page {
	case pageInspect:
		return m.inspect
	case pageCompare:
		return m.compare
	case pageEditor:
		return m.editor
	}
	return m.browse
}

func (m *workbench) goTo(p page) {
	if p != m.page {
		m.back = append(m.back, m.page)
		m.page = p
	}
	m.status = ""
}

// Update routes msg, then enables the keys that now apply and gives the
// pages the room the search attacker's panel leaves them.
func (m *workbench) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	// Keys that reach the terminal in one read arrive as one message of
	// several runes ("jjj"); each is a key press of its own. A paste
	// stays whole.
	if k, ok := msg.(tea.KeyMsg); ok && k.Type == tea.KeyRunes && len(k.Runes) > 1 && !k.Paste {
		cmds := make([]tea.Cmd, 0, len(k.Runes))
		for _, r := range k.Runes {
			_, cmd := m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}, Alt: k.Alt})
			cmds = append(cmds, cmd)
		}
		return m, tea.Batch(cmds...)
	}
	panelH := m.attack.height(m.width)
	_, cmd := m.route(msg)
	m.enableKeys()
	if m.attack.height(m.width) != panelH {
		m.resize()
	}
	return m, cmd
}

func (m *workbench) route(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.resize()
		return m, nil
	case tea.KeyMsg:
		if key.Matches(msg, m.c.keys.ForceQuit) {
			return m, tea.Quit
		}
		// Focus gate: while a text input has focus, every key is its own.
		if !m.front().Typing() {
			switch {
			case key.Matches(msg, m.c.keys.Quit):
				if m.editor.modified && !m.quitArmed && m.demo == nil {
					m.quitArmed = true
					m.status, m.statusErr = "the witness in the editor is not saved: q again quits anyway, s saves", true
					return m, nil
				}
				return m, tea.Quit
			case key.Matches(msg, m.c.keys.Help):
				m.help.ShowAll = !m.help.ShowAll
				desc := "more keys"
				if m.help.ShowAll {
					desc = "fewer keys"
				}
				m.c.keys.Help.SetHelp("?", desc)
				m.resize()
				return m, nil
			}
			if m.demo != nil {
				if cmd, ok := m.demo.key(m, msg); ok {
					return m, cmd
				}
			}
			// The search attacker's form and result have the focus;
			// while it runs, only its cancel key is its own.
			if m.attack.modal() {
				var cmd tea.Cmd
				m.attack, cmd = m.attack.key(msg)
				return m, cmd
			}
			switch {
			case key.Matches(msg, m.c.keys.AttackCancel):
				return m, m.attack.stop()
			case key.Matches(msg, m.c.keys.Attack):
				m.attack.setup(m.attackTask())
				return m, nil
			}
			if key.Matches(msg, m.c.keys.Back) && len(m.back) > 0 {
				if m.page == pageEditor && m.editor.modified && m.demo == nil {
					if !m.discardArmed {
						m.discardArmed = true
						m.status, m.statusErr = "the witness in the editor is not saved: esc again discards it, s saves", true
						return m, nil
					}
					m.editor.discard()
				}
				m.popPage()
				if m.page == pageBrowse {
					// Another process may have changed the store meanwhile.
					return m, listRecordsCmd(m.c.dbPath)
				}
				return m, nil
			}
		}
		m.status, m.quitArmed, m.discardArmed = "", false, false
		return m, m.routeFront(msg)
	case tea.MouseMsg:
		return m, m.routeFront(msg)
	case statusMsg:
		m.status, m.statusErr = msg.text, msg.err
		return m, nil
	case openTaskMsg:
		m.goTo(pageInspect)
		m.resize()
		return m, m.inspect.open(msg.task, msg.traj, msg.label, msg.cursor)
	case openCompareMsg:
		m.goTo(pageCompare)
		m.resize()
		return m, m.compare.open(msg.task, msg.kind, msg.h, msg.a)
	case openEditorMsg:
		// Compare opened from the editor shows the editor's witness:
		// going back keeps its undo history and its stored record.
		if m.page == pageCompare && len(m.back) > 0 && m.back[len(m.back)-1] == pageEditor {
			m.popPage()
			return m, nil
		}
		m.goTo(pageEditor)
		m.resize()
		return m, m.editor.open(msg.task, msg.start, msg.rec, msg.unsaved, msg.kind)
	case analysisMsg:
		// Both the inspector and the editor ask for analyses: a result
		// goes only to the pane that asked, which then drops it unless it
		// answers that pane's latest request.
		var cmd tea.Cmd
		switch msg.owner {
		case ownerInspector:
			m.inspect, cmd = m.inspect.update(msg)
		case ownerEditor:
			m.editor, cmd = m.editor.update(msg)
		}
		return m, cmd
	case pairMsg:
		var cmd tea.Cmd
		m.compare, cmd = m.compare.update(msg)
		return m, cmd
	case candidateMsg:
		var cmd tea.Cmd
		m.editor, cmd = m.editor.update(msg)
		return m, cmd
	case searchMsg:
		var cmd tea.Cmd
		m.inspect, cmd = m.inspect.update(msg)
		return m, cmd
	case recordsMsg, summariesMsg:
		var cmd tea.Cmd
		m.browse, cmd = m.browse.update(msg)
		return m, cmd
	case attackProgressMsg, attackDoneMsg, spinner.TickMsg:
		var cmd tea.Cmd
		m.attack, cmd = m.attack.update(msg)
		return m, cmd
	case savedMsg:
		if msg.err != nil {
			kept := "nothing was saved, s saves again"
			switch msg.rec.Kind {
			case store.KindWitness:
				kept = "the witness is still in the editor, s saves again"
			case store.KindNote:
				// The note's text goes back into its prompt.
				kept = "the note is still in its prompt, enter saves again"
				m.inspect.reopenNote(msg.rec.Note)
			}
			m.status, m.statusErr = "not saved: "+storeError(msg.err, kept), true
			return m, nil
		}
		m.editor.saved(msg.rec)
		m.status, m.statusErr = fmt.Sprintf("saved %s %d %q to %s", msg.rec.Kind, msg.rec.Key, msg.rec.Name, m.c.dbPath), false
		return m, listRecordsCmd(m.c.dbPath)
	case deletedMsg:
		if msg.err != nil {
			m.status, m.statusErr = "not deleted: "+storeError(msg.err, "del tries again"), true
			return m, nil
		}
		m.status, m.statusErr = "deleted", false
		return m, listRecordsCmd(m.c.dbPath)
	case importedMsg:
		if msg.err != nil {
			m.status, m.statusErr = msg.err.Error(), true
			return m, nil
		}
		if t := msg.task; t != nil {
			m.c.ws.addOwn(t)
			m.browse.showTask(t.ID)
			return m, tea.Batch(listRecordsCmd(m.c.dbPath), navigate(openTaskMsg{task: t, traj: t.HonestTraj, label: t.stored()[0].label}))
		}
		t := m.c.ws.task(msg.traj.Task)
		if t == nil {
			m.status, m.statusErr = fmt.Sprintf("the witness is for task %q, which is not in this suite; ctrl+o opens its task file first", msg.traj.Task), true
			return m, nil
		}
		return m, navigate(openEditorMsg{task: t, start: msg.traj, unsaved: true})
	case exportedMsg:
		if msg.err != nil {
			m.status, m.statusErr = msg.err.Error(), true
		} else {
			m.status, m.statusErr = "exported "+msg.path, false
		}
		return m, nil
	case demoMsg:
		return m, m.demo.loaded(m, msg)
	}
	return m, nil
}

// popPage goes back to the page before this one.
func (m *workbench) popPage() {
	m.page, m.back = m.back[len(m.back)-1], m.back[:len(m.back)-1]
	m.status, m.quitArmed, m.discardArmed = "", false, false
	m.resize()
}

func (m *workbench) routeFront(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	switch m.page {
	case pageInspect:
		m.inspect, cmd = m.inspect.update(msg)
	case pageCompare:
		m.compare, cmd = m.compare.update(msg)
	case pageEditor:
		m.editor, cmd = m.editor.update(msg)
	default:
		m.browse, cmd = m.browse.update(msg)
	}
	return cmd
}

// chrome is the number of lines outside the page: header, the search
// attacker's panel, help bar and, in a demo, the caption.
func (m *workbench) chrome() int {
	n := 1 + m.attack.height(m.width) + m.helpHeight()
	if m.demo != nil {
		n += m.demo.captionHeight(m.width)
	}
	return n
}

func (m *workbench) helpHeight() int {
	if !m.help.ShowAll {
		return 1
	}
	rows := 1
	for _, col := range m.keyHelp().FullHelp() {
		rows = max(rows, len(col))
	}
	return rows
}

// resize gives every page the space below the header and above the help.
func (m *workbench) resize() {
	h := max(m.height-m.chrome(), 1)
	m.help.Width = m.width
	for _, p := range []pane{m.browse, m.inspect, m.compare, m.editor} {
		p.SetSize(m.width, h)
	}
}

// The smallest terminal every screen fits with its title, verdict and
// help bar; below it the workbench says so instead of drawing.
const minWidth, minHeight = 80, 24

func (m *workbench) View() string {
	if m.width == 0 {
		return ""
	}
	if m.width < minWidth || m.height < minHeight {
		return m.tooSmall()
	}
	st := m.c.st
	left := st.title.Render(" parthack ") + st.subtitle.Render(m.crumbs())
	right := ""
	if m.status != "" {
		sty := st.status
		if m.statusErr {
			sty = st.statusErr
		}
		right = sty.Render(m.status + " ")
	}
	header := fit(left, max(m.width-ansi.StringWidth(right), 0)) + right
	var b strings.Builder
	b.WriteString(fit(header, m.width))
	b.WriteByte('\n')
	// A page never pushes the title or the help bar off the screen.
	b.WriteString(clipLines(m.front().View(), max(m.height-m.chrome(), 1)))
	if m.attack.state != attackIdle {
		b.WriteByte('\n')
		b.WriteString(m.attack.view(m.width))
	}
	if m.demo != nil {
		b.WriteByte('\n')
		b.WriteString(m.demo.caption(m.width))
	}
	b.WriteByte('\n')
	// The help bubble lets a line overflow when not even its ellipsis
	// fits; the frame never does.
	for i, l := range strings.Split(m.help.View(m.keyHelp()), "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(fit(l, m.width))
	}
	return b.String()
}

// tooSmall fills the terminal with a note that it is too small.
func (m *workbench) tooSmall() string {
	lines := append(wrap(fmt.Sprintf("terminal too small (need %d×%d)", minWidth, minHeight), m.width),
		wrap(fmt.Sprintf("this one is %d×%d · q quits", m.width, m.height), m.width)...)
	top := max((m.height-len(lines))/2, 0)
	out := make([]string, top, m.height)
	for _, l := range lines {
		pad := max((m.width-ansi.StringWidth(l))/2, 0)
		out = append(out, strings.Repeat(" ", pad)+l)
	}
	return padLines(out[:min(len(out), m.height)], m.width, m.height)
}

// clipLines keeps the first n lines of s.
func clipLines(s string, n int) string {
	i, idx := 0, 0
	for ; i < n; i++ {
		j := strings.IndexByte(s[idx:], '\n')
		if j < 0 {
			return s
		}
		idx += j + 1
	}
	return s[:idx-1]
}

// keyHelp is whose keys the help bar lists: the demo's while it plays,
// the search attacker's while it has the focus, else the page in front's.
func (m *workbench) keyHelp() help.KeyMap {
	if m.demo != nil {
		return m.demo
	}
	if m.attack.modal() && !m.front().Typing() {
		return m.attack
	}
	return m.front()
}

// attackTask is the task a search started now would attack: the one on
// the page in front, or nil on Browse.
func (m *workbench) attackTask() *suiteTask {
	switch m.page {
	case pageInspect:
		return m.inspect.task
	case pageCompare:
		return m.compare.task
	case pageEditor:
		return m.editor.task
	}
	return nil
}

// enableKeys enables the search attacker's keys where they apply: S
// starts a search on a page with a task, and while one runs esc cancels
// it instead of going back.
func (m *workbench) enableKeys() {
	k := m.c.keys
	running := m.attack.running()
	k.Attack.SetEnabled(m.demo == nil && !running && m.attackTask() != nil)
	k.AttackCancel.SetEnabled(running)
	k.Back.SetEnabled(!running)
	k.ShowCompare.SetEnabled(m.attack.witness())
	k.ShowEditor.SetEnabled(m.attack.witness())
}

func (m *workbench) crumbs() string {
	parts := []string{pageNames[m.page]}
	if m.demo != nil {
		parts = []string{"demo", m.demo.title()}
	}
	switch m.page {
	case pageInspect:
		if m.inspect.task != nil {
			parts = append(parts, m.inspect.task.ID)
		}
	case pageCompare:
		if m.compare.task != nil {
			parts = append(parts, m.compare.task.ID)
		}
	case pageEditor:
		if m.editor.task != nil {
			parts = append(parts, m.editor.task.ID)
		}
	}
	return "· " + strings.Join(parts, " › ")
}
