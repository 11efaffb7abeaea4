package tui

import (
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/parthack/parthack/domains"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
)

// This file is what the editor knows of a domain's tool calls: how a
// person types an argument, which values a task makes sensible for each
// argument, and which call of the domain undoes another.

// toolNamed finds a tool by name.
func toolNamed(tools []domains.Tool, name string) (domains.Tool, bool) {
	i := slices.IndexFunc(tools, func(t domains.Tool) bool { return t.Name == name })
	if i < 0 {
		return domains.Tool{}, false
	}
	return tools[i], true
}

func toolNames(tools []domains.Tool) []string {
	out := make([]string, len(tools))
	for i, t := range tools {
		out[i] = t.Name
	}
	return out
}

func paramNames(tool domains.Tool) []string {
	out := make([]string, len(tool.Params))
	for i, p := range tool.Params {
		out[i] = p.Name
	}
	return out
}

// jsonAt is FromJSON's located error: ":line:col: path: what".
var jsonAt = regexp.MustCompile(`^:(\d+):(\d+): (.*)$`)

// parseArg reads what a person types for an argument of a kind: bare
// words or "quoted text" for a string, JSON for arrays and objects,
// null for an argument passed as null.
func parseArg(kind, s string) (model.Value, error) {
	if s == "null" {
		return model.Null, nil
	}
	switch kind {
	case "string":
		if strings.HasPrefix(s, `"`) {
			var x string
			if err := json.Unmarshal([]byte(s), &x); err != nil {
				return model.Null, fmt.Errorf("%s is not a JSON string", s)
			}
			return model.Str(x), nil
		}
		return model.Str(s), nil
	case "integer":
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return model.Null, fmt.Errorf("%q is not an integer", s)
		}
		return model.Int(n), nil
	case "boolean":
		b, err := strconv.ParseBool(s)
		if err != nil {
			return model.Null, fmt.Errorf("%q is not true or false", s)
		}
		return model.Bool(b), nil
	}
	v, err := model.FromJSON([]byte(s))
	if err != nil {
		msg := err.Error()
		if m := jsonAt.FindStringSubmatch(msg); m != nil {
			msg = fmt.Sprintf("line %s, column %s: %s", m[1], m[2], m[3])
		}
		return model.Null, fmt.Errorf("not valid JSON at %s", msg)
	}
	text := v.String()
	var ok bool
	switch kind {
	case "number":
		_, err := strconv.ParseFloat(text, 64)
		ok = err == nil
	case "array":
		ok = strings.HasPrefix(text, "[")
	case "object":
		ok = strings.HasPrefix(text, "{")
	default:
		return v, nil // a kind the domain does not declare: any JSON
	}
	if !ok {
		return model.Null, fmt.Errorf("%s is not %s", shortenMiddle(text, 40), article(kind))
	}
	return v, nil
}

func article(kind string) string {
	if strings.ContainsRune("aeiou", rune(kind[0])) {
		return "an " + kind
	}
	return "a " + kind
}

// formatArg is the text parseArg reads back as v for a string argument:
// bare where it can be, JSON otherwise.
func formatArg(v model.Value) string {
	s := v.AsString()
	if v.Kind() == model.StringValue && s != "" && s != "null" && !strings.ContainsAny(s, " \"") && !strings.ContainsAny(s[:1], "[{") {
		return s
	}
	return v.String()
}

// buildArgs makes a call's arguments, a JSON object, from its members.
func buildArgs(members []model.Assign) model.Value {
	b := []byte{'{'}
	for i, m := range members {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendQuote(b, m.Field)
		b = append(b, ':')
		b = m.Value.AppendJSON(b)
	}
	v, err := model.FromJSON(append(b, '}'))
	if err != nil {
		// The members are values already: their object is JSON.
		panic(fmt.Sprintf("tui: arguments %s: %v", b, err))
	}
	return v
}

// argValues are the values the editor offers for each argument name, in
// the order they are offered.
type argValues map[string][]string

func (av argValues) add(name, text string) {
	if text != "" && text != `""` && !slices.Contains(av[name], text) {
		av[name] = append(av[name], text)
	}
}

// sensibleValues draws, for each argument of the tools, the values a
// task makes sensible: first the values the same argument takes in the
// task's calls (gold's, H's, the move generator's), then values from the
// state of the users those calls name (by user_id, or through a record
// of theirs a call names, as an order id names its user): the ids of their records of the
// type the argument names (reservation_id: their reservations;
// payment_id: their payment methods), and the values their records hold
// under the argument's name, nested ones included (flight_number and
// date in a reservation's flights, item_id in an order's items).
func sensibleValues(tools []domains.Tool, calls []model.Action, state *pbcste.State, schema *model.Schema) argValues {
	av := argValues{}
	names := map[string]bool{}
	for _, t := range tools {
		for _, p := range t.Params {
			names[p.Name] = true
		}
	}
	users, named := map[string]bool{}, map[string]bool{}
	for _, c := range calls {
		ms, _ := model.Members(c.Args)
		for _, m := range ms {
			if names[m.Field] {
				av.add(m.Field, formatArg(m.Value))
			}
			if m.Value.Kind() == model.StringValue {
				named[m.Value.AsString()] = true
			}
			if m.Field == "user_id" && m.Value.Kind() == model.StringValue {
				users[m.Value.AsString()] = true
			}
		}
	}
	if state == nil {
		return av
	}
	// The types a user owns records of: the user type and those with a
	// user or user_id field.
	owned := map[string]bool{}
	for _, et := range schema.Types {
		for _, f := range et.Fields {
			if f.Name == "user" || f.Name == "user_id" || et.Name == "user" {
				owned[et.Name] = true
			}
		}
	}
	recs := state.EntitiesIn(func(typ, id string) bool { return owned[typ] })
	owner := func(r pbcste.EntityRecord) string {
		if r.Type == "user" {
			return r.ID
		}
		if u := fieldText(r, "user_id"); u != "" {
			return u
		}
		return fieldText(r, "user")
	}
	for _, r := range recs {
		if named[r.ID] && !r.Deleted {
			users[owner(r)] = true
		}
	}
	var mine []pbcste.EntityRecord
	for _, r := range recs {
		if !r.Deleted && users[owner(r)] {
			mine = append(mine, r)
		}
	}
	for name := range names {
		stem := strings.TrimSuffix(strings.TrimSuffix(name, "_ids"), "_id")
		for _, r := range mine {
			if stem != name && strings.HasPrefix(r.Type, stem) {
				// The id a tool takes: the record's own id field, else
				// its key, less the user it is kept under.
				id := fieldText(r, "id")
				if id == "" {
					id = r.ID[strings.LastIndexByte(r.ID, '/')+1:]
				}
				av.add(name, id)
			}
		}
	}
	for _, r := range mine {
		for _, f := range slices.Sorted(maps.Keys(r.Fields)) {
			v, _ := r.Fields[f].(model.Value)
			collect(av, names, f, v)
		}
	}
	return av
}

func fieldText(r pbcste.EntityRecord, f string) string {
	v, _ := r.Fields[f].(model.Value)
	if v.Kind() == model.StringValue {
		return v.AsString()
	}
	return ""
}

// collect offers v for an argument named like its field (or the field's
// plural: item_id for item_ids), and looks inside JSON for members so
// named.
func collect(av argValues, names map[string]bool, field string, v model.Value) {
	for _, name := range []string{field, field + "s"} {
		if names[name] {
			av.add(name, formatArg(v))
		}
	}
	if v.Kind() != model.JSONValue {
		return
	}
	var x any
	if json.Unmarshal([]byte(v.AsString()), &x) != nil {
		return
	}
	var walk func(x any)
	walk = func(x any) {
		switch x := x.(type) {
		case []any:
			for _, y := range x {
				walk(y)
			}
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(x)) {
				y := x[k]
				switch y.(type) {
				case string, float64, bool:
					b, _ := json.Marshal(y)
					if mv, err := model.FromJSON(b); err == nil {
						for _, name := range []string{k, k + "s"} {
							if names[name] {
								av.add(name, formatArg(mv))
							}
						}
					}
				default:
					walk(y)
				}
			}
		}
	}
	walk(x)
}

// restoringCall finds, among the domain's moves, a call that, placed at
// pos of steps, puts back every cell that step i changed to its value
// before step i, and changes fewest other cells. cells are step i's
// typed diff. An error says why none does.
// sameArgCalls are calls of the domain's other writing tools with the
// arguments of call that they take, for each tool whose required
// arguments call has: a tool's counterpart often takes the same ones.
func sameArgCalls(tools []domains.Tool, call *model.Action) []model.Action {
	args, ok := model.Members(call.Args)
	if call.Op != model.OpCall || !ok || len(args) == 0 {
		return nil
	}
	var out []model.Action
	for _, t := range tools {
		if !t.Writes || t.Name == call.Tool {
			continue
		}
		var members []model.Assign
		missing := false
		for _, p := range t.Params {
			k := slices.IndexFunc(args, func(a model.Assign) bool { return a.Field == p.Name })
			switch {
			case k >= 0:
				members = append(members, args[k])
			case p.Required:
				missing = true
			}
		}
		if !missing && len(members) > 0 {
			out = append(out, model.Action{Op: model.OpCall, Tool: t.Name, Args: buildArgs(members)})
		}
	}
	return out
}

func restoringCall(env *pbcste.Env, steps []model.Step, i, pos int, cells []model.CellDiff, moves []model.Action) (model.Action, error) {
	run := env.Begin(pos + 1)
	for k := range steps[:pos] {
		run.Step(&steps[k])
	}
	restored := func(v model.StateView) bool {
		for _, c := range cells {
			if c.Field == model.AliveField {
				if v.Alive(c.Type, c.ID) != c.Before.AsBool() {
					return false
				}
				continue
			}
			got, _ := v.Field(c.Type, c.ID, c.Field)
			if !got.Equal(c.Before) {
				return false
			}
		}
		return true
	}
	if restored(run.View()) {
		return model.Action{}, fmt.Errorf("what step %d changed is undone already by the steps after it", i+1)
	}
	best, bestOther := -1, 0
	for k := range moves {
		fork := run.Fork()
		fork.Step(&model.Step{Action: moves[k]})
		evs := fork.Events()
		ev := &evs[len(evs)-1]
		if !ev.OK || !restored(fork.View()) {
			continue
		}
		if other := ev.DiffLen() - len(cells); best < 0 || other < bestOther {
			best, bestOther = k, other
		}
	}
	if best < 0 {
		var what []string
		for _, c := range cells {
			if w := c.Type + " " + c.ID + " " + c.Field; !slices.Contains(what, w) {
				what = append(what, w)
			}
		}
		return model.Action{}, fmt.Errorf("no call of this domain undoes step %d (it changed %s)", i+1, strings.Join(what, ", "))
	}
	return moves[best], nil
}
