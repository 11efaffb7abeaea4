package all

import (
	"strings"
	"testing"

	"github.com/parthack/parthack/domains"
	"github.com/parthack/parthack/domains/tau2"
	"github.com/parthack/parthack/model"
)

// TestTau2Turns holds tau2's witness rule (tau2.Orchestrator), which
// reads a run's turns off its trajectory, to the messages of every
// shipped tau2 run: the agent has a turn between two calls exactly where
// one of them is its own or it sends a message between them (tau2's
// greeting aside), so never between the calls of one user message nor
// after a user's last call; the calls that fail in the port are the ones
// tau2 counted toward max_errors (its error flag, or an "Error:" result
// in files that predate the flag); and the runs tau2 ended itself say so.
func TestTau2Turns(t *testing.T) {
	for _, c := range []struct {
		domain, files     string
		closed, premature int
	}{{"tau2-airline", "airline", 1, 6}, {"tau2-retail", "retail", 0, 0}, {"tau2-telecom", "telecom", 247, 0}} {
		d, err := domains.Lookup(c.domain)
		if err != nil {
			t.Fatal(err)
		}
		runs, err := d.Runs()
		if err != nil {
			t.Fatal(err)
		}
		var sims []*tau2.Simulation
		var limits []int
		for _, name := range tau2.RunFiles(c.files) {
			src, err := tau2.RunFile(name)
			if err != nil {
				t.Fatal(err)
			}
			res, err := tau2.Decode(name, src)
			if err != nil {
				t.Fatal(err)
			}
			for range res.Simulations {
				limits = append(limits, res.Info.MaxErrors)
			}
			sims = append(sims, res.Simulations...)
		}
		if len(sims) != len(runs) {
			t.Fatalf("%s: %d simulations, %d runs", c.domain, len(sims), len(runs))
		}
		closed, premature, oneMessage := 0, 0, 0
		for i, r := range runs {
			tr, err := r.Trajectory()
			if err != nil {
				t.Fatal(err)
			}
			conv, ok := model.ConversationOf(r.Embedded.Model)
			if !ok {
				t.Fatalf("%s: the domain holds no conversation", c.domain)
			}
			turns := conv.Turns(tr)
			want, multi := turnsOf(sims[i])
			oneMessage += multi
			if len(turns) != len(want) {
				t.Fatalf("%s: %d places, want %d", r.Name, len(turns), len(want))
			}
			for k := range turns {
				if (turns[k] == "") != want[k] {
					t.Errorf("%s: place %d of %d: turn %q, want open %t", r.Name, k, len(tr.Steps), turns[k], want[k])
				}
				if turns[k] != "" {
					closed++
				}
			}
			if tr.Termination != "" {
				premature++
				if tr.Termination != sims[i].TerminationReason || !strings.HasPrefix(conv.Ended(tr.Termination), "ended by "+tr.Termination+": tau2 scores 0") {
					t.Errorf("%s: ended by %q, tau2 recorded %q: %s", r.Name, tr.Termination, sims[i].TerminationReason, conv.Ended(tr.Termination))
				}
			}
			if conv.MaxErrors(tr) != limits[i] {
				t.Errorf("%s: max_errors %d, the file's %d", r.Name, conv.MaxErrors(tr), limits[i])
			}
			env, err := r.Embedded.Env()
			if err != nil {
				t.Fatal(err)
			}
			failed := 0
			for _, o := range env.Replay(tr.Steps).Outcomes() {
				if !o.OK {
					failed++
				}
			}
			if e := errorsOf(sims[i]); failed != e {
				t.Errorf("%s: %d calls fail in the port, tau2 counted %d errors", r.Name, failed, e)
			}
		}
		if closed != c.closed || premature != c.premature {
			t.Errorf("%s: %d places without a turn of the agent's, %d runs tau2 ended itself; want %d, %d", c.domain, closed, premature, c.closed, c.premature)
		}
		if c.domain == "tau2-telecom" && oneMessage == 0 {
			t.Error("telecom: no user message holds two calls: the test holds nothing")
		}
	}
}

// turnsOf is, from a run's messages, whether the agent has a turn at
// each place among its calls, and how many places lie between two calls
// of one user message.
func turnsOf(sim *tau2.Simulation) (open []bool, oneMessage int) {
	type at struct{ msg, call int }
	var calls []at
	for j, m := range sim.Messages {
		for k := range m.ToolCalls {
			calls = append(calls, at{j, k})
		}
	}
	agent := func(i int) bool { return sim.Messages[calls[i].msg].Role == "assistant" }
	spoke := func(from, to int) bool { // an assistant message strictly between, the greeting aside
		for j := max(from+1, 1); j < to; j++ {
			if sim.Messages[j].Role == "assistant" {
				return true
			}
		}
		return false
	}
	n := len(calls)
	for k := 0; k <= n; k++ {
		from, to := -1, len(sim.Messages)
		if k > 0 {
			from = calls[k-1].msg
		}
		if k < n {
			to = calls[k].msg
		}
		if k > 0 && k < n && from == to && !agent(k) {
			oneMessage++
		}
		open = append(open, k < n && agent(k) || k > 0 && agent(k-1) || spoke(from, to))
	}
	return open, oneMessage
}

// errorsOf counts the calls tau2 counted toward max_errors.
func errorsOf(sim *tau2.Simulation) int {
	n := 0
	for _, m := range sim.Messages {
		if m.Role == "tool" && (m.Error || m.Content != nil && strings.HasPrefix(m.Content.String(), "Error:")) {
			n++
		}
	}
	return n
}
