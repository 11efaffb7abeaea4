package tui

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/parthack/parthack/domains"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
	"github.com/parthack/parthack/store"
)

// editor hand-crafts a witness: agent steps inserted, deleted, edited
// and reordered, every edit replayed and double-certified against H at
// once, with the scores and the verdict live beside the steps.
type editor struct {
	c             *common
	width, height int

	task    *suiteTask
	h       choice    // the run the witness is certified against
	honest  *analysis // H, the pair's reference
	baseGen int
	steps   []model.Step
	rec     store.Record // the stored witness being edited; Key 0 when new
	// kind is what the candidate is certified as: "pair" for a witness
	// (H, A), "rollback" for a strict rollback (H, R); "" until the first
	// certificate of a stored or imported trajectory decides.
	kind     string
	name     string
	note     string
	undo     [][]model.Step
	redo     [][]model.Step
	modified bool
	// recorded is the conversation of a recorded run (a tau-bench run)
	// and the steps it was recorded with: an export keeps it while the
	// steps are those.
	recorded      []model.Turn
	recordedSteps []model.Step

	cursor, top int

	cand    *analysis
	pair    *pair
	candErr error
	gen     int
	pending bool

	end  int  // the step that ends the episode, when ends
	ends bool // (see stepsChanged)

	form   *stepForm
	call   *callForm // the form of a real domain's tool call
	line   *stepLine // the one-line step entry
	prompt *prompt
	saving bool // the prompt saves (else it exports)

	chart *chartCache

	// tools are the tools of a real domain's task (nil on other tasks),
	// and calls the calls of the task its argument values are drawn from,
	// found the first time a call is entered.
	tools      []domains.Tool
	calls      []model.Action
	callsFound bool
}

// episodeMark marks the step that ends the episode.
const episodeMark = "⏹"

func newEditor(c *common) *editor { return &editor{c: c, chart: &chartCache{}} }

// open starts editing a copy of start's steps. Claims and step numbers
// are dropped: an edited witness no longer matches what they claimed.
// A new witness takes its name from start but not its note, which
// describes start, not the witness about to be made; a stored or
// unsaved one (imported, found by the attacker) keeps both. H is h, or
// the task's H.
func (m *editor) open(t *suiteTask, start *model.Trajectory, rec store.Record, unsaved bool, kind string, h choice) tea.Cmd {
	m.task, m.rec, m.kind, m.h = t, rec, kind, t.orHonest(h)
	m.name, m.note = start.Name, ""
	switch {
	case rec.Key != 0:
		m.name, m.note = rec.Name, rec.Note
	case unsaved:
		m.note = start.Note
	}
	if m.name == "" || start == m.h.traj {
		m.name, m.note = "hand-crafted witness", ""
	}
	m.steps = make([]model.Step, len(start.Steps))
	for i, st := range start.Steps {
		m.steps[i] = model.Step{Action: st.Action, Actor: st.Actor, Comment: st.Comment}
	}
	m.stepsChanged()
	m.recorded, m.recordedSteps = start.Transcript, slices.Clone(m.steps)
	m.undo, m.redo, m.modified = nil, nil, unsaved
	m.cursor, m.top = 0, 0
	m.honest, m.cand, m.pair, m.candErr, m.form, m.call, m.line, m.prompt = nil, nil, nil, nil, nil, nil, nil, nil
	m.tools, m.calls, m.callsFound = domainTools(t), nil, false
	m.baseGen++
	return analyzeCmd(m.c.ws, t, m.h.traj, m.h.label, ownerEditor, m.baseGen)
}

// trajectory is the candidate as it stands.
func (m *editor) trajectory() *model.Trajectory {
	steps := slices.Clone(m.steps)
	for i := range steps {
		steps[i].Index = i
	}
	tr := &model.Trajectory{Task: m.task.ID, Name: m.name, Note: m.note, Steps: steps}
	if m.keepsConversation() {
		tr.Transcript = m.recorded
	}
	return tr
}

// witness is the candidate as saved or exported: it names the run of
// the task it is a witness of, so that reopened, listed or certified it
// is judged against that H. H opened from elsewhere (a saved run's) is
// no run of the task and goes unnamed.
func (m *editor) witness() *model.Trajectory {
	tr := m.trajectory()
	for _, ch := range m.task.stored() {
		if ch.traj == m.h.traj && ch.label == m.h.label {
			tr.Honest = ch.label
		}
	}
	return tr
}

// keepsConversation reports whether the steps are still those the
// recorded conversation was held with: then the candidate is the run
// itself, conversation and all (tau-bench's reward reads its replies).
func (m *editor) keepsConversation() bool {
	return len(m.recorded) > 0 && slices.EqualFunc(m.steps, m.recordedSteps, func(a, b model.Step) bool {
		return describeAction(&a.Action) == describeAction(&b.Action)
	})
}

// recompute replays and certifies the candidate in the background;
// results of older edits are dropped when they arrive.
func (m *editor) recompute() tea.Cmd {
	if m.honest == nil {
		return nil
	}
	m.gen++
	m.pending = true
	return candidateCmd(m.c.ws, m.honest, m.trajectory(), m.kind, m.gen)
}

// edit replaces the steps, recording the old ones for undo. An edit that
// would put a step after the call that ends the episode is refused in
// the status line, the steps and the cursor as they were.
func (m *editor) edit(steps []model.Step) tea.Cmd {
	if err := m.episodeRule(steps); err != nil {
		return status(err.Error(), true)
	}
	if err := m.authorRule(steps); err != nil {
		return status(err.Error(), true)
	}
	if err := m.conversationRule(steps); err != nil {
		return status(err.Error(), true)
	}
	m.undo = append(m.undo, m.steps)
	m.redo = nil
	m.steps = steps
	m.stepsChanged()
	m.modified = true
	m.cursor = clamp(m.cursor, 0, max(len(steps)-1, 0))
	return m.recompute()
}

// episodeRule refuses steps with a step after the call that ends the
// episode (tau-bench: transfer_to_human_agents), unless the steps the
// editor holds already break the rule the same way: an edit may always
// bring them closer to a trajectory of the domain.
func (m *editor) episodeRule(steps []model.Step) error {
	err := model.CheckEpisode(m.task.Public, steps)
	if err == nil || model.CheckEpisode(m.task.Public, m.steps) != nil && len(steps) <= len(m.steps) {
		return nil
	}
	if end, ok := m.episodeEnd(); ok {
		return fmt.Errorf("refused: step %d, a call of %s, ends the episode in %s; no step may follow it (nothing changed)",
			end+1, m.steps[end].Tool, m.task.Public.Domain.Name())
	}
	var ee *model.EpisodeError
	if errors.As(err, &ee) {
		return fmt.Errorf("refused: step %d would be a call of %s, which ends the episode in %s; no step may follow it (nothing changed)", ee.End, ee.Tool, ee.Domain)
	}
	return err
}

// isAgent reports whether a step's actor is the agent (a step that names
// none is the agent's).
func isAgent(a model.Actor) bool { return a == "" || a == model.ActorAgent }

// othersSteps are the steps of actors besides the agent, as "actor
// action" in order.
func othersSteps(steps []model.Step) []string {
	var out []string
	for i := range steps {
		if !isAgent(steps[i].Actor) {
			out = append(out, string(steps[i].Actor)+" "+describeAction(&steps[i].Action))
		}
	}
	return out
}

// authorRule refuses steps in which another actor's steps are not H's,
// unchanged and in H's order: a witness authors the agent's steps only
// (tau2 telecom's user acts on their phone; in no-user mode the agent
// holds the phone's tools and there is no user step to keep). As with the
// episode rule, steps that already break it may be edited further.
func (m *editor) authorRule(steps []model.Step) error {
	if m.honest == nil {
		return nil
	}
	h := othersSteps(m.honest.traj.Steps)
	if slices.Equal(othersSteps(steps), h) || !slices.Equal(othersSteps(m.steps), h) {
		return nil
	}
	return fmt.Errorf("refused: a witness authors the agent's steps only; H's %d %s step%s stay as H has them (nothing changed)", len(h), m.otherActors(), plural(len(h)))
}

// conversationRule refuses steps that are no conversation the benchmark
// could hold from H's (model.CheckWitness: tau2's turns, its error limit,
// every call kept from H returning what it did), on a domain that holds
// conversations. As with the episode rule, steps that already break it
// may be edited further.
func (m *editor) conversationRule(steps []model.Step) error {
	if m.honest == nil {
		return nil
	}
	if _, ok := model.ConversationOf(m.honest.log.Env.Task); !ok {
		return nil
	}
	rej := m.witnessRule(steps)
	if rej == nil || m.witnessRule(m.steps) != nil {
		return nil
	}
	return fmt.Errorf("refused: %s (nothing changed)", rej.Evidence.Detail)
}

// witnessRule is the conversation rule's refusal of steps as a witness
// of H, if any.
func (m *editor) witnessRule(steps []model.Step) *model.Rejection {
	env, h := m.honest.log.Env, m.honest.traj
	return model.CheckWitness(env.Task, h, steps, model.Kept(h.Steps, steps), m.honest.log.Outcomes(), env.Replay(steps).Outcomes())
}

// otherActors names the actors besides the agent whose steps H holds.
func (m *editor) otherActors() string {
	var names []string
	for _, st := range m.honest.traj.Steps {
		if a := string(st.Actor); !isAgent(st.Actor) && !slices.Contains(names, a) {
			names = append(names, a)
		}
	}
	return strings.Join(names, "/")
}

// othersStep refuses an edit of step i when it is another actor's.
func (m *editor) othersStep(i int, what string) tea.Cmd {
	if i < 0 || i >= len(m.steps) || isAgent(m.steps[i].Actor) {
		return nil
	}
	a, step := m.steps[i].Actor, m.steps[i].Tool
	if name, _, ok := m.task.message(a, &m.steps[i].Action); ok {
		step = name + "'s message" // BFCL's: "turn 1's message"
	}
	return status(fmt.Sprintf("refused: step %d is the %s's (%s); a witness authors the agent's steps only and cannot %s it (nothing changed)",
		i+1, a, step, what), true)
}

// stepsChanged notes new steps: where their episode ends is found once
// per change, not on every frame.
func (m *editor) stepsChanged() {
	m.end, m.ends = model.EpisodeEnd(m.task.Public, m.steps)
}

// episodeEnd is the step that ends the episode, if one does.
func (m *editor) episodeEnd() (int, bool) { return m.end, m.ends }

// afterEnd refuses to place a new step at pos when it would follow the
// step that ends the episode.
func (m *editor) afterEnd(pos int) tea.Cmd {
	if end, ok := m.episodeEnd(); ok && pos > end {
		return status(fmt.Sprintf("refused: step %d, a call of %s, ends the episode in %s; a new step goes before it (i inserts)",
			end+1, m.steps[end].Tool, m.task.Public.Domain.Name()), true)
	}
	return nil
}

func (m *editor) SetSize(w, h int) { m.width, m.height = w, h }

// Loading reports whether H and the candidate are still being replayed
// and certified for the first time: a key typed meanwhile (`:` whose
// fields show the state, z) needs both.
func (m *editor) Loading() bool {
	return m.task != nil && m.candErr == nil && (m.honest == nil || m.cand == nil)
}
func (m *editor) Typing() bool {
	return m.form != nil || m.call != nil || m.line != nil || m.prompt != nil
}

func (m *editor) update(msg tea.Msg) (*editor, tea.Cmd) {
	switch msg := msg.(type) {
	case analysisMsg:
		if msg.owner != ownerEditor || msg.gen != m.baseGen {
			return m, nil
		}
		if msg.err != nil {
			m.candErr = msg.err
			return m, nil
		}
		m.honest = msg.a
		return m, m.recompute()
	case candidateMsg:
		if msg.gen != m.gen {
			return m, nil
		}
		m.pending = false
		m.cand, m.pair, m.candErr = msg.a, msg.p, msg.err
		if m.kind == "" && msg.p != nil {
			m.kind = msg.p.kind
		}
	case tea.MouseMsg:
		if msg.Action != tea.MouseActionPress {
			break
		}
		switch msg.Button {
		case tea.MouseButtonWheelUp:
			m.move(-1)
		case tea.MouseButtonWheelDown:
			m.move(1)
		case tea.MouseButtonLeft:
			// A click on a step puts the cursor on it.
			leftW, topH, _, _, _ := m.layout()
			if i := m.top + msg.Y - 1; msg.X < leftW && msg.Y >= 1 && msg.Y < topH-1 && i < len(m.steps) {
				m.cursor = i
			}
		}
	case tea.KeyMsg:
		return m.key(msg)
	}
	return m, nil
}

// placed is the candidate's steps with the step a form built in place
// of step at, keeping its comment, or inserted before it; the episode
// rule's refusal leaves the step in its form, to change or cancel.
func (m *editor) placed(st *model.Step, at int, replace bool) ([]model.Step, error) {
	steps := slices.Clone(m.steps)
	if replace {
		st.Comment = steps[at].Comment
		steps[at] = *st
	} else {
		steps = slices.Insert(steps, at, *st)
	}
	return steps, m.episodeRule(steps)
}

func (m *editor) key(msg tea.KeyMsg) (*editor, tea.Cmd) {
	k := m.c.keys
	if m.form != nil {
		st, cancel, cmd := m.form.update(msg)
		switch {
		case cancel:
			m.form = nil
		case st != nil:
			steps, err := m.placed(st, m.form.at, m.form.replace)
			if err != nil {
				m.form.err = err.Error()
				return m, nil
			}
			m.form, m.cursor = nil, m.form.at
			return m, m.edit(steps)
		}
		return m, cmd
	}
	if m.call != nil {
		st, cancel, cmd := m.call.update(msg)
		switch {
		case cancel:
			m.call = nil
		case st != nil:
			steps, err := m.placed(st, m.call.at, m.call.replace)
			if err != nil {
				m.call.err = err.Error()
				return m, nil
			}
			m.call, m.cursor = nil, m.call.at
			return m, m.edit(steps)
		}
		return m, cmd
	}
	if m.line != nil {
		st, cancel, cmd := m.line.update(msg)
		switch {
		case cancel:
			m.line = nil
		case st != nil:
			at := m.line.at
			steps := slices.Insert(slices.Clone(m.steps), at, *st)
			if err := m.episodeRule(steps); err != nil {
				m.line.err = err.Error()
				return m, nil
			}
			m.line = nil
			m.cursor = at
			return m, m.edit(steps)
		}
		return m, cmd
	}
	if m.prompt != nil {
		return m, m.promptKey(msg)
	}
	if m.honest == nil {
		return m, nil // H failed to replay: only the root's keys act
	}
	env, err := m.c.ws.env(m.task)
	if err != nil {
		return m, status(err.Error(), true)
	}
	var at, from *model.Action
	if len(m.steps) > 0 {
		at = &m.steps[m.cursor].Action
		// A new call starts from its neighbour's tool where the
		// neighbour is the agent's: another actor's step (BFCL's user
		// turn) is no tool of the agent's.
		if isAgent(m.steps[m.cursor].Actor) {
			from = at
		}
	}
	switch {
	case key.Matches(msg, k.Up):
		m.move(-1)
	case key.Matches(msg, k.Down):
		m.move(1)
	case key.Matches(msg, k.First):
		m.move(-len(m.steps))
	case key.Matches(msg, k.Last):
		m.move(len(m.steps))
	case key.Matches(msg, k.Add):
		pos := 0
		if len(m.steps) > 0 {
			pos = m.cursor + 1
		}
		if cmd := m.afterEnd(pos); cmd != nil {
			return m, cmd
		}
		if m.tools != nil {
			m.call = newCallForm(m.c, env.Task, m.tools, m.valuesAt(env, pos), pos, false, from)
			break
		}
		m.form = newStepForm(m.c, env.Task, pos, false, at)
	case key.Matches(msg, k.Line):
		pos := 0
		if len(m.steps) > 0 {
			pos = m.cursor + 1
		}
		if cmd := m.afterEnd(pos); cmd != nil {
			return m, cmd
		}
		if m.tools != nil {
			m.line = newCallLine(m.c, env.Task, pos, m.tools, m.valuesAt(env, pos))
			break
		}
		m.line = newStepLine(m.c, env.Task, pos, m.stateBefore(pos))
	case key.Matches(msg, k.Insert):
		if cmd := m.afterEnd(m.cursor); cmd != nil {
			return m, cmd
		}
		if m.tools != nil {
			m.call = newCallForm(m.c, env.Task, m.tools, m.valuesAt(env, m.cursor), m.cursor, false, from)
			break
		}
		m.form = newStepForm(m.c, env.Task, m.cursor, false, at)
	case key.Matches(msg, k.EditStep):
		if cmd := m.othersStep(m.cursor, "edit"); cmd != nil {
			return m, cmd
		}
		switch {
		case at != nil && m.tools != nil && at.Op == model.OpCall:
			m.call = newCallForm(m.c, env.Task, m.tools, m.valuesAt(env, m.cursor), m.cursor, true, at)
		case at != nil:
			m.form = newStepForm(m.c, env.Task, m.cursor, true, at)
		}
	case key.Matches(msg, k.DeleteStep):
		if cmd := m.othersStep(m.cursor, "delete"); cmd != nil {
			return m, cmd
		}
		if len(m.steps) > 0 {
			return m, m.edit(slices.Delete(slices.Clone(m.steps), m.cursor, m.cursor+1))
		}
	case key.Matches(msg, k.MoveUp):
		if cmd := m.othersStep(m.cursor, "move"); cmd != nil {
			return m, cmd
		}
		if m.cursor > 0 {
			steps := slices.Clone(m.steps)
			steps[m.cursor-1], steps[m.cursor] = steps[m.cursor], steps[m.cursor-1]
			if err := m.episodeRule(steps); err != nil {
				return m, status(err.Error(), true)
			}
			m.cursor--
			return m, m.edit(steps)
		}
	case key.Matches(msg, k.MoveDown):
		if cmd := m.othersStep(m.cursor, "move"); cmd != nil {
			return m, cmd
		}
		if m.cursor < len(m.steps)-1 {
			steps := slices.Clone(m.steps)
			steps[m.cursor+1], steps[m.cursor] = steps[m.cursor], steps[m.cursor+1]
			if err := m.episodeRule(steps); err != nil {
				return m, status(err.Error(), true)
			}
			m.cursor++
			return m, m.edit(steps)
		}
	case key.Matches(msg, k.Undo):
		if n := len(m.undo); n > 0 {
			m.redo = append(m.redo, m.steps)
			m.steps, m.undo = m.undo[n-1], m.undo[:n-1]
			m.stepsChanged()
			m.cursor = clamp(m.cursor, 0, max(len(m.steps)-1, 0))
			return m, m.recompute()
		}
		return m, status("nothing to undo", false)
	case key.Matches(msg, k.Redo):
		if n := len(m.redo); n > 0 {
			m.undo = append(m.undo, m.steps)
			m.steps, m.redo = m.redo[n-1], m.redo[:n-1]
			m.stepsChanged()
			m.cursor = clamp(m.cursor, 0, max(len(m.steps)-1, 0))
			return m, m.recompute()
		}
		return m, status("nothing to redo", false)
	case key.Matches(msg, k.Save):
		title := "Save witness"
		if m.rec.Key != 0 {
			title = fmt.Sprintf("Save witness (replaces saved witness %d)", m.rec.Key)
		}
		m.prompt, m.saving = newPrompt(m.c, title, field{"name", m.name}, field{"note", m.note}), true
	case key.Matches(msg, k.Export):
		file := fileName(m.task.ID+"-"+m.name) + ".json"
		// The full path: the launch directory is easy to forget.
		if abs, err := filepath.Abs(file); err == nil {
			file = abs
		}
		m.prompt, m.saving = newPrompt(m.c, "Export witness JSON (the format `parthack certify` reads)", field{"file", file}), false
	case key.Matches(msg, k.UndoStep):
		if len(m.steps) == 0 {
			return m, nil
		}
		if cmd := m.othersStep(m.cursor, "undo"); cmd != nil {
			return m, cmd
		}
		if m.cand == nil || m.pending || m.cand.log.Steps != len(m.steps) {
			return m, status("still replaying: press z again in a moment", true)
		}
		if m.steps[m.cursor].Op == model.OpCall {
			return m, m.undoCall(env)
		}
		if cmd := m.afterEnd(len(m.steps)); cmd != nil {
			return m, cmd
		}
		inv, err := inverseStep(m.cand, m.cursor)
		if err != nil {
			return m, status(err.Error(), true)
		}
		cursor := m.cursor
		cmd := m.edit(append(slices.Clone(m.steps), inv))
		m.cursor = cursor
		return m, tea.Batch(cmd, status(fmt.Sprintf("step %d undoes step %d", len(m.steps), cursor+1), false))
	case key.Matches(msg, m.c.checksKey(m.task)):
		if m.pair == nil {
			return m, status("still replaying: press b again in a moment", true)
		}
		o := m.c.checksOverlay(m.width, m.task.ID, m.pair.h, m.pair.a)
		return m, func() tea.Msg { return overlayMsg{o} }
	case key.Matches(msg, k.Mode):
		if m.certKind() == "rollback" {
			m.kind = "pair"
		} else {
			m.kind = "rollback"
		}
		return m, tea.Batch(m.recompute(), status("certifying the candidate as "+m.kindName(), false))
	case key.Matches(msg, k.Compare):
		return m, m.c.navigate(openCompareMsg{task: m.task, kind: m.certKind(), h: m.h.traj, hLabel: m.h.label, a: m.trajectory()})
	}
	return m, nil
}

func (m *editor) promptKey(msg tea.KeyMsg) tea.Cmd {
	done, cancel, cmd := m.prompt.update(msg)
	switch {
	case cancel:
		m.prompt = nil
	case done && m.saving:
		m.name, m.note = strings.TrimSpace(m.prompt.value(0)), strings.TrimSpace(m.prompt.value(1))
		m.prompt = nil
		if m.name == "" {
			m.name = "hand-crafted witness"
		}
		tr := m.witness()
		return saveCmd(m.c.dbPath, store.Record{Kind: store.KindWitness, Key: m.rec.Key, Task: m.task.ID, Name: m.name, Note: m.note,
			Body: model.EncodeTrajectory(tr), Created: m.rec.Created})
	case done:
		file := strings.TrimSpace(m.prompt.value(0))
		m.prompt = nil
		tr, note := m.witness(), ""
		switch {
		case m.keepsConversation():
			note = " with the run's conversation"
		case len(m.recorded) > 0:
			note = " without the run's conversation: it was recorded with other steps"
		}
		return exportCmd(file, tr, note)
	}
	return cmd
}

// saved records that the witness now lives in the store under r.
func (m *editor) saved(r store.Record) {
	if r.Kind == store.KindWitness && r.Task == m.task.ID {
		m.rec, m.modified = r, false
	}
}

// stateBefore gives, for a step inserted at pos, an entity's field
// values in the state that step would start from; nil while the
// candidate is being replayed.
func (m *editor) stateBefore(pos int) func(typ, id string) map[string]string {
	a := m.cand
	if a == nil || m.pending || a.log.Steps != len(m.steps) {
		return nil
	}
	seq := len(a.log.Events) - 1
	if pos < len(m.steps) {
		seq = a.stepEvent[pos] - 1
	}
	var ents []pbcste.EntityRecord
	return func(typ, id string) map[string]string {
		if ents == nil {
			ents = a.log.Snapshot(seq).Entities()
		}
		for _, e := range ents {
			if e.Type == typ && e.ID == id {
				out := map[string]string{}
				for f, v := range e.Fields {
					if mv, ok := v.(model.Value); ok {
						out[f] = mv.String()
					}
				}
				if e.Deleted {
					out["@deleted"] = "true"
				}
				return out
			}
		}
		return nil
	}
}

// valuesAt are the values offered for each argument of a call entered
// at pos: drawn from the task's calls, the candidate's, and the state
// the call would start from.
func (m *editor) valuesAt(env *pbcste.Env, pos int) argValues {
	if !m.callsFound {
		m.calls, m.callsFound = taskCalls(m.task, m.honest.traj, env), true
	}
	calls := slices.Clone(m.calls)
	for _, st := range m.steps {
		if st.Op == model.OpCall {
			calls = append(calls, st.Action)
		}
	}
	state := env.Initial()
	if a := m.cand; a != nil && !m.pending && a.log.Steps == len(m.steps) {
		seq := len(a.log.Events) - 1
		if pos < len(m.steps) {
			seq = a.stepEvent[pos] - 1
		}
		state = a.log.Snapshot(seq)
	}
	return sensibleValues(m.tools, calls, state, &env.Task.Schema)
}

// undoCall inserts the call of the domain that puts back what the call
// under the cursor changed: at the end, or right before the step that
// ends the episode. The domain's move generator proposes the calls, for
// the candidate as it stood before that call, and so does every other
// writing tool called with that call's own arguments (disable_roaming
// for enable_roaming); each is replayed where it would go, and one that
// restores every cell is taken.
func (m *editor) undoCall(env *pbcste.Env) tea.Cmd {
	a, i := m.cand, m.cursor
	seq := a.stepEvent[i]
	ev := &a.log.Events[seq]
	switch {
	case !ev.OK:
		return status(fmt.Sprintf("step %d failed: nothing to undo", i+1), true)
	case ev.DiffLen() == 0:
		return status(fmt.Sprintf("step %d changed nothing: nothing to undo", i+1), true)
	}
	var cells []model.CellDiff
	for _, d := range a.log.TypedDiff(ev) {
		if d.Field != model.GoalField {
			cells = append(cells, d)
		}
	}
	pos := len(m.steps)
	if end, ok := m.episodeEnd(); ok {
		pos = end
	}
	if pos <= i {
		return status(fmt.Sprintf("step %d ends the episode: nothing can follow it to undo it", i+1), true)
	}
	moves := movesAt(m.task, m.trajectory(), a.log.Snapshot(seq-1).View())
	moves = append(moves, sameArgCalls(m.tools, &m.steps[i].Action)...)
	call, err := restoringCall(env, m.steps, i, pos, cells, moves)
	if err != nil {
		return status(err.Error(), true)
	}
	steps := slices.Insert(slices.Clone(m.steps), pos, model.Step{Action: call, Comment: fmt.Sprintf("undoes step %d", i+1)})
	cmd := m.edit(steps)
	m.cursor = i
	return tea.Batch(cmd, status(fmt.Sprintf("step %d, a call of %s, undoes step %d", pos+1, call.Tool, i+1), false))
}

// inverseStep is the agent step that undoes step i of the candidate a:
// an update back to the values before it, a delete for a create or a
// restore, a restore for a delete.
func inverseStep(a *analysis, i int) (model.Step, error) {
	seq := a.stepEvent[i]
	ev := &a.log.Events[seq]
	switch {
	case !ev.OK:
		return model.Step{}, fmt.Errorf("step %d failed: nothing to undo", i+1)
	case ev.DiffLen() == 0:
		return model.Step{}, fmt.Errorf("step %d changed nothing: nothing to undo", i+1)
	case ev.Action.Op == model.OpReviseGoal:
		return model.Step{}, fmt.Errorf("step %d revises the goal: an agent cannot undo that", i+1)
	}
	act := ev.Action
	inv := model.Action{Op: model.OpUpdate, Type: act.Type, ID: act.ID}
	switch act.Op {
	case model.OpCreate, model.OpRestore:
		inv.Op = model.OpDelete
	case model.OpDelete:
		inv.Op = model.OpRestore
	default:
		for _, d := range a.log.TypedDiff(ev) {
			if d.Type == act.Type && d.ID == act.ID && !strings.HasPrefix(d.Field, "@") {
				inv.Fields = append(inv.Fields, model.Assign{Field: d.Field, Value: d.Before})
			}
		}
		if len(inv.Fields) == 0 {
			return model.Step{}, fmt.Errorf("step %d changed no field of %s %s: nothing to undo", i+1, act.Type, act.ID)
		}
	}
	return model.Step{Action: inv, Comment: fmt.Sprintf("undoes step %d", i+1)}, nil
}

// fileName makes s a file name every file system and shell takes: runs
// of anything but letters, digits, '.', '_' and '-' become one '-'
// (tau2 telecom's ids hold |, [, ] and :), and a name longer than 120
// bytes loses its middle (a name may have 255).
func fileName(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range s {
		ok := r == '.' || r == '_' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
		switch {
		case ok:
			b.WriteRune(r)
			dash = r == '-'
		case !dash:
			b.WriteByte('-')
			dash = true
		}
	}
	out := strings.Trim(b.String(), "-.")
	if len(out) > 120 {
		out = out[:60] + "-" + out[len(out)-59:]
	}
	return out
}

// discard drops the unsaved witness: the user chose to leave it.
func (m *editor) discard() {
	m.modified = false
}

func (m *editor) move(d int) {
	m.cursor = clamp(m.cursor+d, 0, max(len(m.steps)-1, 0))
}

// layout: steps on the left, certification and scores on the right, the
// candidate's progress chart below when there is room: every evaluator's
// lane on a tall screen, P_state, Historical Milestone and CSPS first on
// a shorter one.
func (m *editor) layout() (leftW, topH, chartH, promptH, lanes int) {
	if m.prompt != nil {
		promptH = m.prompt.height()
	}
	for _, lanes = range []int{1 + len(m.c.ws.evaluators), 4, 0} {
		chartH = lanes + 3
		if lanes == 0 {
			chartH = 0
		}
		topH = m.height - chartH - promptH
		if topH >= 18 || lanes == 0 {
			break
		}
	}
	leftW = clamp(m.width*9/20, 36, 70)
	if m.cand != nil && m.width >= 160 {
		leftW = clamp(m.cand.widestRow+2, leftW, m.width/2)
	}
	return
}

func (m *editor) View() string {
	if m.task == nil {
		return padLines(nil, m.width, m.height)
	}
	leftW, topH, chartH, _, lanes := m.layout()
	out := joinColumns(m.stepsView(leftW, topH), m.c.box(m.resultTitle(), m.resultLines(m.width-leftW-2), m.width-leftW, topH, false))
	if chartH > 0 && m.cand != nil && m.cand.events()+1 > 0 {
		ls := chartLanes(m.c.ws, m.cand, lanes)
		body := m.c.chart(m.chart, m.cand, ls, m.chartCursor(), m.width-2)
		out += "\n" + m.c.box(m.c.chartTitle("Candidate progress over time · value at the cursor step → final", len(ls)), body, m.width, chartH, false)
	}
	if m.prompt != nil {
		out += "\n" + m.prompt.view(m.width)
	}
	return out
}

// chartCursor is where the chart marks the candidate: after the event
// of the step under the cursor (and the scripted events right after
// it), or after the last event while it is being replayed.
func (m *editor) chartCursor() int {
	a := m.cand
	if a == nil || m.pending || a.log.Steps != len(m.steps) || len(m.steps) == 0 {
		return a.events()
	}
	seq := a.stepEvent[m.cursor]
	for seq+1 < len(a.log.Events) && a.log.Events[seq+1].Step < 0 {
		seq++
	}
	return seq + 1
}

func (m *editor) stepsView(w, h int) string {
	st := m.c.st
	mod := ""
	if m.modified {
		mod = " · modified"
	}
	// The name gives way first: the count and "modified" always show.
	suffix := fmt.Sprintf(" · %d steps%s", len(m.steps), mod)
	title := ansi.Truncate(m.name, max(w-6-ansi.StringWidth(suffix), 8), "…") + suffix
	if m.form != nil {
		return m.c.box(title, m.form.view(w-2), w, h, true)
	}
	if m.call != nil {
		return m.c.box(title, m.call.view(w-2, h-2), w, h, true)
	}
	var entry []string
	if m.line != nil {
		entry = append([]string{""}, m.line.view(w-2)...)
	}
	rows := max(h-2-len(entry), 1)
	m.top = listWindow(m.top, m.cursor, len(m.steps), rows)
	var lines []string
	if len(m.steps) == 0 {
		lines = append(lines, st.faint.Render(" no steps: press a to add one"))
	}
	fresh := m.cand != nil && !m.pending && m.cand.log.Steps == len(m.steps)
	digits := len(fmt.Sprint(len(m.steps)))
	end, ends := m.episodeEnd()
	for i := m.top; i < min(m.top+rows, len(m.steps)); i++ {
		status, stSt, reason := "…", st.faint, ""
		if fresh {
			ev := &m.cand.log.Events[m.cand.stepEvent[i]]
			switch {
			case !ev.OK:
				status, stSt, reason = "✗", st.bad, " — "+m.cand.log.Reason(ev)
			case ev.DiffLen() == 0:
				status, stSt = "·", st.faint
			default:
				status, stSt = "✓", st.ok
			}
		}
		// The step that ends the episode is marked before its text, so
		// a narrow pane still shows it.
		desc := m.task.describeStep(m.steps[i].Actor, &m.steps[i].Action)
		if ends && i == end {
			desc = episodeMark + " " + desc
		} else if ends && i > end {
			reason = " — after the episode's end"
		}
		// Another actor's step (H's user, on their phone) names its
		// actor; a message (BFCL's user turn) reads as the actor's words.
		who := ""
		if a := m.steps[i].Actor; !isAgent(a) {
			who = actorShort(a) + ": "
			if _, _, ok := m.task.message(a, &m.steps[i].Action); ok {
				who = actorShort(a) + " "
			}
		}
		text := fmt.Sprintf("%*d %s %s%s%s", digits, i+1, status, who, desc, reason)
		if i == m.cursor {
			lines = append(lines, st.cursor.Render(fit("▸"+text, w-2)))
			continue
		}
		line := " " + fmt.Sprintf("%*d ", digits, i+1) + stSt.Render(status) + " " + st.actor(m.steps[i].Actor).Render(who) + desc
		if reason != "" {
			line += st.bad.Render(reason)
		}
		lines = append(lines, fit(line, w-2))
	}
	// The rule shows under the steps whatever the cursor.
	if ends && len(lines) < rows {
		lines = append(lines, st.warn.Render(fit(fmt.Sprintf(" %s the episode ends here, at step %d: no step may follow", episodeMark, end+1), w-2)))
	}
	for len(lines) < rows && entry != nil {
		lines = append(lines, "")
	}
	return m.c.box(title, append(lines, entry...), w, h, true)
}

// certKind is the kind the candidate is certified as now.
func (m *editor) certKind() string {
	if m.kind == "" && m.pair != nil {
		return m.pair.kind
	}
	if m.kind == "" {
		return "pair"
	}
	return m.kind
}

// kindName names the editor's mode the way Compare's title does.
func (m *editor) kindName() string {
	if m.certKind() == "rollback" {
		return "Strict rollback (H, R)"
	}
	return "Pair (H, A)"
}

func (m *editor) resultTitle() string {
	if m.pending {
		return m.kindName() + " · replaying and double-certifying …"
	}
	return m.kindName() + " · live"
}

// resultLines is the verdict, both vector sets, the scores with Δ and
// what the selected step did.
func (m *editor) resultLines(width int) []string {
	st := m.c.st
	switch {
	case m.candErr != nil:
		return wrap(st.statusErr.Render("error: "+m.candErr.Error()), width)
	case m.pair == nil:
		return []string{st.faint.Render("replaying H and the candidate …")}
	}
	out := m.c.verdictLines(m.pair, width)
	out = append(out, "")
	out = append(out, m.c.vectorLines(m.pair, width)...)
	out = append(out, "")
	out = append(out, m.c.scoreLines(m.pair, width, true)...)
	if len(m.steps) > 0 && m.cand != nil && m.cand.log.Steps == len(m.steps) {
		out = append(out, "", st.paneTitle.Render(fmt.Sprintf("Step %d", m.cursor+1)))
		seq := m.cand.stepEvent[m.cursor]
		ev := &m.cand.log.Events[seq]
		if !ev.OK {
			out = append(out, wrap(st.bad.Render("illegal or failed: "+m.cand.log.Reason(ev)), width)...)
		} else {
			out = append(out, st.muted.Render(fmt.Sprintf("event %d · %d cells changed · P_state after it %s", seq+1, ev.DiffLen(), frac(ev.CState, len(m.cand.log.Env.Goals()[ev.Goal].Preds)))))
		}
		if end, ok := m.episodeEnd(); ok && end == m.cursor {
			out = append(out, wrap(st.warn.Render(fmt.Sprintf("%s the episode ends here: in %s a call of %s ends it, so no step may follow (i inserts before it)",
				episodeMark, m.task.Public.Domain.Name(), m.steps[end].Tool)), width)...)
		}
		// Scripted events the environment interleaves right after this step.
		for s := seq + 1; s < len(m.cand.log.Events) && m.cand.log.Events[s].Step < 0; s++ {
			e := &m.cand.log.Events[s]
			out = append(out, fit("then "+st.actor(e.Actor()).Render(string(e.Actor()))+": "+m.task.describeStep(e.Actor(), e.Action), width))
		}
	}
	return out
}

// modeKey is the mode switch, its help naming the mode it switches to.
func (m *editor) modeKey() key.Binding {
	b := m.c.keys.Mode
	if m.certKind() == "rollback" {
		b.SetHelp("m", "certify as witness")
	} else {
		b.SetHelp("m", "certify as rollback")
	}
	return b
}

func (m *editor) ShortHelp() []key.Binding {
	k := m.c.keys
	if m.form != nil {
		return m.form.keys()
	}
	if m.call != nil {
		return m.call.keys()
	}
	if m.line != nil {
		return m.line.keys()
	}
	if m.prompt != nil {
		return m.prompt.keys()
	}
	return []key.Binding{k.AttackCancel, k.Line, k.Add, k.EditStep, k.DeleteStep, k.UndoStep, k.Undo, k.Save, k.Attack, m.modeKey(), k.MoveUp, k.MoveDown, k.Back, k.Help}
}

func (m *editor) FullHelp() [][]key.Binding {
	k := m.c.keys
	if m.form != nil {
		return [][]key.Binding{m.form.keys()}
	}
	if m.call != nil {
		return [][]key.Binding{m.call.keys()}
	}
	if m.line != nil {
		return [][]key.Binding{m.line.keys()}
	}
	if m.prompt != nil {
		return [][]key.Binding{m.prompt.keys()}
	}
	return [][]key.Binding{
		{k.Up, k.Down, k.First, k.Last},
		{k.Add, k.Line, k.Insert, k.EditStep, k.DeleteStep},
		{k.MoveUp, k.MoveDown, k.Undo, k.Redo, k.UndoStep},
		{k.Save, k.Export, k.Compare, m.modeKey(), m.c.checksKey(m.task)},
		{k.Back},
		{k.Attack, k.AttackCancel},
	}
}
