package tauair

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/parthack/parthack/model"
)

// Call is one tool call of a recorded run, with what tau-bench's own tools
// did: the output they returned and the JSON Patch they made.
type Call struct {
	Name   string          `json:"name"`
	Kwargs json.RawMessage `json:"kwargs"`
	Output string          `json:"output"`
	Patch  []PatchOp       `json:"patch"`
	Turn   int             `json:"turn"` // index of the assistant message that made the call
}

// PatchOp is one RFC 6902 operation, with the value it replaced or removed.
type PatchOp struct {
	Op    string          `json:"op"`
	Path  string          `json:"path"`
	Value json.RawMessage `json:"value,omitempty"`
	Old   json.RawMessage `json:"old,omitempty"`
}

// Gold is one of tau-bench's 50 airline test tasks and its gold run.
type Gold struct {
	TaskID      int      `json:"task_id"`
	UserID      string   `json:"user_id"`
	Instruction string   `json:"instruction"`
	Outputs     []string `json:"outputs"`
	Steps       []Call   `json:"steps"`
	DataHash    string   `json:"data_hash"`
}

// Message is one message of a run's conversation, as tau-bench keeps it.
type Message struct {
	Role       string      `json:"role"`
	Content    *model.Text `json:"content"`
	ToolCalls  []ToolCall  `json:"tool_calls,omitempty"`
	Name       string      `json:"name,omitempty"`
	ToolCallID string      `json:"tool_call_id,omitempty"`
	// Line and Col place the message in the file it was imported from,
	// for errors; 0 for the corpus' runs.
	Line, Col int `json:"-"`
}

// ToolCall is an assistant message's call, OpenAI-style.
type ToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
	// Line and Col place the call in the file it was imported from, for
	// errors; 0 for the corpus' runs.
	Line, Col int `json:"-"`
}

// Run is one recorded agent run: the task, the trial, tau-bench's reward,
// every tool call and the conversation.
type Run struct {
	TaskID   int       `json:"task_id"`
	Trial    int       `json:"trial"`
	Reward   float64   `json:"reward"`
	Steps    []Call    `json:"steps"`
	DataHash string    `json:"data_hash"`
	Messages []Message `json:"messages"`
	// GTDataHash is the gold hash tau-bench stored with the run; its tasks
	// were revised since, so it no longer matches today's gold.
	GTDataHash string `json:"gt_data_hash"`
}

// Name is the run's name in the store and on screen: "gpt-4o t07 #2".
func (r *Run) Name() string { return fmt.Sprintf("gpt-4o-t%02d-trial%d", r.TaskID, r.Trial) }

// GoldRuns reads the 50 gold runs.
func GoldRuns() ([]Gold, error) { return readLines[Gold]("gold.jsonl.gz") }

var runsOnce = sync.OnceValues(func() ([]Run, error) { return readLines[Run]("gpt-4o-runs.jsonl.gz") })

// AgentRuns reads the 200 GPT-4o runs once; callers must not change them.
func AgentRuns() ([]Run, error) { return runsOnce() }

func readLines[T any](name string) ([]T, error) {
	b, err := readGzip(name)
	if err != nil {
		return nil, err
	}
	var out []T
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 16<<20)
	for line := 1; sc.Scan(); line++ {
		var x T
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&x); err != nil {
			return nil, fmt.Errorf("corpus/%s:%d: %w", name, line, err)
		}
		out = append(out, x)
	}
	return out, sc.Err()
}

// Calls are the run's tool calls with their arguments as the agent wrote
// them in the conversation. The corpus' own kwargs are not used:
// the corpus script recorded them by reference, and tau-bench's
// book_reservation keeps that very list as the reservation's payment
// history, so a later cancel_reservation's refunds show up in them.
func (r *Run) Calls() ([]Call, error) {
	var args []ToolCall
	var turns []int
	for turn, m := range r.Messages {
		for _, tc := range m.ToolCalls {
			args = append(args, tc)
			turns = append(turns, turn)
		}
	}
	if len(args) != len(r.Steps) {
		return nil, fmt.Errorf("%s: %d tool calls in the conversation, %d steps", r.Name(), len(args), len(r.Steps))
	}
	out := make([]Call, len(r.Steps))
	for i, st := range r.Steps {
		if args[i].Function.Name != st.Name || turns[i] != st.Turn {
			return nil, fmt.Errorf("%s: step %d is %s at turn %d, the conversation has %s at turn %d", r.Name(), i+1, st.Name, st.Turn, args[i].Function.Name, turns[i])
		}
		st.Kwargs = json.RawMessage(args[i].Function.Arguments)
		out[i] = st
	}
	return out, nil
}
