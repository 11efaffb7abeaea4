package tui

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/parthack/parthack/domains"
	"github.com/parthack/parthack/store"
)

// browser lists the suite's tasks (type to filter) and the saved
// witnesses, runs and notes.
type browser struct {
	c             *common
	width, height int

	filter  textinput.Model
	visible []int // indexes of tasks matching the filter
	cursor  int
	top     int

	records []store.Record // those of the tasks open here
	// elsewhere counts the records of tasks not open here, by where
	// they are (a domain's name, or the suite and task files): the list
	// is scoped to the open tasks.
	elsewhere map[string]int
	recErr    error
	rfilter   textinput.Model
	shown     []int // indexes of records matching rfilter
	sums      map[recordID]recordSummary
	steps     map[recordID]int // each witness's agent steps, from the summaries
	recGen    int              // the listing of records shown, for its summaries
	rcursor   int              // into shown
	rtop      int
	focus     int // focusTasks or focusRecords
	// filtering is set while the focused pane's filter takes the keys:
	// `/` starts it, enter and esc end it.
	filtering bool

	importing *prompt
}

const (
	focusTasks = iota
	focusRecords
)

func newBrowser(c *common) *browser {
	b := &browser{c: c, filter: newInput(""), rfilter: newInput("")}
	b.filter.Placeholder = "/ filters tasks"
	b.rfilter.Placeholder = "/ filters saved work"
	b.refilter()
	return b
}

// refilterRecords lists the records matching the saved-work filter:
// every word in the kind, task, name, note or verdict.
func (b *browser) refilterRecords() {
	q := strings.Fields(strings.ToLower(b.rfilter.Value()))
	b.shown = b.shown[:0]
	for i, r := range b.records {
		sum := b.sums[idOf(r)]
		hay := strings.ToLower(strings.Join([]string{string(r.Kind), r.Task, r.Name, r.Note, sum.verdict}, " "))
		ok := true
		for _, w := range q {
			ok = ok && strings.Contains(hay, w)
		}
		if ok {
			b.shown = append(b.shown, i)
		}
	}
	b.rcursor = clamp(b.rcursor, 0, max(len(b.shown)-1, 0))
}

// record is the saved record under the cursor.
func (b *browser) record() (store.Record, bool) {
	if len(b.shown) == 0 {
		return store.Record{}, false
	}
	return b.records[b.shown[b.rcursor]], true
}

func (b *browser) SetSize(w, h int) { b.width, b.height = w, h }

// Loading is false: Browse shows the tasks at once, and the saved list
// fills in as it comes.
func (b *browser) Loading() bool { return false }

// Typing is true while the import prompt is open or a filter takes the
// keys (after `/`): q typed there is a letter of the filter.
func (b *browser) Typing() bool { return b.importing != nil || b.filtering }

// input is the filter of the focused pane.
func (b *browser) input() *textinput.Model {
	if b.focus == focusRecords {
		return &b.rfilter
	}
	return &b.filter
}

// filterKey handles a key while a filter takes the keys: arrows move,
// enter opens what is under the cursor, esc clears the filter, tab
// leaves it for the other pane.
func (b *browser) filterKey(msg tea.KeyMsg) (*browser, tea.Cmd) {
	k := b.c.keys
	in := b.input()
	switch {
	case msg.Type == tea.KeyUp:
		b.move(-1)
	case msg.Type == tea.KeyDown:
		b.move(1)
	case key.Matches(msg, k.Cancel):
		b.stopFilter()
		in.SetValue("")
		b.refilter()
		b.refilterRecords()
	case key.Matches(msg, k.Open):
		b.stopFilter()
		return b, b.open()
	case key.Matches(msg, k.Tab):
		b.stopFilter()
		b.focus = 1 - b.focus
	default:
		before := in.Value()
		var cmd tea.Cmd
		*in, cmd = in.Update(msg)
		if in.Value() != before {
			if b.focus == focusRecords {
				b.rcursor = 0
				b.refilterRecords()
			} else {
				b.refilter()
			}
		}
		return b, cmd
	}
	return b, nil
}

func (b *browser) stopFilter() {
	b.filtering = false
	b.filter.Blur()
	b.rfilter.Blur()
}

func (b *browser) refilter() {
	q := strings.Fields(strings.ToLower(b.filter.Value()))
	b.visible = b.visible[:0]
	for i, t := range b.c.ws.tasks {
		hay := strings.ToLower(strings.Join(append(append([]string{t.ID, t.Title, t.Family, t.Domain, t.Split, t.Honest.String()}, t.Tags...), t.Models...), " "))
		ok := true
		for _, w := range q {
			ok = ok && strings.Contains(hay, w)
		}
		if ok {
			b.visible = append(b.visible, i)
		}
	}
	b.cursor = clamp(b.cursor, 0, max(len(b.visible)-1, 0))
}

// showTask clears the task filter and puts the cursor on task id.
func (b *browser) showTask(id string) {
	b.filter.SetValue("")
	b.refilter()
	for i, k := range b.visible {
		if b.c.ws.tasks[k].ID == id {
			b.cursor = i
		}
	}
}

// selected is the task under the cursor, or nil.
func (b *browser) selected() *suiteTask {
	if len(b.visible) == 0 {
		return nil
	}
	return b.c.ws.tasks[b.visible[b.cursor]]
}

func (b *browser) update(msg tea.Msg) (*browser, tea.Cmd) {
	switch msg := msg.(type) {
	case recordsMsg:
		b.records, b.elsewhere, b.recErr = nil, map[string]int{}, msg.err
		for _, r := range msg.recs {
			switch d, ok := domains.Owner(r.Task); {
			case r.Task == "" || b.c.ws.task(r.Task) != nil:
				b.records = append(b.records, r)
			case ok:
				b.elsewhere["--domain "+d.Name()]++
			default:
				b.elsewhere["the suite or a task file"]++
			}
		}
		// Summaries of an earlier listing stop coming; this one's come a
		// batch at a time.
		b.recGen++
		b.sums, b.steps = map[recordID]recordSummary{}, map[recordID]int{}
		b.refilterRecords()
		if msg.err == nil {
			return b, summarizeCmd(b.c.ws, b.c.dbPath, b.records, b.recGen)
		}
	case summariesMsg:
		if msg.gen != b.recGen {
			return b, nil
		}
		maps.Copy(b.sums, msg.sums)
		maps.Copy(b.steps, msg.steps)
		if b.rfilter.Value() != "" {
			b.refilterRecords() // a verdict may match the filter now
		}
		return b, msg.more
	case tea.MouseMsg:
		b.mouse(msg)
	case tea.KeyMsg:
		return b.key(msg)
	}
	return b, nil
}

func (b *browser) key(msg tea.KeyMsg) (*browser, tea.Cmd) {
	k := b.c.keys
	if b.importing != nil {
		done, cancel, cmd := b.importing.update(msg)
		switch {
		case cancel:
			b.importing = nil
		case done:
			path := strings.TrimSpace(b.importing.value(0))
			b.importing = nil
			return b, importCmd(path)
		}
		return b, cmd
	}
	if b.filtering {
		return b.filterKey(msg)
	}
	switch {
	case key.Matches(msg, k.ListUp):
		b.move(-1)
	case key.Matches(msg, k.ListDown):
		b.move(1)
	case msg.Type == tea.KeyPgUp:
		b.move(-b.rows())
	case msg.Type == tea.KeyPgDown:
		b.move(b.rows())
	case key.Matches(msg, k.Tab):
		b.focus = 1 - b.focus
	case key.Matches(msg, k.Filter):
		b.filtering = true
		return b, b.input().Focus()
	case key.Matches(msg, k.Import):
		b.importing = newPrompt(b.c, "Import a witness (the JSON `parthack certify` reads) or open a task file of your own", field{"file", ""})
	case key.Matches(msg, k.Open):
		return b, b.open()
	case key.Matches(msg, k.ClearFilter):
		if b.focus == focusRecords && b.rfilter.Value() != "" {
			b.rfilter.SetValue("")
			b.refilterRecords()
		} else if b.filter.Value() != "" {
			b.filter.SetValue("")
			b.refilter()
		}
	}
	return b, nil
}

// mouse focuses the pane under the pointer: a click selects the row
// there, the wheel moves that pane's cursor.
func (b *browser) mouse(msg tea.MouseMsg) {
	if msg.Action != tea.MouseActionPress {
		return
	}
	leftW, infoH := b.panes()
	focus := focusTasks
	if msg.X >= leftW {
		if msg.Y < infoH {
			return // the task's or record's detail
		}
		focus = focusRecords
	}
	if focus != b.focus {
		b.focus = focus
		b.stopFilter()
	}
	switch msg.Button {
	case tea.MouseButtonWheelUp:
		b.move(-1)
	case tea.MouseButtonWheelDown:
		b.move(1)
	case tea.MouseButtonLeft:
		if focus == focusTasks {
			if row := b.top + msg.Y - 3; msg.Y >= 3 && row < len(b.visible) {
				b.cursor = row
			}
			return
		}
		first := infoH + 1
		if b.rfilter.Value() != "" || b.focus == focusRecords {
			first++ // the filter line
		}
		if row := b.rtop + msg.Y - first; msg.Y >= first && row < len(b.shown) {
			b.rcursor = row
		}
	}
}

// panes is where View splits the page: the tasks' width, and the height
// of the detail box above the saved work.
func (b *browser) panes() (leftW, infoH int) {
	h := b.height
	if b.importing != nil {
		h -= b.importing.height()
	}
	// The rest for the task and the saved work; long task ids (tau2
	// telecom's name a whole scenario) take up to three fifths.
	most := 80
	if b.idW() > 8 {
		most = max(80, b.width*3/5)
	}
	leftW = clamp(b.width/2, 44, most)
	if b.width-leftW < 28 {
		leftW = b.width - 28
	}
	return leftW, min(max(h/2, 6), h-4)
}

func (b *browser) move(d int) {
	if b.focus == focusRecords {
		b.rcursor = clamp(b.rcursor+d, 0, max(len(b.shown)-1, 0))
		return
	}
	b.cursor = clamp(b.cursor+d, 0, max(len(b.visible)-1, 0))
}

// open opens the task, or the record, under the cursor.
func (b *browser) open() tea.Cmd {
	if b.focus == focusTasks {
		t := b.selected()
		if t == nil {
			return nil
		}
		return b.c.navigate(openTaskMsg{task: t, traj: t.HonestTraj, label: "honest"})
	}
	r, ok := b.record()
	if !ok {
		return nil
	}
	// The list holds the open tasks' records, and those of no task.
	t := b.c.ws.task(r.Task)
	if t == nil {
		return status(fmt.Sprintf("%s %q is of no task: parthack store show %s:%d shows it", r.Kind, r.Name, r.Kind, r.Key), true)
	}
	if r.Kind == store.KindWitness || r.Kind == store.KindRun {
		// The list holds records without their bodies.
		var err error
		if r, err = fetchRecord(b.c.dbPath, r); err != nil {
			return status(err.Error(), true)
		}
	}
	switch r.Kind {
	case store.KindWitness:
		tr, err := DecodeWitness(r)
		if err != nil {
			return status(err.Error(), true)
		}
		h, note := t.witnessOf(tr)
		if note != "" {
			return tea.Batch(b.c.navigate(openEditorMsg{task: t, start: tr, rec: r, h: h}), status(note, true))
		}
		return b.c.navigate(openEditorMsg{task: t, start: tr, rec: r, h: h})
	case store.KindRun:
		kind, h, a, err := DecodeRun(r)
		if err != nil {
			return status(err.Error(), true)
		}
		return b.c.navigate(openCompareMsg{task: t, kind: kind, h: h, a: a, rec: r})
	}
	// A note opens at the event it was written on.
	if label, at, ok := noteTarget(r); ok {
		for _, ch := range t.stored() {
			if ch.label == label {
				return b.c.navigate(openTaskMsg{task: t, traj: ch.traj, label: ch.label, cursor: at})
			}
		}
	}
	return b.c.navigate(openTaskMsg{task: t, traj: t.HonestTraj, label: "honest"})
}

// noteTarget reads where a note was written from its name, which the
// Inspector makes "<task> <trajectory> after event <k>".
func noteTarget(r store.Record) (label string, at int, ok bool) {
	rest, found := strings.CutPrefix(r.Name, r.Task+" ")
	if !found {
		return "", 0, false
	}
	i := strings.LastIndex(rest, " after event ")
	if i < 0 {
		return "", 0, false
	}
	at, err := strconv.Atoi(rest[i+len(" after event "):])
	if err != nil {
		return "", 0, false
	}
	return rest[:i], at, true
}

func (b *browser) rows() int { return max(b.height-4, 1) }

func (b *browser) View() string {
	st := b.c.st
	promptH := 0
	if b.importing != nil {
		promptH = b.importing.height()
	}
	h := b.height - promptH
	leftW, infoH := b.panes()
	rightW := b.width - leftW

	// Tasks.
	filterLine := st.accent.Render("filter ") + inputView(b.filter)
	rows := max(h-4, 1)
	b.top = listWindow(b.top, b.cursor, len(b.visible), rows)
	c := b.columns(leftW - 2)
	head := fit(" ID", c.id) + cell(b.familyHeader(), c.family) + fit("m", c.m) + fit("H", c.h)
	if c.tags > 0 {
		head += "tags"
	}
	lines := []string{filterLine, st.muted.Render(head)}
	for i := b.top; i < min(b.top+rows, len(b.visible)); i++ {
		t := b.c.ws.tasks[b.visible[i]]
		// Ids differ anywhere (telecom's end in their persona): a long
		// one gives way from its middle.
		row := fit(" "+shortenMiddle(t.ID, c.id-2), c.id) + cell(taskFamily(t), c.family) + fit(fmt.Sprint(t.M), c.m) + fit(t.Honest.String(), c.h) + strings.Join(t.Tags, " ")
		if i == b.cursor {
			mark := st.cursor
			if b.focus != focusTasks {
				mark = st.bold
			}
			row = mark.Render(fit("▸"+row[1:], leftW-2))
		}
		lines = append(lines, row)
	}
	if len(b.visible) == 0 {
		lines = append(lines, st.faint.Render(" no task matches"))
	}
	title := fmt.Sprintf("Tasks · %d of %d", len(b.visible), len(b.c.ws.tasks))
	left := b.c.box(title, lines, leftW, h, b.focus == focusTasks)

	// The selected task, then the saved records.
	info := b.info(rightW - 2)
	// Cut text says where it is whole.
	if rows := infoH - 2; len(info) > rows && rows > 0 && b.focus == focusTasks {
		info = append(info[:rows-1], b.c.st.faint.Render("… I shows the task in full"))
	}
	right := b.c.box(b.infoTitle(), info, rightW, infoH, false) + "\n" + b.recordsView(rightW, h-infoH)
	out := joinColumns(left, right)
	if b.importing != nil {
		out += "\n" + b.importing.view(b.width)
	}
	return out
}

// taskFamily is what the family column lists: a benchmark's task's
// models, else its family.
func taskFamily(t *suiteTask) string {
	if len(t.Models) > 0 {
		return strings.Join(t.Models, " ")
	}
	return t.Family
}

// familyHeader heads the family column. A benchmark's tasks all share a
// family: they are listed by the models whose runs they hold instead.
func (b *browser) familyHeader() string {
	for _, t := range b.c.ws.tasks {
		if len(t.Models) > 0 {
			return "runs' models"
		}
	}
	return "family"
}

// cell is s in a column w cells wide, cut so that a gap stays before the
// next column.
func cell(s string, w int) string {
	if ansi.StringWidth(s) >= w {
		s = ansi.Truncate(s, w-1, "…")
	}
	return fit(s, w)
}

// idW is the widest task id plus its lead and a gap, at least 9.
func (b *browser) idW() int {
	w := 0
	for _, t := range b.c.ws.tasks {
		w = max(w, ansi.StringWidth(t.ID))
	}
	return max(w+2, 9)
}

// taskColumns are the widths of Browse's task columns: the id, the
// family (a benchmark's task's models), m, H and the tags, none where no
// task has a tag (most benchmarks' tasks).
type taskColumns struct{ id, family, m, h, tags int }

// columns share a row of width cells among the task columns by need,
// over all the open tasks so that filtering moves no column. The id
// names the task: it takes the room it needs first (BFCL's
// multi_turn_base_10 cut to "mul…_10" reads as any entry of any
// category), leaving m and H whole and 14 cells to the family and the
// tags (the header "runs' models" whole). The family or models take the
// room they need, up to 24 cells where the tags need the rest, all the
// tags leave otherwise (BFCL's models, where no task has a tag); the
// tags the rest.
func (b *browser) columns(width int) taskColumns {
	c := taskColumns{m: 3, h: 5}
	famNeed, tagsNeed := max(8, ansi.StringWidth(b.familyHeader())+1), 0
	for _, t := range b.c.ws.tasks {
		famNeed = max(famNeed, ansi.StringWidth(taskFamily(t))+1)
		c.m = max(c.m, ansi.StringWidth(fmt.Sprint(t.M))+1)
		c.h = max(c.h, ansi.StringWidth(t.Honest.String())+1)
		tagsNeed = max(tagsNeed, ansi.StringWidth(strings.Join(t.Tags, " ")))
	}
	c.id = clamp(width-c.m-c.h-14, 9, b.idW())
	rest := width - c.id - c.m - c.h
	c.family = clamp(min(max(min(famNeed, 24), rest-tagsNeed), rest), 8, famNeed)
	if tagsNeed > 0 {
		c.tags = max(rest-c.family, 0)
	}
	return c
}

func (b *browser) infoTitle() string {
	if r, ok := b.record(); ok && b.focus == focusRecords {
		return fmt.Sprintf("%s %d", r.Kind, r.Key)
	}
	if t := b.selected(); t != nil {
		return t.ID
	}
	return "Task"
}

func (b *browser) info(w int) []string {
	st := b.c.st
	var out []string
	if r, ok := b.record(); ok && b.focus == focusRecords {
		head := fmt.Sprintf("task %s · saved #%d", orNone(r.Task), r.Created)
		sum, ok := b.sums[idOf(r)]
		if ok && sum.h != "" {
			head += " · vs H " + sum.h
		}
		out = append(out, st.bold.Render(r.Name), st.muted.Render(head))
		if ok && sum.verdict != "" {
			line := sum.verdict
			if sum.hasDelta {
				line += fmt.Sprintf(" · Δ %s %+.2f", sum.deltaOf, sum.delta)
			}
			sty := st.bad
			if sum.eligible {
				sty = st.ok
			}
			out = append(out, sty.Render(line))
		}
		if n, ok := b.steps[idOf(r)]; ok {
			out = append(out, st.muted.Render(fmt.Sprintf("%d agent step%s · enter opens the editor", n, plural(n))))
		}
		for _, l := range wrap(r.Note, w) {
			out = append(out, l)
		}
		return out
	}
	t := b.selected()
	if t == nil {
		return nil
	}
	out = append(out, st.bold.Render(t.Title), st.muted.Render(fmt.Sprintf("%s · split %s · rollback %s", kinship(t), t.Split, t.RollbackMetric)))
	if len(t.Rewards) > 0 {
		var rs []string
		for _, ch := range t.Runs {
			if r, ok := t.Rewards[ch.label]; ok {
				rs = append(rs, fmt.Sprintf("%s %g", ch.label, r))
			}
		}
		out = append(out, wrap(st.muted.Render(t.Bench+" "+rewardWord(t)+": "+strings.Join(rs, " · ")), w)...)
	}
	if t.Public != nil {
		out = append(out, instructionLines(t.Public.Instruction, w)...)
	}
	return out
}

func (b *browser) recordsView(w, h int) string {
	st := b.c.st
	rows := max(h-2, 1)
	var lines []string
	switch {
	case b.recErr != nil:
		lines = wrap(st.statusErr.Render(storeError(b.recErr, "the list reloads when you come back to Browse")), w-2)
	case len(b.records) == 0 && len(b.elsewhere) > 0:
		lines = wrap(st.faint.Render(" nothing saved for these tasks; "+b.elsewhereNote()), w-2)
	case len(b.records) == 0:
		lines = []string{st.faint.Render(" nothing saved yet"), st.faint.Render(" (save from the witness editor)")}
	default:
		if b.focus == focusRecords || b.rfilter.Value() != "" {
			lines = append(lines, st.accent.Render("filter ")+inputView(b.rfilter))
			rows--
		}
		if len(b.shown) == 0 {
			lines = append(lines, st.faint.Render(" nothing saved matches"))
		}
		note := wrap(st.faint.Render(" "+b.elsewhereNote()), w-2)
		rows -= len(note) // the last lines count what is not shown
		b.rtop = listWindow(b.rtop, b.rcursor, len(b.shown), max(rows, 1))
		for i := b.rtop; i < min(b.rtop+max(rows, 1), len(b.shown)); i++ {
			r := b.records[b.shown[i]]
			sum := b.sums[idOf(r)]
			verdict, delta := sum.short, ""
			if sum.hasDelta {
				delta = fmt.Sprintf("%+.2f", sum.delta)
				if t := b.c.ws.task(r.Task); t != nil && w >= 50 {
					delta += " " + abbreviate(benchShort(t.Bench, sum.deltaOf))
				}
			}
			// The name gives way; the verdict and Δ (and, where there is
			// room, whose Δ) keep the right edge. A narrow pane drops the
			// kind (the pane above says it) and keeps only the verdict's
			// sign and the Δ.
			// A long task id gives way, from its middle, to the name.
			name := strings.TrimPrefix(r.Name, r.Task+" ")
			task := shortenMiddle(r.Task, 14)
			left := fmt.Sprintf(" %-7s %-6s %s", r.Kind, task, name)
			right := ""
			if w < 50 {
				left = fmt.Sprintf(" %-6s %s", shortenMiddle(r.Task, 8), name)
				verdict, _, _ = strings.Cut(verdict, " ")
			}
			if verdict != "" {
				right = fmt.Sprintf(" %s %5s", verdict, delta)
			}
			row := fit(left, max(w-2-ansi.StringWidth(right), 0)) + right
			if i == b.rcursor && b.focus == focusRecords {
				row = st.cursor.Render(fit("▸"+row[len(" "):], w-2))
			}
			lines = append(lines, row)
		}
		for len(note) > 0 && len(lines) < h-2-len(note) {
			lines = append(lines, "") // the note at the bottom of the box
		}
		lines = append(lines, note...)
	}
	title := fmt.Sprintf("Saved · %d", len(b.records))
	if len(b.shown) != len(b.records) {
		title = fmt.Sprintf("Saved · %d of %d", len(b.shown), len(b.records))
	}
	return b.c.box(title, lines, w, h, b.focus == focusRecords)
}

// elsewhereNote counts the records of tasks not open here, by where
// they open: "+ 3 saved for tasks not open here (--domain tau2-retail 2,
// the suite or a task file 1)"; "" when there are none.
func (b *browser) elsewhereNote() string {
	if len(b.elsewhere) == 0 {
		return ""
	}
	n, where := 0, slices.Sorted(maps.Keys(b.elsewhere))
	for i, w := range where {
		n += b.elsewhere[w]
		where[i] = fmt.Sprintf("%s %d", w, b.elsewhere[w])
	}
	return fmt.Sprintf("+ %d saved for tasks not open here (%s)", n, strings.Join(where, ", "))
}

// kinship names a task's family and its domain; a benchmark's task has
// no domain apart from its family (its benchmark is its split), so the
// family is named once.
func kinship(t *suiteTask) string {
	if t.Domain == "" {
		return t.Family
	}
	return t.Family + " · " + t.Domain
}

func orNone(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func (b *browser) ShortHelp() []key.Binding {
	k := b.c.keys
	if b.importing != nil {
		return b.importing.keys()
	}
	// Both panes move with the arrows only: letters filter them.
	if b.filtering {
		return []key.Binding{k.Open, k.ListUp, k.ListDown, k.Cancel}
	}
	out := []key.Binding{k.AttackCancel, k.Open, k.Filter, k.Tab, k.ListUp, k.ListDown}
	if (b.focus == focusTasks && b.filter.Value() != "") || (b.focus == focusRecords && b.rfilter.Value() != "") {
		out = append(out, k.ClearFilter)
	}
	if b.focus == focusRecords {
		out = append(out, k.DeleteRecord)
	}
	out = append(out, k.Import)
	if !b.Typing() {
		out = append(out, k.Quit)
	}
	return append(out, k.Help)
}

func (b *browser) FullHelp() [][]key.Binding {
	k := b.c.keys
	if b.importing != nil {
		return [][]key.Binding{b.importing.keys()}
	}
	return [][]key.Binding{{k.Open, k.ListUp, k.ListDown, k.Tab, k.Filter}, {k.ClearFilter, k.Import, k.DeleteRecord, k.Refresh}, {k.AttackCancel, k.Quit, k.ForceQuit, k.Help}}
}
