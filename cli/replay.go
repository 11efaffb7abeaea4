package cli

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/parthack/parthack/certifier"
	"github.com/parthack/parthack/internal/pipe"
	"github.com/parthack/parthack/internal/spool"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
)

func newReplayCmd(e *env) *cobra.Command {
	var taskPath, trajPath string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "replay --task FILE --trajectory FILE",
		Short: "Replay a trajectory: event log, typed diffs, certified vectors",
		Long: "Replay a trajectory from the task's frozen initial snapshot, interleaving the task's scripted events.\n" +
			"Prints every event (logical time, actor, op, ok or failed with the reason), its typed state diff,\n" +
			"and the certified vectors at termination.\n\n" + trajectoryArgHelp,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			env, err := loadTask(taskPath)
			if err != nil {
				return err
			}
			steps, release, err := e.trajectorySteps("trajectory", taskPath, trajPath)
			if err != nil {
				return usage(err)
			}
			defer release()
			defer streamingGC()()
			return writeReplay(e.stdout, env, episodeSteps(env.Task, trajPath, steps), asJSON)
		},
	}
	cmd.Flags().StringVar(&taskPath, "task", "", "task file (JSON) or suite task id (PH-H05)")
	cmd.Flags().StringVar(&trajPath, "trajectory", "", "trajectory: a file (JSON, gzipped or not), or a stored name")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON instead of a table")
	return cmd
}

type replayJSON struct {
	Task        string               `json:"task"`
	GoalVersion string               `json:"goal_version"`
	Events      []pbcste.EventRecord `json:"events"`
	Certificate *model.Certificate   `json:"certificate,omitempty"`
	Rejection   *rejectionJSON       `json:"rejection,omitempty"`
	// Termination is the benchmark's reason for ending the run itself.
	Termination string `json:"termination_reason,omitempty"`
}

type rejectionJSON struct {
	Reason   model.Reason   `json:"reason"`
	Evidence model.Evidence `json:"evidence"`
}

// writeReplay replays a trajectory and prints its events, each with its
// typed diff, then its certificate or why it has none. The trajectory is
// never held. It is certified first, as it is decoded; the table's header
// names the final goal and the counts, and its columns are as wide as
// their widest cell, so the lines are formatted as the primary
// certifier's events arrive, measured, and kept in a spool (a temporary
// file) until they can be printed. JSON, and a table where no spool can
// be made, are printed from a second reading instead, replayed again.
func writeReplay(w io.Writer, env *pbcste.Env, steps certifier.Steps, asJSON bool) error {
	var termination string
	steps = keepTermination(steps, &termination)
	var t replayTable
	var watch func(*pbcste.Run, *pbcste.Event)
	var measured *pipe.Pipe[heldEvent]
	if !asJSON {
		if lines, err := spool.New(); err == nil {
			defer lines.Close()
			t.lines = lines
		}
		// The primary certifier only holds each event; the lines are
		// formatted and measured on a goroutine of their own.
		measured = pipe.New(shownBatch, shownBatches, func(h *heldEvent) { t.measure(h, &h.ev) })
		watch = func(r *pbcste.Run, ev *pbcste.Event) { measured.Next().hold(r, ev) }
	}
	cert, rej, log, err := certifier.DoubleCertifyStreamWatched(env, steps, watch)
	if measured != nil {
		measured.Close()
	}
	if err != nil {
		return usage(err)
	}
	// A second reading decodes the file beside the replay and the
	// printing.
	steps = ahead(steps)
	if !asJSON && t.irregular {
		// A cell with a tab or a line break in it: tabwriter lays the
		// table out as it always has, holding it whole.
		if err := writeReplayText(w, env, steps, log, cert, rej); err != nil {
			return err
		}
		writeEnded(w, env.Task, termination, false)
		return nil
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	switch {
	case asJSON:
		err = writeReplayJSON(bw, env, steps, log, cert, rej, termination)
	case t.lines != nil:
		err = t.writeSpooled(bw, env, log, cert, rej)
	default:
		err = t.write(bw, env, steps, log, cert, rej)
	}
	if err != nil {
		return err
	}
	if !asJSON {
		writeEnded(bw, env.Task, termination, false)
	}
	return bw.Flush()
}

// keepTermination is steps, keeping the trajectory's termination reason
// in *reason each time they are read.
func keepTermination(steps certifier.Steps, reason *string) certifier.Steps {
	return func(each func([]model.Step)) (*model.Trajectory, int, error) {
		head, n, err := steps(each)
		if head != nil {
			*reason = head.Termination
		}
		return head, n, err
	}
}

// writeEnded says, after a run's replay or scores, how the benchmark
// scores a run it ended itself (nothing for a run its conversation
// ended): the domain's words where it holds conversations; uncomputed
// says that the scores leave out the reward's components.
func writeEnded(w io.Writer, t *model.Task, termination string, uncomputed bool) {
	if termination == "" {
		return
	}
	note := "ended by " + termination
	if c, ok := model.ConversationOf(t); ok {
		note = c.Ended(termination)
	}
	if uncomputed {
		note += ", and computes none of its reward's components"
	}
	fmt.Fprintf(w, "\n%s\n", note)
}

// ahead reads steps on a goroutine of its own, a few batches ahead of
// each, so that decoding a trajectory file runs beside what is done with
// its steps. A batch must be the callee's to keep, as
// model.StreamTrajectory's are, or never change.
func ahead(steps certifier.Steps) certifier.Steps {
	return func(each func([]model.Step)) (*model.Trajectory, int, error) {
		batches := make(chan []model.Step, batchesAhead)
		var (
			tr  *model.Trajectory
			n   int
			err error
		)
		go func() {
			defer close(batches)
			tr, n, err = steps(func(b []model.Step) { batches <- b })
		}()
		for b := range batches {
			each(b)
		}
		return tr, n, err
	}
}

// batchesAhead is how many batches ahead may read.
const batchesAhead = 4

// replayEvents replays the trajectory on a streamed run, handing every
// event, in order, to fn. It returns the finished log (its Events the
// last ones only).
func replayEvents(env *pbcste.Env, steps certifier.Steps, fn func(*pbcste.Run, *pbcste.Event)) (*pbcste.Log, *model.Trajectory, int, error) {
	run := env.Stream()
	tr, n, err := steps(func(batch []model.Step) {
		for i := range batch {
			run.Step(&batch[i])
			evs := run.Events()
			for j := range evs {
				fn(run, &evs[j])
			}
		}
	})
	if err != nil {
		return nil, nil, 0, err
	}
	log := run.Finish()
	for j := range log.Events {
		fn(run, &log.Events[j])
	}
	return log, tr, n, nil
}

// replayTable is the replay's event table, laid out as a tabwriter with
// padding 2 lays it out, but written line by line: every line has the
// same seven cells, so a column's width is its widest cell's, measured
// on a first pass.
type replayTable struct {
	widths    [6]int
	irregular bool // a cell would split or end a tabwriter line
	cells     cells
	lines     *spool.Spool // the lines, results written, as they are measured; nil: measure only
	rec       []byte
}

// cells are one table line's seven cells, in one buffer reused from line
// to line: cell j is buf[end[j-1]:end[j]].
type cells struct {
	buf []byte
	end [7]int
}

func (c *cells) cell(j int) []byte {
	if j == 0 {
		return c.buf[:c.end[0]]
	}
	return c.buf[c.end[j-1]:c.end[j]]
}

// next ends cell j.
func (c *cells) next(j int) { c.end[j] = len(c.buf) }

var replayHead = [7]string{"seq", "t", "actor", "step", "op", "target", "result"}

func (c *cells) set(strs *[7]string) {
	c.buf = c.buf[:0]
	for j, s := range strs {
		c.buf = append(c.buf, s...)
		c.next(j)
	}
}

// eventSource is what knows an event's failure reason and typed diff:
// the run that recorded it, until its next step, or a heldEvent.
type eventSource interface {
	Reason(*pbcste.Event) string
	TypedDiff(*pbcste.Event) []model.CellDiff
}

// heldEvent is an event with its reason and typed diff, taken from the
// run while it knew them, to be shown after the run has moved on.
type heldEvent struct {
	ev             pbcste.Event
	reason, output string
	diff           []model.CellDiff
}

func (h *heldEvent) hold(r *pbcste.Run, ev *pbcste.Event) {
	h.ev, h.reason, h.output, h.diff = *ev, "", r.Output(ev), nil
	if !ev.OK {
		h.reason = r.Reason(ev)
	}
	if ev.DiffLen() > 0 {
		h.diff = r.TypedDiff(ev)
	}
}

func (h *heldEvent) Reason(*pbcste.Event) string              { return h.reason }
func (h *heldEvent) TypedDiff(*pbcste.Event) []model.CellDiff { return h.diff }

// replayShown replays the trajectory as replayEvents does and shows its
// events on a goroutine of its own, beside the replay: hold takes from
// the run what show needs of an event into a slot, which show then reads.
// It returns the finished log.
func replayShown[T any](env *pbcste.Env, steps certifier.Steps, hold func(*T, *pbcste.Run, *pbcste.Event), show func(*T)) (*pbcste.Log, error) {
	p := pipe.New(shownBatch, shownBatches, show)
	log, _, _, err := replayEvents(env, steps, func(r *pbcste.Run, ev *pbcste.Event) { hold(p.Next(), r, ev) })
	p.Close()
	return log, err
}

// shownBatch is how many events go to be shown at once, and
// shownBatches how many batches are in use.
const (
	shownBatch   = 1024
	shownBatches = 4
)

// eventCells writes the cells of an event's line, then of each diff
// line, into c, handing each line to line; r is what recorded the
// event. Without results, the last cell of every line is left empty: a
// line's last cell has no width to measure, and a diff's values, JSON,
// hold no tab or line break.
func eventCells(r eventSource, ev *pbcste.Event, c *cells, line func(*cells), results bool) {
	a := ev.Action
	b := strconv.AppendInt(c.buf[:0], int64(ev.Seq+1), 10)
	c.buf = b
	c.next(0)
	c.buf = strconv.AppendInt(c.buf, int64(ev.Time()), 10)
	c.next(1)
	c.buf = append(c.buf, ev.Actor()...)
	c.next(2)
	if ev.Step >= 0 {
		c.buf = strconv.AppendInt(c.buf, int64(ev.Step+1), 10)
	} else {
		c.buf = append(c.buf, '-')
	}
	c.next(3)
	c.buf = append(c.buf, a.Op...)
	c.next(4)
	switch a.Op {
	case model.OpReviseGoal:
		c.buf = append(append(c.buf, "goal "...), a.Goal...)
	case model.OpCall:
		start := len(c.buf)
		c.buf = a.Args.AppendJSON(append(c.buf, a.Tool...))
		if t := c.buf[start:]; len(t) > 100 && utf8.RuneCount(t) > 100 {
			cut := start
			for range 99 {
				_, size := utf8.DecodeRune(c.buf[cut:])
				cut += size
			}
			c.buf = append(c.buf[:cut], "…"...)
		}
	default:
		c.buf = append(append(append(c.buf, a.Type...), ' '), a.ID...)
	}
	c.next(5)
	switch {
	case ev.OK && results:
		c.buf = append(c.buf, "ok"...)
	case !ev.OK && (results || irregular(r.Reason(ev))):
		c.buf = append(append(c.buf, "FAILED: "...), r.Reason(ev)...)
	}
	c.next(6)
	line(c)
	if ev.DiffLen() == 0 {
		return
	}
	for _, d := range r.TypedDiff(ev) {
		c.buf = c.buf[:0]
		for j := range 5 {
			c.next(j)
		}
		c.buf = append(c.buf, "  "...)
		if d.Field == model.GoalField {
			c.buf = append(c.buf, "goal version"...)
		} else {
			c.buf = append(append(append(append(append(c.buf, d.Type...), ' '), d.ID...), " ."...), strings.TrimPrefix(d.Field, "@")...)
		}
		c.next(5)
		if results {
			c.buf = d.After.AppendJSON(append(d.Before.AppendJSON(c.buf), " → "...))
		}
		c.next(6)
		line(c)
	}
}

// irregular reports whether a cell holds a byte that would split or end
// a tabwriter line.
func irregular[T string | []byte](cell T) bool {
	for i := 0; i < len(cell); i++ {
		if b := cell[i]; b == '\t' || b == '\n' || b == '\v' || b == '\f' {
			return true
		}
	}
	return false
}

func (t *replayTable) fit(c *cells) {
	for j := range 7 {
		cell := c.cell(j)
		t.irregular = t.irregular || irregular(cell)
		if j < len(t.widths) {
			t.widths[j] = max(t.widths[j], utf8.RuneCount(cell))
		}
	}
}

func (t *replayTable) measure(r eventSource, ev *pbcste.Event) {
	if t.widths[0] == 0 {
		head := replayHead
		t.cells.set(&head)
		t.fit(&t.cells)
	}
	if t.lines == nil {
		eventCells(r, ev, &t.cells, t.fit, false)
		return
	}
	eventCells(r, ev, &t.cells, t.keep, true)
}

// keep measures a line and keeps it in the spool: its cells' ends, then
// their bytes.
func (t *replayTable) keep(c *cells) {
	t.fit(c)
	b := t.rec[:0]
	for _, end := range c.end {
		b = binary.AppendUvarint(b, uint64(end))
	}
	t.rec = append(b, c.buf...)
	t.lines.Add(t.rec)
}

// writeSpooled prints the table from the lines kept in the spool.
func (t *replayTable) writeSpooled(w *bufio.Writer, env *pbcste.Env, log *pbcste.Log, cert *model.Certificate, rej *model.Rejection) error {
	head := replayHead
	t.cells.set(&head)
	if t.widths[0] == 0 {
		t.fit(&t.cells) // no event: the head alone
	}
	fmt.Fprintf(w, "task %s   goal %s   agent steps %d   events %d\n\n", env.Task.ID, log.Goal().Version, log.Steps, log.Len())
	t.line(w, &t.cells)
	var c cells
	if err := t.lines.Each(func(rec []byte) {
		for j := range c.end {
			end, n := binary.Uvarint(rec)
			c.end[j], rec = int(end), rec[n:]
		}
		c.buf = rec
		t.line(w, &c)
	}); err != nil {
		return err
	}
	fmt.Fprintln(w)
	writeOutcome(w, cert, rej)
	return nil
}

// spaces pads cells, a slice of it at a time.
var spaces = strings.Repeat(" ", 256)

// line writes one table line, each cell but the last padded to its
// column's width and 2 more.
func (t *replayTable) line(w *bufio.Writer, c *cells) {
	for j := range 6 {
		cell := c.cell(j)
		w.Write(cell)
		for pad := t.widths[j] + 2 - utf8.RuneCount(cell); pad > 0; pad -= len(spaces) {
			w.WriteString(spaces[:min(pad, len(spaces))])
		}
	}
	w.Write(c.cell(6))
	w.WriteByte('\n')
}

func (t *replayTable) write(w *bufio.Writer, env *pbcste.Env, steps certifier.Steps, log *pbcste.Log, cert *model.Certificate, rej *model.Rejection) error {
	head := replayHead
	t.cells.set(&head)
	if t.widths[0] == 0 {
		t.fit(&t.cells)
	}
	fmt.Fprintf(w, "task %s   goal %s   agent steps %d   events %d\n\n", env.Task.ID, log.Goal().Version, log.Steps, log.Len())
	t.line(w, &t.cells)
	print := func(c *cells) { t.line(w, c) }
	if _, err := replayShown(env, steps, (*heldEvent).hold, func(h *heldEvent) {
		eventCells(h, &h.ev, &t.cells, print, true)
	}); err != nil {
		return err
	}
	fmt.Fprintln(w)
	writeOutcome(w, cert, rej)
	return nil
}

// writeReplayText lays the table out with tabwriter, holding it whole,
// for the tables replayTable cannot write line by line.
func writeReplayText(w io.Writer, env *pbcste.Env, steps certifier.Steps, log *pbcste.Log, cert *model.Certificate, rej *model.Rejection) error {
	fmt.Fprintf(w, "task %s   goal %s   agent steps %d   events %d\n\n", env.Task.ID, log.Goal().Version, log.Steps, log.Len())
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(replayHead[:], "\t"))
	var c cells
	if _, _, _, err := replayEvents(env, steps, func(r *pbcste.Run, ev *pbcste.Event) {
		eventCells(r, ev, &c, func(c *cells) {
			for j := range 6 {
				tw.Write(c.cell(j))
				tw.Write([]byte{'\t'})
			}
			tw.Write(c.cell(6))
			tw.Write([]byte{'\n'})
		}, true)
	}); err != nil {
		return err
	}
	tw.Flush()
	fmt.Fprintln(w)
	writeOutcome(w, cert, rej)
	return nil
}

func writeOutcome(w io.Writer, cert *model.Certificate, rej *model.Rejection) {
	if rej != nil {
		fmt.Fprintf(w, "not certifiable: %s\n  %s\n", rej.Reason, describeEvidence(&rej.Evidence))
		return
	}
	writeCertificate(w, "certified", cert)
}

// writeReplayJSON writes the replay as one JSON document, its events as
// they are replayed, byte for byte what writeJSON writes of a replayJSON.
func writeReplayJSON(w *bufio.Writer, env *pbcste.Env, steps certifier.Steps, log *pbcste.Log, cert *model.Certificate, rej *model.Rejection, termination string) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	value := func(prefix string, v any) error {
		buf.Reset()
		enc.SetIndent(prefix, "  ")
		if err := enc.Encode(v); err != nil {
			return err
		}
		w.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
		return nil
	}
	w.WriteString("{\n  \"task\": ")
	value("  ", env.Task.ID)
	w.WriteString(",\n  \"goal_version\": ")
	value("  ", log.Goal().Version)
	w.WriteString(",\n  \"events\": [")
	n := 0
	var rec eventJSON
	if _, err := replayShown(env, steps, (*heldEvent).hold, func(h *heldEvent) {
		if n > 0 {
			w.WriteString(",")
		}
		w.WriteString("\n    ")
		w.Write(rec.append(env, h))
		n++
	}); err != nil {
		return err
	}
	if n > 0 {
		w.WriteString("\n  ")
	}
	w.WriteString("]")
	if cert != nil {
		w.WriteString(",\n  \"certificate\": ")
		if err := value("  ", cert); err != nil {
			return err
		}
	}
	if rej != nil {
		w.WriteString(",\n  \"rejection\": ")
		if err := value("  ", rejectionJSON{Reason: rej.Reason, Evidence: rej.Evidence}); err != nil {
			return err
		}
	}
	if termination != "" {
		w.WriteString(",\n  \"termination_reason\": ")
		value("  ", termination)
	}
	w.WriteString("\n}\n")
	return nil
}

// eventJSON writes an event's record as writeReplayJSON's encoder
// writes it in the events list, indented, without reflection: the fields
// in their order, empty ones left out as their tags say, the action's
// fields by name, a nested value indented by json.Indent as the encoder
// indents it.
type eventJSON struct {
	b      []byte
	first  bool // no field is written yet at this level
	val    bytes.Buffer
	fields []model.Assign // the action's fields, sorted by name
}

// The indentation of a record's lines, of its fields' and diff's
// elements, and of a diff cell's fields, in the events list.
const (
	recordIn1 = "\n      "
	recordIn2 = "\n        "
	recordIn3 = "\n          "
)

// key starts a member at the indentation in.
func (j *eventJSON) key(in, name string) {
	if !j.first {
		j.b = append(j.b, ',')
	}
	j.first = false
	j.b = append(append(append(append(j.b, in...), '"'), name...), `": `...)
}

func (j *eventJSON) str(in, name, s string, omitEmpty bool) {
	if omitEmpty && s == "" {
		return
	}
	j.key(in, name)
	j.b = model.Str(s).AppendJSON(j.b)
}

// value writes a value whose key's line is indented by in.
func (j *eventJSON) value(in string, v model.Value) {
	start := len(j.b)
	j.b = v.AppendJSON(j.b)
	if c := j.b[start:]; len(c) > 2 && (c[0] == '[' || c[0] == '{') {
		j.val.Reset()
		json.Indent(&j.val, c, in[1:], "  ") // compact JSON of a value: it indents
		j.b = append(j.b[:start], j.val.Bytes()...)
	}
}

// append writes the record of a held event as pbcste.Run.Record gives
// it: its action's fields sorted by name, the last of a repeated name
// kept, as the record's map keeps it.
func (j *eventJSON) append(env *pbcste.Env, h *heldEvent) []byte {
	ev, a := &h.ev, h.ev.Action
	j.b, j.first = append(j.b[:0], '{'), true
	j.key(recordIn1, "seq")
	j.b = strconv.AppendInt(j.b, int64(ev.Seq+1), 10)
	j.key(recordIn1, "t")
	j.b = strconv.AppendInt(j.b, int64(ev.Time()), 10)
	if ev.Step >= 0 {
		j.key(recordIn1, "step")
		j.b = strconv.AppendInt(j.b, int64(ev.Step+1), 10)
	}
	j.str(recordIn1, "actor", string(ev.Actor()), false)
	j.str(recordIn1, "op", string(a.Op), false)
	j.str(recordIn1, "type", a.Type, true)
	j.str(recordIn1, "id", a.ID, true)
	if len(a.Fields) > 0 {
		j.key(recordIn1, "fields")
		j.b, j.first = append(j.b, '{'), true
		j.fields = append(j.fields[:0], a.Fields...)
		slices.SortStableFunc(j.fields, func(x, y model.Assign) int { return strings.Compare(x.Field, y.Field) })
		for i, f := range j.fields {
			if i+1 < len(j.fields) && j.fields[i+1].Field == f.Field {
				continue
			}
			if !j.first {
				j.b = append(j.b, ',')
			}
			j.first = false
			j.b = append(model.Str(f.Field).AppendJSON(append(j.b, recordIn2...)), ": "...)
			j.value(recordIn2, f.Value)
		}
		j.b, j.first = append(append(j.b, recordIn1...), '}'), false
	}
	j.str(recordIn1, "goal", a.Goal, true)
	j.str(recordIn1, "tool", a.Tool, true)
	if !a.Args.IsNull() {
		j.key(recordIn1, "args")
		j.value(recordIn1, a.Args)
	}
	j.key(recordIn1, "ok")
	j.b = strconv.AppendBool(j.b, ev.OK)
	j.str(recordIn1, "reason", h.reason, true)
	j.str(recordIn1, "output", h.output, true)
	j.key(recordIn1, "diff")
	if h.diff == nil {
		j.b = append(j.b, "[]"...)
	} else {
		j.b = append(j.b, '[')
		for i := range h.diff {
			d := &h.diff[i]
			if i > 0 {
				j.b = append(j.b, ',')
			}
			j.b, j.first = append(append(j.b, recordIn2...), '{'), true
			j.str(recordIn3, "type", d.Type, true)
			j.str(recordIn3, "id", d.ID, true)
			j.str(recordIn3, "field", d.Field, false)
			j.key(recordIn3, "before")
			j.value(recordIn3, d.Before)
			j.key(recordIn3, "after")
			j.value(recordIn3, d.After)
			j.b = append(append(j.b, recordIn2...), '}')
		}
		j.b = append(append(j.b, recordIn1...), ']')
	}
	j.first = false
	j.str(recordIn1, "goal_version", env.Goals()[ev.Goal].Version, false)
	j.key(recordIn1, "state_hash")
	j.b = append(ev.Hash.AppendHex(append(j.b, '"')), '"')
	return append(j.b, "\n    }"...)
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func vec(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprint(x)
	}
	return "[" + strings.Join(s, " ") + "]"
}

func writeCertificate(w io.Writer, label string, c *model.Certificate) {
	fmt.Fprintf(w, "%-10s goal %s   c_state %s   c_agent %s   P_state %s   P_agent %s\n", label, c.GoalVersion, vec(c.CState), vec(c.CAgent), c.PState, c.PAgent)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for j, id := range c.Predicates {
		cause := string(c.Causes[j].Actor)
		if c.Causes[j].Seq > 0 {
			cause += fmt.Sprintf(" @ event %d", c.Causes[j].Seq)
		}
		fmt.Fprintf(tw, "  g%d\t%s\tholds=%d\tagent=%d\tlatest cause: %s\n", j+1, id, c.CState[j], c.CAgent[j], cause)
	}
	tw.Flush()
	fmt.Fprintf(w, "  final state %s\n  log         %s\n", c.FinalHash, c.LogHash)
}

func describeEvidence(ev *model.Evidence) string {
	head := strings.Join(ev.Where(), ", ")
	if head == "" {
		return ev.Detail
	}
	return head + "\n  " + ev.Detail
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
