package cli

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/parthack/parthack/certifier"
	"github.com/parthack/parthack/domains"
	"github.com/parthack/parthack/evaluators"
	"github.com/parthack/parthack/internal/payload"
	"github.com/parthack/parthack/internal/payload/builder"
	"github.com/parthack/parthack/internal/pipe"
	"github.com/parthack/parthack/internal/spool"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
)

// The score and payload commands are the trusted parent of SPEC §4: they
// replay on the trusted task, build the public payload, and from then on
// handle only its bytes.

func newScoreCmd(e *env) *cobra.Command {
	var taskArg, trajPath string
	var steps, asJSON bool
	var jf judgeFlags
	var sf scorerFlags
	cmd := &cobra.Command{
		Use:   "score --task ID|FILE --trajectory FILE [--steps] [--json] [--judge [--idj]] [--scorer PATH [--scorer-ro PATH]...]",
		Short: "Score a trajectory with every deterministic evaluator",
		Long: "Replay the trajectory on the trusted task, build its public payload, and score the payload's bytes\n" +
			"with the six deterministic evaluators: Historical Milestone, Predicate-Max, CAPE-Max, CSPS,\n" +
			"Lightweight CAPE and Terminal Outcome; on a real benchmark's task, also the benchmark's own evaluators\n" +
			"(its reward, and its components), from the same bytes. --steps scores every prefix instead (the six\n" +
			"only): one row per event (event 0 is the initial state), one column per evaluator.\n\n" +
			"--judge adds the schema-aware LLM judge, --idj also IDJ, from any OpenAI-compatible endpoint\n" +
			"(flags or PARTHACK_JUDGE_* / PARTHACK_IDJ_*); with none configured they say \"not configured\".\n" +
			"Where a task's reward basis holds NL_ASSERTION, --judge also has the judge's endpoint decide it with the\n" +
			"benchmark's own prompts, and multiplies it into the reward; without, the reward leaves it out and says so.\n" +
			"--record keeps every request and response; --replay answers from such a recording, offline.\n\n" +
			"--scorer adds your own scorer program, run sandboxed on the payload bytes (see `parthack audit --probes`).\n\n" +
			trajectoryArgHelp + "\n\n" +
			"Exit codes: 0 scored, 2 bad input or usage, or an LLM judge or the scorer that gave no score.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			judging, err := jf.on(cmd, steps)
			if err != nil {
				return err
			}
			scoring, err := sf.on(cmd, steps)
			if err != nil {
				return err
			}
			if steps {
				return e.scoreSteps(taskArg, trajPath, asJSON)
			}
			// The judges, the scorer and a domain's own rewards read
			// the payload whole; the deterministic evaluators read it as
			// it is written.
			var rewards []domains.Reward
			var task *model.Task
			d, dt, ok, _ := domainTask(taskArg)
			if ok {
				rewards, task = d.Rewards(), dt.Model
			}
			if scoring {
				if err := sf.checkInput(d); err != nil {
					return err
				}
			}
			var whole bytes.Buffer
			var tee io.Writer
			if judging || scoring || len(rewards) > 0 {
				tee = &whole
			}
			var last []float64
			events := 0
			tr, p, hash, err := e.streamScores(taskArg, trajPath, tee, func(k int, _ *payload.Event, s []float64) {
				last, events = append(last[:0], s...), k
			})
			if err != nil {
				return err
			}
			scores := labelled(last)
			var rewarded []rewardRow
			nl := false
			if len(rewards) > 0 {
				if rewarded, nl, err = domainRewards(rewards, whole.Bytes()); err != nil {
					return err
				}
			}
			var judged []judgeRow
			if judging {
				if judged, err = jf.score(cmd.Context(), whole.Bytes(), nl); err != nil {
					return err
				}
			}
			if nl {
				withJudge(rewarded, judged)
			}
			if scoring {
				judged = append(judged, sf.score(cmd.Context(), whole.Bytes(), d))
			}
			if asJSON {
				if err := writeJSON(e.stdout, scoresJSON{Task: p.Task, Hash: hash, Scores: scores, Rewards: rewarded, Judges: judged, Termination: tr.Termination}); err != nil {
					return err
				}
				writeNLNote(e.stderr, rewarded, judged, judging)
				return judgeFailure(judged)
			}
			fmt.Fprintf(e.stdout, "task %s   trajectory %s   events %d   payload sha256 %s\n\n", p.Task, orDash(tr.Name), events, hash)
			tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "evaluator\tscore")
			for _, s := range scores {
				fmt.Fprintf(tw, "%s\t%.3f\n", s.Label, s.Value)
			}
			for _, r := range rewarded {
				fmt.Fprintf(tw, "%s\t%.3f\n", r.cellLabel(), r.Value)
			}
			for _, r := range judged {
				fmt.Fprintf(tw, "%s\t%s\n", r.Label, r.cell())
			}
			if err := tw.Flush(); err != nil {
				return err
			}
			writeEnded(e.stdout, task, tr.Termination, len(rewarded) < len(rewards))
			if nl && len(rewarded[0].NotComputed) > 0 {
				fmt.Fprintln(e.stdout)
				writeNLNote(e.stdout, rewarded, judged, judging)
			}
			if len(judged) == 0 {
				return nil
			}
			writeJudgeDetails(e.stdout, judged)
			writeScorerDetails(e.stdout, judged)
			return judgeFailure(judged)
		},
	}
	cmd.Flags().StringVar(&taskArg, "task", "", "suite task id (PH-D01 … PH-H18) or task file (JSON)")
	cmd.Flags().StringVar(&trajPath, "trajectory", "", "trajectory: a file (JSON, gzipped or not), or a stored name")
	cmd.Flags().BoolVar(&steps, "steps", false, "score every prefix of the log")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON instead of a table")
	jf.add(cmd)
	sf.add(cmd)
	return cmd
}

func newPayloadCmd(e *env) *cobra.Command {
	var taskArg, trajPath, projection string
	cmd := &cobra.Command{
		Use:   "payload --task ID|FILE --trajectory FILE [--projection idj]",
		Short: "Print the public payload evaluators receive for a trajectory",
		Long: "Replay the trajectory on the trusted task and print its public payload exactly as every evaluator\n" +
			"receives it: the canonical JSON bytes on stdout, with no trailing newline, so that\n" +
			"`parthack payload … | sha256sum` reproduces the hash. The sha256 goes to stderr as \"sha256 <hex>\".\n" +
			"--projection idj prints the schema-free projection the IDJ judge reads instead (no goal schema).\n\n" +
			trajectoryArgHelp + "\n\n" +
			"Exit codes: 0 printed, 2 bad input or usage.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if projection != "" && projection != "idj" {
				return usageErr("--projection: unknown projection %q (the one projection is idj)", projection)
			}
			src, err := e.openPayload(taskArg, trajPath)
			if err != nil {
				return err
			}
			defer src.release()
			defer streamingGC()()
			// The file is read through once first, so that a file that
			// does not decode, breaks its episode's rule or is another
			// task's prints nothing.
			if err := src.check(src.steps(func([]model.Step) {})); err != nil {
				return err
			}
			h := newHasher()
			err = src.write(io.MultiWriter(e.stdout, h), projection == "idj")
			sum := h.sum()
			if err != nil {
				return err
			}
			fmt.Fprintf(e.stderr, "sha256 %s\n", sum)
			return nil
		},
	}
	cmd.Flags().StringVar(&taskArg, "task", "", "suite task id (PH-D01 … PH-H18) or task file (JSON)")
	cmd.Flags().StringVar(&trajPath, "trajectory", "", "trajectory: a file (JSON, gzipped or not), or a stored name")
	cmd.Flags().StringVar(&projection, "projection", "", "print a projection instead of the payload: idj")
	return cmd
}

// payloadSource is the trusted half of both commands: the trusted task,
// its public view and a trajectory's steps, from which it writes the
// public payload's bytes. Only those bytes leave it.
type payloadSource struct {
	trusted *pbcste.Env
	pub     *model.Task
	steps   certifier.Steps
	path    string            // the trajectory argument
	tr      *model.Trajectory // without its steps, once read through
	release func()
}

// openPayload resolves the task and the trajectory; the trajectory is
// checked as it is read (see write). The caller calls release.
func (e *env) openPayload(taskArg, trajPath string) (*payloadSource, error) {
	if _, t, ok, _ := domainTask(taskArg); ok && t.M() == 0 {
		return nil, usageErr("task %s has no goal predicate (its gold run changes nothing), so its payload has nothing for the evaluators to score; `domain runs` gives the benchmark's reward of its runs", t.ID)
	}
	trusted, pub, err := loadTaskViews(taskArg)
	if err != nil {
		return nil, err
	}
	steps, release, err := e.trajectorySteps("trajectory", taskArg, trajPath)
	if err != nil {
		return nil, usage(err)
	}
	return &payloadSource{trusted: trusted, pub: pub, steps: episodeSteps(trusted.Task, trajPath, steps), path: trajPath, release: release}, nil
}

// check takes the result of reading the trajectory through: the
// trajectory without its steps, or why it is bad input.
func (s *payloadSource) check(tr *model.Trajectory, _ int, err error) error {
	if err == nil && tr.Task != s.pub.ID {
		err = usageErr("%s: trajectory is for task %q, not %q", s.path, tr.Task, s.pub.ID)
	}
	if err != nil {
		return usage(err)
	}
	s.tr = tr
	return nil
}

// write replays the trajectory on the trusted task and writes its public
// payload, or the IDJ projection of it, to w as it is made, checking the
// trajectory as it is read.
func (s *payloadSource) write(w io.Writer, projection bool) error {
	enc := payload.NewEncoder(w)
	if projection {
		enc = payload.NewProjectionEncoder(w)
	}
	return s.encode(enc)
}

// encode replays the trajectory on the trusted task and writes its
// public payload with enc.
func (s *payloadSource) encode(enc *payload.Encoder) error {
	steps := func(each func([]model.Step)) (*model.Trajectory, int, error) {
		tr, n, err := s.steps(each)
		if err := s.check(tr, n, err); err != nil {
			return nil, 0, err
		}
		return tr, n, nil
	}
	return builder.Stream(s.pub, s.trusted, ahead(steps), enc)
}

// publicPayload is a trajectory's public payload, whole.
func (e *env) publicPayload(taskArg, trajPath string) (*model.Trajectory, []byte, error) {
	src, err := e.openPayload(taskArg, trajPath)
	if err != nil {
		return nil, nil, err
	}
	defer src.release()
	var b bytes.Buffer
	if err := src.write(&b, false); err != nil {
		return nil, nil, err
	}
	return src.tr, b.Bytes(), nil
}

// streamScores scores a trajectory with the deterministic evaluators as
// its payload is written: the bytes go from the trusted half through a
// pipe to evaluators.Stream, on another goroutine, and to tee when it is
// not nil; nothing else crosses. record is evaluators.Stream's. It
// returns the trajectory (without its steps), the payload's head and the
// sha256 of its bytes.
func (e *env) streamScores(taskArg, trajPath string, tee io.Writer, record func(k int, ev *payload.Event, scores []float64)) (*model.Trajectory, *payload.Payload, string, error) {
	// Nothing is printed before every byte is scored: the trajectory is
	// checked as the payload is made, not read through first.
	src, err := e.openPayload(taskArg, trajPath)
	if err != nil {
		return nil, nil, "", err
	}
	defer src.release()
	defer streamingGC()()
	// The builder runs a few chunks ahead of the evaluators; the chunks
	// are hashed on their way.
	queue := pipe.NewHashedBytes(payloadChunks, 64<<10, sha256.New())
	var w io.Writer = queue
	if tee != nil {
		w = io.MultiWriter(tee, queue)
	}
	built := make(chan error, 1)
	go func() {
		err := src.write(w, false)
		queue.CloseWrite(err)
		built <- err
	}()
	p, err := evaluators.Stream(queue, record)
	queue.CloseRead(errScored) // the builder stops writing if the evaluators stopped reading
	berr := <-built
	sum := hex.EncodeToString(queue.Sum())
	if berr != nil && !errors.Is(berr, errScored) {
		return nil, nil, "", berr
	}
	if err != nil {
		return nil, nil, "", err
	}
	return src.tr, p, sum, nil
}

// hasher is a sha256 of what is written to it, computed on a goroutine
// of its own beside the writer's: a payload of hundreds of megabytes is
// hashed while it is made.
type hasher struct {
	full, free chan []byte
	done       chan string
}

// hashBuffers is how many chunks may wait to be hashed.
const hashBuffers = 4

func newHasher() *hasher {
	h := &hasher{full: make(chan []byte, hashBuffers), free: make(chan []byte, hashBuffers), done: make(chan string, 1)}
	for range hashBuffers {
		h.free <- nil
	}
	go func() {
		d := sha256.New()
		for b := range h.full {
			d.Write(b)
			h.free <- b
		}
		h.done <- hex.EncodeToString(d.Sum(nil))
	}()
	return h
}

func (h *hasher) Write(b []byte) (int, error) {
	h.full <- append((<-h.free)[:0], b...)
	return len(b), nil
}

// sum is the sha256 of everything written, in hex; nothing may be
// written after it.
func (h *hasher) sum() string {
	close(h.full)
	return <-h.done
}

// streamingGC sets the collector's goal for streaming a payload, unless
// GOGC is set, and returns what restores it: a stream allocates a little
// per event and holds little, so the default goal collects many times a
// second; twice it keeps the heap within tens of megabytes and takes a
// fifth off the time.
func streamingGC() func() {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	old := debug.SetGCPercent(200)
	return func() { debug.SetGCPercent(old) }
}

// payloadChunks is how many 64 KB chunks of the payload its builder may
// write ahead of the evaluators.
const payloadChunks = 16

// errScored tells the payload's writer that its reader has stopped.
var errScored = errors.New("the evaluators stopped reading the payload")

// labelledScore is a score with its evaluator's label, for output.
type labelledScore struct {
	Name  string  `json:"name"`
	Label string  `json:"label"`
	Value float64 `json:"value"`
}

func labelled(scores []float64) []labelledScore {
	out := make([]labelledScore, len(scores))
	for i, ev := range evaluators.Deterministic() {
		out[i] = labelledScore{Name: ev.Name, Label: ev.Label, Value: scores[i]}
	}
	return out
}

type scoresJSON struct {
	Task   string          `json:"task"`
	Hash   string          `json:"payload_sha256"`
	Scores []labelledScore `json:"scores"`
	// Rewards are a domain task's own evaluators (its benchmark's).
	Rewards []rewardRow `json:"rewards,omitempty"`
	Judges  []judgeRow  `json:"judges,omitempty"`
	// Termination is the benchmark's reason for ending the run itself.
	Termination string `json:"termination_reason,omitempty"`
}

// scoreSteps prints every prefix's scores. The output begins with the
// payload's sha256 and the table's column widths, which are known only
// once every byte is scored, so the rows wait in a spool (a temporary
// file, a few bytes a row) and are printed from it after: the trajectory
// is read and replayed once.
func (e *env) scoreSteps(taskArg, trajPath string, asJSON bool) error {
	rows, err := spool.New()
	if err != nil {
		return fmt.Errorf("score --steps: the rows wait in a temporary file (TMPDIR): %w", err)
	}
	defer rows.Close()
	var (
		t      stepsTable
		enc    stepRows
		events int
	)
	tr, p, hash, err := e.streamScores(taskArg, trajPath, nil, func(k int, ev *payload.Event, s []float64) {
		if !asJSON {
			t.fit(k, ev, s)
		}
		rows.Add(enc.append(ev, s))
		events = k
	})
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(e.stdout, 64<<10)
	var row func(k int, ev *payload.Event, s []float64)
	var tw *tabwriter.Writer
	switch {
	case asJSON:
		j := newStepsJSON(w, p.Task, hash)
		row = j.step
	case t.irregular:
		// An op with a tab or a line break in it: tabwriter lays the
		// table out as it always has, holding it whole.
		fmt.Fprintf(w, "task %s   trajectory %s   events %d   payload sha256 %s\n\n", p.Task, orDash(tr.Name), events, hash)
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		t.setHead()
		t.tabbed(tw)
		row = func(k int, ev *payload.Event, s []float64) {
			t.set(k, ev, s)
			t.tabbed(tw)
		}
	default:
		fmt.Fprintf(w, "task %s   trajectory %s   events %d   payload sha256 %s\n\n", p.Task, orDash(tr.Name), events, hash)
		t.head(w)
		row = func(k int, ev *payload.Event, s []float64) { t.row(w, k, ev, s) }
	}
	var dec stepRows
	k := 0
	if err := rows.Each(func(rec []byte) {
		ev, s := dec.read(rec)
		row(k, ev, s)
		k++
	}); err != nil {
		return err
	}
	if tw != nil {
		tw.Flush()
	}
	if asJSON {
		w.WriteString("\n  ]\n}\n")
	}
	return w.Flush()
}

// stepRows writes and reads score --steps's rows as the spool keeps
// them: a flags byte (an event or the initial state; ok; which scores
// differ from the row before), then the event's actor and op, then the
// scores that differ, as float64 bits. Actors and ops are few: reading
// keeps one string of each.
type stepRows struct {
	b      []byte
	scores [nScores]float64
	ev     payload.Event
	names  map[string]string
}

const (
	rowEvent = 1 << iota
	rowOK
	rowScores // and up: one bit per score that changed
)

func (r *stepRows) append(ev *payload.Event, s []float64) []byte {
	var flags uint16
	if ev != nil {
		flags |= rowEvent
		if ev.OK {
			flags |= rowOK
		}
	}
	for i, v := range s {
		if math.Float64bits(v) != math.Float64bits(r.scores[i]) {
			flags |= rowScores << i
		}
	}
	b := binary.AppendUvarint(r.b[:0], uint64(flags))
	if ev != nil {
		b = append(binary.AppendUvarint(b, uint64(len(ev.Actor))), ev.Actor...)
		b = append(binary.AppendUvarint(b, uint64(len(ev.Op))), ev.Op...)
	}
	for i, v := range s {
		if flags&(rowScores<<i) != 0 {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
			r.scores[i] = v
		}
	}
	r.b = b
	return b
}

// read is the inverse of append, over the rows in the order written; the
// event is nil for the initial state's row.
func (r *stepRows) read(rec []byte) (*payload.Event, []float64) {
	flags, n := binary.Uvarint(rec)
	rec = rec[n:]
	var ev *payload.Event
	if flags&rowEvent != 0 {
		ev = &r.ev
		ev.Actor = model.Actor(r.text(&rec))
		ev.Op = model.Op(r.text(&rec))
		ev.OK = flags&rowOK != 0
	}
	for i := range r.scores {
		if flags&(rowScores<<i) != 0 {
			r.scores[i] = math.Float64frombits(binary.LittleEndian.Uint64(rec))
			rec = rec[8:]
		}
	}
	return ev, r.scores[:]
}

func (r *stepRows) text(rec *[]byte) string {
	size, n := binary.Uvarint(*rec)
	b := (*rec)[n : n+int(size)]
	*rec = (*rec)[n+int(size):]
	if r.names == nil {
		r.names = map[string]string{}
	}
	s, ok := r.names[string(b)]
	if !ok {
		s = string(b)
		r.names[s] = s
	}
	return s
}

// stepsTable is score --steps's table, laid out as a tabwriter with
// padding 2 lays it out, but written line by line: every line has the
// same cells, so a column's width is its widest cell's, measured as the
// rows are scored and spooled.
type stepsTable struct {
	widths [3 + nScores - 1]int // every column but the last
	cells  [3 + nScores][]byte
	// scores are the scores cells hold, when they hold scores: a score
	// seldom changes from one prefix to the next, and is formatted again
	// only when it does.
	scores    [nScores]float64
	isHead    bool // the cells hold the head
	irregular bool // a cell would split or end a tabwriter line
}

// nScores is the number of deterministic evaluators.
const nScores = 6

func (t *stepsTable) set(k int, ev *payload.Event, s []float64) {
	t.cells[0] = strconv.AppendInt(t.cells[0][:0], int64(k), 10)
	if ev == nil {
		t.cells[1], t.cells[2] = append(t.cells[1][:0], '-'), append(t.cells[2][:0], "initial"...)
	} else {
		t.cells[1], t.cells[2] = append(t.cells[1][:0], ev.Actor...), append(t.cells[2][:0], ev.Op...)
		if !ev.OK {
			t.cells[2] = append(t.cells[2], " (failed)"...)
		}
	}
	for i, v := range s {
		if t.isHead || v != t.scores[i] || len(t.cells[3+i]) == 0 {
			t.cells[3+i] = strconv.AppendFloat(t.cells[3+i][:0], v, 'f', 3, 64)
			t.scores[i] = v
		}
	}
	t.isHead = false
}

func (t *stepsTable) setHead() {
	t.cells[0], t.cells[1], t.cells[2] = append(t.cells[0][:0], "event"...), append(t.cells[1][:0], "actor"...), append(t.cells[2][:0], "op"...)
	for i, ev := range evaluators.Deterministic() {
		t.cells[3+i] = append(t.cells[3+i][:0], ev.Label...)
	}
	t.isHead = true
}

func (t *stepsTable) measure() {
	for j := range t.widths {
		t.widths[j] = max(t.widths[j], utf8.RuneCount(t.cells[j]))
	}
	for _, c := range t.cells {
		t.irregular = t.irregular || irregular(c)
	}
}

// tabbed writes the cells as tabwriter reads them.
func (t *stepsTable) tabbed(tw *tabwriter.Writer) {
	for j, c := range t.cells {
		if j > 0 {
			tw.Write([]byte{'\t'})
		}
		tw.Write(c)
	}
	tw.Write([]byte{'\n'})
}

// fit measures the head, then one prefix's line.
func (t *stepsTable) fit(k int, ev *payload.Event, s []float64) {
	if k == 0 {
		t.setHead()
		t.measure()
	}
	t.set(k, ev, s)
	t.measure()
}

func (t *stepsTable) head(w *bufio.Writer) {
	t.setHead()
	t.line(w)
}

func (t *stepsTable) row(w *bufio.Writer, k int, ev *payload.Event, s []float64) {
	t.set(k, ev, s)
	t.line(w)
}

// line writes the cells, each but the last padded to its column's width
// and 2 more.
func (t *stepsTable) line(w *bufio.Writer) {
	for j, c := range t.cells {
		w.Write(c)
		if j == len(t.widths) {
			break
		}
		for pad := t.widths[j] + 2 - utf8.RuneCount(c); pad > 0; pad -= len(spaces) {
			w.WriteString(spaces[:min(pad, len(spaces))])
		}
	}
	w.WriteByte('\n')
}

// stepsJSON writes score --steps --json as its prefixes are scored, byte
// for byte what writeJSON writes of the document: the task, the
// payload's sha256 and one object per prefix, its scores keyed by
// evaluator name in sorted order.
type stepsJSON struct {
	w      *bufio.Writer
	b      []byte
	order  []int             // evaluator indices by name
	names  [][]byte          // their names, encoded
	str    map[string][]byte // actors and ops, encoded
	scores [nScores]float64  // the last scores, by evaluator index
	enc    [nScores][]byte   // and their encodings
}

func newStepsJSON(w *bufio.Writer, task, hash string) *stepsJSON {
	j := &stepsJSON{w: w, str: map[string][]byte{}}
	evs := evaluators.Deterministic()
	for i := range evs {
		j.order = append(j.order, i)
	}
	slices.SortFunc(j.order, func(a, b int) int { return strings.Compare(evs[a].Name, evs[b].Name) })
	for _, i := range j.order {
		j.names = append(j.names, j.encoded(evs[i].Name))
	}
	w.WriteString("{\n  \"task\": ")
	w.Write(j.encoded(task))
	w.WriteString(",\n  \"payload_sha256\": ")
	w.Write(j.encoded(hash))
	w.WriteString(",\n  \"steps\": [")
	return j
}

// encoded is a string as encoding/json writes it without HTML escaping.
func (j *stepsJSON) encoded(s string) []byte {
	if b, ok := j.str[s]; ok {
		return b
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	b := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	j.str[s] = b
	return b
}

func (j *stepsJSON) step(k int, ev *payload.Event, s []float64) {
	b := j.b[:0]
	if k > 0 {
		b = append(b, ',')
	}
	b = strconv.AppendInt(append(b, "\n    {\n      \"event\": "...), int64(k), 10)
	ok := true
	if ev != nil {
		b = append(append(b, ",\n      \"actor\": "...), j.encoded(string(ev.Actor))...)
		b = append(append(b, ",\n      \"op\": "...), j.encoded(string(ev.Op))...)
		ok = ev.OK
	}
	b = strconv.AppendBool(append(b, ",\n      \"ok\": "...), ok)
	b = append(b, ",\n      \"scores\": {"...)
	for n, i := range j.order {
		if n > 0 {
			b = append(b, ',')
		}
		b = append(append(append(b, "\n        "...), j.names[n]...), ": "...)
		if s[i] != j.scores[i] || len(j.enc[i]) == 0 {
			j.scores[i], j.enc[i] = s[i], appendJSONFloat(j.enc[i][:0], s[i])
		}
		b = append(b, j.enc[i]...)
	}
	b = append(b, "\n      }\n    }"...)
	j.w.Write(b)
	j.b = b
}

// appendJSONFloat writes a float64 as encoding/json does.
func appendJSONFloat(b []byte, f float64) []byte {
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// e-09 to e-9, as encoding/json writes it
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}
