package tui

import (
	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/lipgloss"

	"github.com/parthack/parthack/model"
)

// theme names every colour the workbench uses by its role, each adaptive
// to light and dark backgrounds.
type theme struct {
	text, muted, faint, accent, border, focus lipgloss.AdaptiveColor
	agent, user, environment, system          lipgloss.AdaptiveColor
	ok, bad, warn, highlight, cursorBg        lipgloss.AdaptiveColor
}

var defaultTheme = theme{
	text:        lipgloss.AdaptiveColor{Light: "#1F1F24", Dark: "#E4E4EA"},
	muted:       lipgloss.AdaptiveColor{Light: "#5C5C66", Dark: "#A0A0AC"},
	faint:       lipgloss.AdaptiveColor{Light: "#A4A4AE", Dark: "#5E5E68"},
	accent:      lipgloss.AdaptiveColor{Light: "#5A3FC0", Dark: "#A995FF"},
	border:      lipgloss.AdaptiveColor{Light: "#C8C8D0", Dark: "#44444E"},
	focus:       lipgloss.AdaptiveColor{Light: "#5A3FC0", Dark: "#A995FF"},
	agent:       lipgloss.AdaptiveColor{Light: "#1D5FBF", Dark: "#6FB3FF"},
	user:        lipgloss.AdaptiveColor{Light: "#A3239B", Dark: "#F08AE8"},
	environment: lipgloss.AdaptiveColor{Light: "#9A5B00", Dark: "#F2B35E"},
	system:      lipgloss.AdaptiveColor{Light: "#4E6B55", Dark: "#9DC2A4"},
	ok:          lipgloss.AdaptiveColor{Light: "#1E7F3C", Dark: "#6DDB8D"},
	bad:         lipgloss.AdaptiveColor{Light: "#B3261E", Dark: "#FF7B72"},
	warn:        lipgloss.AdaptiveColor{Light: "#9A5B00", Dark: "#F2CC60"},
	highlight:   lipgloss.AdaptiveColor{Light: "#FFF1B8", Dark: "#4A3F10"},
	cursorBg:    lipgloss.AdaptiveColor{Light: "#E2DCFA", Dark: "#312A55"},
}

// styles is every lipgloss style of the workbench, built once from a
// theme and shared through the context.
type styles struct {
	title, subtitle, muted, faint, text, bold lipgloss.Style
	edge, edgeFocused                         lipgloss.Style
	paneTitle, paneTitleFocused               lipgloss.Style
	cursor, evidence                          lipgloss.Style
	ok, bad, warn, accent                     lipgloss.Style
	caption, status, statusErr                lipgloss.Style
	actors                                    map[model.Actor]lipgloss.Style
	help                                      help.Styles
}

func newStyles(t theme) *styles {
	s := &styles{}
	fg := func(c lipgloss.AdaptiveColor) lipgloss.Style { return lipgloss.NewStyle().Foreground(c) }
	s.text = fg(t.text)
	s.bold = fg(t.text).Bold(true)
	s.title = fg(t.accent).Bold(true)
	s.subtitle = fg(t.muted)
	s.muted = fg(t.muted)
	s.faint = fg(t.faint)
	s.accent = fg(t.accent)
	s.edge = fg(t.border)
	s.edgeFocused = fg(t.focus)
	s.paneTitle = fg(t.muted).Bold(true)
	s.paneTitleFocused = fg(t.focus).Bold(true)
	s.cursor = lipgloss.NewStyle().Background(t.cursorBg).Bold(true)
	s.evidence = lipgloss.NewStyle().Background(t.highlight).Foreground(t.bad).Bold(true)
	s.ok = fg(t.ok)
	s.bad = fg(t.bad)
	s.warn = fg(t.warn).Bold(true)
	s.caption = lipgloss.NewStyle().Foreground(t.text).Background(t.cursorBg).Bold(true).Padding(0, 1)
	s.status = fg(t.muted)
	s.statusErr = fg(t.bad).Bold(true)
	s.actors = map[model.Actor]lipgloss.Style{
		model.ActorAgent:       fg(t.agent),
		model.ActorUser:        fg(t.user).Bold(true),
		model.ActorEnvironment: fg(t.environment).Bold(true),
		model.ActorSystem:      fg(t.system).Bold(true),
		model.ActorInitial:     fg(t.faint),
	}
	key, desc, sep := fg(t.accent), fg(t.muted), fg(t.faint)
	s.help = help.Styles{ShortKey: key, ShortDesc: desc, ShortSeparator: sep, Ellipsis: sep, FullKey: key, FullDesc: desc, FullSeparator: sep}
	return s
}

// actor styles an actor's name in its own colour.
func (s *styles) actor(a model.Actor) lipgloss.Style {
	if st, ok := s.actors[a]; ok {
		return st
	}
	return s.text
}
