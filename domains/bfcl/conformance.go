package bfcl

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/parthack/parthack/domains/bfcl/classes"
	"github.com/parthack/parthack/domains/bfcl/pyval"
)

// Report is how a BFCL result file conforms to parthack's port: every
// call's recorded result and every logged snapshot replayed and compared,
// every entry's verdict recomputed by the port of BFCL's checker.
type Report struct {
	File     string `json:"file"`
	Category string `json:"category"`
	Entries  int    `json:"entries"`
	// Calls are the calls whose result the log records; CallsEqual those
	// the port answers with the same string.
	Calls      int `json:"calls"`
	CallsEqual int `json:"calls_equal"`
	// Snapshots are the logged instance states (one per stateful class,
	// at each turn's start and after the last); SnapshotsEqual those the
	// port's replay holds then.
	Snapshots      int `json:"snapshots"`
	SnapshotsEqual int `json:"snapshots_equal"`
	// Valid counts the entries the port's checker passes; InvalidIDs are
	// the others, in file order.
	Valid      int      `json:"valid"`
	InvalidIDs []string `json:"invalid_ids"`
	// Disagreements are the things the port computes otherwise than the
	// file records, each with its measured cause.
	Disagreements []Disagreement `json:"disagreements,omitempty"`
	// Verdicts are the port's verdicts, in file order (their turns'
	// checks are not kept: a report's size is its file's entries').
	Verdicts []EntryVerdict `json:"-"`
}

// EntryVerdict is the port's verdict of one entry of a file.
type EntryVerdict struct {
	ID           string
	Valid        bool
	ErrorType    string
	ErrorMessage string
	Turn         int
}

// Disagreement is one thing the port computes otherwise than BFCL did.
type Disagreement struct {
	ID   string `json:"id"`
	Turn int    `json:"turn"`           // from 0
	Step int    `json:"step,omitempty"` // from 0, for a call or its decoding
	Call int    `json:"call,omitempty"` // from 0, within the step
	// What is "call", "decode", "snapshot" or "verdict".
	What  string `json:"what"`
	Got   string `json:"got"`  // the port's
	Want  string `json:"want"` // the file's
	Cause string `json:"cause"`
}

// Conform reads a BFCL result file (StreamResults) and replays every
// entry through the port: the logged decoding of each step against the
// port's, each call's result as BFCL's executor strings it against the
// logged one, and each logged snapshot against the port's instances then,
// made JSON as BFCL logs them; it recomputes each entry's verdict. Entries
// must be BFCL multi-turn entries parthack ships, all of one category.
// The instances are named as BFCL's inference names them for a model
// named "" (see Checker); a name shows only in a call whose string
// literal holds a method's name followed by "(".
func Conform(file string, r io.Reader) (*Report, error) { return ConformEach(file, r, nil) }

// ConformEach is Conform handing each entry, once held to the file, to
// each (nil: none), as an import certifies each run it conforms.
func ConformEach(file string, r io.Reader, each func(*Result) error) (*Report, error) {
	rep := &Report{File: file, InvalidIDs: []string{}}
	seen := map[string]bool{}
	err := StreamResults(file, r, func(res *Result) error {
		e, err := EntryByID(res.ID)
		if err != nil {
			return res.Errorf("%v", err)
		}
		if rep.Category == "" {
			rep.Category = res.Category
		} else if res.Category != rep.Category {
			return res.Errorf("expected an entry of %s, the category of the file's first (BFCL writes one file a category), got %s", rep.Category, res.ID)
		}
		if seen[res.ID] {
			return res.Errorf("entry %s appears twice", res.ID)
		}
		seen[res.ID] = true
		rep.Entries++
		if res.Logged {
			if err := rep.replay(e, res); err != nil {
				return res.Errorf("%v", err)
			}
		}
		v := Checker{}.Score(e, res)
		rep.Verdicts = append(rep.Verdicts, EntryVerdict{ID: res.ID, Valid: v.Valid, ErrorType: v.ErrorType, ErrorMessage: v.ErrorMessage, Turn: v.Turn})
		if v.Valid {
			rep.Valid++
		} else {
			rep.InvalidIDs = append(rep.InvalidIDs, res.ID)
		}
		if each != nil {
			return each(res)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return rep, nil
}

// replay runs an entry's logged steps on the port's instances as BFCL's
// inference ran them, comparing as it goes.
func (rep *Report) replay(e *Entry, res *Result) error {
	s, err := classes.NewSession(e.InitialConfig, e.InvolvedClasses, "", e.ID)
	if err != nil {
		return err
	}
	// last is the latest difference met so far, the cause the later ones
	// follow from until the states agree again.
	last := ""
	// A snapshot is placed at the turn it starts: the end state after
	// the last turn at the turn that would follow.
	snap := func(t int, logged []Snapshot) {
		if logged == nil {
			return
		}
		got, want := rep.snapshots(s, logged)
		if got == "" && want == "" {
			last = ""
			return
		}
		cause := "no call result differed before it: the port's state diverges without a visible result"
		if last != "" {
			cause = "follows " + last
		}
		rep.Disagreements = append(rep.Disagreements, Disagreement{ID: e.ID, Turn: t, What: "snapshot", Got: got, Want: want, Cause: cause})
		last = fmt.Sprintf("the state at turn %d's start", t)
	}
	for t, turn := range res.Turns {
		snap(t, turn.Start)
		for k, step := range turn.Steps {
			if step.LoggedDecoded != nil || step.LoggedDecodeError != "" {
				got, want := decodeText(step.Decoded, step.DecodeError), decodeText(step.LoggedDecoded, step.LoggedDecodeError)
				if got != want {
					rep.Disagreements = append(rep.Disagreements, Disagreement{ID: e.ID, Turn: t, Step: k, What: "decode", Got: got, Want: want,
						Cause: "the port decodes the step otherwise than BFCL's handler logged"})
				}
			}
			if step.Empty() {
				continue
			}
			for i, call := range step.Decoded {
				faults := len(s.Faults)
				got := s.Execute([]string{call})[0]
				if i >= len(step.Results) {
					continue
				}
				rep.Calls++
				want := step.Results[i]
				if got == want {
					rep.CallsEqual++
					continue
				}
				cause := callCause(s, call, want, faults)
				if last != "" {
					cause = "follows " + last
				}
				rep.Disagreements = append(rep.Disagreements, Disagreement{ID: e.ID, Turn: t, Step: k, Call: i, What: "call", Got: got, Want: want, Cause: cause})
				last = fmt.Sprintf("the result of turn %d step %d call %d", t, k, i)
			}
		}
	}
	snap(len(res.Turns), res.Final)
	return nil
}

// callCause is why the port answers a call otherwise than the log, the
// state before it being the logged one: the port panicked, or its parser
// and Python's disagree on the call's syntax, or the class answers
// otherwise.
func callCause(s *classes.Session, call, want string, faults int) string {
	if len(s.Faults) > faults {
		return "the port panicked: " + s.Faults[len(s.Faults)-1]
	}
	pySyntax := strings.HasPrefix(want, "Error during execution: ") && strings.Contains(want, " (<string>, line ")
	if _, err := classes.ParseCall(call); err != nil {
		if pySyntax {
			return "the call is not valid Python (BFCL's eval raised SyntaxError): the port's parser words the error otherwise"
		}
		return "the port's parser refuses a call Python's eval ran: " + err.Error()
	}
	if pySyntax {
		return "Python's eval refused the call's syntax; the port's parser accepts it"
	}
	return "the state before the call equals the logged one: the port's " + classOf(s, call) + " answers otherwise"
}

func decodeText(calls []string, err string) string {
	if err != "" {
		return "error: " + err
	}
	return "[" + strings.Join(calls, ", ") + "]"
}

// classOf names the class (and method) a call string runs, for causes.
func classOf(s *classes.Session, call string) string {
	name, _, _ := strings.Cut(call, "(")
	for _, in := range s.Instances {
		if _, ok := in.Class.Methods[name]; ok {
			return in.Class.Name + "." + name
		}
	}
	return name
}

// snapshots compares the logged snapshots with the port's instances,
// counting them; when some differ, what the port holds and what the log
// does, attribute by attribute ("" and "" when all are equal).
func (rep *Report) snapshots(s *classes.Session, logged []Snapshot) (got, want string) {
	var ports []classes.ClassState
	for _, st := range s.Snapshot() {
		if in, _ := s.Instance(st.Class); !in.Class.Stateless {
			ports = append(ports, st)
		}
	}
	var gots, wants []string
	for i, l := range logged {
		rep.Snapshots++
		if i >= len(ports) || ports[i].Class != l.Class {
			gots = append(gots, fmt.Sprintf("no stateful instance %d of %s", i, l.Class))
			wants = append(wants, fmt.Sprintf("%s's state", l.Class))
			continue
		}
		g, w := loggedState(ports[i]), dumps(l.Content)
		if g == w {
			rep.SnapshotsEqual++
			continue
		}
		for _, a := range ports[i].Attrs {
			v, ok := l.Content.Get(a.Name)
			ga, wa := dumps(a.Value), "not logged"
			if ok {
				wa = dumps(v)
			}
			if ga != wa {
				gots = append(gots, fmt.Sprintf("%s.%s = %s", l.Class, a.Name, clip(ga)))
				wants = append(wants, fmt.Sprintf("%s.%s = %s", l.Class, a.Name, clip(wa)))
			}
		}
		for _, k := range l.Content.Items() {
			if name, _ := k.Key.(string); !hasAttr(ports[i], name) {
				gots = append(gots, fmt.Sprintf("%s.%s not held", l.Class, name))
				wants = append(wants, fmt.Sprintf("%s.%s = %s", l.Class, name, clip(dumps(k.Value))))
			}
		}
	}
	if len(logged) != len(ports) {
		gots = append(gots, fmt.Sprintf("%d stateful instances", len(ports)))
		wants = append(wants, fmt.Sprintf("%d logged", len(logged)))
	}
	return strings.Join(gots, "; "), strings.Join(wants, "; ")
}

func hasAttr(st classes.ClassState, name string) bool {
	for _, a := range st.Attrs {
		if a.Name == name {
			return true
		}
	}
	return false
}

// loggedState is an instance's public state as BFCL logs it, as JSON
// text: vars(instance) less names starting with "_", then dumps.
func loggedState(st classes.ClassState) string {
	d := pyval.NewDict()
	for _, a := range st.Attrs {
		d.Set(a.Name, a.Value)
	}
	return dumps(d)
}

// dumps is a value as BFCL's result file holds it: through
// make_json_serializable (a value json.dumps refuses becomes its str()),
// then json.dumps; a value json.loads gave passes through unchanged.
// Where Python's writer would fail (an int past 4300 digits, nesting past
// its limit), the error is the text compared.
func dumps(v pyval.Value) string {
	v, err := pyval.MakeJSONSerializable(v)
	if err == nil {
		var out string
		if out, err = pyval.Dumps(v); err == nil {
			return out
		}
	}
	return "unserializable: " + err.Error()
}

func clip(s string) string {
	if len(s) > 120 {
		cut := 120
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		return s[:cut] + "…"
	}
	return s
}

// AgainstScores compares the report's verdicts with a BFCL score file
// of the same run: an entry the file lists must be invalid with the
// same error type, any other valid.
func (rep *Report) AgainstScores(s *Scores) []Disagreement {
	var out []Disagreement
	for _, v := range rep.Verdicts {
		want := "valid"
		if se, ok := s.ByID(v.ID); ok {
			want = se.ErrorType
		}
		got := "valid"
		if !v.Valid {
			got = v.ErrorType
		}
		if got != want {
			out = append(out, Disagreement{ID: v.ID, Turn: v.Turn, What: "verdict", Got: got, Want: want,
				Cause: "the port's checker decides otherwise than BFCL's score file"})
		}
	}
	return out
}
