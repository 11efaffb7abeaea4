package tui

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/parthack/parthack/model"
)

// stepForm builds one agent step from the task's action alphabet: op,
// entity type, id and the writable fields, each a text input that offers
// the allowed values (ctrl+n / ctrl+p cycle through them).
type stepForm struct {
	c       *common
	task    *model.Task
	at      int  // where the step goes
	replace bool // edit the step at `at` instead of inserting
	rows    []formRow
	focus   int
	err     string
}

type formRow struct {
	name    string
	input   textinput.Model
	allowed []string
	def     *model.FieldDef // nil for op, type and id
	// kept is the value of a field the step writes that the agent may
	// not write (an imported step): shown, marked illegal, and kept
	// unless the user clears it.
	kept *model.Value
}

const (
	rowOp = iota
	rowType
	rowID
	rowFields // first field row
)

func newStepForm(c *common, task *model.Task, at int, replace bool, from *model.Action) *stepForm {
	f := &stepForm{c: c, task: task, at: at, replace: replace}
	var ops []string
	for _, op := range task.Allowlist.Ops {
		if op != model.OpReviseGoal {
			ops = append(ops, string(op))
		}
	}
	op, typ, id := "update", "", ""
	if !slices.Contains(ops, op) && len(ops) > 0 {
		op = ops[0]
	}
	types := f.types()
	if len(types) > 0 {
		typ = types[0]
	}
	if from != nil && from.Op != model.OpReviseGoal {
		op, typ, id = string(from.Op), from.Type, from.ID
	}
	f.rows = []formRow{
		{name: "op", input: newInput(op), allowed: ops},
		{name: "type", input: newInput(typ), allowed: types},
		{name: "id", input: newInput(id)},
	}
	f.syncRows()
	if id == "" && len(f.rows[rowID].allowed) > 0 {
		f.rows[rowID].input.SetValue(f.rows[rowID].allowed[0])
	}
	if from != nil && !replace {
		// A new step copies the target of its neighbour, not its writes.
		from = nil
	}
	if from != nil {
		for _, a := range from.Fields {
			found := false
			for i := rowFields; i < len(f.rows); i++ {
				if f.rows[i].name == a.Field {
					f.rows[i].input.SetValue(formatValue(a.Value))
					found = true
				}
			}
			if !found {
				v := a.Value
				r := formRow{name: a.Field, input: newInput(formatValue(v)), kept: &v}
				if et, ok := task.Schema.Type(from.Type); ok {
					for i := range et.Fields {
						if et.Fields[i].Name == a.Field {
							r.def = &et.Fields[i]
						}
					}
				}
				f.rows = append(f.rows, r)
			}
		}
	}
	f.rows[0].input.Focus()
	return f
}

// types lists the entity types the agent may act on: the alphabet's, or
// the allowlist's when the task declares no alphabet.
func (f *stepForm) types() []string { return stepTypes(f.task) }

// syncRows rebuilds the type's and the id's allowed values and the field rows for the
// type and op now entered, keeping values already typed.
func (f *stepForm) syncRows() {
	typ := f.rows[rowType].input.Value()
	op := model.Op(f.rows[rowOp].input.Value())
	at := f.task.Alphabet[typ]
	f.rows[rowType].allowed = stepTypesFor(f.task, op)
	f.rows[rowID].allowed = at.IDs
	kept := map[string]string{}
	var illegal []formRow
	for _, r := range f.rows[rowFields:] {
		kept[r.name] = r.input.Value()
		if r.kept != nil {
			illegal = append(illegal, r)
		}
	}
	f.rows = f.rows[:rowFields]
	defer func() { f.rows = append(f.rows, illegal...) }()
	et, ok := f.task.Schema.Type(typ)
	if !ok || (op != model.OpCreate && op != model.OpUpdate) {
		f.focus = min(f.focus, len(f.rows)-1)
		return
	}
	for i := range et.Fields {
		fd := &et.Fields[i]
		if !f.task.Allowlist.AllowsField(typ, fd.Name) {
			continue
		}
		r := formRow{name: fd.Name, input: newInput(kept[fd.Name]), def: fd}
		for _, af := range at.Fields {
			if af.Field == fd.Name {
				for _, v := range af.Values {
					r.allowed = append(r.allowed, formatValue(v))
				}
			}
		}
		if r.allowed == nil {
			switch fd.Kind {
			case model.KindEnum:
				r.allowed = fd.Values
			case model.KindBool:
				r.allowed = []string{"true", "false"}
			}
		}
		f.rows = append(f.rows, r)
	}
}

// update handles a key (see updateForm).
func (f *stepForm) update(msg tea.KeyMsg) (st *model.Step, cancel bool, cmd tea.Cmd) {
	return updateForm(f, f.c.keys, msg)
}

// edit gives the focused field a key that is not the form's own.
func (f *stepForm) edit(msg tea.KeyMsg) (cmd tea.Cmd) {
	f.rows[f.focus].input, cmd = f.rows[f.focus].input.Update(msg)
	f.err = ""
	if f.focus < rowFields {
		f.syncRows()
	}
	return cmd
}

func (f *stepForm) fail(err error) { f.err = err.Error() }

func (f *stepForm) move(d int) {
	f.rows[f.focus].input.Blur()
	f.focus = (f.focus + d + len(f.rows)) % len(f.rows)
	f.rows[f.focus].input.Focus()
}

// pick sets the focused input to the next allowed value; a field's
// values start with "" (not written).
func (f *stepForm) pick(d int) {
	r := &f.rows[f.focus]
	options := r.allowed
	if r.def != nil {
		options = append([]string{""}, options...)
	}
	if len(options) == 0 {
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
	if f.focus < rowFields {
		f.syncRows()
	}
}

// build turns the form into a step, or says which input is wrong.
func (f *stepForm) build() (*model.Step, error) {
	a := model.Action{Op: model.Op(strings.TrimSpace(f.rows[rowOp].input.Value())),
		Type: strings.TrimSpace(f.rows[rowType].input.Value()), ID: strings.TrimSpace(f.rows[rowID].input.Value())}
	if a.Op == "" || a.Type == "" || a.ID == "" {
		return nil, fmt.Errorf("op, type and id are required")
	}
	for _, r := range f.rows[rowFields:] {
		text := strings.TrimSpace(r.input.Value())
		if text == "" {
			continue
		}
		if r.kept != nil && (text == formatValue(*r.kept) || r.def == nil) {
			v := *r.kept
			if text != formatValue(v) {
				v = model.Str(text)
			}
			a.Fields = append(a.Fields, model.Assign{Field: r.name, Value: v})
			continue
		}
		v, err := parseValue(r.def, text)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", r.name, err)
		}
		a.Fields = append(a.Fields, model.Assign{Field: r.name, Value: v})
	}
	return &model.Step{Action: a}, nil
}

// parseValue reads what a person types for a field: bare words for
// strings, enums and references, JSON where it helps ("null", lists).
func parseValue(fd *model.FieldDef, s string) (model.Value, error) {
	if s == "null" {
		return model.Null, nil
	}
	switch fd.Kind {
	case model.KindInt:
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return model.Null, fmt.Errorf("%q is not an integer", s)
		}
		return model.Int(n), nil
	case model.KindBool:
		b, err := strconv.ParseBool(s)
		if err != nil {
			return model.Null, fmt.Errorf("%q is not true or false", s)
		}
		return model.Bool(b), nil
	case model.KindStrings:
		var xs []string
		if strings.HasPrefix(s, "[") {
			if err := json.Unmarshal([]byte(s), &xs); err != nil {
				return model.Null, fmt.Errorf("%s is not a JSON list of strings", s)
			}
		} else {
			for _, x := range strings.Split(s, ",") {
				if x = strings.TrimSpace(x); x != "" {
					xs = append(xs, x)
				}
			}
		}
		return model.List(xs), nil
	}
	if strings.HasPrefix(s, `"`) {
		var x string
		if err := json.Unmarshal([]byte(s), &x); err != nil {
			return model.Null, fmt.Errorf("%s is not a JSON string", s)
		}
		return model.Str(x), nil
	}
	return model.Str(s), nil
}

// formatValue is the text parseValue reads back as v.
func formatValue(v model.Value) string {
	if v.Kind() == model.StringValue {
		return v.AsString()
	}
	return v.String()
}

func (f *stepForm) title() string {
	if f.replace {
		return fmt.Sprintf("Edit step %d", f.at+1)
	}
	return fmt.Sprintf("New step %d", f.at+1)
}

func (f *stepForm) view(width int) []string {
	st := f.c.st
	labelW := 4
	for _, r := range f.rows {
		labelW = max(labelW, len(r.name))
	}
	out := []string{st.bold.Render(f.title())}
	for i := range f.rows {
		r := &f.rows[i]
		r.input.Width = max(width-labelW-4, 4)
		label := st.muted.Render(fit(r.name, labelW))
		if i == f.focus {
			label = st.accent.Render(fit(r.name, labelW))
		}
		if r.kept != nil {
			label = st.bad.Render(fit(r.name, labelW))
		}
		out = append(out, " "+label+"  "+inputView(r.input))
		if r.kept != nil {
			for _, l := range wrap("✗ illegal: the agent may not write "+r.name+"; kept as imported, clear it to remove it", width-labelW-3) {
				out = append(out, strings.Repeat(" ", labelW+3)+st.bad.Render(l))
			}
		}
		if i == f.focus {
			allowed := "any value (bare words, null, [\"a\"] for lists)"
			if len(r.allowed) > 0 {
				allowed = "allowed: " + strings.Join(r.allowed, " · ")
			}
			if r.def != nil {
				allowed += " · empty: not written"
			}
			for _, l := range wrap(allowed, width-labelW-3) {
				out = append(out, strings.Repeat(" ", labelW+3)+st.faint.Render(l))
			}
		}
	}
	if f.err != "" {
		out = append(out, st.statusErr.Render(f.err))
	}
	return out
}

func (f *stepForm) keys() []key.Binding {
	k := f.c.keys
	return []key.Binding{k.Submit, k.FieldNext, k.PickNext, k.PickPrev, k.Cancel}
}

// fieldForm is a form of fields that builds a step: the step form and the
// call form.
type fieldForm interface {
	build() (*model.Step, error)
	move(d int) // the focus, d fields on
	pick(d int) // the focused field's value, d offered values on
	edit(msg tea.KeyMsg) tea.Cmd
	fail(err error) // show why the step could not be built
}

// updateForm handles a key the way both forms do: esc cancels, enter
// builds the step (what keeps it from being built stays shown in the
// form), tab and shift+tab move between fields, ctrl+n and ctrl+p offer
// values, and any other key edits the focused field.
func updateForm(f fieldForm, k *keyMap, msg tea.KeyMsg) (st *model.Step, cancel bool, cmd tea.Cmd) {
	switch {
	case key.Matches(msg, k.Cancel):
		return nil, true, nil
	case key.Matches(msg, k.Submit):
		step, err := f.build()
		if err != nil {
			f.fail(err)
			return nil, false, nil
		}
		return step, false, nil
	case key.Matches(msg, k.FieldNext):
		f.move(1)
	case key.Matches(msg, k.FieldPrev):
		f.move(-1)
	case key.Matches(msg, k.PickNext):
		f.pick(1)
	case key.Matches(msg, k.PickPrev):
		f.pick(-1)
	default:
		cmd = f.edit(msg)
	}
	return nil, false, cmd
}
