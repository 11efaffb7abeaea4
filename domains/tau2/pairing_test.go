package tau2

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// conversation is a Results file with one run whose messages are given,
// one a line from line 4, each at column 3.
func conversation(msgs ...string) string {
	return `{"info": {"git_commit": "abc"}, "tasks": [{"id": "1", "evaluation_criteria": {"actions": [], "reward_basis": ["DB"]}}],
 "simulations": [{"id": "s1", "task_id": "1", "termination_reason": "user_stop",
 "messages": [
  ` + strings.Join(msgs, ",\n  ") + `]}]}`
}

func call(id, name string) string {
	return `{"id": "` + id + `", "name": "` + name + `", "arguments": {}}`
}

func calls(role, content string, cs ...string) string {
	return `{"role": "` + role + `", "content": ` + content + `, "tool_calls": [` + strings.Join(cs, ", ") + `]}`
}

func result(id, content string) string {
	return `{"role": "tool", "id": "` + id + `", "content": "` + content + `"}`
}

func say(role, content string) string {
	return `{"role": "` + role + `", "content": "` + content + `"}`
}

// TestPairing: a run's calls get their results by position, as tau2's
// set_state pairs them, whatever their ids (reused across turns, all
// ""); the old decoder looked results up by id, so a reused id gave
// each call the last result under it.
func TestPairing(t *testing.T) {
	for _, c := range []struct {
		name string
		msgs []string
		want []string
	}{
		{"distinct ids", []string{calls("assistant", "null", call("a", "x"), call("b", "y")), result("a", "1"), result("b", "2")}, []string{"1", "2"}},
		{"one id reused across turns", []string{calls("assistant", "null", call("gem_x_0", "x")), result("gem_x_0", "1"), say("user", "again"),
			calls("assistant", "null", call("gem_x_0", "x")), result("gem_x_0", "2")}, []string{"1", "2"}},
		{"every id empty", []string{calls("assistant", "null", call("", "x"), call("", "x")), result("", "1"), result("", "2"),
			calls("user", `"and mine"`, call("", "y")), result("", "3")}, []string{"1", "2", "3"}},
		{"one id for two calls of one message", []string{calls("assistant", `"two at once"`, call("c", "x"), call("c", "x")), result("c", "1"), result("c", "2")}, []string{"1", "2"}},
		{"an empty tool_calls list", []string{calls("assistant", `"nothing to call"`), say("user", "bye")}, []string{}},
	} {
		r, err := Decode("f.json", []byte(conversation(c.msgs...)))
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		got, err := Recorded(r, r.Simulations[0])
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("%s: results %q (%v), want %q", c.name, got, err, c.want)
		}
	}
}

// TestStructureRefused: a conversation tau2's set_state refuses is
// refused at the line, column and JSON path of the message (or call)
// where it goes wrong; the old decoder accepted all but the last case
// (every call answered by some tool message somewhere).
func TestStructureRefused(t *testing.T) {
	for _, c := range []struct {
		name string
		msgs []string
		want string
	}{
		{"a result before its call", []string{result("a", "1"), calls("assistant", "null", call("a", "x"))},
			`f.json:4:3: simulations[0].messages[0] (simulation s1): answers no call: it opens the conversation`},
		{"a reversed conversation", []string{say("user", "###STOP###"), result("a", "1"), calls("assistant", "null", call("a", "x")), say("user", "hi")},
			`f.json:5:3: simulations[0].messages[1] (simulation s1): answers no call: messages[0], the user's, calls no tool`},
		{"a tool message that answers no call", []string{calls("assistant", "null", call("a", "x")), result("a", "1"), result("a", "1")},
			`f.json:6:3: simulations[0].messages[2] (simulation s1): answers no call: the one call of messages[0] is answered by messages[1]`},
		{"more results than calls", []string{calls("assistant", `"both"`, call("a", "x"), call("b", "y")), result("a", "1"), result("b", "2"), result("b", "2")},
			`f.json:7:3: simulations[0].messages[3] (simulation s1): answers no call: the 2 calls of messages[0] are answered by messages[1] to [2]`},
		{"after an empty tool_calls list", []string{calls("assistant", `"hm"`), result("a", "1")},
			`f.json:5:3: simulations[0].messages[1] (simulation s1): answers no call: messages[0], the assistant's, calls no tool`},
		{"a call left without its result", []string{calls("assistant", "null", call("a", "x"), call("b", "y")), result("a", "1"), say("user", "well?")},
			`f.json:4:100: simulations[0].messages[0].tool_calls[1] (simulation s1): call "b" (y) has no tool message: tau2 expects it at messages[2] (the calls of a message are answered in order by the tool messages right after it), and it is the user's message`},
		{"a last call without its result", []string{say("user", "hi"), calls("assistant", "null", call("a", "x"))},
			`f.json:5:57: simulations[0].messages[1].tool_calls[0] (simulation s1): call "a" (x) has no tool message: tau2 expects it at messages[2] (the calls of a message are answered in order by the tool messages right after it), and the conversation ends there`},
		{"an id mismatch", []string{calls("assistant", "null", call("a", "x")), result("b", "1")},
			`f.json:5:26: simulations[0].messages[1].id (simulation s1): tool message "b" answers call "a" (x, messages[0].tool_calls[0]): tau2 pairs a call with the tool message that follows it, and their ids must agree`},
		{"results in another order than their calls", []string{calls("assistant", "null", call("a", "x"), call("b", "y")), result("b", "2"), result("a", "1")},
			`f.json:5:26: simulations[0].messages[1].id (simulation s1): tool message "b" answers call "a" (x, messages[0].tool_calls[0])`},
		{"a call answered nowhere", []string{calls("assistant", "null", call("a", "x")), say("user", "hi")},
			`f.json:4:57: simulations[0].messages[0].tool_calls[0] (simulation s1): call "a" (x) has no tool message`},
	} {
		_, err := Decode("f.json", []byte(conversation(c.msgs...)))
		var e *Error
		if err == nil || !errors.As(err, &e) || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one starting %q", c.name, err, c.want)
		}
		// A file streamed run by run is refused alike.
		err = StreamResults("f.json", strings.NewReader(conversation(c.msgs...)), func(*Results) error { return nil }, func(*Simulation) error { return nil })
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: streamed: error %v, want one starting %q", c.name, err, c.want)
		}
	}
}
