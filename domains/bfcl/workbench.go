package bfcl

import (
	"fmt"
	"strings"

	"github.com/parthack/parthack/domains"
	"github.com/parthack/parthack/internal/payload"
	"github.com/parthack/parthack/model"
)

// What the workbench shows of BFCL: each user step as the turn's message
// (domains.Messenger), and BFCL's checks of a run turn by turn
// (domains.Explainer).

// AddedFunctionsMessage is the message BFCL's FC handlers send at a
// miss_func turn that gives the held-out functions back, which has no
// question of its own (base_handler.py,
// DEFAULT_USER_PROMPT_FOR_ADDITIONAL_FUNCTION_FC; the staged runs'
// begin_of_turn_query records it).
const AddedFunctionsMessage = "I have updated some more functions you can choose from. What about now?"

// Message is the user's message that starts a turn: the entry's question
// for it, as the model read it.
func (domain) Message(task string, actor model.Actor, a *model.Action) (name, text string, ok bool) {
	if actor != model.ActorUser || a.Op != model.OpCall || a.Tool != UserTurn {
		return "", "", false
	}
	turn, ok := turnArg(a.Args)
	if !ok {
		return "", "", false
	}
	e, err := EntryByID(task)
	if err != nil || turn >= len(e.Question) {
		return "", "", false
	}
	var texts []string
	for _, m := range e.Question[turn] {
		texts = append(texts, m.Content)
	}
	if len(texts) == 0 && e.MissedFunction[turn] != nil {
		texts = []string{AddedFunctionsMessage}
	}
	return fmt.Sprintf("turn %d", turn), strings.Join(texts, "\n"), true
}

// Explain is BFCL's verdict of a payload's run and each turn's checks,
// as its checker computes them (PayloadVerdict): the state check and the
// response check of every turn, past the first that fails.
func (domain) Explain(p *payload.Payload) (*domains.Explanation, bool) {
	v, ok := PayloadVerdict(p)
	if !ok {
		return nil, false
	}
	x := &domains.Explanation{Verdict: "valid", Pass: v.Valid}
	if !v.Valid {
		x.Verdict, x.Says = v.String(), v.ErrorMessage
	}
	for t, tc := range v.Turns {
		name := fmt.Sprintf("turn %d", t)
		switch {
		case !tc.Checked:
			why := "not checked: gold makes no call in this turn"
			if n := calls(tc.ModelResults); n > 0 {
				why += fmt.Sprintf(" (the model's %d call%s still change the state later turns see)", n, plural(n))
			}
			x.Checks = append(x.Checks, domains.Finding{Name: name, Detail: []string{why}})
			continue
		case !tc.Ran:
			x.Checks = append(x.Checks, domains.Finding{Name: name, Checked: true,
				Detail: []string{"the run never reached this turn (BFCL fails a run short of gold's turns: force_terminated)"}})
			continue
		case tc.Empty:
			x.Checks = append(x.Checks, domains.Finding{Name: name, Checked: true,
				Detail: []string{"the model made no call in this turn (empty_turn_model_response)"}})
		}
		state := domains.Finding{Name: name + " · state", Checked: true, Pass: tc.StateEqual,
			Detail: []string{"every instance's public attributes equal gold's after the turn"}}
		if !tc.StateEqual {
			state.Detail = nil
			for _, d := range tc.StateDiffers {
				state.Detail = append(state.Detail, fmt.Sprintf("%s differs from gold's in %s", d.Class, strings.Join(d.Attrs, ", ")))
			}
		}
		resp := domains.Finding{Name: name + " · response", Checked: true, Pass: tc.Found == len(tc.GoldResults),
			Detail: []string{fmt.Sprintf("%d of %d gold result%s found among the model's results so far", tc.Found, len(tc.GoldResults), plural(len(tc.GoldResults)))}}
		for _, m := range tc.Missing {
			resp.Detail = append(resp.Detail, "missing: "+m)
		}
		x.Checks = append(x.Checks, state, resp)
	}
	return x, true
}

// calls counts the calls of a turn's steps.
func calls(steps [][]string) int {
	n := 0
	for _, s := range steps {
		n += len(s)
	}
	return n
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// ShowCell is an attribute's value as BFCL's inference log shows an
// instance's state (state_info): made JSON-serializable (a Directory is
// its str(), "<Directory: workspace, …>"), then json.dumps.
func (domain) ShowCell(v model.Value) (string, bool) {
	x, err := Value(v)
	if err != nil {
		return "", false
	}
	text := dumps(x)
	return text, !strings.HasPrefix(text, "unserializable: ")
}
