package builder

import (
	"slices"

	"github.com/parthack/parthack/internal/payload"
	"github.com/parthack/parthack/internal/pipe"
	"github.com/parthack/parthack/internal/spool"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
)

// Steps is a trajectory as a stream of its steps, in batches, which may
// be read more than once: the shape of certifier.Steps. It returns the
// trajectory without its steps, and their number.
type Steps = func(each func([]model.Step)) (*model.Trajectory, int, error)

// Stream writes the public payload of a trajectory to enc as Build writes
// it, byte for byte, replaying the trajectory on the trusted task (env) as
// its steps arrive and holding none of its events: one byte per event
// (its actor, for the provenance that follows the events) is all that
// grows with its length. For a domain task it reads the steps once first,
// to find the scope of its states (which the initial state, written
// before any event, needs). The action transcript, which follows the
// events when the trajectory has no conversation of its own, waits in a
// spool (a temporary file) as the events are written; where no spool can
// be made, the steps are replayed once more for it.
func Stream(pub *model.Task, env *pbcste.Env, steps Steps, enc *payload.Encoder) error {
	v, err := newView(pub, env)
	if err != nil {
		return err
	}
	head := &payload.Payload{Version: payload.Version, Task: pub.ID, Title: pub.Title, Instruction: pub.Instruction}
	if err := v.head(head); err != nil {
		return err
	}
	if env.Task.Domain != nil {
		sc := predicateScope(pub)
		if _, _, err := replaySteps(env, steps, sc.add); err != nil {
			return err
		}
		v.scope = sc
	}
	head.Initial = v.state(env.Initial())
	if err := v.checkInitial(head.Initial.Entities); err != nil {
		return err
	}
	enc.Head(head)
	transcript, err := spool.New()
	if err == nil {
		defer transcript.Close()
	}
	var (
		actors actorCodes
		text   []byte
	)
	// The events are encoded on a goroutine of their own, beside the
	// replay that makes them.
	events := pipe.New(eventBatch, eventBatches, func(ev *payload.Event) {
		enc.Event(ev)
		if transcript != nil && ev.Actor == model.ActorAgent {
			text = appendActionText(text[:0], ev)
			transcript.Add(text)
		}
	})
	log, tr, err := replaySteps(env, steps, func(r recorder, ev *pbcste.Event) {
		v.event(events.Next(), r, ev)
		actors.add(ev.Actor())
	})
	events.Close()
	if err != nil {
		return err
	}
	final := v.state(log.Final())
	enc.Terminal(&final)
	for i, c := range actors.codes {
		enc.Provenance(payload.Provenance{Seq: i + 1, Actor: actors.names[c]})
	}
	if len(tr.Transcript) > 0 {
		for _, t := range tr.Transcript {
			enc.TextTurn(t.Role, t.Content)
		}
		return enc.CloseWith(tr.Termination)
	}
	turn := func(b []byte) { enc.TurnText("assistant", b) }
	if transcript != nil {
		if err := transcript.Each(turn); err != nil {
			return err
		}
		return enc.CloseWith(tr.Termination)
	}
	var out payload.Event
	if _, _, err := replaySteps(env, steps, func(_ recorder, ev *pbcste.Event) {
		if ev.Actor() == model.ActorAgent { // an agent action's event, as Build has them
			out = payload.Event{Args: out.Args[:0]}
			v.action(&out, ev.Action)
			text = appendActionText(text[:0], &out)
			turn(text)
		}
	}); err != nil {
		return err
	}
	return enc.CloseWith(tr.Termination)
}

// head fills in the parts of a payload that come from the public task
// alone: its schema, goals and reference.
func (v *view) head(p *payload.Payload) error {
	pub := v.pub
	p.Schema = v.schema()
	var err error
	if p.Goals, err = payload.GoalsOf(pub); err != nil {
		return err
	}
	if ref := pub.Reference; ref != nil {
		p.Reference = &payload.Reference{Changes: []payload.Cell{}, Outputs: append([]string{}, ref.Outputs...)}
		for _, c := range ref.Changes {
			p.Reference.Changes = append(p.Reference.Changes, payload.Cell{Type: c.Type, ID: c.ID, Field: c.Field, Before: c.Before, After: c.After})
		}
		p.Reference.Basis = slices.Clone(ref.Basis)
		p.Reference.Assertions = slices.Clone(ref.Assertions)
		for _, a := range ref.Actions {
			p.Reference.Actions = append(p.Reference.Actions, payload.RefCall{Requestor: a.Requestor, Tool: a.Tool, Args: a.Args,
				CompareArgs: slices.Clone(a.CompareArgs), AllArgs: a.AllArgs})
		}
	}
	return nil
}

// replaySteps replays a trajectory on a streamed run, handing every
// event to fn, in order, with the run that recorded it; it returns the
// finished log and the trajectory without its steps.
func replaySteps(env *pbcste.Env, steps Steps, fn func(recorder, *pbcste.Event)) (*pbcste.Log, *model.Trajectory, error) {
	run := env.StreamEvents()
	tr, _, err := steps(func(batch []model.Step) {
		for i := range batch {
			run.Step(&batch[i])
			evs := run.Events()
			for j := range evs {
				fn(run, &evs[j])
			}
		}
	})
	if err != nil {
		return nil, nil, err
	}
	log := run.Finish()
	for j := range log.Events {
		fn(log, &log.Events[j])
	}
	return log, tr, nil
}

// actorCodes are the actors of a log's events, one byte each.
type actorCodes struct {
	names []model.Actor
	codes []byte
}

func (a *actorCodes) add(actor model.Actor) {
	c := slices.Index(a.names, actor)
	if c < 0 {
		c = len(a.names)
		a.names = append(a.names, actor)
	}
	a.codes = append(a.codes, byte(c))
}

// eventBatch is how many public events go to the encoder at once, and
// eventBatches how many batches are in use.
const (
	eventBatch   = 1024
	eventBatches = 4
)
