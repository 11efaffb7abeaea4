package tau2

import "github.com/parthack/parthack/model"

// World is one tau2 domain ported to parthack: its tools over typed
// entities (a model.Domain) and what tau2's evaluator needs besides.
type World interface {
	model.Domain
	// Base is the domain's world as a task with no goal: the schema, the
	// initial database as its snapshot, every tool allowlisted, the
	// domain itself. Tasks derived from tau2's add goals to a copy.
	Base() *model.Task
	// Hash is tau2's DB hash of a state (get_db_hash). changed lists the
	// entities written since the initial snapshot; every other record's
	// text is the initial one.
	Hash(v model.StateView, changed []model.CellDiff) string
	// Tool reports whether a requestor (assistant or user) has the tool,
	// and whether it mutates state (tau2 replays only those).
	Tool(requestor, name string) (known, mutates bool)
	// Prefix starts the domain's parthack task ids: "T2R" for retail.
	Prefix() string
}

// TransferTool is tau2's hand-off to a human agent.
const TransferTool = "transfer_to_human_agents"

// EndsEpisode is tau2's episode rule as a rule on tools: no call ends a
// tau2 episode. tau2's orchestrator ends a run on a message (the user
// simulator's ###STOP###, ###TRANSFER### or ###OUT-OF-SCOPE###, the
// agent's ###STOP###), on max_steps or on too many errors; a
// transfer_to_human_agents call is an ordinary tool call answered
// "Transfer successful", after which the agent may call again before the
// user replies. The shipped runs do: airline-gpt-oss-120b has 468 calls
// after a transfer in 22 runs, and in airline-gpt-4.1 a user refuses
// the transfer and the conversation goes on.
func EndsEpisode(tool string) bool { return false }
