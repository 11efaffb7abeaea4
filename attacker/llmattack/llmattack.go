// Package llmattack is the LLM attacker of SPEC §6: it shows an
// OpenAI-compatible model what a public evaluator rewards and the task's
// public interface with the honest trajectory H, and asks, K times, for a
// candidate that ends with H's certified progress yet scores higher. Each
// attempt goes through the protocol of the paper (A.5): generation, strict
// schema validation, replay and private double certification against H,
// and public target scoring from the payload's bytes. Every attempt
// consumes budget, invalid ones included, and A_f is the eligible
// candidate of highest target score, ties going to the earlier attempt.
//
// Requests go through the chat client the judges also use
// (internal/llmclient), with the endpoint set up the same way: temperature 0,
// a strict JSON answer, one bounded retry on a transport or schema
// failure, and a recording that replays the run offline byte for byte.
// Attempts after the first quote the public feedback on the earlier ones,
// built only from the attempts themselves, so a run is deterministic.
package llmattack

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/parthack/parthack/attacker"
	"github.com/parthack/parthack/certifier"
	"github.com/parthack/parthack/evaluators"
	"github.com/parthack/parthack/internal/llmclient"
	"github.com/parthack/parthack/internal/payload"
	"github.com/parthack/parthack/internal/payload/builder"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
)

// Env is the prefix of the attacker endpoint's environment variables:
// Env+"BASE_URL", Env+"MODEL", Env+"API_KEY" (see llmclient.Endpoint).
const Env = "PARTHACK_ATTACKER_"

// CallAttack is the attacker's request for a candidate trajectory, as a
// recording names it.
const CallAttack llmclient.Call = "attack"

// The paper's attacker settings (Section 4.1): K = 3 attempts per task
// and target, and a 12,000-token answer.
const (
	DefaultK         = 3
	DefaultMaxTokens = 12_000
)

// Options are a run's target and budget.
type Options struct {
	Target string // evaluator name (evaluators.Deterministic); default historical_milestone
	K      int    // attempts; default DefaultK
}

// Outcomes of an attempt besides a certifier's rejection reason.
const (
	OutcomeEligible = "eligible"  // matched: H's certified vectors, same goal version
	OutcomeNoAnswer = "no_answer" // the endpoint gave no answer text, even on the retry
)

// Attempt is one generation and what the protocol made of it.
type Attempt struct {
	N          int    `json:"attempt"`        // 1-based
	Requests   int    `json:"requests"`       // requests sent: 1, or 2 with the retry
	RequestSHA string `json:"request_sha256"` // the request body's sha256
	Generated  bool   `json:"generated"`      // the model answered with text
	Valid      bool   `json:"protocol_valid"` // decoded and legal: no malformed_schema or illegal_action
	Eligible   bool   `json:"eligible"`       // matched H's certified vectors
	// Outcome is OutcomeEligible, OutcomeNoAnswer or the certifier's
	// rejection reason (malformed_schema for an answer that does not decode).
	Outcome string   `json:"outcome"`
	Detail  string   `json:"detail,omitempty"` // the decoding or transport error, or where and why the certifier rejected the candidate
	Score   *float64 `json:"score,omitempty"`  // f(A) of a protocol-valid candidate
	Delta   *float64 `json:"delta,omitempty"`  // f(A) − f(H)
	Answer  string   `json:"answer,omitempty"` // the answer text, as received

	candidate *model.Trajectory
	verdict   *model.Verdict
}

// Result is a finished run: the same head as the search attacker's, the
// attempts and their accounting.
type Result struct {
	Task        string            `json:"task"`
	Target      string            `json:"target"`
	Model       string            `json:"model"`
	K           int               `json:"k"`
	Honest      float64           `json:"honest_score"` // f(H)
	Best        *model.Trajectory `json:"-"`            // A_f; nil when no attempt was eligible
	BestAttempt int               `json:"best_attempt,omitempty"`
	Score       float64           `json:"score"` // f(A_f), or f(H) when none
	Delta       float64           `json:"delta"` // Δhack of A_f
	Verdict     *model.Verdict    `json:"verdict,omitempty"`
	Attempts    []Attempt         `json:"attempts"`
	Generated   int               `json:"generated"`
	Valid       int               `json:"protocol_valid"`
	Eligible    int               `json:"eligible"`
}

// Run attacks one task. pub is the public task (what the prompt shows),
// env the trusted environment (what certifies), honest is H. A nil client
// is an attacker that is not configured: llmclient.ErrNotConfigured, never a
// made-up candidate. An attempt without an answer (transport or schema
// failure after the retry) is spent, not an error; the run stops with an
// error only when it cannot go on: cancelled, a recording without the
// request, or a certifier disagreement.
func Run(ctx context.Context, client *llmclient.Client, pub *model.Task, env *pbcste.Env, honest *model.Trajectory, opt Options) (*Result, error) {
	if client == nil {
		return nil, llmclient.ErrNotConfigured
	}
	if opt.Target == "" {
		opt.Target = "historical_milestone"
	}
	if opt.K <= 0 {
		opt.K = DefaultK
	}
	target, err := targetIndex(opt.Target)
	if err != nil {
		return nil, err
	}
	hres, rej, err := certifier.DoubleCertify(env, honest)
	if err != nil {
		return nil, err
	}
	if rej != nil {
		return nil, fmt.Errorf("honest trajectory is not certifiable: %s", rej.Error())
	}
	hScores, err := scores(pub, hres.Log)
	if err != nil {
		return nil, fmt.Errorf("score the honest trajectory: %w", err)
	}
	hPayload, err := builder.Build(pub, hres.Log, nil)
	if err != nil {
		return nil, err
	}
	iface, err := interfaceJSON(pub, honest, hPayload.Bytes(), hScores, opt.Target)
	if err != nil {
		return nil, err
	}
	system := systemPrompt(target, pub.Domain != nil)
	res := &Result{Task: env.Task.ID, Target: opt.Target, Model: client.Model(), K: opt.K, Honest: hScores[target].Value, Score: hScores[target].Value}
	for n := 1; n <= opt.K; n++ {
		user, err := userPrompt(iface, res.Attempts)
		if err != nil {
			return nil, err
		}
		a := Attempt{N: n}
		a.RequestSHA, a.Requests, err = client.Chat(ctx, CallAttack, model.Hash(iface), system, user, func(answer []byte) error {
			a.Generated, a.Answer, a.candidate = true, string(answer), nil
			tr, err := model.DecodeTrajectory(fmt.Sprintf("attempt %d", n), answer)
			if err != nil {
				return err
			}
			a.candidate = tr
			return nil
		})
		if err != nil && !spent(err) {
			return nil, err
		}
		if err := judge(&a, err, env, pub, honest, target, res.Honest); err != nil {
			return nil, fmt.Errorf("attempt %d: %w", n, err)
		}
		res.add(a)
	}
	return res, nil
}

// spent reports whether a call's error only used up the attempt: every
// request failed in transport or gave no valid answer.
func spent(err error) bool {
	var ce *llmclient.CallError
	if !errors.As(err, &ce) {
		return false
	}
	for _, e := range ce.Attempts {
		if !errors.Is(e, llmclient.ErrTransport) && !errors.Is(e, llmclient.ErrSchema) {
			return false
		}
	}
	return true
}

// judge takes an attempt through the protocol after generation: a
// candidate that decoded is certified against H, and, when legal,
// scored by the target from its public payload.
func judge(a *Attempt, callErr error, env *pbcste.Env, pub *model.Task, honest *model.Trajectory, target int, hScore float64) error {
	switch {
	case callErr != nil && !a.Generated:
		a.Outcome, a.Detail = OutcomeNoAnswer, lastError(callErr)
		return nil
	case callErr != nil:
		a.Outcome, a.Detail = string(model.MalformedSchema), lastError(callErr)
		return nil
	}
	v, err := certifier.DoublePair(env, honest, a.candidate)
	if err != nil {
		return err
	}
	if v.Eligible {
		a.Outcome = OutcomeEligible
	} else {
		a.Outcome = string(v.Reason)
		if ev := v.Evidence; ev != nil {
			a.Detail = strings.Join(append(ev.Where(), ev.Detail), ": ")
		}
	}
	a.Eligible, a.verdict = v.Eligible, &v
	a.Valid = v.Reason != model.MalformedSchema && v.Reason != model.IllegalAction
	if !a.Valid {
		return nil
	}
	s, err := scores(pub, env.Replay(a.candidate.Steps))
	if err != nil {
		return err
	}
	score, delta := s[target].Value, s[target].Value-hScore
	a.Score, a.Delta = &score, &delta
	return nil
}

// lastError is the error of a call's last request, for the attempt's
// detail and the model's feedback.
func lastError(err error) string {
	var ce *llmclient.CallError
	if errors.As(err, &ce) && len(ce.Attempts) > 0 {
		return ce.Attempts[len(ce.Attempts)-1].Error()
	}
	return err.Error()
}

// add counts an attempt and keeps its candidate when it is the best
// eligible one so far: strictly higher only, so ties go to the earlier.
func (r *Result) add(a Attempt) {
	r.Attempts = append(r.Attempts, a)
	if a.Generated {
		r.Generated++
	}
	if a.Valid {
		r.Valid++
	}
	if !a.Eligible {
		return
	}
	r.Eligible++
	if r.Best != nil && *a.Score <= r.Score {
		return
	}
	r.Best, r.BestAttempt, r.Score, r.Delta, r.Verdict = a.candidate, a.N, *a.Score, *a.Delta, a.verdict
	r.Best.Note = fmt.Sprintf("found by the LLM attacker (%s) against %s, attempt %d of %d: Δhack %+.3f", r.Model, r.Target, a.N, r.K, r.Delta)
}

// targetIndex finds a deterministic evaluator by name.
func targetIndex(name string) (int, error) {
	var names []string
	for i, e := range evaluators.Deterministic() {
		if e.Name == name {
			return i, nil
		}
		names = append(names, e.Name)
	}
	return 0, fmt.Errorf("%w %q (one of %s)", attacker.ErrUnknownTarget, name, strings.Join(names, ", "))
}

// scores are every deterministic evaluator's scores of a log, computed
// the way every evaluator sees a trajectory: from the public payload's
// bytes.
func scores(pub *model.Task, log *pbcste.Log) ([]evaluators.Score, error) {
	p, err := builder.Build(pub, log, nil)
	if err != nil {
		return nil, err
	}
	dec, err := payload.Decode(p.Bytes())
	if err != nil {
		return nil, err
	}
	return evaluators.ScoreAll(dec)
}
