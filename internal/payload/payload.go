// Package payload is the public reader of the closed serializer between
// the trusted parent and the evaluators (SPEC §4): the payload's types,
// its canonical encoding and the strict Decode evaluators read it with.
// The trusted half, builder.Build (package internal/payload/builder),
// turns the log of a trajectory replayed on the trusted task (hidden
// fields, Oracle goals) into the public payload, field by field, keeping
// only what the public task declares. This package imports only model,
// so an evaluator that reads payloads sees nothing else. Project derives
// the schema-free projection the IDJ judge reads.
//
// The payload, version 1, as canonical JSON (keys in this order, no
// insignificant white space, field objects with sorted keys):
//
//	{"payload_version": 1, "task": "PH-H05", "title": "…", "instruction": "…",
//	 "schema": [{"name": "ticket", "fields": [{"name": "status", "kind": "enum", "values": [...]}, …]}, …],
//	 "goals": [{"version": "v1", "predicates": [{"id": "g1", "text": "…", "expr": {…task file syntax…}}, …]}, …],
//	 "reference"?: {"changes": [{"type", "id", "field", "before", "after"}, …], "outputs": ["…", …],
//	                "basis"?: ["DB", …], "actions"?: [{"requestor", "tool", "args", "compare_args": […], "all_args": false}, …],
//	                "assertions"?: ["…", …]},
//	 "initial":  {"goal_version": "v1", "entities": [{"type", "id", "deleted"?, "fields": {…}}, …]},
//	 "events": [{"seq": 1, "t": 1, "step"?: 1, "actor": "agent", "op": "update", "type"?, "id"?,
//	             "tool"?: "cancel_reservation", "args"?: {…}, "goal"?: "v2", "ok": true, "reason"?: "…",
//	             "diff": [{"type"?, "id"?, "field": "status" | "@alive" | "@goal", "before", "after"}, …],
//	             "goal_version": "v1"}, …],
//	 "terminal": {"goal_version": "v1", "entities": […]},
//	 "provenance": [{"seq": 1, "actor": "agent"}, …],
//	 "transcript": [{"role": "assistant", "content": "…"}, …],
//	 "termination_reason"?: "max_steps"}
//
// A domain task's world is large (tau-bench's airline database holds
// 13,000 records), so its initial and terminal states hold only the
// scope of the trajectory: the entities the public predicates read and
// the entities any event changed. Every public state is still rebuilt
// exactly on that scope, which is all an evaluator's predicates see.
//
// Decode accepts exactly this encoding (parse.go) and nothing else. The
// initial state and the events' diffs rebuild every public state; the
// terminal state is the last of them, stated for evaluators that read only
// the end. The projection (projection_version 1) is the same record
// without "goals", the one field derived from the Oracle predicates.
package payload

import (
	"fmt"

	"github.com/parthack/parthack/model"
)

// Version is the payload format version builder.Build writes and Decode
// reads.
const Version = 1

// ProjectionVersion is the IDJ projection's format version.
const ProjectionVersion = 1

// Payload is the public record of one trajectory: everything an evaluator
// may see, and nothing else.
type Payload struct {
	Version     int          `json:"payload_version"`
	Task        string       `json:"task"`
	Title       string       `json:"title"`
	Instruction string       `json:"instruction"`
	Schema      []EntityType `json:"schema"`
	Goals       []Goal       `json:"goals"`
	Reference   *Reference   `json:"reference,omitempty"`
	Initial     State        `json:"initial"`
	Events      []Event      `json:"events"`
	Terminal    State        `json:"terminal"`
	Provenance  []Provenance `json:"provenance"`
	Transcript  []Turn       `json:"transcript"`
	// Termination is the benchmark's reason for ending the run itself
	// before its conversation ended (tau2's max_steps, too_many_errors),
	// part of the run's public record; left out for a run its
	// conversation ended, so that such a payload is byte for byte what it
	// was before the key existed.
	Termination string `json:"termination_reason,omitempty"`
}

// Reference is a benchmark's published reference outcome (a tau-bench
// task's gold net changes and required outputs), for the benchmark's own
// outcome check; absent for tasks without one. Derived from the gold run,
// it stays out of the schema-free projection.
type Reference struct {
	Changes []Cell   `json:"changes"`
	Outputs []string `json:"outputs"`
	// A tau2 task's criteria besides: its reward basis, its gold calls and
	// its NL assertions; each key left out when empty, so a payload
	// without them is byte for byte what it was before they existed.
	Basis      []string  `json:"basis,omitempty"`
	Actions    []RefCall `json:"actions,omitempty"`
	Assertions []string  `json:"assertions,omitempty"`
}

// RefCall is one gold call of a tau2 task: who calls, the tool, its
// arguments (a JSON object) and the arguments a matching call must equal:
// compare_args, or every argument the call passes when all_args (tau2's
// compare_args null).
type RefCall struct {
	Requestor   string      `json:"requestor"`
	Tool        string      `json:"tool"`
	Args        model.Value `json:"args"`
	CompareArgs []string    `json:"compare_args"`
	AllArgs     bool        `json:"all_args"`
}

// EntityType is one public entity type and its public fields.
type EntityType struct {
	Name   string     `json:"name"`
	Fields []FieldDef `json:"fields"`
}

// FieldDef declares one public field.
type FieldDef struct {
	Name   string          `json:"name"`
	Kind   model.FieldKind `json:"kind"`
	Values []string        `json:"values,omitempty"` // enum members
	Target string          `json:"target,omitempty"` // referenced type
}

// Goal is one goal version of the public goal schema.
type Goal struct {
	Version    string      `json:"version"`
	Predicates []Predicate `json:"predicates"`
}

// Predicate is one public predicate: one per Oracle predicate, same id and
// position.
type Predicate struct {
	ID   string `json:"id"`
	Text string `json:"text"`
	Expr Expr   `json:"expr"`
}

// State is a redacted snapshot: the active goal version and the public
// entities in creation order.
type State struct {
	GoalVersion string   `json:"goal_version"`
	Entities    []Entity `json:"entities"`
}

// Entity is one public entity: its public fields that are set.
type Entity struct {
	Type    string `json:"type"`
	ID      string `json:"id"`
	Deleted bool   `json:"deleted,omitempty"`
	Fields  Fields `json:"fields"`
}

// Event is one event of the public log. Type, ID and Args are left out
// when the action names anything the public task does not declare.
type Event struct {
	Seq         int         `json:"seq"`
	T           int         `json:"t"`
	Step        int         `json:"step,omitempty"` // 1-based agent step; 0 for a scripted event
	Actor       model.Actor `json:"actor"`
	Op          model.Op    `json:"op"`
	Type        string      `json:"type,omitempty"`
	ID          string      `json:"id,omitempty"`
	Tool        string      `json:"tool,omitempty"` // a domain tool's name, for call
	Args        Fields      `json:"args,omitempty"`
	Goal        string      `json:"goal,omitempty"` // target of revise_goal
	OK          bool        `json:"ok"`
	Reason      string      `json:"reason,omitempty"`
	Diff        []Cell      `json:"diff"`
	GoalVersion string      `json:"goal_version"` // active after the event
}

// Cell is one changed public cell of an event: a field, the alive flag
// (model.AliveField) or the goal version (model.GoalField, no type or id).
type Cell struct {
	Type   string      `json:"type,omitempty"`
	ID     string      `json:"id,omitempty"`
	Field  string      `json:"field"`
	Before model.Value `json:"before"`
	After  model.Value `json:"after"`
}

// Provenance is the standardized provenance of one event: the actor class
// the wrapper assigned.
type Provenance struct {
	Seq   int         `json:"seq"`
	Actor model.Actor `json:"actor"`
}

// Turn is one message of the transcript, in the chat form LLM transcripts
// take: role ("system", "user", "assistant" or "tool") and content.
type Turn struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// roles are the roles a transcript turn may take: a trajectory's
// (model.Roles).
var roles = model.Roles()

// ops are the operations of the environment (model.Ops); a domain task's
// tool calls are model.OpCall besides.
var ops = model.Ops()

// Projection is the schema-free record the IDJ judge reads: the payload
// without its goal schema.
type Projection struct {
	Version     int          `json:"projection_version"`
	Task        string       `json:"task"`
	Title       string       `json:"title"`
	Instruction string       `json:"instruction"`
	Schema      []EntityType `json:"schema"`
	Initial     State        `json:"initial"`
	Events      []Event      `json:"events"`
	Terminal    State        `json:"terminal"`
	Provenance  []Provenance `json:"provenance"`
	Transcript  []Turn       `json:"transcript"`
}

// Project derives the IDJ projection. It is built field by field like the
// payload, so a field added to Payload stays out of the projection until
// someone decides it belongs there. The goal versions named by events
// stay: they record that a user revised the goal (provenance), not what
// any predicate says.
func Project(p *Payload) (*Projection, error) {
	if p == nil || p.Version != Version {
		return nil, fmt.Errorf("project: not a version %d payload", Version)
	}
	return &Projection{
		Version:     ProjectionVersion,
		Task:        p.Task,
		Title:       p.Title,
		Instruction: p.Instruction,
		Schema:      p.Schema,
		Initial:     p.Initial,
		Events:      p.Events,
		Terminal:    p.Terminal,
		Provenance:  p.Provenance,
		Transcript:  p.Transcript,
	}, nil
}
