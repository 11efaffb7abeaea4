package tui

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
)

// detailCache keeps the detail pane of the last cursor position: moving
// the log's own view or redrawing costs nothing.
type detailCache struct {
	a           *analysis
	k, w        int
	whole, full bool
	result      []string
}

func (d *detailCache) lines(c *common, a *analysis, k, width int, whole, full bool) []string {
	if d.a != a || d.k != k || d.w != width || d.whole != whole || d.full != full || d.result == nil {
		d.a, d.k, d.w, d.whole, d.full = a, k, width, whole, full
		d.result = c.detailLines(a, k, width, whole, full)
	}
	return d.result
}

// detailLines describes cursor position k: the event, its typed diff as
// highlighted JSON, and the predicate table of the goal version active
// after it. Its cost depends on the event and the predicates, never on
// the log's length. whole shows every entity of the state, not only the
// ones event k touched; full shows every conversation turn whole.
func (c *common) detailLines(a *analysis, k, width int, whole, full bool) []string {
	st := c.st
	log := a.log
	goals := log.Env.Goals()
	g := a.goalAt(k)
	var out []string
	add := func(s ...string) { out = append(out, s...) }
	if k == 0 {
		add(st.bold.Render("initial snapshot") + st.muted.Render(" · goal "+goals[g].Version))
		add(c.conversation(a.traj, 0, width, full)...)
	} else if turn := c.turnConversation(a, k, width, full); turn != nil {
		// No conversation recorded, but the steps carry the user's
		// messages (BFCL's turns): the turn's, from the replay, which
		// shows the call too.
		add(c.eventHead(a, k, width, false)...)
		add(turn...)
	} else {
		add(c.eventHead(a, k, width, true)...)
		if ev := &log.Events[k-1]; ev.Step >= 0 {
			add(c.conversation(a.traj, ev.Step+1, width, full)...)
		}
	}
	if k > 0 {
		add("", st.paneTitle.Render("Typed diff"))
		if log.Events[k-1].DiffLen() == 0 {
			add(st.faint.Render("(no change)"))
		} else {
			for _, l := range c.hl.json(diffJSON(log.TypedDiff(&log.Events[k-1]), a.task.cellText)) {
				add(fit(l, width))
			}
		}
	}
	// A task with no goal predicate has no table and no certificate: the
	// Inspector says why below the log.
	if a.noGoal == nil {
		out = append(out, c.predicateLines(a, k, width)...)
	}
	if a.breakdown() {
		add(st.muted.Render(a.task.Bench+" at termination: ") + benchSummary(a))
	}
	add("")
	add(c.stateLines(a, k, whole, width)...)
	var wrapped []string
	for _, l := range out {
		wrapped = append(wrapped, wrap(l, width)...)
	}
	return wrapped
}

// predicateLines are the predicate table of the goal version active
// after k events (each predicate's public text, whether it holds now,
// its latest cause and its certified bits at termination) and the
// certificate, or why there is none.
func (c *common) predicateLines(a *analysis, k, width int) []string {
	st := c.st
	log := a.log
	goals := log.Env.Goals()
	g := a.goalAt(k)
	var out []string
	add := func(s ...string) { out = append(out, s...) }
	cs, ca := a.bitsAt(k)
	preds := goals[g].Preds
	m := len(preds)
	add("", st.paneTitle.Render(fmt.Sprintf("Predicates · goal %s", goals[g].Version))+
		st.muted.Render(fmt.Sprintf(" · now P_state %s, P_agent %s", frac(cs, m), frac(ca, m))))
	const nowW, causeW, finalW = 5, 14, 9
	textW := max(width-3-nowW-causeW-finalW, 8)
	add(st.muted.Render(fit(" # ", 3) + fit("public text", textW) + fit(" now", nowW) + fit("latest cause", causeW) + fit("at T: s a", finalW)))
	final := -1
	if a.cert != nil {
		final, _ = log.Env.GoalIndex(a.cert.GoalVersion)
	}
	texts := make([]string, len(preds))
	for j := range preds {
		texts[j] = a.predText(g, j)
	}
	texts = distinctCuts(texts, textW)
	for j := range preds {
		now := st.faint.Render("  ·")
		if cs>>uint(j)&1 == 1 {
			now = st.ok.Render("  ✓")
		}
		cause := "initial"
		causeSt := st.faint
		if seq := a.causeAt(g, j, k); seq >= 0 {
			actor := log.Events[seq].Actor()
			cause, causeSt = fmt.Sprintf("%s @%d", actorShort(actor), seq+1), st.actor(actor)
		}
		fin := st.faint.Render("      - -")
		if final == g {
			fin = fmt.Sprintf("      %d %d", a.cert.CState[j], a.cert.CAgent[j])
		}
		add(fmt.Sprintf("%2d ", j+1) + fit(texts[j], textW) + fit(now, nowW) + fit(causeSt.Render(cause), causeW) + fit(fin, finalW))
	}
	add("")
	if a.cert != nil {
		add(st.muted.Render("certified at termination: ") + fmt.Sprintf("goal %s · c_state %s · c_agent %s · P_state %s · P_agent %s",
			a.cert.GoalVersion, vector(a.cert.CState), vector(a.cert.CAgent), a.cert.PState, a.cert.PAgent))
	} else if a.certErr != nil {
		for _, l := range wrap("certification failed: "+a.certErr.Error(), width) {
			add(st.statusErr.Render(l))
		}
	} else if a.rej != nil {
		add(st.bad.Render("not certifiable: " + string(a.rej.Reason)))
		for _, l := range wrap(a.rej.Evidence.Detail, width) {
			add(st.bad.Render(l))
		}
	}
	return out
}

// distinctCuts cuts texts to w cells each so that different texts read
// apart: each from its middle (tau2's predicates differ at their end);
// one that reads as another then loses what all the texts start with
// ("reservation "); one that still does shows, instead, where it departs
// from the texts it reads as.
func distinctCuts(texts []string, w int) []string {
	rs := make([][]rune, len(texts))
	for i, t := range texts {
		rs[i] = []rune(t)
	}
	common := 0
	if len(rs) > 1 {
		common = len(rs[0])
		for _, r := range rs[1:] {
			common = min(common, sharedRunes(rs[0], r))
		}
	}
	out := make([]string, len(texts))
	count := map[string]int{}
	for i := range rs {
		out[i] = shortenMiddle(texts[i], w)
		count[out[i]]++
	}
	for i, r := range rs {
		if count[out[i]] > 1 && common > 0 && len(r) > w && common < len(r) {
			out[i] = "…" + shortenMiddle(string(r[common:]), w-1)
		}
	}
	// A text that reads as another shows where it departs from each text
	// it has read as: the first and the last such place, when they lie
	// apart, else the one.
	first, last := make([]int, len(rs)), make([]int, len(rs))
	for i, r := range rs {
		first[i] = len(r)
	}
	for range 4 {
		count := map[string]int{}
		for _, o := range out {
			count[o]++
		}
		cut, again := slices.Clone(out), false
		for i, r := range rs {
			if count[cut[i]] < 2 {
				continue
			}
			for j := range rs {
				if j != i && texts[j] != texts[i] && cut[j] == cut[i] {
					n := sharedRunes(r, rs[j])
					first[i], last[i], again = min(first[i], n), max(last[i], n), true
				}
			}
			out[i] = textWindow(r, first[i], w)
			if last[i]-first[i] > w/3 {
				out[i] = strings.ReplaceAll(textWindow(r, first[i], w/2)+textWindow(r, last[i], w-w/2), "……", "…")
			}
		}
		if !again {
			break
		}
	}
	return out
}

// sharedRunes is the number of runes a and b share at their start.
func sharedRunes(a, b []rune) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// textWindow is w cells of r around rune at, a third of them before it,
// with … where r goes on.
func textWindow(r []rune, at, w int) string {
	if len(r) <= w {
		return string(r)
	}
	start := clamp(at-(w-2)/3, 0, len(r)-w)
	end := start + w
	head, tail := "", ""
	if start > 0 {
		head, start = "…", start+1
	}
	if end < len(r) {
		tail, end = "…", end-1
	}
	return head + string(r[start:end]) + tail
}

// stateLines renders the state after k events: the entities event k
// touched (every entity with whole, and always at the initial snapshot),
// each with its fields, the ones the event changed marked * and
// highlighted, created and deleted entities said so.
func (c *common) stateLines(a *analysis, k int, whole bool, width int) []string {
	st := c.st
	log := a.log
	changed := map[string]map[string]bool{}
	var diff []model.CellDiff
	if k > 0 {
		diff = log.TypedDiff(&log.Events[k-1])
	}
	for _, d := range diff {
		if d.Field == model.GoalField {
			continue
		}
		ent := d.Type + " " + d.ID
		if changed[ent] == nil {
			changed[ent] = map[string]bool{}
		}
		changed[ent][d.Field] = true
	}
	whole = whole || k == 0
	title := "State · initial snapshot"
	if k > 0 {
		title = fmt.Sprintf("State after event %d", k)
		if whole {
			title += " · whole state"
		} else {
			title += fmt.Sprintf(" · %d entit%s touched", len(changed), map[bool]string{true: "y", false: "ies"}[len(changed) == 1])
		}
	}
	out := []string{st.paneTitle.Render(title) + st.faint.Render(map[bool]string{true: " · w touched only", false: " · w whole state"}[whole && k > 0])}
	if k == 0 {
		out[0] = st.paneTitle.Render(title)
	}
	// A domain's world is large: its whole state is the trajectory's
	// scope, the entities the predicates read and those any event changed.
	var keep func(typ, id string) bool
	if log.Env.Task.Domain != nil {
		scope := a.scope()
		keep = func(typ, id string) bool { return scope[typ+" "+id] || changed[typ+" "+id] != nil }
		if whole {
			out[0] += st.faint.Render(" · the entities the goal reads or the run changes")
		}
	} else if !whole {
		keep = func(typ, id string) bool { return changed[typ+" "+id] != nil }
	}
	ents := log.Snapshot(k - 1).EntitiesIn(keep)
	// A domain whose state lies on two sides shows the agent's database
	// first, then each other side under its name.
	sided, _ := log.Env.Task.Domain.(model.Sided)
	side := func(typ string) string { return "" }
	if sided != nil {
		side = sided.Side
		slices.SortStableFunc(ents, func(x, y pbcste.EntityRecord) int { return strings.Compare(side(x.Type), side(y.Type)) })
	}
	shown, heading := 0, "-"
	for _, e := range ents {
		name := e.Type + " " + e.ID
		ch := changed[name]
		if !whole && ch == nil {
			continue
		}
		shown++
		if s := side(e.Type); sided != nil && s != heading {
			heading = s
			if s == "" {
				s = "the agent's database"
			}
			out = append(out, st.accent.Render("── "+s+" ──"))
		}
		head := st.bold.Render(name)
		switch {
		case e.Deleted:
			head = st.bad.Render("✗ " + name + " · deleted")
		case ch[model.AliveField]:
			head += st.ok.Render(" · created")
		case ch != nil && whole:
			head += st.warn.Render(" · touched")
		}
		out = append(out, head)
		fields := make([]string, 0, len(e.Fields))
		for f := range e.Fields {
			fields = append(fields, f)
		}
		sort.Strings(fields)
		fw := 0
		for _, f := range fields {
			fw = max(fw, len(f))
		}
		for _, f := range fields {
			val := fmt.Sprint(e.Fields[f])
			if v, ok := e.Fields[f].(model.Value); ok {
				val = a.task.cellText(v)
			}
			row := "    " + fit(f, fw) + "  " + val
			if ch[f] {
				row = st.warn.Render("  * " + fit(f, fw) + "  " + val)
			}
			out = append(out, row)
		}
	}
	if shown == 0 {
		out = append(out, st.faint.Render("(the event touched no entity)"))
	}
	return out
}

// diffJSON renders a typed diff as JSON grouped by entity:
//
//	{
//	  "ticket T1": {
//	    "assignee": {"before": null, "after": "U1"}
//	  }
//	}
func diffJSON(diff []model.CellDiff, show func(model.Value) string) string {
	var b strings.Builder
	b.WriteString("{")
	open := ""
	for i, d := range diff {
		ent := d.Type + " " + d.ID
		field := strings.TrimPrefix(d.Field, "@")
		if d.Field == model.GoalField {
			ent, field = "", "goal_version"
		}
		if ent != open || i == 0 {
			if open != "" {
				b.WriteString("\n  }")
			}
			if i > 0 {
				b.WriteString(",")
			}
			if ent != "" {
				fmt.Fprintf(&b, "\n  %q: {", ent)
			}
			open = ent
		} else {
			b.WriteString(",")
		}
		indent := "\n    "
		if ent == "" {
			indent = "\n  "
		}
		before, after := show(d.Before), show(d.After)
		if d.Field == model.GoalField || d.Field == model.AliveField {
			before, after = d.Before.String(), d.After.String()
		}
		fmt.Fprintf(&b, "%s%q: {\"before\": %s, \"after\": %s}", indent, field, before, after)
	}
	if open != "" {
		b.WriteString("\n  }")
	}
	b.WriteString("\n}")
	return b.String()
}

// conversation is the part of a recorded conversation that leads to
// agent step n: the user's and agent's turns since the previous call,
// then the call and its output; after the last call, the turns that
// close the run too. n = 0 is the turns before the first call: the whole
// conversation of a run with no calls. Long turns are cut to a few
// lines unless full.
func (c *common) conversation(tr *model.Trajectory, n, width int, full bool) []string {
	if tr == nil || len(tr.Transcript) == 0 {
		return nil
	}
	turns := tr.Transcript
	last := 0
	for _, t := range turns {
		last = max(last, t.Step)
	}
	var from, to int
	title := fmt.Sprintf(" · up to call %d", n)
	switch {
	case n == 0:
		to = slices.IndexFunc(turns, func(t model.Turn) bool { return t.Step > 0 })
		title = " · before the first call"
		if to < 0 {
			to, title = len(turns), " · the whole run (it makes no call)"
		}
	default:
		first := slices.IndexFunc(turns, func(t model.Turn) bool { return t.Step == n })
		if first < 0 {
			return nil
		}
		from = first
		for from > 0 && turns[from-1].Step == 0 && turns[from-1].Role != "system" {
			from--
		}
		to = first
		for to < len(turns) && (turns[to].Step == n || to == first) {
			to++
		}
		if n == last {
			to, title = len(turns), fmt.Sprintf(" · call %d, the last, and the turns after it", n)
		}
	}
	return c.turnLines(turns[from:to], title, width, full, 6)
}

// turnLines are conversation turns under the Conversation title, each
// role in its colour; turns longer than most lines are cut unless full.
func (c *common) turnLines(turns []model.Turn, title string, width int, full bool, most int) []string {
	st := c.st
	out := []string{"", st.paneTitle.Render("Conversation") + st.muted.Render(title)}
	for _, t := range turns {
		if t.Role == "system" {
			continue
		}
		role := st.bold.Render(t.Role)
		switch t.Role {
		case "user":
			role = st.actor(model.ActorUser).Render("user")
		case "assistant":
			role = st.actor(model.ActorAgent).Render("agent")
		case "tool":
			role = st.muted.Render("call")
		}
		text := t.Content
		if n := text.Len(); n > longTurn && !full {
			// A turn longer than any pane shows (a 200 MB message) is
			// read no further than its first lines need, and said whole.
			text = model.TextOf(text.Head(longTurn))
		}
		lines := wrap(strings.Join(strings.Fields(text.String()), " "), max(width-7, 8))
		if (len(lines) > most || text.Len() < t.Content.Len()) && !full {
			more := fmt.Sprintf("%d more lines", len(lines)-most+1)
			if text.Len() < t.Content.Len() {
				more = "the rest of its " + sizeOf(t.Content.Len())
			}
			// The first note that fits the pane: a narrow one keeps it to
			// its line.
			notes := []string{fmt.Sprintf("… (%s: f shows every turn whole)", more), fmt.Sprintf("… %s: f shows every turn", more)}
			if text.Len() < t.Content.Len() {
				notes = append(notes, fmt.Sprintf("… %s in all: f shows it", sizeOf(t.Content.Len())))
			}
			note := notes[len(notes)-1]
			for _, n := range notes {
				if len(n) <= max(width-7, 8) {
					note = n
					break
				}
			}
			lines = append(lines[:min(most-1, len(lines))], st.faint.Render(note))
		}
		for j, l := range lines {
			head := "       "
			if j == 0 {
				head = fit(role, 7)
			}
			out = append(out, head+l)
		}
	}
	return out
}

// longTurn is the length of a turn beyond which the conversation reads
// only its head (turnLines): more than a pane's lines at any width.
const longTurn = 64 << 10

// sizeOf says a length of text in bytes, KB or MB.
func sizeOf(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%d MB", (n+1<<19)>>20)
	case n >= 1<<10:
		return fmt.Sprintf("%d KB", (n+1<<9)>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// benchSummary is the benchmark's own evaluators' scores of a whole run,
// named as the benchmark names them: "reward 0 · DB 0 · ACTION 1 …".
func benchSummary(a *analysis) string {
	var parts []string
	for _, b := range a.bench {
		name := benchShort(a.task.Bench, b.label)
		if !b.ok {
			parts = append(parts, name+" n/a")
			continue
		}
		parts = append(parts, name+" "+short(b.v))
	}
	return strings.Join(parts, " · ")
}

// benchShort is an evaluator's label without the benchmark's name it
// starts with: "partial ACTION" for tau2-bench's "tau2 partial ACTION".
func benchShort(bench, label string) string {
	if first, rest, ok := strings.Cut(label, " "); ok && first != "" && strings.HasPrefix(bench, first) {
		return rest
	}
	return label
}

// eventHead is the first lines of event k's detail: when, who, whether
// it succeeded, the action (where withAction) and why it failed, and
// the goal and state after it.
func (c *common) eventHead(a *analysis, k, width int, withAction bool) []string {
	st, log := c.st, a.log
	ev := &log.Events[k-1]
	var out []string
	who := st.actor(ev.Actor()).Render(string(ev.Actor()))
	if ev.Step >= 0 {
		who += st.muted.Render(fmt.Sprintf(" step %d", ev.Step+1))
	}
	res := st.ok.Render("ok")
	if !ev.OK {
		res = st.bad.Render("FAILED")
	}
	out = append(out, fmt.Sprintf("t=%d · %s · %s", ev.Time(), who, res))
	if withAction {
		for _, l := range wrap(describeAction(ev.Action), width) {
			out = append(out, st.bold.Render(l))
		}
		if !ev.OK {
			for _, l := range wrap("reason: "+log.Reason(ev), width) {
				out = append(out, st.bad.Render(l))
			}
		}
	}
	goals := log.Env.Goals()
	hash := ev.Hash.String()
	goal := "goal " + goals[ev.Goal].Version
	if k == 1 && ev.Goal != 0 || k > 1 && log.Events[k-2].Goal != ev.Goal {
		goal = fmt.Sprintf("the goal becomes %s (%d predicate%s)", goals[ev.Goal].Version, len(goals[ev.Goal].Preds), plural(len(goals[ev.Goal].Preds)))
	}
	out = append(out, st.faint.Render(fmt.Sprintf("%s · state %s", goal, hash[:min(12, len(hash))])))
	return out
}

// turnConversation is, where the run records no conversation but its
// domain's steps carry another actor's messages (BFCL's user turns), the
// conversation of the turn that event k is in, from the replay: the
// message that opened it, then event k's call and what it returned (the
// replay's output, or its failure's reason); the turn's earlier calls
// are the log's rows above the cursor. Nil elsewhere, and before the
// first message.
func (c *common) turnConversation(a *analysis, k, width int, full bool) []string {
	log := a.log
	if len(a.traj.Transcript) > 0 || a.task.messages == nil || k == 0 {
		return nil
	}
	open, name, text := -1, "", ""
	for seq := k - 1; seq >= 0 && open < 0; seq-- {
		ev := &log.Events[seq]
		if n, t, ok := a.task.message(ev.Actor(), ev.Action); ok {
			open, name, text = seq, n, t
		}
	}
	if open < 0 {
		return nil
	}
	turns := []model.Turn{{Role: "user", Content: model.TextOf(text)}}
	title, most := " · "+name+", the user's message", 6
	if ev := &log.Events[k-1]; open < k-1 && ev.Step >= 0 {
		n := 0
		for seq := open + 1; seq < k; seq++ {
			if log.Events[seq].Step >= 0 {
				n++
			}
		}
		out := log.Output(ev)
		if !ev.OK {
			out = log.Reason(ev)
		}
		turns = append(turns, model.Turn{Role: "assistant", Content: model.TextOf(describeAction(ev.Action))}, model.Turn{Role: "tool", Content: model.TextOf(out)})
		// The message shows whole at its own event; beside a call it
		// is context, and the call's result is what there is to read.
		title, most = fmt.Sprintf(" · %s, call %d of the turn", name, n), 3
	}
	return c.turnLines(turns, title, width, full, most)
}
