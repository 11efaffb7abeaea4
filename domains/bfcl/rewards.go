package bfcl

import (
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"github.com/parthack/parthack/domains"
	"github.com/parthack/parthack/domains/bfcl/pyval"
	"github.com/parthack/parthack/internal/memo"
	"github.com/parthack/parthack/internal/payload"
	"github.com/parthack/parthack/model"
)

// The names of BFCL's checks as evaluators.
const (
	ValidName    = "bfcl_valid"
	StateName    = "bfcl_state_check"
	ResponseName = "bfcl_response_check"
	TurnName     = "bfcl_turn_credit"
)

// Rewards are BFCL's multi-turn checks, each computed as BFCL's checker
// computes it from the calls the public payload records turn by turn
// (it re-executes them, as BFCL does, and never reads a recorded
// result), then the field's evaluators:
//
//   - bfcl_valid: the official all-or-nothing verdict (every turn passes
//     the state and the response check; a run short of turns fails);
//   - bfcl_state_check: the fraction of checked turns (gold calls there)
//     whose end state equals gold's;
//   - bfcl_response_check: the fraction of the checked turns' gold
//     results found among the model's results so far, by the checker's
//     multiset rule;
//   - bfcl_turn_credit: the fraction of checked turns passing both (the
//     per-turn credit gorilla issue #920 asks for).
func Rewards() []domains.Reward {
	out := []domains.Reward{
		{Name: ValidName, Label: "BFCL valid", Score: score(func(v *Verdict) float64 { return b2f(v.Valid) })},
		{Name: StateName, Label: "BFCL state check", Score: score(stateCredit)},
		{Name: ResponseName, Label: "BFCL response check", Score: score(responseCredit)},
		{Name: TurnName, Label: "BFCL turn credit", Score: score(turnCredit)},
	}
	return append(out, domains.FieldRewards()...)
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// score is an evaluator reading a payload's verdict.
func score(f func(*Verdict) float64) func(*payload.Payload) (float64, bool) {
	return func(p *payload.Payload) (float64, bool) {
		v, ok := PayloadVerdict(p)
		if !ok {
			return 0, false
		}
		return f(v), true
	}
}

// checked are the turns BFCL checks: those with gold calls. A turn the
// run never reached counts as failed.
func checked(v *Verdict) []TurnCheck {
	var out []TurnCheck
	for _, t := range v.Turns {
		if t.Checked {
			out = append(out, t)
		}
	}
	return out
}

func stateCredit(v *Verdict) float64 {
	ts := checked(v)
	if len(ts) == 0 {
		return 1
	}
	n := 0
	for _, t := range ts {
		if t.Ran && t.StateEqual {
			n++
		}
	}
	return float64(n) / float64(len(ts))
}

func responseCredit(v *Verdict) float64 {
	gold, found := 0, 0
	for _, t := range checked(v) {
		gold += len(t.GoldResults)
		if t.Ran {
			found += t.Found
		}
	}
	if gold == 0 {
		return 1
	}
	return float64(found) / float64(gold)
}

func turnCredit(v *Verdict) float64 {
	ts := checked(v)
	if len(ts) == 0 {
		return 1
	}
	n := 0
	for _, t := range ts {
		if t.Ran && t.Passed() {
			n++
		}
	}
	return float64(n) / float64(len(ts))
}

// PayloadVerdict is BFCL's checker run on the calls a payload records:
// the entry is the payload's task (BFCL publishes its entries), the
// model's turns are its events split at the user's steps. false when the
// payload is no BFCL entry's. The verdict is shared (see verdicts): the
// caller must not change it.
func PayloadVerdict(p *payload.Payload) (*Verdict, bool) {
	e, err := EntryByID(p.Task)
	if err != nil || e == nil {
		return nil, false
	}
	turns := PayloadTurns(p)
	key := verdictKey(e.ID, turns)
	if v, ok := verdicts.Get(key); ok {
		return v, true
	}
	v := Check(e, turns)
	verdicts.Add(key, &v, len(key)+v.size())
	return &v, true
}

// verdicts holds the checker's verdicts by the entry and the calls it
// checked (verdictKey), which are all a verdict is computed from: each
// of BFCL's four checks scores a payload by its verdict, one after
// another, and the checker runs once for the four. Two generations of at
// most 256 KB each (keys and result texts).
var verdicts = memo.Cache[*Verdict]{Max: 256 << 10}

// verdictKey writes the entry's id and each turn's steps' calls, each
// text after its length, a turn after 't' and a step after 's': no two
// runs of calls share a key.
func verdictKey(id string, turns [][][]string) string {
	b := appendText(nil, id)
	for _, turn := range turns {
		b = append(b, 't')
		for _, step := range turn {
			b = append(b, 's')
			for _, call := range step {
				b = appendText(b, call)
			}
		}
	}
	return string(b)
}

func appendText(b []byte, s string) []byte {
	b = strconv.AppendInt(b, int64(len(s)), 10)
	b = append(b, ':')
	return append(b, s...)
}

// size is about the bytes a verdict holds: its texts.
func (v *Verdict) size() int {
	n := len(v.ErrorMessage)
	for _, t := range v.Turns {
		for _, rs := range t.ModelResults {
			for _, r := range rs {
				n += len(r)
			}
		}
		for _, r := range t.GoldResults {
			n += len(r)
		}
	}
	return n
}

// PayloadTurns are the model's calls of each turn a payload records, as
// BFCL's decoded call strings, one step per call: the checker reads a
// turn's results in order and asks only whether a turn had any.
func PayloadTurns(p *payload.Payload) [][][]string {
	var turns [][][]string
	for _, ev := range p.Events {
		if ev.Op != model.OpCall {
			continue
		}
		if ev.Actor == model.ActorUser && ev.Tool == UserTurn {
			turns = append(turns, nil)
			continue
		}
		if len(turns) == 0 {
			turns = append(turns, nil) // a call before any user turn: not a run BFCL makes
		}
		i := len(turns) - 1
		turns[i] = append(turns[i], []string{callText(ev.Tool, ev.Args)})
	}
	return turns
}

// callStrings holds CallString's texts by their tool and arguments' JSON,
// as callText makes the key: each entry's replays and its payload's
// turns make each call's text again. Two generations of at most 4 MB.
var callStrings = memo.Cache[string]{Max: 4 << 20}

// callKeys are callText's keys' buffers.
var callKeys = sync.Pool{New: func() any { return new([]byte) }}

// callText is CallString(tool, args's JSON), made once for every call
// of the tool with the same arguments.
func callText[A interface{ AppendJSON([]byte) []byte }](tool string, args A) string {
	kb := callKeys.Get().(*[]byte)
	defer callKeys.Put(kb)
	key := append(append((*kb)[:0], tool...), 0)
	key = args.AppendJSON(key)
	*kb = key
	if s, ok := callStrings.Get(unsafe.String(unsafe.SliceData(key), len(key))); ok {
		return s
	}
	s := CallString(tool, key[len(tool)+1:])
	callStrings.Add(string(key), s, len(key)+len(s))
	return s
}

// CallString is a call as BFCL's handler decodes a model's
// {"name": "<json arguments>"} for its executor: name(k=repr(v),…), the
// arguments in their order.
func CallString(tool string, args []byte) string {
	var b strings.Builder
	b.WriteString(tool)
	b.WriteByte('(')
	if x, err := pyval.Loads(args); err == nil {
		if d, ok := x.(*pyval.Dict); ok {
			for i, it := range d.Items() {
				if i > 0 {
					b.WriteByte(',')
				}
				b.WriteString(pyval.Str(it.Key))
				b.WriteByte('=')
				b.WriteString(pyval.Repr(it.Value))
			}
		}
	}
	b.WriteByte(')')
	return b.String()
}
