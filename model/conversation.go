package model

import (
	"fmt"
	"slices"
)

// A Conversation is a domain whose benchmark holds an episode as a
// conversation in which the agent acts only on its own turns and which
// the benchmark ends at its limits (tau2's orchestrator), where
// tau-bench ends an episode at a call (Domain.EndsEpisode). A witness of
// a recorded run H must then be a conversation the benchmark could hold:
// the domain states its rule here, once, and CheckTurns and CheckWitness
// apply it for every attacker, editor and certifier.
type Conversation interface {
	// Ended says, for people, how the benchmark scores a run it ended
	// itself for a reason (a trajectory's Termination).
	Ended(reason string) string
	// Turns says, for each place k in h's steps (before its step k; after
	// its last for k = len(h.Steps)), "" where the agent has a turn in
	// which it could make a call of its own, else why it has none; nil
	// where h records no conversation to hold a call to.
	Turns(h *Trajectory) []string
	// MaxErrors is the number of failed calls at which the benchmark
	// ends a run of h (tau2's max_errors): a witness makes fewer; 0 for
	// no limit.
	MaxErrors(h *Trajectory) int
}

// A Limited conversation also bounds what a run of the benchmark may
// hold beyond its turns (BFCL force-quits an entry past 20 steps of one
// turn, and offers a miss_func entry's withheld function only from a
// later turn): Limit says why a witness a of h (kept: Kept's alignment)
// passes a bound, "" where it does not.
type Limited interface {
	Limit(h *Trajectory, a []Step, kept []int) string
}

// A Turnwise conversation holds a witness to the same work turn by turn
// (BFCL checks the state after every user turn): the same work ends every
// one of the agent's turns, not only the run, in H's state.
type Turnwise interface {
	TurnwiseWork() bool
}

// IsTurnwise reports whether the task's domain holds the same work turn
// by turn.
func IsTurnwise(t *Task) bool {
	c, ok := ConversationOf(t)
	if !ok {
		return false
	}
	tw, ok := c.(Turnwise)
	return ok && tw.TurnwiseWork()
}

// ConversationOf is the task's domain as a Conversation, if it is one.
func ConversationOf(t *Task) (Conversation, bool) {
	if t == nil || t.Domain == nil {
		return nil, false
	}
	c, ok := t.Domain.(Conversation)
	return c, ok
}

// Outcome is what a replayed step returned: whether it succeeded, and
// its output (its failure's reason where it has no output).
type Outcome struct {
	OK   bool
	Text string
}

// Kept aligns a witness's steps with H's, as a longest common
// subsequence of equal steps (the same actor and action): for each step
// of a, the step of h it keeps (from 0), or -1 where it is inserted.
// Another actor's steps (a tau2 telecom user's calls, BFCL's user turns)
// weigh more than all the agent's together: of the longest alignments,
// Kept takes one that keeps the most of them, so an agent's call moved
// across a user's step is the call moved, never the user's step dropped.
// Beyond maxKeptTable it keeps, in order, the first equal step instead.
func Kept(h, a []Step) []int {
	// Equal prefixes and suffixes are kept as they are; the table is of
	// the middles only.
	lo := 0
	for lo < len(h) && lo < len(a) && SameStep(&h[lo], &a[lo]) {
		lo++
	}
	hi := 0
	for hi < len(h)-lo && hi < len(a)-lo && SameStep(&h[len(h)-1-hi], &a[len(a)-1-hi]) {
		hi++
	}
	hm, am := h[lo:len(h)-hi], a[lo:len(a)-hi]
	kept := make([]int, len(a))
	for j := range lo {
		kept[j] = j
	}
	for k := range hi {
		kept[len(a)-1-k] = len(h) - 1 - k
	}
	w := len(am) + 1
	if (len(hm)+1)*w > maxKeptTable {
		// Middles too long to tabulate: each step of a keeps the next
		// equal step of h, in order.
		i := 0
		for j := range am {
			kept[lo+j] = -1
			for k := i; k < len(hm); k++ {
				if SameStep(&hm[k], &am[j]) {
					kept[lo+j], i = lo+k, k+1
					break
				}
			}
		}
		return kept
	}
	// weight is a kept step's: another actor's outweighs every agent's
	// step of the middles (the table's cells stay within int32, as at
	// most min(len(hm), len(am)) steps are kept).
	weight := func(st *Step) int32 {
		if agentOr(st.Actor) != ActorAgent {
			return int32(min(len(hm), len(am)) + 1)
		}
		return 1
	}
	// lcs[i][j]: the heaviest common subsequence of hm[i:] and am[j:].
	lcs := make([]int32, (len(hm)+1)*w)
	for i := len(hm) - 1; i >= 0; i-- {
		for j := len(am) - 1; j >= 0; j-- {
			switch {
			case SameStep(&hm[i], &am[j]):
				lcs[i*w+j] = max(lcs[(i+1)*w+j+1]+weight(&hm[i]), lcs[(i+1)*w+j], lcs[i*w+j+1])
			default:
				lcs[i*w+j] = max(lcs[(i+1)*w+j], lcs[i*w+j+1])
			}
		}
	}
	for i, j := 0, 0; j < len(am); {
		switch {
		case i < len(hm) && SameStep(&hm[i], &am[j]) && lcs[i*w+j] == lcs[(i+1)*w+j+1]+weight(&hm[i]):
			kept[lo+j] = lo + i
			i, j = i+1, j+1
		case i < len(hm) && lcs[(i+1)*w+j] >= lcs[i*w+j+1]:
			i++
		default:
			kept[lo+j] = -1
			j++
		}
	}
	return kept
}

// maxKeptTable bounds Kept's table (4 bytes a cell): a witness a few
// hundred calls from H, as every real benchmark's is, is far below it.
const maxKeptTable = 1 << 24

// SameStep reports whether two steps are the same actor's same action.
func SameStep(x, y *Step) bool {
	if agentOr(x.Actor) != agentOr(y.Actor) || x.Op != y.Op || x.Type != y.Type || x.ID != y.ID || x.Goal != y.Goal ||
		x.Tool != y.Tool || !x.Args.Equal(y.Args) || len(x.Fields) != len(y.Fields) {
		return false
	}
	for i := range x.Fields {
		if x.Fields[i].Field != y.Fields[i].Field || !x.Fields[i].Value.Equal(y.Fields[i].Value) {
			return false
		}
	}
	return true
}

// agentOr is an actor as written, the agent where it is left out.
func agentOr(a Actor) Actor {
	if a == "" {
		return ActorAgent
	}
	return a
}

// EndedItself says how the task's benchmark ended h itself, before its
// conversation did (h's Termination, in the domain's words: tau2 at
// max_steps, tau-bench's loop at max_num_steps); "" where it did not. No
// witness of such an h keeps its conversation.
func EndedItself(t *Task, h *Trajectory) string {
	if h.Termination == "" {
		return ""
	}
	if c, ok := ConversationOf(t); ok {
		return c.Ended(h.Termination)
	}
	return "ended by " + h.Termination
}

// CheckTurns refuses a witness a of h (kept: Kept's alignment) that the
// task's benchmark could not hold as a conversation: a run h ended
// itself, a step of another actor than the agent added or dropped, or an
// added call where the agent has no turn in h (Conversation.Turns). nil
// where the task's domain is no Conversation. The refusal is
// illegal_action at the witness's step (from 1).
func CheckTurns(t *Task, h *Trajectory, a []Step, kept []int) *Rejection {
	c, ok := ConversationOf(t)
	if !ok {
		return nil
	}
	if why := EndedItself(t, h); why != "" {
		return illegal(0, fmt.Sprintf("H ended before its conversation did (%s): no witness keeps its conversation", why))
	}
	turns := c.Turns(h)
	next := 0 // the next step of h, once the steps of a so far are placed
	for j := range a {
		if k := kept[j]; k >= 0 {
			for ; next < k; next++ {
				if st := &h.Steps[next]; agentOr(st.Actor) != ActorAgent {
					return illegal(j+1, fmt.Sprintf("H's step %d, a call of %s by the %s, is left out: a witness drops only the agent's calls", next+1, st.Tool, st.Actor))
				}
			}
			next = k + 1
			continue
		}
		st := &a[j]
		if agentOr(st.Actor) != ActorAgent {
			return illegal(j+1, fmt.Sprintf("step %d, a call of %s by the %s, is not one of H's: a witness adds only the agent's calls", j+1, st.Tool, st.Actor))
		}
		// The places in h between the last step kept and the next one:
		// more than one where h's steps in between are left out.
		upto := len(h.Steps)
		if k := slices.IndexFunc(kept[j:], func(k int) bool { return k >= 0 }); k >= 0 {
			upto = kept[j+k]
		}
		open := len(turns) == 0 // no conversation recorded: nothing to hold the call to
		for k := next; k <= upto && k < len(turns); k++ {
			open = open || turns[k] == ""
		}
		if !open {
			return illegal(j+1, fmt.Sprintf("step %d (%s) is the agent's, where it has no turn: %s", j+1, st.Tool, turns[next]))
		}
	}
	for ; next < len(h.Steps); next++ {
		if st := &h.Steps[next]; agentOr(st.Actor) != ActorAgent {
			return illegal(0, fmt.Sprintf("H's step %d, a call of %s by the %s, is left out: a witness drops only the agent's calls", next+1, st.Tool, st.Actor))
		}
	}
	return nil
}

// CheckLimit refuses, as illegal_action, a witness a of h (kept: Kept's
// alignment) past a bound of a Limited conversation; nil elsewhere.
func CheckLimit(t *Task, h *Trajectory, a []Step, kept []int) *Rejection {
	c, ok := ConversationOf(t)
	if !ok {
		return nil
	}
	if sl, ok := c.(Limited); ok {
		if why := sl.Limit(h, a, kept); why != "" {
			return illegal(0, why)
		}
	}
	return nil
}

// CheckWitness refuses a witness a of h that the task's benchmark could
// not produce: CheckTurns's refusals, then a failed call that brings the
// witness to the benchmark's error limit (illegal_action: the benchmark
// ends the run there), then a step kept from h that returns otherwise
// than in h (replay_mismatch: the conversation after it would be false).
// hOut and aOut are each step's outcome in h and in a. nil where the
// task's domain is no Conversation.
func CheckWitness(t *Task, h *Trajectory, a []Step, kept []int, hOut, aOut []Outcome) *Rejection {
	if rej := CheckTurns(t, h, a, kept); rej != nil {
		return rej
	}
	if rej := CheckLimit(t, h, a, kept); rej != nil {
		return rej
	}
	c, ok := ConversationOf(t)
	if !ok {
		return nil
	}
	limit, failed := c.MaxErrors(h), 0
	for j := range a {
		if !aOut[j].OK {
			if failed++; limit > 0 && failed >= limit {
				return illegal(j+1, fmt.Sprintf("step %d (%s) is the witness's failed call %d, and the run ends at %d (too_many_errors), where H's goes on", j+1, a[j].Tool, failed, limit))
			}
		}
		if k := kept[j]; k >= 0 && aOut[j] != hOut[k] {
			return &Rejection{Reason: ReplayMismatch, Evidence: Evidence{Step: j + 1, Component: "output", Expected: outcomeText(hOut[k]), Got: outcomeText(aOut[j]),
				Detail: fmt.Sprintf("step %d (%s) is H's step %d, which returns otherwise in the witness than in H: the conversation after it would not be H's", j+1, a[j].Tool, k+1)}}
		}
	}
	return nil
}

func illegal(step int, detail string) *Rejection {
	return &Rejection{Reason: IllegalAction, Evidence: Evidence{Step: step, Detail: detail}}
}

// outcomeText is an outcome for evidence: its text, marked when failed.
func outcomeText(o Outcome) string {
	if !o.OK {
		return "failed: " + o.Text
	}
	return o.Text
}

// Misplaced is a witness step that has no place in its H's recorded
// conversation: Step (from 0) and, when it falls between two calls of one
// message, that message's block (Inside); else Before, the block it would
// have to precede (-1: none, it comes after the run's last turn).
type Misplaced struct {
	Step, Inside, Before int
}

// PlaceInserted places the steps of a witness that keep no call of H's
// recorded conversation (kept, as Kept gives it) among the blocks of that
// conversation (a message and the tool results answering its calls):
// blockOf is the block of each of H's calls, blocks their number, and
// turnAfter whether the agent has the turn after a block. Each run of
// inserted steps goes after the first block, from the one of the kept
// call before it, where the agent has the turn and that comes before
// the kept call after it. at maps a block to the steps placed after it,
// in order; a step with no such place is returned as misplaced.
func PlaceInserted(kept, blockOf []int, blocks int, turnAfter func(block int) bool) (at map[int][]int, misplaced *Misplaced) {
	at = map[int][]int{}
	prev := -1 // the block of the last kept call before step s
	for s := 0; s < len(kept); {
		if kept[s] >= 0 {
			prev = blockOf[kept[s]]
			s++
			continue
		}
		q := s
		for q < len(kept) && kept[q] < 0 {
			q++
		}
		last := blocks - 1 // the last block after which the run may go
		if q < len(kept) {
			last = blockOf[kept[q]] - 1
			if prev == blockOf[kept[q]] {
				return nil, &Misplaced{Step: s, Inside: prev, Before: -1}
			}
		}
		bi := max(prev, 0)
		for bi <= last && !turnAfter(bi) {
			bi++
		}
		if bi > last {
			before := -1
			if q < len(kept) {
				before = last + 1
			}
			return nil, &Misplaced{Step: s, Inside: -1, Before: before}
		}
		for ; s < q; s++ {
			at[bi] = append(at[bi], s)
		}
	}
	return at, nil
}
