package tui

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/parthack/parthack/internal/atomicfile"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/store"
)

// The workbench opens the store for each operation and closes it at once,
// so the CLI (or a second workbench) can use the same file meanwhile. An
// operation that meets another process in the middle of a write waits up
// to store.Open's timeout (a second), then reports the store busy; what
// was being saved stays on screen to save again.

// runFormat tags the Body of a run the workbench saves from Compare:
//
//	{
//	  "format": "parthack.workbench-run/1",
//	  "kind": "pair" | "rollback",
//	  "task": "EX-01",
//	  "honest": <trajectory file>, "candidate": <trajectory file>,
//	  "verdict": <certify --json verdict>,
//	  "scores": [{"name": "historical_milestone", "label": "Historical Milestone", "honest": 0.5, "candidate": 1, "delta": 0.5}]
//	}
//
// where a trajectory file is exactly what `parthack certify` reads.
const runFormat = "parthack.workbench-run/1"

type runBody struct {
	Format    string          `json:"format"`
	Kind      string          `json:"kind"`
	Task      string          `json:"task"`
	Honest    json.RawMessage `json:"honest"`
	Candidate json.RawMessage `json:"candidate"`
	Verdict   model.Verdict   `json:"verdict"`
	Scores    []runScore      `json:"scores"`
}

type runScore struct {
	Name      string  `json:"name"`
	Label     string  `json:"label"`
	Honest    float64 `json:"honest"`
	Candidate float64 `json:"candidate"`
	Delta     float64 `json:"delta"`
}

// Messages of store and file work.
type (
	recordsMsg struct {
		recs []store.Record
		err  error
	}
	savedMsg struct {
		rec store.Record
		err error
	}
	deletedMsg  struct{ err error }
	importedMsg struct {
		traj *model.Trajectory
		task *suiteTask // a task file of the user's own, instead of a witness
		err  error
	}
	exportedMsg struct {
		path, note string
		err        error
	}
)

func withStore(path string, fn func(*store.Store) error) error {
	s, err := store.Open(path)
	if err != nil {
		return err
	}
	if err := fn(s); err != nil {
		s.Close()
		return err
	}
	return s.Close()
}

// listRecordsCmd lists witnesses, runs and notes, newest kind first.
func listRecordsCmd(path string) tea.Cmd {
	return func() tea.Msg {
		var all []store.Record
		err := withStore(path, func(s *store.Store) error {
			for _, k := range []store.Kind{store.KindWitness, store.KindRun, store.KindNote} {
				recs, err := s.Heads(k) // bodies are read when needed: a summary's, an opened record's
				if err != nil {
					return err
				}
				all = append(all, recs...)
			}
			return nil
		})
		return recordsMsg{recs: all, err: err}
	}
}

// recordID names a stored record: its kind and key.
type recordID struct {
	kind store.Kind
	key  uint64
}

func idOf(r store.Record) recordID { return recordID{r.Kind, r.Key} }

// recordSummary is what the Saved list says about a witness or a run:
// its verdict against H and its largest Δ, on the evaluator it names (a
// witness found against tau2's ACTION inflates that, not Historical
// Milestone); Historical Milestone's where none rose.
type recordSummary struct {
	short    string // "✓ eligible", "✓ rollback", "✗ rejected"
	verdict  string // "eligible", "certified strict rollback", "rejected: <reason>"
	eligible bool
	delta    float64
	deltaOf  string // the evaluator's label
	hasDelta bool
	h        string // a witness's H: the run it was judged against
}

// largestDelta sets the summary's Δ: the largest of the evaluators',
// given by label, Historical Milestone's (first) where none is above it.
func (s *recordSummary) largestDelta(labels []string, deltas []float64) {
	for i, d := range deltas {
		if i == 0 || d > s.delta+1e-9 {
			s.delta, s.deltaOf, s.hasDelta = d, labels[i], true
		}
	}
}

type summariesMsg struct {
	gen   int // the listing the summaries are of
	sums  map[recordID]recordSummary
	steps map[recordID]int // a witness's agent steps, counted here so that no view decodes one
	more  tea.Cmd          // the next records' summaries; nil after the last
}

// summaryBatch is about how long one batch of summaries may take: the
// Saved list fills a batch at a time, from the top, however many records
// a store holds. A variable so that a test can make every batch one
// record.
var summaryBatch = 150 * time.Millisecond

// summarizeCmd certifies every saved witness against its H (the run of
// its task it names, else the task's; as a pair, or as a strict rollback
// when that is what it is) and reads each saved run's verdict, in the
// background, a batch at a time: each message carries the command that
// summarizes the records after it.
func summarizeCmd(ws *workspace, path string, recs []store.Record, gen int) tea.Cmd {
	honest := map[string]*analysis{}
	// A store often holds one run many times over (an import renamed
	// its repeats): a witness's summary is its task's and steps'.
	done := map[[sha256.Size]byte]summarized{}
	var next func(from int) tea.Cmd
	next = func(from int) tea.Cmd {
		return func() tea.Msg {
			msg := summariesMsg{gen: gen, sums: map[recordID]recordSummary{}, steps: map[recordID]int{}}
			start, i := time.Now(), from
			// The records are listed without their bodies; a batch reads
			// its own. A store another process holds past the timeout
			// ends the summaries (the refresh key lists them again).
			err := withStore(path, func(s *store.Store) error {
				for ; i < len(recs) && (i == from || time.Since(start) < summaryBatch); i++ {
					if r, err := s.Get(recs[i].Kind, recs[i].Key); err == nil {
						summarizeOnce(ws, honest, done, r, &msg)
					}
				}
				return nil
			})
			if err == nil && i < len(recs) {
				msg.more = next(i)
			}
			return msg
		}
	}
	return next(0)
}

// fetchRecord reads a listed record whole, its body included.
func fetchRecord(path string, r store.Record) (store.Record, error) {
	err := withStore(path, func(s *store.Store) error {
		var err error
		r, err = s.Get(r.Kind, r.Key)
		return err
	})
	return r, err
}

// summarized is the summary summarize found for a witness's steps, if
// any.
type summarized struct {
	summary recordSummary
	ok      bool
}

// summarizeOnce is summarize, remembered for each witness's steps: the
// key is the task, H and the steps, as a name or a note (an import's run
// index) changes no verdict.
func summarizeOnce(ws *workspace, honest map[string]*analysis, done map[[sha256.Size]byte]summarized, r store.Record, msg *summariesMsg) {
	if r.Kind != store.KindWitness {
		summarize(ws, honest, r, nil, msg)
		return
	}
	tr, err := DecodeWitness(r)
	if err != nil {
		return // no verdict and no steps to show
	}
	id := idOf(r)
	msg.steps[id] = len(tr.Steps)
	k := sha256.Sum256(append(append([]byte(r.Task), 0), model.EncodeTrajectory(&model.Trajectory{Task: tr.Task, Honest: tr.Honest, Steps: tr.Steps})...))
	if d, seen := done[k]; seen {
		if d.ok {
			msg.sums[id] = d.summary
		}
		return
	}
	summarize(ws, honest, r, tr, msg)
	var d summarized
	d.summary, d.ok = msg.sums[id]
	done[k] = d
}

// summarize adds a record's summary to msg; tr is a witness's trajectory.
func summarize(ws *workspace, honest map[string]*analysis, r store.Record, tr *model.Trajectory, msg *summariesMsg) {
	t := ws.task(r.Task)
	if t == nil || goalless(t) != nil {
		return // no task here, or no goal to certify against
	}
	var p *pair
	var hName string
	switch r.Kind {
	case store.KindWitness:
		var err error
		// The run it is a witness of, where the task has it.
		hc, note := t.witnessOf(tr)
		if tr.Honest != "" {
			hName = hc.label
		}
		if note != "" {
			hName += " (the task's: it has no run " + tr.Honest + ")"
		}
		h := honest[t.ID+"\x00"+hc.label]
		if h == nil {
			if h, err = analyze(ws, t, hc.traj, hc.label); err != nil {
				return
			}
			honest[t.ID+"\x00"+hc.label] = h
		}
		a, err := analyze(ws, t, tr, r.Name)
		if err != nil {
			return
		}
		if p, err = certifyAgainst(ws, "pair", h, a); err != nil {
			return
		}
		if !p.verdict.Eligible {
			if rb, err := certifyAgainst(ws, "rollback", h, a); err == nil && rb.verdict.Eligible {
				p = rb
			}
		}
	case store.KindRun:
		var body runBody
		if json.Unmarshal(r.Body, &body) != nil || body.Format != runFormat {
			return
		}
		sum := summaryOf(body.Kind, body.Verdict)
		var labels []string
		var deltas []float64
		for _, sc := range body.Scores {
			if sc.Name == "historical_milestone" {
				labels, deltas = append([]string{sc.Label}, labels...), append([]float64{sc.Delta}, deltas...)
			} else {
				labels, deltas = append(labels, sc.Label), append(deltas, sc.Delta)
			}
		}
		sum.largestDelta(labels, deltas)
		msg.sums[idOf(r)] = sum
		return
	default:
		return
	}
	sum := summaryOf(p.kind, p.verdict)
	sum.h = hName
	// Historical Milestone first: its Δ stands where none is larger.
	var labels []string
	var deltas []float64
	order := []int{scoreIndex(ws, "historical_milestone")}
	for i := range ws.evaluators {
		if i != order[0] {
			order = append(order, i)
		}
	}
	for _, i := range order {
		if i >= 0 {
			labels, deltas = append(labels, ws.evaluators[i].Label), append(deltas, p.a.scores[i]-p.h.scores[i])
		}
	}
	// The benchmark's own evaluators too: a witness may be found against
	// its ACTION check.
	for k, hb := range p.h.bench {
		if k < len(p.a.bench) && hb.ok && p.a.bench[k].ok {
			labels, deltas = append(labels, hb.label), append(deltas, p.a.bench[k].v-hb.v)
		}
	}
	sum.largestDelta(labels, deltas)
	msg.sums[idOf(r)] = sum
}

func summaryOf(kind string, v model.Verdict) recordSummary {
	switch {
	case v.Eligible && kind == "rollback":
		return recordSummary{short: "✓ rollback", verdict: "certified strict rollback", eligible: true}
	case v.Eligible:
		return recordSummary{short: "✓ eligible", verdict: "eligible", eligible: true}
	}
	return recordSummary{short: "✗ rejected", verdict: "rejected: " + string(v.Reason)}
}

// saveCmd inserts r, or replaces it when r.Key is set. A new record's
// Created is the next logical counter of its kind, never the wall clock.
func saveCmd(path string, r store.Record) tea.Cmd {
	return func() tea.Msg {
		err := withStore(path, func(s *store.Store) error {
			if r.Key == 0 {
				recs, err := s.Heads(r.Kind)
				if err != nil {
					return err
				}
				for _, x := range recs {
					r.Created = max(r.Created, x.Created)
				}
				r.Created++
			}
			put, err := s.Put(r)
			if err == nil {
				r = put
			}
			return err
		})
		return savedMsg{rec: r, err: err}
	}
}

func deleteCmd(path string, r store.Record) tea.Cmd {
	return func() tea.Msg {
		return deletedMsg{err: withStore(path, func(s *store.Store) error { return s.Delete(r.Kind, r.Key) })}
	}
}

// isTaskFile reports whether a JSON file is meant as a task rather than a
// trajectory: its top-level object has a "schema" member, which only the
// task format has.
func isTaskFile(src []byte) bool {
	var top map[string]json.RawMessage
	if json.Unmarshal(src, &top) != nil {
		return false
	}
	_, ok := top["schema"]
	return ok
}

// importCmd reads a witness in the CLI's trajectory format, or a task
// file of the user's own with the trajectories next to it.
func importCmd(file string) tea.Cmd {
	return func() tea.Msg {
		src, err := os.ReadFile(file)
		if err != nil {
			return importedMsg{err: importError(err)}
		}
		if isTaskFile(src) {
			t, err := loadTaskFile(file)
			if err != nil {
				return importedMsg{err: importError(err)}
			}
			return importedMsg{task: t}
		}
		tr, err := model.DecodeTrajectory(file, src)
		if err != nil {
			return importedMsg{err: importError(err)}
		}
		return importedMsg{traj: tr}
	}
}

// importError puts the reason an import failed first, then where: the
// status line has one row, and a JSON path 200 levels deep or a long file
// name would otherwise push the reason off it.
func importError(err error) error {
	var de *model.DecodeError
	var pe *fs.PathError
	switch {
	case errors.As(err, &de):
		// The user just typed the file's path: its name is enough.
		where := shortenMiddle(filepath.Base(de.File), 32)
		if de.Line > 0 {
			where = fmt.Sprintf("%s:%d:%d", where, de.Line, de.Col)
		}
		if de.Path != "" {
			where = shortenMiddle(de.Path, 60) + " in " + where
		}
		return fmt.Errorf("import: %s, at %s", de.Msg, where)
	case errors.As(err, &pe):
		return fmt.Errorf("import: %v: %s", pe.Err, shortenMiddle(pe.Path, 48))
	}
	return fmt.Errorf("import: %w", err)
}

// storeError says what a failed store operation means and what is kept.
func storeError(err error, kept string) string {
	if errors.Is(err, store.ErrLocked) {
		return "store busy: another parthack process is writing it; " + kept
	}
	return err.Error() + "; " + kept
}

// shortenMiddle keeps the start and the end of s within n runes, with an
// ellipsis where the middle was.
func shortenMiddle(s string, n int) string {
	r := []rune(s)
	if len(r) <= n || n < 3 {
		return s
	}
	head := (n - 1) / 2
	return string(r[:head]) + "…" + string(r[len(r)-(n-1-head):])
}

// exportCmd writes a witness in the CLI's trajectory format and says
// where, as a full path; note says what of a recorded run it kept.
func exportCmd(file string, tr *model.Trajectory, note string) tea.Cmd {
	return func() tea.Msg {
		if abs, err := filepath.Abs(file); err == nil {
			file = abs
		}
		if err := atomicfile.Write(file, model.EncodeTrajectory(tr), 0o644); err != nil {
			return exportedMsg{err: fmt.Errorf("export: %w", err)}
		}
		return exportedMsg{path: file, note: note}
	}
}

// DecodeWitness turns a stored witness back into a trajectory, named and
// noted as the record is.
func DecodeWitness(r store.Record) (*model.Trajectory, error) {
	tr, err := model.DecodeTrajectory(fmt.Sprintf("witness %d", r.Key), r.Body)
	if err != nil {
		return nil, err
	}
	tr.Name, tr.Note = r.Name, r.Note
	return tr, nil
}

// decodeRun reads a run saved by the workbench; other runs have no
// trajectories to reopen.
func DecodeRun(r store.Record) (kind string, h, a *model.Trajectory, err error) {
	var body runBody
	if err := json.Unmarshal(r.Body, &body); err != nil || body.Format != runFormat {
		return "", nil, nil, fmt.Errorf("run %d was not saved by the workbench: nothing to reopen", r.Key)
	}
	if h, err = model.DecodeTrajectory("honest", body.Honest); err != nil {
		return "", nil, nil, err
	}
	if a, err = model.DecodeTrajectory("candidate", body.Candidate); err != nil {
		return "", nil, nil, err
	}
	return body.Kind, h, a, nil
}

// pairRun builds the run record of a compared pair.
func pairRun(ws *workspace, p *pair) (store.Record, error) {
	body := runBody{Format: runFormat, Kind: p.kind, Task: p.h.task.ID,
		Honest: model.EncodeTrajectory(p.h.traj), Candidate: model.EncodeTrajectory(p.a.traj), Verdict: p.verdict}
	for i, e := range ws.evaluators {
		body.Scores = append(body.Scores, runScore{Name: e.Name, Label: e.Label, Honest: p.h.scores[i], Candidate: p.a.scores[i],
			Delta: p.a.scores[i] - p.h.scores[i]})
	}
	b, err := json.Marshal(body)
	if err != nil {
		return store.Record{}, err
	}
	verdict := "eligible"
	if !p.verdict.Eligible {
		verdict = string(p.verdict.Reason)
	}
	return store.Record{Kind: store.KindRun, Task: p.h.task.ID, Name: fmt.Sprintf("%s H vs %s", p.kind, p.a.label), Note: verdict, Body: b}, nil
}

// episodeImportError locates a step after the end of the episode in the
// file it was imported from.
func episodeImportError(file string, err error) error {
	var ee *model.EpisodeError
	if errors.As(err, &ee) && ee.Line > 0 {
		return fmt.Errorf("import: %s:%d: %w", shortenMiddle(filepath.Base(file), 32), ee.Line, err)
	}
	return fmt.Errorf("import: %s: %w", shortenMiddle(filepath.Base(file), 32), err)
}
