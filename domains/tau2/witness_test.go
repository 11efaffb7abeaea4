package tau2

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/parthack/parthack/model"
)

// stepsOf is a run's calls as steps, the user's as the user's.
func stepsOf(t *testing.T, sim *Simulation) []model.Step {
	var steps []model.Step
	for _, m := range sim.Messages {
		for _, tc := range m.ToolCalls {
			v, err := model.FromJSON(tc.Arguments)
			if err != nil {
				t.Fatal(err)
			}
			st := model.Step{Index: len(steps), Action: model.Action{Op: model.OpCall, Tool: tc.Name, Args: v}}
			if tc.Requestor == "user" {
				st.Actor = model.ActorUser
			}
			steps = append(steps, st)
		}
	}
	return steps
}

// TestWitnessOfHIsH: every shipped run, as its own witness, is recorded
// with exactly its messages.
func TestWitnessOfHIsH(t *testing.T) {
	runs := 0
	for _, name := range RunFiles("") {
		src, err := RunFile(name)
		if err != nil {
			t.Fatal(err)
		}
		res, err := Decode(name, src)
		if err != nil {
			t.Fatal(err)
		}
		for _, sim := range res.Simulations {
			got, err := witnessMessages(sim, &model.Trajectory{Steps: stepsOf(t, sim)}, func(int) Message {
				t.Fatalf("%s %s: H's own call taken for an inserted one", name, sim.ID)
				return Message{}
			})
			if err != nil {
				t.Fatalf("%s %s: %v", name, sim.ID, err)
			}
			if !reflect.DeepEqual(got, sim.Messages) {
				t.Fatalf("%s %s: the record's messages differ from the run's", name, sim.ID)
			}
			runs++
		}
	}
	if runs != 474 {
		t.Fatalf("%d runs, want the 474 shipped", runs)
	}
}

const witnessRun = `[
 {"role": "assistant", "content": "Hi! How can I help you today?"},
 {"role": "user", "content": "Cancel my order"},
 {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "name": "read", "arguments": {"k": 1}, "requestor": "assistant"}, {"id": "c2", "name": "read", "arguments": {"k": 2}, "requestor": "assistant"}]},
 {"role": "tool", "id": "c1", "content": "one", "requestor": "assistant"},
 {"role": "tool", "id": "c2", "content": "two", "requestor": "assistant"},
 {"role": "assistant", "content": "Shall I?"},
 {"role": "user", "content": "Yes", "tool_calls": [{"id": "u1", "name": "toggle", "arguments": {}, "requestor": "user"}]},
 {"role": "tool", "id": "u1", "content": "on", "requestor": "user"},
 {"role": "user", "content": "Done"},
 {"role": "assistant", "content": null, "tool_calls": [{"id": "c3", "name": "cancel", "arguments": {"k": 1}, "requestor": "assistant"}]},
 {"role": "tool", "id": "c3", "content": "cancelled", "requestor": "assistant"},
 {"role": "assistant", "content": "Cancelled."},
 {"role": "user", "content": "###STOP###"}
]`

// TestWitnessPlacesCalls: an inserted call goes at the agent's first turn
// after the kept call before it; none goes inside one message's calls,
// before the user hands the turn back, or after the run's last turn; a
// skipped call leaves with its result.
func TestWitnessPlacesCalls(t *testing.T) {
	var raw []json.RawMessage
	if err := json.Unmarshal([]byte(witnessRun), &raw); err != nil {
		t.Fatal(err)
	}
	d := &decoder{file: "w.json"}
	sim := &Simulation{ID: "s"}
	for i, r := range raw {
		m, err := d.message("m", r)
		if err != nil {
			t.Fatal(i, err)
		}
		sim.Messages = append(sim.Messages, m)
	}
	h := stepsOf(t, sim) // read 1, read 2, toggle (user), cancel
	ins := model.Step{Action: model.Action{Op: model.OpCall, Tool: "cancel", Args: model.MustJSON(`{"k": 2}`)}}
	seq := func(steps ...model.Step) *model.Trajectory { return &model.Trajectory{Steps: steps} }
	output := func(int) Message {
		s := model.TextOf("Error: no such order")
		return Message{Role: "tool", Content: &s, Error: true}
	}
	shape := func(msgs []Message) string {
		var b strings.Builder
		for _, m := range msgs {
			switch {
			case m.Role == "tool":
				b.WriteString("=" + m.Content.String() + " ")
			case len(m.ToolCalls) > 0:
				b.WriteString(m.Role[:1] + "[")
				for _, c := range m.ToolCalls {
					var args bytes.Buffer
					json.Compact(&args, c.Arguments)
					b.WriteString(c.Name + args.String())
				}
				b.WriteString("] ")
			default:
				b.WriteString(m.Role[:1] + " ")
			}
		}
		return strings.TrimSpace(b.String())
	}
	for _, c := range []struct {
		name string
		a    *model.Trajectory
		want string // the messages' shape, or the error
	}{
		{"after the agent's two reads", seq(h[0], h[1], ins, h[2], h[3]),
			`a u a[read{"k":1}read{"k":2}] =one =two a[cancel{"k":2}] =Error: no such order a u[toggle{}] =on u a[cancel{"k":1}] =cancelled a u`},
		{"after the user's call, at the agent's next turn", seq(h[0], h[1], h[2], ins, h[3]),
			`a u a[read{"k":1}read{"k":2}] =one =two a u[toggle{}] =on u a[cancel{"k":2}] =Error: no such order a[cancel{"k":1}] =cancelled a u`},
		{"first, after the user's first words", seq(ins, h[0], h[1], h[2], h[3]),
			`a u a[cancel{"k":2}] =Error: no such order a[read{"k":1}read{"k":2}] =one =two a u[toggle{}] =on u a[cancel{"k":1}] =cancelled a u`},
		{"last, before the user's stop", seq(h[0], h[1], h[2], h[3], ins),
			`a u a[read{"k":1}read{"k":2}] =one =two a u[toggle{}] =on u a[cancel{"k":1}] =cancelled a[cancel{"k":2}] =Error: no such order a u`},
		{"a read skipped", seq(h[1], h[2], h[3]),
			`a u a[read{"k":2}] =two a u[toggle{}] =on u a[cancel{"k":1}] =cancelled a u`},
		{"inside one message's calls", seq(h[0], ins, h[1], h[2], h[3]), "error: call 2 (cancel) is inserted between the calls of messages[2]"},
		{"the user's call dropped", seq(h[0], h[1], h[3]), "error: H's call 3 (toggle) is the user's"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := witnessMessages(sim, c.a, output)
			s := ""
			if err != nil {
				s = "error: " + err.Error()
			} else {
				s = shape(got)
			}
			if !strings.HasPrefix(s, c.want) {
				t.Fatalf("got\n%s\nwant\n%s", s, c.want)
			}
		})
	}
}
