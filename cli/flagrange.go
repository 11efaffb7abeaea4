package cli

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/parthack/parthack/internal/worker"
)

// Every numeric flag of every command is defined through intFlag,
// intsFlag or durationFlag with the range it allows. A value outside the
// range, or one that is not a number, fails when the command line is
// parsed, with a usage error (exit 2) that names the flag, the value and
// the range: no command ever runs with a bound it silently replaced.

// Ranges shared by several commands.
var (
	editsRange     = intRange{min: 1, max: 64}
	maxStatesRange = intRange{min: 1, max: 1_000_000_000}
	maxTokensRange = intRange{min: 1, max: 1_000_000}
	timeoutRange   = durationRange{min: time.Millisecond, max: 24 * time.Hour}
	landlockRange  = intRange{min: worker.MinLandlockABI, max: worker.NewestLandlockABI, zero: "the kernel's newest"}
)

// intRange is the closed interval [min, max] an int flag allows; when
// zero is set, 0 is allowed too and means what zero says.
type intRange struct {
	min, max int
	zero     string
}

func (r intRange) allows(v int) bool {
	return v >= r.min && v <= r.max || v == 0 && r.zero != ""
}

func (r intRange) String() string {
	s := fmt.Sprintf("%d to %d", r.min, r.max)
	if r.zero != "" {
		s += ", or 0 for " + r.zero
	}
	return s
}

// durationRange is the closed interval [min, max] a duration flag allows.
type durationRange struct{ min, max time.Duration }

func (r durationRange) String() string {
	return fmt.Sprintf("%s to %s", shortDuration(r.min), shortDuration(r.max))
}

// rangeError is a numeric flag's value that is not a number or is out of
// its range. Main reports it as a usage error in its own words.
type rangeError struct {
	flag, value, allowed string
	notNumber            string // "an integer", "a duration"; empty when out of range
}

func (e *rangeError) Error() string {
	if e.notNumber != "" {
		return fmt.Sprintf("--%s %q is not %s: allowed %s", e.flag, e.value, e.notNumber, e.allowed)
	}
	return fmt.Sprintf("--%s %s is out of range: allowed %s", e.flag, e.value, e.allowed)
}

// flagRangeError finds a rangeError inside a flag parsing error.
func flagRangeError(err error) (*rangeError, bool) {
	var re *rangeError
	ok := errors.As(err, &re)
	return re, ok
}

// checkInt is the one range check of int flags.
func checkInt(flag, s string, r intRange) (int, error) {
	v, err := strconv.ParseInt(strings.TrimSpace(s), 10, strconv.IntSize)
	if err != nil {
		var ne *strconv.NumError
		if errors.As(err, &ne) && ne.Err == strconv.ErrRange {
			return 0, &rangeError{flag: flag, value: s, allowed: r.String()}
		}
		return 0, &rangeError{flag: flag, value: s, allowed: r.String(), notNumber: "an integer"}
	}
	if !r.allows(int(v)) {
		return 0, &rangeError{flag: flag, value: strconv.FormatInt(v, 10), allowed: r.String()}
	}
	return int(v), nil
}

// intValue is an int flag held to a range.
type intValue struct {
	p    *int
	name string
	r    intRange
}

func (v *intValue) String() string { return strconv.Itoa(*v.p) }
func (v *intValue) Type() string   { return "int" }
func (v *intValue) Set(s string) error {
	n, err := checkInt(v.name, s, v.r)
	if err == nil {
		*v.p = n
	}
	return err
}

// intFlag defines an int flag that allows only r; the range is added to
// the usage text.
func intFlag(fs *pflag.FlagSet, p *int, name string, def int, r intRange, usage string) {
	if !r.allows(def) {
		panic(fmt.Sprintf("--%s: default %d outside %s", name, def, r))
	}
	*p = def
	fs.Var(&intValue{p: p, name: name, r: r}, name, usage+" ("+r.String()+")")
}

// intsValue is a comma-separated list of ints, each held to a range.
type intsValue struct {
	p       *[]int
	name    string
	r       intRange
	changed bool
}

func (v *intsValue) String() string {
	if len(*v.p) == 0 {
		return "" // help shows no default
	}
	s := make([]string, len(*v.p))
	for i, n := range *v.p {
		s[i] = strconv.Itoa(n)
	}
	return "[" + strings.Join(s, ",") + "]"
}
func (v *intsValue) Type() string { return "ints" }
func (v *intsValue) Set(s string) error {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := checkInt(v.name, f, v.r)
		if err != nil {
			return err
		}
		out = append(out, n)
	}
	if !v.changed {
		*v.p = out
	} else {
		*v.p = append(*v.p, out...)
	}
	v.changed = true
	return nil
}

// intsFlag defines a list of ints (1,2,3 or the flag repeated), each of
// which must lie in r.
func intsFlag(fs *pflag.FlagSet, p *[]int, name string, r intRange, usage string) {
	fs.Var(&intsValue{p: p, name: name, r: r}, name, usage+" (each "+r.String()+")")
}

// durationValue is a duration flag held to a range.
type durationValue struct {
	p    *time.Duration
	name string
	r    durationRange
}

func (v *durationValue) String() string { return v.p.String() }
func (v *durationValue) Type() string   { return "duration" }
func (v *durationValue) Set(s string) error {
	d, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil {
		return &rangeError{flag: v.name, value: s, allowed: v.r.String(), notNumber: "a duration such as 90s or 2m"}
	}
	if d < v.r.min || d > v.r.max {
		return &rangeError{flag: v.name, value: s, allowed: v.r.String()}
	}
	*v.p = d
	return nil
}

// durationFlag defines a duration flag that allows only r.
func durationFlag(fs *pflag.FlagSet, p *time.Duration, name string, def time.Duration, r durationRange, usage string) {
	if def < r.min || def > r.max {
		panic(fmt.Sprintf("--%s: default %s outside %s", name, def, r))
	}
	*p = def
	fs.Var(&durationValue{p: p, name: name, r: r}, name, usage+" ("+r.String()+")")
}

// shortDuration writes 24h rather than 24h0m0s.
func shortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = s[:len(s)-2]
	}
	if strings.HasSuffix(s, "h0m") {
		s = s[:len(s)-2]
	}
	return s
}
