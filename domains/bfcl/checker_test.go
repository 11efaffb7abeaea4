package bfcl

import (
	"reflect"
	"testing"

	"github.com/parthack/parthack/domains/bfcl/classes"
	"github.com/parthack/parthack/domains/bfcl/pyval"
)

// counter is a class for the checker's tests: a public count, a private
// call counter the state check skips, inc(n=1) returning a dict, get()
// returning an int and reset() returning None.
const counter = "ParthackTestCounter"

func init() {
	called := func(self *classes.Instance) {
		n, _ := self.Get("_calls")
		self.Set("_calls", n.(int64)+1)
	}
	count := func(self *classes.Instance) int64 { c, _ := self.Get("count"); return c.(int64) }
	classes.Register(&classes.Class{
		Name: counter,
		Init: func(self *classes.Instance) { self.Set("count", int64(0)); self.Set("_calls", int64(0)) },
		Load: func(self *classes.Instance, scenario *pyval.Dict) error {
			if v, ok := scenario.Get("count"); ok {
				self.Set("count", v)
			}
			return nil
		},
		Methods: map[string]*classes.Method{
			"inc": {Params: []classes.Param{{Name: "n", Default: int64(1), HasDefault: true}}, Body: func(self *classes.Instance, args []pyval.Value) (pyval.Value, error) {
				called(self)
				n, ok := args[0].(int64)
				if !ok {
					return nil, pyval.TypeError("unsupported operand type(s) for +=: 'int' and '" + pyval.TypeName(args[0]) + "'")
				}
				self.Set("count", count(self)+n)
				d := pyval.NewDict()
				d.Set("count", count(self))
				return d, nil
			}},
			"get": {Body: func(self *classes.Instance, _ []pyval.Value) (pyval.Value, error) {
				called(self)
				return count(self), nil
			}},
			"reset": {Body: func(self *classes.Instance, _ []pyval.Value) (pyval.Value, error) {
				called(self)
				self.Set("count", int64(0))
				return nil, nil
			}},
		},
	})
}

func counterEntry(gold ...[]string) *Entry {
	cfg := pyval.NewDict()
	sc := pyval.NewDict()
	sc.Set("count", int64(0))
	cfg.Set(counter, sc)
	return &Entry{ID: "multi_turn_base_900", Category: "multi_turn_base", InitialConfig: cfg, InvolvedClasses: []string{counter}, GroundTruth: gold}
}

type turnWant struct {
	checked, empty, stateEqual bool
	found                      int
	gold                       []string
}

func TestCheck(t *testing.T) {
	for _, c := range []struct {
		name      string
		gold      [][]string
		model     [][][]string
		valid     bool
		errorType string
		message   string
		turn      int
		turns     []turnWant
	}{
		{name: "valid", gold: [][]string{{"inc(n=2)"}, {"get()"}}, model: [][][]string{{{"inc(n=2)"}}, {{"get()"}, {"get()"}}},
			valid: true, turn: -1, turns: []turnWant{{true, false, true, 1, []string{`{"count": 2}`}}, {true, false, true, 1, []string{"2"}}}},
		{name: "force_terminated", gold: [][]string{{"inc(n=2)"}, {"get()"}}, model: [][][]string{{{"inc(n=2)"}}},
			errorType: ErrForceTerminated, turn: -1,
			message: "Model was force-terminated during inference phase. The length of the model result turns (1) does not match the length of the ground truth turns (2).",
			turns:   []turnWant{{true, false, true, 1, []string{`{"count": 2}`}}, {true, true, true, 0, []string{"2"}}}},
		{name: "empty turn", gold: [][]string{{"inc(n=2)"}, {"get()"}}, model: [][][]string{{{"inc(n=2)"}}, {}},
			errorType: ErrEmptyTurn, turn: 1, message: "Model response list is empty for turn 1",
			turns: []turnWant{{true, false, true, 1, []string{`{"count": 2}`}}, {true, true, true, 0, []string{"2"}}}},
		{name: "one empty step is an empty turn", gold: [][]string{{"inc(n=2)"}}, model: [][][]string{{{}}},
			errorType: ErrEmptyTurn, turn: 0, message: "Model response list is empty for turn 0",
			turns: []turnWant{{true, true, false, 0, []string{`{"count": 2}`}}}},
		{name: "state, then later turns still checked", gold: [][]string{{"inc(n=2)"}, {"inc(n=1)"}}, model: [][][]string{{{"inc(n=3)"}}, {{"reset()"}, {"inc(n=3)"}}},
			errorType: ErrStateMismatch, turn: 0, message: "Model instance for ParthackTestCounter does not match the state with ground truth instance.",
			turns: []turnWant{{true, false, false, 0, []string{`{"count": 2}`}}, {true, false, true, 1, []string{`{"count": 3}`}}}},
		{name: "state before response", gold: [][]string{{"inc(n=2)"}}, model: [][][]string{{{"inc(n=5)"}}},
			errorType: ErrStateMismatch, turn: 0, message: "Model instance for ParthackTestCounter does not match the state with ground truth instance.",
			turns: []turnWant{{true, false, false, 0, []string{`{"count": 2}`}}}},
		{name: "response", gold: [][]string{{"inc(n=2)"}, {"get()"}}, model: [][][]string{{{"inc(n=1)", "inc(n=1)"}}, {{"reset()", "inc(n=2)"}}},
			errorType: ErrResponseMismatch, turn: 1, message: "Model response execution results so far does not contain all the ground truth response execution results for turn 1.",
			turns: []turnWant{{true, false, true, 1, []string{`{"count": 2}`}}, {true, false, true, 0, []string{"2"}}}},
		{name: "a result of an earlier turn counts", gold: [][]string{{"inc(n=2)"}, {"inc(n=0)"}}, model: [][][]string{{{"inc(n=2)"}}, {{"get()"}}},
			valid: true, turn: -1, turns: []turnWant{{true, false, true, 1, []string{`{"count": 2}`}}, {true, false, true, 1, []string{`{"count": 2}`}}}},
		{name: "each model result matches one gold result", gold: [][]string{{"inc(n=0)", "inc(n=0)"}}, model: [][][]string{{{"inc(n=0)"}}},
			errorType: ErrResponseMismatch, turn: 0, message: "Model response execution results so far does not contain all the ground truth response execution results for turn 0.",
			turns: []turnWant{{true, false, true, 1, []string{`{"count": 0}`, `{"count": 0}`}}}},
		{name: "a turn without gold calls is not checked", gold: [][]string{{"inc(n=1)"}, {}, {"get()"}}, model: [][][]string{{{"inc(n=1)"}}, {{"inc(n=5)"}}, {{"inc(n=-5)"}, {"get()"}}},
			valid: true, turn: -1, turns: []turnWant{{true, false, true, 1, []string{`{"count": 1}`}}, {false, false, false, 0, []string{}}, {true, false, true, 1, []string{"1"}}}},
		{name: "an error is a result: the same error matches", gold: [][]string{{"inc(n='x')"}}, model: [][][]string{{{"inc(n='y')"}}},
			valid: true, turn: -1, turns: []turnWant{{true, false, true, 1, []string{"Error during execution: unsupported operand type(s) for +=: 'int' and 'str'"}}}},
		{name: "an error is a result: another error does not match", gold: [][]string{{"inc(n='x')"}}, model: [][][]string{{{"inc(n=None)"}}},
			errorType: ErrResponseMismatch, turn: 0, message: "Model response execution results so far does not contain all the ground truth response execution results for turn 0.",
			turns: []turnWant{{true, false, true, 0, []string{"Error during execution: unsupported operand type(s) for +=: 'int' and 'str'"}}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			v := Check(counterEntry(c.gold...), c.model)
			if v.Valid != c.valid || v.ErrorType != c.errorType || v.ErrorMessage != c.message || v.Turn != c.turn {
				t.Errorf("verdict %v %q %q turn %d; want %v %q %q turn %d", v.Valid, v.ErrorType, v.ErrorMessage, v.Turn, c.valid, c.errorType, c.message, c.turn)
			}
			if len(v.Turns) != len(c.turns) {
				t.Fatalf("%d turns, want %d", len(v.Turns), len(c.turns))
			}
			for i, w := range c.turns {
				tc := v.Turns[i]
				if tc.Checked != w.checked || tc.Empty != w.empty || tc.StateEqual != w.stateEqual || tc.Found != w.found || !reflect.DeepEqual(tc.GoldResults, w.gold) {
					t.Errorf("turn %d: checked %v empty %v state %v found %d gold %q; want %+v", i, tc.Checked, tc.Empty, tc.StateEqual, tc.Found, tc.GoldResults, w)
				}
			}
		})
	}
}

func TestCheckDetails(t *testing.T) {
	v := Check(counterEntry([]string{"inc(n=2)"}, []string{"get()"}), [][][]string{{{"inc(n=3)"}}, {{"get()"}}})
	if v.Class != counter || !reflect.DeepEqual(v.Differences, []string{"count"}) || !reflect.DeepEqual(v.Turns[0].StateDiffers, []StateDiff{{counter, []string{"count"}}}) {
		t.Errorf("state mismatch details: %s %v %+v", v.Class, v.Differences, v.Turns[0].StateDiffers)
	}
	if !reflect.DeepEqual(v.Turns[1].Missing, []string{"2"}) || v.Turns[1].Passed() || v.Turns[0].Passed() {
		t.Errorf("turn 1: missing %q, passed %v", v.Turns[1].Missing, v.Turns[1].Passed())
	}
	if !reflect.DeepEqual(v.Turns[1].ModelResults, [][]string{{"3"}}) {
		t.Errorf("model results %q", v.Turns[1].ModelResults)
	}
	r := &Result{ID: "multi_turn_base_900", Failed: true, InferenceError: "Error during inference: boom"}
	v = Checker{}.Score(counterEntry([]string{"get()"}), r)
	if v.Valid || v.ErrorType != ErrInferenceError || v.ErrorMessage != "Error during inference phase. Model did not output a list of model responses." || v.Turns[0].Ran {
		t.Errorf("inference error: %+v", v)
	}
	if got := v.String(); got != "multi_turn:inference_error" {
		t.Errorf("String() %q", got)
	}
}
