package tui

import (
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/x/ansi"
)

// common is the context every screen shares: the data, the store's path,
// styles, keys and the highlighter. It holds no per-screen state.
type common struct {
	ws     *workspace
	dbPath string
	st     *styles
	keys   *keyMap
	hl     *highlighter
	// navPending counts the pages asked to open whose message has not
	// arrived yet (see navigate).
	navPending int
}

// pane is what every screen of the workbench implements besides its own
// typed update: a size, a view, the keys that work where its focus is,
// whether a text input has the focus (then keys go only to it), and
// whether it is still loading what it shows (then the root holds the
// keys typed meanwhile for it).
type pane interface {
	help.KeyMap
	SetSize(width, height int)
	View() string
	Typing() bool
	Loading() bool
}

// fit truncates s to width cells and pads it with spaces to exactly width.
func fit(s string, width int) string {
	if width <= 0 {
		return ""
	}
	w := ansi.StringWidth(s)
	if w > width {
		s = ansi.Truncate(s, width, "…")
		w = ansi.StringWidth(s)
	}
	if w < width {
		s += strings.Repeat(" ", width-w)
	}
	return s
}

// frame is the set of edge characters of a box.
type frame struct{ tl, h, tr, v, bl, br string }

var (
	frameRounded = frame{"╭", "─", "╮", "│", "╰", "╯"}
	// A focused box is drawn heavy as well as in the focus colour, so
	// focus shows without colour (NO_COLOR, monochrome terminals).
	frameFocused = frame{"┏", "━", "┓", "┃", "┗", "┛"}
)

// box draws a frame of exactly width × height cells with title in its top
// edge and body's first lines inside; focused frames are heavy and use
// the focus colour.
func (c *common) box(title string, body []string, width, height int, focused bool) string {
	if width < 4 || height < 2 {
		return ""
	}
	edge, titleSt, fr := c.st.edge, c.st.paneTitle, frameRounded
	if focused {
		edge, titleSt, fr = c.st.edgeFocused, c.st.paneTitleFocused, frameFocused
	}
	inner := width - 2
	var b strings.Builder
	top, plain := "", ""
	if title != "" {
		t := ansi.Truncate(title, max(inner-4, 0), "…")
		top, plain = edge.Render(fr.h+" ")+titleSt.Render(t)+" ", fr.h+" "+t+" "
	}
	// Edges render once per frame, not once per line.
	side := edge.Render(fr.v)
	b.WriteString(edge.Render(fr.tl))
	b.WriteString(fitEdge(top, plain, inner, fr.h, edge.Render))
	b.WriteString(edge.Render(fr.tr))
	for i := 0; i < height-2; i++ {
		line := ""
		if i < len(body) {
			line = body[i]
		}
		b.WriteByte('\n')
		b.WriteString(side + fit(line, inner) + side)
	}
	b.WriteByte('\n')
	b.WriteString(edge.Render(fr.bl + strings.Repeat(fr.h, inner) + fr.br))
	return b.String()
}

// fitEdge pads a rendered title to the frame's inner width with border dashes.
func fitEdge(rendered, plain string, inner int, dash string, paint func(...string) string) string {
	w := ansi.StringWidth(plain)
	if w > inner {
		return ansi.Truncate(rendered, inner, "")
	}
	if plain == "" {
		return paint(strings.Repeat(dash, inner))
	}
	return rendered + paint(strings.Repeat(dash, inner-w))
}

// joinColumns puts blocks of lines side by side; each block is already
// padded to its width.
func joinColumns(blocks ...string) string {
	split := make([][]string, len(blocks))
	rows := 0
	for i, b := range blocks {
		split[i] = strings.Split(b, "\n")
		rows = max(rows, len(split[i]))
	}
	var b strings.Builder
	for r := 0; r < rows; r++ {
		if r > 0 {
			b.WriteByte('\n')
		}
		for _, lines := range split {
			if r < len(lines) {
				b.WriteString(lines[r])
			}
		}
	}
	return b.String()
}

// padLines returns exactly height lines of width cells.
func padLines(lines []string, width, height int) string {
	var b strings.Builder
	for i := 0; i < height; i++ {
		if i > 0 {
			b.WriteByte('\n')
		}
		line := ""
		if i < len(lines) {
			line = lines[i]
		}
		b.WriteString(fit(line, width))
	}
	return b.String()
}

// wrap breaks text into lines of at most width cells.
func wrap(text string, width int) []string {
	if width <= 0 {
		return nil
	}
	// ansi.Wrap breaks after every hyphen; dates, ids and model names
	// ("2024-05-21", "gpt-4.1-mini") break at spaces only, as a whole
	// word does, unless one is longer than the line.
	if strings.Contains(text, keptHyphen) {
		return strings.Split(ansi.Wrap(text, width, " "), "\n")
	}
	wrapped := ansi.Wrap(strings.ReplaceAll(text, "-", keptHyphen), width, " ")
	return strings.Split(strings.ReplaceAll(wrapped, keptHyphen, "-"), "\n")
}

// keptHyphen stands in for '-' while a text is wrapped: a non-breaking
// hyphen, as wide as the hyphen.
const keptHyphen = "\u2011"
