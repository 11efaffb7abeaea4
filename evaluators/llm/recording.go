package llm

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/parthack/parthack/internal/llmclient"
	"github.com/parthack/parthack/model"
)

// The judges' kinds of request, as a recording names them.
const (
	CallJudge     llmclient.Call = "judge"         // the schema-aware judge scores a payload
	CallChecklist llmclient.Call = "idj_checklist" // IDJ writes a task's checklist from its instruction
	CallIDJ       llmclient.Call = "idj_score"     // IDJ scores a projection against a checklist
)

// OpenLog opens or creates a recording at path for appending, IDJ's
// frozen checklists in it checked as they are read. Every command that
// records opens its recording this way, so a file any of them wrote
// reads the same in all.
func OpenLog(path string) (*llmclient.Log, error) { return llmclient.OpenLog(path, checkChecklist) }

// OpenReplay reads a recording for replay, IDJ's frozen checklists in it
// checked as they are read.
func OpenReplay(path string) (*llmclient.Replay, error) {
	return llmclient.OpenReplay(path, checkChecklist)
}

// decodeChecklist reads a frozen checklist as the recording holds it,
// strictly: no field this build does not know.
func decodeChecklist(raw json.RawMessage) (*Checklist, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var c Checklist
	if err := dec.Decode(&c); err != nil {
		return nil, err
	}
	return &c, nil
}

// checkChecklist checks a frozen checklist read back from a recording:
// its version, and a hash that matches its content.
func checkChecklist(raw json.RawMessage) error {
	c, err := decodeChecklist(raw)
	if err != nil {
		return err
	}
	if c.Version != ChecklistVersion {
		return fmt.Errorf("checklist: version %d; this build reads version %d", c.Version, ChecklistVersion)
	}
	if want := model.Hash(c.Bytes()); c.SHA != want {
		return fmt.Errorf("checklist for task %s: sha256 %s does not match its content (%s)", c.Task, c.SHA, want)
	}
	return nil
}

// encodeChecklist is a checklist as the recording stores it: one line of
// JSON in field order, without HTML escaping, so the items stay readable.
func encodeChecklist(c *Checklist) (json.RawMessage, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(c); err != nil {
		return nil, fmt.Errorf("judge recording: %w", err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
