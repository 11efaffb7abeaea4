package tui

import (
	"fmt"
	"strings"

	"github.com/parthack/parthack/model"
)

// detailCache keeps the detail pane of the last cursor position: moving
// the log's own view or redrawing costs nothing.
type detailCache struct {
	a      *analysis
	k, w   int
	result []string
}

func (d *detailCache) lines(c *common, a *analysis, k, width int) []string {
	if d.a != a || d.k != k || d.w != width || d.result == nil {
		d.a, d.k, d.w = a, k, width
		d.result = c.detailLines(a, k, width)
	}
	return d.result
}

// detailLines describes cursor position k: the event, its typed diff as
// highlighted JSON, and the predicate table of the goal version active
// after it. Its cost depends on the event and the predicates, never on
// the log's length.
func (c *common) detailLines(a *analysis, k, width int) []string {
	st := c.st
	log := a.log
	goals := log.Env.Goals()
	g := a.goalAt(k)
	var out []string
	add := func(s ...string) { out = append(out, s...) }
	if k == 0 {
		add(st.bold.Render("initial snapshot") + st.muted.Render(" · goal "+goals[g].Version))
	} else {
		ev := &log.Events[k-1]
		who := st.actor(ev.Actor).Render(string(ev.Actor))
		if ev.Step >= 0 {
			who += st.muted.Render(fmt.Sprintf(" step %d", ev.Step+1))
		}
		res := st.ok.Render("ok")
		if !ev.OK {
			res = st.bad.Render("FAILED")
		}
		add(fmt.Sprintf("t=%d · %s · %s", ev.Time(), who, res))
		for _, l := range wrap(describeAction(ev.Action), width) {
			add(st.bold.Render(l))
		}
		if !ev.OK {
			for _, l := range wrap("reason: "+ev.Reason, width) {
				add(st.bad.Render(l))
			}
		}
		hash := ev.Hash.String()
		add(st.faint.Render(fmt.Sprintf("goal %s · state %s", goals[ev.Goal].Version, hash[:min(12, len(hash))])))
	}
	add("", st.paneTitle.Render("Typed diff"))
	switch {
	case k == 0:
		add(st.faint.Render("(the task's frozen initial state)"))
	case len(log.Events[k-1].Diff) == 0:
		add(st.faint.Render("(no change)"))
	default:
		for _, l := range c.hl.json(diffJSON(log.TypedDiff(&log.Events[k-1]))) {
			add(fit(l, width))
		}
	}
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
	for j := range preds {
		now := st.faint.Render("  ·")
		if cs>>uint(j)&1 == 1 {
			now = st.ok.Render("  ✓")
		}
		cause := "initial"
		causeSt := st.faint
		if seq := a.causeAt(g, j, k); seq >= 0 {
			actor := log.Events[seq].Actor
			cause, causeSt = fmt.Sprintf("%s @%d", actorShort(actor), seq+1), st.actor(actor)
		}
		fin := st.faint.Render("      - -")
		if final == g {
			fin = fmt.Sprintf("      %d %d", a.cert.CState[j], a.cert.CAgent[j])
		}
		add(fmt.Sprintf("%2d ", j+1) + fit(a.predText(g, j), textW) + fit(now, nowW) + fit(causeSt.Render(cause), causeW) + fit(fin, finalW))
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
	var wrapped []string
	for _, l := range out {
		wrapped = append(wrapped, wrap(l, width)...)
	}
	return wrapped
}

// diffJSON renders a typed diff as JSON grouped by entity:
//
//	{
//	  "ticket T1": {
//	    "assignee": {"before": null, "after": "U1"}
//	  }
//	}
func diffJSON(diff []model.CellDiff) string {
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
		fmt.Fprintf(&b, "%s%q: {\"before\": %s, \"after\": %s}", indent, field, d.Before, d.After)
	}
	if open != "" {
		b.WriteString("\n  }")
	}
	b.WriteString("\n}")
	return b.String()
}
