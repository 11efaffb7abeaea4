package model

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"unicode/utf8"
)

// Canonical encodes v as canonical JSON: struct fields in declaration
// order, map keys sorted, no HTML escaping, no insignificant white space.
// The same value always gives the same bytes.
func Canonical(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// Hash is the hex sha256 of b, the content hash used everywhere.
func Hash(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// EncodeTrajectory writes a trajectory in the file format DecodeTrajectory
// reads, one step per line, so exported witnesses diff well and round-trip.
func EncodeTrajectory(tr *Trajectory) []byte { return AppendTrajectory(nil, tr) }

// AppendTrajectory appends EncodeTrajectory(tr) to b.
func AppendTrajectory(b []byte, tr *Trajectory) []byte {
	// Room for the conversation's text up front: a long message is
	// copied once, not once for each time a growing buffer doubles.
	text := 0
	for _, t := range tr.Transcript {
		text += t.Content.Len() + 64
	}
	e := &trajectoryEncoder{b: slices.Grow(b, 256+len(tr.Note)+128*len(tr.Steps)+text)}
	e.encode(tr)
	if e.err != nil { // a spilled message not read back (see Text.String)
		panic(fmt.Sprintf("model.AppendTrajectory: %v", e.err))
	}
	return e.b
}

// WriteTrajectory writes EncodeTrajectory(tr) to w in pieces of about
// 64 KiB, a long message escaped a piece at a time: the encoding is never
// held whole, whatever the conversation's length.
func WriteTrajectory(w io.Writer, tr *Trajectory) error {
	e := &trajectoryEncoder{b: make([]byte, 0, 2*writePiece), w: w}
	e.encode(tr)
	if e.err == nil && len(e.b) > 0 {
		_, e.err = w.Write(e.b)
	}
	return e.err
}

// writePiece is how much WriteTrajectory gathers before it writes.
const writePiece = 64 << 10

// trajectoryEncoder encodes a trajectory into b, which it hands to w
// whenever it has gathered a piece (with w nil, it keeps everything).
type trajectoryEncoder struct {
	b   []byte
	w   io.Writer
	err error
	esc jsonEscaper // for the pieces of a long message
}

// flush writes what is gathered once it is a piece.
func (e *trajectoryEncoder) flush() {
	if e.w == nil || e.err != nil || len(e.b) < writePiece {
		return
	}
	_, e.err = e.w.Write(e.b)
	e.b = e.b[:0]
}

// text appends t as a JSON string; a long one, when writing, a piece at a
// time, cut where a character starts so that each piece escapes as it
// would within the whole (a spilled one is read back in such pieces).
func (e *trajectoryEncoder) text(t Text) {
	if t.sp == nil && (e.w == nil || len(t.s) <= writePiece) {
		e.b = appendJSONString(e.b, t.s)
		return
	}
	e.b = append(e.b, '"')
	err := t.Pieces(func(s string) error {
		for len(s) > 0 {
			n := min(writePiece, len(s))
			for n < len(s) && !utf8.RuneStart(s[n]) {
				n++
			}
			e.b = e.esc.appendBody(e.b, s[:n])
			s = s[n:]
			e.flush()
		}
		return e.err
	})
	if e.err == nil {
		e.err = err
	}
	e.b = append(e.b, '"')
}

func (e *trajectoryEncoder) encode(tr *Trajectory) {
	b := e.b
	b = append(b, "{\n  \"format\": "...)
	b = appendJSONString(b, TrajectoryFormat)
	b = append(b, ",\n  \"task\": "...)
	b = appendJSONString(b, tr.Task)
	if tr.Name != "" {
		b = append(b, ",\n  \"name\": "...)
		b = appendJSONString(b, tr.Name)
	}
	if tr.Note != "" {
		b = append(b, ",\n  \"note\": "...)
		b = appendJSONString(b, tr.Note)
	}
	if tr.GoalClaim != "" {
		b = append(b, ",\n  \"goal_version\": "...)
		b = appendJSONString(b, tr.GoalClaim)
	}
	if tr.Honest != "" {
		b = append(b, ",\n  \"honest\": "...)
		b = appendJSONString(b, tr.Honest)
	}
	b = append(b, ",\n  \"steps\": ["...)
	for i, st := range tr.Steps {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, "\n    "...)
		e.b = AppendStep(b, &st)
		e.flush()
		b = e.b
	}
	if len(tr.Steps) > 0 {
		b = append(b, "\n  "...)
	}
	b = append(b, ']')
	if len(tr.Transcript) > 0 {
		b = append(b, ",\n  \"transcript\": ["...)
		for i, t := range tr.Transcript {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, "\n    {\"role\": "...)
			b = appendJSONString(b, t.Role)
			e.b = append(b, ", \"content\": "...)
			e.text(t.Content)
			b = e.b
			if t.Step > 0 {
				b = append(b, ", \"step\": "...)
				b = strconv.AppendInt(b, int64(t.Step), 10)
			}
			e.b = append(b, '}')
			e.flush()
			b = e.b
		}
		b = append(b, "\n  ]"...)
	}
	if tr.Termination != "" {
		b = append(b, ",\n  \"termination_reason\": "...)
		b = appendJSONString(b, tr.Termination)
	}
	if tr.MaxErrors > 0 {
		b = append(b, ",\n  \"max_errors\": "...)
		b = strconv.AppendInt(b, int64(tr.MaxErrors), 10)
	}
	if tr.MaxSteps > 0 {
		b = append(b, ",\n  \"max_steps\": "...)
		b = strconv.AppendInt(b, int64(tr.MaxSteps), 10)
		b = append(b, ",\n  \"benchmark_steps\": "...)
		b = strconv.AppendInt(b, int64(tr.BenchmarkSteps), 10)
	}
	e.b = append(b, "\n}\n"...)
}

// AppendStep appends one step as a single-line JSON object.
func AppendStep(b []byte, st *Step) []byte {
	b = append(b, '{')
	if st.Number != 0 {
		b = append(b, `"step": `...)
		b = strconv.AppendInt(b, int64(st.Number), 10)
		b = append(b, ", "...)
	}
	if st.Actor != "" {
		b = append(b, `"actor": `...)
		b = appendJSONString(b, string(st.Actor))
		b = append(b, ", "...)
	}
	b = append(b, `"op": `...)
	b = appendJSONString(b, string(st.Op))
	switch st.Op {
	case OpReviseGoal:
		b = append(b, `, "goal": `...)
		b = appendJSONString(b, st.Goal)
	case OpCall:
		b = append(b, `, "tool": `...)
		b = appendJSONString(b, st.Tool)
		b = append(b, `, "args": `...)
		b = st.Args.AppendJSON(b)
	default:
		b = append(b, `, "type": `...)
		b = appendJSONString(b, st.Type)
		b = append(b, `, "id": `...)
		b = appendJSONString(b, st.ID)
		if len(st.Fields) > 0 {
			b = append(b, `, "fields": {`...)
			for i, a := range st.Fields {
				if i > 0 {
					b = append(b, ", "...)
				}
				b = appendJSONString(b, a.Field)
				b = append(b, ": "...)
				b = a.Value.AppendJSON(b)
			}
			b = append(b, '}')
		}
	}
	if c := st.Claim; c.HasOK || c.StateHash != "" || c.HasDiff {
		b = append(b, `, "claim": {`...)
		sep := ""
		if c.HasOK {
			b = append(b, `"ok": `...)
			b = strconv.AppendBool(b, c.OK)
			sep = ", "
		}
		if c.StateHash != "" {
			b = append(b, sep+`"state_hash": `...)
			b = appendJSONString(b, c.StateHash)
			sep = ", "
		}
		if c.HasDiff {
			diff, _ := Canonical(c.Diff)
			b = append(b, sep+`"diff": `...)
			b = append(b, diff...)
		}
		b = append(b, '}')
	}
	if st.Comment != "" {
		b = append(b, `, "comment": `...)
		b = appendJSONString(b, st.Comment)
	}
	return append(b, '}')
}
