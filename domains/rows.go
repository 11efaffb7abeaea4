package domains

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"
)

// TaskRow is what `domain tasks` shows of a task: its goal predicates m,
// its gold run's calls and those of them that wrote, and what the
// benchmark asks besides.
type TaskRow struct {
	ID      string `json:"id"`
	M       int    `json:"m"`
	Calls   int    `json:"gold_calls"`
	Writes  int    `json:"gold_writes"`
	Summary string `json:"summary"`
}

// RowOf is a task's row, its gold run replayed.
func RowOf(t *Task) (TaskRow, error) {
	r := TaskRow{ID: t.ID, M: t.M(), Summary: t.Summary}
	if t.Gold == nil {
		return r, nil
	}
	env, err := t.Env()
	if err != nil {
		return r, fmt.Errorf("%s: %w", t.ID, err)
	}
	log := env.Replay(t.Gold.Steps)
	r.Calls = len(t.Gold.Steps)
	for i := range log.Events {
		if len(log.Diff(&log.Events[i])) > 0 {
			r.Writes++
		}
	}
	return r, nil
}

// A Lister is a domain that states its tasks' rows in a file it embeds,
// so that listing its tasks derives none of them and replays no gold run
// (a domain's database, its tasks' derivation and its gold runs cost far
// more than the rows they give). domains/all's TestTaskRows holds every
// Lister's rows to DerivedRows and rewrites the file with -update.
type Lister interface {
	// TaskRows are the rows as the domain states them, in Tasks' order.
	TaskRows() ([]TaskRow, error)
	// RowsFile is the file the rows are stated in, from the module's
	// root.
	RowsFile() string
}

// Rows are a domain's task rows: a Lister's as it states them, else each
// task's RowOf.
func Rows(d Domain) ([]TaskRow, error) {
	if l, ok := d.(Lister); ok {
		return l.TaskRows()
	}
	return DerivedRows(d)
}

// DerivedRows are a domain's task rows from its tasks as derived, each
// gold run replayed: what a Lister's stated rows must be.
func DerivedRows(d Domain) ([]TaskRow, error) {
	ts, err := d.Tasks()
	if err != nil {
		return nil, err
	}
	var rows []TaskRow
	for _, t := range ts {
		r, err := RowOf(t)
		if err != nil {
			return nil, err
		}
		rows = append(rows, r)
	}
	return rows, nil
}

// DecodeRows reads the rows a Lister states: a JSON array of rows, as
// StatedRows is a Lister's TaskRows over the rows it embeds from file,
// decoded once.
func StatedRows(file string, b []byte) func() ([]TaskRow, error) {
	return sync.OnceValues(func() ([]TaskRow, error) { return DecodeRows(file, b) })
}

// EncodeRows writes it. An error names the file.
func DecodeRows(file string, b []byte) ([]TaskRow, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var rows []TaskRow
	if err := dec.Decode(&rows); err != nil {
		return nil, fmt.Errorf("%s: the stated task rows: %w", file, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("%s: the stated task rows: data after the array", file)
	}
	return rows, nil
}

// EncodeRows writes rows as a Lister states them: indented JSON, as
// `domain tasks --json` prints them.
func EncodeRows(rows []TaskRow) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(rows); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
