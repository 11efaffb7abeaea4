package domains

import "github.com/parthack/parthack/evaluators"

// FieldRewards are the field's partial-credit evaluators (evaluators.Field)
// as a domain's rewards: every real domain lists them after its
// benchmark's own, so that each is a target of attack, bench and the
// workbench and a row of every table.
func FieldRewards() []Reward {
	var out []Reward
	for _, f := range evaluators.Field() {
		out = append(out, Reward{Name: f.Name, Label: f.Label, Score: f.Score})
	}
	return out
}
