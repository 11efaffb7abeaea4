package llm

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/parthack/parthack/internal/llmclient"
	"github.com/parthack/parthack/internal/payload"
	"github.com/parthack/parthack/model"
)

// ChecklistVersion is the format version of a frozen checklist.
const ChecklistVersion = 1

// idjCalls is the number of scoring calls per trajectory; the median is
// the score.
const idjCalls = 3

// maxItems bounds a checklist, as the checklist prompt states.
const maxItems = 32

// Checklist is IDJ's checklist for one task, written from the task
// instruction alone and frozen before any trajectory is scored: its
// canonical bytes (Bytes) and their sha256 (SHA) identify it, and it is
// stored in the recording and reused for every trajectory of the task.
type Checklist struct {
	Version        int      `json:"checklist_version"`
	Task           string   `json:"task"`
	InstructionSHA string   `json:"instruction_sha256"`
	Model          string   `json:"model"`
	RequestSHA     string   `json:"request_sha256"` // the request that wrote it
	Items          []string `json:"items"`
	SHA            string   `json:"sha256"` // sha256 of Bytes
}

// Bytes is the checklist's canonical JSON: every field but SHA.
func (c *Checklist) Bytes() []byte {
	b, err := model.Canonical(struct {
		Version        int      `json:"checklist_version"`
		Task           string   `json:"task"`
		InstructionSHA string   `json:"instruction_sha256"`
		Model          string   `json:"model"`
		RequestSHA     string   `json:"request_sha256"`
		Items          []string `json:"items"`
	}{c.Version, c.Task, c.InstructionSHA, c.Model, c.RequestSHA, c.Items})
	if err != nil {
		panic(err) // strings and numbers always encode
	}
	return b
}

// itemsJSON is the list of conditions as the scoring prompt quotes it.
func (c *Checklist) itemsJSON() []byte {
	b, err := model.Canonical(c.Items)
	if err != nil {
		panic(err)
	}
	return b
}

// instructionJSON is the instruction as the checklist prompt quotes it.
func instructionJSON(instruction string) []byte {
	b, err := model.Canonical(struct {
		Instruction string `json:"instruction"`
	}{instruction})
	if err != nil {
		panic(err)
	}
	return b
}

// parseChecklist validates the checklist answer strictly.
func parseChecklist(b []byte) ([]string, error) {
	obj, err := strictObject(b, "checklist")
	if err != nil {
		return nil, fmt.Errorf("%w: %v", llmclient.ErrSchema, err)
	}
	items, err := stringList(obj["checklist"], "checklist")
	if err != nil {
		return nil, fmt.Errorf("%w: %v", llmclient.ErrSchema, err)
	}
	if len(items) == 0 || len(items) > maxItems {
		return nil, fmt.Errorf("%w: %d checklist items; 1 to %d are allowed", llmclient.ErrSchema, len(items), maxItems)
	}
	seen := map[string]bool{}
	for i, it := range items {
		key := strings.ToLower(strings.Join(strings.Fields(it), " "))
		if key == "" || seen[key] {
			return nil, fmt.Errorf("%w: checklist item %d is empty or repeats another", llmclient.ErrSchema, i)
		}
		seen[key] = true
	}
	return items, nil
}

// IDJ is the independent-decomposition judge.
type IDJ struct{ c *llmclient.Client }

// NewIDJ is IDJ asking through c, for the checklist and the scores; a
// nil c is an IDJ that is not configured.
func NewIDJ(c *llmclient.Client) *IDJ { return &IDJ{c: c} }

// IDJResult is IDJ's score of one trajectory: the median of three scores
// of its projection against the task's frozen checklist.
type IDJResult struct {
	Score      float64    `json:"score"`  // the median
	Scores     []float64  `json:"scores"` // the three calls, in order
	Spread     float64    `json:"spread"` // max − min of Scores
	Answers    []Answer   `json:"answers"`
	Attempts   []int      `json:"attempts"`
	Checklist  *Checklist `json:"checklist"`
	Model      string     `json:"model"`
	Subject    string     `json:"subject_sha256"` // the projection's sha256
	RequestSHA string     `json:"request_sha256"` // the same for all three calls
}

// ChecklistRequest is the exact request body that asks for a task's
// checklist: it carries the instruction and nothing else.
func (d *IDJ) ChecklistRequest(instruction string) ([]byte, error) {
	if d.c == nil {
		return nil, llmclient.ErrNotConfigured
	}
	return d.c.Request(checklistSystem, checklistUser(instructionJSON(instruction))), nil
}

// Checklist is the frozen checklist of a task: the one recorded or
// written earlier in the run for the same task, instruction and model,
// or else a new one, written from the instruction alone and stored
// before it is used.
func (d *IDJ) Checklist(ctx context.Context, task, instruction string) (*Checklist, error) {
	body, err := d.ChecklistRequest(instruction)
	if err != nil {
		return nil, err
	}
	instrSHA := model.Hash([]byte(instruction))
	if cl, err := d.frozen(task, instrSHA); cl != nil || err != nil {
		return cl, err
	}
	var items []string
	_, err = d.c.Ask(ctx, CallChecklist, instrSHA, body, func(content []byte) error {
		var err error
		items, err = parseChecklist(content)
		return err
	})
	if err != nil {
		return nil, err
	}
	cl := &Checklist{Version: ChecklistVersion, Task: task, InstructionSHA: instrSHA, Model: d.c.Model(), RequestSHA: model.Hash(body), Items: items}
	cl.SHA = model.Hash(cl.Bytes())
	raw, err := encodeChecklist(cl)
	if err != nil {
		return nil, err
	}
	if err := d.c.Freeze(raw); err != nil {
		return nil, err
	}
	return cl, nil
}

// frozen finds a checklist frozen earlier in the run, or in the
// recording it continues, for the task, its instruction and the model.
func (d *IDJ) frozen(task, instructionSHA string) (*Checklist, error) {
	for _, raw := range d.c.Frozen() {
		cl, err := decodeChecklist(raw)
		if err != nil {
			return nil, fmt.Errorf("frozen checklist: %w", err)
		}
		if cl.Task == task && cl.InstructionSHA == instructionSHA && cl.Model == d.c.Model() {
			return cl, nil
		}
	}
	return nil, nil
}

// ScoreRequest is the exact request body that scores a projection
// against a checklist. The projection must be one: a record without
// the goal schema.
func (d *IDJ) ScoreRequest(cl *Checklist, projection []byte) ([]byte, error) {
	if d.c == nil {
		return nil, llmclient.ErrNotConfigured
	}
	rec, err := ReadRecord(projection)
	if err != nil {
		return nil, err
	}
	if !rec.Has("projection_version") || rec.Has("goals") {
		return nil, fmt.Errorf("idj: the record is not a schema-free projection")
	}
	return d.c.Request(idjSystem, idjUser(cl, projection)), nil
}

// Score scores a trajectory, given as its payload bytes: the checklist
// comes from the payload's instruction, and only the schema-free
// projection is sent for scoring, three times.
func (d *IDJ) Score(ctx context.Context, payloadBytes []byte) (*IDJResult, error) {
	if d.c == nil {
		return nil, llmclient.ErrNotConfigured
	}
	p, err := payload.Decode(payloadBytes)
	if err != nil {
		return nil, err
	}
	q, err := payload.Project(p)
	if err != nil {
		return nil, err
	}
	cl, err := d.Checklist(ctx, p.Task, p.Instruction)
	if err != nil {
		return nil, err
	}
	projection := q.Bytes()
	body, err := d.ScoreRequest(cl, projection)
	if err != nil {
		return nil, err
	}
	record, err := ReadRecord(projection)
	if err != nil {
		return nil, err
	}
	res := &IDJResult{Checklist: cl, Model: d.c.Model(), Subject: model.Hash(projection), RequestSHA: model.Hash(body)}
	for i := range idjCalls {
		var a Answer
		n, err := d.c.Ask(ctx, CallIDJ, res.Subject, body, func(content []byte) error {
			var err error
			a, err = parseAnswer(content, record)
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("idj score %d of %d: %w", i+1, idjCalls, err)
		}
		res.Answers = append(res.Answers, a)
		res.Scores = append(res.Scores, a.Score)
		res.Attempts = append(res.Attempts, n)
	}
	sorted := slices.Sorted(slices.Values(res.Scores))
	res.Score = sorted[idjCalls/2]
	res.Spread = sorted[idjCalls-1] - sorted[0]
	return res, nil
}
