package independent

import (
	"fmt"
	"slices"

	"github.com/parthack/parthack/model"
)

// agentOps are the primitive ops an agent may be allowed, by position.
var agentOps = [...]model.Op{model.OpCreate, model.OpUpdate, model.OpDelete, model.OpRestore}

func opIndex(op model.Op) int {
	for i, o := range agentOps {
		if o == op {
			return i
		}
	}
	return -1
}

// rules is a task's allowlist resolved against its schema once, so that
// judging a step costs a few table reads.
type rules struct {
	task  *model.Task
	sc    *schema
	ops   [len(agentOps)]bool // allowlisted on some type
	types []typeRules         // by schema position
}

// typeRules is what the agent may do to entities of one type.
type typeRules struct {
	listed bool
	ops    [len(agentOps)]bool // in the per-type form, the type's ops; else all true
	fields []bool              // by schema position: writable
}

func newRules(task *model.Task, sc *schema) *rules {
	al := &task.Allowlist
	r := &rules{task: task, sc: sc, types: make([]typeRules, len(sc.types))}
	for i, op := range agentOps {
		r.ops[i] = al.AllowsOp(op)
	}
	for t, et := range sc.types {
		tr := &r.types[t]
		tr.listed = al.AllowsType(et.Name)
		for i, op := range agentOps {
			tr.ops[i] = al.TypeOps == nil || slices.Contains(al.TypeOps[et.Name], op)
		}
		tr.fields = make([]bool, len(et.Fields))
		for f, fd := range et.Fields {
			tr.fields[f] = al.AllowsField(et.Name, fd.Name)
		}
	}
	return r
}

// illegal says why a candidate step is outside the task's interface: a
// non-agent actor, an op that is not an agent op or not allowlisted, a
// type the agent may not touch or an op it may not use on that type (the
// per-type form), or a field it may not write. "" when the step is legal.
func (r *rules) illegal(st *model.Step) string {
	op := opIndex(st.Op)
	switch {
	case !r.mayAuthor(st.Actor):
		return fmt.Sprintf("actor %q: candidates hold agent steps only", st.Actor)
	case st.Op == model.OpReviseGoal:
		return "revise_goal is scripted, never taken by the agent"
	case st.Op == model.OpCall && r.task.Domain == nil:
		return fmt.Sprintf("call %s: the task has no tools", st.Tool)
	case st.Op == model.OpCall && st.Actor != "" && st.Actor != model.ActorAgent:
		return "" // another actor's tools are the domain's to refuse, as a failed call
	case st.Op == model.OpCall && !model.MayCall(r.task, st.Tool):
		return fmt.Sprintf("tool %q is not in the allowlist", st.Tool)
	case st.Op == model.OpCall:
		return ""
	case op < 0:
		return fmt.Sprintf("op %q does not exist", st.Op)
	case !r.ops[op]:
		return fmt.Sprintf("op %s is not in the allowlist", st.Op)
	}
	t := r.sc.typeOf(st.Type)
	if t < 0 || !r.types[t].listed {
		return fmt.Sprintf("type %q is not in the allowlist", st.Type)
	}
	if !r.types[t].ops[op] {
		return fmt.Sprintf("op %s on type %q is not in the allowlist", st.Op, st.Type)
	}
	for _, a := range st.Fields {
		if f := r.sc.fieldOf(t, a.Field); f < 0 || !r.types[t].fields[f] {
			return fmt.Sprintf("field %s.%s is not in the allowlist", st.Type, a.Field)
		}
	}
	return ""
}

// mayAuthor reports whether a step of actor may stand in a trajectory:
// the agent's, or an actor the task's domain names among its authors.
func (r *rules) mayAuthor(actor model.Actor) bool {
	if actor == "" || actor == model.ActorAgent {
		return true
	}
	au, ok := r.task.Domain.(model.Authoring)
	return ok && slices.Contains(au.Authors(), actor)
}
