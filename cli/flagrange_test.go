package cli

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// TestNumericFlagRanges: a numeric flag's value outside its range, or not
// a number, is a usage error (exit 2) that names the flag, the value and
// the allowed range, found before the command runs.
func TestNumericFlagRanges(t *testing.T) {
	task := example("task.json")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"attack", "--task", task, "--edits", "0"}, "--edits 0 is out of range: allowed 1 to 64"},
		{[]string{"attack", "--task", task, "--edits", "-3"}, "--edits -3 is out of range: allowed 1 to 64"},
		{[]string{"attack", "--task", task, "--edits=65"}, "--edits 65 is out of range: allowed 1 to 64"},
		{[]string{"attack", "--task", task, "--edits", "two"}, `--edits "two" is not an integer: allowed 1 to 64`},
		{[]string{"attack", "--task", task, "--edits", "99999999999999999999"}, "--edits 99999999999999999999 is out of range: allowed 1 to 64"},
		{[]string{"attack", "--task", task, "--max-states", "0"}, "--max-states 0 is out of range: allowed 1 to 1000000000"},
		{[]string{"attack", "--llm", "--task", task, "--k", "0"}, "--k 0 is out of range: allowed 1 to 1000"},
		{[]string{"attack", "--llm", "--task", task, "--attacker-max-tokens", "-1"}, "--attacker-max-tokens -1 is out of range: allowed 1 to 1000000"},
		{[]string{"attack", "--llm", "--task", task, "--attacker-timeout", "0s"}, "--attacker-timeout 0s is out of range: allowed 1ms to 24h"},
		{[]string{"attack", "--llm", "--task", task, "--attacker-timeout", "soon"}, `--attacker-timeout "soon" is not a duration such as 90s or 2m: allowed 1ms to 24h`},
		{[]string{"bench", "--edits", "0"}, "--edits 0 is out of range: allowed 1 to 64"},
		{[]string{"bench", "--edits", "-1"}, "--edits -1 is out of range: allowed 1 to 64"},
		{[]string{"bench", "--max-states", "-5"}, "--max-states -5 is out of range: allowed 1 to 1000000000"},
		{[]string{"bench", "--budgets", "1,0,3"}, "--budgets 0 is out of range: allowed 1 to 64"},
		{[]string{"bench", "--budgets", "1,x"}, `--budgets "x" is not an integer: allowed 1 to 64`},
		{[]string{"bench", "--judge-calls", "-1"}, "--judge-calls -1 is out of range: allowed 1 to 1000, or 0 for the shared set only"},
		{[]string{"bench", "--judge", "--judge-max-tokens", "0"}, "--judge-max-tokens 0 is out of range: allowed 1 to 1000000"},
		{[]string{"bench", "--judge", "--judge-timeout", "-1s"}, "--judge-timeout -1s is out of range: allowed 1ms to 24h"},
		{[]string{"score", "--task", task, "--trajectory", task, "--judge-timeout", "25h"}, "--judge-timeout 25h is out of range: allowed 1ms to 24h"},
		{[]string{"score", "--task", task, "--trajectory", task, "--scorer-timeout", "0"}, "--scorer-timeout 0 is out of range: allowed 1ms to 24h"},
		{[]string{"score", "--task", task, "--trajectory", task, "--scorer-landlock-abi", "3"}, "--scorer-landlock-abi 3 is out of range: allowed 6 to 11, or 0 for the kernel's newest"},
		{[]string{"audit", "--probes", "--landlock-abi", "12"}, "--landlock-abi 12 is out of range: allowed 6 to 11, or 0 for the kernel's newest"},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args[:1], " ")+" "+c.want, func(t *testing.T) {
			code, out, errOut := run(t, c.args...)
			if want := "parthack: " + c.want + "\n"; code != ExitUsage || errOut != want {
				t.Errorf("exit %d (want %d)\nstderr: %q\nwant    %q\nstdout: %s", code, ExitUsage, errOut, want, out)
			}
		})
	}
}

// TestNumericFlagsAreRanged: every numeric flag of every command goes
// through the range-checked flag helpers, so none can be added that
// silently accepts any number.
func TestNumericFlagsAreRanged(t *testing.T) {
	e := &env{}
	seen := 0
	for _, mk := range commands {
		var walk func(*cobra.Command)
		walk = func(cmd *cobra.Command) {
			cmd.Flags().VisitAll(func(f *pflag.Flag) {
				switch f.Value.(type) {
				case *intValue, *intsValue, *durationValue:
					seen++
					return
				}
				switch f.Value.Type() {
				case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64",
					"float32", "float64", "duration", "intSlice", "int32Slice", "int64Slice", "uintSlice",
					"float32Slice", "float64Slice", "durationSlice", "count":
					t.Errorf("%s --%s is a %s flag without a range: define it with intFlag, intsFlag or durationFlag", cmd.CommandPath(), f.Name, f.Value.Type())
				}
			})
			for _, sub := range cmd.Commands() {
				walk(sub)
			}
		}
		walk(mk(e))
	}
	if seen == 0 {
		t.Fatal("no ranged flag found")
	}
}

// TestFlagRangeDefaults: the defaults stand, and a value in range is
// taken as given (decimal, never octal).
func TestFlagRangeDefaults(t *testing.T) {
	fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
	var n int
	var bs []int
	intFlag(fs, &n, "edits", 2, editsRange, "edits")
	intsFlag(fs, &bs, "budgets", editsRange, "budgets")
	if n != 2 {
		t.Fatalf("default %d, want 2", n)
	}
	if err := fs.Parse([]string{"--edits", "010", "--budgets", "1,2", "--budgets", "3"}); err != nil {
		t.Fatal(err)
	}
	if n != 10 || len(bs) != 3 || bs[2] != 3 {
		t.Fatalf("--edits 010 gave %d, --budgets gave %v", n, bs)
	}
	defer func() {
		if recover() == nil {
			t.Fatal("a default outside the range was accepted")
		}
	}()
	intFlag(fs, &n, "bad", 0, editsRange, "bad")
}
