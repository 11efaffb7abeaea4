package pbcste

import (
	"crypto/sha256"
	"fmt"
	"hash"
	"slices"
	"unsafe"

	"github.com/parthack/parthack/model"
)

// Event is one entry of the append-only log: every step, successful or
// failed, agent or scripted. The events are most of a log's memory, so an
// event holds fixed-size fields and its action only: its diff, and the
// rarer failure reason and tool output, are kept beside it in the log
// (Log.Diff, Log.Reason, Log.Output), and there is little in the events
// for the garbage collector to scan.
type Event struct {
	Seq    int // 0-based position in the log; logical time is Seq+1
	Step   int // 0-based agent step index, -1 for a scripted event
	Action *model.Action
	Hash   Hash // state hash after the event
	// CState and CAgent are the active goal version's predicate vectors
	// after the event, bit j for predicate j.
	CState, CAgent uint64
	Script         int32  // index into the task's script, -1 for an agent step
	Goal           int32  // active goal version after the event
	diff           uint32 // the position of its diff's first change among the log's changes
	ndiff          uint32 // the number of changes in its diff
	text           uint32 // 1 + the index of its reason and output among the log's texts; 0: neither
	actor          byte   // who acted, as actorCode numbers them (see Actor)
	OK             bool
	// Illegal marks an agent action outside the task's interface (op,
	// type or field not allowlisted, or a non-agent actor): it fails and
	// a certifier rejects the trajectory for it.
	Illegal bool
}

// Actor is who acted, assigned by the wrapper, never by the agent: the
// agent for an agent step, the scripted event's actor for the others.
func (e *Event) Actor() model.Actor { return actorOf[e.actor] }

// Time is the event's logical timestamp: 1 + the number of earlier events.
func (e *Event) Time() int { return e.Seq + 1 }

// DiffLen is the number of changes in the event's diff: 0 for a failed
// event and for one that changed nothing.
func (e *Event) DiffLen() int { return int(e.ndiff) }

// Log is the result of a replay: the events, the final state, and
// checkpoints from which any snapshot is rebuilt.
type Log struct {
	Env    *Env
	Events []Event
	Steps  int // agent steps taken
	final  *State
	every  int      // checkpoint interval in events
	checks []*State // checks[c] is the state before event c*every
	// rows holds, per slot created during the run (from the initial
	// snapshot's last on), its footprint masks when a predicate names it
	// by id, nil when its type's masks are its own (see maskRow).
	rows  [][]uint64
	truth []bool  // per predicate of every goal version, after the last event
	cause []cause // per predicate of every goal version: its latest cause so far
	// The changes of every diff in order, in chunks (one allocation per
	// chunk, not per event): chunk i holds the changes from position
	// changeAt[i] on, and a diff lies within one chunk. arena is the
	// last chunk's room, which the next diff is written into.
	changes  [][]Change
	changeAt []uint32
	nchanges uint32
	arena    []Change
	texts    []eventText // failure reasons and tool outputs, for the events that have one
	n        int         // events recorded so far
	// sinceFork counts the events this run recorded itself, since Begin
	// or Fork: what its diff chunks are sized by.
	sinceFork int
	// A streamed log (Env.Stream) keeps no history: Events holds the
	// events of the latest Step only, and the log hash is folded into
	// hash as events are recorded; a full log has no hash.
	hash    hash.Cloner
	hashBuf []byte
	bare    bool // StreamEvents: no log hash, latest causes or vectors
}

// streamed reports whether the log keeps no history (Env.Stream).
func (l *Log) streamed() bool { return l.hash != nil }

// eventText is what an event says beyond its fixed fields.
type eventText struct{ reason, output string }

// cause is a predicate's latest cause: the event's seq (-1: none, the
// initial snapshot), its actor and its agent step.
type cause struct {
	seq, step int
	actor     model.Actor
}

// Replay runs agent steps from the frozen initial snapshot, interleaving
// the task's scripted events. The agent's actions are checked against the
// allowlist: an action outside it fails like any other failed action.
// Replay is deterministic: the same task and steps give the same log.
func (env *Env) Replay(steps []model.Step) *Log {
	r := env.Begin(len(steps))
	r.Expect(steps)
	for i := range steps {
		r.Step(&steps[i])
	}
	return r.Finish()
}

// Run is a replay in progress: agent steps are added one at a time, and a
// run can be forked to explore alternatives from the same point, as the
// search attacker does. Replay is Begin, Expect, Step for each step,
// Finish.
type Run struct {
	log   *Log
	state *State
	next  int           // the next scripted event to fire
	ahead *lookahead    // the steps Expect announced, while they are taken
	ended *model.Action // the call that ended the episode, once one did
	endAt int           // its step number, from 1
}

// Expect announces the steps the run is about to take, in order, as
// elements of this very slice: on a large state the run then fetches
// their entities ahead of them (see lookahead). Stepping anything else
// ends the announcement. Nothing a run computes depends on it.
func (r *Run) Expect(steps []model.Step) {
	r.ahead = nil
	if r.state.n >= lookaheadFrom && len(steps) > 0 {
		r.ahead = newLookahead(r.state, steps)
	}
}

// Begin starts a replay; capacity is the number of agent steps expected.
func (env *Env) Begin(capacity int) *Run {
	s := env.Initial()
	every := 1024
	if n := 4 * int(s.slots()); n > every {
		every = n
	}
	l := &Log{Env: env, Events: make([]Event, 0, capacity+len(env.Task.Script)), every: every}
	l.truth = slices.Clone(env.initialTruth)
	l.cause = make([]cause, len(env.preds))
	for i := range l.cause {
		l.cause[i] = cause{seq: -1, step: -1, actor: model.ActorInitial}
	}
	return &Run{log: l, state: s}
}

// Stream starts a replay that keeps no history, for certifying a long
// trajectory as it is decoded: after each Step, Events holds only the
// events that Step recorded (the scripted events due before it, then the
// agent's), valid until the next Step. Latest causes, vectors, the final
// state and the log hash are those of a full replay; snapshots, Record
// and Touches, which need the history, are not available.
func (env *Env) Stream() *Run {
	r := env.Begin(0)
	r.log.hash = sha256.New().(hash.Cloner)
	return r
}

// StreamEvents starts a replay that keeps no history, no hash and no
// score, for showing a long trajectory's events as they are made (the
// public payload carries neither hashes nor vectors): it is Stream
// without a digest per written slot and per event, and without the
// predicates' truth, latest causes and count tables. The state, event and
// log hashes, the vectors and the latest causes it would report are not
// computed, and must not be read.
func (env *Env) StreamEvents() *Run {
	r := env.Stream()
	r.log.bare = true
	r.state.bare = true
	return r
}

// fire records the scripted events due once taken agent steps are done.
func (r *Run) fire(taken int) {
	if r.log.streamed() && len(r.log.Events) > 0 {
		r.log.forget()
	}
	script := r.log.Env.Task.Script
	for r.next < len(script) && script[r.next].After == taken {
		ev := &script[r.next]
		r.log.record(r.state, &ev.Action, ev.Actor, -1, r.next, "")
		r.next++
	}
}

// Step takes one agent step, after the scripted events due before it.
func (r *Run) Step(st *model.Step) {
	if la := r.ahead; la != nil {
		if la.next < len(la.steps) && st == &la.steps[la.next] {
			la.before(la.next)
			la.next++
		} else {
			r.ahead, r.state.hint = nil, idHint{}
		}
	}
	r.fire(r.log.Steps)
	illegal := ""
	actor := model.ActorAgent
	switch {
	case !model.MayAuthor(r.log.Env.Task, st.Actor):
		illegal = fmt.Sprintf("actor %q: a candidate authors agent steps only; non-agent events come from the task's script", st.Actor)
	case r.ended != nil:
		illegal = fmt.Sprintf("step %d comes after step %d, a call of %s, which ends the episode in %s: no step may follow it",
			r.log.Steps+1, r.endAt, r.ended.Tool, r.log.Env.Task.Domain.Name())
	}
	if illegal == "" && st.Actor != "" {
		actor = st.Actor // an actor the domain lets author steps
	}
	r.log.record(r.state, &st.Action, actor, r.log.Steps, -1, illegal)
	r.log.Steps++
	if r.ended == nil && st.Op == model.OpCall && r.log.Env.Task.Domain != nil && r.log.Env.Task.Domain.EndsEpisode(st.Tool) {
		r.ended, r.endAt = &st.Action, r.log.Steps
	}
}

// Ended is the number (from 1) of the step that ended the episode, 0
// while it goes on.
func (r *Run) Ended() int { return r.endAt }

// Finish fires the scripted events due at the end and returns the log.
// The run must not be stepped afterwards.
func (r *Run) Finish() *Log {
	r.fire(r.log.Steps)
	r.log.final = r.state
	return r.log
}

// Fork copies the run so far: the copy and the original go on
// independently. Events already recorded are shared, never copied.
func (r *Run) Fork() *Run {
	l := *r.log
	// A fork takes a few steps before it forks again: room for them,
	// where appending to the shared events would double their array.
	l.Events = append(make([]Event, 0, len(l.Events)+forkRoom), l.Events...)
	l.checks = slices.Clip(l.checks)
	l.rows = slices.Clip(l.rows)
	l.truth = slices.Clone(l.truth)
	l.cause = slices.Clone(l.cause)
	l.changes, l.changeAt, l.texts = slices.Clip(l.changes), slices.Clip(l.changeAt), slices.Clip(l.texts)
	l.arena = nil // the original keeps appending to its chunk
	l.sinceFork = 0
	return &Run{log: &l, state: r.state.Clone(), next: r.next, ended: r.ended, endAt: r.endAt}
}

// forkRoom is the events a fork has room for before its array grows.
const forkRoom = 4

// Taken is the number of agent steps taken so far.
func (r *Run) Taken() int { return r.log.Steps }

// Events are the events recorded so far; callers must not change them.
func (r *Run) Events() []Event { return r.log.Events }

// Hash is the current state hash.
func (r *Run) Hash() Hash { return r.state.sum }

// AgentCaused appends, for every predicate of every goal version in
// order, whether its latest cause so far is the agent: with the state and
// the steps taken, it is all that the future of a run depends on.
func (r *Run) AgentCaused(b []byte) []byte {
	for _, c := range r.log.cause {
		if c.actor == model.ActorAgent {
			b = append(b, 1)
		} else {
			b = append(b, 0)
		}
	}
	return b
}

// record applies one action and appends its event.
func (l *Log) record(s *State, a *model.Action, actor model.Actor, step, script int, illegal string) {
	seq := l.n
	switch {
	case l.streamed():
	case seq == 0:
		l.checks = append(l.checks, l.Env.initial) // never changed: Snapshot clones what it starts from
	case seq%l.every == 0:
		l.checks = append(l.checks, s.Clone())
	}
	if n := len(l.Events); n%eventsAhead == 0 && n+2*eventsAhead <= cap(l.Events) {
		l.prefetchEvents(n + eventsAhead)
	}
	l.Events = append(l.Events, Event{Seq: seq, Step: step, Script: int32(script), actor: actorCode(actor), Action: a})
	ev := &l.Events[len(l.Events)-1] // filled in place: an event is copied nowhere
	if illegal != "" {
		ev.Illegal = true
		l.say(ev, illegal, "")
	} else {
		nslots := s.slots()
		if cap(l.arena)-len(l.arena) < l.Env.maxDiff {
			// Chunks grow with what this run recorded, so a search
			// node forked off a long run allocates little and a long
			// replay few times.
			l.newChunk(make([]Change, 0, min(4096, l.Env.maxDiff+4*l.sinceFork)))
		}
		var (
			diff           []Change
			reason, output string
			illegal        bool
			room           = l.arena[len(l.arena):len(l.arena)]
		)
		if a.Op == model.OpCall {
			diff, output, reason, illegal = s.call(a, room, actor)
		} else {
			diff, reason, illegal = s.apply(a, room, actor == model.ActorAgent)
		}
		ev.OK, ev.Illegal = reason == "", illegal
		l.say(ev, reason, output)
		if len(diff) > 0 {
			if len(diff) > cap(room) { // a tool's many writes outgrew the chunk: theirs is one of its own
				l.newChunk(diff[:0])
			}
			ev.diff, ev.ndiff = l.nchanges, uint32(len(diff))
			l.nchanges += uint32(len(diff))
			l.arena = l.arena[:len(l.arena)+len(diff)]
		}
		if s.slots() > nslots {
			l.growRows(s)
		}
		if !l.bare {
			l.track(s, ev, diff)
		}
	}
	ev.Goal, ev.Hash = int32(s.goal), s.sum
	if !l.bare {
		ev.CState, ev.CAgent = l.vectors(s.goal)
	}
	l.n++
	l.sinceFork++
	if l.streamed() && !l.bare {
		l.hashBuf = appendEventHash(l.hashBuf, ev, l.Reason(ev))
		if len(l.hashBuf) > 60<<10 {
			l.hash.Write(l.hashBuf)
			l.hashBuf = l.hashBuf[:0]
		}
	}
}

// eventsAhead is how many events ahead of the one recorded record
// fetches the lines the events will be written to.
const eventsAhead = 16

// prefetchEvents fetches the lines of events [from, from+eventsAhead),
// within the events' capacity: a long log's events are written into
// memory zeroed long before, which has left the caches, and each line
// written would otherwise stall on its fetch.
func (l *Log) prefetchEvents(from int) {
	var addrs [eventsAhead * unsafe.Sizeof(Event{}) / 64]uintptr
	base := uintptr(unsafe.Pointer(unsafe.SliceData(l.Events))) + uintptr(from)*unsafe.Sizeof(Event{})
	for i := range addrs {
		addrs[i] = base + uintptr(i)*64
	}
	prefetch(addrs[:])
}

// newChunk makes c, empty with room to spare, the chunk that diffs are
// written into from now on.
func (l *Log) newChunk(c []Change) {
	l.changes = append(l.changes, c[:cap(c)])
	l.changeAt = append(l.changeAt, l.nchanges)
	l.arena = c
}

// say notes an event's failure reason and tool output, if it has either.
// An event that says what the last one that said anything said (the same
// failure again and again, as a stuck agent's) shares its note.
func (l *Log) say(ev *Event, reason, output string) {
	if reason == "" && output == "" {
		return
	}
	if n := len(l.texts); n == 0 || l.texts[n-1] != (eventText{reason, output}) {
		l.texts = append(l.texts, eventText{reason, output})
	}
	ev.text = uint32(len(l.texts))
}

// forget drops a streamed log's events, with their diffs and texts,
// keeping the memory for the next step's.
func (l *Log) forget() {
	l.Events, l.texts = l.Events[:0], l.texts[:0]
	l.changes, l.changeAt, l.nchanges = l.changes[:0], l.changeAt[:0], 0
	if l.arena != nil {
		l.newChunk(l.arena[:0])
	}
}

// Diff is an event's diff: its changes in the order they were made.
// Callers must not change it.
func (l *Log) Diff(ev *Event) []Change {
	if ev.ndiff == 0 {
		return nil
	}
	lo, hi := 0, len(l.changeAt) // the last chunk starting at or before the diff
	for hi-lo > 1 {
		if m := (lo + hi) / 2; l.changeAt[m] <= ev.diff {
			lo = m
		} else {
			hi = m
		}
	}
	at := ev.diff - l.changeAt[lo]
	return l.changes[lo][at : at+ev.ndiff : at+ev.ndiff]
}

// Reason is why an event failed; empty when it succeeded.
func (l *Log) Reason(ev *Event) string {
	if ev.text == 0 {
		return ""
	}
	return l.texts[ev.text-1].reason
}

// Reason is why an event recorded so far failed; empty when it succeeded.
func (r *Run) Reason(ev *Event) string { return r.log.Reason(ev) }

// Output is what a domain tool returned to the agent at an event.
func (l *Log) Output(ev *Event) string {
	if ev.text == 0 {
		return ""
	}
	return l.texts[ev.text-1].output
}

// Output is what a domain tool returned at an event recorded so far.
func (r *Run) Output(ev *Event) string { return r.log.Output(ev) }

// growRows notes the footprint masks of slots new since the last call.
func (l *Log) growRows(s *State) {
	for slot := l.Env.initial.n + int32(len(l.rows)); slot < s.slots(); slot++ {
		l.rows = append(l.rows, l.Env.named[entKey{s.rec(slot).typ(), s.idOf(slot, true)}])
	}
}

// maskRow is a slot's footprint masks, one per predicate (bit(f): the
// predicate reads field f). Most slots share their type's row: only the
// few a predicate names by id have one of their own, which a bitset
// small enough to stay in cache marks, so that a write to one of 50,000
// entities reads no per-slot array.
func (l *Log) maskRow(s *State, slot int32) []uint64 {
	env := l.Env
	if slot < env.initial.n {
		if env.initialNamed[slot>>6]&(1<<(slot&63)) != 0 {
			return env.initialRows[slot]
		}
	} else if r := l.rows[slot-env.initial.n]; r != nil {
		return r
	}
	np := len(env.preds)
	t := int(s.rec(slot).typ())
	return env.typeMasks[t*np : t*np+np]
}

// Touches reports whether event seq's diff intersects p's footprint.
func (l *Log) Touches(seq int, p *Pred) bool {
	diff := l.Diff(&l.Events[seq])
	for i := range diff {
		if c := &diff[i]; c.Slot >= 0 && l.maskRow(l.final, c.Slot)[p.all]&bit(int(c.Field)) != 0 {
			return true
		}
	}
	return false
}

// Cause is the latest cause of predicate p after the last event: the
// actor of the last successful event whose diff touched p's footprint,
// or model.ActorInitial (Seq -1) when none did. With track, this is the
// one authoritative definition of latest cause (see docs/definitions.md).
func (l *Log) Cause(p *Pred) model.Cause {
	c := l.cause[p.all]
	if c.seq < 0 {
		return model.Cause{Actor: model.ActorInitial, Seq: -1}
	}
	return model.Cause{Actor: c.actor, Seq: c.seq + 1, Step: c.step + 1}
}

// track re-evaluates the predicates an event touched and moves their
// latest cause to it: an empty diff touches nothing, and a failed event
// has none. A predicate whose cause is already this event was evaluated
// on the state after it at an earlier change of its diff.
func (l *Log) track(s *State, ev *Event, diff []Change) {
	for i := range diff {
		c := &diff[i]
		if c.Slot < 0 {
			continue
		}
		b := bit(int(c.Field))
		for p, m := range l.maskRow(s, c.Slot) {
			if m&b != 0 && l.cause[p].seq != ev.Seq {
				l.truth[p] = s.Eval(l.Env.preds[p])
				l.cause[p] = cause{seq: ev.Seq, step: ev.Step, actor: ev.Actor()}
			}
		}
	}
}

func (l *Log) vectors(goal int) (cstate, cagent uint64) {
	for j, p := range l.Env.goals[goal].Preds {
		if l.truth[p.all] {
			cstate |= 1 << uint(j)
			if l.cause[p.all].actor == model.ActorAgent {
				cagent |= 1 << uint(j)
			}
		}
	}
	return cstate, cagent
}

// Len is the number of events recorded: len(Events) for a full replay,
// every event so far for a streamed one.
func (l *Log) Len() int { return l.n }

// Final is the state after the last event; callers must not change it.
func (l *Log) Final() *State { return l.final }

// FinalHash is the state hash at termination.
func (l *Log) FinalHash() Hash { return l.final.sum }

// TurnHashes are the state hashes after each step of another actor than
// the agent (a BFCL user's turn), in order: the state each of the agent's
// turns ended in, with the goal the actor set.
func (l *Log) TurnHashes() []Hash {
	var out []Hash
	for i := range l.Events {
		if ev := &l.Events[i]; ev.Step >= 0 && ev.actor != actorCode(model.ActorAgent) {
			out = append(out, ev.Hash)
		}
	}
	return out
}

// Goal is the active goal version at termination.
func (l *Log) Goal() *Goal { return l.Env.goals[l.final.goal] }

// Snapshot rebuilds the state after event seq (seq -1: the initial
// snapshot) from the nearest checkpoint at or before it.
func (l *Log) Snapshot(seq int) *State {
	if seq < -1 || seq >= len(l.Events) {
		return nil
	}
	c := (seq + 1) / l.every
	if c >= len(l.checks) {
		c = len(l.checks) - 1
	}
	if c < 0 {
		return l.Env.Initial()
	}
	s := l.checks[c].Clone()
	for i := c * l.every; i <= seq; i++ {
		ev := &l.Events[i]
		diff := l.Diff(ev)
		for j := range diff {
			s.redo(&diff[j], l.final)
		}
	}
	return s
}

// InitialVectors are the first goal version's c_state and c_agent bits
// before any event (c_agent is empty: nothing has a cause yet).
func (l *Log) InitialVectors() (cstate, cagent uint64) {
	init := l.Env.initial
	for j, p := range l.Env.goals[0].Preds {
		if init.Eval(p) {
			cstate |= 1 << uint(j)
		}
	}
	return cstate, 0
}

// Task is the task the run replays.
func (r *Run) Task() *model.Task { return r.log.Env.Task }

// Outcomes are what each step of the replayed trajectory returned, by
// step: its output, or its failure's reason where it has none.
func (l *Log) Outcomes() []model.Outcome {
	out := make([]model.Outcome, l.Steps)
	for i := range l.Events {
		ev := &l.Events[i]
		if ev.Step < 0 || ev.Step >= len(out) {
			continue
		}
		out[ev.Step] = l.outcome(ev)
	}
	return out
}

// outcome is what an event's step returned.
func (l *Log) outcome(ev *Event) model.Outcome {
	text := l.Output(ev)
	if text == "" && !ev.OK {
		text = l.Reason(ev)
	}
	return model.Outcome{OK: ev.OK, Text: text}
}

// Outcome is what the step of one of the run's events returned.
func (r *Run) Outcome(ev *Event) model.Outcome { return r.log.outcome(ev) }
