package llm

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/parthack/parthack/internal/llmclient"
	"github.com/parthack/parthack/internal/payload"
	"github.com/parthack/parthack/internal/pyrepr"
	"github.com/parthack/parthack/model"
)

// CallNLAssertions is the recording's name for tau2's NL_ASSERTION judge
// call.
const CallNLAssertions llmclient.Call = "tau2_nl_assertions"

// NLAssertions is tau2-bench's NL_ASSERTION evaluator: an LLM reads the
// conversation and the task's natural-language assertions and says of
// each whether the agent met it; the score is 1 when every one is met.
type NLAssertions struct{ c *llmclient.Client }

// NewNLAssertions is the evaluator asking through c; a nil c is one that
// is not configured.
func NewNLAssertions(c *llmclient.Client) *NLAssertions { return &NLAssertions{c: c} }

// NLCheck is the judge's verdict on one assertion.
type NLCheck struct {
	Assertion string `json:"nl_assertion"`     // the task's assertion, by position
	Expected  string `json:"expected_outcome"` // the assertion as the judge repeated it
	Met       bool   `json:"met"`
	Reasoning string `json:"reasoning"`
}

// NLResult is the NL_ASSERTION score of one payload and what it rests on.
type NLResult struct {
	Score      float64   `json:"score"` // 1 when every assertion is met, else 0
	Checks     []NLCheck `json:"checks"`
	Model      string    `json:"model,omitempty"`
	Attempts   int       `json:"attempts"`       // 0 when there was nothing to ask
	Subject    string    `json:"subject_sha256"` // the payload's sha256
	RequestSHA string    `json:"request_sha256,omitempty"`
}

// Request is the exact request body the evaluator sends for payload
// bytes: tau2's prompts over the payload's transcript and its
// reference's assertions.
func (n *NLAssertions) Request(payloadBytes []byte) ([]byte, error) {
	if n.c == nil {
		return nil, llmclient.ErrNotConfigured
	}
	p, err := payload.Decode(payloadBytes)
	if err != nil {
		return nil, err
	}
	as := assertionsOf(p)
	if len(as) == 0 {
		return nil, fmt.Errorf("NL_ASSERTION: the payload holds no NL assertions")
	}
	return n.c.Request(nlSystem, nlUser(p.Transcript, as)), nil
}

func assertionsOf(p *payload.Payload) []string {
	if p.Reference == nil {
		return nil
	}
	return p.Reference.Assertions
}

// Score asks the judge about every assertion of a payload, given as its
// canonical bytes. A payload without assertions scores 1 with no call,
// as tau2 scores a task without them.
func (n *NLAssertions) Score(ctx context.Context, payloadBytes []byte) (*NLResult, error) {
	p, err := payload.Decode(payloadBytes)
	if err != nil {
		return nil, err
	}
	res := &NLResult{Subject: model.Hash(payloadBytes), Checks: []NLCheck{}}
	as := assertionsOf(p)
	if len(as) == 0 {
		res.Score = 1
		return res, nil
	}
	if n.c == nil {
		return nil, llmclient.ErrNotConfigured
	}
	body := n.c.Request(nlSystem, nlUser(p.Transcript, as))
	res.Model, res.RequestSHA = n.c.Model(), model.Hash(body)
	res.Attempts, err = n.c.Ask(ctx, CallNLAssertions, res.Subject, body, func(content []byte) error {
		checks, err := parseNLAnswer(content, as)
		res.Checks = checks
		return err
	})
	if err != nil {
		return nil, err
	}
	res.Score = 1
	for _, c := range res.Checks {
		if !c.Met {
			res.Score = 0
		}
	}
	return res, nil
}

// parseNLAnswer reads tau2's answer, {"results": [{"expectedOutcome",
// "reasoning", "metExpectation"}, …]}, strictly: one result per
// assertion, in order. tau2 takes whatever results come back; a judge
// that grades fewer assertions than asked would pass the ones left out.
func parseNLAnswer(b []byte, assertions []string) ([]NLCheck, error) {
	if _, err := strictObject(b, "results"); err != nil {
		return nil, fmt.Errorf("%w: %v", llmclient.ErrSchema, err)
	}
	var top struct{ Results []json.RawMessage }
	if err := json.Unmarshal(b, &top); err != nil || top.Results == nil {
		return nil, fmt.Errorf("%w: results is not a list", llmclient.ErrSchema)
	}
	if len(top.Results) != len(assertions) {
		return nil, fmt.Errorf("%w: %d results for %d assertions", llmclient.ErrSchema, len(top.Results), len(assertions))
	}
	checks := make([]NLCheck, len(top.Results))
	for i, raw := range top.Results {
		obj, err := strictObject(raw, "expectedOutcome", "reasoning", "metExpectation")
		if err != nil {
			return nil, fmt.Errorf("%w: results[%d]: %v", llmclient.ErrSchema, i, err)
		}
		c := NLCheck{Assertion: assertions[i]}
		var ok bool
		if c.Expected, ok = obj["expectedOutcome"].(string); !ok {
			return nil, fmt.Errorf("%w: results[%d].expectedOutcome is not a string", llmclient.ErrSchema, i)
		}
		if c.Reasoning, ok = obj["reasoning"].(string); !ok {
			return nil, fmt.Errorf("%w: results[%d].reasoning is not a string", llmclient.ErrSchema, i)
		}
		if c.Met, ok = obj["metExpectation"].(bool); !ok {
			return nil, fmt.Errorf("%w: results[%d].metExpectation is not true or false", llmclient.ErrSchema, i)
		}
		checks[i] = c
	}
	return checks, nil
}

// tau2's prompts, as its NLAssertionsEvaluator sends them
// (tau2/evaluator/evaluator_nl_assertions.py in tau2-bench, MIT licence,
// shipped in domains/tau2/data/LICENSE), white space and all: the
// indentation is that of the Python source's triple-quoted strings.
const nlSystem = "\n" +
	"        TASK\n" +
	"        - You will be given a list of expected outcomes and a conversation that was collected during a test case run.\n" +
	"        - The conversation is between an agent and a customer.\n" +
	"        - Your job is to evaluate whether the agent satisfies each of the expected outcomes.\n" +
	"        - Grade each expected outcome individually.\n" +
	"\n" +
	"        FORMAT\n" +
	"        - Your response should be a JSON object with the following fields:\n" +
	"        - `reasoning`: a short explanation for your classification\n" +
	"        - `metExpectation`: `true` if the agent satisfies the expected outcomes, `false` otherwise\n" +
	"        - `expectedOutcome`: repeat the expectation from the input that you are grading\n" +
	"        \n" +
	"        Example response structure:\n" +
	"        {\n" +
	"            \"results\": [\n" +
	"                {\n" +
	"                    \"expectedOutcome\": \"<one of the expected outcomes from the input>\",\n" +
	"                    \"reasoning\": \"<reasoning trace>\",\n" +
	"                    \"metExpectation\": <false or true>,\n" +
	"                }\n" +
	"            ]\n" +
	"        }\n" +
	"        "

// nlUser is tau2's user prompt: the conversation one "role: content"
// line per turn, then the assertions as Python prints a list of str.
func nlUser(turns []payload.Turn, assertions []string) string {
	var b strings.Builder
	b.WriteString("\n        conversation:\n        ")
	for i, t := range turns {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(t.Role + ": " + t.Content)
	}
	b.WriteString("\n        \n        expectedOutcomes:\n        ")
	b.WriteString(pyStrList(assertions))
	b.WriteString("\n        ")
	return b.String()
}

// pyStrList is str() of a Python list of str: each element's repr,
// joined by ", " in brackets.
func pyStrList(xs []string) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, x := range xs {
		if i > 0 {
			b.WriteString(", ")
		}
		b.Write(pyrepr.AppendStr(nil, x))
	}
	b.WriteByte(']')
	return b.String()
}
