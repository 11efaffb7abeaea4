package pbcste

import (
	"crypto/sha256"
	"encoding/hex"

	"github.com/parthack/parthack/model"
)

// TypedDiff names the cells of an event's diff by type, id and field.
func (l *Log) TypedDiff(ev *Event) []model.CellDiff {
	out := make([]model.CellDiff, len(ev.Diff))
	for i, c := range ev.Diff {
		if c.Slot < 0 {
			out[i] = model.CellDiff{Field: model.GoalField, Before: c.Before, After: c.After}
			continue
		}
		e := &l.final.ents[c.Slot]
		out[i] = model.CellDiff{Type: l.Env.TypeName(e.typ), ID: e.id, Field: l.Env.FieldName(e.typ, int(c.Field)), Before: c.Before, After: c.After}
	}
	return out
}

// EventRecord is the canonical JSON form of one log event.
type EventRecord struct {
	Seq       int              `json:"seq"`
	Time      int              `json:"t"`
	Step      int              `json:"step,omitempty"` // 1-based agent step
	Actor     model.Actor      `json:"actor"`
	Op        model.Op         `json:"op"`
	Type      string           `json:"type,omitempty"`
	ID        string           `json:"id,omitempty"`
	Fields    map[string]any   `json:"fields,omitempty"`
	Goal      string           `json:"goal,omitempty"`
	OK        bool             `json:"ok"`
	Reason    string           `json:"reason,omitempty"`
	Diff      []model.CellDiff `json:"diff"`
	Version   string           `json:"goal_version"`
	StateHash string           `json:"state_hash"`
}

// Record renders event seq as its canonical record.
func (l *Log) Record(seq int) EventRecord {
	ev := &l.Events[seq]
	a := ev.Action
	r := EventRecord{Seq: ev.Seq + 1, Time: ev.Time(), Actor: ev.Actor, Op: a.Op, Type: a.Type, ID: a.ID, Goal: a.Goal,
		OK: ev.OK, Reason: ev.Reason, Diff: l.TypedDiff(ev), Version: l.Env.goals[ev.Goal].Version, StateHash: ev.Hash.String()}
	if ev.Step >= 0 {
		r.Step = ev.Step + 1
	}
	if len(a.Fields) > 0 {
		r.Fields = make(map[string]any, len(a.Fields))
		for _, f := range a.Fields {
			r.Fields[f.Field] = f.Value
		}
	}
	return r
}

// LogHash is the sha256 of the canonical log: one JSON record per event,
// newline-terminated. It streams, so it never holds the whole log text.
func (l *Log) LogHash() string {
	h := sha256.New()
	for i := range l.Events {
		b, err := model.Canonical(l.Record(i))
		if err != nil {
			panic(err) // records hold only encodable values
		}
		h.Write(b)
		h.Write([]byte{'\n'})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// EntityRecord is the canonical JSON form of one entity of a snapshot.
type EntityRecord struct {
	Type    string         `json:"type"`
	ID      string         `json:"id"`
	Deleted bool           `json:"deleted,omitempty"`
	Fields  map[string]any `json:"fields"`
}

// Entities lists a state's existing entities in creation order.
func (s *State) Entities() []EntityRecord {
	out := make([]EntityRecord, 0, len(s.ents))
	for _, e := range s.ents {
		if !e.exists {
			continue
		}
		r := EntityRecord{Type: s.env.TypeName(e.typ), ID: e.id, Deleted: !e.alive, Fields: map[string]any{}}
		for fi, v := range e.fields {
			if !v.IsNull() {
				r.Fields[s.env.FieldName(e.typ, fi)] = v
			}
		}
		out = append(out, r)
	}
	return out
}
