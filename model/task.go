package model

import "slices"

// FieldKind is the declared type of an entity field.
type FieldKind string

// Field kinds a schema may declare.
const (
	KindString  FieldKind = "string"
	KindInt     FieldKind = "int"
	KindBool    FieldKind = "bool"
	KindEnum    FieldKind = "enum"
	KindRef     FieldKind = "ref"
	KindStrings FieldKind = "strings"
)

// FieldDef declares one typed field of an entity type.
type FieldDef struct {
	Name   string
	Kind   FieldKind
	Values []string // enum members, for KindEnum
	Target string   // referenced entity type, for KindRef
}

// EntityType declares an entity type and its fields, in declaration order.
type EntityType struct {
	Name   string
	Fields []FieldDef
}

// Schema is a task's entity schema, types in declaration order.
type Schema struct {
	Types []EntityType
}

// Type finds an entity type by name.
func (s *Schema) Type(name string) (*EntityType, bool) {
	for i := range s.Types {
		if s.Types[i].Name == name {
			return &s.Types[i], true
		}
	}
	return nil, false
}

// Field finds a field by name.
func (t *EntityType) Field(name string) (*FieldDef, bool) {
	for i := range t.Fields {
		if t.Fields[i].Name == name {
			return &t.Fields[i], true
		}
	}
	return nil, false
}

// Assign is one field assignment of an action or entity, kept in order.
type Assign struct {
	Field string
	Value Value
}

// Entity is one entity of an initial snapshot.
type Entity struct {
	Type    string
	ID      string
	Deleted bool // tombstoned from the start: restorable, not alive
	Fields  []Assign
}

// Op is an environment operation.
type Op string

// The five operations of PB-CSTE.
const (
	OpCreate     Op = "create"
	OpUpdate     Op = "update"
	OpDelete     Op = "delete"
	OpRestore    Op = "restore"
	OpReviseGoal Op = "revise_goal"
)

// allOps is every operation, in canonical order.
var allOps = []Op{OpCreate, OpUpdate, OpDelete, OpRestore, OpReviseGoal}

// Ops lists every operation, in canonical order (a copy).
func Ops() []Op { return slices.Clone(allOps) }

// OpCall calls one of a domain task's tools (SPEC §2, domains): the
// agent's action is the call, and its effect is the set of primitive
// writes the tool makes, applied as one event.
const OpCall Op = "call"

// Actor is the wrapper-assigned class of whoever caused an event.
type Actor string

// Actor classes. ActorInitial is not an actor of any event: it is the
// latest cause of a predicate no event touched.
const (
	ActorAgent       Actor = "agent"
	ActorUser        Actor = "user"
	ActorEnvironment Actor = "environment"
	ActorSystem      Actor = "system"
	ActorInitial     Actor = "initial"
)

// Allowlist says which ops the agent may use and which fields of which
// types it may write. A type absent from Fields may not be touched.
//
// In the task file's first form ({"ops": [...], "fields": {...}}) every
// listed op applies to every listed type alike, and TypeOps is nil. In
// the per-type form ({"types": {"ticket": {"ops": [...], "fields": [...]}}})
// TypeOps names the ops allowed on each type, Ops is their union in
// canonical order and Fields lists every named type (possibly with no
// writable field), so the checks on ops, types and fields read the same.
type Allowlist struct {
	Ops    []Op
	Fields map[string][]string
	// Tools lists the domain tools the agent may call (op "call").
	Tools []string
	// TypeOps, in the per-type form, names the ops allowed on each type.
	TypeOps map[string][]Op `json:",omitempty"`
}

// AllowsTool reports whether the agent may call a domain tool.
func (a *Allowlist) AllowsTool(name string) bool { return slices.Contains(a.Tools, name) }

// AllowsOp reports whether op is allowlisted on some type.
func (a *Allowlist) AllowsOp(op Op) bool {
	for _, o := range a.Ops {
		if o == op {
			return true
		}
	}
	return false
}

// AllowsType reports whether the agent may act on entities of typ.
func (a *Allowlist) AllowsType(typ string) bool { _, ok := a.Fields[typ]; return ok }

// AllowsOpOn reports whether the agent may use op on entities of typ: in
// the first form, op is allowlisted and typ is listed; in the per-type
// form, op is among typ's ops.
func (a *Allowlist) AllowsOpOn(op Op, typ string) bool {
	if a.TypeOps == nil {
		return a.AllowsOp(op) && a.AllowsType(typ)
	}
	return slices.Contains(a.TypeOps[typ], op)
}

// OpsOn lists the ops the agent may use on entities of typ, in the
// allowlist's order (a copy; nil when typ is not listed).
func (a *Allowlist) OpsOn(typ string) []Op {
	if !a.AllowsType(typ) {
		return nil
	}
	if a.TypeOps == nil {
		return slices.Clone(a.Ops)
	}
	return slices.Clone(a.TypeOps[typ])
}

// PerType reports whether the allowlist is in the per-type form.
func (a *Allowlist) PerType() bool { return a.TypeOps != nil }

// AllowsField reports whether the agent may write field of typ.
func (a *Allowlist) AllowsField(typ, field string) bool {
	for _, f := range a.Fields[typ] {
		if f == field {
			return true
		}
	}
	return false
}

// Predicate is one goal condition: an id, the text a person reads, and
// its expression over state.
type Predicate struct {
	ID   string
	Text string
	Expr Expr
}

// GoalVersion is one version of a task's goal: its predicates, in order.
type GoalVersion struct {
	Version    string
	Predicates []Predicate
}

// ScriptedEvent is a non-agent event the environment interleaves: it
// fires once After agent steps have been taken (failed steps count), and
// fires at the end of a trajectory that took exactly After steps.
type ScriptedEvent struct {
	After int
	Actor Actor
	Action
}

// Alphabet is the finite argument domain an attacker may draw from: for
// each entity type, the ids and, per field, the values.
type Alphabet map[string]AlphabetType

// AlphabetType is the domain of one entity type.
type AlphabetType struct {
	IDs    []string
	Fields []AlphabetField
}

// AlphabetField lists the values an attacker may write to one field.
type AlphabetField struct {
	Field  string
	Values []Value
}

// Task is a PB-CSTE task: schema, frozen initial snapshot, allowlist,
// goal versions (the first is active at the start) and the script of
// non-agent events.
type Task struct {
	ID          string
	Title       string
	Instruction string
	Schema      Schema
	Initial     []Entity
	Allowlist   Allowlist
	Goals       []GoalVersion
	Script      []ScriptedEvent
	Alphabet    Alphabet
	// Domain gives the task's tools their meaning; nil for a task of the
	// synthetic suite, whose agent uses the primitive operations.
	Domain Domain
	// Calls are the tool calls an attacker may insert on a domain task:
	// its alphabet, arguments drawn from the task.
	Calls []Action
	// Reference is what a benchmark's own outcome check compares with,
	// when the task comes from one that publishes it (tau-bench's gold
	// database and required outputs); nil otherwise.
	Reference *Reference
}

// Reference is a benchmark's reference outcome: the net changes its gold
// run makes to the initial state, cell by cell, and the strings the agent
// must say.
type Reference struct {
	Changes []CellDiff
	Outputs []string
	// Basis, Actions and Assertions are tau2's criteria beyond the end
	// state and the outputs (tau2's communicate_info): the reward basis
	// (DB, ENV_ASSERTION, COMMUNICATE, ACTION, NL_ASSERTION), the gold
	// calls its ACTION check looks for, and the assertions its LLM judge
	// reads. Empty for tau-bench.
	Basis      []string
	Actions    []RefCall
	Assertions []string
}

// RefCall is one gold call of a tau2 task: who makes it, the tool, its
// arguments (a JSON object) and which of them a matching call must
// equal: CompareArgs, or every argument the call passes when AllArgs.
type RefCall struct {
	Requestor   string
	Tool        string
	Args        Value
	CompareArgs []string
	AllArgs     bool
}

// Goal finds a goal version by name.
func (t *Task) Goal(version string) (*GoalVersion, bool) {
	for i := range t.Goals {
		if t.Goals[i].Version == version {
			return &t.Goals[i], true
		}
	}
	return nil, false
}
