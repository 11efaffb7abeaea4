package payload

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/parthack/parthack/model"
)

// The canonical encoding, written without reflection so that a
// 1,000,000-event payload encodes in a fraction of a second. For every
// payload whose strings are valid UTF-8 it is the same bytes as model.Canonical of the
// structs, whose json tags document the format (a test holds the two
// together): keys in declaration order, empty optional keys left out,
// field objects sorted by name, no white space. A nil list encodes as [].

// Bytes is the payload's canonical JSON: the exact bytes every evaluator
// receives.
func (p *Payload) Bytes() []byte { return p.appendJSON(make([]byte, 0, sizeHint(p.Events))) }

func (p *Payload) appendJSON(b []byte) []byte {
	b = appendHeader(b, "payload_version", p.Version, p.Task, p.Title, p.Instruction, p.Schema)
	b = appendList(append(b, `,"goals":`...), p.Goals, appendGoal)
	if p.Reference != nil {
		b = appendList(append(b, `,"reference":{"changes":`...), p.Reference.Changes, appendCell)
		b = appendList(append(b, `,"outputs":`...), p.Reference.Outputs, appendStrElem)
		if len(p.Reference.Basis) > 0 {
			b = appendList(append(b, `,"basis":`...), p.Reference.Basis, appendStrElem)
		}
		if len(p.Reference.Actions) > 0 {
			b = appendList(append(b, `,"actions":`...), p.Reference.Actions, appendRefCall)
		}
		if len(p.Reference.Assertions) > 0 {
			b = appendList(append(b, `,"assertions":`...), p.Reference.Assertions, appendStrElem)
		}
		b = append(b, '}')
	}
	return appendTail(b, &p.Initial, p.Events, &p.Terminal, p.Provenance, p.Transcript)
}

// sizeHint guesses the encoded size, so that a long log is not copied
// over and over as the buffer grows.
func sizeHint(events []Event) int { return 1<<14 + 320*len(events) }

// Hash is the sha256 of Bytes, in hex.
func (p *Payload) Hash() string { return model.Hash(p.Bytes()) }

// Bytes is the projection's canonical JSON.
func (q *Projection) Bytes() []byte {
	b := appendHeader(make([]byte, 0, sizeHint(q.Events)), "projection_version", q.Version, q.Task, q.Title, q.Instruction, q.Schema)
	return appendTail(b, &q.Initial, q.Events, &q.Terminal, q.Provenance, q.Transcript)
}

// Hash is the sha256 of Bytes, in hex.
func (q *Projection) Hash() string { return model.Hash(q.Bytes()) }

// appendList writes a JSON array, one element at a time.
func appendList[T any](b []byte, xs []T, elem func([]byte, *T) []byte) []byte {
	b = append(b, '[')
	for i := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		b = elem(b, &xs[i])
	}
	return append(b, ']')
}

func appendHeader(b []byte, versionKey string, version int, task, title, instruction string, schema []EntityType) []byte {
	b = append(b, `{"`...)
	b = append(b, versionKey...)
	b = strconv.AppendInt(append(b, `":`...), int64(version), 10)
	b = appendStr(append(b, `,"task":`...), task)
	b = appendStr(append(b, `,"title":`...), title)
	b = appendStr(append(b, `,"instruction":`...), instruction)
	return appendList(append(b, `,"schema":`...), schema, appendType)
}

func appendType(b []byte, t *EntityType) []byte {
	b = appendStr(append(b, `{"name":`...), t.Name)
	b = appendList(append(b, `,"fields":`...), t.Fields, func(b []byte, f *FieldDef) []byte {
		b = appendStr(append(b, `{"name":`...), f.Name)
		b = appendStr(append(b, `,"kind":`...), string(f.Kind))
		if len(f.Values) > 0 {
			b = appendList(append(b, `,"values":`...), f.Values, func(b []byte, s *string) []byte { return appendStr(b, *s) })
		}
		if f.Target != "" {
			b = appendStr(append(b, `,"target":`...), f.Target)
		}
		return append(b, '}')
	})
	return append(b, '}')
}

func appendGoal(b []byte, g *Goal) []byte {
	b = appendStr(append(b, `{"version":`...), g.Version)
	b = appendList(append(b, `,"predicates":`...), g.Predicates, func(b []byte, pr *Predicate) []byte {
		b = appendStr(append(b, `{"id":`...), pr.ID)
		b = appendStr(append(b, `,"text":`...), pr.Text)
		b = AppendExpr(append(b, `,"expr":`...), &pr.Expr.Expr)
		return append(b, '}')
	})
	return append(b, '}')
}

func appendTail(b []byte, initial *State, events []Event, terminal *State, prov []Provenance, transcript []Turn) []byte {
	b = appendState(append(b, `,"initial":`...), initial)
	b = appendList(append(b, `,"events":`...), events, appendEvent)
	b = appendState(append(b, `,"terminal":`...), terminal)
	b = appendList(append(b, `,"provenance":`...), prov, func(b []byte, pr *Provenance) []byte {
		b = strconv.AppendInt(append(b, `{"seq":`...), int64(pr.Seq), 10)
		b = appendStr(append(b, `,"actor":`...), string(pr.Actor))
		return append(b, '}')
	})
	b = appendList(append(b, `,"transcript":`...), transcript, func(b []byte, t *Turn) []byte {
		b = appendStr(append(b, `{"role":`...), t.Role)
		b = appendStr(append(b, `,"content":`...), t.Content)
		return append(b, '}')
	})
	return append(b, '}')
}

func appendState(b []byte, s *State) []byte {
	b = appendStr(append(b, `{"goal_version":`...), s.GoalVersion)
	b = appendList(append(b, `,"entities":`...), s.Entities, func(b []byte, e *Entity) []byte {
		b = appendStr(append(b, `{"type":`...), e.Type)
		b = appendStr(append(b, `,"id":`...), e.ID)
		if e.Deleted {
			b = append(b, `,"deleted":true`...)
		}
		b = e.Fields.appendJSON(append(b, `,"fields":`...))
		return append(b, '}')
	})
	return append(b, '}')
}

func appendEvent(b []byte, ev *Event) []byte {
	b = strconv.AppendInt(append(b, `{"seq":`...), int64(ev.Seq), 10)
	b = strconv.AppendInt(append(b, `,"t":`...), int64(ev.T), 10)
	if ev.Step != 0 {
		b = strconv.AppendInt(append(b, `,"step":`...), int64(ev.Step), 10)
	}
	b = appendStr(append(b, `,"actor":`...), string(ev.Actor))
	b = appendStr(append(b, `,"op":`...), string(ev.Op))
	if ev.Type != "" {
		b = appendStr(append(b, `,"type":`...), ev.Type)
	}
	if ev.ID != "" {
		b = appendStr(append(b, `,"id":`...), ev.ID)
	}
	if ev.Tool != "" {
		b = appendStr(append(b, `,"tool":`...), ev.Tool)
	}
	if len(ev.Args) > 0 {
		b = ev.Args.appendJSON(append(b, `,"args":`...))
	}
	if ev.Goal != "" {
		b = appendStr(append(b, `,"goal":`...), ev.Goal)
	}
	b = strconv.AppendBool(append(b, `,"ok":`...), ev.OK)
	if ev.Reason != "" {
		b = appendStr(append(b, `,"reason":`...), ev.Reason)
	}
	b = appendList(append(b, `,"diff":`...), ev.Diff, appendCell)
	b = appendStr(append(b, `,"goal_version":`...), ev.GoalVersion)
	return append(b, '}')
}

func appendCell(b []byte, c *Cell) []byte {
	b = append(b, '{')
	if c.Type != "" {
		b = append(appendStr(append(b, `"type":`...), c.Type), ',')
	}
	if c.ID != "" {
		b = append(appendStr(append(b, `"id":`...), c.ID), ',')
	}
	b = appendStr(append(b, `"field":`...), c.Field)
	b = appendValue(append(b, `,"before":`...), c.Before)
	b = appendValue(append(b, `,"after":`...), c.After)
	return append(b, '}')
}

// appendStr writes a canonical JSON string. Invalid UTF-8 is written as
// U+FFFD, as encoding/json reads it, so that every payload decodes to one
// that encodes to the same bytes.
func appendStr(b []byte, s string) []byte {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	return model.Str(s).AppendJSON(b)
}

// appendValue writes a cell value, its strings as appendStr does.
func appendValue(b []byte, v model.Value) []byte {
	switch v.Kind() {
	case model.StringValue:
		return appendStr(b, v.AsString())
	case model.ListValue:
		return appendList(b, v.AsList(), func(b []byte, s *string) []byte { return appendStr(b, *s) })
	}
	return v.AppendJSON(b)
}

func appendStrElem(b []byte, s *string) []byte { return appendStr(b, *s) }

func appendRefCall(b []byte, c *RefCall) []byte {
	b = appendStr(append(b, `{"requestor":`...), c.Requestor)
	b = appendStr(append(b, `,"tool":`...), c.Tool)
	b = appendValue(append(b, `,"args":`...), c.Args)
	b = appendList(append(b, `,"compare_args":`...), c.CompareArgs, appendStrElem)
	b = strconv.AppendBool(append(b, `,"all_args":`...), c.AllArgs)
	return append(b, '}')
}
