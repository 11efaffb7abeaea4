package report

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Format is an output format of Render.
type Format string

// The output formats.
const (
	FormatTable    Format = "table"    // aligned plain-text tables for a terminal
	FormatMarkdown Format = "markdown" // pipe tables
	FormatLaTeX    Format = "latex"    // booktabs table environments, as in the paper
	FormatCSV      Format = "csv"      // one row of every metric per (set, target)
	FormatJSON     Format = "json"     // the Report, every metric at full precision
	FormatSVG      Format = "svg"      // the threshold figure
)

// formats lists the output formats.
var formats = []Format{FormatTable, FormatMarkdown, FormatLaTeX, FormatCSV, FormatJSON, FormatSVG}

// ParseFormat resolves a format name.
func ParseFormat(s string) (Format, error) {
	for _, f := range formats {
		if string(f) == s {
			return f, nil
		}
	}
	names := make([]string, len(formats))
	for i, f := range formats {
		names[i] = string(f)
	}
	return "", fmt.Errorf("unknown format %q (one of %s)", s, strings.Join(names, ", "))
}

// Render writes the report in format f. What the report left out (see
// Report.LeftOut) follows the tables, one line each: plain lines in a
// table, a list in Markdown, comments in LaTeX, the left_out field in
// JSON; the metrics CSV has empty cells where the values would be.
func Render(w io.Writer, rep *Report, f Format) error {
	lines := rep.leftOutLines()
	switch f {
	case FormatTable:
		if err := writeText(w, rep.Tables()); err != nil {
			return err
		}
		return writeLines(w, "\n", "", lines)
	case FormatMarkdown:
		if err := writeMarkdown(w, rep.Tables()); err != nil {
			return err
		}
		return writeLines(w, "\n", "- ", lines)
	case FormatLaTeX:
		if err := writeLaTeX(w, rep.Tables()); err != nil {
			return err
		}
		return writeLines(w, "\n", "% ", lines)
	case FormatCSV:
		return writeCSV(w, rep)
	case FormatJSON:
		b, err := json.MarshalIndent(rep, "", "  ")
		if err != nil {
			return err
		}
		_, err = w.Write(append(b, '\n'))
		return err
	case FormatSVG:
		_, err := io.WriteString(w, Figure(rep))
		return err
	}
	_, err := ParseFormat(string(f))
	return err
}

// writeLines writes lines, each after prefix, after a separator; nothing
// when there are none.
func writeLines(w io.Writer, sep, prefix string, lines []string) error {
	if len(lines) == 0 {
		return nil
	}
	var b strings.Builder
	b.WriteString(sep)
	for _, l := range lines {
		b.WriteString(prefix + l + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Table is one of the report's tables, ready for any text format.
type Table struct {
	ID      string // short name; the LaTeX label is tab:parthack-ID
	Title   string
	Note    string // sentences on denominators or reading; may be empty
	TeX     string // the LaTeX caption: Title and Note with math
	Columns []Column
	Rows    [][]string // plain-text cells; "—" marks an undefined value
}

// Column is a table column: its heading, plain and LaTeX, and whether
// its cells align right.
type Column struct {
	Head  string
	TeX   string
	Right bool
}

const dash = "—"

// num prints a value the way the paper does: three decimals, no leading
// zero (.252, -.050, 1.000).
func num(x float64) string {
	s := strconv.FormatFloat(x, 'f', 3, 64)
	switch {
	case s == "-0.000":
		return ".000"
	case strings.HasPrefix(s, "0."):
		return s[1:]
	case strings.HasPrefix(s, "-0."):
		return "-" + s[2:]
	}
	return s
}

// threshold prints a success threshold as the paper does: .10.
func threshold(t float64) string { return strings.TrimPrefix(strconv.FormatFloat(t, 'f', 2, 64), "0") }

func numOrDash(x *float64) string {
	if x == nil {
		return dash
	}
	return num(*x)
}

func frac(p Proportion) string { return fmt.Sprintf("%d/%d", p.K, p.N) }

// meanCI prints a mean with its interval: ".252 [.154, .351]".
func meanCI(e *Estimate) string {
	if e == nil {
		return dash
	}
	return fmt.Sprintf("%s [%s, %s]", num(e.Value), num(e.Lo), num(e.Hi))
}

// wilsonCell prints a proportion with its Wilson interval.
func wilsonCell(p Proportion) string {
	if p.Rate == nil {
		return dash
	}
	return fmt.Sprintf("%d/%d [%s, %s]", p.K, p.N, num(p.Rate.Lo), num(p.Rate.Hi))
}

func detected(rb Rollback) string {
	if rb.Pairs == 0 {
		return dash
	}
	return frac(rb.Detection)
}

// setName is a group's set as the paper's row labels say it.
func setName(set string) string {
	if set == SetShared {
		return "Shared"
	}
	return "Target"
}

// Tables builds the report's tables, in order: target-specific results,
// shared-set results, rollback audit, threshold sensitivity, candidate
// accounting and Wilson intervals. A table with no rows is left out.
func (rep *Report) Tables() []Table {
	var shared, targeted []Group
	for _, g := range rep.Groups {
		if g.Set == SetShared {
			shared = append(shared, g)
		} else {
			targeted = append(targeted, g)
		}
	}
	deltaHead := Column{"Mean Δhack [95% CI]", `Mean $\Delta_{\mathrm{hack}}$ {[}95\% CI{]}`, true}
	col := func(head string, right bool) Column { return Column{head, texEscape(head), right} }

	t1 := Table{ID: "targeted", Title: "Target-specific attack results",
		Note:    "Each target is attacked directly; mean Δhack is conditional on matched tasks, coverage and yield count every task.",
		TeX:     `Target-specific attack results. Each target is attacked directly; mean $\Delta_{\mathrm{hack}}$ is conditional on matched tasks, coverage and yield count every task.`,
		Columns: []Column{col("Target", false), col("Valid", true), col("Coverage", true), deltaHead, col("Cond. ASR", true), col("E2E yield", true)}}
	for _, g := range targeted {
		t1.Rows = append(t1.Rows, []string{g.Label, validCell(g), frac(g.Coverage), meanCI(g.MeanDelta), frac(g.ASR), frac(g.Yield)})
	}
	t1.addEnds(targeted)
	t1.addNote(sharedOnlyNote(shared, targeted))
	t1.addNote(unscoredNote(targeted, false))
	t1.addNote(cappedNote("Searches", "every target", targeted))

	t2 := Table{ID: "shared", Title: "Results on the shared reference set",
		Note:    "Every evaluator scores A_ref, the adversaries found against Historical Milestone; honest MAE is over every honest trajectory.",
		TeX:     `Results on the shared reference set. Every evaluator scores $A_{\mathrm{ref}}$, the adversaries found against Historical Milestone; honest MAE is over every honest trajectory.`,
		Columns: []Column{col("Evaluator", false), col("Honest MAE", true), deltaHead, col("Cond. ASR", true), col("E2E yield", true), col("Rollback", true)}}
	for _, g := range shared {
		t2.Rows = append(t2.Rows, []string{g.Label, numOrDash(g.HonestMAE), meanCI(g.MeanDelta), frac(g.ASR), frac(g.Yield), detected(g.Rollback)})
	}
	t2.addEnds(shared)
	t2.addNote(unscoredNote(shared, false))
	t2.addNote(cappedNote("The searches for A_ref", "every evaluator", shared))

	t3 := Table{ID: "rollback", Title: "Strict rollback audit",
		Note:    "Detected: f(R) < f(H). False credit is f(R) − P_state(R), averaged over all pairs and over the misses.",
		TeX:     `Strict rollback audit. Detected: $f(R) < f(H)$. False credit is $f(R) - P_{\mathrm{state}}(R)$, averaged over all pairs and over the misses.`,
		Columns: []Column{col("Evaluator", false), col("Detected", true), col("Miss rate", true), col("False credit (all pairs)", true), col("False credit (misses)", true)}}
	// Rollbacks do not depend on the attack: one row per target, from
	// its shared rows when it has them.
	var seen []string
	var shown []Group
	for _, g := range append(shared, targeted...) {
		if slices.Contains(seen, g.Target) {
			continue
		}
		seen = append(seen, g.Target)
		shown = append(shown, g)
		rb := g.Rollback
		t3.Rows = append(t3.Rows, []string{g.Label, detected(rb), numOrDash(rb.MissRate), numOrDash(rb.FalseCredit), numOrDash(rb.FalseCreditMisses)})
	}
	t3.addNote(unscoredNote(shown, false))

	t4 := Table{ID: "thresholds", Title: "Successful matched tasks under strict thresholds",
		Note:    "The same per-task Δhack values at each threshold; each target's matched tasks stay the denominator.",
		TeX:     `Successful matched tasks under strict thresholds. The same per-task $\Delta_{\mathrm{hack}}$ values at each threshold; each target's matched tasks stay the denominator.`,
		Columns: []Column{col("Set / evaluator", false)}}
	for _, t := range thresholds {
		head := "> " + threshold(t)
		t4.Columns = append(t4.Columns, Column{head, "$" + head + "$", true})
	}
	for _, g := range rep.Groups {
		row := []string{setName(g.Set) + " " + g.Label}
		for _, tc := range g.Thresholds {
			row = append(row, strconv.Itoa(tc.Successes))
		}
		t4.Rows = append(t4.Rows, row)
	}
	t4.addNote(unscoredNote(rep.Groups, true))

	t5 := Table{ID: "accounting", Title: "Candidate accounting by target",
		Note:    "Generated and protocol-valid count attempts; matched and successful count tasks.",
		TeX:     `Candidate accounting by target. Generated and protocol-valid count attempts; matched and successful count tasks.`,
		Columns: []Column{col("Target", false), col("Generated", true), col("Protocol-valid", true), col("Matched tasks", true), Column{"Successful (> .10)", `Successful ($> .10$)`, true}}}
	for _, g := range targeted {
		t5.Rows = append(t5.Rows, []string{g.Label, intOrDash(g.Attempts), intOrDash(g.Valid), strconv.Itoa(g.Matched), strconv.Itoa(g.Successes)})
	}
	t5.addNote(unscoredNote(targeted, false))

	t6 := Table{ID: "intervals", Title: "Wilson 95% intervals of the proportions",
		Note:    "Coverage and yield over every task, conditional ASR over matched tasks, detection over rollback pairs.",
		TeX:     `Wilson 95\% intervals of the proportions. Coverage and yield over every task, conditional ASR over matched tasks, detection over rollback pairs.`,
		Columns: []Column{col("Set / evaluator", false), col("Coverage", true), col("Cond. ASR", true), col("E2E yield", true), col("Rollback detection", true)}}
	for _, g := range rep.Groups {
		t6.Rows = append(t6.Rows, []string{setName(g.Set) + " " + g.Label, wilsonCell(g.Coverage), wilsonCell(g.ASR), wilsonCell(g.Yield), wilsonCell(g.Rollback.Detection)})
	}
	t6.addNote(unscoredNote(rep.Groups, true))

	if len(rep.LeftOut) > 0 { // a minimal ledger: no f(H), P_state, f(R) or attempts
		t1.dropColumn("Valid")
		t2.dropColumn("Honest MAE")
		t2.dropColumn("Rollback")
		t2.Note = strings.TrimSuffix(t2.Note, "; honest MAE is over every honest trajectory.") + "."
		t2.TeX = strings.TrimSuffix(t2.TeX, "; honest MAE is over every honest trajectory.") + "."
		t3.Rows, t5.Rows = nil, nil
		t6.dropColumn("Rollback detection")
		t6.Note = strings.TrimSuffix(t6.Note, ", detection over rollback pairs.") + "."
		t6.TeX = strings.TrimSuffix(t6.TeX, ", detection over rollback pairs.") + "."
	}
	var out []Table
	for _, t := range []Table{rep.modelTable(), t1, t2, t3, t4, t5, t6, rep.budgetTable()} {
		if len(t.Rows) > 0 {
			out = append(out, t)
		}
	}
	return out
}

// dropColumn removes the column headed head, and its cells.
func (t *Table) dropColumn(head string) {
	j := slices.IndexFunc(t.Columns, func(c Column) bool { return c.Head == head })
	if j < 0 {
		panic("report: no column " + head)
	}
	t.Columns = slices.Delete(t.Columns, j, j+1)
	for i := range t.Rows {
		t.Rows[i] = slices.Delete(t.Rows[i], j, j+1)
	}
}

// leftOutLines are the report's notes on what it left out, one line each.
func (rep *Report) leftOutLines() []string {
	var lines []string
	for _, lo := range rep.LeftOut {
		lines = append(lines, lo.Table+" left out: "+lo.Why)
	}
	return lines
}

func validCell(g Group) string {
	if g.Valid == nil || g.Attempts == nil {
		return dash
	}
	return fmt.Sprintf("%d/%d", *g.Valid, *g.Attempts)
}

func intOrDash(x *int) string {
	if x == nil {
		return dash
	}
	return strconv.Itoa(*x)
}

// intCell is a count in the metrics CSV: empty when undefined.
func intCell(x *int) string {
	if x == nil {
		return ""
	}
	return strconv.Itoa(*x)
}

// budgetTable is the budget sensitivity of the target-specific runs:
// matched and successful tasks of each target at each budget.
func (rep *Report) budgetTable() Table {
	t := Table{ID: "budgets", Title: "Budget sensitivity: matched / successful tasks at each edit budget",
		Note:    "The search attacker run again within each budget of edits of H; successes are matched tasks with Δhack > .10.",
		TeX:     `Budget sensitivity: matched / successful tasks at each edit budget. The search attacker run again within each budget of edits of $H$; successes are matched tasks with $\Delta_{\mathrm{hack}} > .10$.`,
		Columns: []Column{{"Target", "Target", false}}}
	if len(rep.Budgets) == 0 {
		return t
	}
	for _, b := range rep.Budgets {
		head := fmt.Sprintf("≤ %d edits", b.Edits)
		if b.Edits == 1 {
			head = "≤ 1 edit"
		}
		t.Columns = append(t.Columns, Column{head, fmt.Sprintf(`$\le %d$ edits`, b.Edits), true})
	}
	for i, g := range rep.Budgets[0].Groups {
		row := []string{g.Label}
		for _, b := range rep.Budgets {
			if i < len(b.Groups) && b.Groups[i].Target == g.Target {
				row = append(row, fmt.Sprintf("%d / %d", b.Groups[i].Matched, b.Groups[i].Successes))
			} else {
				row = append(row, dash)
			}
		}
		t.Rows = append(t.Rows, row)
	}
	var capped []string
	for _, b := range rep.Budgets {
		for _, p := range cappedParts("every target", b.Groups) {
			capped = append(capped, fmt.Sprintf("within %d edit(s), %s", b.Edits, p))
		}
	}
	if len(capped) > 0 {
		t.addNote("Searches stopped at the state cap before exhausting the edit bound (a larger cap may find more): " + strings.Join(capped, "; ") + ".")
	}
	return t
}

// addNote appends a sentence to the table's note, plain and LaTeX; an
// empty one adds nothing.
func (t *Table) addNote(sentence string) {
	if sentence != "" {
		t.Note += " " + sentence
		t.TeX += " " + texEscape(sentence)
	}
}

// sharedOnlyNote names the LLM judges scored on the shared set with no
// target-specific rows, and why they have none.
func sharedOnlyNote(shared, targeted []Group) string {
	var labels []string
	for _, g := range shared {
		_, judge := judgeLabels[g.Target]
		if judge && !slices.ContainsFunc(targeted, func(t Group) bool { return t.Target == g.Target }) {
			labels = append(labels, g.Label)
		}
	}
	if len(labels) == 0 {
		return ""
	}
	return strings.Join(labels, " and ") + ": shared set only, no target-specific rows (parthack bench --judge-calls K attacks each judge with a budgeted best-first search of K calls)."
}

// unscoredNote says which groups hold rows an evaluator could not fully
// score and how the metrics treat them; withSet names each group's set.
func unscoredNote(gs []Group, withSet bool) string {
	var parts []string
	for _, g := range gs {
		if g.Unscored == 0 {
			continue
		}
		name := g.Label
		if withSet {
			name = setName(g.Set) + " " + name
		}
		parts = append(parts, fmt.Sprintf("%s %d of %d", name, g.Unscored, g.Tasks))
	}
	if len(parts) == 0 {
		return ""
	}
	return "Tasks left partly unscored (a judge call failed after its retry, or a scorer failed on a trajectory): " + strings.Join(parts, ", ") +
		"; metrics leave the missing scores out, coverage and yield still count the tasks."
}

// cappedNote names the tasks whose search stopped at its state cap,
// group by group (once for all when every group lists the same ones),
// and what that means for their results; "" when no search was cut.
func cappedNote(searches, every string, gs []Group) string {
	parts := cappedParts(every, gs)
	if len(parts) == 0 {
		return ""
	}
	return searches + " stopped at the state cap before exhausting the edit bound (a larger cap may find more): " +
		strings.Join(parts, "; ") + ". Their adversary is the best found, not the certified worst case, and Δhack there a lower bound."
}

// cappedParts are "Label on T1, T2" for each group with capped tasks, or
// the one "T1, T2 (every target)" when all the groups list the same.
func cappedParts(every string, gs []Group) []string {
	var parts []string
	uniform := len(gs) > 1
	for _, g := range gs {
		uniform = uniform && slices.Equal(g.Capped, gs[0].Capped)
		if len(g.Capped) > 0 {
			parts = append(parts, g.Label+" on "+strings.Join(g.Capped, ", "))
		}
	}
	if uniform && len(parts) > 0 {
		return []string{strings.Join(gs[0].Capped, ", ") + " (" + every + ")"}
	}
	return parts
}

// writeText writes aligned plain-text tables.
func writeText(w io.Writer, tables []Table) error {
	var b strings.Builder
	for i, t := range tables {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(t.Title + "\n\n")
		width := make([]int, len(t.Columns))
		for j, c := range t.Columns {
			width[j] = utf8.RuneCountInString(c.Head)
			for _, r := range t.Rows {
				width[j] = max(width[j], utf8.RuneCountInString(r[j]))
			}
		}
		line := func(cells []string, right func(int) bool) {
			for j, s := range cells {
				pad := strings.Repeat(" ", width[j]-utf8.RuneCountInString(s))
				switch {
				case right(j):
					b.WriteString(pad + s)
				case j < len(cells)-1:
					b.WriteString(s + pad)
				default:
					b.WriteString(s)
				}
				if j < len(cells)-1 {
					b.WriteString("  ")
				}
			}
			b.WriteString("\n")
		}
		heads := make([]string, len(t.Columns))
		rules := make([]string, len(t.Columns))
		for j, c := range t.Columns {
			heads[j] = c.Head
			rules[j] = strings.Repeat("─", width[j])
		}
		right := func(j int) bool { return t.Columns[j].Right }
		line(heads, right)
		line(rules, right)
		for _, r := range t.Rows {
			line(r, right)
		}
		if t.Note != "" {
			b.WriteString("\n" + t.Note + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeMarkdown writes pipe tables, each under a heading.
func writeMarkdown(w io.Writer, tables []Table) error {
	var b strings.Builder
	cell := func(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
	for i, t := range tables {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString("### " + t.Title + "\n\n")
		var head, align []string
		for _, c := range t.Columns {
			head = append(head, cell(c.Head))
			if c.Right {
				align = append(align, "---:")
			} else {
				align = append(align, ":---")
			}
		}
		b.WriteString("| " + strings.Join(head, " | ") + " |\n")
		b.WriteString("| " + strings.Join(align, " | ") + " |\n")
		for _, r := range t.Rows {
			cells := make([]string, len(r))
			for j, s := range r {
				cells[j] = cell(s)
			}
			b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
		}
		if t.Note != "" {
			b.WriteString("\n" + t.Note + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeLaTeX writes booktabs table environments like the paper's.
func writeLaTeX(w io.Writer, tables []Table) error {
	var b strings.Builder
	for i, t := range tables {
		if i > 0 {
			b.WriteString("\n")
		}
		spec := "@{}"
		var head []string
		for _, c := range t.Columns {
			if c.Right {
				spec += "r"
			} else {
				spec += "l"
			}
			head = append(head, `\textbf{`+c.TeX+`}`)
		}
		spec += "@{}"
		fmt.Fprintf(&b, "\\begin{table}[htbp]\n\\centering\n\\caption{%s}\\label{tab:parthack-%s}\n\\small\n\\begin{tabular}{%s}\n\\toprule\n", t.TeX, t.ID, spec)
		b.WriteString(strings.Join(head, " & ") + ` \\` + "\n\\midrule\n")
		for _, r := range t.Rows {
			cells := make([]string, len(r))
			for j, s := range r {
				cells[j] = texCell(s)
			}
			b.WriteString(strings.Join(cells, " & ") + ` \\` + "\n")
		}
		b.WriteString("\\bottomrule\n\\end{tabular}\n\\end{table}\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// texEscape makes plain text safe in a LaTeX cell. Brackets are braced,
// as pandoc does, so a cell never reads as an optional argument.
var texEscape = strings.NewReplacer(
	`\`, `\textbackslash{}`, `&`, `\&`, `%`, `\%`, `$`, `\$`, `#`, `\#`, `_`, `\_`,
	`{`, `\{`, `}`, `\}`, `~`, `\textasciitilde{}`, `^`, `\textasciicircum{}`,
	`[`, `{[}`, `]`, `{]}`, dash, `---`, "Δ", `$\Delta$`, "−", `$-$`, "<", `$<$`, ">", `$>$`,
).Replace

// texMinus finds the minus sign of a number in an escaped cell: a hyphen
// that starts the cell or follows a blank or a brace and precedes a digit
// or the point (-.050); a hyphen inside a word (Predicate-Max) stays.
var texMinus = regexp.MustCompile(`(^|[ }])-([.0-9])`)

// texCell escapes a data cell and typesets its negative numbers with a
// minus sign.
func texCell(s string) string { return texMinus.ReplaceAllString(texEscape(s), "${1}$$-$$${2}") }

// writeCSV writes one row per (set, target) with every metric at full
// precision; undefined values are empty cells.
func writeCSV(w io.Writer, rep *Report) error {
	head := []string{"set", "target", "label", "tasks", "matched", "successes",
		"coverage", "coverage_lo", "coverage_hi", "conditional_asr", "conditional_asr_lo", "conditional_asr_hi",
		"e2e_yield", "e2e_yield_lo", "e2e_yield_hi", "mean_delta", "mean_delta_lo", "mean_delta_hi", "honest_mae",
		"rollback_pairs", "rollback_detected", "rollback_detection", "rollback_detection_lo", "rollback_detection_hi",
		"miss_rate", "false_credit", "false_credit_misses"}
	for _, t := range thresholds {
		head = append(head, "successes_gt_"+strconv.FormatFloat(t, 'f', 2, 64))
	}
	head = append(head, "generated", "protocol_valid")
	// The tasks whose search stopped at its state cap, space-separated:
	// a column only when some group has one, so reports of ledgers
	// without capped searches keep their bytes.
	capped := slices.ContainsFunc(rep.Groups, func(g Group) bool { return len(g.Capped) > 0 })
	if capped {
		head = append(head, "capped_tasks")
	}
	// Where attacks end, on a real domain only (see EndCounts).
	ended := slices.ContainsFunc(rep.Groups, func(g Group) bool { return g.EndCounts != nil })
	if ended {
		head = append(head, "same_end", "gold_end", "other_end", "rise_failed_call", "rise_no_op_repeat", "rise_change_undo")
	}
	cw := csv.NewWriter(w)
	cw.Write(head)
	full := func(x *float64) string {
		if x == nil {
			return ""
		}
		return strconv.FormatFloat(*x, 'f', -1, 64)
	}
	est := func(e *Estimate) []string {
		if e == nil {
			return []string{"", "", ""}
		}
		return []string{full(&e.Value), full(&e.Lo), full(&e.Hi)}
	}
	for _, g := range rep.Groups {
		rec := []string{g.Set, g.Target, g.Label, strconv.Itoa(g.Tasks), strconv.Itoa(g.Matched), strconv.Itoa(g.Successes)}
		rec = append(rec, est(g.Coverage.Rate)...)
		rec = append(rec, est(g.ASR.Rate)...)
		rec = append(rec, est(g.Yield.Rate)...)
		rec = append(rec, est(g.MeanDelta)...)
		pairs, detected := strconv.Itoa(g.Rollback.Pairs), strconv.Itoa(g.Rollback.Detection.K)
		if len(rep.LeftOut) > 0 { // a minimal ledger: no rollback columns to count
			pairs, detected = "", ""
		}
		rec = append(rec, full(g.HonestMAE), pairs, detected)
		rec = append(rec, est(g.Rollback.Detection.Rate)...)
		rec = append(rec, full(g.Rollback.MissRate), full(g.Rollback.FalseCredit), full(g.Rollback.FalseCreditMisses))
		for _, tc := range g.Thresholds {
			rec = append(rec, strconv.Itoa(tc.Successes))
		}
		rec = append(rec, intCell(g.Attempts), intCell(g.Valid))
		if capped {
			rec = append(rec, strings.Join(g.Capped, " "))
		}
		if c := g.EndCounts; c != nil {
			rec = append(rec, strconv.Itoa(c.SameEnd), strconv.Itoa(c.GoldEnd), strconv.Itoa(c.OtherEnd),
				strconv.Itoa(c.Rise.FailedCall), strconv.Itoa(c.Rise.NoOpRepeat), strconv.Itoa(c.Rise.ChangeUndo))
		} else if ended {
			rec = append(rec, "", "", "", "", "", "")
		}
		cw.Write(rec)
	}
	cw.Flush()
	return cw.Error()
}

// addEnds adds, on a real domain's table (its rows say where witnesses
// end), where each target's attacks over .10 end: in H's state, by why
// the evaluator rose, in gold's, elsewhere; and a note that says what
// each means and what the successes count.
func (t *Table) addEnds(groups []Group) {
	if !slices.ContainsFunc(groups, func(g Group) bool { return g.EndCounts != nil }) {
		return
	}
	t.Columns = append(t.Columns,
		Column{"Same end (failed/no-op/undo)", "Same end (failed/no-op/undo)", true},
		Column{"Gold end", "Gold end", true},
		Column{"Other end", "Other end", true})
	for i, g := range groups {
		same, gold, other := dash, dash, dash
		if c := g.EndCounts; c != nil {
			same = fmt.Sprintf("%d (%d/%d/%d)", c.SameEnd, c.Rise.FailedCall, c.Rise.NoOpRepeat, c.Rise.ChangeUndo)
			gold, other = strconv.Itoa(c.GoldEnd), strconv.Itoa(c.OtherEnd)
		}
		t.Rows[i] = append(t.Rows[i], same, gold, other)
	}
	t.addNote(endsNote(groups))
}

// endsNote says what the end columns count and which the successes are.
func endsNote(groups []Group) string {
	anyEnd, elsewhere := false, false
	for _, g := range groups {
		if c := g.EndCounts; c != nil {
			anyEnd = anyEnd || g.Successes > c.SameEnd
			elsewhere = elsewhere || c.GoldEnd+c.OtherEnd > 0
		}
	}
	note := "Tasks by where their best attack over .10 ends: Same end, in exactly H's state by the benchmark's own state hash (evaluator inflation; " +
		"why the evaluator rose: a call that failed and is credited anyway, a call that changed nothing, a change and its undo); " +
		"Gold end, in the gold run's end state (A is better work than H, not inflation); Other end, elsewhere (collateral no goal predicate reads)."
	switch {
	case anyEnd:
		return note + " The search admitted witnesses that end anywhere (--any-end): successes, yields and Δhack count every end."
	case elsewhere:
		return note + " Successes, yields and Δhack count Same end only (the search admitted only witnesses that end in H's state); " +
			"Gold end and Other end are the best attacks of a search that admitted any end, on tasks with no same-end success."
	}
	return note + " Successes, yields and Δhack count Same end only."
}
