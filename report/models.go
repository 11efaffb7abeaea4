package report

import (
	"fmt"
	"slices"
	"sync"
)

// ModelRow is one agent model's results on a real benchmark: how many of
// its runs there are and failed, and each target's yield and mean
// Δhack over its failed runs (the target-specific rows).
type ModelRow struct {
	Model  string       `json:"model"`
	Runs   int          `json:"runs"`
	Failed int          `json:"failed"`
	Groups []ModelGroup `json:"targets"`
}

// ModelGroup is one target's results on one model's failed runs.
type ModelGroup struct {
	Target    string     `json:"target"`
	Label     string     `json:"label"`
	Successes int        `json:"successes"`
	Yield     Proportion `json:"end_to_end_yield"`
	MeanDelta *Estimate  `json:"mean_delta"`
	// EndCounts are where the model's attacks over .10 end (Group's).
	*EndCounts
}

// ByModel splits a ledger of failed runs by the model that made each run
// (model maps a row's task, the run, to its model) and computes each
// model's target-specific results; runs counts every run of a model,
// failed or not. Models come in name order.
func ByModel(l *Ledger, model map[string]string, runs map[string]int) []ModelRow {
	var names []string
	for _, m := range model {
		if !slices.Contains(names, m) {
			names = append(names, m)
		}
	}
	for m := range runs {
		if !slices.Contains(names, m) {
			names = append(names, m)
		}
	}
	slices.Sort(names)
	if len(names) == 0 {
		return nil
	}
	// Each model's groups are computed side by side, and kept in order.
	out := make([]ModelRow, len(names))
	var wg sync.WaitGroup
	for i, m := range names {
		wg.Go(func() {
			sub := &Ledger{}
			failed := map[string]bool{}
			for _, r := range l.Rows {
				if model[r.Task] == m {
					sub.Rows = append(sub.Rows, r)
					failed[r.Task] = true
				}
			}
			row := ModelRow{Model: m, Runs: runs[m], Failed: len(failed)}
			for _, g := range compute(sub, SetTargeted).Groups {
				row.Groups = append(row.Groups, ModelGroup{Target: g.Target, Label: g.Label, Successes: g.Successes, Yield: g.Yield, MeanDelta: g.MeanDelta, EndCounts: g.EndCounts})
			}
			out[i] = row
		})
	}
	wg.Wait()
	return out
}

// modelTable is the per-model table: a row per model, for each target its
// end-to-end yield and mean Δhack over the model's failed runs.
func (rep *Report) modelTable() Table {
	t := Table{ID: "models", Title: "Results by agent model",
		Note: "Failed: the model's failed runs of tasks with a goal. Each target's end-to-end yield (those inflated by more than .10) and mean Δhack over the matched ones.",
		TeX:  `Results by agent model. Failed: the model's failed runs of tasks with a goal. Each target's end-to-end yield (those inflated by more than .10) and mean $\Delta_{\mathrm{hack}}$ over the matched ones.`}
	if len(rep.Models) == 0 {
		return t
	}
	t.Columns = []Column{{"Model", "Model", false}, {"Runs", "Runs", true}, {"Failed", "Failed", true}}
	var targets []ModelGroup
	for _, m := range rep.Models {
		for _, g := range m.Groups {
			if !slices.ContainsFunc(targets, func(x ModelGroup) bool { return x.Target == g.Target }) {
				targets = append(targets, g)
			}
		}
	}
	for _, g := range targets {
		t.Columns = append(t.Columns, Column{g.Label, texEscape(g.Label), true})
	}
	for _, m := range rep.Models {
		row := []string{m.Model, fmt.Sprint(m.Runs), fmt.Sprint(m.Failed)}
		for _, g := range targets {
			cell := "—"
			if i := slices.IndexFunc(m.Groups, func(x ModelGroup) bool { return x.Target == g.Target }); i >= 0 {
				mg := m.Groups[i]
				cell = fmt.Sprintf("%d/%d", mg.Yield.K, mg.Yield.N)
				if mg.MeanDelta != nil {
					cell += " " + num(mg.MeanDelta.Value)
				}
			}
			row = append(row, cell)
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}
