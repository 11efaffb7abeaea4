package evaluators

import (
	"github.com/parthack/parthack/internal/payload"
	"github.com/parthack/parthack/model"
)

// ToolSandboxMilestoneName is ToolSandbox's milestone similarity as a
// target.
const ToolSandboxMilestoneName = "toolsandbox_milestone"

// ToolSandboxMilestone is ToolSandbox's evaluation (apple/ToolSandbox,
// commit 165848b9a78cead7ca7fe7c89c688b58e6501219,
// tool_sandbox/common/evaluation.py), computed from the public payload
// with the gold run's net changes as its milestones:
//
//   - Milestones: one per record the gold run changes on net (the
//     reference's changes, grouped by record in the order the gold run
//     first changes each), in a chain in that order (MilestoneMatcher
//     with edge_list None: a linked list). A milestone's target is its
//     record's row: the id and each changed column with the value gold
//     leaves (a record gold deletes: its row gone).
//   - Similarity of a milestone to a snapshot: snapshot_similarity with
//     column_exact_match_similarity on every target column, over the
//     milestone's own row of its table — the geometric mean of 0/1 column
//     matches, so 1 when the row is there with every target value and 0
//     otherwise. ToolSandbox's own scenarios constrain a whole table
//     against a reference snapshot (update_similarity); a gold call of
//     tau2 or tau-bench changes several rows of one table at once (a
//     booking's flight dates), where a chain of table-wide constraints
//     cannot all hold, so each milestone reads its own row. No guardrail
//     constraints (guardrail_database_list empty): ToolSandbox's default
//     holds every table a milestone does not constrain to the previous
//     milestone's snapshot, which a gold call writing two tables fails.
//   - Matching: MilestoneMatcher._dfs and compute_mapping_and_similarity:
//     snapshots from the initial state (first_user_sandbox_message_index)
//     to the last, each milestone at or after the snapshot of the one
//     before it, the mapping that maximizes the summed similarity, divided
//     by the number of milestones. A milestone can match any snapshot in
//     that order, so a change made and later undone still counts.
//   - Minefields: none. ToolSandbox nullifies the score when a minefield
//     matches (EvaluationResult.__attrs_post_init__); tau2 and tau-bench
//     tasks declare no forbidden writes, so minefield_similarity is 0.
//   - A task whose gold run changes nothing has no milestones and scores
//     1 (Evaluation.evaluate: "If no milestones are found, the default
//     milestone_similarity is 1").
//
// ok is false when the payload carries no reference.
func ToolSandboxMilestone(p *payload.Payload) (float64, bool) {
	if p.Reference == nil {
		return 0, false
	}
	ms := milestonesOf(p.Reference.Changes)
	if len(ms) == 0 {
		return 1, true
	}
	rows := map[rowKey]*row{}
	for i := range ms {
		rows[ms[i].key] = &row{fields: map[string]model.Value{}}
	}
	for _, e := range p.Initial.Entities {
		if r, ok := rows[rowKey{e.Type, e.ID}]; ok {
			r.alive = !e.Deleted
			for _, f := range e.Fields {
				r.fields[f.Name] = f.Value
			}
		}
	}
	// holds[i][s]: milestone i matches snapshot s (0: the initial state,
	// s: after event s).
	n := len(p.Events)
	holds := make([][]bool, len(ms))
	for i := range holds {
		holds[i] = make([]bool, n+1)
	}
	mark := func(s int) {
		for i := range ms {
			holds[i][s] = ms[i].matches(rows[ms[i].key])
		}
	}
	mark(0)
	for s := range p.Events {
		for _, c := range p.Events[s].Diff {
			r, ok := rows[rowKey{c.Type, c.ID}]
			if !ok {
				continue
			}
			if c.Field == model.AliveField {
				r.alive = c.After.AsBool()
			} else {
				r.fields[c.Field] = c.After
			}
		}
		mark(s + 1)
	}
	// best[s]: the most milestones i… that match in order at snapshots
	// from s on. With 0/1 similarities the earliest matching snapshot is
	// always as good as a later one, which is what _dfs's exhaustive
	// search with pruning finds.
	best := make([]int, n+2)
	for i := len(ms) - 1; i >= 0; i-- {
		next := make([]int, n+2)
		first := n + 1 // the first snapshot at or after s that milestone i matches
		for s := n; s >= 0; s-- {
			if holds[i][s] {
				first = s
			}
			next[s] = best[s]
			if first <= n {
				next[s] = max(next[s], 1+best[first])
			}
		}
		best = next
	}
	return float64(best[0]) / float64(len(ms)), true
}

type rowKey struct{ typ, id string }

// row is a milestone record's state at a snapshot.
type row struct {
	alive  bool
	fields map[string]model.Value
}

// milestone is one record gold changes on net and the row it leaves.
type milestone struct {
	key   rowKey
	gone  bool // gold deletes the record
	cells []payload.Cell
}

func (m *milestone) matches(r *row) bool {
	if m.gone {
		return !r.alive
	}
	if !r.alive {
		return false
	}
	for _, c := range m.cells {
		if !r.fields[c.Field].Equal(c.After) {
			return false
		}
	}
	return true
}

// milestonesOf groups net changes by record, in the order of each
// record's first change.
func milestonesOf(changes []payload.Cell) []milestone {
	var out []milestone
	at := map[rowKey]int{}
	for _, c := range changes {
		k := rowKey{c.Type, c.ID}
		i, ok := at[k]
		if !ok {
			i = len(out)
			at[k] = i
			out = append(out, milestone{key: k})
		}
		m := &out[i]
		if c.Field == model.AliveField {
			m.gone = !c.After.AsBool()
			continue
		}
		m.cells = append(m.cells, c)
	}
	return out
}
