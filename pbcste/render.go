package pbcste

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"slices"
	"sort"
	"strconv"

	"github.com/parthack/parthack/model"
)

// TypedDiff names the cells of an event's diff by type, id and field.
func (l *Log) TypedDiff(ev *Event) []model.CellDiff { return l.AppendTypedDiff(nil, ev) }

// AppendTypedDiff appends the cells TypedDiff names to dst: a caller
// that names every event's reuses one slice.
func (l *Log) AppendTypedDiff(dst []model.CellDiff, ev *Event) []model.CellDiff {
	return appendTypedDiff(dst, l.final, l.Diff(ev))
}

// TypedDiff names the cells of an event recorded so far.
func (r *Run) TypedDiff(ev *Event) []model.CellDiff { return r.AppendTypedDiff(nil, ev) }

// AppendTypedDiff appends the cells TypedDiff names to dst.
func (r *Run) AppendTypedDiff(dst []model.CellDiff, ev *Event) []model.CellDiff {
	return appendTypedDiff(dst, r.state, r.log.Diff(ev))
}

// appendTypedDiff names cells by the slots of s, a state at or after the
// diff.
func appendTypedDiff(out []model.CellDiff, s *State, diff []Change) []model.CellDiff {
	if out == nil {
		out = make([]model.CellDiff, 0, len(diff))
	}
	for _, c := range diff {
		if c.Slot < 0 {
			out = append(out, model.CellDiff{Field: model.GoalField, Before: c.Before, After: c.After})
			continue
		}
		t := int(s.rec(c.Slot).typ())
		out = append(out, model.CellDiff{Type: s.env.TypeName(t), ID: s.idOf(c.Slot, false), Field: s.env.FieldName(t, int(c.Field)), Before: c.Before, After: c.After})
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
	Tool      string           `json:"tool,omitempty"`
	Args      *model.Value     `json:"args,omitempty"`
	OK        bool             `json:"ok"`
	Reason    string           `json:"reason,omitempty"`
	Output    string           `json:"output,omitempty"`
	Diff      []model.CellDiff `json:"diff"`
	Version   string           `json:"goal_version"`
	StateHash string           `json:"state_hash"`
}

// Record renders event seq as its canonical record.
func (l *Log) Record(seq int) EventRecord {
	ev := &l.Events[seq]
	return record(l.Env, ev, l.Reason(ev), l.Output(ev), l.TypedDiff(ev))
}

// Record is the canonical JSON form of an event recorded so far, as
// Log.Record gives it; on a streamed run (Env.Stream), of the events of
// the latest Step or of Finish.
func (r *Run) Record(ev *Event) EventRecord {
	return record(r.log.Env, ev, r.Reason(ev), r.Output(ev), r.TypedDiff(ev))
}

func record(env *Env, ev *Event, reason, output string, diff []model.CellDiff) EventRecord {
	a := ev.Action
	r := EventRecord{Seq: ev.Seq + 1, Time: ev.Time(), Actor: ev.Actor(), Op: a.Op, Type: a.Type, ID: a.ID, Goal: a.Goal,
		Tool: a.Tool, OK: ev.OK, Reason: reason, Output: output, Diff: diff, Version: env.goals[ev.Goal].Version, StateHash: ev.Hash.String()}
	if !a.Args.IsNull() {
		r.Args = &a.Args
	}
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

// LogHash is the sha256 of the log in a compact binary form: per event
// its sequence number, agent step, actor, op, outcome, failure reason
// and the state hash after it. Arguments and diffs are not hashed
// separately: a successful event's effect is in the state hash, a failed
// one's reason names what it acted on. The canonical JSON of Record is
// for people and exports.
func (l *Log) LogHash() string {
	if l.streamed() {
		c, _ := l.hash.Clone() // sha256 digests always clone
		c.Write(l.hashBuf)
		return hex.EncodeToString(c.Sum(nil))
	}
	h := sha256.New()
	b := make([]byte, 0, 64<<10)
	for i := range l.Events {
		b = appendEventHash(b, &l.Events[i], l.Reason(&l.Events[i]))
		if len(b) > 60<<10 {
			h.Write(b)
			b = b[:0]
		}
	}
	h.Write(b)
	return hex.EncodeToString(h.Sum(nil))
}

// appendEventHash appends what the log hash covers of one event, whose
// failure reason is reason.
func appendEventHash(b []byte, ev *Event, reason string) []byte {
	b = binary.BigEndian.AppendUint32(b, uint32(ev.Seq))
	b = binary.BigEndian.AppendUint32(b, uint32(int32(ev.Step)))
	b = append(b, ev.actor, opCode(ev.Action.Op))
	if ev.OK {
		b = append(b, 1)
	} else {
		b = append(b, 0)
		b = binary.AppendUvarint(b, uint64(len(reason)))
		b = append(b, reason...)
	}
	for _, x := range ev.Hash {
		b = binary.BigEndian.AppendUint64(b, x)
	}
	return b
}

// opCode is an op's byte in the log hash.
func opCode(op model.Op) byte {
	switch op {
	case model.OpReviseGoal:
		return 16
	case model.OpCall:
		return 32
	}
	return opBit(op)
}

// actorOf names the actor classes by their code: an event keeps the
// code, and it is the actor's byte in the log hash.
var actorOf = [...]model.Actor{1: model.ActorAgent, 2: model.ActorUser, 3: model.ActorEnvironment, 4: model.ActorSystem}

// actorCode is an actor class's code (see actorOf); 0 for none of them.
func actorCode(a model.Actor) byte {
	for c := 1; c < len(actorOf); c++ {
		if actorOf[c] == a {
			return byte(c)
		}
	}
	return 0
}

// AppendRecord appends the canonical JSON of event seq's record: the same
// bytes as model.Canonical(l.Record(seq)), written without reflection
// because the log hash covers every event.
func (l *Log) AppendRecord(b []byte, seq int) []byte {
	ev := &l.Events[seq]
	a := ev.Action
	b = append(b, `{"seq":`...)
	b = strconv.AppendInt(b, int64(ev.Seq+1), 10)
	b = append(b, `,"t":`...)
	b = strconv.AppendInt(b, int64(ev.Time()), 10)
	if ev.Step >= 0 {
		b = append(b, `,"step":`...)
		b = strconv.AppendInt(b, int64(ev.Step+1), 10)
	}
	b = appendKey(b, "actor", string(ev.Actor()), false)
	b = appendKey(b, "op", string(a.Op), false)
	b = appendKey(b, "type", a.Type, true)
	b = appendKey(b, "id", a.ID, true)
	if len(a.Fields) > 0 {
		order := make([]int, len(a.Fields))
		for i := range order {
			order[i] = i
		}
		sort.SliceStable(order, func(i, j int) bool { return a.Fields[order[i]].Field < a.Fields[order[j]].Field })
		b = append(b, `,"fields":{`...)
		for n, i := range order {
			if n > 0 {
				b = append(b, ',')
			}
			b = model.Str(a.Fields[i].Field).AppendJSON(b)
			b = append(b, ':')
			b = a.Fields[i].Value.AppendJSON(b)
		}
		b = append(b, '}')
	}
	b = appendKey(b, "goal", a.Goal, true)
	b = appendKey(b, "tool", a.Tool, true)
	if !a.Args.IsNull() {
		b = append(b, `,"args":`...)
		b = a.Args.AppendJSON(b)
	}
	b = append(b, `,"ok":`...)
	b = strconv.AppendBool(b, ev.OK)
	b = appendKey(b, "reason", l.Reason(ev), true)
	b = appendKey(b, "output", l.Output(ev), true)
	b = append(b, `,"diff":[`...)
	for i, c := range l.Diff(ev) {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '{')
		field := model.GoalField
		if c.Slot >= 0 {
			t := int(l.final.rec(c.Slot).typ())
			b = appendKey(b, "type", l.Env.TypeName(t), true)
			b = appendKey(b, "id", l.final.idOf(c.Slot, true), true)
			field = l.Env.FieldName(t, int(c.Field))
		}
		if b[len(b)-1] != '{' {
			b = append(b, ',')
		}
		b = append(b, `"field":`...)
		b = model.Str(field).AppendJSON(b)
		b = append(b, `,"before":`...)
		b = c.Before.AppendJSON(b)
		b = append(b, `,"after":`...)
		b = c.After.AppendJSON(b)
		b = append(b, '}')
	}
	b = append(b, ']')
	b = appendKey(b, "goal_version", l.Env.goals[ev.Goal].Version, false)
	b = appendKey(b, "state_hash", ev.Hash.String(), false)
	return append(b, '}')
}

// appendKey appends ,"key":"value" (or "key":… right after an opening
// brace), leaving it out when omitEmpty and the value is empty.
func appendKey(b []byte, key, value string, omitEmpty bool) []byte {
	if omitEmpty && value == "" {
		return b
	}
	if b[len(b)-1] != '{' {
		b = append(b, ',')
	}
	b = append(b, '"')
	b = append(b, key...)
	b = append(b, `":`...)
	return model.Str(value).AppendJSON(b)
}

// EntityRecord is the canonical JSON form of one entity of a snapshot.
type EntityRecord struct {
	Type    string         `json:"type"`
	ID      string         `json:"id"`
	Deleted bool           `json:"deleted,omitempty"`
	Fields  map[string]any `json:"fields"`
}

// Entities lists a state's existing entities in creation order.
func (s *State) Entities() []EntityRecord { return s.EntitiesIn(nil) }

// EntitiesIn lists the entities keep accepts (all, when keep is nil), in
// creation order. The id keep is given shares the state's bytes: keep
// must not hold on to it after it returns.
func (s *State) EntitiesIn(keep func(typ, id string) bool) []EntityRecord {
	var out []EntityRecord
	if keep == nil {
		out = make([]EntityRecord, 0, s.slots())
	}
	for slot := range s.slots() {
		rc := s.rec(slot)
		t := int(rc.typ())
		if !rc.exists() {
			continue
		}
		if keep != nil && !keep(s.env.TypeName(t), s.idOf(slot, true)) {
			continue
		}
		out = append(out, s.entityRecord(slot))
	}
	return out
}

// EntitiesNamed lists the existing entities among these (type, id)
// pairs, in creation order: what EntitiesIn lists with a keep that
// accepts just them, without visiting every entity of a large state.
func (s *State) EntitiesNamed(names [][2]string) []EntityRecord {
	var slots []int32
	for _, n := range names {
		if t, ok := s.env.typeIdx[n[0]]; ok {
			if slot, ok := s.lookup(t, n[1]); ok {
				slots = append(slots, slot)
			}
		}
	}
	slices.Sort(slots)
	slots = slices.Compact(slots)
	out := make([]EntityRecord, 0, len(slots))
	for _, slot := range slots {
		out = append(out, s.entityRecord(slot))
	}
	return out
}

// entityRecord renders an existing slot.
func (s *State) entityRecord(slot int32) EntityRecord {
	rc := s.rec(slot)
	t := int(rc.typ())
	r := EntityRecord{Type: s.env.TypeName(t), ID: s.idOf(slot, false), Deleted: !rc.alive(), Fields: map[string]any{}}
	for fi, v := range s.fields(slot) {
		if !v.IsNull() {
			r.Fields[s.env.FieldName(t, fi)] = v
		}
	}
	return r
}
