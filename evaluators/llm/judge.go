// Package llm holds the LLM evaluators: the two of SPEC §5, the
// schema-aware judge, which reads the public payload with its goal
// schema, and IDJ, which writes a checklist from the task instruction
// alone, freezes it, and scores the schema-free projection against it
// three times, taking the median; and tau2-bench's NL_ASSERTION judge
// (NLAssertions), which reads a tau2 payload's transcript and NL
// assertions with tau2's own prompts. All talk to any OpenAI-compatible
// chat-completions endpoint at temperature 0 and answer in a strict JSON
// schema; a transport or schema failure is retried once, then the call is an
// error, never a made-up score. Without an endpoint they report
// llmclient.ErrNotConfigured.
//
// The trusted parent calls them with payload bytes alone. Like the
// deterministic evaluators, this package imports neither the certifier
// nor the sealed task data (evaluators/isolation_test.go holds it to
// that).
//
// Every request is built deterministically from the bytes it is about,
// and sent through the one chat client (internal/llmclient), which the
// LLM attacker shares: it records every exchange and replays a recording
// offline byte for byte. This package owns the checklist records the
// recording also holds (OpenLog, OpenReplay).
package llm

import (
	"context"

	"github.com/parthack/parthack/internal/llmclient"
	"github.com/parthack/parthack/internal/payload"
	"github.com/parthack/parthack/model"
)

// Environment variable prefixes of the judges' endpoints (see
// llmclient.Endpoint): JudgeEnv+"BASE_URL", JudgeEnv+"MODEL",
// JudgeEnv+"API_KEY", and the same under IDJEnv for IDJ's own model.
const (
	JudgeEnv = "PARTHACK_JUDGE_"
	IDJEnv   = "PARTHACK_IDJ_"
)

// Judge is the schema-aware LLM judge.
type Judge struct{ c *llmclient.Client }

// NewJudge is the judge asking through c; a nil c is a judge that is not
// configured.
func NewJudge(c *llmclient.Client) *Judge { return &Judge{c: c} }

// Result is a judge's score of one payload and what it rests on.
type Result struct {
	Answer
	Model      string `json:"model"`
	Attempts   int    `json:"attempts"`       // 1, or 2 when the retry was used
	Subject    string `json:"subject_sha256"` // the payload's sha256
	RequestSHA string `json:"request_sha256"`
}

// Request is the exact request body the judge sends for payload bytes.
func (j *Judge) Request(payloadBytes []byte) ([]byte, error) {
	if j.c == nil {
		return nil, llmclient.ErrNotConfigured
	}
	if _, err := payload.Decode(payloadBytes); err != nil {
		return nil, err
	}
	return j.c.Request(judgeSystem, judgeUser(payloadBytes)), nil
}

// Score asks the judge to score a payload, given as its canonical bytes.
func (j *Judge) Score(ctx context.Context, payloadBytes []byte) (*Result, error) {
	body, err := j.Request(payloadBytes)
	if err != nil {
		return nil, err
	}
	record, err := ReadRecord(payloadBytes)
	if err != nil {
		return nil, err
	}
	res := &Result{Model: j.c.Model(), Subject: model.Hash(payloadBytes), RequestSHA: model.Hash(body)}
	res.Attempts, err = j.c.Ask(ctx, CallJudge, res.Subject, body, func(content []byte) error {
		a, err := parseAnswer(content, record)
		res.Answer = a
		return err
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}
