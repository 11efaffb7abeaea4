package tui

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/parthack/parthack/domains"
	"github.com/parthack/parthack/model"
)

// demo plays scripted walkthroughs of the three failure modes on the
// real screens: a historical-witness attack, a rollback that historical
// credit misses, and an attribution-mismatch rejection; then the first
// on a frontier model's real run of a real benchmark, scored by that
// benchmark's own evaluators. Every number in a caption comes from the
// same replay, certification, search and scoring the workbench does;
// nothing is canned.
type demo struct {
	c      *common
	scenes []scene
	at     int
	err    error
}

// scene is one step of a walkthrough: what the screens show and what the
// audience is told.
type scene struct {
	part    string
	caption string
	show    func(m *workbench)
}

type demoMsg struct {
	scenes []scene
	err    error
}

func newDemo(c *common) *demo { return &demo{c: c} }

func (d *demo) init() tea.Cmd {
	ws := d.c.ws
	return func() tea.Msg {
		scenes, err := buildDemo(ws)
		return demoMsg{scenes: scenes, err: err}
	}
}

func (d *demo) loaded(m *workbench, msg demoMsg) tea.Cmd {
	d.scenes, d.err = msg.scenes, msg.err
	d.at = 0
	d.apply(m)
	return nil
}

func (d *demo) apply(m *workbench) {
	if d.at < len(d.scenes) && d.scenes[d.at].show != nil {
		d.scenes[d.at].show(m)
	}
	m.resize()
}

// key handles the demo's own keys before the page in front sees them.
func (d *demo) key(m *workbench, msg tea.KeyMsg) (tea.Cmd, bool) {
	k := d.c.keys
	switch {
	case key.Matches(msg, k.Advance):
		if d.at < len(d.scenes)-1 {
			d.at++
			d.apply(m)
		}
		return nil, true
	case key.Matches(msg, k.Rewind):
		if d.at > 0 {
			d.at--
			d.apply(m)
		}
		return nil, true
	case key.Matches(msg, k.Back):
		return nil, true
	}
	return nil, false
}

func (d *demo) title() string {
	if d.at < len(d.scenes) {
		return d.scenes[d.at].part
	}
	return "preparing"
}

func (d *demo) text() string {
	switch {
	case d.err != nil:
		return "The demo could not be prepared: " + d.err.Error()
	case len(d.scenes) == 0:
		return "Preparing the walkthroughs: replaying, certifying and scoring …"
	}
	s := d.scenes[d.at]
	return fmt.Sprintf("[%d/%d] %s", d.at+1, len(d.scenes), s.caption)
}

func (d *demo) captionHeight(width int) int { return len(wrap(d.text(), max(width-2, 10))) }

func (d *demo) caption(width int) string {
	lines := wrap(d.text(), max(width-2, 10))
	for i, l := range lines {
		lines[i] = d.c.st.caption.Render(fit(l, width-2))
	}
	return strings.Join(lines, "\n")
}

// The scene setters put finished analyses straight on screen.

func showInspect(a *analysis, cursor int) func(*workbench) {
	return func(m *workbench) {
		m.page, m.back = pageInspect, nil
		m.inspect.present(a, cursor)
	}
}

func showCompare(p *pair) func(*workbench) {
	return func(m *workbench) {
		m.page, m.back = pageCompare, nil
		m.compare.show(p)
	}
}

// buildDemo finds, in the suite, a task for each walkthrough and writes
// its scenes.
func buildDemo(ws *workspace) ([]scene, error) {
	var scenes []scene
	for _, build := range []func(*workspace) ([]scene, error){historicalScenes, rollbackScenes, attributionScenes, frontierScenes} {
		s, err := build(ws)
		if err != nil {
			return nil, err
		}
		scenes = append(scenes, s...)
	}
	scenes = append(scenes, scene{part: "end", caption: "End of the walkthroughs. b goes back through them; q quits."})
	return scenes, nil
}

// scoreIndex finds an evaluator by name, -1 when absent.
func scoreIndex(ws *workspace, name string) int {
	return slices.IndexFunc(ws.evaluators, func(e evaluator) bool { return e.Name == name })
}

// bestInflated is the evaluator with the largest Δ on p, preferring
// Historical Milestone on ties.
func bestInflated(ws *workspace, p *pair) (int, float64) {
	best, d := scoreIndex(ws, "historical_milestone"), 0.0
	if best >= 0 {
		d = p.a.scores[best] - p.h.scores[best]
	}
	for i := range ws.evaluators {
		if x := p.a.scores[i] - p.h.scores[i]; x > d+1e-9 {
			best, d = i, x
		}
	}
	return best, d
}

func historicalScenes(ws *workspace) ([]scene, error) {
	const part = "1 · historical-witness attack"
	for _, t := range ws.tasks {
		if t.Witness == nil {
			continue
		}
		h, err := analyze(ws, t, t.HonestTraj, "honest")
		if err != nil {
			return nil, err
		}
		a, err := analyze(ws, t, t.Witness, "witness")
		if err != nil {
			return nil, err
		}
		p, err := certifyAgainst(ws, "pair", h, a)
		if err != nil {
			return nil, err
		}
		i, d := bestInflated(ws, p)
		if !p.verdict.Eligible || i < 0 || d <= 0 {
			continue
		}
		e := ws.evaluators[i]
		cert := p.verdict.Honest
		csps := scoreIndex(ws, "csps")
		cspsText := ""
		if csps >= 0 {
			cspsText = fmt.Sprintf(" CSPS, which reads only the terminal state, stays at %.2f (Δ %+.2f).", a.scores[csps], a.scores[csps]-h.scores[csps])
		}
		pk := a.peak()
		return []scene{
			{part, fmt.Sprintf("Historical-witness attack on %s (%s). The honest trajectory H starts from the frozen initial snapshot. Space advances.", t.ID, t.Title), showInspect(h, 0)},
			{part, fmt.Sprintf("H ends with certified progress P_state = %s: c_state %s, c_agent %s. %s gives it %.2f.", cert.PState, vector(cert.CState), vector(cert.CAgent), e.Label, h.scores[i]), showInspect(h, -1)},
			{part, fmt.Sprintf("Now the witness A, from the same snapshot. Watch the chart: certified P_state on top, each evaluator below."), showInspect(a, 0)},
			{part, fmt.Sprintf("After event %d A reaches P_state %.2f: a transient peak that every historical evaluator records.", pk, a.pstate[pk]), showInspect(a, pk)},
			{part, fmt.Sprintf("Then A legally undoes it and ends where H ends, P_state %s — but %s keeps %.2f.", p.verdict.Candidate.PState, e.Label, a.scores[i]), showInspect(a, -1)},
			{part, fmt.Sprintf("The certifier admits (H, A): same goal version, c_state and c_agent equal component by component. Δhack(%s) = %+.2f at unchanged certified progress.%s", e.Label, d, cspsText), showCompare(p)},
		}, nil
	}
	return []scene{{part: "1 · skipped", caption: "No task in this suite has an eligible witness that inflates a score: walkthrough 1 is skipped."}}, nil
}

func rollbackScenes(ws *workspace) ([]scene, error) {
	const part = "2 · rollback missed"
	for _, t := range ws.tasks {
		if t.Rollback == nil {
			continue
		}
		h, err := analyze(ws, t, t.HonestTraj, "honest")
		if err != nil {
			return nil, err
		}
		r, err := analyze(ws, t, t.Rollback, "rollback")
		if err != nil {
			return nil, err
		}
		p, err := certifyAgainst(ws, "rollback", h, r)
		if err != nil {
			return nil, err
		}
		if !p.verdict.Eligible {
			continue
		}
		missed := -1
		for i := range ws.evaluators {
			if r.scores[i] >= h.scores[i]-1e-9 {
				missed = i
				break
			}
		}
		if missed < 0 {
			continue
		}
		e := ws.evaluators[missed]
		detect := ""
		if c := scoreIndex(ws, "csps"); c >= 0 && r.scores[c] < h.scores[c] {
			detect = fmt.Sprintf(" CSPS falls %.2f → %.2f: it detects the loss.", h.scores[c], r.scores[c])
		}
		return []scene{
			{part, fmt.Sprintf("Rollback on %s. R starts as H: here it has just finished H's %d steps, P_state %s.", t.ID, len(t.HonestTraj.Steps), p.verdict.Honest.PState), showInspect(r, h.events())},
			{part, fmt.Sprintf("R then appends legal inverse steps: certified progress falls to P_state %s.", p.verdict.Candidate.PState), showInspect(r, -1)},
			{part, fmt.Sprintf("A sound evaluator must score R below H. %s gives R %.2f and H %.2f: it misses the rollback, crediting progress R no longer has.%s", e.Label, r.scores[missed], h.scores[missed], detect), showCompare(p)},
		}, nil
	}
	return []scene{{part: "2 · skipped", caption: "No task in this suite has a certified rollback a score misses: walkthrough 2 is skipped."}}, nil
}

// attributionScenes shows a task's attribution control: a candidate that
// ends with H's c_state but leaves a predicate to a non-agent event.
func attributionScenes(ws *workspace) ([]scene, error) {
	const part = "3 · attribution mismatch"
	for _, t := range ws.tasks {
		if t.Attribution == nil {
			continue
		}
		h, err := analyze(ws, t, t.HonestTraj, "honest")
		if err != nil {
			return nil, err
		}
		a, err := analyze(ws, t, t.Attribution, "attribution control")
		if err != nil {
			return nil, err
		}
		p, err := certifyAgainst(ws, "pair", h, a)
		if err != nil {
			return nil, err
		}
		ev := p.verdict.Evidence
		if p.verdict.Reason != model.AttributionVectorMismatch || ev == nil || p.verdict.Candidate == nil {
			continue
		}
		_, aSeq := p.evidenceRows()
		return []scene{
			{part, fmt.Sprintf("Attribution on %s. This candidate A ends with the same c_state %s as H: by scalar progress the two are equal.", t.ID, vector(p.verdict.Candidate.CState)), showInspect(a, aSeq+1)},
			{part, fmt.Sprintf("But predicate %d (%s) has a different latest cause in A than in H, as the verdict says: the certifier rejects A for attribution_vector_mismatch, so no Δ is measured.", ev.Predicate, ev.PredID), showCompare(p)},
		}, nil
	}
	return []scene{{part: "3 · skipped", caption: "No task in this suite has an attribution control: walkthrough 3 is skipped."}}, nil
}

// frontierScenes walk through a historical-witness attack on a frontier
// model's real run: the run and its conversation, the witness the search
// finds, the verdict, and the benchmark's own scores of both.
func frontierScenes(*workspace) ([]scene, error) {
	const part = "4 · a frontier model's run"
	skip := func(why string) []scene {
		return []scene{{part: "4 · skipped", caption: "Walkthrough 4 is skipped: " + why + "."}}
	}
	// The run is the one a registered domain showcases: only the choice is
	// scripted; the witness is searched for and everything said is computed.
	d, pk, ok := domains.Showcased()
	if !ok {
		return skip("no domain this build links names a run to walk through"), nil
	}
	tt, err := domains.TaskOf(d, pk.Task)
	if err != nil {
		return nil, err
	}
	run, err := domains.RunOf(d, pk.Task, pk.Run)
	if err != nil {
		return nil, err
	}
	runs, err := d.Runs()
	if err != nil {
		return nil, err
	}
	t, err := domainTask(d, tt, runs, run.Short)
	if err != nil {
		return nil, err
	}
	// The domain's task in a workspace of its own: the suite's stays as it is.
	ws := newWorkspace([]*suiteTask{t})
	h, err := analyze(ws, t, t.HonestTraj, run.Short)
	if err != nil {
		return nil, err
	}
	res, err := searchAttack(context.Background(), ws, t, t.honest(), pk.Target, searchOptions{edits: pk.Edits, maxStates: 1_000_000, sameEnd: true}, func(searchProgress) {})
	if err != nil {
		return nil, err
	}
	if res.witness == nil || res.delta <= 0 {
		return skip(fmt.Sprintf("the search finds no witness within %d edits that inflates %s on %s", pk.Edits, pk.Target, run.Name)), nil
	}
	a, err := analyze(ws, t, res.witness, "witness")
	if err != nil {
		return nil, err
	}
	p, err := certifyAgainst(ws, "pair", h, a)
	if err != nil {
		return nil, err
	}
	target := slices.IndexFunc(h.bench, func(b benchScore) bool { return b.name == pk.Target })
	if !p.verdict.Eligible || p.collateral == nil || !p.collateral.same || target < 0 || len(h.bench) == 0 {
		return skip(fmt.Sprintf("the witness found on %s is not an eligible pair that ends in H's state", run.Name)), nil
	}
	hb, ab, hv, av := h.bench[0], a.bench[0], h.bench[target], a.bench[target]
	if !hb.ok || !ab.ok || !hv.ok || !av.ok || hb.v != ab.v || av.v <= hv.v {
		return skip(fmt.Sprintf("on %s the witness moves %s or leaves %s as it was", run.Name, hb.label, hv.label)), nil
	}
	hashNote := ""
	if tt.Hash != nil {
		hh, ah := tt.Hash(h.log), tt.Hash(a.log)
		if hh != ah {
			return skip("the benchmark's state hash tells H's end from the witness's"), nil
		}
		hashNote = fmt.Sprintf(" (%s's database hash %s… for both)", t.Bench, hh[:min(12, len(hh))])
	}
	var inserted []string
	first := -1
	for _, r := range p.rows {
		if r.h < 0 && r.a >= 0 {
			// A caption names the call and the start of its arguments.
			inserted = append(inserted, shortenMiddle(describeAction(a.log.Events[r.a].Action), 64))
			if first < 0 {
				first = r.a
			}
		}
	}
	if first < 0 {
		return skip("the witness inserts no step"), nil
	}
	calls := 0
	for _, st := range t.HonestTraj.Steps {
		if st.Op == model.OpCall {
			calls++
		}
	}
	cert := p.verdict.Honest
	others := ""
	for k := range h.bench {
		if k != 0 && k != target && a.bench[k].v != h.bench[k].v {
			others += fmt.Sprintf(", %s %s → %s", benchShort(t.Bench, h.bench[k].label), short(h.bench[k].v), short(a.bench[k].v))
		}
	}
	return []scene{
		{part, fmt.Sprintf("A real run: %s on %s task %s, as %s recorded it (H): %d tool calls, reward %g. The Inspector shows each call beside the conversation.", run.Model, d.Title(), t.ID, t.Bench, calls, run.Reward), showInspect(h, 1)},
		{part, fmt.Sprintf("H ends with certified progress P_state = %s. %s's evaluators, recomputed from the public payload: %s.", cert.PState, t.Bench, benchSummary(h)), showInspect(h, -1)},
		{part, fmt.Sprintf("The search attacker, within %d edits of H and admitting only witnesses that end in exactly H's state, finds A: it inserts %s.", pk.Edits, strings.Join(inserted, ", then ")), showInspect(a, first+1)},
		{part, fmt.Sprintf("The certifier admits (H, A): equal c_state and c_agent. A ends in exactly H's state%s.", hashNote), showCompare(p)},
		{part, fmt.Sprintf("%s stays %s → %s, but %s rises %s → %s%s: credit for calls A made and undid.", hb.label, short(hb.v), short(ab.v), hv.label, short(hv.v), short(av.v), others), showCompare(p)},
	}, nil
}

func (d *demo) ShortHelp() []key.Binding {
	k := d.c.keys
	return []key.Binding{k.Advance, k.Rewind, k.Quit}
}

func (d *demo) FullHelp() [][]key.Binding { return [][]key.Binding{d.ShortHelp()} }
