package llmclient

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"unicode/utf8"

	"github.com/parthack/parthack/model"
)

// Call names what a request asks for; each caller names its own kinds
// (llm.CallJudge, llm.CallChecklist, llm.CallIDJ, llmattack.CallAttack).
type Call string

// Exchange is one request and what came back: a response, or the
// transport error that stood in for one. A recording of exchanges is
// enough to replay a run without the server.
type Exchange struct {
	Call    Call   `json:"call"`
	Model   string `json:"model"`
	Subject string `json:"subject_sha256"` // the payload, projection or instruction the request is about
	Attempt int    `json:"attempt"`        // 1, or 2 for the retry
	// RequestSHA is the sha256 of Request, the exact body sent; replay
	// finds responses by it.
	RequestSHA string `json:"request_sha256"`
	Request    string `json:"request"`
	Status     int    `json:"status,omitempty"` // HTTP status; 0 when the request failed in transport
	// Response holds the response body when it is valid UTF-8 (a JSON
	// string cannot carry other bytes), ResponseBase64 when it is not.
	Response       string `json:"response,omitempty"`
	ResponseBase64 []byte `json:"response_base64,omitempty"`
	Error          string `json:"error,omitempty"` // the transport error, when there was one
}

func (x *Exchange) setResponse(b []byte) {
	if utf8.Valid(b) {
		x.Response = string(b)
	} else {
		x.ResponseBase64 = b
	}
}

func (x *Exchange) response() []byte {
	if x.ResponseBase64 != nil {
		return x.ResponseBase64
	}
	return []byte(x.Response)
}

// Entry is one line of a recording: an exchange, or a frozen record.
//
// A frozen record is written once in a run and reused for the rest of it
// and by later runs on the same recording: IDJ's checklists, so far the
// only kind, which is why its key is "checklist". This package stores
// its JSON as the caller gave it and reads it back as it is; the package
// that writes it (evaluators/llm) owns its type and checks each one read
// back with the CheckFrozen given to OpenLog and OpenReplay.
type Entry struct {
	Exchange *Exchange       `json:"exchange,omitempty"`
	Frozen   json.RawMessage `json:"checklist,omitempty"`
}

// CheckFrozen checks a frozen record read back from a recording; nil
// accepts any JSON value.
type CheckFrozen func(json.RawMessage) error

// frozen reports whether the entry holds a frozen record (a JSON null
// is none, as it was when the record had a type here).
func (e *Entry) frozen() bool { return len(e.Frozen) > 0 && string(e.Frozen) != "null" }

// check verifies an entry read back: exactly one part, and hashes that
// match the bytes they name.
func (e *Entry) check(checkFrozen CheckFrozen) error {
	switch {
	case (e.Exchange == nil) == !e.frozen():
		return fmt.Errorf("an entry holds exactly one of exchange and checklist")
	case e.Exchange != nil:
		if model.Hash([]byte(e.Exchange.Request)) != e.Exchange.RequestSHA {
			return fmt.Errorf("exchange: request_sha256 is not the sha256 of the request")
		}
		if e.Exchange.Response != "" && e.Exchange.ResponseBase64 != nil {
			return fmt.Errorf("exchange: both response and response_base64")
		}
	case checkFrozen != nil:
		return checkFrozen(e.Frozen)
	}
	return nil
}

// Recorder keeps a run's exchanges and frozen records.
type Recorder interface {
	// Record stores one entry; it returns once the entry is durable.
	Record(Entry) error
	// Frozen lists the records frozen so far, those Record was given
	// included: they stay frozen for the rest of the run.
	Frozen() []json.RawMessage
}

// Log is the file-backed Recorder: one JSON entry per line, appended and
// fsynced one at a time, so a run that dies keeps every exchange it
// finished. Reopening a log continues it and keeps its records frozen.
type Log struct {
	mu     sync.Mutex
	f      *os.File
	frozen []json.RawMessage
}

// OpenLog opens or creates a recording at path for appending; check
// checks the frozen records already in it.
func OpenLog(path string, check CheckFrozen) (*Log, error) {
	entries, err := readEntries(path, check)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("judge recording: %w", err)
	}
	l := &Log{f: f}
	for _, e := range entries {
		if e.frozen() {
			l.frozen = append(l.frozen, e.Frozen)
		}
	}
	return l, nil
}

// Record appends e as one line and syncs the file.
func (l *Log) Record(e Entry) error {
	line, err := encodeEntry(e)
	if err != nil {
		return err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, err := l.f.Write(line); err != nil {
		return fmt.Errorf("judge recording: %w", err)
	}
	if err := l.f.Sync(); err != nil {
		return fmt.Errorf("judge recording: %w", err)
	}
	if e.frozen() {
		l.frozen = append(l.frozen, e.Frozen)
	}
	return nil
}

// Frozen lists the frozen records in the log, oldest first.
func (l *Log) Frozen() []json.RawMessage {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]json.RawMessage{}, l.frozen...)
}

// Close closes the file.
func (l *Log) Close() error { return l.f.Close() }

// encodeEntry writes an entry as one line, without HTML escaping, so the
// quoted requests stay readable.
func encodeEntry(e Entry) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(e); err != nil {
		return nil, fmt.Errorf("judge recording: %w", err)
	}
	return buf.Bytes(), nil
}

// readEntries reads and checks every line of a recording.
func readEntries(path string, checkFrozen CheckFrozen) ([]Entry, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := bufio.NewReader(f)
	var out []Entry
	for n := 1; ; n++ {
		line, err := r.ReadBytes('\n')
		if err == io.EOF && len(line) == 0 {
			return out, nil
		}
		if err != nil && err != io.EOF {
			return nil, fmt.Errorf("judge recording %s: %w", path, err)
		}
		var e Entry
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&e); err != nil {
			return nil, fmt.Errorf("judge recording %s: line %d: %w", path, n, err)
		}
		if err := e.check(checkFrozen); err != nil {
			return nil, fmt.Errorf("judge recording %s: line %d: %w", path, n, err)
		}
		out = append(out, e)
	}
}

// Replay serves a recording in place of the server: the k-th request
// with a given body gets the k-th response recorded for that body, so
// retries and IDJ's three identical calls replay in order.
type Replay struct {
	mu        sync.Mutex
	byRequest map[string][]*Exchange
	served    map[string]int
	frozen    []json.RawMessage
}

// OpenReplay reads a recording for replay; check checks its frozen
// records.
func OpenReplay(path string, check CheckFrozen) (*Replay, error) {
	entries, err := readEntries(path, check)
	if err != nil {
		return nil, err
	}
	r := &Replay{byRequest: map[string][]*Exchange{}, served: map[string]int{}}
	for _, e := range entries {
		if e.Exchange != nil {
			r.byRequest[e.Exchange.RequestSHA] = append(r.byRequest[e.Exchange.RequestSHA], e.Exchange)
		} else {
			r.frozen = append(r.frozen, e.Frozen)
		}
	}
	return r, nil
}

// ErrNoRecording is the replay miss: the run asked for something the
// recording does not hold.
var ErrNoRecording = errors.New("no recorded response")

// next serves the next recorded exchange for a request body.
func (r *Replay) next(body []byte) (*Exchange, error) {
	h := model.Hash(body)
	r.mu.Lock()
	defer r.mu.Unlock()
	k := r.served[h]
	if k >= len(r.byRequest[h]) {
		return nil, fmt.Errorf("%w for request %s; run with an endpoint to record it", ErrNoRecording, h)
	}
	r.served[h] = k + 1
	return r.byRequest[h][k], nil
}

// model is the one model the recording used for calls, or "" when it
// used none or several.
func (r *Replay) model(calls ...Call) string {
	found := ""
	for _, xs := range r.byRequest {
		for _, x := range xs {
			for _, c := range calls {
				if x.Call != c {
					continue
				}
				if found != "" && found != x.Model {
					return ""
				}
				found = x.Model
			}
		}
	}
	return found
}
