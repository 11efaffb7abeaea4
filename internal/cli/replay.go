package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/parthack/parthack/certifier"
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
			return writeReplay(e.stdout, env, steps, asJSON)
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
}

type rejectionJSON struct {
	Reason   model.Reason   `json:"reason"`
	Evidence model.Evidence `json:"evidence"`
}

// writeReplay replays a trajectory and prints its events, each with its
// typed diff, then its certificate or why it has none. The trajectory is
// streamed twice and never held: first to certify it and to measure the
// table's columns (the header names the final goal and the counts), then
// to print its events as they are replayed, through a buffer.
func writeReplay(w io.Writer, env *pbcste.Env, steps certifier.Steps, asJSON bool) error {
	var t replayTable
	measure := func(r *pbcste.Run, ev *pbcste.Event) {
		if !asJSON {
			t.measure(r.Record(ev))
		}
	}
	var log *pbcste.Log
	cert, rej, err := certifier.DoubleCertifyStream(env, func(each func([]model.Step)) (*model.Trajectory, int, error) {
		var tr *model.Trajectory
		var n int
		var err error
		log, tr, n, err = replayEvents(env, steps, each, measure)
		return tr, n, err
	})
	if err != nil {
		return usage(err)
	}
	if !asJSON && t.irregular {
		// A cell with a tab or a line break in it: tabwriter lays the
		// table out as it always has, holding it whole.
		return writeReplayText(w, env, steps, log, cert, rej)
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	if asJSON {
		err = writeReplayJSON(bw, env, steps, log, cert, rej)
	} else {
		err = t.write(bw, env, steps, log, cert, rej)
	}
	if err != nil {
		return err
	}
	return bw.Flush()
}

// replayEvents replays the trajectory on a streamed run, handing each
// batch of steps on to each (when not nil) and every event, in order, to
// fn. It returns the finished log (its Events the last ones only).
func replayEvents(env *pbcste.Env, steps certifier.Steps, each func([]model.Step), fn func(*pbcste.Run, *pbcste.Event)) (*pbcste.Log, *model.Trajectory, int, error) {
	run := env.Stream()
	tr, n, err := steps(func(batch []model.Step) {
		if each != nil {
			each(batch)
		}
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
	cells     [7]string
}

var replayHead = [7]string{"seq", "t", "actor", "step", "op", "target", "result"}

// eventCells are the cells of an event's line, then of each diff line.
func eventCells(r *pbcste.EventRecord, out *[7]string, diff func(cells *[7]string)) {
	step := "-"
	if r.Step > 0 {
		step = strconv.Itoa(r.Step)
	}
	target := r.Type + " " + r.ID
	switch r.Op {
	case model.OpReviseGoal:
		target = "goal " + r.Goal
	case model.OpCall:
		target = r.Tool + r.Args.String()
		if r := []rune(target); len(r) > 100 {
			target = string(r[:99]) + "…"
		}
	}
	result := "ok"
	if !r.OK {
		result = "FAILED: " + r.Reason
	}
	*out = [7]string{strconv.Itoa(r.Seq), strconv.Itoa(r.Time), string(r.Actor), step, string(r.Op), target, result}
	diff(out)
	for _, d := range r.Diff {
		*out = [7]string{"", "", "", "", "", "  " + describeCell(d), fmt.Sprintf("%s → %s", d.Before, d.After)}
		diff(out)
	}
}

func (t *replayTable) fit(cells *[7]string) {
	for j, c := range cells {
		if strings.ContainsAny(c, "\t\n\v\f") {
			t.irregular = true
		}
		if j < len(t.widths) {
			t.widths[j] = max(t.widths[j], utf8.RuneCountInString(c))
		}
	}
}

func (t *replayTable) measure(r pbcste.EventRecord) {
	if t.widths[0] == 0 {
		head := replayHead
		t.fit(&head)
	}
	eventCells(&r, &t.cells, t.fit)
}

// line writes one table line, each cell but the last padded to its
// column's width and 2 more.
func (t *replayTable) line(w *bufio.Writer, cells *[7]string) {
	for j, c := range cells[:6] {
		w.WriteString(c)
		for range t.widths[j] + 2 - utf8.RuneCountInString(c) {
			w.WriteByte(' ')
		}
	}
	w.WriteString(cells[6])
	w.WriteByte('\n')
}

func (t *replayTable) write(w *bufio.Writer, env *pbcste.Env, steps certifier.Steps, log *pbcste.Log, cert *model.Certificate, rej *model.Rejection) error {
	if t.widths[0] == 0 {
		head := replayHead
		t.fit(&head)
	}
	fmt.Fprintf(w, "task %s   goal %s   agent steps %d   events %d\n\n", env.Task.ID, log.Goal().Version, log.Steps, log.Len())
	head := replayHead
	t.line(w, &head)
	print := func(cells *[7]string) { t.line(w, cells) }
	if _, _, _, err := replayEvents(env, steps, nil, func(r *pbcste.Run, ev *pbcste.Event) {
		rec := r.Record(ev)
		eventCells(&rec, &t.cells, print)
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
	var cells [7]string
	if _, _, _, err := replayEvents(env, steps, nil, func(r *pbcste.Run, ev *pbcste.Event) {
		rec := r.Record(ev)
		eventCells(&rec, &cells, func(c *[7]string) { fmt.Fprintln(tw, strings.Join(c[:], "\t")) })
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
func writeReplayJSON(w *bufio.Writer, env *pbcste.Env, steps certifier.Steps, log *pbcste.Log, cert *model.Certificate, rej *model.Rejection) error {
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
	var encErr error
	if _, _, _, err := replayEvents(env, steps, nil, func(r *pbcste.Run, ev *pbcste.Event) {
		if n > 0 {
			w.WriteString(",")
		}
		w.WriteString("\n    ")
		if err := value("    ", r.Record(ev)); err != nil && encErr == nil {
			encErr = err
		}
		n++
	}); err != nil {
		return err
	}
	if encErr != nil {
		return encErr
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
	w.WriteString("\n}\n")
	return nil
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func describeCell(d model.CellDiff) string {
	if d.Field == model.GoalField {
		return "goal version"
	}
	return fmt.Sprintf("%s %s .%s", d.Type, d.ID, strings.TrimPrefix(d.Field, "@"))
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
