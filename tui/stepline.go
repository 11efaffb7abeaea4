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

// stepLine is the one-line step entry: a step typed the way describeAction
// prints it,
//
//	update ticket T102 queue=network status=pending tags=vpn-outage,escalated
//
// with tab completing the op, the type, the id, field names and allowed
// values from the task's schema and action alphabet, and the entity's
// current value shown beside each field. Values read as in the form: bare
// words, null, "quoted text", [JSON lists] or a,comma,list.
type stepLine struct {
	c     *common
	task  *model.Task
	at    int // where the step goes
	input textinput.Model
	// current gives an entity's field values in the state the step
	// starts from; nil when the candidate is not replayed yet.
	current func(typ, id string) map[string]string
	err     string
	// tools, on a real domain's task, make the line a tool call,
	//
	//	update_reservation_passengers reservation_id=FQ8APE passengers=[…]
	//
	// with tab completing the tool, its arguments (each with its type)
	// and the values the task makes sensible for each.
	tools  []domains.Tool
	values argValues
	// cycle is what tab cycles through once the candidates' common
	// prefix is typed (long JSON values share long prefixes): the line
	// before the token, the candidates, and the one shown.
	cycleBase string
	cycle     []string
	cycleAt   int
}

func newStepLine(c *common, task *model.Task, at int, current func(typ, id string) map[string]string) *stepLine {
	l := &stepLine{c: c, task: task, at: at, input: newInput(""), current: current}
	l.input.Placeholder = examplePlaceholder(task) + "   (tab completes)"
	l.input.Focus()
	return l
}

// newCallLine is the line that types a call of one of tools.
func newCallLine(c *common, task *model.Task, at int, tools []domains.Tool, values argValues) *stepLine {
	l := &stepLine{c: c, task: task, at: at, input: newInput(""), tools: tools, values: values}
	l.input.Placeholder = exampleCall(tools, values) + "   (tab completes)"
	l.input.Focus()
	return l
}

// exampleCall is a call of the task at hand, as the line reads it: its
// first tool that writes, with the first value offered for each of its
// arguments that has one.
func exampleCall(tools []domains.Tool, values argValues) string {
	for _, t := range tools {
		if !t.Writes || len(t.Params) == 0 || len(values[t.Params[0].Name]) == 0 {
			continue
		}
		line := t.Name
		for _, p := range t.Params {
			if vs := values[p.Name]; len(vs) > 0 && len(vs[0]) <= 24 {
				line += " " + p.Name + "=" + vs[0]
			}
		}
		return line
	}
	return "tool argument=value …"
}

// examplePlaceholder is a step of the task at hand, as the line reads
// it: its first type the agent may update, that type's first id, and
// its first writable field set to its first allowed value.
func examplePlaceholder(task *model.Task) string {
	for _, typ := range stepTypesFor(task, model.OpUpdate) {
		ids := task.Alphabet[typ].IDs
		if len(ids) == 0 {
			continue
		}
		line := "update " + typ + " " + ids[0]
		for _, fd := range writable(task, typ) {
			if vs := allowedValues(task, typ, fd); len(vs) > 0 {
				return line + " " + fd.Name + "=" + vs[0]
			}
		}
		return line
	}
	return "op type id field=value"
}

// tokens splits s at spaces outside quotes and brackets; open reports
// whether s ends inside a token (no trailing space).
func tokens(s string) (out []string, open bool) {
	var b strings.Builder
	quote, escaped, depth := false, false, 0
	for _, r := range s {
		switch {
		case escaped:
			escaped = false
		case r == '\\' && quote:
			escaped = true
		case r == '"':
			quote = !quote
		case (r == '[' || r == '{') && !quote:
			depth++
		case (r == ']' || r == '}') && !quote && depth > 0:
			depth--
		case r == ' ' && !quote && depth == 0:
			if b.Len() > 0 {
				out = append(out, b.String())
				b.Reset()
			}
			continue
		}
		b.WriteRune(r)
	}
	if b.Len() > 0 {
		return append(out, b.String()), true
	}
	return out, false
}

// stepTypes lists the entity types the agent may act on.
func stepTypes(task *model.Task) []string {
	var out []string
	for _, et := range task.Schema.Types {
		if _, ok := task.Alphabet[et.Name]; ok || (len(task.Alphabet) == 0 && task.Allowlist.AllowsType(et.Name)) {
			out = append(out, et.Name)
		}
	}
	return out
}

// stepTypesFor lists the entity types the agent may act on with op: with
// a per-type allowlist, only the types that allow op; otherwise every
// type stepTypes lists.
func stepTypesFor(task *model.Task, op model.Op) []string {
	out := stepTypes(task)
	if !task.Allowlist.PerType() {
		return out
	}
	return slices.DeleteFunc(out, func(typ string) bool { return !task.Allowlist.AllowsOpOn(op, typ) })
}

// writable lists the fields of typ the agent may write, in schema order.
func writable(task *model.Task, typ string) []*model.FieldDef {
	et, ok := task.Schema.Type(typ)
	if !ok {
		return nil
	}
	var out []*model.FieldDef
	for i := range et.Fields {
		if task.Allowlist.AllowsField(typ, et.Fields[i].Name) {
			out = append(out, &et.Fields[i])
		}
	}
	return out
}

// allowedValues lists the values the alphabet (or the field's kind)
// allows for field of typ.
func allowedValues(task *model.Task, typ string, fd *model.FieldDef) []string {
	var out []string
	for _, af := range task.Alphabet[typ].Fields {
		if af.Field == fd.Name {
			for _, v := range af.Values {
				out = append(out, formatValue(v))
			}
		}
	}
	if out == nil {
		switch fd.Kind {
		case model.KindEnum:
			out = fd.Values
		case model.KindBool:
			out = []string{"true", "false"}
		}
	}
	return out
}

// context is what the token being typed can be, and its candidates.
type lineContext struct {
	what       string   // "op", "type", "id", "field", "value of <field>"
	prefix     string   // what is typed of the token so far
	candidates []string // completions of prefix, each a whole token
	suffix     string   // appended after a unique completion
	notes      []string // one per candidate: the current value, if any
	named      bool     // the hint lists notes, not candidates
}

func (l *stepLine) context() lineContext {
	if l.tools != nil {
		return l.callContext()
	}
	toks, open := tokens(l.input.Value())
	cur := ""
	if open {
		cur, toks = toks[len(toks)-1], toks[:len(toks)-1]
	}
	var cx lineContext
	cx.prefix = cur
	var options []string
	switch len(toks) {
	case 0:
		cx.what, cx.suffix = "op", " "
		for _, op := range l.task.Allowlist.Ops {
			if op != model.OpReviseGoal {
				options = append(options, string(op))
			}
		}
	case 1:
		cx.what, cx.suffix, options = "type", " ", stepTypesFor(l.task, model.Op(toks[0]))
	case 2:
		cx.what, cx.suffix, options = "id", " ", l.task.Alphabet[toks[1]].IDs
	default:
		typ, id := toks[1], toks[2]
		var now map[string]string
		if l.current != nil {
			now = l.current(typ, id)
		}
		if name, val, ok := strings.Cut(cur, "="); ok {
			for _, fd := range writable(l.task, typ) {
				if fd.Name == name {
					cx.what = "value of " + name
					if v, ok := now[name]; ok {
						cx.what += " (now " + v + ")"
					}
					cx.prefix, cx.suffix = val, " "
					options = allowedValues(l.task, typ, fd)
				}
			}
			if cx.what == "" {
				cx.what = "field"
			}
			break
		}
		cx.what, cx.suffix, cx.named = "field", "=", true
		done := map[string]bool{}
		for _, t := range toks[3:] {
			name, _, _ := strings.Cut(t, "=")
			done[name] = true
		}
		for _, fd := range writable(l.task, typ) {
			if done[fd.Name] {
				continue
			}
			options = append(options, fd.Name)
			if v, ok := now[fd.Name]; ok && strings.HasPrefix(fd.Name, cur) {
				cx.notes = append(cx.notes, fd.Name+" (now "+v+")")
			} else if strings.HasPrefix(fd.Name, cur) {
				cx.notes = append(cx.notes, fd.Name)
			}
		}
	}
	for _, o := range options {
		if strings.HasPrefix(o, cx.prefix) {
			cx.candidates = append(cx.candidates, o)
		}
	}
	return cx
}

// complete extends the token being typed: to the one candidate and what
// follows it, or to the candidates' longest common prefix.
//
// A call's values are long and share long prefixes: there, a tab that
// cannot extend the token puts the next candidate in its place.
func (l *stepLine) complete() {
	v := l.input.Value()
	if n := len(l.cycle); n > 0 && v == l.cycleBase+l.cycle[l.cycleAt] {
		l.cycleAt = (l.cycleAt + 1) % n
		l.input.SetValue(l.cycleBase + l.cycle[l.cycleAt])
		l.input.CursorEnd()
		return
	}
	l.cycle = nil
	cx := l.context()
	if len(cx.candidates) == 0 {
		return
	}
	add := commonPrefix(cx.candidates)[len(cx.prefix):]
	if len(cx.candidates) == 1 {
		add += cx.suffix
	}
	if add == "" && l.tools != nil {
		l.cycleBase, l.cycle, l.cycleAt = v[:len(v)-len(cx.prefix)], cx.candidates, 0
		add = cx.candidates[0][len(cx.prefix):]
	}
	l.input.SetValue(v + add)
	l.input.CursorEnd()
}

func commonPrefix(xs []string) string {
	p := xs[0]
	for _, x := range xs[1:] {
		for !strings.HasPrefix(x, p) {
			p = p[:len(p)-1]
		}
	}
	return p
}

// build parses the line into a step, or says what is wrong.
func (l *stepLine) build() (*model.Step, error) {
	if l.tools != nil {
		return l.buildCall()
	}
	toks, _ := tokens(strings.TrimSpace(l.input.Value()))
	if len(toks) < 3 {
		return nil, fmt.Errorf("a step is: op type id field=value …")
	}
	a := model.Action{Op: model.Op(toks[0]), Type: toks[1], ID: toks[2]}
	if _, ok := l.task.Schema.Type(a.Type); !ok {
		return nil, fmt.Errorf("no entity type %q (types: %s)", a.Type, strings.Join(stepTypes(l.task), ", "))
	}
	if al := &l.task.Allowlist; al.PerType() && al.AllowsType(a.Type) && !al.AllowsOpOn(a.Op, a.Type) {
		ops := make([]string, 0, len(al.TypeOps[a.Type]))
		for _, op := range al.TypeOps[a.Type] {
			ops = append(ops, string(op))
		}
		return nil, fmt.Errorf("the allowlist does not allow %s on %s (it allows %s)", a.Op, a.Type, strings.Join(ops, ", "))
	}
	fields := writable(l.task, a.Type)
	for _, t := range toks[3:] {
		name, text, ok := strings.Cut(t, "=")
		if !ok {
			return nil, fmt.Errorf("%q is not field=value", t)
		}
		i := slices.IndexFunc(fields, func(fd *model.FieldDef) bool { return fd.Name == name })
		if i < 0 {
			return nil, fmt.Errorf("%s has no field %q the agent may write", a.Type, name)
		}
		v, err := parseValue(fields[i], text)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		a.Fields = append(a.Fields, model.Assign{Field: name, Value: v})
	}
	return &model.Step{Action: a}, nil
}

// update handles a key; st is the step built on enter, cancel an esc.
func (l *stepLine) update(msg tea.KeyMsg) (st *model.Step, cancel bool, cmd tea.Cmd) {
	k := l.c.keys
	switch {
	case key.Matches(msg, k.Cancel):
		return nil, true, nil
	case key.Matches(msg, k.Submit):
		step, err := l.build()
		if err != nil {
			l.err = err.Error()
			return nil, false, nil
		}
		return step, false, nil
	case msg.Type == tea.KeyTab:
		l.complete()
		return nil, false, nil
	}
	l.input, cmd = l.input.Update(msg)
	l.err = ""
	return nil, false, cmd
}

// view is the input line and, below it, what the token being typed can
// be: the candidates, each field with its current value.
func (l *stepLine) view(width int) []string {
	st := l.c.st
	l.input.Width = max(width-3, 4)
	what := "step"
	if l.tools != nil {
		what = "call"
	}
	out := []string{st.bold.Render(fmt.Sprintf("New %s %d", what, l.at+1)), st.accent.Render("› ") + inputView(l.input)}
	cx := l.context()
	shown := cx.candidates
	if cx.named {
		shown = cx.notes
	}
	if l.tools != nil {
		// JSON values are long: each is cut from the middle, a few shown.
		const most = 6
		shown = slices.Clone(shown)
		for i := range shown {
			shown[i] = shortenMiddle(shown[i], max(width-4, 24))
		}
		if len(shown) > most {
			shown = append(shown[:most], fmt.Sprintf("… %d more", len(shown)-most))
		}
	}
	hint := cx.what
	if l.tools != nil && len(cx.candidates) > 1 {
		hint += " (tab cycles)"
	}
	if len(shown) > 0 {
		hint += ": " + strings.Join(shown, " · ")
	} else if cx.prefix != "" {
		hint += ": no match"
	}
	for _, h := range wrap(hint, width) {
		out = append(out, st.faint.Render(h))
	}
	if l.err != "" {
		out = append(out, wrap(st.statusErr.Render(l.err), width)...)
	}
	return out
}

func (l *stepLine) keys() []key.Binding {
	k := l.c.keys
	return []key.Binding{k.Submit, k.Complete, k.Cancel}
}

// callContext is what the token being typed of a call can be: the tool,
// an argument (with its type), or an argument's value.
func (l *stepLine) callContext() lineContext {
	toks, open := tokens(l.input.Value())
	cur := ""
	if open {
		cur, toks = toks[len(toks)-1], toks[:len(toks)-1]
	}
	cx := lineContext{prefix: cur}
	var options []string
	if len(toks) == 0 {
		cx.what, cx.suffix, options = "tool", " ", toolNames(l.tools)
	} else if tool, ok := toolNamed(l.tools, toks[0]); !ok {
		cx.what = fmt.Sprintf("no tool %q: tools are %s", toks[0], strings.Join(toolNames(l.tools), ", "))
		if why := othersTool(l.task, toks[0]); why != "" {
			cx.what = why
		}
	} else if name, val, ok := strings.Cut(cur, "="); ok {
		i := slices.IndexFunc(tool.Params, func(p domains.Param) bool { return p.Name == name })
		if i < 0 {
			cx.what = fmt.Sprintf("%s has no argument %q", tool.Name, name)
		} else {
			p := tool.Params[i]
			cx.what, cx.prefix, cx.suffix = "value of "+name+" ("+kindHint(p.Kind)+")", val, " "
			options = l.values[name]
			if p.Kind == "boolean" {
				options = []string{"true", "false"}
			}
		}
	} else {
		cx.what, cx.suffix, cx.named = "argument of "+tool.Name, "=", true
		done := map[string]bool{}
		for _, t := range toks[1:] {
			name, _, _ := strings.Cut(t, "=")
			done[name] = true
		}
		for _, p := range tool.Params {
			if done[p.Name] {
				continue
			}
			options = append(options, p.Name)
			if strings.HasPrefix(p.Name, cur) {
				cx.notes = append(cx.notes, p.Name+" ("+p.Kind+")")
			}
		}
		if len(options) == 0 {
			cx.what = "every argument of " + tool.Name + " is given: enter adds the call"
		}
	}
	for _, o := range options {
		if strings.HasPrefix(o, cx.prefix) {
			cx.candidates = append(cx.candidates, o)
		}
	}
	return cx
}

// kindHint says how a value of a kind is typed.
func kindHint(kind string) string {
	switch kind {
	case "array", "object":
		return kind + ", as JSON"
	case "string":
		return "string: bare or \"quoted\""
	}
	return kind
}

// buildCall parses the line into a call, or says what is wrong. An
// argument left out is the agent's mistake to make: the tool answers it
// with its own error, as the benchmark's would.
func (l *stepLine) buildCall() (*model.Step, error) {
	toks, _ := tokens(strings.TrimSpace(l.input.Value()))
	if len(toks) == 0 {
		return nil, fmt.Errorf("a call is: tool argument=value …")
	}
	tool, ok := toolNamed(l.tools, toks[0])
	if why := othersTool(l.task, toks[0]); !ok && why != "" {
		return nil, errors.New(why)
	}
	if !ok {
		return nil, fmt.Errorf("no tool %q in %s (tools: %s)", toks[0], l.task.Domain.Name(), strings.Join(toolNames(l.tools), ", "))
	}
	var members []model.Assign
	for _, t := range toks[1:] {
		name, text, ok := strings.Cut(t, "=")
		if !ok {
			return nil, fmt.Errorf("%q is not argument=value", t)
		}
		i := slices.IndexFunc(tool.Params, func(p domains.Param) bool { return p.Name == name })
		if i < 0 {
			return nil, fmt.Errorf("%s has no argument %q (it takes %s)", tool.Name, name, strings.Join(paramNames(tool), ", "))
		}
		if slices.ContainsFunc(members, func(m model.Assign) bool { return m.Field == name }) {
			return nil, fmt.Errorf("argument %s is given twice", name)
		}
		v, err := parseArg(tool.Params[i].Kind, text)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		members = append(members, model.Assign{Field: name, Value: v})
	}
	return &model.Step{Action: model.Action{Op: model.OpCall, Tool: tool.Name, Args: buildArgs(members)}}, nil
}
