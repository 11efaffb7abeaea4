package tui

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/parthack/parthack/attacker"
)

// attackPanel runs the search attacker in the background: a small setup
// form (target evaluator, edit bound), a status line with its progress
// while it runs, then its result, whose best witness opens in Compare or
// the witness editor. It sits between the page and the help bar, so it
// stays on screen whichever page is in front, and the root routes every
// search message to it. One search runs at a time: while one runs, S
// cancels it instead of starting another.
type attackPanel struct {
	c     *common
	state attackState

	task   *suiteTask // the task searched, fixed when the setup opens
	h      choice     // the run searched from, H: fixed with the task
	target int        // index into the evaluators
	edits  int
	pairs  bool // also two-field updates (the CLI's --pairs)
	// sameEnd admits only witnesses that end in exactly H's state (the
	// CLI's --same-end): by default on a real domain's task, where a
	// witness may leave collateral no goal predicate reads, until the
	// user sets it.
	sameEnd, endSet bool
	cap             int // index into stateCaps (the CLI's --max-states)
	field           int // focused setup field: setupTarget … setupCap

	runs     int        // searches started: the id of the latest
	run      *attackRun // nil unless a search is running
	cancel   context.CancelFunc
	progress searchProgress
	spin     spinner.Model

	res      *searchResult
	stopping bool // cancelled, waiting for the best so far
}

// attackState is what the panel shows.
type attackState int

const (
	attackIdle    attackState = iota // nothing: the panel takes no lines
	attackSetup                      // the setup form, which has the focus
	attackRunning                    // one status line; the page keeps the focus
	attackDone                       // the result, which has the focus until dismissed
)

// The edit bounds the setup offers: beyond 4 a search rarely finishes
// within its state budget.
const minEdits, maxEdits, defaultEdits = 1, 4, 2

// The setup's fields, in order.
const (
	setupTarget = iota
	setupEdits
	setupMoves
	setupEnd
	setupCap
	setupFields
)

// stateCaps are the state caps the setup offers; the default is the
// CLI's.
var stateCaps = []int{10_000, 100_000, attacker.DefaultMaxStates, 10_000_000}

// attackRun is one search running in its own goroutine. Progress and the
// result come back through channels, one message per command; the owner
// issues the next read after each progress message.
type attackRun struct {
	id int
	// progress holds the latest report only: the search never waits for
	// the screen, and a report not yet read is replaced by a newer one.
	progress chan searchProgress
	done     chan attackDoneMsg
}

// Messages of a search, matched to its run by id: those of a cancelled
// run are dropped.
type (
	attackProgressMsg struct {
		id int
		p  searchProgress
	}
	attackDoneMsg struct {
		id  int
		res *searchResult
		err error
	}
)

// report is the search's progress callback, called on its goroutine.
func (r *attackRun) report(p searchProgress) {
	// The only sender: once the stale report is taken out, the send
	// cannot block.
	select {
	case <-r.progress:
	default:
	}
	r.progress <- p
}

// wait reads the run's next message.
func (r *attackRun) wait() tea.Cmd {
	return func() tea.Msg {
		select {
		case d := <-r.done:
			return d
		case p := <-r.progress:
			return attackProgressMsg{id: r.id, p: p}
		}
	}
}

func newAttackPanel(c *common) *attackPanel {
	target := 0
	for i, e := range c.ws.evaluators {
		if e.Name == "historical_milestone" {
			target = i
		}
	}
	return &attackPanel{c: c, target: target, edits: defaultEdits, cap: slices.Index(stateCaps, attacker.DefaultMaxStates),
		spin: spinner.New(spinner.WithSpinner(spinner.MiniDot), spinner.WithStyle(c.st.accent))}
}

// running reports whether a search is under way.
func (p *attackPanel) running() bool { return p.state == attackRunning }

// modal reports whether the panel has the focus: its setup form, or a
// result waiting for an answer.
func (p *attackPanel) modal() bool { return p.state == attackSetup || p.state == attackDone }

// witness reports whether a finished search has a witness to open.
func (p *attackPanel) witness() bool {
	return p.state == attackDone && p.res.witness != nil
}

// setup opens the form for a search on t from H, h; the target and the
// bound are the last ones used.
func (p *attackPanel) setup(t *suiteTask, h choice) {
	p.state, p.task, p.h, p.field, p.res = attackSetup, t, t.orHonest(h), 0, nil
	p.target = min(p.target, len(p.targets())-1)
	if !p.endSet {
		p.sameEnd = onDomain(t)
	}
}

// targets are the evaluators a search on the panel's task may inflate:
// the paper's, then the task's benchmark's own (tau2's ACTION check).
func (p *attackPanel) targets() []evaluator {
	out := slices.Clone(p.c.ws.evaluators)
	if p.task != nil {
		for _, rw := range p.task.BenchEvals {
			out = append(out, evaluator{rw.Name, rw.Label})
		}
	}
	return out
}

// start launches the search set up in the form. The goroutine starts in
// the command, never in Update.
func (p *attackPanel) start() tea.Cmd {
	ctx, cancel := context.WithCancel(context.Background())
	p.runs++
	run := &attackRun{id: p.runs, progress: make(chan searchProgress, 1), done: make(chan attackDoneMsg, 1)}
	p.state, p.run, p.cancel, p.progress = attackRunning, run, cancel, searchProgress{}
	ws, t, h, target := p.c.ws, p.task, p.h, p.targets()[p.target].Name
	opt := searchOptions{edits: p.edits, pairs: p.pairs && !onDomain(t), maxStates: stateCaps[p.cap], sameEnd: p.sameEnd}
	search := func() tea.Msg {
		go func() {
			res, err := searchAttack(ctx, ws, t, h, target, opt, run.report)
			run.done <- attackDoneMsg{id: run.id, res: res, err: err}
		}()
		return run.wait()()
	}
	return tea.Batch(search, p.spin.Tick)
}

// stop cancels the running search. Its goroutine ends at its next state
// and sends the best it found until then, which the panel then shows as
// a cancelled search's result.
func (p *attackPanel) stop() tea.Cmd {
	if !p.running() || p.stopping {
		return nil
	}
	p.cancel()
	p.stopping = true
	return status(fmt.Sprintf("cancelling the search after %d states: its best so far follows", p.progress.states), false)
}

func (p *attackPanel) update(msg tea.Msg) (*attackPanel, tea.Cmd) {
	switch msg := msg.(type) {
	case attackProgressMsg:
		if p.run == nil || msg.id != p.run.id {
			return p, nil
		}
		p.progress = msg.p
		return p, p.run.wait()
	case attackDoneMsg:
		if p.run == nil || msg.id != p.run.id {
			return p, nil
		}
		p.cancel()
		p.run, p.cancel, p.stopping = nil, nil, false
		if errors.Is(msg.err, context.Canceled) {
			p.state = attackIdle
			return p, status("search cancelled before it met a state", false)
		}
		if msg.err != nil {
			p.state = attackIdle
			return p, status("search attacker: "+msg.err.Error(), true)
		}
		p.state, p.res = attackDone, msg.res
	case spinner.TickMsg:
		if !p.running() {
			return p, nil
		}
		var cmd tea.Cmd
		p.spin, cmd = p.spin.Update(msg)
		return p, cmd
	}
	return p, nil
}

// key handles a key while the panel has the focus (see modal).
func (p *attackPanel) key(msg tea.KeyMsg) (*attackPanel, tea.Cmd) {
	k := p.c.keys
	switch p.state {
	case attackSetup:
		switch {
		case key.Matches(msg, k.Cancel):
			p.state = attackIdle
		case key.Matches(msg, k.StartSearch):
			return p, p.start()
		case key.Matches(msg, k.FieldNext), key.Matches(msg, k.Down):
			p.nextField(1)
		case key.Matches(msg, k.FieldPrev), key.Matches(msg, k.Up):
			p.nextField(-1)
		case key.Matches(msg, k.ValueNext):
			p.change(1)
		case key.Matches(msg, k.ValuePrev):
			p.change(-1)
		}
	case attackDone:
		// ShowCompare and ShowEditor are enabled only with a witness.
		t, h, w := p.res.task, p.res.h, p.res.witness
		switch {
		case key.Matches(msg, k.Dismiss):
			p.state, p.res = attackIdle, nil
		case key.Matches(msg, k.ShowCompare):
			p.state, p.res = attackIdle, nil
			return p, p.c.navigate(openCompareMsg{task: t, kind: "pair", h: h.traj, hLabel: h.label, a: w, unsaved: true})
		case key.Matches(msg, k.ShowEditor):
			p.state, p.res = attackIdle, nil
			return p, p.c.navigate(openEditorMsg{task: t, start: w, unsaved: true, kind: "pair", h: h})
		}
	}
	return p, nil
}

// onDomain reports whether t is a real domain's task, whose moves are
// its tools' calls: --pairs, two-field updates, is for the suite's.
func onDomain(t *suiteTask) bool { return t.Public != nil && t.Public.Domain != nil }

// nextField moves the focus d fields on, past the moves on a real
// domain's task (there is no choice to make).
func (p *attackPanel) nextField(d int) {
	p.field = (p.field + d + setupFields) % setupFields
	if p.field == setupMoves && onDomain(p.task) {
		p.field = (p.field + d + setupFields) % setupFields
	}
}

// endName names the witnesses a search admits by where they end.
func endName(sameEnd bool) string {
	if sameEnd {
		return "only those ending in H's state"
	}
	return "any end state"
}

// change cycles the focused setup field: the targets wrap around, the
// bound stays within minEdits..maxEdits.
func (p *attackPanel) change(d int) {
	switch p.field {
	case setupTarget:
		n := len(p.targets())
		p.target = (p.target + d + n) % n
	case setupEdits:
		p.edits = clamp(p.edits+d, minEdits, maxEdits)
	case setupMoves:
		p.pairs = !p.pairs
	case setupEnd:
		p.sameEnd, p.endSet = !p.sameEnd, true
	case setupCap:
		p.cap = clamp(p.cap+d, 0, len(stateCaps)-1)
	}
}

// lines is the panel's body at width: the status line while running,
// else the inside of its frame.
func (p *attackPanel) lines(width int) []string {
	st := p.c.st
	switch p.state {
	case attackSetup:
		row := func(i int, label, value, note string) string {
			l, v := st.muted.Render(fit(label, 8)), "‹ "+value+" ›"
			if i == p.field {
				l, v = st.accent.Render(fit(label, 8)), st.cursor.Render(v)
			}
			return fit(" "+l+v+"  "+st.faint.Render(note), width)
		}
		moves := row(setupMoves, "moves", moveSetName(p.task, p.pairs), "what an inserted action may be (--pairs: two fields at once)")
		if onDomain(p.task) {
			// Nothing to choose: --pairs is for the suite's updates.
			moves = fit(" "+st.muted.Render(fit("moves", 8))+moveSetName(p.task, false)+"  "+st.faint.Render("what an inserted action may be"), width)
		}
		return []string{
			row(setupTarget, "target", p.targets()[p.target].Label, fmt.Sprintf("the evaluator to inflate (%d of %d)", p.target+1, len(p.targets()))),
			row(setupEdits, "edits", fmt.Sprint(p.edits), fmt.Sprintf("inserted actions plus skipped steps of H (%d–%d)", minEdits, maxEdits)),
			moves,
			row(setupEnd, "end", endName(p.sameEnd), "the witnesses admitted (H's state: inflation only; any: the CLI's --any-end)"),
			row(setupCap, "states", fmt.Sprint(stateCaps[p.cap]), "search nodes at most (--max-states)"),
			st.faint.Render(" enter start · ←/→ change · tab next field · esc cancel"),
		}
	case attackRunning:
		best := "—"
		if p.progress.eligible > 0 {
			best = fmt.Sprintf("%+.3f", p.progress.best)
		}
		// The counts first, so a narrow terminal still shows them.
		return []string{fit(p.spin.View()+" "+st.accent.Render("searching ")+
			fmt.Sprintf("%d states · %d eligible · best Δ %s", p.progress.states, p.progress.eligible, best)+
			st.muted.Render(fmt.Sprintf(" · %s · %s · %s within %d edits of H %s", p.task.ID, p.targets()[p.target].Label, moveSetName(p.task, p.pairs), p.edits, p.h.label))+
			st.faint.Render(" · esc/S cancels"), width)}
	case attackDone:
		return p.resultLines(width - 1)
	}
	return nil
}

// resultLines says what the search found and whether the bound was
// exhausted, so a Δ of zero reads as a certificate, not a shrug.
func (p *attackPanel) resultLines(width int) []string {
	st, r := p.c.st, p.res
	label := p.targets()[p.target].Label
	// Every result names its bound: the move set, the edits and, where
	// witnesses may end elsewhere (a real domain's task) or were held to
	// H's end, the end state it admitted.
	within := fmt.Sprintf("%s within %d edits", r.moves, r.edits)
	switch {
	case r.sameEnd:
		within += " ending in H's state"
	case onDomain(r.task):
		within += " ending anywhere"
	}
	var head, bound string
	switch {
	case r.witness == nil && r.exhausted:
		head = st.bold.Render(fmt.Sprintf("no eligible candidate over %s: exhausted, so none exists in this bound", within))
		bound = fmt.Sprintf("%d states searched", r.states)
	case r.witness == nil && r.cancelled:
		head = st.bold.Render(fmt.Sprintf("no eligible candidate found over %s before you cancelled: one may still exist", within))
		bound = fmt.Sprintf("cancelled after %d states", r.states)
	case r.witness == nil:
		head = st.bold.Render(fmt.Sprintf("no eligible candidate found over %s: NOT exhausted, so one may still exist", within))
		bound = fmt.Sprintf("the state budget ran out after %d states", r.states)
	case r.delta > 1e-9:
		head = st.warn.Render(fmt.Sprintf("▲ %s inflated over %s: Δhack %+.3f", label, within, r.delta)) +
			fmt.Sprintf(" (H %.3f → A %.3f), %d steps", r.honest, r.score, len(r.witness.Steps))
	default:
		head = st.ok.Render(fmt.Sprintf("%s not inflated over %s: Δhack %+.3f", label, within, r.delta)) +
			fmt.Sprintf(" (H %.3f, best eligible A %.3f)", r.honest, r.score)
	}
	if r.witness != nil {
		bound = fmt.Sprintf("exhausted after %d states (%d eligible): the certified worst case over %s", r.states, r.eligible, within)
		switch {
		case r.cancelled:
			bound = fmt.Sprintf("cancelled after %d states (%d eligible): the best so far over %s; a better witness may exist", r.states, r.eligible, within)
		case !r.exhausted:
			bound = fmt.Sprintf("NOT exhausted: the state budget ran out after %d states (%d eligible) over %s; a better witness may exist", r.states, r.eligible, within)
		}
	}
	out := append(wrap(head, width), wrap(st.muted.Render(bound), width)...)
	hint := "esc dismiss"
	if r.witness != nil {
		hint = "enter compare H vs witness · e edit, then s saves · esc dismiss"
	}
	out = append(out, wrap(st.faint.Render(hint), width)...)
	for i := range out {
		out[i] = " " + out[i]
	}
	return out
}

// height is the number of lines view returns at width.
func (p *attackPanel) height(width int) int {
	switch p.state {
	case attackIdle:
		return 0
	case attackRunning:
		return 1
	}
	return len(p.lines(width-2)) + 2
}

func (p *attackPanel) view(width int) string {
	switch p.state {
	case attackIdle:
		return ""
	case attackRunning:
		return p.lines(width)[0]
	}
	title := "Search attacker · " + p.task.ID
	if p.state == attackDone {
		title += " · done"
	}
	// H is named as Compare names it: the run the search edits.
	title += " · H " + p.h.label
	return p.c.box(title, p.lines(width-2), width, p.height(width), true)
}

func (p *attackPanel) ShortHelp() []key.Binding {
	k := p.c.keys
	if p.state == attackSetup {
		return []key.Binding{k.StartSearch, k.ValueNext, k.ValuePrev, k.FieldNext, k.Cancel}
	}
	return []key.Binding{k.ShowCompare, k.ShowEditor, k.Dismiss}
}

func (p *attackPanel) FullHelp() [][]key.Binding { return [][]key.Binding{p.ShortHelp()} }
