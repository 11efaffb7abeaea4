package tau2

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/parthack/parthack/model"
)

// The causes of a conformance report's disagreements are measured: each
// says where the port's value and the file's part, or what decided the
// port's verdict, never what might explain it.

// Apart says where a call's result string as the port gives it and as
// the file records it first differ: where both are JSON, the first path
// whose values differ as Python compares them (what tau2's set_state
// compares), with both values; otherwise, or where the values are equal
// and only the texts differ, the first differing character with a
// little context on each side.
func Apart(port, file string) string {
	a, errA := ParsePy([]byte(port))
	b, errB := ParsePy([]byte(file))
	if errA == nil && errB == nil {
		if path, x, y, ok := firstApart("$", a, b); ok {
			return fmt.Sprintf("%s: port %s, file %s", path, showPy(x), showPy(y))
		}
		return "equal as JSON values; the texts differ at " + charApart(port, file)
	}
	return charApart(port, file)
}

// absent stands for a dict key or list item one side lacks.
type absent struct{}

// firstApart is the first path under path where a and b differ, in a's
// order (a dict's keys, then those only b has).
func firstApart(path string, a, b any) (string, any, any, bool) {
	switch x := a.(type) {
	case Obj:
		y, ok := b.(Obj)
		if !ok {
			break
		}
		for _, m := range x {
			w, ok := y.Get(m.Key)
			if !ok {
				return path + keyPath(m.Key), m.Value, absent{}, true
			}
			if p, u, v, ok := firstApart(path+keyPath(m.Key), m.Value, w); ok {
				return p, u, v, true
			}
		}
		for _, m := range y {
			if _, ok := x.Get(m.Key); !ok {
				return path + keyPath(m.Key), absent{}, m.Value, true
			}
		}
		return "", nil, nil, false
	case []any:
		y, ok := b.([]any)
		if !ok {
			break
		}
		for i := range max(len(x), len(y)) {
			p := fmt.Sprintf("%s[%d]", path, i)
			switch {
			case i >= len(y):
				return p, x[i], absent{}, true
			case i >= len(x):
				return p, absent{}, y[i], true
			}
			if p, u, v, ok := firstApart(p, x[i], y[i]); ok {
				return p, u, v, true
			}
		}
		return "", nil, nil, false
	}
	if PyEqual(a, b) {
		return "", nil, nil, false
	}
	return path, a, b, true
}

// keyPath is a dict key as a JSON path step.
func keyPath(k string) string {
	for i, r := range k {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return fmt.Sprintf("[%q]", k)
		}
	}
	if k == "" {
		return `[""]`
	}
	return "." + k
}

// showPy is a value as JSON, shortened for one line.
func showPy(x any) string {
	if _, ok := x.(absent); ok {
		return "absent"
	}
	return clip(Dumps(x, false), 60)
}

func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

// charApart is the first character at which two texts differ, with up
// to 16 characters of each around it.
func charApart(port, file string) string {
	a, b := []rune(port), []rune(file)
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	around := func(r []rune) string {
		if i >= len(r) {
			return "(the text ends)"
		}
		lo, hi := max(0, i-16), min(len(r), i+16)
		s := string(r[lo:hi])
		if lo > 0 {
			s = "…" + s
		}
		if hi < len(r) {
			s += "…"
		}
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprintf("character %d: port %s, file %s", i+1, around(a), around(b))
}

// CellsApart says where a run's end state and gold's part, as their
// net changes from the same start: the cells changed otherwise (at most
// three named, then a count), or that there are none.
func CellsApart(run, gold []model.CellDiff) string {
	type key struct{ typ, id, field string }
	g := map[key]model.CellDiff{}
	for _, c := range gold {
		g[key{c.Type, c.ID, c.Field}] = c
	}
	var apart []string
	for _, c := range run {
		k := key{c.Type, c.ID, c.Field}
		gc, ok := g[k]
		delete(g, k)
		switch {
		case !ok:
			apart = append(apart, fmt.Sprintf("%s %s %s: run %s, gold leaves %s", c.Type, c.ID, c.Field, clip(c.After.String(), 40), clip(c.Before.String(), 40)))
		case !gc.After.Equal(c.After):
			apart = append(apart, fmt.Sprintf("%s %s %s: run %s, gold %s", c.Type, c.ID, c.Field, clip(c.After.String(), 40), clip(gc.After.String(), 40)))
		}
	}
	for _, c := range gold { // in gold's order
		if _, ok := g[key{c.Type, c.ID, c.Field}]; ok {
			apart = append(apart, fmt.Sprintf("%s %s %s: run leaves %s, gold %s", c.Type, c.ID, c.Field, clip(c.Before.String(), 40), clip(c.After.String(), 40)))
		}
	}
	if len(apart) == 0 {
		return fmt.Sprintf("the run's end state is gold's: it changes %s, as gold does", cells(len(run)))
	}
	out := fmt.Sprintf("the run's end state differs from gold's in %s: %s", cells(len(apart)), strings.Join(apart[:min(3, len(apart))], "; "))
	if len(apart) > 3 {
		out += fmt.Sprintf("; and %d more", len(apart)-3)
	}
	return out
}

// DBDecided says what decided a run's recomputed db_match: that tau2
// passes the check without a replay (a task with no gold actions and no
// env assertions), or where the run's end state and gold's part, with
// tau2's DB hashes of both where the checker computed them.
func DBDecided(t *Task, s *Score, run, gold []model.CellDiff) string {
	if c := t.Criteria; c != nil && c.ActionsNull && c.EnvAssertions == nil {
		return "the task has no gold actions and no env assertions: tau2 passes its DB check without a replay"
	}
	why := CellsApart(run, gold)
	if s.Hash != "" {
		why += fmt.Sprintf(" (DB hash %.12s…, gold's %.12s…)", s.Hash, s.GoldHash)
	}
	return why
}

func cells(n int) string {
	if n == 1 {
		return "1 cell"
	}
	return fmt.Sprintf("%d cells", n)
}

// ActionDecided says what decided a gold call's ACTION check on a run:
// the run's first call that matches it, or why none does (the run never
// calls the tool, or its first call of the tool differs in an argument
// the check compares).
func ActionDecided(sim *Simulation, a Action) string {
	var first *ToolCall
	n := 0
	for _, m := range sim.Messages {
		for k := range m.ToolCalls {
			tc := &m.ToolCalls[k]
			n++
			if MatchCall(a.Name, a.Arguments, a.CompareArgs, tc.Name, tc.Arguments) {
				return fmt.Sprintf("call %d (%s) matches it", n, tc.Name)
			}
			if first == nil && tc.Name == a.Name {
				first = tc
			}
		}
	}
	if first == nil {
		return fmt.Sprintf("no call matches it: the run never calls %s", a.Name)
	}
	call, err1 := ParsePy(first.Arguments)
	gold, err2 := ParsePy(a.Arguments)
	if err1 != nil || err2 != nil {
		return fmt.Sprintf("no call matches it: the arguments of %s do not parse", a.Name)
	}
	keys := a.CompareArgs
	if keys == nil {
		for _, m := range asObj(call) {
			keys = append(keys, m.Key)
		}
	}
	for _, k := range keys {
		x, okx := asObj(call).Get(k)
		y, oky := asObj(gold).Get(k)
		if okx != oky || !PyEqual(x, y) {
			show := func(v any, ok bool) string {
				if !ok {
					return "absent"
				}
				return showPy(v)
			}
			return fmt.Sprintf("no call matches it: the run's first %s differs in %q: run %s, gold %s", a.Name, k, show(x, okx), show(y, oky))
		}
	}
	return fmt.Sprintf("no call matches it (%d calls of %s)", n, a.Name)
}

// CommunicateDecided says what decided a communicate check: the first
// assistant message that says the string (compared as tau2 compares:
// lower case, commas removed), or that none does.
func CommunicateDecided(sim *Simulation, info string) string {
	for j, m := range sim.Messages {
		if m.Role == "assistant" && m.Content != nil && model.Says(*m.Content, info) {
			return fmt.Sprintf("messages[%d] says it", j)
		}
	}
	return "no assistant message says it"
}

// RewardDecided says what decided a recomputed reward: how the run
// ended, or its basis's components and their values, each 0 with its
// reason. env is the ENV_ASSERTION term where the domain computes it.
func RewardDecided(sim *Simulation, t *Task, s *Score, env string) string {
	switch {
	case s.Premature:
		return fmt.Sprintf("the run ended by %s: tau2 scores it 0 and computes no component", sim.TerminationReason)
	case s.NoCriteria:
		return "the task has no evaluation criteria: tau2 scores 1"
	}
	var terms []string
	for _, b := range t.Criteria.RewardBasis {
		var term string
		switch b {
		case BasisDB:
			term = fmt.Sprintf("DB %g", s.DB)
			if s.DB == 0 {
				term += " (the end state is not gold's)"
			}
		case BasisAction:
			term = fmt.Sprintf("ACTION %g", s.Action)
			for i, ok := range s.Actions {
				if !ok {
					term += fmt.Sprintf(" (gold call %d, %s, unmatched)", i, t.Criteria.Actions[i].Name)
					break
				}
			}
		case BasisCommunicate:
			term = fmt.Sprintf("COMMUNICATE %g", s.CommunicateOK)
			for i, ok := range s.Communicate {
				if !ok {
					term += fmt.Sprintf(" (communicate_info %d unsaid)", i)
					break
				}
			}
		case BasisEnv:
			term = env
			if term == "" {
				term = "ENV_ASSERTION not computed"
			}
		case BasisNL:
			term = "NL_ASSERTION not computed"
		}
		terms = append(terms, term)
	}
	out := fmt.Sprintf("the port's reward %g is %s", s.Reward, strings.Join(terms, " × "))
	if len(s.Skipped) > 0 {
		var skipped []string
		for _, b := range s.Skipped {
			if b == BasisNL {
				b += ", an LLM judge's verdict"
			}
			skipped = append(skipped, b)
		}
		out = "its basis holds " + strings.Join(skipped, " and ") + ", not computed; " + out
	}
	return out
}
