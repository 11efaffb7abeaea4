package tui

import (
	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// prompt is a small form of labelled text inputs (save, export, import,
// a note): enter submits from any field, tab and shift+tab move between
// fields, esc cancels.
type prompt struct {
	c      *common
	title  string
	labels []string
	inputs []textinput.Model
	focus  int
}

// field is one input of a prompt: its label and initial value.
type field struct{ label, value string }

// newInput makes a text input with a steady cursor: no blink ticks, so
// golden screens and tests stay deterministic.
func newInput(value string) textinput.Model {
	in := textinput.New()
	in.Prompt = ""
	in.Cursor.SetMode(cursor.CursorStatic)
	in.SetValue(value)
	in.CursorEnd()
	return in
}

// inputView renders a text input. Without colour (NO_COLOR, a
// monochrome terminal) the input's reverse-video cursor does not show, so
// a focused input draws its cursor as a bar instead.
func inputView(in textinput.Model) string {
	if !in.Focused() || lipgloss.ColorProfile() != termenv.Ascii {
		return in.View()
	}
	v := []rune(in.Value())
	if len(v) == 0 {
		return "▏" + in.Placeholder
	}
	if in.Width > 0 && len(v) >= in.Width {
		return in.View() // scrolled: keep the input's own window
	}
	pos := min(in.Position(), len(v))
	return string(v[:pos]) + "▏" + string(v[pos:])
}

func newPrompt(c *common, title string, fields ...field) *prompt {
	p := &prompt{c: c, title: title}
	for _, f := range fields {
		p.labels = append(p.labels, f.label)
		p.inputs = append(p.inputs, newInput(f.value))
	}
	p.inputs[0].Focus()
	return p
}

// value returns input i's text.
func (p *prompt) value(i int) string { return p.inputs[i].Value() }

// update handles a key: done reports a submit, cancel an esc.
func (p *prompt) update(msg tea.KeyMsg) (done, cancel bool, cmd tea.Cmd) {
	k := p.c.keys
	switch {
	case key.Matches(msg, k.Cancel):
		return false, true, nil
	case key.Matches(msg, k.Submit):
		return true, false, nil
	case msg.Type == tea.KeyTab || msg.Type == tea.KeyDown:
		p.move(1)
		return false, false, nil
	case msg.Type == tea.KeyShiftTab || msg.Type == tea.KeyUp:
		p.move(-1)
		return false, false, nil
	}
	p.inputs[p.focus], cmd = p.inputs[p.focus].Update(msg)
	return false, false, cmd
}

func (p *prompt) move(d int) {
	p.inputs[p.focus].Blur()
	p.focus = (p.focus + d + len(p.inputs)) % len(p.inputs)
	p.inputs[p.focus].Focus()
}

// height is the number of lines view returns.
func (p *prompt) height() int { return len(p.inputs) + 3 }

func (p *prompt) view(width int) string {
	labelW := 0
	for _, l := range p.labels {
		labelW = max(labelW, len(l))
	}
	body := make([]string, 0, len(p.inputs)+1)
	for i, in := range p.inputs {
		in.Width = max(width-labelW-6, 4)
		label := p.c.st.muted.Render(fit(p.labels[i], labelW))
		if i == p.focus {
			label = p.c.st.accent.Render(fit(p.labels[i], labelW))
		}
		body = append(body, " "+label+"  "+inputView(in))
	}
	body = append(body, p.c.st.faint.Render(" enter confirm · tab next field · esc cancel"))
	return p.c.box(p.title, body, width, p.height(), true)
}

func (p *prompt) keys() []key.Binding {
	k := p.c.keys
	return []key.Binding{k.Submit, k.FieldNext, k.Cancel}
}
