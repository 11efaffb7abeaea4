package tui

import (
	"embed"
	"strings"
	"sync"

	"github.com/alecthomas/chroma/v2"
	"github.com/charmbracelet/lipgloss"
)

// jsonLexer is chroma's JSON lexer, its definition as chroma v2.27.0
// ships it (lexers/embedded/json.xml; MIT, chroma/COPYING): chroma's
// lexers package reads all its 300 definitions when a program starts,
// 8 ms of every command's start, and the workbench needs this one.
//
//go:embed chroma/json.xml
var jsonLexer embed.FS

// highlighter colours JSON with chroma's lexer and the workbench's own
// adaptive palette (so highlighting follows the theme, light or dark, and
// disappears under a colourless profile). Rendered lines are cached by
// source text: a cursor revisiting an event costs a map lookup.
type highlighter struct {
	lexer  chroma.Lexer
	styles map[chroma.TokenType]lipgloss.Style
	mu     sync.Mutex
	cache  map[string][]string
}

// maxHighlightCache bounds the cache; it is dropped whole when full.
const maxHighlightCache = 512

func newHighlighter(t theme) *highlighter {
	l := chroma.MustNewXMLLexer(jsonLexer, "chroma/json.xml")
	fg := func(c lipgloss.AdaptiveColor) lipgloss.Style { return lipgloss.NewStyle().Foreground(c) }
	return &highlighter{
		lexer: chroma.Coalesce(l),
		styles: map[chroma.TokenType]lipgloss.Style{
			chroma.NameTag:         fg(t.accent),
			chroma.LiteralString:   fg(t.ok),
			chroma.LiteralNumber:   fg(t.environment),
			chroma.KeywordConstant: fg(t.user),
			chroma.Punctuation:     fg(t.muted),
		},
		cache: map[string][]string{},
	}
}

// json returns src highlighted, one string per line.
func (h *highlighter) json(src string) []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	if lines, ok := h.cache[src]; ok {
		return lines
	}
	lines := h.render(src)
	if len(h.cache) >= maxHighlightCache {
		h.cache = map[string][]string{}
	}
	h.cache[src] = lines
	return lines
}

func (h *highlighter) render(src string) []string {
	it, err := h.lexer.Tokenise(nil, src)
	if err != nil {
		return strings.Split(src, "\n")
	}
	var b strings.Builder
	for tok := it(); tok != chroma.EOF; tok = it() {
		st, ok := h.styles[tok.Type]
		if !ok {
			st, ok = h.styles[tok.Type.Category()]
		}
		if !ok {
			st, ok = h.styles[tok.Type.SubCategory()]
		}
		// Styles apply per line so every line stands on its own when the
		// view slices or truncates it.
		for i, part := range strings.Split(tok.Value, "\n") {
			if i > 0 {
				b.WriteByte('\n')
			}
			if ok && part != "" && strings.TrimSpace(part) != "" {
				b.WriteString(st.Render(part))
			} else {
				b.WriteString(part)
			}
		}
	}
	return strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
}
