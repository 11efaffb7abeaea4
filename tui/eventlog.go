package tui

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/lipgloss"

	"github.com/parthack/parthack/model"
)

// rowMark says how a log row is emphasised.
type rowMark int

const (
	markNone rowMark = iota
	markCursor
	markEvidence
)

// actorShort fits an actor class in five cells.
func actorShort(a model.Actor) string {
	switch a {
	case model.ActorEnvironment:
		return "env"
	case model.ActorSystem:
		return "sys"
	}
	return string(a)
}

// eventRow renders cursor position k of a's log (0 is the initial
// snapshot, k the state after event k) as exactly width cells. Failed
// steps carry ✗ and their reason; events that changed nothing carry ·.
func (c *common) eventRow(a *analysis, k, width int, mark rowMark) string {
	digits := len(strconv.Itoa(a.events()))
	lead := " "
	switch mark {
	case markCursor:
		lead = "▸"
	case markEvidence:
		lead = "!"
	}
	if k == 0 {
		text := fmt.Sprintf("%s%*d   initial snapshot", lead, digits, 0)
		if mark != markNone {
			return c.markStyle(mark).Render(fit(text, width))
		}
		return fit(c.st.faint.Render(text), width)
	}
	ev := &a.log.Events[k-1]
	status, stStyle := "✓", c.st.ok
	switch {
	case !ev.OK:
		status, stStyle = "✗", c.st.bad
	case ev.DiffLen() == 0:
		status, stStyle = "·", c.st.faint
	}
	what := a.task.describeStep(ev.Actor(), ev.Action)
	if !ev.OK {
		what += " — " + a.log.Reason(ev)
	}
	actor := fmt.Sprintf("%-5s", actorShort(ev.Actor()))
	if mark != markNone {
		text := fmt.Sprintf("%s%*d %s %s %s", lead, digits, k, status, actor, what)
		return c.markStyle(mark).Render(fit(text, width))
	}
	whatSt := c.st.text
	if !ev.OK {
		whatSt = c.st.bad
	}
	var b strings.Builder
	b.WriteString(lead)
	b.WriteString(c.st.faint.Render(fmt.Sprintf("%*d", digits, k)))
	b.WriteByte(' ')
	b.WriteString(stStyle.Render(status))
	b.WriteByte(' ')
	b.WriteString(c.st.actor(ev.Actor()).Render(actor))
	b.WriteByte(' ')
	// Truncate before styling: the row stays one cheap render whatever
	// the action's length.
	room := width - 1 - digits - 1 - 2 - 6
	b.WriteString(whatSt.Render(truncate(what, room)))
	return fit(b.String(), width)
}

func (c *common) markStyle(m rowMark) lipgloss.Style {
	if m == markEvidence {
		return c.st.evidence
	}
	return c.st.cursor
}

// rowCache keeps rendered rows of one log at one width: stepping the
// cursor re-renders two rows, not the whole visible window.
type rowCache struct {
	a     *analysis
	width int
	rows  map[int]string
}

// maxRowCache bounds the cache; it is dropped whole when full.
const maxRowCache = 4096

func (rc *rowCache) row(c *common, a *analysis, k, width int) string {
	if rc.a != a || rc.width != width || len(rc.rows) >= maxRowCache {
		rc.a, rc.width, rc.rows = a, width, map[int]string{}
	}
	r, ok := rc.rows[k]
	if !ok {
		r = c.eventRow(a, k, width, markNone)
		rc.rows[k] = r
	}
	return r
}

// truncate shortens plain text to width cells.
func truncate(s string, width int) string {
	if width <= 0 {
		return ""
	}
	if len(s) <= width {
		return s
	}
	return fit(s, width)
}

// listWindow returns the first visible row of a list of n rows shown
// height at a time, moved the least from top so that cursor is visible.
func listWindow(top, cursor, n, height int) int {
	if height <= 0 {
		return 0
	}
	if cursor < top {
		top = cursor
	}
	if cursor >= top+height {
		top = cursor - height + 1
	}
	return clamp(top, 0, max(n-height, 0))
}

func clamp(v, lo, hi int) int {
	return max(lo, min(v, hi))
}
