// Package evaluators holds the six deterministic partial-credit evaluators
// of SPEC §5 — Historical Milestone, Predicate-Max, CAPE-Max, CSPS,
// Lightweight CAPE and Terminal Outcome — each computed from the public
// payload alone: the public goal schema, the public states rebuilt from
// the redacted initial state and diffs, and the public provenance. It
// never sees the certifier or the sealed task data (isolation_test.go
// holds it to that).
//
// Steps are t = 0 (the initial state) … T (after the last event). Under
// GoalPatch, historical evaluators count each step under the goal version
// active at that step; current-state ones use the version active at T.
// Attribution follows the certifier's latest-cause rule on public
// provenance: a predicate's cause is the actor of the last successful
// event whose diff touched its footprint; a predicate no event touched has
// cause "initial", which is not the agent.
package evaluators

import (
	"fmt"
	"io"

	"github.com/parthack/parthack/internal/payload"
	"github.com/parthack/parthack/model"
)

// Evaluator names one deterministic evaluator: Name is its identifier in
// files and flags, Label the paper's name for it.
type Evaluator struct {
	Name, Label string
	// AgentCredit marks an evaluator that credits only progress the agent
	// caused (c_agent): a run whose progress is partly another actor's
	// need not reach 1 on it.
	AgentCredit bool
}

// Deterministic lists the six deterministic evaluators, historical ones
// first, in the order every result of this package uses.
func Deterministic() []Evaluator {
	return []Evaluator{
		{"historical_milestone", "Historical Milestone", false}, // max over v of |predicates of v that held at some step while v was active| / m_v
		{"predicate_max", "Predicate-Max", false},               // max over t of ψ(c_state at t)
		{"cape_max", "CAPE-Max", true},                          // max over t of ψ(c_agent at t)
		{"csps", "CSPS", false},                                 // ψ(c_state at T)
		{"lightweight_cape", "Lightweight CAPE", true},          // ψ(c_agent at T)
		{"terminal_outcome", "Terminal Outcome", false},         // 1 if every predicate holds at T
	}
}

// nEval is the number of deterministic evaluators.
const nEval = 6

// Score is one evaluator's score of a trajectory, in [0, 1].
type Score struct {
	Name  string  `json:"name"`
	Value float64 `json:"value"`
}

// Series is one evaluator's score of every prefix of a trajectory:
// Values[k] scores the first k events (k = 0: the initial state alone).
type Series struct {
	Name   string    `json:"name"`
	Values []float64 `json:"values"`
}

// ScoreAll scores a payload with every deterministic evaluator, in
// Deterministic order.
func ScoreAll(p *payload.Payload) ([]Score, error) {
	var last [nEval]float64
	if err := run(p, func(_ int, v *[nEval]float64) { last = *v }); err != nil {
		return nil, err
	}
	out := make([]Score, nEval)
	for i, ev := range Deterministic() {
		out[i] = Score{Name: ev.Name, Value: last[i]}
	}
	return out, nil
}

// Prefixes scores every prefix of a payload's log with every
// deterministic evaluator, in one pass: each event updates the running
// state and scores, and re-evaluates only the predicates it touched.
func Prefixes(p *payload.Payload) ([]Series, error) {
	out := make([]Series, nEval)
	for i, ev := range Deterministic() {
		out[i] = Series{Name: ev.Name, Values: make([]float64, len(p.Events)+1)}
	}
	err := run(p, func(k int, v *[nEval]float64) {
		for i := range out {
			out[i].Values[k] = v[i]
		}
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// run rebuilds the public states of p in order and hands the six scores
// of each prefix, k = 0 … n, to record.
func run(p *payload.Payload, record func(k int, scores *[nEval]float64)) error {
	e, err := start(p)
	if err != nil {
		return err
	}
	if len(p.Provenance) != len(p.Events) {
		return fmt.Errorf("evaluators: %d provenance entries for %d events", len(p.Provenance), len(p.Events))
	}
	var s [nEval]float64
	e.score(&s)
	record(0, &s)
	for i := range p.Events {
		prov := &p.Provenance[i]
		if prov.Seq != i+1 {
			return fmt.Errorf("evaluators: provenance entry %d is for event %d", i+1, prov.Seq)
		}
		if err := e.step(&p.Events[i], prov.Actor, i+1, &s); err != nil {
			return err
		}
		record(i+1, &s)
	}
	return e.end(&p.Terminal)
}

// start checks a payload's version and loads its schema, goals and
// initial state into an engine.
func start(p *payload.Payload) (*engine, error) {
	if p.Version != payload.Version {
		return nil, fmt.Errorf("evaluators: payload version %d; this build reads version %d", p.Version, payload.Version)
	}
	e, err := newEngine(p)
	if err != nil {
		return nil, fmt.Errorf("evaluators: %w", err)
	}
	return e, nil
}

// step carries event n (from 1), whose provenance names actor, into the
// state and moves the scores s on to it.
func (e *engine) step(ev *payload.Event, actor model.Actor, n int, s *[nEval]float64) error {
	if err := e.apply(ev, actor == model.ActorAgent, n); err != nil {
		return fmt.Errorf("evaluators: event %d: %w", n, err)
	}
	e.score(s)
	return nil
}

// end holds the rebuilt state to the payload's terminal one.
func (e *engine) end(t *payload.State) error {
	if err := e.checkTerminal(t); err != nil {
		return fmt.Errorf("evaluators: %w", err)
	}
	return nil
}

// Stream scores a payload with every deterministic evaluator as its bytes
// are read from r, prefix by prefix, holding none of its events: record
// gets each prefix k = 0 … n, the event that ends it (nil for k = 0, the
// initial state alone) and its six scores in Deterministic order, both
// valid during the call; record is called in order, from one goroutine
// at a time, while later events are decoded. The bytes are decoded as strictly as Decode
// decodes them (payload.Decoder); an event's actor is its provenance's,
// which the decoder holds them to. Stream returns the payload's head (no
// events) once every byte is read and checked; the scores recorded before
// an error are to be discarded.
func Stream(r io.Reader, record func(k int, ev *payload.Event, scores []float64)) (*payload.Payload, error) {
	d := payload.NewDecoder(r)
	p, err := d.Head()
	if err != nil {
		return nil, err
	}
	e, err := start(p)
	if err != nil {
		return nil, err
	}
	var s [nEval]float64
	e.score(&s)
	record(0, nil, s[:])
	n := 0
	if err := d.EachEvent(func(ev *payload.Event) error {
		n++
		if err := e.step(ev, ev.Actor, n, &s); err != nil {
			return err
		}
		record(n, ev, s[:])
		return nil
	}); err != nil {
		return nil, err
	}
	t, err := d.Finish()
	if err != nil {
		return nil, err
	}
	if err := e.end(t); err != nil {
		return nil, err
	}
	return p, nil
}

// score moves the six scores from the previous step to this one: the
// historical ones keep their maximum, the current-state ones read the
// active version now.
func (e *engine) score(s *[nEval]float64) {
	v := &e.vers[e.active]
	m := float64(len(v.preds))
	state, agent := float64(v.nTrue)/m, float64(v.nAgent)/m
	s[0] = max(s[0], float64(v.nEver)/m)
	s[1] = max(s[1], state)
	s[2] = max(s[2], agent)
	s[3] = state
	s[4] = agent
	s[5] = 0
	if v.nTrue == len(v.preds) {
		s[5] = 1
	}
}
