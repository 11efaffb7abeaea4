package tui

import (
	"errors"
	"fmt"
	"slices"
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
		// h is H where traj is read against one (a candidate opened
		// from Compare); zero: the task's.
		h choice
	}
	openCompareMsg struct {
		task *suiteTask
		kind string
		h, a *model.Trajectory
		// hLabel and aLabel name them on screen; "" names H "honest"
		// and the candidate by its name.
		hLabel, aLabel string
		// unsaved marks the search attacker's witness: leaving Compare
		// drops it, so esc and q ask first.
		unsaved bool
		// rec is the saved run reopened, which a save replaces.
		rec store.Record
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
		// h is the run the witness is certified against; zero: the
		// task's H.
		h choice
	}
	statusMsg struct {
		text string
		err  bool
	}
	// overlayMsg covers the page with text a page asked to show whole.
	overlayMsg struct{ o *overlay }
)

// navigate opens another page. Until its message arrives, and then until
// the page has loaded what it shows, the root holds the keys typed
// meanwhile, so they act on the page they were typed for (see holding).
func (c *common) navigate(msg tea.Msg) tea.Cmd {
	c.navPending++
	return func() tea.Msg { return msg }
}

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
	// inspectBack keeps the Inspector as it was where it waits on the
	// back stack while it shows another trajectory (Compare's enter
	// opens an event there): esc brings back the run you came from.
	inspectBack []savedInspector

	browse  *browser
	inspect *inspector
	compare *comparer
	editor  *editor
	demo    *demo // non-nil in demo mode
	attack  *attackPanel

	help      help.Model
	status    string
	statusErr bool
	// armed is the question the last key asked before it would drop
	// unsaved work: the same key again goes ahead, any other keeps it.
	// armKey is that key and armWhat the work the question named: a key
	// goes ahead only when it is the key asked about and the work it
	// would drop is the work named.
	armed           arm
	armKey, armWhat string
	// replaceOK lets the next openEditorMsg replace a modified witness:
	// the user answered e to the question.
	replaceOK bool
	// deleting is the saved record del asked about.
	deleting recordID
	// overlay covers the page: the full help, or the task in full.
	overlay *overlay
	// held are keys typed while a page was opening: they act on it, in
	// order, once it is on screen (see holding).
	held []tea.KeyMsg
}

// savedInspector is the Inspector as it was at position depth of the
// back stack.
type savedInspector struct {
	depth int
	state inspector
}

// arm is a question the workbench asked before dropping unsaved work.
type arm int

const (
	armNone    arm = iota
	armQuit        // q or ctrl+c again quits
	armBack        // esc again drops it
	armReplace     // e again replaces the editor's witness
	armDelete      // del again deletes the saved record
	armDismiss     // esc again dismisses the search's result
)

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
	// The workbench binds no alt key: an alt key is an esc and the key
	// after it that reached the terminal in one read (typed fast, or
	// buffered on a busy machine), and acts as the two keys.
	if k, ok := msg.(tea.KeyMsg); ok && k.Alt && !k.Paste {
		_, esc := m.Update(tea.KeyMsg{Type: tea.KeyEsc})
		k.Alt = false
		_, then := m.Update(k)
		return m, tea.Batch(esc, then)
	}
	// Keys that reach the terminal in one read arrive as one message of
	// several runes ("jjj"); each is a key press of its own. A paste
	// stays whole.
	if k, ok := msg.(tea.KeyMsg); ok && k.Type == tea.KeyRunes && len(k.Runes) > 1 && !k.Paste {
		cmds := make([]tea.Cmd, 0, len(k.Runes))
		for _, r := range k.Runes {
			_, cmd := m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
			cmds = append(cmds, cmd)
		}
		return m, tea.Batch(cmds...)
	}
	chrome := m.chrome()
	_, cmd := m.route(msg)
	// Whatever arrived may have finished opening the page in front: the
	// keys held for it act now.
	cmd = tea.Batch(cmd, m.releaseHeld())
	m.enableKeys()
	if m.chrome() != chrome {
		m.resize()
	}
	return m, cmd
}

func (m *workbench) route(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg.(type) {
	case openTaskMsg, openCompareMsg, openEditorMsg:
		m.c.navPending = max(m.c.navPending-1, 0)
	}
	return m.routeNav(msg)
}

// holding reports whether keys wait: a page was asked to open and its
// message has not arrived, or the page in front is still loading what
// it shows (a trajectory's analysis, a pair's certificate, H's replay).
// The root holds them in one queue whichever page they act on, so a key
// that opens another page holds the keys after it for that page.
func (m *workbench) holding() bool {
	return m.c.navPending > 0 || m.front().Loading()
}

// releaseHeld plays the held keys, in order, until one of them opens a
// page that loads: the rest wait for that page.
func (m *workbench) releaseHeld() tea.Cmd {
	var cmds []tea.Cmd
	for len(m.held) > 0 && !m.holding() {
		k := m.held[0]
		m.held = m.held[1:]
		cmds = append(cmds, m.key(k))
	}
	return tea.Batch(cmds...)
}

func (m *workbench) routeNav(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.resize()
		return m, nil
	case tea.KeyMsg:
		return m, m.key(msg)
	case tea.MouseMsg:
		// The page sees the pointer where it draws: below the header
		// and any status banner.
		if m.overlay != nil || m.front().Typing() || m.tooSmall() {
			return m, nil
		}
		msg.Y -= 1 + len(m.banner())
		if msg.Y < 0 || msg.Y >= m.height-m.chrome() {
			return m, nil
		}
		return m, m.routeFront(msg)
	case statusMsg:
		m.status, m.statusErr = msg.text, msg.err
		return m, nil
	case overlayMsg:
		m.overlay = msg.o
		return m, nil
	case openTaskMsg:
		if i := slices.Index(m.back, pageInspect); i >= 0 && m.page != pageInspect {
			m.inspectBack = append(m.inspectBack, savedInspector{i, *m.inspect})
		}
		m.goTo(pageInspect)
		m.resize()
		return m, m.inspect.open(msg.task, msg.traj, msg.label, msg.cursor, msg.h)
	case openCompareMsg:
		if err := goalless(msg.task); err != nil {
			m.setStatus("no pair to compare: "+err.Error(), true)
			return m, nil
		}
		m.goTo(pageCompare)
		m.resize()
		return m, m.compare.open(msg)
	case openEditorMsg:
		if err := goalless(msg.task); err != nil {
			m.setStatus("no witness to craft: "+err.Error(), true)
			return m, nil
		}
		// Compare opened from the editor shows the editor's witness:
		// going back keeps its undo history and its stored record.
		if m.page == pageCompare && len(m.back) > 0 && m.back[len(m.back)-1] == pageEditor {
			m.popPage()
			return m, nil
		}
		// A modified witness is replaced only when the user said so.
		if m.editor.modified && !m.replaceOK && m.demo == nil {
			return m, m.askReplace()
		}
		m.replaceOK = false
		if m.page == pageCompare {
			m.compare.unsaved = false // its witness goes on in the editor
		}
		m.goTo(pageEditor)
		m.resize()
		return m, m.editor.open(msg.task, msg.start, msg.rec, msg.unsaved, msg.kind, msg.h)
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
		if msg, ok := msg.(recordsMsg); ok && msg.err == nil {
			m.inspect.notes = nil
			for _, r := range msg.recs {
				if r.Kind == store.KindNote {
					m.inspect.notes = append(m.inspect.notes, r)
				}
			}
		}
		var cmd tea.Cmd
		m.browse, cmd = m.browse.update(msg)
		return m, cmd
	case attackProgressMsg, attackDoneMsg, spinner.TickMsg:
		var cmd tea.Cmd
		m.attack, cmd = m.attack.update(msg)
		return m, cmd
	case savedMsg:
		if errors.Is(msg.err, store.ErrNotFound) && msg.rec.Kind == store.KindWitness && m.editor.rec.Key == msg.rec.Key {
			// Another workbench deleted it meanwhile: the editor keeps
			// the witness and its next save makes a new record.
			m.editor.rec.Key = 0
			m.setStatus(fmt.Sprintf("not saved: witness %d was deleted from the store meanwhile (another workbench?); the witness is still in the editor, s saves it as a new one", msg.rec.Key), true)
			return m, listRecordsCmd(m.c.dbPath)
		}
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
		m.compare.saved(msg.rec)
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
			return m, tea.Batch(listRecordsCmd(m.c.dbPath), m.c.navigate(openTaskMsg{task: t, traj: t.HonestTraj, label: t.stored()[0].label}))
		}
		t := m.c.ws.task(msg.traj.Task)
		if t == nil {
			m.status, m.statusErr = fmt.Sprintf("the witness is for task %q, which is not in this suite; ctrl+o opens its task file first", msg.traj.Task), true
			return m, nil
		}
		// A trajectory that goes on after its episode ended is not one
		// of the domain's: refused where it stands in its file.
		if err := model.CheckEpisode(t.Public, msg.traj.Steps); err != nil {
			m.status, m.statusErr = episodeImportError(msg.traj.File, err).Error(), true
			return m, nil
		}
		h, note := t.witnessOf(msg.traj)
		if note != "" {
			return m, tea.Batch(m.c.navigate(openEditorMsg{task: t, start: msg.traj, unsaved: true, h: h}), status(note, true))
		}
		return m, m.c.navigate(openEditorMsg{task: t, start: msg.traj, unsaved: true, h: h})
	case exportedMsg:
		if msg.err != nil {
			m.status, m.statusErr = msg.err.Error(), true
		} else {
			m.status, m.statusErr = "exported to "+msg.path+msg.note, false
		}
		return m, nil
	case demoMsg:
		return m, m.demo.loaded(m, msg)
	}
	return m, nil
}

// key handles a key: ctrl+c first (it cancels a prompt, else asks like
// q), then the focus gate (a text input takes every key), then the keys
// of the whole workbench, then the page in front.
func (m *workbench) key(msg tea.KeyMsg) tea.Cmd {
	k := m.c.keys
	armed, asked := m.armed, question{m.armed, m.armKey, m.armWhat}
	m.armed, m.armKey, m.armWhat = armNone, "", ""
	if armed != armNone {
		// A question is answered by the key after it, whichever it is:
		// left on the screen it would name a key that no longer acts.
		m.status, m.statusErr = "", false
	}
	if key.Matches(msg, k.Suspend) {
		return tea.Suspend // nothing is dropped: fg resumes where it was
	}
	if m.tooSmall() {
		// Nothing is drawn: a key acting on an unseen page could lose
		// work, so only the keys the note names act.
		if key.Matches(msg, k.ForceQuit) || key.Matches(msg, k.Quit) {
			return m.quit(asked, msg.String())
		}
		return nil
	}
	if m.overlay != nil {
		var done bool
		m.overlay, done = m.overlay.key(k, msg, m.height-m.chrome())
		if done {
			m.overlay = nil
		}
		return nil
	}
	if m.holding() && !key.Matches(msg, k.ForceQuit) {
		m.held = append(m.held, msg)
		return nil
	}
	typing := m.front().Typing()
	if key.Matches(msg, k.ForceQuit) {
		switch {
		case m.demo != nil:
			return tea.Quit
		case typing:
			return m.routeFront(tea.KeyMsg{Type: tea.KeyEsc})
		case m.attack.state == attackSetup:
			m.attack.state = attackIdle
			return nil
		}
		return m.quit(asked, "ctrl+c")
	}
	// Focus gate: while a text input has focus, every key is its own.
	if typing {
		m.clearStatus()
		return m.routeFront(msg)
	}
	switch {
	case key.Matches(msg, k.Quit):
		return m.quit(asked, "q")
	case key.Matches(msg, k.Help):
		m.overlay = m.helpOverlay()
		return nil
	}
	if m.demo != nil {
		if cmd, ok := m.demo.key(m, msg); ok {
			return cmd
		}
	}
	// esc takes back one thing at a time: an error on the status line
	// first, then the search's form or result, then the page.
	if msg.Type == tea.KeyEsc && ((m.status != "" && m.statusErr && armed == armNone) || (armed != armNone && armed != armBack && armed != armDismiss)) {
		m.status = ""
		return nil
	}
	// The search attacker's form and result have the focus; while it
	// runs, only its cancel key is its own.
	if m.attack.modal() {
		if m.attack.witness() && key.Matches(msg, k.ShowEditor) && m.editor.modified && armed != armReplace {
			return m.askReplace()
		}
		if armed == armReplace {
			m.replaceOK = true
		}
		// Dismissing the search's witness drops it: esc asks first.
		if m.attack.witness() && key.Matches(msg, k.Dismiss) && !asked.again(armDismiss, "esc", searchWitness) {
			m.ask(question{armDismiss, "esc", searchWitness}, m.unsavedQuestion([]unsavedItem{{searchWitness, "enter or e opens it"}}, "esc", "dismisses it"))
			return nil
		}
		var cmd tea.Cmd
		m.attack, cmd = m.attack.key(msg)
		return cmd
	}
	switch {
	case key.Matches(msg, k.AttackCancel):
		return m.attack.stop()
	case key.Matches(msg, k.Attack):
		if err := goalless(m.attackTask()); err != nil {
			m.setStatus("no search: "+err.Error(), true)
			return nil
		}
		m.attack.setup(m.attackTask(), m.attackHonest())
		return nil
	case key.Matches(msg, k.Refresh):
		m.setStatus("reloading the saved witnesses, runs and notes", false)
		return listRecordsCmd(m.c.dbPath)
	case key.Matches(msg, k.TaskInfo) && m.infoTask() != nil:
		m.overlay = m.taskOverlay(m.infoTask())
		return nil
	}
	if key.Matches(msg, k.Back) && len(m.back) > 0 {
		if here := m.unsavedHere(); len(here) > 0 && !asked.again(armBack, "esc", names(here)) {
			m.ask(question{armBack, "esc", names(here)}, m.unsavedQuestion(here, "esc", "drops it"))
			return nil
		}
		if m.page == pageEditor {
			m.editor.discard()
		}
		if m.page == pageCompare {
			m.compare.unsaved = false
		}
		m.popPage()
		if m.page == pageBrowse {
			// Another process may have changed the store meanwhile.
			return listRecordsCmd(m.c.dbPath)
		}
		return nil
	}
	if armed == armReplace && key.Matches(msg, k.EditWitness) {
		m.replaceOK = true
	}
	if m.page == pageBrowse && m.browse.focus == focusRecords && key.Matches(msg, k.DeleteRecord) {
		r, ok := m.browse.record()
		switch {
		case !ok:
			return nil
		case armed == armDelete && idOf(r) == m.deleting:
			m.setStatus("", false)
			return deleteCmd(m.c.dbPath, r)
		}
		m.armed, m.deleting = armDelete, idOf(r)
		m.setStatus(fmt.Sprintf("delete %s %d %q? del again deletes it, any other key keeps it", r.Kind, r.Key, r.Name), true)
		return nil
	}
	m.clearStatus()
	return m.routeFront(msg)
}

// clearStatus drops a passing status; an error stays until esc.
func (m *workbench) clearStatus() {
	if !m.statusErr {
		m.status = ""
	}
}

func (m *workbench) setStatus(text string, isErr bool) { m.status, m.statusErr = text, isErr }

// question is a question the workbench asked before dropping unsaved
// work: its kind, the key that goes ahead, the work it named.
type question struct {
	kind      arm
	key, what string
}

// again reports whether a key answers the question asked: the same key,
// about the same work.
func (q question) again(kind arm, key, what string) bool {
	return q.kind == kind && q.key == key && q.what == what
}

// ask puts a question on the status line.
func (m *workbench) ask(q question, text string) {
	m.armed, m.armKey, m.armWhat = q.kind, q.key, q.what
	m.setStatus(text, true)
}

// quit quits, unless it would drop unsaved work and the user was not
// asked yet: then it asks, naming all of it, and the same key again
// quits. Any other key keeps it, and so does the same key when more work
// became unsaved since (a search that finished): it asks again.
func (m *workbench) quit(asked question, with string) tea.Cmd {
	if work := m.unsaved(); len(work) > 0 && !asked.again(armQuit, with, names(work)) {
		m.ask(question{armQuit, with, names(work)}, m.unsavedQuestion(work, with, "quits anyway"))
		return nil
	}
	return tea.Quit
}

// unsavedItem is a piece of work not saved anywhere, and how to keep it.
type unsavedItem struct{ what, keep string }

// names joins the items' names: "A", "A and B", "A, B and C".
func names(items []unsavedItem) string {
	var n []string
	for _, it := range items {
		n = append(n, it.what)
	}
	if len(n) < 2 {
		return strings.Join(n, "")
	}
	return strings.Join(n[:len(n)-1], ", ") + " and " + n[len(n)-1]
}

// unsavedQuestion asks before key drops the items: it names every one,
// what the key does, and how to keep each.
func (m *workbench) unsavedQuestion(items []unsavedItem, key, does string) string {
	if m.tooSmall() {
		for i := range items {
			items[i].keep = fmt.Sprintf("a terminal of %d×%d shows it again", minWidth, minHeight)
		}
		items = items[:1:1]
	}
	if len(items) == 1 {
		return fmt.Sprintf("%s is not saved: %s again %s, %s, any other key keeps it", names(items), key, does, items[0].keep)
	}
	var keep []string
	for _, it := range items {
		keep = append(keep, it.what+": "+it.keep)
	}
	return fmt.Sprintf("%s are not saved: %s again %s and drops them all, any other key keeps them (%s)", names(items), key, does, strings.Join(keep, "; "))
}

// askReplace asks before the editor's modified witness is replaced.
func (m *workbench) askReplace() tea.Cmd {
	m.armed = armReplace
	m.setStatus("the witness in the editor is not saved: e again replaces it, any other key keeps it", true)
	return nil
}

// unsaved is all the work quitting now would drop, each with how to
// keep it: the editor's modified witness, the search's witness in
// Compare, and the search's result.
func (m *workbench) unsaved() []unsavedItem {
	if m.demo != nil {
		return nil
	}
	var out []unsavedItem
	here := !m.attack.modal()
	if m.editor.modified {
		keep := "the editor's s saves it"
		if m.page == pageEditor && here {
			keep = "s saves it"
		}
		out = append(out, unsavedItem{"the witness in the editor", keep})
	}
	if m.compare.unsaved {
		keep := "Compare's s saves it as a run"
		if m.page == pageCompare && here {
			keep = "s saves it as a run, e edits it"
		}
		out = append(out, unsavedItem{"the search attacker's witness in Compare", keep})
	}
	if m.attack.witness() {
		out = append(out, unsavedItem{searchWitness, "enter or e opens it"})
	}
	return out
}

// searchWitness names the search's result's witness.
const searchWitness = "the search attacker's witness"

// unsavedHere is the work that leaving the page in front would drop.
func (m *workbench) unsavedHere() []unsavedItem {
	switch {
	case m.demo != nil:
		return nil
	case m.page == pageEditor && m.editor.modified:
		return []unsavedItem{{"the witness in the editor", "s saves it"}}
	case m.page == pageCompare && m.compare.unsaved:
		return []unsavedItem{{searchWitness, "s saves it as a run, e edits it"}}
	}
	return nil
}

// popPage goes back to the page before this one; the Inspector comes
// back as it was there.
func (m *workbench) popPage() {
	m.page, m.back = m.back[len(m.back)-1], m.back[:len(m.back)-1]
	for n := len(m.inspectBack); n > 0 && m.inspectBack[n-1].depth >= len(m.back); n-- {
		if saved := m.inspectBack[n-1]; saved.depth == len(m.back) && m.page == pageInspect {
			*m.inspect = saved.state
		}
		m.inspectBack = m.inspectBack[:n-1]
	}
	m.status, m.armed = "", armNone
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

// chrome is the number of lines outside the page: header, status
// banner, the search attacker's panel, help bar and, in a demo, the
// caption.
func (m *workbench) chrome() int {
	n := 1 + len(m.banner()) + m.attack.height(m.width) + 1
	if m.demo != nil {
		n += m.demo.captionHeight(m.width)
	}
	return n
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
	if m.tooSmall() {
		return m.tooSmallNote()
	}
	st := m.c.st
	left := st.title.Render(" parthack ") + st.subtitle.Render(m.crumbs())
	right := ""
	banner := m.banner()
	if m.status != "" && banner == nil {
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
	for _, l := range banner {
		b.WriteString(fit(l, m.width))
		b.WriteByte('\n')
	}
	// A page never pushes the title or the help bar off the screen.
	if m.overlay != nil {
		b.WriteString(m.overlay.view(m.c, m.width, max(m.height-m.chrome(), 1)))
	} else {
		b.WriteString(clipLines(m.front().View(), max(m.height-m.chrome(), 1)))
	}
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
	b.WriteString(fit(m.helpBar(), m.width))
	return b.String()
}

// banner is a status too long for the header's right side, whole, on
// lines of its own below it: a located error keeps its location at 80
// columns. An error stays until esc dismisses it.
func (m *workbench) banner() []string {
	if m.status == "" || m.width == 0 {
		return nil
	}
	crumbs := ansi.StringWidth(" parthack " + m.crumbs())
	if crumbs+ansi.StringWidth(m.status)+2 <= m.width {
		return nil
	}
	sty := m.c.st.status
	hint := ""
	if m.statusErr {
		sty = m.c.st.statusErr
		// esc is the answer that drops the work when esc asked.
		if m.armed != armBack && m.armed != armDismiss {
			hint = " (esc dismisses)"
		}
	}
	lines := wrap(m.status+hint, m.width-2)
	// Never more than a third of the screen: the page stays readable.
	if most := max(m.height/3, 1); len(lines) > most {
		lines = append(lines[:most-1], shortenMiddle(strings.Join(lines[most-1:], " "), m.width-2))
	}
	for i, l := range lines {
		lines[i] = " " + sty.Render(l)
	}
	return lines
}

// helpBar is the keys that work where the focus is, as many as fit,
// and always last the key that lists them all.
func (m *workbench) helpBar() string {
	all := m.c.keys.Help
	var keys []key.Binding
	for _, b := range m.keyHelp().ShortHelp() {
		if b.Help() != all.Help() {
			keys = append(keys, b)
		}
	}
	tail := m.help.ShortHelpView([]key.Binding{all})
	if m.demo != nil || m.front().Typing() {
		tail = ""
	}
	room := m.width
	if tail != "" {
		room -= ansi.StringWidth(tail) + 3
	}
	// Whole keys only, as many as fit with an ellipsis after them: the
	// help bubble would let the line overflow past the last key.
	var head string
	for i := range keys {
		if !keys[i].Enabled() {
			continue
		}
		next := m.help.ShortHelpView(keys[i : i+1])
		if head != "" {
			next = head + m.c.st.help.ShortSeparator.Render(" • ") + next
		}
		if ansi.StringWidth(next)+2 > room {
			head += " …"
			break
		}
		head = next
	}
	if tail == "" {
		return head
	}
	return head + m.c.st.help.ShortSeparator.Render(" • ") + tail
}

// tooSmall says the terminal is too small to draw the workbench (known
// once its size is).
func (m *workbench) tooSmall() bool {
	return m.width > 0 && (m.width < minWidth || m.height < minHeight)
}

// tooSmallNote fills the terminal with a note that it is too small.
func (m *workbench) tooSmallNote() string {
	lines := append(wrap(fmt.Sprintf("terminal too small (need %d×%d)", minWidth, minHeight), m.width),
		wrap(fmt.Sprintf("this one is %d×%d · q quits", m.width, m.height), m.width)...)
	// A question q asked must show, or a second q drops unsaved work
	// the user never saw named.
	if m.status != "" {
		lines = append(append(lines, ""), wrap(m.status, m.width)...)
	}
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

// attackHonest is H for a search started now: the Inspector's (the run
// on screen, or the one marked H), Compare's or the editor's.
func (m *workbench) attackHonest() choice {
	switch m.page {
	case pageInspect:
		return m.inspect.honest()
	case pageCompare:
		return m.compare.h
	case pageEditor:
		return m.editor.h
	}
	return choice{}
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
	k.TaskInfo.SetEnabled(m.demo == nil && m.infoTask() != nil)
	k.Refresh.SetEnabled(m.demo == nil && m.page == pageBrowse)
}

func (m *workbench) crumbs() string {
	parts := []string{pageNames[m.page]}
	if m.demo != nil {
		parts = []string{"demo", m.demo.title()}
	}
	// A long task id (tau2 telecom's names a whole scenario) gives way,
	// from its middle, to what follows it, keeping 16 cells.
	withID := func(id, rest string) {
		room := m.width - ansi.StringWidth(" parthack · "+strings.Join(parts, " › ")+" › "+rest)
		parts = append(parts, shortenMiddle(id, max(room, 16))+rest)
	}
	switch m.page {
	case pageInspect:
		if m.inspect.task == nil {
			break
		}
		if len(m.inspect.choices) == 0 {
			withID(m.inspect.task.ID, "")
			break
		}
		// The trajectory on screen and the benchmark's own reward of it,
		// where the log's title has no room for them.
		label, h, note, short := m.inspect.current().label, m.inspect.honest(), "", ""
		if a := m.inspect.a; a != nil {
			note, short = a.rewardNote(), a.rewardNoteShort()
		}
		mark, vs := " (H)", ""
		if h.traj != m.inspect.current().traj {
			mark, vs = "", " · vs H "
		}
		id := shortenMiddle(m.inspect.task.ID, max(m.width-ansi.StringWidth(" parthack · "+strings.Join(parts, " › ")+" ›  · "+label+mark+short+vs+h.label), 16))
		// Long run names give way, from their middle, to the reward:
		// the run on screen first, then H's, each keeps 12 cells;
		// where even that does not fit the reward drops its
		// benchmark's name.
		head := " parthack · " + strings.Join(parts, " › ") + " › " + id + " · " + mark + vs
		need := 12
		if vs != "" {
			need += min(ansi.StringWidth(h.label), 12)
		}
		if m.width-ansi.StringWidth(head+note) < need {
			note = short
		}
		room := m.width - ansi.StringWidth(head+note)
		hl := ""
		if vs != "" {
			label = shortenMiddle(label, max(room-ansi.StringWidth(h.label), room/2, 12))
			hl = shortenMiddle(h.label, max(room-ansi.StringWidth(label), 12))
		}
		parts = append(parts, id+" · "+shortenMiddle(label, max(room, 12))+mark+note+vs+hl)
	case pageCompare:
		if m.compare.task != nil {
			withID(m.compare.task.ID, " · H "+m.compare.h.label)
		}
	case pageEditor:
		if m.editor.task != nil {
			withID(m.editor.task.ID, " · H "+m.editor.h.label)
		}
	}
	return "· " + strings.Join(parts, " › ")
}
