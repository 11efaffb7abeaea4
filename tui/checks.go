package tui

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/lipgloss"

	"github.com/parthack/parthack/domains"
	"github.com/parthack/parthack/evaluators"
)

// checksLines say why the benchmark scored a run as it did, each of its
// own checks with what decided it: its reward and the reward basis, each
// component's score, each gold action with the call that matched it or
// why none did (wrong arguments, missing), and each output the agent
// must say, said or not. They read the payload the benchmark's
// evaluators score (analysis.checks), so they agree with those scores.
func (c *common) checksLines(a *analysis, width int) []string {
	st := c.st
	var out []string
	add := func(s string) { out = append(out, wrap(s, width)...) }
	if a.reward != nil {
		line := st.bold.Render(fmt.Sprintf("%s %g", a.rewardName, *a.reward)) + st.muted.Render(" (recomputed by its own rule)")
		if a.checks != nil && a.checks.explained != nil {
			x := a.checks.explained
			sty := st.ok
			if !x.Pass {
				sty = st.bad
			}
			line += st.muted.Render(": ") + sty.Render(x.Verdict)
		}
		add(line)
	}
	if why := a.traj.Termination; why != "" {
		// The payload holds the calls, not why the run stopped: the
		// benchmark's own reason (BFCL's inference_error) is the run's.
		add(st.warn.Render(fmt.Sprintf("%s ended the run itself: %s", orDefault(a.task.Bench, "the benchmark"), why)))
	}
	if a.hash != "" {
		same, sty := "equals", st.ok
		if a.hash != a.goldHash {
			same, sty = "differs from", st.bad
		}
		add(sty.Render(fmt.Sprintf("the end state's hash %s %s the gold run's %s", shortHash(a.hash), same, shortHash(a.goldHash))))
	}
	ch := a.checks
	if ch == nil {
		if a.reward == nil {
			add(st.faint.Render("no check of a benchmark: the task is none of a benchmark's"))
		}
		return out
	}
	// The reward is the product over the basis; every component shows,
	// those it multiplies first.
	if len(ch.basis) > 0 {
		var prod []string
		for _, b := range ch.basis {
			if s, ok := a.benchComponent(b); ok {
				prod = append(prod, fmt.Sprintf("%s %s", b, short(s.v)))
			} else {
				prod = append(prod, b+" (not computed: an LLM judge's)")
			}
		}
		if len(a.bench) > 0 && a.bench[0].ok {
			add(fmt.Sprintf("%s = %s", benchShort(a.task.Bench, a.bench[0].label)+" "+short(a.bench[0].v), strings.Join(prod, " × ")))
		}
		add(st.muted.Render("reward basis: " + strings.Join(ch.basis, ", ")))
	}
	if x := ch.explained; x != nil && x.Says != "" {
		out = append(out, hang("  ", st.muted.Render(fmt.Sprintf("%q", x.Says)), width, 2)...)
	}
	if len(a.bench) > 1 {
		out = append(out, "", st.paneTitle.Render("Components"))
		// The name column is as wide as the longest name, so "PR151
		// partial ACTION" reads whole.
		width := 0
		for _, s := range a.bench[1:] {
			width = max(width, lipgloss.Width(benchShort(a.task.Bench, s.label)))
		}
		for _, s := range a.bench[1:] {
			name := benchShort(a.task.Bench, s.label)
			in := st.faint.Render("not in the basis")
			switch {
			case slices.Contains(ch.basis, name):
				in = st.muted.Render("in the basis")
			case fieldEvaluator(s.name):
				in = st.faint.Render("another project's rule, not the benchmark's")
			case len(ch.basis) == 0:
				// A benchmark whose reward is no product of components
				// (BFCL's verdict): each of its own is its rule.
				in = st.muted.Render(a.task.Bench + "'s own")
			}
			v := "n/a"
			if s.ok {
				v = short(s.v)
			}
			add(fmt.Sprintf("  %s %s  %s", fit(name, width), fit(v, 4), in))
		}
	}
	if x := ch.explained; x != nil {
		out = append(out, c.explanationLines(x, width)...)
	}
	if len(ch.golds) > 0 {
		n := 0
		for _, g := range ch.golds {
			if g.Event > 0 {
				n++
			}
		}
		needs := "ACTION needs all"
		if ch.explained != nil {
			// The benchmark said its own checks above; its gold calls
			// are the field's evaluators' reference.
			needs = "the field's evaluators' reference, not " + a.task.Bench + "'s check"
		}
		out = append(out, "", st.paneTitle.Render("Gold actions")+st.muted.Render(fmt.Sprintf(" · %d of %d matched by a call of the run (%s)", n, len(ch.golds), needs)))
		for i, g := range ch.golds {
			call := g.Ref.Tool + " " + g.Ref.Args.String()
			if g.Event > 0 {
				// A matched call takes a line: where it matched is what
				// there is to read.
				at := fmt.Sprintf(" · event %d", g.Event)
				out = append(out, fmt.Sprintf("%2d %s ", i+1, st.ok.Render("✓"))+shortenMiddle(call, max(width-4-len(at), 10))+st.muted.Render(at))
				continue
			}
			cmp := "every argument the call passes"
			if !g.Ref.AllArgs {
				cmp = orDefault(strings.Join(g.Ref.CompareArgs, ", "), "no argument")
			}
			out = append(out, hang(fmt.Sprintf("%2d %s ", i+1, st.bad.Render("✗")), call, width, 5)...)
			out = append(out, hang("     ", st.bad.Render(g.Why)+st.faint.Render(" · compared: "+cmp), width, 5)...)
		}
	}
	if len(ch.outputs) > 0 {
		out = append(out, "", st.paneTitle.Render("Said to the user")+st.muted.Render(" · each in some message of the agent"))
		for i, o := range ch.outputs {
			mark := st.ok.Render("✓")
			if i >= len(ch.said) || !ch.said[i] {
				mark = st.bad.Render("✗")
			}
			add(fmt.Sprintf("   %s %q", mark, o))
		}
	}
	return out
}

// explanationLines are a benchmark's checks of a run in its own terms
// (domains.Explainer): each check passing ✓, failing ✗ or not checked –,
// with what decided it.
func (c *common) explanationLines(x *domains.Explanation, width int) []string {
	st := c.st
	var out []string
	passed, checked := 0, 0
	for _, f := range x.Checks {
		if f.Checked {
			checked++
			if f.Pass {
				passed++
			}
		}
	}
	out = append(out, "", st.paneTitle.Render("Checks")+st.muted.Render(fmt.Sprintf(" · %d of %d pass", passed, checked)))
	nameW := 0
	for _, f := range x.Checks {
		nameW = max(nameW, lipgloss.Width(f.Name))
	}
	for _, f := range x.Checks {
		mark, sty := st.faint.Render("–"), st.faint
		switch {
		case f.Checked && f.Pass:
			mark, sty = st.ok.Render("✓"), st.text
		case f.Checked:
			mark, sty = st.bad.Render("✗"), st.bad
		}
		head := " " + mark + " " + fit(f.Name, nameW) + "  "
		indent := lipgloss.Width(head)
		if indent > width/2 {
			// A narrow pane: the details go under the name.
			out = append(out, head)
			head, indent = "     ", 5
		}
		for i, d := range f.Detail {
			if i > 0 {
				head = strings.Repeat(" ", indent)
			}
			out = append(out, hang(head, sty.Render(d), width, indent)...)
		}
	}
	return out
}

// hang wraps text after head, its further lines indented by indent
// cells, so that a long call reads as one item.
func hang(head, text string, width, indent int) []string {
	lines := wrap(text, max(width-indent, 10))
	for i := range lines {
		if i == 0 {
			lines[i] = head + lines[i]
		} else {
			lines[i] = strings.Repeat(" ", indent) + lines[i]
		}
	}
	return lines
}

// shortHash is a hash's first 12 characters.
func shortHash(h string) string { return h[:min(12, len(h))] }

// benchComponent is the benchmark's own evaluator a reward-basis
// component names ("DB": tau2-bench's "tau2 DB").
func (a *analysis) benchComponent(basis string) (benchScore, bool) {
	for _, s := range a.bench {
		if benchShort(a.task.Bench, s.label) == basis && s.ok {
			return s, true
		}
	}
	return benchScore{}, false
}

// checksKey is b, where the task is a benchmark's.
func (c *common) checksKey(t *suiteTask) key.Binding {
	b := c.keys.Checks
	b.SetEnabled(t != nil && t.Bench != "")
	return b
}

// checksOverlay shows the benchmark's own checks of each run whole: the
// run on screen, or H's and the candidate's.
func (c *common) checksOverlay(width int, task string, runs ...*analysis) *overlay {
	w := max(width-4, 20)
	var lines []string
	names := []string{"", "H", "A"}
	for i, a := range runs {
		if len(runs) > 1 {
			if i > 0 {
				lines = append(lines, "")
			}
			lines = append(lines, c.st.title.Render(fit(names[i+1]+" · "+a.label, w)))
		}
		lines = append(lines, c.checksLines(a, w)...)
	}
	bench := "the benchmark"
	if b := runs[0].task.Bench; b != "" {
		bench = b
	}
	title := fmt.Sprintf("%s's checks · %s", bench, task)
	if len(runs) == 1 {
		title += " · " + runs[0].label
	}
	return &overlay{title: title, lines: lines}
}

// fieldEvaluator reports whether an evaluator is one of the field's
// (evaluators.Field) that every real domain offers beside its own.
func fieldEvaluator(name string) bool {
	return slices.ContainsFunc(evaluators.Field(), func(f evaluators.Ported) bool { return f.Name == name })
}
