// Package llmclient is the one chat client of parthack: it asks an
// OpenAI-compatible chat-completions endpoint (set up once, by Endpoint,
// for the judges and the attacker alike) at temperature 0 for a strict
// JSON answer, retries a transport or schema failure once, records every
// exchange (Log: JSON lines, appended and fsynced one at a time) and
// replays a recording offline byte for byte (Replay).
//
// The LLM judges (evaluators/llm, public side) and the LLM attacker
// (attacker/llmattack, trusted side) both ask through it, and it knows
// neither: it imports only model's hashing. A recording also holds the
// records a caller freezes for the rest of a run, IDJ's checklists; the
// client stores their JSON as given, and the package that writes them
// owns their type and checks them (see Entry).
package llmclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/parthack/parthack/model"
)

// The states a call can end in besides an answer. A transport or schema
// failure is retried once; the others end the call at once.
var (
	// ErrNotConfigured: no endpoint (base URL and model) was given. The
	// judge reports this state rather than a score.
	ErrNotConfigured = errors.New("not configured")
	// ErrTransport: no response, a timeout, or an HTTP status other than 200.
	ErrTransport = errors.New("transport failure")
	// ErrSchema: a response that is not a chat completion, or an answer
	// that does not parse under the frozen schema.
	ErrSchema = errors.New("schema failure")
)

// maxAttempts is the first try and the one bounded retry.
const maxAttempts = 2

// maxResponse bounds a response body; a chat completion capped at a few
// thousand tokens is far smaller.
const maxResponse = 8 << 20

// Client asks one model through one endpoint, or through a recording in
// its place, and records every attempt. It also knows the records frozen
// so far in the run (the recorder's, or its own when there is no
// recorder), so IDJ writes one checklist per task and reuses it.
type Client struct {
	cfg    Config
	url    string
	http   *http.Client
	replay *Replay  // non-nil: serve responses from the recording
	rec    Recorder // nil: record nothing
	mu     sync.Mutex
	frozen []json.RawMessage // without a recorder
}

// NewClient is a live client for cfg; rec, if not nil, records every
// exchange. Without a base URL and a model it returns ErrNotConfigured.
func NewClient(cfg Config, rec Recorder) (*Client, error) {
	if !cfg.Configured() {
		return nil, ErrNotConfigured
	}
	url, err := cfg.endpoint()
	if err != nil {
		return nil, err
	}
	return &Client{cfg: cfg, url: url, http: &http.Client{}, rec: rec}, nil
}

// Client is a client that answers from the recording: requests are
// built from cfg exactly as a live run builds them, and each is served
// the response recorded for its bytes. When cfg names no model, the one
// model the recording used for calls is taken.
func (r *Replay) Client(cfg Config, calls ...Call) (*Client, error) {
	if cfg.Model == "" {
		cfg.Model = r.model(calls...)
	}
	if cfg.Model == "" {
		return nil, fmt.Errorf("%w: the recording holds no single model for %v; name one", ErrNotConfigured, calls)
	}
	return &Client{cfg: cfg, replay: r, frozen: append([]json.RawMessage{}, r.frozen...)}, nil
}

// Model is the model the client asks.
func (c *Client) Model() string { return c.cfg.Model }

type chatMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type responseFormat struct {
	Type string `json:"type"`
}

// chatRequest is the request body. Its fields are written in this order
// and nothing in it varies between runs, so the same prompt gives the
// same bytes.
type chatRequest struct {
	Model          string          `json:"model"`
	Messages       []chatMessage   `json:"messages"`
	Temperature    float64         `json:"temperature"`
	MaxTokens      int             `json:"max_tokens"`
	Stream         bool            `json:"stream"`
	ResponseFormat *responseFormat `json:"response_format,omitempty"`
}

// Request is the canonical body of a two-message request: the system
// instructions, then the user message that quotes the data.
func (c *Client) Request(system, user string) []byte {
	r := chatRequest{
		Model:     c.cfg.Model,
		Messages:  []chatMessage{{"system", system}, {"user", user}},
		MaxTokens: c.cfg.maxTokens(),
	}
	if !c.cfg.NoResponseFormat {
		r.ResponseFormat = &responseFormat{Type: "json_object"}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		panic(err) // strings and numbers always encode
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// CallError is a call that produced no answer: the error of every
// attempt, in order.
type CallError struct {
	Call     Call
	Attempts []error
}

func (e *CallError) Error() string {
	msgs := make([]string, len(e.Attempts))
	for i, err := range e.Attempts {
		msgs[i] = fmt.Sprintf("attempt %d: %v", i+1, err)
	}
	return fmt.Sprintf("%s: no answer after %d attempt(s): %s", e.Call, len(e.Attempts), strings.Join(msgs, "; "))
}

// Unwrap gives the attempts' errors to errors.Is.
func (e *CallError) Unwrap() []error { return e.Attempts }

// Ask sends body (built by Request) with the bounded retry: after a
// transport or schema failure the same bytes are sent once more. parse
// validates the answer text and must wrap ErrSchema in a failure the
// retry should see. subject is the sha256 of what the request is about,
// for the recording. Ask returns the number of attempts made; a call
// without an answer is a *CallError.
func (c *Client) Ask(ctx context.Context, call Call, subject string, body []byte, parse func([]byte) error) (int, error) {
	var errs []error
	for n := 1; n <= maxAttempts; n++ {
		resp, err := c.attempt(ctx, call, subject, body, n)
		if err == nil {
			var content []byte
			if content, err = messageContent(resp); err == nil {
				err = parse(content)
			}
			if err == nil {
				return n, nil
			}
		}
		errs = append(errs, err)
		if !errors.Is(err, ErrTransport) && !errors.Is(err, ErrSchema) {
			break
		}
	}
	return len(errs), &CallError{Call: call, Attempts: errs}
}

// attempt sends body once (or takes its recorded exchange) and returns
// the body of a 200 response.
func (c *Client) attempt(ctx context.Context, call Call, subject string, body []byte, n int) ([]byte, error) {
	var x *Exchange
	if c.replay != nil {
		var err error
		if x, err = c.replay.next(body); err != nil {
			return nil, err
		}
	} else {
		x = &Exchange{Call: call, Model: c.cfg.Model, Subject: subject, Attempt: n, RequestSHA: model.Hash(body), Request: string(body)}
		status, resp, err := c.post(ctx, body)
		if ctx.Err() != nil {
			// The run was cancelled: that is not the server's answer, and
			// a replay must not reproduce it.
			return nil, ctx.Err()
		}
		x.Status = status
		x.setResponse(resp)
		if err != nil {
			x.Error = err.Error()
		}
		if c.rec != nil {
			if err := c.rec.Record(Entry{Exchange: x}); err != nil {
				return nil, err
			}
		}
	}
	if x.Error != "" {
		return nil, fmt.Errorf("%w: %s", ErrTransport, x.Error)
	}
	if x.Status != http.StatusOK {
		return nil, fmt.Errorf("%w: HTTP %d: %s", ErrTransport, x.Status, clip(x.response()))
	}
	return x.response(), nil
}

// post sends one request within the per-request timeout.
func (c *Client) post(ctx context.Context, body []byte) (int, []byte, error) {
	ctx, cancel := context.WithTimeout(ctx, c.cfg.timeout())
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	if c.cfg.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.cfg.APIKey)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, nil, timeoutOr(ctx, c.cfg.timeout(), err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxResponse+1))
	if err != nil {
		return resp.StatusCode, nil, timeoutOr(ctx, c.cfg.timeout(), err)
	}
	if len(b) > maxResponse {
		return resp.StatusCode, nil, fmt.Errorf("response larger than %d bytes", maxResponse)
	}
	return resp.StatusCode, b, nil
}

// timeoutOr names a timeout plainly; other errors pass through.
func timeoutOr(ctx context.Context, d time.Duration, err error) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("no response within %s", d)
	}
	return err
}

// clip shortens a response body for an error message.
func clip(b []byte) string {
	const n = 200
	if len(b) > n {
		return string(b[:n]) + "…"
	}
	return string(b)
}

// messageContent takes the answer text out of a chat completion: the
// first choice's message content, without the Markdown code fence some
// models wrap JSON in even when asked not to. The envelope is read
// leniently (servers add fields of their own); the answer is not.
func messageContent(resp []byte) ([]byte, error) {
	var env struct {
		Choices []struct {
			Message struct {
				Content *string `json:"content"`
			} `json:"message"`
			FinishReason string `json:"finish_reason"`
		} `json:"choices"`
	}
	if err := json.Unmarshal(resp, &env); err != nil {
		return nil, fmt.Errorf("%w: the response is not a chat completion: %v", ErrSchema, err)
	}
	if len(env.Choices) == 0 || env.Choices[0].Message.Content == nil {
		return nil, fmt.Errorf("%w: the response has no message content", ErrSchema)
	}
	if env.Choices[0].FinishReason == "length" {
		return nil, fmt.Errorf("%w: the answer was cut at the token cap", ErrSchema)
	}
	s := strings.TrimSpace(*env.Choices[0].Message.Content)
	if rest, ok := strings.CutPrefix(s, "```"); ok {
		lang, body, found := strings.Cut(rest, "\n")
		if lang = strings.TrimSpace(lang); found && (lang == "" || lang == "json") {
			if inner, ok := strings.CutSuffix(body, "```"); ok {
				s = strings.TrimSpace(inner)
			}
		}
	}
	return []byte(s), nil
}

// Frozen lists the records frozen so far in the run, oldest first: the
// recorder's, the recording's when replaying, or those Freeze was given.
func (c *Client) Frozen() []json.RawMessage {
	if c.rec != nil {
		return c.rec.Frozen()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]json.RawMessage{}, c.frozen...)
}

// Freeze stores a new frozen record, one JSON value: in the recording,
// and for the rest of the run.
func (c *Client) Freeze(record json.RawMessage) error {
	if c.rec != nil {
		return c.rec.Record(Entry{Frozen: record})
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.frozen = append(c.frozen, record)
	return nil
}
