package tui

import (
	"fmt"
	"strings"
)

// lane is one series of the progress-over-time chart: a label and its
// value after k events, for k = 0..n.
type lane struct {
	label  string
	values []float64
}

// blocks are the eight heights of a one-row sparkline; zero is the thin
// baseline, so an empty lane is still visible.
var blocks = []rune("▁▂▃▄▅▆▇█")

// chartCache holds the series bucketed to the chart's width: the view of
// any cursor position reads width values per lane, whatever the length of
// the log. It is rebuilt only when the analysis or the width changes.
type chartCache struct {
	key   *analysis
	width int
	lanes []lane
	bars  [][]rune // bars[l][c]: the block drawing the highest value of lane l in column c
	label []string // each lane's label, padded
}

// bucket returns the range of positions column c of width covers.
func bucket(c, width, points int) (lo, hi int) {
	lo = c * points / width
	hi = max((c+1)*points/width, lo+1)
	return lo, min(hi, points)
}

// column returns the first column of width that shows position k: when
// there are fewer positions than columns, one position spans several.
func column(k, width, points int) int {
	c := min(k*width/points, width-1)
	for c > 0 {
		if _, hi := bucket(c-1, width, points); hi <= k {
			break
		}
		c--
	}
	for c < width-1 {
		if _, hi := bucket(c, width, points); hi > k {
			break
		}
		c++
	}
	return c
}

func (cc *chartCache) ensure(a *analysis, lanes []lane, width int) {
	// The lanes are rebuilt per frame but their series are the analysis's
	// own: the analysis, the width and the lane count identify them.
	if cc.key == a && cc.width == width && len(cc.lanes) == len(lanes) {
		return
	}
	cc.key, cc.width, cc.lanes = a, width, lanes
	cc.bars = make([][]rune, len(lanes))
	cc.label = make([]string, len(lanes))
	for l, ln := range lanes {
		points := len(ln.values)
		bars := make([]rune, width)
		for c := range bars {
			lo, hi := bucket(c, width, points)
			m := ln.values[lo]
			for _, v := range ln.values[lo:hi] {
				m = max(m, v)
			}
			bars[c] = blocks[min(int(m*float64(len(blocks)-1)+0.5), len(blocks)-1)]
		}
		cc.bars[l] = bars
		cc.label[l] = fit(ln.label, labelW-1) + " "
	}
}

// chartTitle is a chart's title; it says how many of P_state and the
// evaluators' lanes a short screen leaves out ("+3 more on a
// taller screen"): the chart is cut, and says so.
func (c *common) chartTitle(title string, shown int) string {
	if more := 1 + len(c.ws.evaluators) - shown; more > 0 {
		return fmt.Sprintf("%s · +%d more on a taller screen", title, more)
	}
	return title
}

// chartLanes lists what the chart shows: certified P_state first, then
// each evaluator in order, as many as fit.
func chartLanes(ws *workspace, a *analysis, fit int) []lane {
	// When not every evaluator fits, Historical Milestone and CSPS come
	// first: "historical rises while CSPS stays" is what the chart is for.
	pick := make([]bool, len(ws.evaluators))
	room := fit - 1
	for _, name := range []string{"historical_milestone", "csps"} {
		if i := scoreIndex(ws, name); i >= 0 && room > 0 {
			pick[i], room = true, room-1
		}
	}
	for i := range pick {
		if !pick[i] && room > 0 {
			pick[i], room = true, room-1
		}
	}
	lanes := []lane{{"P_state", a.pstate}}
	for i, e := range ws.evaluators {
		if pick[i] {
			lanes = append(lanes, lane{e.Label, a.series[i]})
		}
	}
	return lanes
}

// Widths of the chart's label and value columns.
const labelW, valueW = 21, 12

// chart renders the lanes at the given inner width with the cursor's
// columns marked, and a caret row under it. Every line is exactly width
// cells; the cost depends on the width and the lane count only.
func (c *common) chart(cc *chartCache, a *analysis, lanes []lane, cursor, width int) []string {
	plot := width - labelW - valueW
	if plot < 4 {
		return nil
	}
	cc.ensure(a, lanes, plot)
	points := len(lanes[0].values)
	cur := column(cursor, plot, points)
	end := cur + 1
	for end < plot {
		if lo, _ := bucket(end, plot, points); lo > cursor {
			break
		}
		end++
	}
	out := make([]string, 0, len(lanes)+1)
	for l, ln := range lanes {
		st := c.st.accent
		if l == 0 {
			st = c.st.ok
		}
		bars := cc.bars[l]
		out = append(out, c.st.muted.Render(cc.label[l])+st.Render(string(bars[:cur]))+c.st.cursor.Render(string(bars[cur:end]))+
			st.Render(string(bars[end:]))+fmt.Sprintf(" %4.2f → %4.2f", ln.values[cursor], ln.values[points-1]))
	}
	label := fmt.Sprintf("after %d event%s", cursor, plural(cursor))
	caret := strings.Repeat(" ", labelW+cur) + "▲ " + label
	if labelW+cur+2+len(label) > width {
		caret = strings.Repeat(" ", max(labelW+cur-len(label)-1, 0)) + label + " ▲"
	}
	out = append(out, c.st.faint.Render(fit(caret, width)))
	return out
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
