package tau2

import (
	"errors"
	"fmt"
)

// Exchange is one tool call of a run and the tool message tau2 pairs
// with it: the call is Messages[Msg].ToolCalls[Call], its result
// Messages[Result].
type Exchange struct {
	Msg, Call, Result int
}

// PairError is a conversation tau2's Environment.set_state refuses, at
// one message (Call ≥ 0: at one of its calls; Field: at a member of it).
type PairError struct {
	Msg, Call int
	Field     string
	Message   string
}

// Path is where the error is, inside the run: "messages[6]",
// "messages[4].tool_calls[1]", "messages[7].id".
func (e *PairError) Path() string {
	p := fmt.Sprintf("messages[%d]", e.Msg)
	if e.Call >= 0 {
		p += fmt.Sprintf(".tool_calls[%d]", e.Call)
	}
	if e.Field != "" {
		p += "." + e.Field
	}
	return p
}

func (e *PairError) Error() string { return e.Path() + ": " + e.Message }

// Pair pairs a run's tool calls with their results as tau2 does
// (set_state's get_actions_from_messages): reading the messages in
// order, the calls of an assistant or user message whose tool_calls is
// not null are answered, one by one and in order, by the tool messages
// right after it, and a call's id must equal its tool message's. Ids are
// checked pair by pair and nothing else: a file may reuse an id across
// turns, or leave every id "", and tau2 replays it by position, so a
// result is never looked up by its id. A tool message anywhere else
// answers no call. The exchanges come in call order; a conversation tau2
// refuses is a *PairError at the message (or call) where it goes wrong.
func Pair(msgs []Message) ([]Exchange, error) {
	var out []Exchange
	for j := 0; j < len(msgs); j++ {
		m := &msgs[j]
		if m.Role == "tool" {
			return nil, &PairError{Msg: j, Call: -1, Message: "answers no call: " + unexpected(msgs, j)}
		}
		for k, tc := range m.ToolCalls {
			r := j + 1 + k
			if r >= len(msgs) || msgs[r].Role != "tool" {
				got := "the conversation ends there"
				if r < len(msgs) {
					got = fmt.Sprintf("it is the %s's message", msgs[r].Role)
				}
				return nil, &PairError{Msg: j, Call: k, Message: fmt.Sprintf("call %q (%s) has no tool message: tau2 expects it at messages[%d] (the calls of a message are answered in order by the tool messages right after it), and %s",
					tc.ID, tc.Name, r, got)}
			}
			if msgs[r].ID != tc.ID {
				return nil, &PairError{Msg: r, Call: -1, Field: "id", Message: fmt.Sprintf("tool message %q answers call %q (%s, messages[%d].tool_calls[%d]): tau2 pairs a call with the tool message that follows it, and their ids must agree",
					msgs[r].ID, tc.ID, tc.Name, j, k)}
			}
			out = append(out, Exchange{Msg: j, Call: k, Result: r})
		}
		j += len(m.ToolCalls)
	}
	return out, nil
}

// unexpected says why the tool message msgs[j] answers no call.
func unexpected(msgs []Message, j int) string {
	if j == 0 {
		return "it opens the conversation, and a tool message follows the message holding its call"
	}
	i := j - 1
	for i > 0 && msgs[i].Role == "tool" {
		i--
	}
	switch n := len(msgs[i].ToolCalls); n {
	case 0:
		return fmt.Sprintf("messages[%d], the %s's, calls no tool, and a tool message follows the message holding its call", i, msgs[i].Role)
	case 1:
		return fmt.Sprintf("the one call of messages[%d] is answered by messages[%d]", i, i+1)
	default:
		return fmt.Sprintf("the %d calls of messages[%d] are answered by messages[%d] to [%d]", n, i, i+1, i+n)
	}
}

// Recorded is each tool call's result string as the file records it, in
// call order, paired as tau2 pairs them (Pair); a conversation tau2
// refuses is an *Error at the run's message.
func Recorded(r *Results, sim *Simulation) ([]string, error) {
	ex, err := Pair(sim.Messages)
	if err != nil {
		var pe *PairError
		if errors.As(err, &pe) {
			return nil, &Error{File: r.File, Path: fmt.Sprintf("simulations[%d].%s", sim.Index, pe.Path()), SimID: sim.ID, Message: pe.Message}
		}
		return nil, err
	}
	out := make([]string, len(ex))
	for i, e := range ex {
		if c := sim.Messages[e.Result].Content; c != nil {
			out[i] = c.String()
		}
	}
	return out, nil
}
