package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/parthack/parthack/domains"
	"github.com/parthack/parthack/internal/payload"
	"github.com/parthack/parthack/internal/worker"
	"github.com/parthack/parthack/model"
)

// scorerTarget names a sandboxed scorer as a search target (attack
// --target scorer) and as bench's row.
const scorerTarget = "scorer"

// payloadInput is --scorer-input's default: the public payload's bytes.
const payloadInput = "payload"

// checkInput holds --scorer-input to what the task's domain can give: the
// payload anywhere, a run format only on a domain whose runs are in it.
func (f *scorerFlags) checkInput(d domains.Domain) error {
	switch {
	case f.input == payloadInput:
		return nil
	case !slices.Contains(domains.FormatNames(), f.input):
		return usageErr("--scorer-input %q: want %s or a benchmark's run format (%s)", f.input, payloadInput, strings.Join(domains.FormatNames(), ", "))
	case d == nil:
		return usageErr("--scorer-input %s reads a real benchmark's runs; the suite's tasks have only the payload", f.input)
	case d.Format() != f.input:
		return usageErr("--scorer-input %s: %s's runs are in %s's format", f.input, d.Name(), d.Format())
	}
	return nil
}

// scorerSession is a sandboxed scorer serving a whole search, one line an
// input: the payload's bytes, or what the benchmark's own evaluator reads
// of the candidate (domains.Run.EvaluatorInput), as a witness of the
// recorded run whose conversation the payload carries.
type scorerSession struct {
	f    *scorerFlags
	ws   *worker.Session
	d    domains.Domain
	runs []*domains.Run // where H's run is looked for; nil: the domain's

	mu     sync.Mutex
	byTask map[string][]hRun
	n      int // inputs given
}

// hRun is a recorded run and the conversation its payload carries.
type hRun struct {
	run   *domains.Run
	turns []payload.Turn
}

// start starts the scorer for a session on domain d's runs (d nil: the
// suite, payload only).
func (f *scorerFlags) start(ctx context.Context, d domains.Domain, runs []*domains.Run) (*scorerSession, error) {
	if err := f.checkInput(d); err != nil {
		return nil, err
	}
	ws, err := worker.Start(ctx, f.config())
	if err != nil {
		return nil, usageErr("--scorer: %w", err)
	}
	return &scorerSession{f: f, ws: ws, d: d, runs: runs, byTask: map[string][]hRun{}}, nil
}

func (f *scorerFlags) config() worker.Config {
	return worker.Config{Program: f.program, Args: f.args, Env: f.envVars, ReadOnly: f.readOnly, Timeout: f.timeout, LandlockABI: f.abi}
}

func (s *scorerSession) close() { s.ws.Close() }

// label is the scorer's row label.
func (s *scorerSession) label() string { return "scorer " + filepath.Base(s.f.program) }

// reward is the scorer as a domain's evaluator, for bench and attack: one
// that can fail on a candidate.
func (s *scorerSession) reward() domains.Reward {
	return domains.Reward{Name: scorerTarget, Label: s.label(), Fails: s.score}
}

// score scores one candidate's payload (its trajectory read off the
// payload's events). A failure names the input that met it and the
// candidate; the worker starts the scorer afresh for the next input.
func (s *scorerSession) score(p *payload.Payload) (float64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.n++
	line, err := s.line(p)
	if err == nil {
		var res worker.Result
		if res, err = s.ws.Score(line); err == nil {
			return res.Score, nil
		}
	}
	return 0, fmt.Errorf("%s on input %d (%s): %w", s.label(), s.n, candidateOf(p), err)
}

// line is one input of the scorer's.
func (s *scorerSession) line(p *payload.Payload) ([]byte, error) {
	if s.f.input == payloadInput {
		return p.Bytes(), nil
	}
	h, err := s.hOf(p)
	if err != nil {
		return nil, err
	}
	return h.EvaluatorInput(stepsOf(p))
}

// hOf is the recorded run of the payload's task whose conversation the
// payload carries: the run the candidate is a witness of.
func (s *scorerSession) hOf(p *payload.Payload) (*domains.Run, error) {
	hs, ok := s.byTask[p.Task]
	if !ok {
		runs := s.runs
		if runs == nil {
			var err error
			if runs, err = s.d.Runs(); err != nil {
				return nil, err
			}
		}
		for _, r := range runs {
			if r.Task != p.Task || r.EvaluatorInput == nil {
				continue
			}
			tr, err := r.Trajectory()
			if err != nil {
				return nil, err
			}
			hs = append(hs, hRun{r, turnsOf(tr)})
		}
		s.byTask[p.Task] = hs
	}
	for _, h := range hs {
		if slices.Equal(h.turns, p.Transcript) {
			return h.run, nil
		}
	}
	return nil, fmt.Errorf("--scorer-input %s places a witness's calls in its H's recorded run, and no run of %s carries this conversation (a run of the task, or a witness that keeps its H's conversation, as attack and bench score them)", s.f.input, p.Task)
}

// turnsOf is a trajectory's conversation as its payload carries it.
func turnsOf(tr *model.Trajectory) []payload.Turn {
	out := make([]payload.Turn, len(tr.Transcript))
	for i, t := range tr.Transcript {
		out[i] = payload.Turn{Role: t.Role, Content: t.Content.String()}
	}
	return out
}

// stepsOf reads a candidate's steps off its payload: each event of a
// step, in order, with its actor, tool and arguments.
func stepsOf(p *payload.Payload) *model.Trajectory {
	tr := &model.Trajectory{Task: p.Task}
	for i := range p.Events {
		ev := &p.Events[i]
		if ev.Step == 0 {
			continue
		}
		st := model.Step{Index: len(tr.Steps), Action: model.Action{Op: ev.Op, Type: ev.Type, ID: ev.ID, Tool: ev.Tool}}
		if ev.Actor != model.ActorAgent {
			st.Actor = ev.Actor
		}
		if ev.Op == model.OpCall {
			b, _ := ev.Args.MarshalJSON()
			st.Args, _ = model.FromJSON(b)
		}
		tr.Steps = append(tr.Steps, st)
	}
	return tr
}

// candidateOf names a candidate by its payload: its sha256 and its calls.
func candidateOf(p *payload.Payload) string {
	var calls []string
	for i := range p.Events {
		if ev := &p.Events[i]; ev.Op == model.OpCall && ev.Step > 0 {
			args, _ := ev.Args.MarshalJSON()
			c := ev.Tool + string(args)
			if len(c) > 80 {
				c = c[:77] + "…"
			}
			calls = append(calls, c)
		}
	}
	switch {
	case len(calls) == 0:
		calls = []string{"none"}
	case len(calls) > 12:
		calls = append(calls[:12], fmt.Sprintf("… %d more", len(calls)-12))
	}
	return fmt.Sprintf("task %s, payload sha256 %s, calls %s", p.Task, p.Hash(), strings.Join(calls, ", "))
}

// withScorer is a domain whose evaluators end with a sandboxed scorer:
// bench searches it and gives it a row, as any of the domain's own.
type withScorer struct {
	domains.Domain
	scorer domains.Reward
}

func (d withScorer) Rewards() []domains.Reward {
	return append(d.Domain.Rewards(), d.scorer)
}
