package tui

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/parthack/parthack/domains"
	"github.com/parthack/parthack/model"
)

// callForm builds one tool call of a real domain's task: the tool, then
// each of its arguments as a field of its type, offering the values the
// task makes sensible (ctrl+n / ctrl+p cycle through them). Arrays and
// objects are JSON text, checked when the form is applied.
type callForm struct {
	c       *common
	task    *model.Task
	tools   []domains.Tool
	values  argValues
	at      int  // where the call goes
	replace bool // edit the call at `at` instead of inserting
	rows    []callRow
	focus   int
	err     string
}

type callRow struct {
	input textinput.Model
	param domains.Param // empty Name for the tool row
	// kept is an argument the call passes that its tool does not take
	// (an imported call): shown, marked, and passed on unless cleared.
	kept *model.Value
	// prefix is what was last typed in the field: ctrl+n and ctrl+p
	// offer the values that start with it.
	prefix string
}

func newCallForm(c *common, task *model.Task, tools []domains.Tool, values argValues, at int, replace bool, from *model.Action) *callForm {
	f := &callForm{c: c, task: task, tools: tools, values: values, at: at, replace: replace}
	// A new call starts from its neighbour's tool, not its arguments.
	tool := ""
	if from != nil && from.Op == model.OpCall {
		tool = from.Tool
	} else if len(tools) > 0 {
		tool = exampleTool(tools, values)
	}
	f.rows = []callRow{{input: newInput(tool)}}
	f.syncRows()
	if from != nil && from.Op == model.OpCall && replace {
		ms, _ := model.Members(from.Args)
		for _, m := range ms {
			i := slices.IndexFunc(f.rows, func(r callRow) bool { return r.param.Name == m.Field && r.kept == nil })
			if i > 0 {
				text := m.Value.String()
				if f.rows[i].param.Kind == "string" {
					text = formatArg(m.Value)
				}
				f.rows[i].input.SetValue(text)
				continue
			}
			v := m.Value
			f.rows = append(f.rows, callRow{input: newInput(v.String()), param: domains.Param{Name: m.Field}, kept: &v})
		}
	}
	f.rows[0].input.Focus()
	return f
}

// exampleTool is the tool a new call starts from: the first that writes
// and has a value offered for its first argument.
func exampleTool(tools []domains.Tool, values argValues) string {
	for _, t := range tools {
		if t.Writes && len(t.Params) > 0 && len(values[t.Params[0].Name]) > 0 {
			return t.Name
		}
	}
	return tools[0].Name
}

// syncRows rebuilds the argument rows for the tool now entered, keeping
// what was typed for an argument of the same name.
func (f *callForm) syncRows() {
	typed := map[string]string{}
	var kept []callRow
	for _, r := range f.rows[1:] {
		if r.kept != nil {
			kept = append(kept, r)
			continue
		}
		typed[r.param.Name] = r.input.Value()
	}
	f.rows = f.rows[:1]
	if tool, ok := toolNamed(f.tools, strings.TrimSpace(f.rows[0].input.Value())); ok {
		for _, p := range tool.Params {
			f.rows = append(f.rows, callRow{input: newInput(typed[p.Name]), param: p})
		}
	}
	f.rows = append(f.rows, kept...)
	f.focus = min(f.focus, len(f.rows)-1)
}

// offered lists a row's values: the tools, or the argument's values.
func (f *callForm) offered(r *callRow) []string {
	switch {
	case r.param.Name == "":
		return toolNames(f.tools)
	case r.param.Kind == "boolean":
		return []string{"true", "false"}
	}
	return f.values[r.param.Name]
}

// update handles a key (see updateForm).
func (f *callForm) update(msg tea.KeyMsg) (st *model.Step, cancel bool, cmd tea.Cmd) {
	return updateForm(f, f.c.keys, msg)
}

// edit gives the focused field a key that is not the form's own.
func (f *callForm) edit(msg tea.KeyMsg) (cmd tea.Cmd) {
	f.rows[f.focus].input, cmd = f.rows[f.focus].input.Update(msg)
	f.rows[f.focus].prefix = f.rows[f.focus].input.Value()
	f.err = ""
	if f.focus == 0 {
		f.syncRows()
	}
	return cmd
}

func (f *callForm) fail(err error) { f.err = err.Error() }

func (f *callForm) move(d int) {
	f.rows[f.focus].input.Blur()
	f.focus = (f.focus + d + len(f.rows)) % len(f.rows)
	f.rows[f.focus].input.Focus()
}

// pick sets the focused input to the next value offered that starts
// with what was typed there; an argument's values start with "" (not
// passed) when nothing was typed.
func (f *callForm) pick(d int) {
	r := &f.rows[f.focus]
	var options []string
	if f.focus > 0 && r.prefix == "" {
		options = append(options, "")
	}
	for _, o := range f.offered(r) {
		if strings.HasPrefix(o, r.prefix) {
			options = append(options, o)
		}
	}
	if len(options) == 0 {
		f.err = fmt.Sprintf("no value offered starts with %q (ctrl+u clears the field)", r.prefix)
		return
	}
	i := slices.Index(options, r.input.Value())
	if i < 0 && d < 0 {
		i = 0
	}
	i = ((i+d)%len(options) + len(options)) % len(options)
	r.input.SetValue(options[i])
	r.input.CursorEnd()
	f.err = ""
	if f.focus == 0 {
		f.syncRows()
	}
}

// build turns the form into a call, or says which argument is wrong and
// where in its text. An argument left empty is not passed.
func (f *callForm) build() (*model.Step, error) {
	name := strings.TrimSpace(f.rows[0].input.Value())
	tool, ok := toolNamed(f.tools, name)
	if why := othersTool(f.task, name); !ok && why != "" {
		return nil, errors.New(why)
	}
	if !ok {
		return nil, fmt.Errorf("no tool %q in %s (tools: %s)", name, f.task.Domain.Name(), strings.Join(toolNames(f.tools), ", "))
	}
	var members []model.Assign
	for _, r := range f.rows[1:] {
		text := strings.TrimSpace(r.input.Value())
		if text == "" {
			continue
		}
		if r.kept != nil {
			v := *r.kept
			if text != v.String() {
				var err error
				if v, err = parseArg("", text); err != nil {
					return nil, fmt.Errorf("%s: %v", r.param.Name, err)
				}
			}
			members = append(members, model.Assign{Field: r.param.Name, Value: v})
			continue
		}
		v, err := parseArg(r.param.Kind, text)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", r.param.Name, err)
		}
		members = append(members, model.Assign{Field: r.param.Name, Value: v})
	}
	return &model.Step{Action: model.Action{Op: model.OpCall, Tool: tool.Name, Args: buildArgs(members)}}, nil
}

func (f *callForm) title() string {
	if f.replace {
		return fmt.Sprintf("Edit call %d", f.at+1)
	}
	return fmt.Sprintf("New call %d", f.at+1)
}

// view is the form in height lines at most: on a short pane it scrolls
// to keep the focused argument and its hint in sight.
func (f *callForm) view(width, height int) []string {
	st := f.c.st
	labelW := 4
	for _, r := range f.rows {
		labelW = max(labelW, len(r.param.Name))
	}
	// A narrow pane cuts long names from the middle and puts the hints
	// under the whole row.
	labelW = min(labelW, max(width*2/5, 4))
	indent := strings.Repeat(" ", labelW+3)
	hintW := width - labelW - 3
	if width < 60 {
		indent, hintW = "   ", width-3
	}
	out := []string{st.bold.Render(f.title())}
	focusFrom, focusTo := 0, 0
	for i := range f.rows {
		r := &f.rows[i]
		name := r.param.Name
		if i == 0 {
			name = "tool"
		}
		r.input.Width = max(width-labelW-4, 4)
		name = fit(shortenMiddle(name, labelW), labelW)
		label := st.muted.Render(name)
		switch {
		case r.kept != nil:
			label = st.bad.Render(name)
		case i == f.focus:
			label = st.accent.Render(name)
		}
		if i == f.focus {
			focusFrom = len(out)
		}
		out = append(out, " "+label+"  "+inputView(r.input))
		if r.kept != nil {
			for _, l := range wrap("✗ not an argument of "+strings.TrimSpace(f.rows[0].input.Value())+": kept as imported, clear it to remove it", hintW) {
				out = append(out, indent+st.bad.Render(l))
			}
		}
		if i != f.focus {
			continue
		}
		hint := ""
		vs := f.offered(r)
		if i == 0 {
			// A domain has a dozen tools or more: the hint names the
			// ones that start with what was typed, as ctrl+n offers
			// them, as few as the other rows'.
			hint = fmt.Sprintf("one of the domain's %d tools", len(vs))
			if typed := strings.TrimSpace(r.prefix); typed != "" {
				var match []string
				for _, v := range vs {
					if strings.HasPrefix(v, typed) {
						match = append(match, v)
					}
				}
				hint += fmt.Sprintf(", %d starting %q", len(match), typed)
				vs = match
			}
		} else {
			hint = kindHint(r.param.Kind) + " · empty: not passed"
		}
		if len(vs) > 0 {
			shown := make([]string, 0, 4)
			for _, v := range vs[:min(len(vs), 4)] {
				shown = append(shown, shortenMiddle(v, max(hintW-4, 16)))
			}
			more := ""
			if len(vs) > 4 {
				more = fmt.Sprintf(" · … %d more", len(vs)-4)
			}
			hint += " · ctrl+n offers " + strings.Join(shown, " · ") + more
		}
		for _, l := range wrap(hint, hintW) {
			out = append(out, indent+st.faint.Render(l))
		}
		focusTo = len(out)
	}
	if f.err != "" {
		// The error shows whole, in place of the rows that do not fit.
		msg := wrap(st.statusErr.Render(f.err), width)
		return append(window(out, focusFrom, focusTo, max(height-len(msg), 1)), msg...)
	}
	return window(out, focusFrom, focusTo, height)
}

// window keeps at most height of lines, the title first, scrolled so
// that lines from..to (the focused row and its hint) show.
func window(lines []string, from, to, height int) []string {
	if len(lines) <= height || height < 2 {
		return lines
	}
	rows := height - 1
	top := clamp(to-rows, 1, len(lines)-rows)
	top = max(min(top, from), 1)
	return append([]string{lines[0]}, lines[top:min(top+rows, len(lines))]...)
}

func (f *callForm) keys() []key.Binding {
	k := f.c.keys
	return []key.Binding{k.Submit, k.FieldNext, k.PickNext, k.PickPrev, k.Cancel}
}
