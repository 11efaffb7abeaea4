package tui

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
	"github.com/parthack/parthack/store"
)

// comparer puts H beside a candidate (A, or R for a rollback): both logs
// aligned step by step, both vector sets, the verdict with its evidence
// highlighted in both logs, and every evaluator's score with Δ.
type comparer struct {
	c             *common
	width, height int

	task *suiteTask
	kind string
	h    choice // H, named as the candidate is
	p    *pair  // nil while loading
	gen  int
	err  error

	cursor, top int  // rows of the alignment
	hEv, aEv    int  // evidence events, -1 when none
	stateDiff   bool // the bottom pane shows where the states differ
	// unsaved marks the search attacker's witness, not saved anywhere
	// yet: saving it as a run or editing it keeps it.
	unsaved bool
	// prompt asks the name and note a run is saved under; rec is the
	// run saved (or reopened) here, which the next save replaces.
	prompt *prompt
	rec    store.Record
}

func newComparer(c *common) *comparer { return &comparer{c: c} }

func (m *comparer) open(msg openCompareMsg) tea.Cmd {
	m.task, m.kind, m.p, m.err, m.unsaved = msg.task, msg.kind, nil, nil, msg.unsaved
	m.prompt, m.rec = nil, msg.rec
	m.h = choice{orDefault(msg.hLabel, "honest"), msg.h}
	m.gen++
	return pairCmd(m.c.ws, msg.task, msg.kind, m.h, msg.a, msg.aLabel, m.gen)
}

// orDefault is s, or def when s is empty.
func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// show puts a certified pair on screen with the cursor on its evidence.
func (m *comparer) show(p *pair) {
	m.p, m.err = p, nil
	m.task, m.kind, m.h = p.h.task, p.kind, choice{p.h.label, p.h.traj}
	m.hEv, m.aEv = p.evidenceRows()
	m.cursor, m.top = 0, 0
	m.jumpToEvidence()
}

func (m *comparer) SetSize(w, h int) { m.width, m.height = w, h }
func (m *comparer) Typing() bool     { return m.prompt != nil }

// saved records that the pair now lives in the store under r: the next
// save replaces it.
func (m *comparer) saved(r store.Record) {
	if r.Kind == store.KindRun && m.task != nil && r.Task == m.task.ID {
		m.rec, m.unsaved = r, false
	}
}

// savePrompt asks the name and note to save the pair under as a run.
func (m *comparer) savePrompt() {
	title, name, note := "Save as a run", m.rec.Name, m.rec.Note
	if m.rec.Key != 0 {
		title = fmt.Sprintf("Save as a run (replaces saved run %d)", m.rec.Key)
	} else {
		name = fmt.Sprintf("%s H %s vs %s", m.kind, m.p.h.label, m.p.a.label)
		note = "eligible"
		if !m.p.verdict.Eligible {
			note = string(m.p.verdict.Reason)
		}
	}
	m.prompt = newPrompt(m.c, title, field{"name", name}, field{"note", note})
}

// promptKey handles a key while the save prompt is open.
func (m *comparer) promptKey(msg tea.KeyMsg) tea.Cmd {
	done, cancel, cmd := m.prompt.update(msg)
	switch {
	case cancel:
		m.prompt = nil
	case done:
		name, note := strings.TrimSpace(m.prompt.value(0)), strings.TrimSpace(m.prompt.value(1))
		m.prompt = nil
		rec, err := pairRun(m.c.ws, m.p)
		if err != nil {
			return status(err.Error(), true)
		}
		rec.Key, rec.Created = m.rec.Key, m.rec.Created
		if name != "" {
			rec.Name = name
		}
		rec.Note = note
		return saveCmd(m.c.dbPath, rec)
	}
	return cmd
}

// Loading reports whether the pair is still being certified.
func (m *comparer) Loading() bool { return m.task != nil && m.p == nil && m.err == nil }

func (m *comparer) update(msg tea.Msg) (*comparer, tea.Cmd) {
	switch msg := msg.(type) {
	case pairMsg:
		if msg.gen != m.gen {
			return m, nil
		}
		if msg.err != nil {
			m.err = msg.err
			return m, nil
		}
		m.show(msg.p)
		return m, nil
	case tea.MouseMsg:
		if msg.Action != tea.MouseActionPress || m.p == nil {
			break
		}
		switch msg.Button {
		case tea.MouseButtonWheelUp:
			m.move(-1)
		case tea.MouseButtonWheelDown:
			m.move(1)
		case tea.MouseButtonLeft:
			// A click on a row of either log puts the cursor on it.
			if i, ok := m.rowAt(msg.Y); ok {
				m.move(i - m.cursor)
			}
		}
	case tea.KeyMsg:
		if m.p == nil {
			return m, nil // the pair failed: only the root's keys act
		}
		if m.prompt != nil {
			return m, m.promptKey(msg)
		}
		k := m.c.keys
		switch {
		case key.Matches(msg, k.StepPrev), key.Matches(msg, k.ScrollUp):
			m.move(-1)
		case key.Matches(msg, k.StepNext), key.Matches(msg, k.ScrollDown):
			m.move(1)
		case key.Matches(msg, k.First):
			m.move(-len(m.p.rows))
		case key.Matches(msg, k.Last):
			m.move(len(m.p.rows))
		case key.Matches(msg, k.PageUp):
			m.move(-m.logRows())
		case key.Matches(msg, k.PageDown):
			m.move(m.logRows())
		case key.Matches(msg, k.Evidence):
			if !m.jumpToEvidence() {
				return m, status("the verdict points at no event", false)
			}
		case key.Matches(msg, k.OpenEvent):
			return m, m.openEvent()
		case key.Matches(msg, k.StateDiff):
			m.stateDiff = !m.stateDiff
		case key.Matches(msg, m.c.checksKey(m.task)):
			o := m.c.checksOverlay(m.width, m.task.ID, m.p.h, m.p.a)
			return m, func() tea.Msg { return overlayMsg{o} }
		case key.Matches(msg, k.Collateral) && m.p.collateral != nil:
			return m, func() tea.Msg { return overlayMsg{m.collateralOverlay()} }
		case key.Matches(msg, k.EditWitness):
			return m, m.c.navigate(openEditorMsg{task: m.task, start: m.p.a.traj, kind: m.kind, unsaved: m.unsaved, h: m.h})
		case key.Matches(msg, k.Save):
			m.savePrompt()
		}
	}
	return m, nil
}

// rowAt is the log row drawn on line y of the page, if any: the logs
// follow the verdict, each in a box whose first line is its frame.
func (m *comparer) rowAt(y int) (int, bool) {
	l := m.layout()
	top := len(l.verdict) + 1 // the verdict's lines and its title line
	if l.framed {
		top++ // its frame's bottom line
	}
	top++ // the log box's top frame
	i := m.top + y - top
	if y < top || y >= top+m.logRows() || i >= len(m.p.rows) {
		return 0, false
	}
	return i, true
}

func (m *comparer) move(d int) {
	if m.p == nil {
		return
	}
	m.cursor = clamp(m.cursor+d, 0, max(len(m.p.rows)-1, 0))
	m.top = listWindow(m.top, m.cursor, len(m.p.rows), m.logRows())
}

// jumpToEvidence moves the cursor to the row of the evidence event.
func (m *comparer) jumpToEvidence() bool {
	for i, r := range m.p.rows {
		if (m.aEv >= 0 && r.a == m.aEv) || (m.aEv < 0 && m.hEv >= 0 && r.h == m.hEv) {
			m.move(i - m.cursor)
			return true
		}
	}
	return false
}

// compareLayout is how Compare spends its height: the verdict on top,
// the two logs, then vectors and scores (side by side on wide screens).
type compareLayout struct {
	framed          bool     // the verdict has a frame (tall screens) or a title line
	title           string   // that title line: the verdict's first line joins it where it fits
	verdict         []string // the verdict's lines, evidence included
	logH            int
	vectors, scores []string
	side            bool   // vectors beside scores
	bottomTitle     string // the box's; on a short screen it carries the caveat
	bottomH         int
}

// layout fits Compare into its height. The title, the verdict with its
// evidence and detail, and the "not eligible" caveat always show; on
// short screens the logs shrink to three rows a side, then the scores
// take fewer lines (the benchmark's on one, the evaluators two to a
// line), the verdict loses its frame, and the line under the vectors
// that repeats the verdict's evidence goes.
func (m *comparer) layout() compareLayout {
	height := m.height
	if m.prompt != nil {
		height -= m.prompt.height()
	}
	l := compareLayout{framed: height >= 30, side: m.width >= 110, bottomTitle: "Vectors and scores"}
	inner := m.width
	if l.framed {
		inner = m.width - 2
	}
	head, detail := m.c.verdictParts(m.p, inner)
	// Where A ends beside H shows with the verdict, whatever the height.
	head = append(head, m.collateralLines(inner)...)
	vw := m.width * 9 / 20
	vecW, scoreW := m.width-2, m.width-2
	if l.side {
		vecW, scoreW = vw-2, m.width-vw-2
	}
	l.vectors, l.scores = m.c.vectorLines(m.p, vecW), m.c.scoreLines(m.p, scoreW, false)
	compact := !m.p.h.breakdown()
	vecExtra := m.p.verdict.Evidence != nil && m.p.verdict.Evidence.Predicate > 0
	vecExtraN := 0
	if vecExtra {
		vecExtraN = len(m.c.evidenceLines(m.p, vecW))
	}
	// The scores take fewer lines until the logs have five rows a side;
	// the logs keep three before anything the verdict or the scores say
	// is cut: below that the page is clipped, never the verdict.
	const wantLog, minLog = 7, 5
	// Unframed, the verdict's first line ("✗ rejected: …") joins the
	// title line where both fit.
	title := m.verdictTitle()
	joins := len(head) > 0 && ansi.StringWidth(title)+3+ansi.StringWidth(head[0]) <= m.width
	done := func() compareLayout {
		l.title, l.verdict = title, append(slices.Clone(head), detail...)
		if !l.framed && joins {
			l.title, l.verdict = title+" · "+head[0], append(slices.Clone(head[1:]), detail...)
		}
		// Where the states differ, asked for with d, takes the scores'
		// place and the room it needs, the logs keeping the cursor's
		// row: its values go whole.
		if m.stateDiff {
			need := len(m.stateDiffLines(m.width-2)) + 2
			grow := clamp(need-l.bottomH, 0, max(l.logH-3, 0))
			l.bottomH, l.logH = l.bottomH+grow, l.logH-grow
		}
		return l
	}
	fit := func() int {
		vh := len(head) + len(detail) + 1 // frame edges, or the title line
		if l.framed {
			vh++
		} else if joins {
			vh--
		}
		bh := len(l.scores) + len(l.vectors) + 2
		if l.side {
			bh = max(len(l.scores), len(l.vectors)) + 2
		}
		l.bottomH = bh
		return height - vh - bh
	}
	grid := false
	for fit() < wantLog {
		switch {
		case !compact:
			// The benchmark's rows share lines before anything is cut.
			l.scores, compact = m.c.scoreLines(m.p, scoreW, true), true
		case !grid && !l.side:
			// Then the evaluators two to a line, the caveat in the
			// box's title.
			l.scores, grid = m.c.scoreGrid(m.p, scoreW), true
			if !m.p.verdict.Eligible && ansi.StringWidth(l.bottomTitle+" · "+notEligibleCaveat) <= m.width-6 {
				l.bottomTitle += " · " + notEligibleCaveat
			} else if !m.p.verdict.Eligible {
				l.scores = append(l.scores, caveatLines(scoreW)...)
			}
		case l.framed:
			l.framed = false
		case vecExtra:
			// The line under the vectors repeats the verdict's evidence.
			l.vectors, vecExtra = l.vectors[:len(l.vectors)-vecExtraN], false
		default:
			l.logH = max(fit(), minLog)
			return done()
		}
	}
	l.logH = fit()
	return done()
}

func (m *comparer) logRows() int {
	return max(m.layout().logH-2, 1)
}

func (m *comparer) View() string {
	if m.p == nil {
		msg := "certifying the pair …"
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
	l := m.layout()
	var out string
	if l.framed {
		out = m.c.box(m.verdictTitle(), l.verdict, m.width, len(l.verdict)+2, false)
	} else {
		lines := append([]string{m.c.st.title.Render(l.title)}, l.verdict...)
		out = padLines(lines, m.width, len(lines))
	}
	half := m.width / 2
	out += "\n" + joinColumns(m.logView(true, half, l.logH), m.logView(false, m.width-half, l.logH))
	if m.stateDiff {
		out += "\n" + m.c.box("State: H vs "+candName(m.kind)+" · d hides", m.stateDiffLines(m.width-2), m.width, l.bottomH, false)
	} else if l.side {
		vw := m.width * 9 / 20
		out += "\n" + joinColumns(
			m.c.box("Certified vectors", l.vectors, vw, l.bottomH, false),
			m.c.box("Evaluator scores", l.scores, m.width-vw, l.bottomH, false))
	} else {
		out += "\n" + m.c.box(l.bottomTitle, append(slices.Clone(l.vectors), l.scores...), m.width, l.bottomH, false)
	}
	if m.prompt != nil {
		out += "\n" + m.prompt.view(m.width)
	}
	return out
}

func (m *comparer) verdictTitle() string {
	name := map[string]string{"pair": "Pair (H, A)", "rollback": "Strict rollback (H, R)"}[m.kind]
	return fmt.Sprintf("%s · %s · %s", name, m.task.ID, m.p.a.label)
}

// verdictLines states the verdict: eligible, or the reason and where.
func (c *common) verdictLines(p *pair, width int) []string {
	head, detail := c.verdictParts(p, width)
	return append(head, detail...)
}

// verdictParts is the verdict in two parts: the head (eligible, or the
// reason with its evidence — event, predicate, component, expected vs
// got — on lines of their own, wrapped, never cut) and the evidence's
// prose detail, which a short screen may leave out.
func (c *common) verdictParts(p *pair, width int) (head, detail []string) {
	st := c.st
	v := p.verdict
	if v.Eligible {
		what := "eligible: same goal version, c_state and c_agent equal component by component — Δhack is measurable"
		if p.kind == "rollback" {
			what = fmt.Sprintf("certified strict rollback: R extends H legally and P_state falls %s → %s", v.Honest.PState, v.Candidate.PState)
		}
		return wrap(st.ok.Render("✓ "+what), width), nil
	}
	head = wrap(st.bad.Render("✗ rejected: "+string(v.Reason)), width)
	if where := evidenceWhere(v.Evidence); where != "" {
		head = append(head, wrap(st.muted.Render("  "+where), width)...)
	}
	// The evidence is the first mismatch: every other one is named too,
	// and where H got the evidence's bit, in words as well as marked.
	if others := otherMismatches(p); others != "" {
		head = append(head, wrap(st.muted.Render("  also "+others), width)...)
	}
	if cause := honestCause(p); cause != "" {
		head = append(head, fit(st.muted.Render("  "+cause), width))
	}
	if v.Evidence != nil && v.Evidence.Detail != "" {
		detail = wrap(v.Evidence.Detail, width)
	}
	return head, detail
}

// openEvent opens the cursor row's event in the Inspector: the
// candidate's, or H's on a row where the candidate has a gap.
func (m *comparer) openEvent() tea.Cmd {
	r := m.p.rows[m.cursor]
	a, seq := m.p.a, r.a
	if seq < 0 {
		a, seq = m.p.h, r.h
	}
	return m.c.navigate(openTaskMsg{task: m.task, traj: a.traj, label: a.label, cursor: seq + 1, h: m.h})
}

// lastEvents are the latest events of H and of the candidate at or
// before alignment row i; -1 means none yet (the initial snapshot).
func (p *pair) lastEvents(i int) (h, a int) {
	h, a = -1, -1
	for _, r := range p.rows[:i+1] {
		h, a = max(h, r.h), max(a, r.a)
	}
	return h, a
}

// stateDiffLines says where the state of H and the candidate's differ
// after the cursor row and at termination.
func (m *comparer) stateDiffLines(width int) []string {
	st := m.c.st
	p := m.p
	cn := candName(p.kind)
	hSeq, aSeq := p.lastEvents(m.cursor)
	var out []string
	section := func(title string, hs, as *pbcste.State) {
		d := diffStates(hs.Entities(), as.Entities(), m.task.cellText)
		if len(d) == 0 {
			out = append(out, st.paneTitle.Render(title)+st.ok.Render(": the same state"))
			return
		}
		out = append(out, st.paneTitle.Render(title)+st.warn.Render(fmt.Sprintf(": %d difference%s", len(d), plural(len(d)))))
		for _, x := range d {
			row := fmt.Sprintf("  %s · %s  H %s  %s %s", x.entity, x.field, x.h, cn, x.a)
			if len([]rune(row)) <= width {
				out = append(out, row)
				continue
			}
			// Values that do not fit go whole on lines of their own.
			out = append(out, fit(fmt.Sprintf("  %s · %s", x.entity, x.field), width))
			out = append(out, wrap(fmt.Sprintf("    H %s", x.h), width)...)
			out = append(out, wrap(fmt.Sprintf("    %s %s", cn, x.a), width)...)
		}
	}
	section(fmt.Sprintf("after row %d (H event %d, %s event %d)", m.cursor+1, hSeq+1, cn, aSeq+1), p.h.log.Snapshot(hSeq), p.a.log.Snapshot(aSeq))
	section("at termination", p.h.log.Snapshot(len(p.h.log.Events)-1), p.a.log.Snapshot(len(p.a.log.Events)-1))
	return out
}

// stateDelta is one field whose value differs between two states.
type stateDelta struct{ entity, field, h, a string }

// diffStates lists the fields that differ between two snapshots, entity
// by entity in h's order then a's, each value as show shows it; a
// missing entity or field is "-".
func diffStates(h, a []pbcste.EntityRecord, show func(model.Value) string) []stateDelta {
	index := func(ents []pbcste.EntityRecord) (map[string]map[string]string, []string) {
		out, order := map[string]map[string]string{}, []string(nil)
		for _, e := range ents {
			name := e.Type + " " + e.ID
			fs := map[string]string{}
			for f, v := range e.Fields {
				fs[f] = fmt.Sprint(v)
				if mv, ok := v.(model.Value); ok {
					fs[f] = show(mv)
				}
			}
			if e.Deleted {
				fs["deleted"] = "true"
			}
			out[name] = fs
			order = append(order, name)
		}
		return out, order
	}
	hi, ho := index(h)
	ai, ao := index(a)
	var out []stateDelta
	seen := map[string]bool{}
	for _, name := range append(ho, ao...) {
		if seen[name] {
			continue
		}
		seen[name] = true
		hf, af := hi[name], ai[name]
		if hf == nil || af == nil {
			hv, av := "exists", "exists"
			if hf == nil {
				hv = "-"
			}
			if af == nil {
				av = "-"
			}
			out = append(out, stateDelta{name, "entity", hv, av})
			continue
		}
		var fields []string
		for f := range hf {
			fields = append(fields, f)
		}
		for f := range af {
			if _, ok := hf[f]; !ok {
				fields = append(fields, f)
			}
		}
		sort.Strings(fields)
		for _, f := range fields {
			hv, ok1 := hf[f]
			av, ok2 := af[f]
			if !ok1 {
				hv = "-"
			}
			if !ok2 {
				av = "-"
			}
			if hv != av {
				out = append(out, stateDelta{name, f, hv, av})
			}
		}
	}
	return out
}

// otherMismatches names, besides the evidence's, each predicate whose
// certified bit differs between H and the candidate, and in which
// component: "predicate 4 (flights-X7BYG1) c_state, predicate 6 (…)
// c_agent"; "" where there is none or the goal versions differ.
func otherMismatches(p *pair) string {
	v := p.verdict
	h, a := v.Honest, v.Candidate
	if h == nil || a == nil || h.GoalVersion != a.GoalVersion || len(h.CState) != len(a.CState) || len(h.CAgent) != len(a.CAgent) {
		return ""
	}
	var out []string
	for j := range h.CState {
		var comps []string
		if h.CState[j] != a.CState[j] {
			comps = append(comps, "c_state")
		}
		if h.CAgent[j] != a.CAgent[j] {
			comps = append(comps, "c_agent")
		}
		if len(comps) == 0 || (v.Evidence != nil && v.Evidence.Predicate == j+1) {
			continue
		}
		id := ""
		if j < len(h.Predicates) {
			id = " (" + h.Predicates[j] + ")"
		}
		out = append(out, fmt.Sprintf("predicate %d%s %s", j+1, id, strings.Join(comps, " and ")))
	}
	if len(out) == 0 {
		return ""
	}
	return "mismatched: " + strings.Join(out, ", ")
}

// honestCause says where H got the bit the evidence names: its latest
// cause, the event and what it did, or that no event touched it.
func honestCause(p *pair) string {
	ev := p.verdict.Evidence
	if ev == nil || ev.Predicate <= 0 || p.verdict.Honest == nil || ev.Predicate > len(p.verdict.Honest.Causes) {
		return ""
	}
	c := p.verdict.Honest.Causes[ev.Predicate-1]
	what := ""
	if c.Seq > 0 && c.Seq <= p.h.events() {
		ev := &p.h.log.Events[c.Seq-1]
		what = ": " + p.h.task.describeStep(ev.Actor(), ev.Action)
	}
	return fmt.Sprintf("H's latest cause of predicate %d: %s%s", ev.Predicate, c, what)
}

// evidenceWhere says which step, event, predicate and component a
// rejection points at.
func evidenceWhere(ev *model.Evidence) string { return strings.Join(ev.Where(), " · ") }

func (m *comparer) logView(honest bool, w, h int) string {
	a, ev, title := m.p.a, m.aEv, "A · "+m.p.a.label
	if m.kind == "rollback" {
		title = "R · " + m.p.a.label
	}
	if honest {
		a, ev, title = m.p.h, m.hEv, "H · "+m.p.h.label
	}
	rows := m.logRows()
	m.top = listWindow(m.top, m.cursor, len(m.p.rows), rows)
	lines := make([]string, 0, rows)
	for i := m.top; i < min(m.top+rows, len(m.p.rows)); i++ {
		r := m.p.rows[i]
		seq := r.a
		if honest {
			seq = r.h
		}
		if seq < 0 {
			gap := "  ·"
			if i == m.cursor {
				lines = append(lines, m.c.st.cursor.Render(fit("▸ ·", w-2)))
			} else {
				lines = append(lines, m.c.st.faint.Render(gap))
			}
			continue
		}
		mark := markNone
		switch {
		case seq == ev:
			mark = markEvidence
		case i == m.cursor:
			mark = markCursor
		}
		lines = append(lines, m.c.eventRow(a, seq+1, w-2, mark))
	}
	return m.c.box(fmt.Sprintf("%s · %d events%s", title, a.events(), a.rewardNote()), lines, w, h, false)
}

func (c *common) vectorLines(p *pair, width int) []string {
	st := c.st
	v := p.verdict
	// Columns as wide as the vectors need, so 80 columns hold them all.
	goalW, vecW := 6, 9
	for _, cert := range []*model.Certificate{v.Honest, v.Candidate} {
		if cert != nil {
			goalW = max(goalW, len(cert.GoalVersion)+2)
			vecW = max(vecW, 2*len(cert.CState)+2)
		}
	}
	// Too narrow for a row per side (a dozen predicates on 80 columns):
	// each vector on a line of its own, never cut.
	stacked := 3+goalW+2*vecW > width
	head := st.muted.Render(fit("", 3) + fit("goal", goalW) + fit("c_state", vecW) + fit("c_agent", vecW) + fit("P_state", 9) + "P_agent")
	if stacked {
		head = st.muted.Render(fit("", 3) + fit("goal", goalW) + fit("P_state", 9) + "P_agent")
	}
	out := []string{head}
	ev := v.Evidence
	for _, side := range []struct {
		name string
		cert *model.Certificate
		rej  *model.Rejection
	}{{"H", v.Honest, p.h.rej}, {candName(p.kind), v.Candidate, p.a.rej}} {
		if side.cert == nil {
			reason := "not certifiable"
			if side.rej != nil {
				reason += ": " + string(side.rej.Reason)
			}
			out = append(out, fit(side.name, 3)+st.bad.Render(reason))
			continue
		}
		cs, ca := vector(side.cert.CState), vector(side.cert.CAgent)
		if side.name != "H" && ev != nil && ev.Predicate > 0 {
			switch ev.Component {
			case "c_state":
				cs = markComponent(st, side.cert.CState, ev.Predicate-1)
			case "c_agent":
				ca = markComponent(st, side.cert.CAgent, ev.Predicate-1)
			}
		}
		if stacked {
			out = append(out, fit(side.name, 3)+fit(side.cert.GoalVersion, goalW)+fit(side.cert.PState.String(), 9)+side.cert.PAgent.String())
			for _, l := range wrap("c_state "+cs, width-3) {
				out = append(out, "   "+l)
			}
			for _, l := range wrap("c_agent "+ca, width-3) {
				out = append(out, "   "+l)
			}
			continue
		}
		out = append(out, fit(side.name, 3)+fit(side.cert.GoalVersion, goalW)+fit(cs, vecW)+fit(ca, vecW)+fit(side.cert.PState.String(), 9)+side.cert.PAgent.String())
	}
	return append(out, c.evidenceLines(p, width)...)
}

// evidenceLines name the evidence component under the vectors, wrapped.
func (c *common) evidenceLines(p *pair, width int) []string {
	ev := p.verdict.Evidence
	if ev == nil || ev.Predicate <= 0 {
		return nil
	}
	return wrap(c.st.bad.Render(fmt.Sprintf("predicate %d (%s): %s %s ≠ %s", ev.Predicate, ev.PredID, ev.Component, ev.Got, ev.Expected)), width)
}

// notEligibleCaveat is said under the scores of a pair that is not
// eligible.
const notEligibleCaveat = "not eligible: Δ is shown but not a measured inflation"

func caveatLines(width int) []string { return wrap(notEligibleCaveat, width) }

func candName(kind string) string {
	if kind == "rollback" {
		return "R"
	}
	return "A"
}

// markComponent renders a vector with component j in the evidence style.
func markComponent(st *styles, v []int, j int) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = fmt.Sprint(x)
		if i == j {
			parts[i] = st.evidence.Render(parts[i])
		}
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// scoreLines lists every evaluator's score on H and the candidate with Δ:
// inflated scores of an eligible pair, and rollbacks an evaluator misses,
// are called out. The benchmark's own evaluators follow, a row each, or
// compact on a few lines.
func (c *common) scoreLines(p *pair, width int, compact bool) []string {
	st := c.st
	cn := candName(p.kind)
	// A narrow pane keeps the evaluators' names whole and shortens the
	// call-outs to their sign, explained on a line below.
	narrow := width < 22+29
	labelW := clamp(width-29, 10, 22)
	if narrow {
		labelW = clamp(width-21, 10, 22)
	}
	out := []string{st.muted.Render(fit("evaluator", labelW) + fit("H", 6) + fit(cn, 6) + fit("Δ", 7))}
	legend := ""
	for i, e := range c.ws.evaluators {
		h, a := p.h.scores[i], p.a.scores[i]
		d := a - h
		call, long := scoreCall(st, p, d)
		if narrow && call != "" {
			sign, _, _ := strings.Cut(ansi.Strip(call), " ")
			call = st.warn.Render(sign)
			if sign == "✓" {
				call = st.ok.Render(sign)
			}
			legend = long
		}
		out = append(out, fit(e.Label, labelW-1)+" "+fit(fmt.Sprintf("%.2f", h), 6)+fit(fmt.Sprintf("%.2f", a), 6)+fit(fmt.Sprintf("%+.2f", d), 7)+call)
	}
	// The benchmark's own evaluators, beside the paper's they are
	// compared with: they read the final database, the agent's replies
	// and every call of the run. Compact, they share a few lines.
	breakdown := p.h.breakdown() && len(p.h.bench) == len(p.a.bench)
	switch {
	case breakdown && compact:
		out = append(out, c.benchCompact(p, width)...)
	case breakdown:
		for k, hb := range p.h.bench {
			ab := p.a.bench[k]
			if !hb.ok || !ab.ok {
				out = append(out, st.muted.Render(fit(hb.label, labelW-1)+" "+fit("n/a", 19)))
				continue
			}
			d, call := ab.v-hb.v, ""
			if p.kind == "pair" && p.verdict.Eligible && d > 1e-9 {
				call = st.warn.Render("▲ inflated")
				if narrow {
					call, legend = st.warn.Render("▲"), "▲ inflated"
				}
			}
			out = append(out, st.muted.Render(fit(hb.label, labelW-1))+" "+fit(fmt.Sprintf("%.2f", hb.v), 6)+fit(fmt.Sprintf("%.2f", ab.v), 6)+fit(fmt.Sprintf("%+.2f", d), 7)+call)
		}
	case p.h.reward != nil && p.a.reward != nil:
		h, a := *p.h.reward, *p.a.reward
		out = append(out, st.muted.Render(fit(p.h.rewardName, labelW-1)+" "+fit(fmt.Sprintf("%.2f", h), 6)+fit(fmt.Sprintf("%.2f", a), 6)+fit(fmt.Sprintf("%+.2f", a-h), 7)))
	}
	if legend != "" {
		out = append(out, st.faint.Render(legend))
	}
	for i := range out {
		out[i] = fit(out[i], width)
	}
	// The caveat wraps rather than being cut.
	if !p.verdict.Eligible {
		for _, l := range caveatLines(width) {
			out = append(out, st.faint.Render(l))
		}
	}
	return out
}

// scoreGrid is scoreLines on a short screen: the evaluators two to a
// line ("Historical Milestone .5→.75 +0.25 ▲"), the benchmark's compact
// and the legend; the caveat is the layout's to place.
func (c *common) scoreGrid(p *pair, width int) []string {
	st := c.st
	colW := width / 2
	labelW := clamp(colW-17, 8, 22)
	var cells []string
	legend := ""
	for i, e := range c.ws.evaluators {
		h, a := p.h.scores[i], p.a.scores[i]
		call, long := scoreCall(st, p, a-h)
		if call != "" {
			legend = long
			sign, _, _ := strings.Cut(ansi.Strip(call), " ")
			call = " " + st.warn.Render(sign)
			if sign == "✓" {
				call = " " + st.ok.Render(sign)
			}
		}
		cells = append(cells, fit(fit(e.Label, labelW-1)+" "+fmt.Sprintf("%s→%s %+.2f", short(h), short(a), a-h)+call, colW))
	}
	var out []string
	rows := (len(cells) + 1) / 2
	for r := range rows {
		line := cells[r]
		if r+rows < len(cells) {
			line += cells[r+rows]
		}
		out = append(out, line)
	}
	if p.h.breakdown() && len(p.h.bench) == len(p.a.bench) {
		out = append(out, c.benchCompact(p, width)...)
	} else if p.h.reward != nil && p.a.reward != nil {
		out = append(out, st.muted.Render(fmt.Sprintf("%s %s→%s", p.h.rewardName, short(*p.h.reward), short(*p.a.reward))))
	}
	if legend != "" {
		out = append(out, st.faint.Render(legend))
	}
	return out
}

// scoreCall calls out an evaluator's Δ d on a pair: inflated on an
// eligible pair, a rollback missed or detected; long explains the signs.
func scoreCall(st *styles, p *pair, d float64) (call, long string) {
	switch {
	case p.kind == "pair" && p.verdict.Eligible && d > 1e-9:
		return st.warn.Render("▲ inflated"), "▲ inflated"
	case p.kind == "rollback" && p.verdict.Eligible && d >= -1e-9:
		return st.warn.Render("✗ misses it"), "✗ misses the rollback, ✓ detects it"
	case p.kind == "rollback" && p.verdict.Eligible:
		return st.ok.Render("✓ detects"), "✗ misses the rollback, ✓ detects it"
	}
	return "", ""
}

// breakdown reports whether the benchmark scores a run by more than its
// reward: then its evaluators show one by one, beside the paper's; a
// benchmark with a reward alone shows it on one row.
func (a *analysis) breakdown() bool { return len(a.bench) > 1 }

// benchCompact is the benchmark's own evaluators on H and the candidate
// in as few lines as the width allows, their names abbreviated: "tau2 ·
// reward 0→0 · DB 1→1 · COMM. 1→1 …", a score that rose on an eligible
// pair marked ▲.
func (c *common) benchCompact(p *pair, width int) []string {
	st := c.st
	var parts []string
	for k, hb := range p.h.bench {
		ab := p.a.bench[k]
		if k == 0 {
			first, _, _ := strings.Cut(hb.label, " ")
			parts = append(parts, first)
		}
		name := abbreviate(benchShort(p.h.task.Bench, hb.label))
		switch {
		case !hb.ok || !ab.ok:
			parts = append(parts, name+" n/a")
		case p.kind == "pair" && p.verdict.Eligible && ab.v-hb.v > 1e-9:
			parts = append(parts, fmt.Sprintf("%s %s→%s▲", name, short(hb.v), short(ab.v)))
		default:
			parts = append(parts, fmt.Sprintf("%s %s→%s", name, short(hb.v), short(ab.v)))
		}
	}
	var out []string
	for _, l := range wrap(strings.Join(parts, " · "), width) {
		out = append(out, st.muted.Render(l))
	}
	return out
}

// abbreviate shortens an evaluator's name to a word of at most five
// cells: "partial ACTION" → "partial", "COMMUNICATE" → "COMM.",
// "ENV_ASSERTION" → "ENV".
func abbreviate(name string) string {
	name, _, _ = strings.Cut(name, " ")
	name, _, _ = strings.Cut(name, "_")
	if len(name) > 8 {
		return name[:4] + "."
	}
	return name
}

// short renders a score in at most four cells: 1, 0, .67.
func short(v float64) string {
	s := strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.2f", v), "0"), ".")
	if strings.HasPrefix(s, "0.") {
		return s[1:]
	}
	return s
}

func (m *comparer) ShortHelp() []key.Binding {
	k := m.c.keys
	if m.prompt != nil {
		return m.prompt.keys()
	}
	return []key.Binding{k.AttackCancel, k.StepNext, k.StepPrev, k.Evidence, k.OpenEvent, k.StateDiff, m.collateralKey(), k.EditWitness, k.Save, k.Attack, k.Back, k.Help}
}

// collateralKey is x, where the pair has collateral to list.
func (m *comparer) collateralKey() key.Binding {
	b := m.c.keys.Collateral
	b.SetEnabled(m.p != nil && m.p.collateral != nil)
	return b
}

// collateralLines say, under the verdict of a real domain's witness,
// whether it ends in exactly H's state: the certified vectors are equal,
// but a second refund or a bag charge never refunded is not in them.
func (m *comparer) collateralLines(width int) []string {
	st := m.c.st
	c := m.p.collateral
	if c == nil {
		return nil
	}
	if c.same && c.turn >= 0 {
		// The benchmark checks every turn's end (BFCL): the same end
		// is not the same work.
		return wrap(st.warn.Render(fmt.Sprintf("≠ ends in H's state, but its turn %d ends elsewhere than H's: the benchmark checks every turn's end", c.turn)), width)
	}
	if c.same {
		return wrap(st.ok.Render("= ends in exactly H's state"), width)
	}
	n := len(c.deltas)
	what := fmt.Sprintf("≠ does not end in H's state: %d cell%s differ%s · x lists them", n, plural(n), verbS(n))
	if m.p.verdict.Eligible {
		what = fmt.Sprintf("≠ ends with H's certified vectors but not in H's state: %d cell%s differ%s · x lists them", n, plural(n), verbS(n))
	}
	return wrap(st.warn.Render(what), width)
}

// verbS is the verb's -s for a count of one.
func verbS(n int) string {
	if n == 1 {
		return "s"
	}
	return ""
}

// collateralOverlay lists every cell where the witness ends apart from
// H: the record and field, H's value and A's (long values cut from the
// middle), and the goal predicates that read the cell.
func (m *comparer) collateralOverlay() *overlay {
	st := m.c.st
	c := m.p.collateral
	w := max(m.width-4, 20)
	lines := m.collateralLines(w)
	cn := candName(m.kind)
	for _, d := range c.deltas {
		reads := "read by no goal predicate"
		if len(d.Goal) > 0 {
			var ps []string
			for _, g := range d.Goal {
				ps = append(ps, fmt.Sprint(g))
			}
			reads = "read by goal predicate " + strings.Join(ps, ", ")
			if len(d.Goal) > 1 {
				reads = "read by goal predicates " + strings.Join(ps, ", ")
			}
		}
		lines = append(lines, "", st.bold.Render(fit(d.Type+" "+d.ID+" · "+d.Field, w)), st.faint.Render(fit("  "+reads, w)))
		// A value takes four lines at most, cut from the middle: a
		// payment history differs at its end, a record anywhere.
		for _, v := range []struct {
			who string
			v   model.Value
		}{{"H", d.H}, {cn, d.A}} {
			text := shortenMiddle(m.task.cellText(v.v), 4*(w-4))
			for i, l := range wrap(text, w-4) {
				head := "    "
				if i == 0 {
					head = "  " + st.muted.Render(fit(v.who, 1)) + " "
				}
				lines = append(lines, head+l)
			}
		}
	}
	return &overlay{title: fmt.Sprintf("Collateral · %s · %s vs H", m.task.ID, cn), lines: lines}
}

func (m *comparer) FullHelp() [][]key.Binding {
	k := m.c.keys
	if m.prompt != nil {
		return [][]key.Binding{m.prompt.keys()}
	}
	return [][]key.Binding{
		{k.StepNext, k.StepPrev, k.First, k.Last},
		{k.PageDown, k.PageUp, k.Evidence, k.OpenEvent},
		{k.StateDiff, m.collateralKey(), m.c.checksKey(m.task)},
		{k.EditWitness, k.Save, k.Attack, k.AttackCancel},
		{k.Back, k.Quit},
	}
}
